//! `config.toml`: profiles (a server and how its key is stored) and the default profile.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use serde::{Deserialize, Serialize};

/// Server a profile talks to when nothing names one.
pub const DEFAULT_HOST: &str = "http://127.0.0.1:8080";

/// Profile used when nothing names one and the config has no default.
pub const DEFAULT_PROFILE: &str = "default";

/// The directory of `config.toml` and `credentials.toml`: `LINKAPI_CONFIG_DIR`, else the
/// platform's config directory.
///
/// # Errors
/// When neither exists (no home directory).
pub fn config_dir() -> Result<PathBuf> {
    if let Some(dir) = std::env::var_os("LINKAPI_CONFIG_DIR").filter(|d| !d.is_empty()) {
        return Ok(PathBuf::from(dir));
    }
    directories::ProjectDirs::from("", "", "linkapi")
        .map(|dirs| dirs.config_dir().to_path_buf())
        .context("no home directory for configuration; set LINKAPI_CONFIG_DIR")
}

/// Where a profile keeps its key.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum StoreMode {
    /// The OS keyring, or `credentials.toml` with a warning when no keyring works.
    #[default]
    Auto,
    /// The OS keyring only; fail when it does not work.
    Keyring,
    /// `credentials.toml` (mode 0600) only.
    File,
}

/// One profile.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Profile {
    /// Server URL.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub host: Option<String>,
    /// Where its key is kept.
    #[serde(default)]
    pub credential_store: StoreMode,
    /// The data directory of the `linkapi serve` that stored this profile's key: when that
    /// server starts on another address, the profile (and its key) follow it there.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub served_from: Option<PathBuf>,
}

/// The whole file.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Config {
    /// Profile used when none is named.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub default_profile: Option<String>,
    /// Profiles by name.
    #[serde(default)]
    pub profiles: BTreeMap<String, Profile>,
}

impl Config {
    /// Reads `config.toml` in `dir`; a missing file is an empty config.
    ///
    /// # Errors
    /// When the file exists but cannot be read or parsed.
    pub fn load(dir: &Path) -> Result<Config> {
        let path = dir.join("config.toml");
        match std::fs::read_to_string(&path) {
            Ok(text) => {
                toml::from_str(&text).with_context(|| format!("parsing {}", path.display()))
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Config::default()),
            Err(e) => Err(e).with_context(|| format!("reading {}", path.display())),
        }
    }

    /// Writes `config.toml` in `dir`, creating the directory.
    ///
    /// # Errors
    /// When it cannot be written.
    pub fn save(&self, dir: &Path) -> Result<()> {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
        let path = dir.join("config.toml");
        let text = toml::to_string(self).context("encoding config")?;
        std::fs::write(&path, text).with_context(|| format!("writing {}", path.display()))
    }
}

/// Normalises a server URL: scheme required (http assumed for bare host:port), no trailing
/// slash.
pub fn normalize_host(raw: &str) -> String {
    let raw = raw.trim();
    // `http://` alone keeps its slashes, so it stays visibly incomplete.
    let raw = if raw.ends_with("://") {
        raw
    } else {
        raw.trim_end_matches('/')
    };
    if raw.contains("://") {
        raw.to_owned()
    } else {
        format!("http://{raw}")
    }
}

/// `LINKAPI_API_KEY`, when set and not empty.
pub fn env_key() -> Option<String> {
    std::env::var("LINKAPI_API_KEY")
        .ok()
        .map(|k| k.trim().to_owned())
        .filter(|k| !k.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn config_round_trips() {
        let dir = tempfile::tempdir().expect("dir");
        assert_eq!(Config::load(dir.path()).expect("empty"), Config::default());
        let mut config = Config {
            default_profile: Some("local".into()),
            ..Config::default()
        };
        config.profiles.insert(
            "local".into(),
            Profile {
                host: Some("http://127.0.0.1:8080".into()),
                credential_store: StoreMode::File,
                served_from: Some("/var/lib/linkapi".into()),
            },
        );
        config.save(dir.path()).expect("save");
        assert_eq!(Config::load(dir.path()).expect("load"), config);
    }

    #[test]
    fn hosts_get_a_scheme_and_lose_trailing_slashes() {
        assert_eq!(normalize_host("127.0.0.1:9000/"), "http://127.0.0.1:9000");
        assert_eq!(
            normalize_host("https://go.example.com/"),
            "https://go.example.com"
        );
    }
}
