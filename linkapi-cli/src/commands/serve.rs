//! `linkapi serve`: the server in this process, with the first key handed to profile `local`,
//! and the profiles holding its keys moved along when it starts on another address.

use std::path::{Path, PathBuf};

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
    let data_dir = identity(&server.data_dir);
    // Failures here must not stop the server: they are said, and keys can be moved by hand.
    if let Err(err) = follow(&ctx, &api, &data_dir) {
        ctx.out.warn(&format!(
            "could not point the profiles of this server at {api}: {err:#}"
        ));
    }
    if let Some(key) = server.bootstrap.as_ref().filter(|k| k.generated) {
        match remember(&ctx, &api, &key.secret, &data_dir) {
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
fn remember(ctx: &Context, api: &str, key: &str, data_dir: &Path) -> Result<(String, String)> {
    let mut config = Config::load(&ctx.config_dir)?;
    let profile = free_profile(ctx, &config)?;
    let mode = config
        .profiles
        .get(&profile)
        .map(|p| p.credential_store)
        .unwrap_or_default();
    let saved = ctx.credentials.save(&profile, api, key, mode)?;
    let entry = config.profiles.entry(profile.clone()).or_default();
    entry.host = Some(api.to_owned());
    entry.served_from = Some(data_dir.to_owned());
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

/// How a server's data directory is named in profiles: its canonical path, so `./data` and
/// `/home/me/data` are one server.
fn identity(data_dir: &Path) -> PathBuf {
    std::fs::canonicalize(data_dir).unwrap_or_else(|_| data_dir.to_owned())
}

/// Points every profile that `linkapi serve` filled from `data_dir` at `api`, moving its key
/// along (a stored key is bound to its server's address), and says so. Profiles filled by hand
/// (`auth login`) are never moved: nothing says which server they belong to.
fn follow(ctx: &Context, api: &str, data_dir: &Path) -> Result<()> {
    let mut config = Config::load(&ctx.config_dir)?;
    let mut moved = Vec::new();
    for (name, profile) in &mut config.profiles {
        let Some(old) = profile.host.clone().filter(|host| host != api) else {
            continue;
        };
        if profile.served_from.as_deref() != Some(data_dir) {
            continue;
        }
        let mode = profile.credential_store;
        if let Some((key, _)) = ctx.credentials.load(name, &old, mode)? {
            ctx.credentials.save(name, api, &key, mode)?;
            ctx.credentials.delete(name, &old, mode)?;
        }
        profile.host = Some(api.to_owned());
        moved.push((name.clone(), old));
    }
    if moved.is_empty() {
        return Ok(());
    }
    config.save(&ctx.config_dir)?;
    for (name, old) in moved {
        ctx.out.note(&format!(
            "Profile \"{name}\" now points at {api} (it was {old}): it follows this server."
        ));
    }
    Ok(())
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
