//! `linkapi serve`: the server in this process, with the first key handed to profile `local`.

use anyhow::Result;
use linkapi_server::{
    INITIAL_KEY_ENV, ServeArgs, Server, bootstrap_notice, init_logging, reachable,
};

use crate::config::Config;
use crate::context::Context;
use crate::credentials::Saved;

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
            Ok(where_) => ctx.out.note(&format!(
                "Stored it in profile \"{LOCAL_PROFILE}\" ({where_}); other linkapi commands use it.\n"
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

/// Saves the key for `api` in profile `local` and makes `local` the default profile when there
/// is none yet.
fn remember(ctx: &Context, api: &str, key: &str) -> Result<String> {
    let mut config = Config::load(&ctx.config_dir)?;
    let mode = config
        .profiles
        .get(LOCAL_PROFILE)
        .map(|p| p.credential_store)
        .unwrap_or_default();
    let saved = ctx.credentials.save(LOCAL_PROFILE, api, key, mode)?;
    config
        .profiles
        .entry(LOCAL_PROFILE.to_owned())
        .or_default()
        .host = Some(api.to_owned());
    if config.default_profile.is_none() {
        config.default_profile = Some(LOCAL_PROFILE.to_owned());
    }
    config.save(&ctx.config_dir)?;
    Ok(match saved {
        Saved::Keyring => "OS keyring".to_owned(),
        Saved::File(reason) => {
            if let Some(reason) = reason {
                ctx.out
                    .warn(&format!("could not use the OS keyring ({reason})"));
            }
            format!("plain text in {}", ctx.credentials.file_path().display())
        }
    })
}
