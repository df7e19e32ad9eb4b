//! What every command starts from: the profile, its server and key, the output, prompts.

use std::io::IsTerminal;
use std::path::PathBuf;

use anyhow::Result;
use linkapi_core::client::Client;

use crate::cli::GlobalArgs;
use crate::config::{self, Config, DEFAULT_HOST, DEFAULT_PROFILE, StoreMode, env_key};
use crate::credentials::{Credentials, Source, keyring_from_env};
use crate::exit::{NotLoggedIn, UsageError};
use crate::output::Output;

/// Sends of one request while the server answers 429 `rate_limited`.
pub const RATE_LIMIT_TRIES: u32 = 5;
/// The longest `Retry-After` the CLI waits out rather than reporting.
pub const RATE_LIMIT_MAX_WAIT: std::time::Duration = std::time::Duration::from_secs(30);

/// Resolved settings of one invocation.
pub struct Context {
    /// Terminal facts.
    pub out: Output,
    /// Flags every command has.
    pub global: GlobalArgs,
    /// Directory of config.toml and credentials.toml.
    pub config_dir: PathBuf,
    /// config.toml as read.
    pub config: Config,
    /// The profile in use.
    pub profile: String,
    /// The server: `--host`/`LINKAPI_HOST`, else the profile's, else the local default.
    pub host: String,
    /// Stored keys.
    pub credentials: Credentials,
}

impl Context {
    /// Reads the configuration and resolves profile and host.
    ///
    /// # Errors
    /// When the configuration cannot be read.
    pub fn new(global: GlobalArgs) -> Result<Context> {
        let config_dir = config::config_dir()?;
        let config = Config::load(&config_dir)?;
        let profile = global
            .profile
            .clone()
            .or_else(|| config.default_profile.clone())
            .unwrap_or_else(|| DEFAULT_PROFILE.to_owned());
        let host = global
            .host
            .clone()
            .or_else(|| config.profiles.get(&profile).and_then(|p| p.host.clone()))
            .map_or_else(|| DEFAULT_HOST.to_owned(), |h| config::normalize_host(&h));
        check_host(&host)?;
        let credentials = Credentials::new(&config_dir, keyring_from_env());
        Ok(Context {
            out: Output::detect(),
            global,
            config_dir,
            config,
            profile,
            host,
            credentials,
        })
    }

    /// How the profile stores keys.
    pub fn mode(&self) -> StoreMode {
        self.config
            .profiles
            .get(&self.profile)
            .map(|p| p.credential_store)
            .unwrap_or_default()
    }

    /// The key to use: `LINKAPI_API_KEY`, else the profile's stored key for this host.
    ///
    /// # Errors
    /// [`NotLoggedIn`] when there is none; storage failures.
    pub fn key(&self) -> Result<(String, Source)> {
        if let Some(key) = env_key() {
            return Ok((key, Source::Env));
        }
        if let Some(key) = self
            .credentials
            .load(&self.profile, &self.host, self.mode())?
        {
            return Ok(key);
        }
        // A profile asked for by name that config.toml does not have is a typo more often
        // than a server never logged in to.
        if self.global.profile.is_some() && !self.config.profiles.contains_key(&self.profile) {
            let known: Vec<&str> = self.config.profiles.keys().map(String::as_str).collect();
            return Err(UsageError(format!(
                "there is no profile {:?} ({}); `linkapi auth login --profile {}` creates it",
                self.profile,
                if known.is_empty() {
                    "no profile exists yet".to_owned()
                } else {
                    format!("profiles: {}", known.join(", "))
                },
                self.profile
            ))
            .into());
        }
        Err(NotLoggedIn {
            host: self.host.clone(),
            profile: self.profile.clone(),
            key_for: self.key_elsewhere(),
        }
        .into())
    }

    /// The profile's own server, when `--host` named another and the profile has a key for
    /// its own: where a moved server's key is.
    fn key_elsewhere(&self) -> Option<String> {
        let own = self.config.profiles.get(&self.profile)?.host.clone()?;
        let own = config::normalize_host(&own);
        let stored = self.credentials.load(&self.profile, &own, self.mode());
        (own != self.host && matches!(stored, Ok(Some(_)))).then_some(own)
    }

    /// A client of the server with the resolved key. It waits out rate limits (a script of
    /// commands, or an import, soon meets a key's limit; the server's `Retry-After` is
    /// seconds), up to [`RATE_LIMIT_TRIES`] sends of a request and [`RATE_LIMIT_MAX_WAIT`] per
    /// wait; past that the 429 is reported.
    ///
    /// # Errors
    /// As [`Context::key`], or a malformed host.
    pub fn client(&self) -> Result<Client> {
        let (key, _) = self.key()?;
        Ok(Client::new(&self.host, &key)?
            .wait_out_rate_limits(RATE_LIMIT_TRIES, RATE_LIMIT_MAX_WAIT))
    }

    /// [`Context::client`] for one create: its requests carry a new random Idempotency-Key, so
    /// a request whose exchange failed on the way is sent again without creating twice.
    ///
    /// # Errors
    /// As [`Context::client`].
    pub fn create_client(&self) -> Result<Client> {
        Ok(self
            .client()?
            .with_idempotency_key(&fresh_idempotency_key()))
    }

    /// Whether prompts may be shown: stdin and stderr are terminals and prompts are not off.
    pub fn can_prompt(&self) -> bool {
        !self.global.no_input && std::io::stdin().is_terminal() && std::io::stderr().is_terminal()
    }

    /// Asks before something destructive; `yes` skips the question.
    ///
    /// # Errors
    /// [`UsageError`] when the question cannot be asked; prompt I/O failures.
    pub fn confirm(&self, question: &str, yes: bool) -> Result<bool> {
        if yes {
            return Ok(true);
        }
        if !self.can_prompt() {
            return Err(UsageError(format!(
                "{question}: pass --yes to confirm without a prompt"
            ))
            .into());
        }
        ask_yes_no(question)
    }
}

/// Asks `question [y/N]` on stderr and reads a line: yes only for `y` or `yes`. The terminal
/// stays in its ordinary line mode (a key-at-a-time prompt hides the cursor and takes the
/// terminal raw, and Ctrl-C there left it so), so Ctrl-C interrupts as anywhere else and
/// leaves the terminal as it was.
fn ask_yes_no(question: &str) -> Result<bool> {
    use std::io::{BufRead, Write};
    let mut stderr = std::io::stderr().lock();
    write!(stderr, "{question} [y/N] ")?;
    stderr.flush()?;
    let mut answer = String::new();
    if std::io::stdin().lock().read_line(&mut answer)? == 0 {
        // End of input (Ctrl-D): no, on a line of its own.
        writeln!(stderr)?;
        return Ok(false);
    }
    Ok(matches!(
        answer.trim().to_ascii_lowercase().as_str(),
        "y" | "yes"
    ))
}

/// Asks `prompt` on stderr and reads a line without echoing it (a key). Ctrl-C there puts the
/// terminal back as it was (echo on) and exits 130: hidden input turns echo off, and a
/// process killed while it is off leaves the shell typing blind.
///
/// # Errors
/// Prompt I/O failures.
pub async fn ask_hidden(prompt: String) -> Result<String> {
    #[cfg(unix)]
    let saved = rustix::termios::tcgetattr(std::io::stdin()).ok();
    let read = tokio::task::spawn_blocking(move || {
        dialoguer::Password::new().with_prompt(prompt).interact()
    });
    tokio::select! {
        answer = read => Ok(answer??),
        _ = tokio::signal::ctrl_c() => {
            #[cfg(unix)]
            if let Some(saved) = saved {
                let _ = rustix::termios::tcsetattr(
                    std::io::stdin(),
                    rustix::termios::OptionalActions::Now,
                    &saved,
                );
            }
            // The reading thread is still blocked on the terminal: leave without waiting for it.
            #[allow(clippy::print_stderr)]
            {
                eprintln!();
            }
            std::process::exit(i32::from(crate::exit::INTERRUPTED));
        }
    }
}

/// `err`, or, when it is [`NotLoggedIn`] and the server cannot be reached, the connection
/// failure: a missing key is the reason only when there is a server to send one to (a wrong
/// port with no key stored would otherwise say "not logged in").
pub async fn unreachable_rather_than_logged_out(err: anyhow::Error) -> anyhow::Error {
    let Some(missing) = err.downcast_ref::<NotLoggedIn>() else {
        return err;
    };
    // The health check needs no key; the client needs one to be built.
    let Ok(client) = Client::new(&missing.host, "-") else {
        return err;
    };
    match client.health().await {
        Err(
            unreachable @ (linkapi_core::client::ClientError::Connect { .. }
            | linkapi_core::client::ClientError::Timeout { .. }),
        ) => unreachable.into(),
        _ => err,
    }
}

/// A server URL the client can use: http or https with a host and nothing after the path.
///
/// # Errors
/// [`UsageError`] otherwise, whatever the key's source: a bad host is the command line's
/// mistake, found before any key is looked up.
fn check_host(host: &str) -> Result<()> {
    let usable = reqwest::Url::parse(host).is_ok_and(|u| {
        matches!(u.scheme(), "http" | "https")
            && u.host_str().is_some_and(|h| !h.is_empty())
            && u.query().is_none()
            && u.fragment().is_none()
    });
    if usable {
        Ok(())
    } else {
        Err(UsageError(format!(
            "--host {host:?} is not a server URL; give http://HOST[:PORT] or https://HOST"
        ))
        .into())
    }
}

/// Reads a time in the forms the API accepts; `0` is never.
///
/// # Errors
/// [`UsageError`] for anything else.
pub fn parse_time(flag: &str, text: &str) -> Result<i64> {
    linkapi_core::clock::parse_flexible(text).ok_or_else(|| {
        UsageError(format!(
            "{flag} {text:?} is not \"YYYY-MM-DD HH:MM:SS\" (UTC), RFC 3339 or Unix seconds"
        ))
        .into()
    })
}

/// A new Idempotency-Key for one create.
pub fn fresh_idempotency_key() -> String {
    format!("linkapi-cli:{}", linkapi_core::codes::random_code(24))
}
