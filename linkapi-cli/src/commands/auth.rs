//! `linkapi auth login|status|logout|token`.

use std::io::Read;

use anyhow::{Result, bail};
use linkapi_core::client::{Client, ClientError};

use crate::cli::AuthCommand;
use crate::config::StoreMode;
use crate::config::env_key;
use crate::context::Context;
use crate::credentials::{Saved, Source, fallback_warning, mask};
use crate::exit::{NotLoggedIn, Reported, UsageError};

/// Runs `linkapi auth ...`.
pub async fn run(ctx: Context, command: AuthCommand) -> Result<()> {
    match command {
        AuthCommand::Login {
            with_key,
            insecure_storage,
        } => login(ctx, with_key, insecure_storage).await,
        AuthCommand::Status { show_key } => status(ctx, show_key).await,
        AuthCommand::Logout => logout(ctx),
        AuthCommand::Token => token(ctx),
    }
}

/// What the server says of a key.
enum Check {
    /// It authenticates (it may still lack scopes).
    Valid,
    /// 401.
    Refused,
    /// No connection, or no answer in time: the server is stopped, moved or cut off, which
    /// says nothing of the key.
    Unreachable(String),
    /// An unexpected answer.
    Unknown(String),
}

/// Asks the server about `key`. `GET /domains` answers 401 for a bad key and 200 or 403 for a
/// good one, whatever its scopes.
async fn check(host: &str, key: &str) -> Result<Check> {
    let client = Client::new(host, key)?;
    Ok(match client.domains().await {
        Ok(_) | Err(ClientError::Api { status: 403, .. }) => Check::Valid,
        Err(ClientError::Api { status: 401, .. }) => Check::Refused,
        Err(err @ (ClientError::Connect { .. } | ClientError::Timeout { .. })) => {
            Check::Unreachable(err.to_string())
        }
        Err(other) => Check::Unknown(other.to_string()),
    })
}

/// `linkapi auth login`
async fn login(mut ctx: Context, with_key: bool, insecure_storage: bool) -> Result<()> {
    if env_key().is_some() {
        bail!(
            "LINKAPI_API_KEY is set and overrides every stored key; unset it first to store a key"
        );
    }
    let mode = match (insecure_storage, ctx.mode()) {
        (true, StoreMode::Keyring) => {
            return Err(UsageError(format!(
                "profile {:?} demands the keyring (credential_store = \"keyring\"); \
                 --insecure-storage cannot be used with it",
                ctx.profile
            ))
            .into());
        }
        (true, _) => StoreMode::File,
        (false, mode) => mode,
    };
    let key = if with_key {
        let mut text = String::new();
        std::io::stdin().read_to_string(&mut text)?;
        text.trim().to_owned()
    } else if ctx.can_prompt() {
        crate::context::ask_hidden(format!("API key for {}", ctx.host))
            .await?
            .trim()
            .to_owned()
    } else {
        return Err(UsageError(
            "no terminal to ask for the key: pipe it on standard input with --with-key".into(),
        )
        .into());
    };
    if key.is_empty() {
        return Err(UsageError("the key is empty".into()).into());
    }
    match check(&ctx.host, &key).await? {
        Check::Valid => {}
        Check::Refused => {
            return Err(ClientError::Api {
                status: 401,
                code: linkapi_core::error::names::INVALID_API_KEY.as_str().into(),
                message: format!("{} refused the key", ctx.host),
                retry_after: None,
                request_id: None,
            }
            .into());
        }
        Check::Unreachable(why) | Check::Unknown(why) => {
            bail!("could not check the key with {}: {why}", ctx.host)
        }
    }

    let saved = ctx.credentials.save(&ctx.profile, &ctx.host, &key, mode)?;
    let profile = ctx.config.profiles.entry(ctx.profile.clone()).or_default();
    profile.host = Some(ctx.host.clone());
    if ctx.config.default_profile.is_none() {
        ctx.config.default_profile = Some(ctx.profile.clone());
    }
    ctx.config.save(&ctx.config_dir)?;
    match saved {
        Saved::Keyring => ctx.out.note(&format!(
            "Logged in to {} (profile {}); the key is in the OS keyring.",
            ctx.host, ctx.profile
        )),
        Saved::File(reason) => {
            if let Some(reason) = reason {
                let file = ctx.credentials.file_path();
                ctx.out.warn(&fallback_warning(&reason, file));
            }
            ctx.out.note(&format!(
                "Logged in to {} (profile {}); the key is in {}.",
                ctx.host,
                ctx.profile,
                ctx.credentials.file_path().display()
            ));
        }
    }
    Ok(())
}

/// `linkapi auth status`
async fn status(ctx: Context, show_key: bool) -> Result<()> {
    let mut names: Vec<String> = ctx.config.profiles.keys().cloned().collect();
    if !names.contains(&ctx.profile) {
        names.push(ctx.profile.clone());
    }
    let mut any_key = false;
    // Keys refused or unreadable, and servers that did not answer.
    let (mut problems, mut unreachable) = (0, 0);
    for name in &names {
        let current = *name == ctx.profile;
        let profile = ctx.config.profiles.get(name).cloned().unwrap_or_default();
        let host = if current {
            ctx.host.clone()
        } else {
            profile
                .host
                .clone()
                .unwrap_or_else(|| crate::config::DEFAULT_HOST.to_owned())
        };
        let found = match (current, env_key()) {
            (true, Some(key)) => Some((key, Source::Env)),
            _ => match ctx.credentials.load(name, &host, profile.credential_store) {
                Ok(found) => found,
                Err(err) => {
                    problems += 1;
                    ctx.out.line(&format!(
                        "{name}{}",
                        if current { " (current)" } else { "" }
                    ));
                    ctx.out.line(&format!("  host:   {host}"));
                    ctx.out.line(&format!("  key:    unreadable: {err:#}"));
                    continue;
                }
            },
        };
        ctx.out.line(&format!(
            "{name}{}",
            if current { " (current)" } else { "" }
        ));
        ctx.out.line(&format!("  host:   {host}"));
        let Some((key, source)) = found else {
            ctx.out.line("  key:    none (run `linkapi auth login`)");
            continue;
        };
        any_key = true;
        let shown = if show_key { key.clone() } else { mask(&key) };
        ctx.out
            .line(&format!("  key:    {shown} (from {})", source.describe()));
        let state = match check(&host, &key).await? {
            Check::Valid => "valid".to_owned(),
            Check::Refused => {
                problems += 1;
                "refused by the server (unknown, revoked or expired)".to_owned()
            }
            Check::Unreachable(why) => {
                unreachable += 1;
                format!("unreachable ({why}); the key was not checked")
            }
            Check::Unknown(why) => {
                problems += 1;
                format!("could not check: {why}")
            }
        };
        ctx.out.line(&format!("  status: {state}"));
    }
    if !any_key {
        return Err(NotLoggedIn {
            host: ctx.host.clone(),
            profile: ctx.profile.clone(),
            key_for: None,
        }
        .into());
    }
    let said: Vec<String> = [
        (problems, "have a key that does not work"),
        (unreachable, "have a server that did not answer"),
    ]
    .into_iter()
    .filter(|(n, _)| *n > 0)
    .map(|(n, what)| format!("{n} profile(s) {what}"))
    .collect();
    if !said.is_empty() {
        return Err(Reported(said.join("; ")).into());
    }
    Ok(())
}

/// `linkapi auth logout`
fn logout(ctx: Context) -> Result<()> {
    if !ctx
        .credentials
        .delete(&ctx.profile, &ctx.host, ctx.mode())?
    {
        return Err(NotLoggedIn {
            host: ctx.host.clone(),
            profile: ctx.profile.clone(),
            key_for: None,
        }
        .into());
    }
    ctx.out.note(&format!(
        "Logged out of {} (profile {}). The key itself still works on the server; \
         revoke it with `linkapi admin key revoke ID` if it should not.",
        ctx.host, ctx.profile
    ));
    if env_key().is_some() {
        ctx.out
            .warn("LINKAPI_API_KEY is still set and is used for every command");
    }
    Ok(())
}

/// `linkapi auth token`
fn token(ctx: Context) -> Result<()> {
    let (key, _) = ctx.key()?;
    ctx.out.line(&key);
    Ok(())
}
