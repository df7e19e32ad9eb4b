//! Exit codes and the messages failures are shown with.

use linkapi_core::error::names;
use std::process::ExitCode;

use linkapi_core::client::ClientError;

/// 0: success.
pub const OK: u8 = 0;
/// 1: failure.
pub const FAILURE: u8 = 1;
/// 2: usage.
pub const USAGE: u8 = 2;
/// 4: authentication.
pub const AUTH: u8 = 4;
/// 130: interrupted by Ctrl-C (128 + SIGINT), as a shell reports it.
pub const INTERRUPTED: u8 = 130;

/// A usage mistake found after parsing (a bad `--json` field, a prompt that cannot be shown).
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct UsageError(pub String);

/// No key for the server: not logged in.
#[derive(Debug, thiserror::Error)]
#[error("not logged in to {host} (profile {profile:?})")]
pub struct NotLoggedIn {
    /// Server.
    pub host: String,
    /// Profile.
    pub profile: String,
    /// Another server the profile has a key for (its own, when `--host` named this one): the
    /// server may have moved here, and its key with it.
    pub key_for: Option<String>,
}

/// How to take a profile's key from the server it was stored for to the one it is now at.
pub fn move_key(from: Option<&str>, to: &str) -> String {
    let token = match from {
        Some(from) => format!("linkapi auth token --host {from}"),
        None => "linkapi auth token".to_owned(),
    };
    format!("`{token} | linkapi auth login --host {to} --with-key`")
}

/// An all-digit CHAIN was taken as an id, and no chain of the caller has that id.
#[derive(Debug, thiserror::Error)]
#[error("no chain has id {0}")]
pub struct NoChainWithId(pub String);

/// Already reported failures (bulk import with failed lines): exit 1 with nothing more.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct Reported(pub String);

/// Stopped by Ctrl-C after saying what was done: exit 130 with this message.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct Interrupted(pub String);

/// How a failure is shown: the message, a hint, and the exit code.
pub struct Report {
    /// `linkapi: error: ...`
    pub message: String,
    /// `hint: ...`, when there is something to do.
    pub hint: Option<String>,
    /// Exit status.
    pub code: u8,
}

/// Classifies an error for the user.
pub fn report(err: &anyhow::Error) -> Report {
    if let Some(usage) = err.downcast_ref::<UsageError>() {
        return Report {
            message: usage.0.clone(),
            hint: None,
            code: USAGE,
        };
    }
    if let Some(missing) = err.downcast_ref::<NotLoggedIn>() {
        let hint = match &missing.key_for {
            Some(other) => format!(
                "profile {:?} has a key for {other}; if that server moved here, take its key \
                 along: {}",
                missing.profile,
                move_key(Some(other), &missing.host)
            ),
            None => format!(
                "run `linkapi auth login --host {}`, or set LINKAPI_API_KEY",
                missing.host
            ),
        };
        return Report {
            message: missing.to_string(),
            hint: Some(hint),
            code: AUTH,
        };
    }
    if let Some(NoChainWithId(chain)) = err.downcast_ref::<NoChainWithId>() {
        return Report {
            message: format!("no chain has id {chain}"),
            hint: Some(format!(
                "an all-digit CHAIN is taken as an id; to look up the code \"{chain}\", add --code"
            )),
            code: FAILURE,
        };
    }
    if let Some(Interrupted(message)) = err.downcast_ref::<Interrupted>() {
        return Report {
            message: message.clone(),
            hint: None,
            code: INTERRUPTED,
        };
    }
    if let Some(reported) = err.downcast_ref::<Reported>() {
        return Report {
            message: reported.0.clone(),
            hint: None,
            code: FAILURE,
        };
    }
    if let Some(client) = err.chain().find_map(|e| e.downcast_ref::<ClientError>()) {
        return client_report(err, client);
    }
    Report {
        message: format!("{err:#}"),
        hint: None,
        code: FAILURE,
    }
}

fn client_report(err: &anyhow::Error, client: &ClientError) -> Report {
    // What the command was doing, without repeating the client error itself.
    let outer = err.to_string();
    let doing = if outer == client.to_string() {
        String::new()
    } else {
        format!("{outer}: ")
    };
    client_report_doing(&doing, client)
}

/// A client error in one line, its hint in brackets: for commands that report many results
/// (a batch's files) rather than fail as a whole.
pub fn one_line(client: &ClientError) -> String {
    let report = client_report_doing("", client);
    match report.hint {
        Some(hint) => format!("{} ({hint})", report.message),
        None => report.message,
    }
}

fn client_report_doing(doing: &str, client: &ClientError) -> Report {
    let context = || doing.to_owned();
    match client {
        ClientError::Connect { url, .. } => Report {
            message: format!("{}could not connect to {}", context(), origin(url)),
            hint: Some(format!(
                "is the server running? Start one with `linkapi serve`; if it moved, {} takes \
                 the key to its new address",
                move_key(None, "NEW_URL")
            )),
            code: FAILURE,
        },
        ClientError::Timeout { url } => Report {
            message: format!("{}{} did not answer in time", context(), origin(url)),
            hint: None,
            code: FAILURE,
        },
        ClientError::Api {
            status,
            message,
            retry_after,
            request_id,
            code: short_name,
            ..
        } => {
            let (hint, code) = match status {
                401 if *short_name == names::USER_SUSPENDED.as_str() => (
                    Some("an administrator can resume the key's user: `linkapi admin user resume USER`".to_owned()),
                    AUTH,
                ),
                // The variable wins over every stored key, so storing another would not help.
                401 if crate::config::env_key().is_some() => (
                    Some("LINKAPI_API_KEY is set and is used before any stored key; correct it, or unset it to use the stored one".to_owned()),
                    AUTH,
                ),
                401 => (
                    Some("the key is unknown, revoked or expired; run `linkapi auth login` to store another".to_owned()),
                    AUTH,
                ),
                403 => (Some("ask an admin for a key with that scope".to_owned()), AUTH),
                // The server's message already says the wait ("retry in N s"); a proxy's may not.
                429 if !message.contains("retry in") => (
                    retry_after.map(|s| format!("try again in {s} s")),
                    FAILURE,
                ),
                500..=599 => (
                    request_id
                        .as_ref()
                        .map(|id| format!("the server's log has the cause (request id {id})")),
                    FAILURE,
                ),
                _ => (None, FAILURE),
            };
            Report {
                message: format!("{}{message} (HTTP {status})", context()),
                hint,
                code,
            }
        }
        other => Report {
            message: format!("{}{other}", context()),
            hint: None,
            code: FAILURE,
        },
    }
}

/// `scheme://host:port` of a URL, for messages.
fn origin(url: &str) -> String {
    url.splitn(4, '/').take(3).collect::<Vec<_>>().join("/")
}

/// Whether the error is a closed stdout (`linkapi ... | head`), which is not a failure.
pub fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|e| {
        e.downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

/// An exit code from a number.
pub fn code(n: u8) -> ExitCode {
    ExitCode::from(n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn origins_drop_the_path() {
        assert_eq!(
            origin("http://127.0.0.1:1/chains?x=1"),
            "http://127.0.0.1:1"
        );
    }

    #[test]
    fn auth_failures_exit_4_and_usage_2() {
        let api = |status| {
            anyhow::Error::new(ClientError::Api {
                status,
                code: String::new(),
                message: "m".into(),
                retry_after: None,
                request_id: None,
            })
        };
        assert_eq!(report(&api(401)).code, AUTH);
        assert_eq!(report(&api(403)).code, AUTH);
        assert_eq!(report(&api(404)).code, FAILURE);
        assert_eq!(
            report(&anyhow::Error::new(UsageError("x".into()))).code,
            USAGE
        );
        let missing = NotLoggedIn {
            host: "h".into(),
            profile: "p".into(),
            key_for: None,
        };
        assert_eq!(report(&anyhow::Error::new(missing)).code, AUTH);
    }

    #[test]
    fn rate_limits_server_errors_and_timeouts_say_what_to_do() {
        let api = |status, retry_after, request_id: Option<&str>| {
            anyhow::Error::new(ClientError::Api {
                status,
                code: String::new(),
                message: "m".into(),
                retry_after,
                request_id: request_id.map(str::to_owned),
            })
        };
        let limited = report(&api(429, Some(7), None));
        assert_eq!(limited.code, FAILURE);
        assert_eq!(limited.hint.as_deref(), Some("try again in 7 s"));
        // Said once: the server's own message carries the wait.
        let ours = report(&anyhow::Error::new(ClientError::Api {
            status: 429,
            code: "rate_limited".into(),
            message: "rate limit exceeded, retry in 7 s".into(),
            retry_after: Some(7),
            request_id: None,
        }));
        assert_eq!(ours.hint, None);
        assert_eq!(ours.message.matches("7 s").count(), 1);
        let failed = report(&api(503, None, Some("req-1")));
        assert_eq!(failed.code, FAILURE);
        assert!(failed.hint.is_some_and(|h| h.contains("req-1")));
        let timeout = report(&anyhow::Error::new(ClientError::Timeout {
            url: "http://h:1/chains".into(),
        }));
        assert_eq!(timeout.message, "http://h:1 did not answer in time");
        assert_eq!(timeout.code, FAILURE);
    }
}
