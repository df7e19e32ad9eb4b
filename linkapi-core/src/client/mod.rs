//! A typed async client of the linkapi HTTP API (feature `client`): every operation of the
//! primary, compatibility and admin surfaces, returning the same wire types the server uses.
//!
//! ```no_run
//! use linkapi_core::client::Client;
//! use linkapi_core::wire::primary::CreateChain;
//!
//! # async fn demo() -> Result<(), linkapi_core::client::ClientError> {
//! let client = Client::new("http://127.0.0.1:8080", "lk_...")?;
//! let chain = client
//!     .create_chain(&CreateChain {
//!         target_url: "https://example.com".into(),
//!         chain_title: Some("launch".into()),
//!         ..CreateChain::default()
//!     })
//!     .await?;
//! println!("{}", chain.render_url);
//! # Ok(())
//! # }
//! ```
//!
//! Errors carry the HTTP status and the envelope's code and message ([`ClientError::Api`]), or
//! say what failed on the way ([`ClientError::Connect`], [`ClientError::Timeout`], ...).

use std::sync::Arc;
use std::time::Duration;

use reqwest::{RequestBuilder, StatusCode};
use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::error::names;
use crate::locks::Unpoisoned;
use crate::wire::envelope::{CompatError, CompatOk, Envelope, PrimaryError, PrimaryOk, StatusOk};
pub use crate::wire::operations::{OPERATIONS, Operation, op};

mod admin;
mod compat;
mod primary;
mod webhooks;

/// Why a call failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ClientError {
    /// The server answered with an error envelope.
    #[error("{message} (HTTP {status}, {code})")]
    Api {
        /// HTTP status.
        status: u16,
        /// The primary envelope's short name; on the compatibility surface, derived from the
        /// status (`not_found`, `forbidden`, ...).
        code: String,
        /// The server's message.
        message: String,
        /// `Retry-After`, for 429s.
        retry_after: Option<u64>,
        /// `x-request-id`, to find the request in the server's logs.
        request_id: Option<String>,
    },
    /// No connection could be made.
    #[error("could not connect to {url}")]
    Connect {
        /// What was asked for.
        url: String,
        /// The transport's error.
        #[source]
        source: reqwest::Error,
    },
    /// The server did not answer in time.
    #[error("no answer from {url} in time")]
    Timeout {
        /// What was asked for.
        url: String,
    },
    /// The exchange failed otherwise.
    #[error("request to {url} failed")]
    Transport {
        /// What was asked for.
        url: String,
        /// The transport's error.
        #[source]
        source: reqwest::Error,
    },
    /// The answer was not what the API sends.
    #[error("unexpected answer from {url}: {detail}")]
    Decode {
        /// What was asked for.
        url: String,
        /// What was wrong with it.
        detail: String,
    },
    /// A downloaded file could not be written where it was going.
    #[error("could not write what {url} sent")]
    Write {
        /// What was asked for.
        url: String,
        /// The write's error.
        #[source]
        source: std::io::Error,
    },
    /// The base URL is not an http(s) URL.
    #[error("invalid server URL {0:?}: give http://host[:port] or https://host[:port]")]
    InvalidBase(String),
}

impl ClientError {
    /// The HTTP status, when the server answered.
    pub fn status(&self) -> Option<u16> {
        match self {
            ClientError::Api { status, .. } => Some(*status),
            _ => None,
        }
    }
}

/// Whether `err` may have left a request undone or unanswered rather than refused: worth
/// sending again under the same idempotency key.
fn failed_on_the_way(err: &ClientError) -> bool {
    match err {
        ClientError::Connect { .. } | ClientError::Timeout { .. } => true,
        ClientError::Transport { .. } => true,
        ClientError::Api { status, code, .. } => {
            matches!(status, 502..=504) || *code == names::IDEMPOTENCY_KEY_IN_USE.as_str()
        }
        _ => false,
    }
}

/// Short name for an HTTP status, for envelopes that carry none: the server's name where one
/// status has one meaning, else a name of the status itself.
fn status_code_name(status: StatusCode) -> &'static str {
    match status.as_u16() {
        400 => "bad_request",
        401 => names::INVALID_API_KEY.as_str(),
        403 => names::FORBIDDEN.as_str(),
        404 => names::NOT_FOUND.as_str(),
        405 => names::METHOD_NOT_ALLOWED.as_str(),
        409 => "conflict",
        413 => names::PAYLOAD_TOO_LARGE.as_str(),
        415 => names::UNSUPPORTED_MEDIA_TYPE.as_str(),
        422 => "unprocessable",
        429 => names::RATE_LIMITED.as_str(),
        500..=599 => names::INTERNAL_ERROR.as_str(),
        _ => "error",
    }
}

/// A connection to one linkapi server with one API key. Cheap to clone.
#[derive(Clone)]
pub struct Client {
    http: reqwest::Client,
    base: Arc<str>,
    key: Arc<str>,
    patience: RateLimitPatience,
    idempotency: Option<Idempotency>,
    /// Shared by the client and its clones.
    waits: Arc<std::sync::Mutex<RateLimitWaits>>,
}

/// The rate-limit waits of a client and its clones, for a program to show (a progress bar
/// that says why it stopped moving).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RateLimitWaits {
    /// Waits so far.
    pub count: u64,
    /// Their total length.
    pub total: Duration,
    /// When the wait in progress ends, if one is.
    pub until: Option<std::time::Instant>,
}

/// A client's `Idempotency-Key`, and whether the last answer was the one kept under it.
#[derive(Clone)]
struct Idempotency {
    key: Arc<str>,
    replayed: Arc<std::sync::atomic::AtomicBool>,
}

/// Sends of a request under an `Idempotency-Key` after an exchange that failed on the way (the
/// first included), and the pause before the first resend, doubled for each next one.
const IDEMPOTENT_TRIES: u32 = 4;
const IDEMPOTENT_FIRST_PAUSE: Duration = Duration::from_millis(500);

/// How long a download (an export) may take in all, and how long it may wait for its next
/// chunk: the server writes as it reads, so a large one takes minutes but never stalls.
const DOWNLOAD_TIMEOUT: Duration = Duration::from_secs(24 * 3600);
const CHUNK_TIMEOUT: Duration = Duration::from_secs(60);

/// How a [`Client`] meets `429 rate_limited`: by default it reports it at once; see
/// [`Client::wait_out_rate_limits`].
#[derive(Debug, Clone, Copy, Default)]
struct RateLimitPatience {
    /// Sends of one request, the first included; 1 or less never resends.
    tries: u32,
    /// The longest `Retry-After` waited out; a longer one is reported.
    max_wait: Duration,
}

impl std::fmt::Debug for Client {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // The key is a secret: never in logs or panics.
        f.debug_struct("Client")
            .field("base", &self.base)
            .finish_non_exhaustive()
    }
}

impl Client {
    /// A client of the server at `base` (`http://host:port`) acting with `api_key`, with
    /// 10 s to connect and 60 s per request.
    ///
    /// # Errors
    /// [`ClientError::InvalidBase`] for a base that is not an http(s) URL.
    pub fn new(base: &str, api_key: &str) -> Result<Client, ClientError> {
        // reqwest is built without a bundled crypto provider (aws-lc's C build is slow); use
        // ring unless the program installed one itself.
        if rustls::crypto::CryptoProvider::get_default().is_none() {
            let _ = rustls::crypto::ring::default_provider().install_default();
        }
        let http = reqwest::Client::builder()
            .connect_timeout(Duration::from_secs(10))
            .timeout(Duration::from_secs(60))
            .redirect(reqwest::redirect::Policy::none())
            .user_agent(concat!("linkapi/", env!("CARGO_PKG_VERSION")))
            .build()
            .map_err(|source| ClientError::Transport {
                url: base.to_owned(),
                source,
            })?;
        Client::with_http(http, base, api_key)
    }

    /// A client over a `reqwest::Client` the caller configured.
    ///
    /// # Errors
    /// [`ClientError::InvalidBase`] for a base that is not an http(s) URL.
    pub fn with_http(
        http: reqwest::Client,
        base: &str,
        api_key: &str,
    ) -> Result<Client, ClientError> {
        let parsed = url::Url::parse(base).map_err(|_| ClientError::InvalidBase(base.into()))?;
        if !matches!(parsed.scheme(), "http" | "https") || parsed.host_str().is_none() {
            return Err(ClientError::InvalidBase(base.into()));
        }
        Ok(Client {
            http,
            base: base.trim_end_matches('/').into(),
            key: api_key.into(),
            patience: RateLimitPatience::default(),
            waits: Arc::default(),
            idempotency: None,
        })
    }

    /// This client, sending `key` as the `Idempotency-Key` of its requests: a create the
    /// server answered once is answered the same again, and creates nothing more. So its
    /// requests are also resent (with the same key, up to 3 times, after 0.5, 1 and 2 s) when
    /// an exchange fails on the way (no connection, no answer in time, a broken connection, a
    /// 502, 503 or 504, or `409 idempotency_key_in_use`): whether or not the first reached the
    /// server, the chain is created once. Use one key per distinct request: the same key with
    /// another body is refused (`422 idempotency_key_reused`).
    #[must_use]
    pub fn with_idempotency_key(&self, key: &str) -> Client {
        let mut keyed = self.clone();
        keyed.idempotency = Some(Idempotency {
            key: key.into(),
            replayed: Arc::default(),
        });
        keyed
    }

    /// Whether this client's last answer was one the server kept under its idempotency key
    /// and gave again (`Idempotency-Replayed: true`): the request had been answered before.
    pub fn was_replayed(&self) -> bool {
        self.idempotency
            .as_ref()
            .is_some_and(|i| i.replayed.load(std::sync::atomic::Ordering::Relaxed))
    }

    /// This client, sending a request up to `tries` times while the server answers
    /// `429 rate_limited` with a `Retry-After` of at most `max_wait` (waiting what it says, at
    /// least a second). Safe for every request: the server refuses a rate-limited one before
    /// reading it, so nothing was done. Requests with a streamed body are never resent.
    #[must_use]
    pub fn wait_out_rate_limits(mut self, tries: u32, max_wait: Duration) -> Client {
        self.patience = RateLimitPatience { tries, max_wait };
        self
    }

    /// The waits for rate limits of this client and its clones so far (see
    /// [`Client::wait_out_rate_limits`]).
    pub fn rate_limit_waits(&self) -> RateLimitWaits {
        *self.waits.lock().unpoisoned()
    }

    /// The server's base URL.
    pub fn base(&self) -> &str {
        &self.base
    }

    /// A request for `op` at `path` (its template filled in, a query string after it).
    fn request(&self, op: Operation, path: &str) -> (RequestBuilder, String) {
        debug_assert!(op.serves(path), "{path} is not a path of {}", op.name);
        let url = format!("{}{}", self.base, path);
        let mut request = self
            .http
            .request(op.http_method(), &url)
            .bearer_auth(&*self.key);
        if let Some(idempotency) = &self.idempotency {
            request = request.header("idempotency-key", &*idempotency.key);
        }
        (request, url)
    }

    /// Sends a request for `op` and decodes its success from `op`'s envelope.
    async fn send<T: DeserializeOwned>(
        &self,
        op: Operation,
        request: RequestBuilder,
        url: String,
    ) -> Result<T, ClientError> {
        let bytes = self.fetch(request, &url).await?;
        let decode = |detail: String| ClientError::Decode {
            url: url.clone(),
            detail,
        };
        match op.envelope {
            // The client calls no operation answering a page.
            Envelope::Primary | Envelope::Page => serde_json::from_slice::<PrimaryOk<T>>(&bytes)
                .map(|ok| ok.data)
                .map_err(|e| decode(e.to_string())),
            Envelope::Compat => serde_json::from_slice::<CompatOk<T>>(&bytes)
                .map(|ok| ok.result)
                .map_err(|e| decode(e.to_string())),
            Envelope::Status => serde_json::from_slice::<StatusOk<T>>(&bytes)
                .map(|ok| ok.result)
                .map_err(|e| decode(e.to_string())),
        }
    }

    fn note_rate_limit_wait(&self, wait: Duration) {
        let mut waits = self.waits.lock().unpoisoned();
        waits.count += 1;
        waits.total += wait;
        let until = std::time::Instant::now() + wait;
        waits.until = Some(waits.until.map_or(until, |other| other.max(until)));
    }

    fn note_rate_limit_wait_over(&self) {
        let mut waits = self.waits.lock().unpoisoned();
        if waits
            .until
            .is_some_and(|until| until <= std::time::Instant::now())
        {
            waits.until = None;
        }
    }

    /// Sends `request` (again, while rate limited, as far as the client's patience goes): the
    /// body of a success, or the error the answer (or the exchange) amounts to.
    async fn fetch(&self, request: RequestBuilder, url: &str) -> Result<bytes::Bytes, ClientError> {
        self.retrying(request, |request| self.fetch_once(request, url))
            .await
    }

    /// Sends `request` for a file and writes a success's body into `out` as it arrives (each
    /// chunk within the client's timeout; the whole may take longer), sent again while rate
    /// limited as [`Client::fetch`] is; the bytes written.
    async fn download(
        &self,
        request: RequestBuilder,
        url: &str,
        out: &mut (dyn std::io::Write + Send),
    ) -> Result<u64, ClientError> {
        let mut response = self
            .retrying(request.timeout(DOWNLOAD_TIMEOUT), |request| {
                self.answer_once(request, url)
            })
            .await?;
        let transport = |source| ClientError::Transport {
            url: url.to_owned(),
            source,
        };
        let mut written = 0;
        loop {
            let chunk = tokio::time::timeout(CHUNK_TIMEOUT, response.chunk())
                .await
                .map_err(|_| ClientError::Timeout {
                    url: url.to_owned(),
                })?
                .map_err(transport)?;
            let Some(chunk) = chunk else {
                return Ok(written);
            };
            out.write_all(&chunk).map_err(|source| ClientError::Write {
                url: url.to_owned(),
                source,
            })?;
            written += chunk.len() as u64;
        }
    }

    /// Runs `once` on `request`, and again on a copy of it while the answer is a rate limit
    /// the client's patience waits out, or (with an idempotency key) a failure on the way.
    async fn retrying<T, F, Fut>(
        &self,
        mut request: RequestBuilder,
        once: F,
    ) -> Result<T, ClientError>
    where
        F: Fn(RequestBuilder) -> Fut,
        Fut: std::future::Future<Output = Result<T, ClientError>>,
    {
        let (mut rate_limited, mut failed) = (1, 1);
        let mut pause = IDEMPOTENT_FIRST_PAUSE;
        loop {
            let again = request.try_clone();
            let outcome = once(request).await;
            let mut for_rate_limit = false;
            let wait = match &outcome {
                Err(ClientError::Api {
                    status: 429,
                    code,
                    retry_after,
                    ..
                }) if *code == names::RATE_LIMITED.as_str()
                    && rate_limited < self.patience.tries =>
                {
                    rate_limited += 1;
                    for_rate_limit = true;
                    retry_after
                        .map(|s| Duration::from_secs(s.max(1)))
                        .filter(|wait| *wait <= self.patience.max_wait)
                }
                Err(err)
                    if self.idempotency.is_some()
                        && failed < IDEMPOTENT_TRIES
                        && failed_on_the_way(err) =>
                {
                    failed += 1;
                    let wait = match err {
                        ClientError::Api {
                            retry_after: Some(s),
                            ..
                        } => Duration::from_secs(*s).max(pause),
                        _ => pause,
                    };
                    pause *= 2;
                    Some(wait)
                }
                _ => None,
            };
            match (again, wait) {
                (Some(next), Some(wait)) => {
                    if for_rate_limit {
                        self.note_rate_limit_wait(wait);
                    }
                    tokio::time::sleep(wait).await;
                    if for_rate_limit {
                        self.note_rate_limit_wait_over();
                    }
                    request = next;
                }
                _ => return outcome,
            }
        }
    }

    /// Sends `request` once: the body of a success, or the error it amounts to.
    async fn fetch_once(
        &self,
        request: RequestBuilder,
        url: &str,
    ) -> Result<bytes::Bytes, ClientError> {
        let response = self.answer_once(request, url).await?;
        response
            .bytes()
            .await
            .map_err(|source| ClientError::Transport {
                url: url.to_owned(),
                source,
            })
    }

    /// Sends `request` once: a success with its body still to read, or the error the answer
    /// (or the exchange) amounts to.
    async fn answer_once(
        &self,
        request: RequestBuilder,
        url: &str,
    ) -> Result<reqwest::Response, ClientError> {
        let url = url.to_owned();
        let response = request.send().await.map_err(|source| {
            if source.is_timeout() {
                ClientError::Timeout { url: url.clone() }
            } else if source.is_connect() {
                ClientError::Connect {
                    url: url.clone(),
                    source,
                }
            } else {
                ClientError::Transport {
                    url: url.clone(),
                    source,
                }
            }
        })?;
        let status = response.status();
        let header = |name: &str| {
            response
                .headers()
                .get(name)
                .and_then(|v| v.to_str().ok())
                .map(str::to_owned)
        };
        let retry_after = header("retry-after").and_then(|v| v.parse().ok());
        if let Some(idempotency) = &self.idempotency {
            idempotency.replayed.store(
                header("idempotency-replayed").as_deref() == Some("true"),
                std::sync::atomic::Ordering::Relaxed,
            );
        }
        let request_id = header("x-request-id");
        if status.is_success() {
            return Ok(response);
        }
        let bytes = response
            .bytes()
            .await
            .map_err(|source| ClientError::Transport {
                url: url.clone(),
                source,
            })?;
        let (code, message) = if let Ok(err) = serde_json::from_slice::<PrimaryError>(&bytes) {
            (err.code, err.message)
        } else if let Ok(err) = serde_json::from_slice::<CompatError>(&bytes) {
            (status_code_name(status).to_owned(), err.msg)
        } else {
            // Not one of ours: a proxy's error page, say.
            (
                status_code_name(status).to_owned(),
                status.canonical_reason().unwrap_or("error").to_lowercase(),
            )
        };
        Err(ClientError::Api {
            status: status.as_u16(),
            code,
            message,
            retry_after,
            request_id,
        })
    }

    async fn get<T: DeserializeOwned>(&self, op: Operation, path: &str) -> Result<T, ClientError> {
        let (request, url) = self.request(op, path);
        self.send(op, request, url).await
    }

    async fn with_body<T: DeserializeOwned>(
        &self,
        op: Operation,
        path: &str,
        body: &impl Serialize,
    ) -> Result<T, ClientError> {
        let (request, url) = self.request(op, path);
        self.send(op, request.json(body), url).await
    }

    /// The query string of `query`, `?` included; empty when it has no fields.
    fn query_string(&self, query: &impl Serialize) -> Result<String, ClientError> {
        let query = serde_urlencoded::to_string(query).map_err(|e| ClientError::Decode {
            url: self.base.to_string(),
            detail: e.to_string(),
        })?;
        Ok(if query.is_empty() {
            query
        } else {
            format!("?{query}")
        })
    }
}
