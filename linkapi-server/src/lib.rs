//! linkapi-server: the process around [`linkapi_core`]: flags and configuration file, data
//! directory, logging, signals, and the first admin key. `linkapi-server` and `linkapi serve`
//! share [`ServeArgs`], so both take the same flags and behave the same.
//!
//! # Layout
//!
//! - `config`: [`ServeArgs`] and [`FileConfig`], flags (with `LINKAPI_*` environment
//!   fallbacks) and the TOML configuration file; flags win over the file, the file over
//!   defaults.
//! - [`Server`]: [`Server::bind`] opens the store, binds the listener, starts the services and
//!   makes the bootstrap key; [`Server::run`] serves until the shutdown future completes.
//! - `operate`: [`DataCommand`], the operator's commands on a deployment's data (backup,
//!   restore, migrate to PostgreSQL, a new admin key), shared by `linkapi-server` and
//!   `linkapi data`; `migrate` holds the migration's flags, its check of the source and its
//!   report, `admin_key` the making of a key when every other is lost.
//! - `health`: [`healthcheck`], the probe of a running server that needs nothing but the
//!   binary (the container image's `HEALTHCHECK`).
//! - [`init_logging`] and [`shutdown_signal`]: process concerns for binaries.

use std::io::IsTerminal;
use std::net::SocketAddr;
use std::num::NonZeroU32;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context, Result, bail};
use linkapi_core::clock::Calendar;
use linkapi_core::model::Scheme;
use linkapi_core::service::{
    BootstrapKey, ClientAddressHeader, RateLimit, UploadConfig, WebhookConfig,
};
use linkapi_core::store::Store;
use linkapi_core::store::postgres::{PgOptions, PgStore};
use linkapi_core::{
    App, AppConfig, GeoDatabase, MetricsAccess, ServerConfig, SqliteStore, SystemClock,
};
use tokio::net::TcpListener;

mod admin_key;
mod config;
mod health;
mod migrate;
mod operate;

use config::trusted_proxies;
pub use config::{DeploymentArgs, FileConfig, ServeArgs, StorageConfig, default_data_dir};
pub use health::{HealthcheckArgs, healthcheck};
use linkapi_core::store::sqlite::snapshot::DatabaseLock;
pub use migrate::MigrateArgs;
pub use operate::{BackupArgs, DataCommand, RestoreArgs, run as operate};

/// Name of the database file inside the data directory.
pub const DATABASE_FILE: &str = "linkapi.db";

/// What `--version` says of both binaries: the release and the commit it was built from
/// (`0.8.0 (9179a5338eb9)`; "unknown commit" when built outside a git checkout).
pub const VERSION: &str = concat!(env!("CARGO_PKG_VERSION"), " (", env!("LINKAPI_COMMIT"), ")");

/// Name of the uploads directory inside the data directory (local storage).
pub const UPLOADS_DIR: &str = "uploads";

/// Environment variable holding the first admin key of an empty deployment.
pub const INITIAL_KEY_ENV: &str = "LINKAPI_INITIAL_API_KEY";

/// An address a client on this machine can open for a listener bound to `addr`: the
/// unspecified addresses (`0.0.0.0`, `[::]`) become loopback of the same family.
pub fn reachable(addr: SocketAddr) -> SocketAddr {
    match addr.ip() {
        ip if !ip.is_unspecified() => addr,
        std::net::IpAddr::V4(_) => SocketAddr::from(([127, 0, 0, 1], addr.port())),
        std::net::IpAddr::V6(_) => SocketAddr::from((std::net::Ipv6Addr::LOCALHOST, addr.port())),
    }
}

/// The connection cap the process can honour: raises the open-files limit as far as the system
/// allows (it is often 1,024, too low to hold thousands of quiet sockets), and lowers the cap
/// to fit when it cannot.
fn connection_cap(wanted: usize) -> usize {
    #[cfg(unix)]
    {
        /// File descriptors kept free beyond the connections: listener, database, logs.
        const SPARE_DESCRIPTORS: u64 = 128;
        let wanted_files = wanted as u64 + SPARE_DESCRIPTORS;
        match rlimit::increase_nofile_limit(wanted_files) {
            Ok(files) if files < wanted_files => {
                let cap = files.saturating_sub(SPARE_DESCRIPTORS).max(1) as usize;
                tracing::warn!(
                    wanted,
                    cap,
                    "the open-files limit is too low for max_connections; serving fewer"
                );
                cap
            }
            Ok(_) => wanted,
            Err(err) => {
                tracing::warn!(error = %err, "could not read or raise the open-files limit");
                wanted
            }
        }
    }
    #[cfg(not(unix))]
    {
        wanted
    }
}

/// A database URL without its password, for messages and logs.
fn redact_url(url: &str) -> String {
    match url::Url::parse(url) {
        Ok(mut parsed) if parsed.password().is_some() => {
            let _ = parsed.set_password(Some("***"));
            parsed.to_string()
        }
        Ok(parsed) => parsed.to_string(),
        // Not a URL (a key=value connection string): say nothing of what it holds.
        Err(_) => "the configured database".to_owned(),
    }
}

/// Host and scheme of the default domain: from the public URL, else the bound address.
fn default_domain(public_url: Option<&str>, bound: SocketAddr) -> Result<(String, Scheme)> {
    let Some(raw) = public_url else {
        return Ok((reachable(bound).to_string(), Scheme::Http));
    };
    let (scheme, rest) = raw
        .split_once("://")
        .with_context(|| format!("public URL {raw:?} has no scheme"))?;
    let scheme = Scheme::parse(&scheme.to_ascii_lowercase())
        .with_context(|| format!("public URL {raw:?} must be http or https"))?;
    let host = rest.trim_end_matches('/');
    if host.is_empty() || host.contains('/') {
        bail!("public URL {raw:?} must be scheme://host[:port] with no path");
    }
    Ok((host.to_owned(), scheme))
}

/// `home_url` from the configuration file, checked: an absolute http(s) URL.
fn home_url(raw: &str) -> Result<String> {
    match url::Url::parse(raw) {
        Ok(url) if matches!(url.scheme(), "http" | "https") && url.host_str().is_some() => {
            Ok(url.to_string())
        }
        _ => bail!("home_url {raw:?} is not an http(s) URL"),
    }
}

/// A bound, started server that has not begun accepting.
pub struct Server {
    listener: TcpListener,
    /// Held while serving a SQLite database, so no second server or restore takes it.
    lock: Option<DatabaseLock>,
    app: App,
    config: ServerConfig,
    /// Where it listens.
    pub local_addr: SocketAddr,
    /// Where its data lives.
    pub data_dir: PathBuf,
    /// `scheme://host` of the default domain.
    pub public_url: String,
    /// The first admin key, when this start created one.
    pub bootstrap: Option<BootstrapKey>,
}

impl Server {
    /// Opens the data directory and database, binds, starts the services and, on an empty
    /// database, creates the first admin key (from `initial_key` when given).
    ///
    /// # Errors
    /// On a bad configuration, an unusable data directory or address, or a store failure.
    pub async fn bind(args: &ServeArgs, initial_key: Option<&str>) -> Result<Server> {
        let deployment = &args.deployment;
        let file = FileConfig::load_or_default(deployment.config.as_deref())?;
        let data_dir = file.data_dir_or(deployment.data_dir.as_deref())?;
        std::fs::create_dir_all(&data_dir)
            .with_context(|| format!("creating data directory {}", data_dir.display()))?;
        let database_url = deployment
            .database_url
            .clone()
            .or(file.database_url.clone());
        let shared_database = database_url.is_some();
        let mut lock = None;
        let store: Arc<dyn Store> = match database_url {
            Some(url) => {
                let options = PgOptions {
                    max_connections: file
                        .database_max_connections
                        .unwrap_or(PgOptions::default().max_connections),
                    ..PgOptions::default()
                };
                let store = PgStore::connect(&url, options)
                    .await
                    .with_context(|| format!("connecting to PostgreSQL at {}", redact_url(&url)))?;
                tracing::info!(database = %redact_url(&url), "store: PostgreSQL");
                Arc::new(store)
            }
            None => {
                let path = data_dir.join(DATABASE_FILE);
                lock = Some(DatabaseLock::acquire(&path)?);
                let store = SqliteStore::open(&path)
                    .with_context(|| format!("opening database in {}", data_dir.display()))?;
                tracing::info!(database = %path.display(), "store: SQLite");
                Arc::new(store)
            }
        };

        let listen = args
            .listen
            .or(file.listen)
            .unwrap_or(config::DEFAULT_LISTEN);
        let listener = TcpListener::bind(listen)
            .await
            .with_context(|| format!("listening on {listen}"))?;
        let local_addr = listener.local_addr()?;

        let public_url = args.public_url.clone().or(file.public_url.clone());
        let (default_host, default_scheme) = default_domain(public_url.as_deref(), local_addr)?;
        if public_url.is_none() && local_addr.ip().is_unspecified() {
            tracing::warn!(
                "bound to every interface ({local_addr}) without a public URL: short links \
                 will name http://{default_host}, which only this machine can open; pass \
                 --public-url (or public_url in the configuration file) with the address \
                 clients use"
            );
        }
        let rate_limit = match (file.rate_limit_per_second, file.rate_limit_burst) {
            (Some(0), _) => None,
            (per_second, burst) => {
                let default = RateLimit::default();
                let per_second = per_second
                    .and_then(NonZeroU32::new)
                    .unwrap_or(default.per_second);
                let limit = RateLimit {
                    per_second,
                    burst: burst
                        .and_then(NonZeroU32::new)
                        .unwrap_or(per_second.max(default.burst)),
                };
                Some(match file.rate_limit_instances.and_then(NonZeroU32::new) {
                    Some(instances) => limit.share(instances),
                    None => limit,
                })
            }
        };
        let defaults = AppConfig::default();
        let app_config = AppConfig {
            default_host: default_host.clone(),
            default_scheme,
            // One process owns a SQLite database: the links made at an earlier address follow
            // it. Instances sharing PostgreSQL each have an address of their own.
            follow_address_domain: !shared_database,
            code_length: file
                .code_length
                .unwrap_or(defaults.code_length)
                .clamp(4, 32),
            rate_limit,
            daily_create_quota: file
                .daily_create_quota
                .unwrap_or(defaults.daily_create_quota),
            link_cache_bytes: file.link_cache_bytes.unwrap_or(defaults.link_cache_bytes),
            key_cache_capacity: file
                .key_cache_capacity
                .unwrap_or(defaults.key_cache_capacity),
            out_id_required: file.out_id_required.clone().unwrap_or_default(),
            calendar: match &file.time_zone {
                Some(name) => Calendar::named(name).map_err(anyhow::Error::msg)?,
                None => defaults.calendar,
            },
            trusted_proxies: trusted_proxies(file.trusted_proxies.as_deref().unwrap_or_default())?,
            client_address_header: match file.client_address_header.as_deref() {
                None => defaults.client_address_header,
                Some(h) if h.eq_ignore_ascii_case("x-forwarded-for") => {
                    ClientAddressHeader::XForwardedFor
                }
                Some(h) if h.eq_ignore_ascii_case("forwarded") => ClientAddressHeader::Forwarded,
                Some(other) => bail!(
                    "client_address_header: {other:?} is neither \"x-forwarded-for\" nor \"forwarded\""
                ),
            },
            visit_flush_interval: file
                .visit_flush_interval_ms
                .map_or(defaults.visit_flush_interval, |ms| {
                    Duration::from_millis(ms.clamp(10, 60_000))
                }),
            max_pending_visits: file
                .max_pending_visits
                .unwrap_or(defaults.max_pending_visits),
            uploads: UploadConfig {
                backend: file
                    .storage
                    .clone()
                    .unwrap_or_default()
                    .backend(&data_dir)?,
                max_file_bytes: file
                    .upload_max_file_bytes
                    .unwrap_or(defaults.uploads.max_file_bytes)
                    .max(1),
                quota_bytes: file
                    .upload_quota_bytes
                    .unwrap_or(defaults.uploads.quota_bytes),
                image_limits: linkapi_core::image::ImageLimits {
                    max_pixels: file
                        .upload_max_image_pixels
                        .unwrap_or(defaults.uploads.image_limits.max_pixels)
                        .max(1),
                    max_frames: file
                        .upload_max_image_frames
                        .unwrap_or(defaults.uploads.image_limits.max_frames)
                        .max(1),
                },
                ..defaults.uploads.clone()
            },
            template_limit: file
                .template_limit
                .unwrap_or(defaults.template_limit)
                .max(0),
            home_url: file.home_url.as_deref().map(home_url).transpose()?,
            redirect_status: match file.redirect_status {
                Some(code) => linkapi_core::model::RedirectStatus::try_from(code)
                    .map_err(|e| anyhow::anyhow!("redirect_status: {e}"))?,
                None => defaults.redirect_status,
            },
            rate_limit_admin_keys: file
                .rate_limit_admin_keys
                .unwrap_or(defaults.rate_limit_admin_keys),
            geo: match &file.geoip_database {
                Some(path) => Some(Arc::new(GeoDatabase::open(path)?)),
                None => None,
            },
            webhooks: WebhookConfig {
                allow_private: file
                    .webhook_allow_private
                    .unwrap_or(defaults.webhooks.allow_private),
                retention: file
                    .webhook_retention_days
                    .map_or(defaults.webhooks.retention, |days| {
                        Duration::from_secs(days.clamp(1, 3_650) * 86_400)
                    }),
                endpoint_concurrency: file
                    .webhook_endpoint_concurrency
                    .map_or(defaults.webhooks.endpoint_concurrency, |n| n.clamp(1, 256)),
                ..defaults.webhooks.clone()
            },
        };
        let server_defaults = ServerConfig::default();
        let config = ServerConfig {
            max_connections: connection_cap(
                file.max_connections
                    .unwrap_or(server_defaults.max_connections),
            ),
            header_read_timeout: file
                .header_read_timeout_secs
                .map_or(server_defaults.header_read_timeout, Duration::from_secs),
            idle_timeout: file
                .idle_timeout_secs
                .map_or(server_defaults.idle_timeout, Duration::from_secs),
            max_body_bytes: file
                .max_body_bytes
                .unwrap_or(server_defaults.max_body_bytes),
            body_budget_bytes: file
                .body_budget_bytes
                .unwrap_or(server_defaults.body_budget_bytes),
            user_body_budget_bytes: file
                .user_body_budget_bytes
                .unwrap_or(server_defaults.user_body_budget_bytes),
            min_body_rate: file
                .min_body_rate_bytes
                .unwrap_or(server_defaults.min_body_rate),
            body_read_timeout: file
                .body_read_timeout_secs
                .map_or(server_defaults.body_read_timeout, Duration::from_secs),
            grace_period: file
                .grace_period_secs
                .map_or(server_defaults.grace_period, Duration::from_secs),
            metrics_access: match file.metrics_access.as_deref() {
                None => server_defaults.metrics_access,
                Some("loopback") => MetricsAccess::Loopback,
                Some("admin") => MetricsAccess::Admin,
                Some(other) => {
                    bail!("metrics_access: {other:?} is neither \"loopback\" nor \"admin\"")
                }
            },
        };
        tracing::info!(storage = ?app_config.uploads.backend, "uploads");
        if shared_database
            && matches!(
                app_config.uploads.backend,
                linkapi_core::blob::BlobBackend::Local(_)
            )
        {
            tracing::warn!(
                "uploads are kept on this machine's disk while the database is PostgreSQL: \
                 other instances of the deployment record them but cannot serve their bytes; \
                 give every instance the same S3-compatible bucket ([storage] backend = \"s3\")"
            );
        }
        let app = App::start(store, Arc::new(SystemClock), app_config)
            .await
            .context("starting services")?;
        let bootstrap = app
            .bootstrap(initial_key)
            .await
            .context("creating the first API key")?;
        Ok(Server {
            listener,
            lock,
            app,
            config,
            local_addr,
            data_dir,
            public_url: format!("{}://{}", default_scheme.as_str(), default_host),
            bootstrap,
        })
    }

    /// Serves until `shutdown` completes, then drains.
    ///
    /// # Errors
    /// When the server fails fatally.
    pub async fn run(self, shutdown: impl Future<Output = ()>) -> Result<()> {
        tracing::info!(addr = %self.local_addr, data_dir = %self.data_dir.display(), "serving");
        linkapi_core::serve(self.listener, self.app, self.config, shutdown).await?;
        tracing::info!("stopped");
        // Released only once the store has written everything and closed.
        drop(self.lock);
        Ok(())
    }
}

/// Installs the log subscriber: `LINKAPI_LOG` (or `RUST_LOG`) as filter, `info` by default,
/// written to stderr, coloured only on a terminal without `NO_COLOR`.
pub fn init_logging() {
    let mut filter = tracing_subscriber::EnvFilter::try_from_env("LINKAPI_LOG")
        .or_else(|_| tracing_subscriber::EnvFilter::try_from_default_env())
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    // The pool logs each lost connection as "Connection error: db error", without the cause;
    // the store logs an outage once, with it, and once when it ends. Asked for by name, the
    // pool's own lines still show.
    if !filter.to_string().contains("deadpool")
        && let Ok(quiet) = "deadpool=error".parse()
    {
        filter = filter.add_directive(quiet);
    }
    let colour = std::io::stderr().is_terminal()
        && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty());
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_ansi(colour)
        .with_writer(std::io::stderr)
        .try_init();
}

/// Completes on Ctrl-C or, on Unix, SIGTERM.
pub async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {}
        () = terminate => {}
    }
}

/// What a binary prints, once, when a start created the first key.
pub fn bootstrap_notice(server: &Server) -> Option<String> {
    let key = server.bootstrap.as_ref().filter(|k| k.generated)?;
    Some(format!(
        "Created the first admin API key (scope *). It is shown once; keep it safe:\n\n    {}\n",
        key.secret
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_domain_comes_from_the_public_url_or_the_address() {
        let bound: SocketAddr = "0.0.0.0:9000".parse().expect("addr");
        assert_eq!(
            default_domain(None, bound).expect("ok"),
            ("127.0.0.1:9000".into(), Scheme::Http)
        );
        assert_eq!(
            default_domain(Some("https://s.example.com/"), bound).expect("ok"),
            ("s.example.com".into(), Scheme::Https)
        );
        assert_eq!(
            default_domain(None, "[::]:9000".parse().expect("addr")).expect("ok"),
            ("[::1]:9000".into(), Scheme::Http)
        );
        assert!(default_domain(Some("s.example.com"), bound).is_err());
        assert!(default_domain(Some("ftp://x"), bound).is_err());
        assert!(default_domain(Some("https://x/y"), bound).is_err());
    }

    #[test]
    fn database_passwords_never_reach_messages() {
        assert_eq!(
            redact_url("postgres://app:s3cret@db.internal:5432/links"),
            "postgres://app:***@db.internal:5432/links"
        );
        assert_eq!(
            redact_url("postgres://db.internal/links"),
            "postgres://db.internal/links"
        );
        assert_eq!(
            redact_url("host=db password=s3cret"),
            "the configured database"
        );
    }
}
