//! `linkapi serve`: the server in this process, with the first key handed to profile `local`.

use anyhow::Result;
use linkapi_server::{
    INITIAL_KEY_ENV, ServeArgs, Server, bootstrap_notice, init_logging, reachable,
};

use crate::config::Config;
use crate::context::Context;
use crate::credentials::{Saved, fallback_warning};

/// The profile `linkapi serve` stores its first key in.
pub const LOCAL_PROFILE: &str = "local";

/// `linkapi serve`
pub async fn serve(ctx: Context, args: ServeArgs) -> Result<()> {
    init_logging();
    let initial = std::env::var(INITIAL_KEY_ENV).ok();
    let server = Server::bind(&args, initial.as_deref()).await?;
    if let Some(notice) = bootstrap_notice(&server) {
        ctx.out.note(&notice);
    }
    let api = format!("http://{}", reachable(server.local_addr));
    if let Some(key) = server.bootstrap.as_ref().filter(|k| k.generated) {
        // A failure here must not stop the server: the key was printed and can be stored by hand.
        match remember(&ctx, &api, &key.secret) {
            Ok((profile, where_)) if profile == LOCAL_PROFILE => ctx.out.note(&format!(
                "Stored it in profile \"{profile}\" ({where_}); other linkapi commands use it.\n"
            )),
            Ok((profile, where_)) => ctx.out.note(&format!(
                "Profile \"{LOCAL_PROFILE}\" already holds a key, which was kept. Stored this one in \
                 profile \"{profile}\" ({where_}); use it with --profile {profile} \
                 (or LINKAPI_PROFILE={profile}).\n"
            )),
            Err(err) => ctx.out.warn(&format!(
                "could not store the key in profile \"{LOCAL_PROFILE}\": {err:#}"
            )),
        }
    }
    ctx.out.note(&format!(
        "linkapi: listening on {api} (short links: {})",
        server.public_url
    ));
    server.run(linkapi_server::shutdown_signal()).await
}

/// Saves the key for `api` in profile `local`, or, when that profile already holds a key, in
/// the first of `local-2`, `local-3`, ... that holds none: a key shown once must never be
/// overwritten. Makes the profile the default when there is none yet. Returns the profile and
/// where the key went.
fn remember(ctx: &Context, api: &str, key: &str) -> Result<(String, String)> {
    let mut config = Config::load(&ctx.config_dir)?;
    let profile = free_profile(ctx, &config)?;
    let mode = config
        .profiles
        .get(&profile)
        .map(|p| p.credential_store)
        .unwrap_or_default();
    let saved = ctx.credentials.save(&profile, api, key, mode)?;
    config.profiles.entry(profile.clone()).or_default().host = Some(api.to_owned());
    if config.default_profile.is_none() {
        config.default_profile = Some(profile.clone());
    }
    config.save(&ctx.config_dir)?;
    let where_ = match saved {
        Saved::Keyring => "OS keyring".to_owned(),
        Saved::File(reason) => {
            if let Some(reason) = reason {
                let file = ctx.credentials.file_path();
                ctx.out.warn(&fallback_warning(&reason, file));
            }
            format!("plain text in {}", ctx.credentials.file_path().display())
        }
    };
    Ok((profile, where_))
}

/// `local`, or the first `local-N` whose profile holds no stored key.
fn free_profile(ctx: &Context, config: &Config) -> Result<String> {
    let mut name = LOCAL_PROFILE.to_owned();
    let mut n = 1;
    loop {
        let held = match config.profiles.get(&name) {
            Some(existing) => match &existing.host {
                Some(host) => ctx
                    .credentials
                    .load(&name, host, existing.credential_store)?
                    .is_some(),
                None => false,
            },
            None => false,
        };
        if !held {
            return Ok(name);
        }
        n += 1;
        name = format!("{LOCAL_PROFILE}-{n}");
    }
}
