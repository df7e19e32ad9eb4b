//! What a server is told: [`ServeArgs`] (flags, with `LINKAPI_*` environment fallbacks) and
//! [`FileConfig`] (the TOML file); flags win over the file, the file over defaults.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{Context, Result, bail};
use linkapi_core::blob::{BlobBackend, S3Settings};
use serde::Deserialize;

use super::UPLOADS_DIR;

/// Flags of `linkapi-server` and `linkapi serve`.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct ServeArgs {
    /// Address to listen on [default: 127.0.0.1:8080]
    #[arg(
        long,
        env = "LINKAPI_LISTEN",
        hide_env_values = true,
        value_name = "ADDR"
    )]
    pub listen: Option<SocketAddr>,

    /// The deployment's data directory, database and configuration file.
    #[command(flatten)]
    pub deployment: DeploymentArgs,

    /// Public base URL of short links, as scheme://host or scheme://host:port [default: http://ADDR]
    #[arg(
        long,
        env = "LINKAPI_PUBLIC_URL",
        hide_env_values = true,
        value_name = "URL"
    )]
    pub public_url: Option<String>,
}

/// Where a deployment's data is, as `linkapi-server`, `linkapi serve` and the operator's data
/// commands (`backup`, `restore`, `migrate`, `admin-key`) all read it.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct DeploymentArgs {
    /// Directory of the SQLite database and uploads [default: the configuration file's, else the user's data directory]
    #[arg(
        long,
        env = "LINKAPI_DATA_DIR",
        hide_env_values = true,
        value_name = "DIR"
    )]
    pub data_dir: Option<PathBuf>,

    /// PostgreSQL database to use instead of the SQLite file, shared by every instance:
    /// postgres://user:password@host:port/db (add ?sslmode=require for TLS)
    #[arg(
        long,
        env = "LINKAPI_DATABASE_URL",
        value_name = "URL",
        hide_env_values = true
    )]
    pub database_url: Option<String>,

    /// TOML configuration file; flags override its values
    #[arg(
        long,
        env = "LINKAPI_CONFIG",
        hide_env_values = true,
        value_name = "FILE"
    )]
    pub config: Option<PathBuf>,
}

/// Where a server listens when nothing says: loopback only, so a first start exposes nothing.
pub(crate) const DEFAULT_LISTEN: SocketAddr =
    SocketAddr::new(std::net::IpAddr::V4(std::net::Ipv4Addr::LOCALHOST), 8080);

/// The configuration file. Every key is optional.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FileConfig {
    /// As `--listen`.
    pub listen: Option<SocketAddr>,
    /// As `--data-dir`.
    pub data_dir: Option<PathBuf>,
    /// As `--database-url`.
    pub database_url: Option<String>,
    /// Connections to PostgreSQL this instance opens at most.
    pub database_max_connections: Option<usize>,
    /// As `--public-url`.
    pub public_url: Option<String>,
    /// Requests per second per API key; 0 turns rate limiting off.
    pub rate_limit_per_second: Option<u32>,
    /// Requests a key may send at once.
    pub rate_limit_burst: Option<u32>,
    /// How many instances serve the same keys behind a load balancer: each enforces its share
    /// (1/N of the rate and the burst) so that together they allow about the configured limit.
    pub rate_limit_instances: Option<u32>,
    /// Chains a user may create per day, unless the user has its own quota.
    pub daily_create_quota: Option<i64>,
    /// Length of generated codes.
    pub code_length: Option<usize>,
    /// Bytes the redirect cache's links may take [default: 150994944, 144 MiB].
    pub link_cache_bytes: Option<u64>,
    /// Authenticated API keys kept in memory.
    pub key_cache_capacity: Option<usize>,
    /// Conversion types that need `out_id`, besides `purchase`.
    pub out_id_required: Option<Vec<String>>,
    /// Connections served at once.
    pub max_connections: Option<usize>,
    /// Largest JSON request body, in bytes.
    pub max_body_bytes: Option<usize>,
    /// Memory request bodies and their work may hold at once in the instance, in bytes
    /// [default: 256 MiB]; past it a request waits a moment, then answers 503.
    pub body_budget_bytes: Option<u64>,
    /// The most of it one user (all its keys) may hold [default: 128 MiB]; past it, 429.
    /// (Named `key_body_budget_bytes` before 0.9.0, when it was per key; that name is read
    /// too.)
    #[serde(alias = "key_body_budget_bytes")]
    pub user_body_budget_bytes: Option<u64>,
    /// Bytes a second a request body must average after its first 5 s; slower, it is cut off
    /// with 408 [default: 65536]. 0 for no floor.
    pub min_body_rate_bytes: Option<u64>,
    /// Seconds a client has to send request headers.
    pub header_read_timeout_secs: Option<u64>,
    /// Seconds a connection may stay open with no request in flight.
    pub idle_timeout_secs: Option<u64>,
    /// Seconds a client has to send a request body.
    pub body_read_timeout_secs: Option<u64>,
    /// Seconds shutdown waits for open connections.
    pub grace_period_secs: Option<u64>,
    /// IANA time zone days are counted in (statistics, `pv_today`, daily quotas) [default: UTC].
    pub time_zone: Option<String>,
    /// Reverse proxies (addresses or CIDR blocks) whose forwarding header names the client.
    pub trusted_proxies: Option<Vec<String>>,
    /// The header trusted proxies name the client in: "x-forwarded-for" (default) or
    /// "forwarded".
    pub client_address_header: Option<String>,
    /// Milliseconds between writes of counted visits [default: 1000].
    pub visit_flush_interval_ms: Option<u64>,
    /// Pending visit entries held in memory at most [default: 2000000].
    pub max_pending_visits: Option<usize>,
    /// Who may read /metrics: "loopback" (default, no key) or "admin" (a key with scope admin).
    pub metrics_access: Option<String>,
    /// Largest uploaded file, in bytes [default: 10485760].
    pub upload_max_file_bytes: Option<u64>,
    /// Bytes each user's uploads may take in all [default: 1073741824].
    pub upload_quota_bytes: Option<i64>,
    /// Pixels (width x height) of one frame of an uploaded image at most [default: 40000000].
    pub upload_max_image_pixels: Option<u64>,
    /// Frames of an uploaded animation at most [default: 1000].
    pub upload_max_image_frames: Option<u64>,
    /// Where uploaded files live (`[storage]`).
    pub storage: Option<StorageConfig>,
    /// Templates (other than the generic one) each user's chains may use [default: 10].
    pub template_limit: Option<i64>,
    /// Whether keys with scope admin are rate limited too [default: false].
    pub rate_limit_admin_keys: Option<bool>,
    /// Where `GET /` redirects (an http(s) URL) [default: none, a plain page naming the
    /// service].
    pub home_url: Option<String>,
    /// The status short links redirect with, unless a link sets its own: 301, 302, 307 or
    /// 308 [default: 302].
    pub redirect_status: Option<u16>,
    /// A MaxMind-format database (GeoLite2 or GeoIP2 Country or City, .mmdb) for the countries
    /// of visits [default: none, every country `unknown`].
    pub geoip_database: Option<PathBuf>,
    /// Whether webhook endpoints may be loopback, private, link-local or other non-public
    /// addresses [default: false; for local development only].
    pub webhook_allow_private: Option<bool>,
    /// Days finished webhook deliveries, their attempts and events are kept [default: 30].
    pub webhook_retention_days: Option<u64>,
    /// Deliveries to one webhook endpoint under way at once, across every instance
    /// [default: 16].
    pub webhook_endpoint_concurrency: Option<usize>,
}

/// The `[storage]` table: where uploaded files live.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StorageConfig {
    /// "local" (default: a directory) or "s3" (an S3-compatible bucket, for several
    /// instances).
    pub backend: Option<String>,
    /// Local: the directory [default: `uploads` in the data directory].
    pub dir: Option<PathBuf>,
    /// S3: the bucket.
    pub bucket: Option<String>,
    /// S3: the service URL of an S3-compatible server (path-style requests); else AWS, or
    /// `AWS_ENDPOINT_URL`.
    pub endpoint: Option<String>,
    /// S3: the region; else `AWS_REGION`/`AWS_DEFAULT_REGION`.
    pub region: Option<String>,
    /// S3: the access key id; else `AWS_ACCESS_KEY_ID`.
    pub access_key_id: Option<String>,
    /// S3: the secret access key; else `AWS_SECRET_ACCESS_KEY`.
    pub secret_access_key: Option<String>,
    /// S3: "proxy" (default: the server streams files) or "presigned" (the server redirects
    /// to a presigned URL of the bucket).
    pub serve: Option<String>,
    /// S3, presigned: seconds a presigned URL stays valid [default: 3600].
    pub presign_ttl_secs: Option<u64>,
}

impl StorageConfig {
    /// The blob backend this table describes.
    pub(crate) fn backend(&self, data_dir: &Path) -> Result<BlobBackend> {
        match self.backend.as_deref().unwrap_or("local") {
            "local" => Ok(BlobBackend::Local(
                self.dir
                    .clone()
                    .unwrap_or_else(|| data_dir.join(UPLOADS_DIR)),
            )),
            "s3" => {
                let bucket = self
                    .bucket
                    .clone()
                    .filter(|b| !b.is_empty())
                    .context("storage: backend \"s3\" needs a bucket")?;
                let presign = match self.serve.as_deref().unwrap_or("proxy") {
                    "proxy" => None,
                    "presigned" => Some(Duration::from_secs(
                        self.presign_ttl_secs
                            .unwrap_or(3600)
                            .clamp(60, 7 * 24 * 3600),
                    )),
                    other => {
                        bail!("storage: serve = {other:?} is neither \"proxy\" nor \"presigned\"")
                    }
                };
                Ok(BlobBackend::S3(S3Settings {
                    bucket,
                    endpoint: self.endpoint.clone(),
                    region: self.region.clone(),
                    access_key_id: self.access_key_id.clone(),
                    secret_access_key: self.secret_access_key.clone(),
                    presign,
                }))
            }
            other => bail!("storage: backend = {other:?} is neither \"local\" nor \"s3\""),
        }
    }
}

/// Reads `trusted_proxies`: addresses and CIDR blocks.
pub(crate) fn trusted_proxies(entries: &[String]) -> Result<Vec<ipnet::IpNet>> {
    entries
        .iter()
        .map(|entry| {
            entry
                .parse::<ipnet::IpNet>()
                .or_else(|_| entry.parse::<std::net::IpAddr>().map(ipnet::IpNet::from))
                .with_context(|| {
                    format!("trusted_proxies: {entry:?} is not an address or CIDR block")
                })
        })
        .collect()
}

impl FileConfig {
    /// Reads a configuration file.
    ///
    /// # Errors
    /// When the file cannot be read or is not valid.
    pub fn load(path: &Path) -> Result<Self> {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("reading config {}", path.display()))?;
        toml::from_str(&text).with_context(|| format!("parsing config {}", path.display()))
    }

    /// The file at `path`, or every default when there is none.
    ///
    /// # Errors
    /// As [`FileConfig::load`].
    pub fn load_or_default(path: Option<&Path>) -> Result<Self> {
        path.map_or_else(|| Ok(FileConfig::default()), FileConfig::load)
    }

    /// The deployment's data directory: the flag's, else this file's, else the user's data
    /// directory.
    ///
    /// # Errors
    /// When neither names one and the user's data directory cannot be found.
    pub fn data_dir_or(&self, flag: Option<&Path>) -> Result<PathBuf> {
        match flag.or(self.data_dir.as_deref()) {
            Some(dir) => Ok(dir.to_path_buf()),
            None => default_data_dir(),
        }
    }
}

/// The directory data goes to when none is given: the user's data directory.
///
/// # Errors
/// When the platform has no home directory.
pub fn default_data_dir() -> Result<PathBuf> {
    directories::ProjectDirs::from("", "", "linkapi")
        .map(|dirs| dirs.data_dir().to_path_buf())
        .context("no home directory to keep data in; pass --data-dir")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The README's configuration block, which says it is every key at its default.
    fn readme_defaults() -> (String, FileConfig) {
        let readme = include_str!("../../README.md");
        let start = readme
            .find("**This is every key, set to its default**")
            .expect("the README states the defaults");
        let block = &readme[start..];
        let block = &block[block.find("```toml\n").expect("a toml block") + 8..];
        let block = &block[..block.find("```").expect("the block ends")];
        let file = toml::from_str(block).expect("every key of the block is a key of the file");
        (block.to_owned(), file)
    }

    #[test]
    fn the_readmes_configuration_block_is_every_key_at_its_default() {
        use linkapi_core::service::{AppConfig, RateLimit};
        use linkapi_core::store::postgres::PgOptions;
        let (text, file) = readme_defaults();
        let app = AppConfig::default();
        let server = linkapi_core::ServerConfig::default();
        let rate = RateLimit::default();
        assert_eq!(file.listen, Some(DEFAULT_LISTEN));
        assert_eq!(
            file.database_max_connections,
            Some(PgOptions::default().max_connections)
        );
        assert_eq!(file.rate_limit_per_second, Some(rate.per_second.get()));
        assert_eq!(file.rate_limit_burst, Some(rate.burst.get()));
        assert_eq!(file.rate_limit_admin_keys, Some(app.rate_limit_admin_keys));
        assert_eq!(file.rate_limit_instances, Some(1));
        assert_eq!(file.daily_create_quota, Some(app.daily_create_quota));
        assert_eq!(file.out_id_required, Some(app.out_id_required.clone()));
        assert_eq!(file.code_length, Some(app.code_length));
        assert_eq!(file.link_cache_bytes, Some(app.link_cache_bytes));
        assert_eq!(file.key_cache_capacity, Some(app.key_cache_capacity));
        assert_eq!(file.max_connections, Some(server.max_connections));
        assert_eq!(file.max_body_bytes, Some(server.max_body_bytes));
        assert_eq!(file.body_budget_bytes, Some(server.body_budget_bytes));
        assert_eq!(
            file.user_body_budget_bytes,
            Some(server.user_body_budget_bytes)
        );
        assert_eq!(file.min_body_rate_bytes, Some(server.min_body_rate));
        let secs = |d: Duration| Some(d.as_secs());
        assert_eq!(
            file.header_read_timeout_secs,
            secs(server.header_read_timeout)
        );
        assert_eq!(file.idle_timeout_secs, secs(server.idle_timeout));
        assert_eq!(file.body_read_timeout_secs, secs(server.body_read_timeout));
        assert_eq!(file.grace_period_secs, secs(server.grace_period));
        let zone = file.time_zone.as_deref().expect("time_zone");
        assert_eq!(
            linkapi_core::clock::Calendar::named(zone).map(|c| c.name().to_owned()),
            Ok(app.calendar.name().to_owned())
        );
        assert_eq!(file.trusted_proxies, Some(Vec::new()));
        assert!(app.trusted_proxies.is_empty());
        assert_eq!(
            file.client_address_header.as_deref(),
            Some("x-forwarded-for")
        );
        assert_eq!(
            file.visit_flush_interval_ms,
            Some(app.visit_flush_interval.as_millis() as u64)
        );
        assert_eq!(file.max_pending_visits, Some(app.max_pending_visits));
        assert_eq!(file.metrics_access.as_deref(), Some("loopback"));
        assert_eq!(server.metrics_access, linkapi_core::MetricsAccess::Loopback);
        assert_eq!(file.upload_max_file_bytes, Some(app.uploads.max_file_bytes));
        assert_eq!(file.upload_quota_bytes, Some(app.uploads.quota_bytes));
        assert_eq!(
            file.upload_max_image_pixels,
            Some(app.uploads.image_limits.max_pixels)
        );
        assert_eq!(
            file.upload_max_image_frames,
            Some(app.uploads.image_limits.max_frames)
        );
        assert_eq!(file.template_limit, Some(app.template_limit));
        assert_eq!(file.redirect_status, Some(app.redirect_status.code()));
        assert_eq!(file.webhook_allow_private, Some(app.webhooks.allow_private));
        assert_eq!(
            file.webhook_retention_days,
            Some(app.webhooks.retention.as_secs() / 86_400)
        );
        assert_eq!(
            file.webhook_endpoint_concurrency,
            Some(app.webhooks.endpoint_concurrency)
        );
        let storage = file.storage.clone().expect("[storage]");
        let data = Path::new("/var/lib/linkapi");
        assert_eq!(
            format!("{:?}", storage.backend(data).expect("a backend")),
            format!(
                "{:?}",
                StorageConfig::default().backend(data).expect("a backend")
            )
        );
        // Keys without a default are there, commented out, with an example.
        for key in [
            "data_dir",
            "public_url",
            "database_url",
            "home_url",
            "geoip_database",
            "dir",
        ] {
            assert!(text.contains(&format!("# {key} = ")), "{key} is not shown");
        }
        assert!(file.home_url.is_none() && app.home_url.is_none());
        assert!(file.geoip_database.is_none() && app.geo.is_none());
    }

    #[test]
    fn the_retired_link_cache_capacity_is_refused_by_name() {
        let refused = toml::from_str::<FileConfig>("link_cache_capacity = 100000")
            .expect_err("a key the server no longer reads");
        assert!(
            refused.to_string().contains("link_cache_capacity"),
            "{refused}"
        );
        let file: FileConfig =
            toml::from_str("link_cache_bytes = 1048576").expect("the key that replaced it");
        assert_eq!(file.link_cache_bytes, Some(1 << 20));
    }

    #[test]
    fn the_storage_table_names_a_directory_or_a_complete_bucket() {
        let data = Path::new("/var/lib/linkapi");
        let parse = |text: &str| -> Result<BlobBackend> {
            let file: FileConfig = toml::from_str(text)?;
            file.storage.unwrap_or_default().backend(data)
        };
        match parse("").expect("default") {
            BlobBackend::Local(dir) => assert_eq!(dir, data.join(UPLOADS_DIR)),
            other => panic!("{other:?}"),
        }
        match parse("[storage]\nbackend = \"s3\"\nbucket = \"b\"\nserve = \"presigned\"\n")
            .expect("s3")
        {
            BlobBackend::S3(s3) => {
                assert_eq!(s3.bucket, "b");
                assert_eq!(s3.presign, Some(Duration::from_secs(3600)));
            }
            other => panic!("{other:?}"),
        }
        for bad in [
            "[storage]\nbackend = \"s3\"\n",
            "[storage]\nbackend = \"ftp\"\n",
            "[storage]\nbackend = \"s3\"\nbucket = \"b\"\nserve = \"cdn\"\n",
            "[storage]\nbucket_name = \"b\"\n",
        ] {
            assert!(parse(bad).is_err(), "{bad}");
        }
    }
}
