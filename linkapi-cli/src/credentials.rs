//! API keys at rest: the OS keyring behind [`Keyring`], a 0600 `credentials.toml` fallback, and
//! the order keys are looked for (`LINKAPI_API_KEY`, keyring, file).
//!
//! A stored key is bound to the server it was stored for: the keyring entry's service names the
//! host, and the file records it. A key is never sent to another server because a profile's
//! host was overridden.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::Duration;

use anyhow::{Context, Result, bail};
use serde::{Deserialize, Serialize};

use crate::config::StoreMode;

/// How long a keyring call may take; a D-Bus call on a headless machine can hang.
const KEYRING_TIMEOUT: Duration = Duration::from_secs(3);

/// A keyring failure: no keyring, a locked one, a timeout. A missing entry is not an error.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct KeyringError(pub String);

/// A secret store keyed by service and user.
pub trait Keyring: Send + Sync {
    /// The secret, or `None` when there is no entry.
    ///
    /// # Errors
    /// When the keyring cannot be used.
    fn get(&self, service: &str, user: &str) -> Result<Option<String>, KeyringError>;
    /// Stores a secret, replacing any.
    ///
    /// # Errors
    /// When the keyring cannot be used.
    fn set(&self, service: &str, user: &str, secret: &str) -> Result<(), KeyringError>;
    /// Removes a secret; `false` when there was none.
    ///
    /// # Errors
    /// When the keyring cannot be used.
    fn delete(&self, service: &str, user: &str) -> Result<bool, KeyringError>;
}

/// Why the keyring could not be used, in words a person acts on: the D-Bus details of a
/// machine without a Secret Service (servers, containers, SSH sessions) mean one thing.
pub fn plain_reason(raw: &str) -> String {
    let lower = raw.to_ascii_lowercase();
    if lower.contains("failed to connect to address")
        || lower.contains("serviceunknown")
        || lower.contains("org.freedesktop.secrets")
        || lower.contains("no such file or directory")
    {
        "no keyring service is running in this session, as usual on servers, in containers and \
         over SSH"
            .to_owned()
    } else if lower.contains("locked") || lower.contains("dismissed") || lower.contains("prompt") {
        "the keyring is locked".to_owned()
    } else {
        raw.to_owned()
    }
}

/// The platform's keyring: Secret Service on Linux, Keychain on macOS, Credential Manager on
/// Windows. Each call runs on its own thread with a timeout.
pub struct PlatformKeyring;

fn with_timeout<T: Send + 'static>(
    f: impl FnOnce() -> Result<T, KeyringError> + Send + 'static,
) -> Result<T, KeyringError> {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(f());
    });
    rx.recv_timeout(KEYRING_TIMEOUT)
        .map_err(|_| KeyringError("the keyring did not answer within 3 s".into()))?
}

fn platform_store() -> Result<std::sync::Arc<keyring_core::CredentialStore>, KeyringError> {
    let describe = |e: keyring_core::Error| KeyringError(e.to_string());
    #[cfg(target_os = "linux")]
    {
        Ok(zbus_secret_service_keyring_store::Store::new().map_err(describe)?)
    }
    #[cfg(target_os = "macos")]
    {
        Ok(apple_native_keyring_store::keychain::Store::new().map_err(describe)?)
    }
    #[cfg(target_os = "windows")]
    {
        Ok(windows_native_keyring_store::Store::new().map_err(describe)?)
    }
    #[cfg(not(any(target_os = "linux", target_os = "macos", target_os = "windows")))]
    {
        let _ = describe;
        Err(KeyringError("no keyring support on this platform".into()))
    }
}

fn entry(service: &str, user: &str) -> Result<keyring_core::Entry, KeyringError> {
    platform_store()?
        .build(service, user, None)
        .map_err(|e| KeyringError(e.to_string()))
}

impl Keyring for PlatformKeyring {
    fn get(&self, service: &str, user: &str) -> Result<Option<String>, KeyringError> {
        let (service, user) = (service.to_owned(), user.to_owned());
        with_timeout(move || match entry(&service, &user)?.get_password() {
            Ok(secret) => Ok(Some(secret)),
            Err(keyring_core::Error::NoEntry) => Ok(None),
            Err(e) => Err(KeyringError(e.to_string())),
        })
    }

    fn set(&self, service: &str, user: &str, secret: &str) -> Result<(), KeyringError> {
        let (service, user, secret) = (service.to_owned(), user.to_owned(), secret.to_owned());
        with_timeout(move || {
            entry(&service, &user)?
                .set_password(&secret)
                .map_err(|e| KeyringError(e.to_string()))
        })
    }

    fn delete(&self, service: &str, user: &str) -> Result<bool, KeyringError> {
        let (service, user) = (service.to_owned(), user.to_owned());
        with_timeout(move || match entry(&service, &user)?.delete_credential() {
            Ok(()) => Ok(true),
            Err(keyring_core::Error::NoEntry) => Ok(false),
            Err(e) => Err(KeyringError(e.to_string())),
        })
    }
}

/// What to tell a user whose key went to `file` because the keyring failed with `reason`;
/// the advice to turn the keyring off is left out where it is off already.
pub fn fallback_warning(reason: &str, file: &Path) -> String {
    let advice = if reason.contains("LINKAPI_KEYRING") {
        ""
    } else {
        "; set LINKAPI_KEYRING=none to use that file without trying the keyring"
    };
    format!(
        "the OS keyring is not available ({reason}), so the key is stored in plain text in {}, \
         readable only by you{advice}",
        file.display()
    )
}

/// No keyring (`LINKAPI_KEYRING=none`): every call fails, so keys go to the file.
pub struct NoKeyring;

impl Keyring for NoKeyring {
    fn get(&self, _: &str, _: &str) -> Result<Option<String>, KeyringError> {
        Err(KeyringError(
            "the OS keyring is turned off (LINKAPI_KEYRING=none)".into(),
        ))
    }
    fn set(&self, s: &str, u: &str, _: &str) -> Result<(), KeyringError> {
        self.get(s, u).map(|_| ())
    }
    fn delete(&self, s: &str, u: &str) -> Result<bool, KeyringError> {
        self.get(s, u).map(|_| false)
    }
}

/// The keyring this process uses: none when `LINKAPI_KEYRING=none`, else the platform's.
pub fn keyring_from_env() -> Box<dyn Keyring> {
    match std::env::var("LINKAPI_KEYRING").as_deref() {
        Ok("none") => Box::new(NoKeyring),
        _ => Box::new(PlatformKeyring),
    }
}

/// Where a key came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// `LINKAPI_API_KEY`.
    Env,
    /// The OS keyring.
    Keyring,
    /// `credentials.toml`.
    File,
}

impl Source {
    /// For messages.
    pub fn describe(self) -> &'static str {
        match self {
            Source::Env => "LINKAPI_API_KEY",
            Source::Keyring => "keyring",
            Source::File => "credentials.toml",
        }
    }
}

#[derive(Debug, Default, Serialize, Deserialize)]
struct CredentialsFile {
    #[serde(default)]
    profiles: BTreeMap<String, FileEntry>,
}

#[derive(Debug, Serialize, Deserialize)]
struct FileEntry {
    host: String,
    api_key: String,
}

/// Keys of one config directory.
pub struct Credentials {
    keyring: Box<dyn Keyring>,
    file: PathBuf,
}

/// Where a key was saved, and why not in the keyring when it was not.
#[derive(Debug)]
pub enum Saved {
    /// In the OS keyring.
    Keyring,
    /// In `credentials.toml`; the string says why when the keyring was tried and failed.
    File(Option<String>),
}

fn service(host: &str) -> String {
    format!("linkapi:{host}")
}

impl Credentials {
    /// The credentials of the config directory `dir`.
    pub fn new(dir: &Path, keyring: Box<dyn Keyring>) -> Self {
        Credentials {
            keyring,
            file: dir.join("credentials.toml"),
        }
    }

    /// Path of the plain-text fallback.
    pub fn file_path(&self) -> &Path {
        &self.file
    }

    fn read_file(&self) -> Result<CredentialsFile> {
        match std::fs::read_to_string(&self.file) {
            Ok(text) => {
                toml::from_str(&text).with_context(|| format!("parsing {}", self.file.display()))
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(CredentialsFile::default()),
            Err(e) => Err(e).with_context(|| format!("reading {}", self.file.display())),
        }
    }

    fn write_file(&self, contents: &CredentialsFile) -> Result<()> {
        if let Some(dir) = self.file.parent() {
            std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
        }
        let text = toml::to_string(contents).context("encoding credentials")?;
        let mut options = std::fs::OpenOptions::new();
        options.write(true).create(true).truncate(true);
        #[cfg(unix)]
        {
            use std::os::unix::fs::OpenOptionsExt;
            options.mode(0o600);
        }
        let mut file = options
            .open(&self.file)
            .with_context(|| format!("writing {}", self.file.display()))?;
        // An existing file keeps its mode on open; tighten it in case it was ever wider.
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&self.file, std::fs::Permissions::from_mode(0o600))
                .with_context(|| format!("securing {}", self.file.display()))?;
        }
        std::io::Write::write_all(&mut file, text.as_bytes())
            .with_context(|| format!("writing {}", self.file.display()))
    }

    /// The stored key of `profile` for `host`: keyring first (unless the mode is `file`), then
    /// the file. Keyring failures fall through to the file in `auto` mode.
    ///
    /// # Errors
    /// When the keyring fails in `keyring` mode, or the file cannot be read.
    pub fn load(
        &self,
        profile: &str,
        host: &str,
        mode: StoreMode,
    ) -> Result<Option<(String, Source)>> {
        if mode != StoreMode::File {
            match self.keyring.get(&service(host), profile) {
                Ok(Some(key)) => return Ok(Some((key, Source::Keyring))),
                Ok(None) => {}
                Err(e) if mode == StoreMode::Keyring => {
                    return Err(e).context("reading the OS keyring");
                }
                Err(_) => {}
            }
        }
        let file = self.read_file()?;
        Ok(file
            .profiles
            .get(profile)
            .filter(|e| e.host == host)
            .map(|e| (e.api_key.clone(), Source::File)))
    }

    /// Stores the key of `profile` for `host`.
    ///
    /// # Errors
    /// When the keyring fails in `keyring` mode, or the file cannot be written.
    pub fn save(&self, profile: &str, host: &str, key: &str, mode: StoreMode) -> Result<Saved> {
        let mut fallback_reason = None;
        if mode != StoreMode::File {
            match self.keyring.set(&service(host), profile, key) {
                Ok(()) => {
                    // A key in the keyring leaves no plain-text copy behind.
                    self.remove_from_file(profile, None)?;
                    return Ok(Saved::Keyring);
                }
                Err(e) if mode == StoreMode::Keyring => {
                    bail!("could not store the key in the OS keyring: {e}");
                }
                Err(e) => fallback_reason = Some(plain_reason(&e.to_string())),
            }
        }
        let mut file = self.read_file()?;
        file.profiles.insert(
            profile.to_owned(),
            FileEntry {
                host: host.to_owned(),
                api_key: key.to_owned(),
            },
        );
        self.write_file(&file)?;
        Ok(Saved::File(fallback_reason))
    }

    /// Removes the file's key of `profile`, only when it is for `host` if one is given.
    fn remove_from_file(&self, profile: &str, host: Option<&str>) -> Result<bool> {
        let mut file = self.read_file()?;
        let held = file.profiles.get(profile);
        if held.is_none_or(|entry| host.is_some_and(|host| entry.host != host)) {
            return Ok(false);
        }
        file.profiles.remove(profile);
        self.write_file(&file)?;
        Ok(true)
    }

    /// Removes the key of `profile` for `host` from the keyring and the file; whether any was
    /// there.
    ///
    /// # Errors
    /// When the file cannot be rewritten, or the keyring fails in `keyring` mode.
    pub fn delete(&self, profile: &str, host: &str, mode: StoreMode) -> Result<bool> {
        let from_keyring = match self.keyring.delete(&service(host), profile) {
            Ok(found) => found,
            Err(e) if mode == StoreMode::Keyring => {
                return Err(e).context("removing the key from the OS keyring");
            }
            Err(_) => false,
        };
        let from_file = self.remove_from_file(profile, Some(host))?;
        Ok(from_keyring || from_file)
    }
}

/// A key shown safely: its first characters, then stars.
pub fn mask(key: &str) -> String {
    let visible: String = key.chars().take(7).collect();
    format!("{visible}****")
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;
    use std::sync::Mutex;

    use super::*;

    #[test]
    fn a_missing_secret_service_is_said_in_plain_words() {
        let zbus = "Platform failure: zbus error: Failed to connect to address \
                    `unix:path=/run/user/0/bus`: No such file or directory (os error 2)";
        let plain = plain_reason(zbus);
        assert!(plain.contains("no keyring service is running"), "{plain}");
        assert!(!plain.contains("zbus"), "{plain}");
        assert_eq!(plain_reason("something else"), "something else");
    }

    /// An in-memory keyring that can be told to fail.
    #[derive(Default)]
    struct MemoryKeyring {
        entries: Mutex<HashMap<(String, String), String>>,
        fail: bool,
    }

    impl Keyring for MemoryKeyring {
        fn get(&self, s: &str, u: &str) -> Result<Option<String>, KeyringError> {
            if self.fail {
                return Err(KeyringError("locked".into()));
            }
            Ok(self
                .entries
                .lock()
                .expect("lock")
                .get(&(s.into(), u.into()))
                .cloned())
        }
        fn set(&self, s: &str, u: &str, k: &str) -> Result<(), KeyringError> {
            if self.fail {
                return Err(KeyringError("locked".into()));
            }
            self.entries
                .lock()
                .expect("lock")
                .insert((s.into(), u.into()), k.into());
            Ok(())
        }
        fn delete(&self, s: &str, u: &str) -> Result<bool, KeyringError> {
            if self.fail {
                return Err(KeyringError("locked".into()));
            }
            Ok(self
                .entries
                .lock()
                .expect("lock")
                .remove(&(s.into(), u.into()))
                .is_some())
        }
    }

    const HOST: &str = "http://127.0.0.1:8080";

    #[test]
    fn a_working_keyring_holds_the_key_and_no_file_is_written() {
        let dir = tempfile::tempdir().expect("dir");
        let creds = Credentials::new(dir.path(), Box::new(MemoryKeyring::default()));
        assert!(matches!(
            creds
                .save("p", HOST, "lk_k", StoreMode::Auto)
                .expect("save"),
            Saved::Keyring
        ));
        assert!(!creds.file_path().exists());
        let (key, source) = creds
            .load("p", HOST, StoreMode::Auto)
            .expect("load")
            .expect("some");
        assert_eq!((key.as_str(), source), ("lk_k", Source::Keyring));
        assert!(
            creds
                .load("p", "http://other:1", StoreMode::Auto)
                .expect("load")
                .is_none()
        );
        assert!(creds.delete("p", HOST, StoreMode::Auto).expect("delete"));
        assert!(
            creds
                .load("p", HOST, StoreMode::Auto)
                .expect("load")
                .is_none()
        );
    }

    #[test]
    fn a_failing_keyring_falls_back_to_a_private_file_in_auto_mode_only() {
        let dir = tempfile::tempdir().expect("dir");
        let failing = || {
            Box::new(MemoryKeyring {
                fail: true,
                ..MemoryKeyring::default()
            })
        };
        let creds = Credentials::new(dir.path(), failing());
        let saved = creds
            .save("p", HOST, "lk_k", StoreMode::Auto)
            .expect("save");
        assert!(
            matches!(saved, Saved::File(Some(ref reason)) if reason == "the keyring is locked")
        );
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(creds.file_path())
                .expect("meta")
                .permissions()
                .mode();
            assert_eq!(mode & 0o777, 0o600);
        }
        let (_, source) = creds
            .load("p", HOST, StoreMode::Auto)
            .expect("load")
            .expect("some");
        assert_eq!(source, Source::File);
        // The file copy is bound to its host.
        assert!(
            creds
                .load("p", "http://elsewhere:1", StoreMode::Auto)
                .expect("load")
                .is_none()
        );

        assert!(creds.save("q", HOST, "lk_k", StoreMode::Keyring).is_err());
        assert!(creds.load("p", HOST, StoreMode::Keyring).is_err());
        assert!(creds.delete("p", HOST, StoreMode::Auto).expect("delete"));
    }

    #[test]
    fn keys_are_masked() {
        assert_eq!(mask("lk_abcdefghijkl"), "lk_abcd****");
    }
}
