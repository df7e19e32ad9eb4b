//! A real server on 127.0.0.1:0 over a real store, and a small client. The store is a SQLite
//! file in a temp dir, or with `LINKAPI_TEST_BACKEND=postgres` a database of its own in the
//! test process's PostgreSQL cluster (`tests/pg_cluster.rs`).

use std::net::SocketAddr;
use std::num::NonZeroU32;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use linkapi_core::blob::BlobBackend;
use linkapi_core::clock::Calendar;
use linkapi_core::service::{RateLimit, UploadConfig};
use linkapi_core::store::Store;
use linkapi_core::store::postgres::{PgOptions, PgStore};
use linkapi_core::{App, AppConfig, ManualClock, MetricsAccess, ServerConfig, SqliteStore, serve};
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};
use tempfile::TempDir;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

/// 2027-01-15 08:00:00 UTC: far from a day boundary, so "today" is stable within a test.
pub const START: i64 = 1_800_000_000;
pub const ADMIN_KEY: &str = "lk_test_admin_key_0123456789";

pub struct Options {
    pub body_read_timeout: Duration,
    pub header_read_timeout: Duration,
    pub idle_timeout: Duration,
    pub grace_period: Duration,
    pub max_connections: usize,
    pub rate_limit: Option<RateLimit>,
    pub daily_create_quota: i64,
    pub max_body_bytes: usize,
    pub out_id_required: Vec<String>,
    /// Short by default, so tests see counts soon; long to prove only a shutdown wrote them.
    pub visit_flush_interval: Duration,
    pub max_pending_visits: usize,
    pub trusted_proxies: Vec<&'static str>,
    pub time_zone: Option<&'static str>,
    pub metrics_access: MetricsAccess,
    pub max_file_bytes: u64,
    pub upload_quota_bytes: i64,
    /// Where uploads go; `None` is the `uploads` directory in the test's temp dir.
    pub blobs: Option<BlobBackend>,
    /// Templates each user's chains may use.
    pub template_limit: i64,
    /// Length of generated codes (1 makes collisions common).
    pub code_length: usize,
    /// Where `GET /` redirects.
    pub home_url: Option<&'static str>,
    /// The deployment's redirect status.
    pub redirect_status: linkapi_core::model::RedirectStatus,
    /// Whether admin keys are rate limited too.
    pub rate_limit_admin_keys: bool,
    /// A MaxMind-format database of countries.
    pub geoip_database: Option<std::path::PathBuf>,
    /// Whether webhooks may go to private addresses (the tests' receivers are on loopback).
    pub webhook_allow_private: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            body_read_timeout: Duration::from_secs(30),
            header_read_timeout: Duration::from_secs(10),
            idle_timeout: Duration::from_secs(30),
            grace_period: Duration::from_secs(2),
            max_connections: 10_000,
            // Generous: tests that are not about rate limits must never meet one.
            rate_limit: Some(RateLimit {
                per_second: NonZeroU32::new(1000).expect("non-zero"),
                burst: NonZeroU32::new(1000).expect("non-zero"),
            }),
            daily_create_quota: 10_000,
            max_body_bytes: 4096,
            out_id_required: Vec::new(),
            visit_flush_interval: Duration::from_millis(50),
            max_pending_visits: 2_000_000,
            trusted_proxies: Vec::new(),
            time_zone: None,
            metrics_access: MetricsAccess::Loopback,
            max_file_bytes: 10 << 20,
            upload_quota_bytes: 1 << 30,
            blobs: None,
            template_limit: 10,
            code_length: 6,
            home_url: None,
            redirect_status: linkapi_core::model::RedirectStatus::Found,
            rate_limit_admin_keys: false,
            geoip_database: None,
            webhook_allow_private: true,
        }
    }
}

/// Where a test server keeps its data.
#[derive(Clone, Debug)]
pub enum Backend {
    /// `linkapi.db` in the test's temp dir.
    Sqlite,
    /// A database of its own in the test cluster.
    Postgres { url: String },
}

impl Backend {
    /// What `LINKAPI_TEST_BACKEND` asks for (SQLite unless it says `postgres`).
    pub fn from_env() -> Backend {
        if crate::pg_cluster::selected() {
            Backend::postgres().expect("the PostgreSQL test cluster")
        } else {
            Backend::Sqlite
        }
    }

    /// A fresh PostgreSQL database; `None` when PostgreSQL is not installed (and not
    /// required, see `pg_cluster::required`).
    pub fn postgres() -> Option<Backend> {
        let cluster = crate::pg_cluster::cluster()?;
        Some(Backend::Postgres {
            url: cluster.new_database(),
        })
    }

    async fn open(&self, dir: &TempDir) -> Arc<dyn Store> {
        match self {
            Backend::Sqlite => {
                Arc::new(SqliteStore::open(&dir.path().join("linkapi.db")).expect("open store"))
            }
            Backend::Postgres { url } => Arc::new(
                PgStore::connect(url, PgOptions::default())
                    .await
                    .expect("connect to the test database"),
            ),
        }
    }
}

pub struct TestServer {
    pub addr: SocketAddr,
    /// The default domain's host: the first instance's address, shared by its peers as
    /// instances behind a load balancer share one public URL.
    pub host: String,
    pub clock: ManualClock,
    pub dir: Arc<TempDir>,
    pub backend: Backend,
    pub client: reqwest::Client,
    /// The services behind the server, for what HTTP cannot ask (flushing visits now).
    pub app: App,
    shutdown: Option<oneshot::Sender<()>>,
    task: Option<JoinHandle<()>>,
}

pub struct Reply {
    pub status: StatusCode,
    pub headers: reqwest::header::HeaderMap,
    pub body: Value,
    pub text: String,
}

impl TestServer {
    pub async fn start() -> Self {
        Self::start_with(Options::default()).await
    }

    pub async fn start_with(options: Options) -> Self {
        Self::start_on(Backend::from_env(), options).await
    }

    /// A server on `backend` (for tests of one backend in particular).
    pub async fn start_on(backend: Backend, options: Options) -> Self {
        let dir = Arc::new(TempDir::new().expect("temp dir"));
        Self::start_in(dir, backend, ManualClock::new(START), None, options).await
    }

    /// A second instance over this one's database, as behind a load balancer: its own caches,
    /// rate limiter and address, the same clock.
    pub async fn start_peer(&self, options: Options) -> Self {
        Self::start_in(
            self.dir.clone(),
            self.backend.clone(),
            self.clock.clone(),
            Some(self.host.clone()),
            options,
        )
        .await
    }

    /// A server on `backend` keeping uploads in `dir`, with `clock` and default domain `host`
    /// (its own address when `None`): for a deployment moved to another store.
    pub async fn start_in(
        dir: Arc<TempDir>,
        backend: Backend,
        clock: ManualClock,
        host: Option<String>,
        options: Options,
    ) -> Self {
        let store = backend.open(&dir).await;
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind");
        let addr = listener.local_addr().expect("addr");
        let host = host.unwrap_or_else(|| addr.to_string());
        let config = AppConfig {
            default_host: host.clone(),
            rate_limit: options.rate_limit,
            daily_create_quota: options.daily_create_quota,
            out_id_required: options.out_id_required.clone(),
            visit_flush_interval: options.visit_flush_interval,
            max_pending_visits: options.max_pending_visits,
            trusted_proxies: options
                .trusted_proxies
                .iter()
                .map(|p| p.parse().expect("a CIDR block"))
                .collect(),
            calendar: options
                .time_zone
                .map_or_else(Calendar::utc, |zone| Calendar::named(zone).expect("zone")),
            uploads: UploadConfig {
                backend: options
                    .blobs
                    .clone()
                    .unwrap_or_else(|| BlobBackend::Local(dir.path().join("uploads"))),
                max_file_bytes: options.max_file_bytes,
                quota_bytes: options.upload_quota_bytes,
                ..UploadConfig::default()
            },
            template_limit: options.template_limit,
            code_length: options.code_length,
            home_url: options.home_url.map(str::to_owned),
            redirect_status: options.redirect_status,
            rate_limit_admin_keys: options.rate_limit_admin_keys,
            geo: options.geoip_database.as_deref().map(|path| {
                Arc::new(linkapi_core::GeoDatabase::open(path).expect("the geolocation database"))
            }),
            webhooks: linkapi_core::service::WebhookConfig {
                allow_private: options.webhook_allow_private,
                // Deliveries another instance recorded are looked for often, so tests wait
                // little.
                poll_interval: Duration::from_millis(50),
                ..Default::default()
            },
            ..AppConfig::default()
        };
        let app = App::start(store, Arc::new(clock.clone()), config)
            .await
            .expect("start app");
        app.bootstrap(Some(ADMIN_KEY)).await.expect("bootstrap");
        let server_config = ServerConfig {
            max_body_bytes: options.max_body_bytes,
            body_read_timeout: options.body_read_timeout,
            header_read_timeout: options.header_read_timeout,
            idle_timeout: options.idle_timeout,
            max_connections: options.max_connections,
            grace_period: options.grace_period,
            metrics_access: options.metrics_access,
            ..ServerConfig::default()
        };
        let (tx, rx) = oneshot::channel::<()>();
        let served = app.clone();
        let task = tokio::spawn(async move {
            let app = served;
            serve(listener, app, server_config, async {
                let _ = rx.await;
            })
            .await
            .expect("serve");
        });
        let client = http_client(reqwest::Client::builder());
        TestServer {
            addr,
            host,
            clock,
            dir,
            backend,
            client,
            app,
            shutdown: Some(tx),
            task: Some(task),
        }
    }

    /// Stops the server (draining, flushing visits) and starts a new one on the same data.
    pub async fn restart(self) -> Self {
        self.restart_with(Options::default()).await
    }

    /// As [`TestServer::restart`], with options for the new server.
    pub async fn restart_with(mut self, options: Options) -> Self {
        self.stop().await;
        let dir = self.dir.clone();
        let clock = self.clock.clone();
        // A restarted server binds a new port, which becomes its default domain.
        Self::start_in(dir, self.backend.clone(), clock, None, options).await
    }

    /// Writes every visit counted so far; panics when the store did not take them.
    pub async fn flush_visits(&self) {
        assert!(self.app.flush_visits().await, "visit counts were written");
    }

    pub async fn stop(&mut self) {
        if let Some(tx) = self.shutdown.take() {
            let _ = tx.send(());
        }
        if let Some(task) = self.task.take() {
            task.await.expect("server task");
        }
    }

    fn db_path(&self) -> PathBuf {
        self.dir.path().join("linkapi.db")
    }

    /// Runs one SQL statement on the server's database behind its back; returns the rows it
    /// changed.
    pub fn sql(&self, statement: &str) -> usize {
        match &self.backend {
            Backend::Sqlite => rusqlite::Connection::open(self.db_path())
                .expect("open the database")
                .execute(statement, [])
                .expect("statement runs"),
            Backend::Postgres { url } => {
                let cluster = crate::pg_cluster::cluster().expect("cluster");
                let out = cluster.psql(url, statement);
                // psql prints "UPDATE n" (or "INSERT 0 n") for the statement it ran.
                out.split_whitespace()
                    .last()
                    .and_then(|n| n.parse().ok())
                    .unwrap_or(0)
            }
        }
    }

    /// Every byte the store keeps: the SQLite file and its write-ahead log, or a dump of the
    /// PostgreSQL database.
    pub fn stored_bytes(&self) -> Vec<u8> {
        match &self.backend {
            Backend::Sqlite => {
                let mut bytes = std::fs::read(self.db_path()).expect("database file");
                bytes.extend(
                    std::fs::read(self.db_path().with_extension("db-wal")).unwrap_or_default(),
                );
                bytes
            }
            Backend::Postgres { url } => crate::pg_cluster::cluster().expect("cluster").dump(url),
        }
    }

    pub fn url(&self, path: &str) -> String {
        format!("http://{}{}", self.addr, path)
    }

    /// Sends a request; `key` goes in `Authorization: Bearer`.
    pub async fn call(
        &self,
        method: Method,
        path: &str,
        key: Option<&str>,
        body: Option<Value>,
    ) -> Reply {
        let mut req = self.client.request(method, self.url(path));
        if let Some(key) = key {
            req = req.bearer_auth(key);
        }
        if let Some(body) = body {
            req = req.json(&body);
        }
        Reply::from(req.send().await.expect("request")).await
    }

    pub async fn get(&self, path: &str, key: &str) -> Reply {
        self.call(Method::GET, path, Some(key), None).await
    }

    pub async fn post(&self, path: &str, key: &str, body: Value) -> Reply {
        self.call(Method::POST, path, Some(key), Some(body)).await
    }

    /// POST of a body as given (multipart made by hand, bytes that are not JSON).
    pub async fn post_bytes(
        &self,
        path: &str,
        key: &str,
        content_type: &str,
        body: impl Into<reqwest::Body>,
    ) -> Reply {
        let resp = self
            .client
            .post(self.url(path))
            .bearer_auth(key)
            .header("content-type", content_type)
            .body(body)
            .send()
            .await
            .expect("post");
        Reply::from(resp).await
    }

    pub async fn patch(&self, path: &str, key: &str, body: Value) -> Reply {
        self.call(Method::PATCH, path, Some(key), Some(body)).await
    }

    pub async fn delete(&self, path: &str, key: &str) -> Reply {
        self.call(Method::DELETE, path, Some(key), None).await
    }

    /// GET of a short link on the default domain, not following the redirect.
    pub async fn visit(&self, code: &str) -> Reply {
        let resp = self
            .client
            .get(self.url(&format!("/{code}")))
            .header("host", &self.host)
            .send()
            .await
            .expect("visit");
        Reply::from(resp).await
    }

    /// A visit of a short link on the default domain with `method` and `agent` as its user
    /// agent, not following the redirect.
    pub async fn visit_with(&self, method: Method, code: &str, agent: &str) -> Reply {
        let resp = self
            .client
            .request(method, self.url(&format!("/{code}")))
            .header("host", &self.host)
            .header("user-agent", agent)
            .send()
            .await
            .expect("visit");
        Reply::from(resp).await
    }

    /// A new user and a key for it with `scopes`; returns (user id, key).
    pub async fn user_with_key(&self, name: &str, scopes: &[&str]) -> (i64, String) {
        let user = self
            .post("/admin/users", ADMIN_KEY, json!({ "name": name }))
            .await;
        assert_eq!(user.status, StatusCode::CREATED, "{}", user.text);
        let user_id = user.body["data"]["id"].as_i64().expect("user id");
        let key = self
            .post(
                "/admin/keys",
                ADMIN_KEY,
                json!({ "user_id": user_id, "scopes": scopes }),
            )
            .await;
        assert_eq!(key.status, StatusCode::CREATED, "{}", key.text);
        (
            user_id,
            key.body["data"]["api_key"]
                .as_str()
                .expect("secret")
                .to_owned(),
        )
    }

    /// A user whose key holds every chain, group and domain scope.
    pub async fn full_user(&self, name: &str) -> (i64, String) {
        self.user_with_key(
            name,
            &[
                "chains:read",
                "chains:write",
                "groups:read",
                "groups:write",
                "domains:read",
                "stats:read",
            ],
        )
        .await
    }

    /// The body of a `GET` of `path` with `key` that must answer 200, as bytes (images,
    /// files).
    pub async fn get_bytes(&self, path: &str, key: &str) -> Vec<u8> {
        let resp = self
            .client
            .get(self.url(path))
            .bearer_auth(key)
            .send()
            .await
            .expect("answered");
        assert_eq!(resp.status(), StatusCode::OK, "{path}");
        resp.bytes().await.expect("body").to_vec()
    }

    /// Creates a short chain on the primary surface and returns its `data`.
    pub async fn create_chain(&self, key: &str, body: Value) -> Value {
        let reply = self.post("/chains", key, body).await;
        assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.text);
        reply.body["data"].clone()
    }
}

impl Drop for TestServer {
    fn drop(&mut self) {
        if let Some(tx) = self.shutdown.take() {
            let _ = tx.send(());
        }
    }
}

impl Reply {
    pub async fn from(resp: reqwest::Response) -> Self {
        let status = resp.status();
        let headers = resp.headers().clone();
        let text = resp.text().await.expect("body");
        let body = serde_json::from_str(&text).unwrap_or(Value::Null);
        Reply {
            status,
            headers,
            body,
            text,
        }
    }

    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).and_then(|v| v.to_str().ok())
    }

    /// Asserts a primary-surface error envelope with this status and short name.
    /// (See [`refusal`] for tables of refusals.)
    pub fn assert_primary_error(&self, status: StatusCode, code: &str) {
        assert_eq!(self.status, status, "{}", self.text);
        assert_eq!(self.body["code"], code, "{}", self.text);
        assert_eq!(self.body["status"], status.as_u16(), "{}", self.text);
        assert!(
            self.body["message"].as_str().is_some_and(|m| !m.is_empty()),
            "{}",
            self.text
        );
        assert_eq!(self.header("content-type"), Some("application/json"));
    }

    /// Asserts a compatibility-surface error envelope with this status.
    pub fn assert_compat_error(&self, status: StatusCode) {
        assert_eq!(self.status, status, "{}", self.text);
        assert_eq!(self.body["code"], 0, "{}", self.text);
        assert!(
            self.body["msg"].as_str().is_some_and(|m| !m.is_empty()),
            "{}",
            self.text
        );
        assert!(self.body.get("result").is_none(), "{}", self.text);
    }

    /// Asserts a primary success envelope and returns `data`.
    pub fn primary_data(&self) -> &Value {
        assert!(self.status.is_success(), "{}", self.text);
        assert_eq!(self.body["code"], 1, "{}", self.text);
        assert_eq!(self.body["message"], "ok", "{}", self.text);
        &self.body["data"]
    }

    /// Asserts a compatibility success envelope and returns `result`.
    pub fn compat_result(&self) -> &Value {
        assert_eq!(self.status, StatusCode::OK, "{}", self.text);
        assert_eq!(self.body["code"], 1, "{}", self.text);
        assert_eq!(self.body["msg"], "ok", "{}", self.text);
        &self.body["result"]
    }
}

/// A browser's user agent: visits without one count as bots.
pub const BROWSER: &str = "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0";

/// Builds a reqwest client that does not follow redirects and introduces itself as a browser.
/// reqwest is built without a bundled crypto provider, so one is installed first.
/// A path of the OpenAPI document (`/chains/{id}`) made concrete, each parameter given a value
/// its route accepts.
pub fn concrete_path(template: &str) -> String {
    template
        .replace("{id}", "1")
        .replace("{file_id}", "1")
        .replace("{object_key}", "0000.png")
        .replace("{ad_platform_name}", "ads")
        .replace("{code}", "nothing-here")
}

pub fn http_client(builder: reqwest::ClientBuilder) -> reqwest::Client {
    let _ = rustls::crypto::ring::default_provider().install_default();
    builder
        .redirect(reqwest::redirect::Policy::none())
        .user_agent(BROWSER)
        .build()
        .expect("client")
}

/// Sends `racers` POSTs of `path` at once (released together by a barrier), spread over
/// `servers` in turn, and returns each answer's status and JSON body in sending order.
pub async fn race_posts(
    servers: &[TestServer],
    racers: usize,
    path: &str,
    key: &str,
    body: impl Fn(usize) -> Value,
) -> Vec<(StatusCode, Value)> {
    race(servers, racers, |server, i| {
        server
            .client
            .post(server.url(path))
            .bearer_auth(key)
            .json(&body(i))
    })
    .await
    .into_iter()
    .map(|reply| (reply.status, reply.body))
    .collect()
}

/// Sends the request `request` builds for each of `racers` clients at once (released together
/// by a barrier; client `i` on `servers[i % servers.len()]`) and returns the answers in that
/// order.
pub async fn race(
    servers: &[TestServer],
    racers: usize,
    request: impl Fn(&TestServer, usize) -> reqwest::RequestBuilder,
) -> Vec<Reply> {
    let barrier = Arc::new(tokio::sync::Barrier::new(racers));
    let mut tasks = Vec::with_capacity(racers);
    for i in 0..racers {
        let request = request(&servers[i % servers.len()], i);
        let barrier = barrier.clone();
        tasks.push(tokio::spawn(async move {
            barrier.wait().await;
            Reply::from(request.send().await.expect("request")).await
        }));
    }
    let mut answers = Vec::with_capacity(racers);
    for task in tasks {
        answers.push(task.await.expect("racer"));
    }
    answers
}

/// Polls `check` every 10 ms until it holds; false when `limit` passed first. For effects that
/// must land within a bound (another instance hearing of a change).
pub async fn within<F, Fut>(limit: Duration, mut check: F) -> bool
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = bool>,
{
    let started = std::time::Instant::now();
    while started.elapsed() <= limit {
        if check().await {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    false
}

/// Polls `f` until it returns true, for effects that land a moment later (visit counts).
pub async fn eventually<F, Fut>(mut f: F) -> bool
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = bool>,
{
    for _ in 0..60 {
        if f().await {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    false
}

/// The status a refusal named `code` carries in a table of refusals: 422 for the codes listed
/// (rules the schema cannot state: stored data, the clock, fields that go together), else 400.
pub fn refusal(code: &str, unprocessable: &[&str]) -> StatusCode {
    if unprocessable.contains(&code) {
        StatusCode::UNPROCESSABLE_ENTITY
    } else {
        StatusCode::BAD_REQUEST
    }
}
