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

use reqwest::{Method, RequestBuilder, StatusCode};
use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::wire::envelope::{CompatError, CompatOk, PrimaryError, PrimaryOk, StatusOk};
use crate::wire::{admin, compat, primary};

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

/// Short name for an HTTP status, for envelopes that carry none.
fn status_code_name(status: StatusCode) -> &'static str {
    match status.as_u16() {
        400 => "bad_request",
        401 => "invalid_api_key",
        403 => "forbidden",
        404 => "not_found",
        405 => "method_not_allowed",
        409 => "conflict",
        413 => "payload_too_large",
        415 => "unsupported_media_type",
        422 => "unprocessable",
        429 => "rate_limited",
        500..=599 => "internal_error",
        _ => "error",
    }
}

#[derive(Clone, Copy)]
enum Surface {
    Primary,
    Compat,
    /// `{status: 1, result}` (conversions), with primary errors.
    Status,
}

/// A connection to one linkapi server with one API key. Cheap to clone.
#[derive(Clone)]
pub struct Client {
    http: reqwest::Client,
    base: Arc<str>,
    key: Arc<str>,
    patience: RateLimitPatience,
}

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
        })
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

    /// The server's base URL.
    pub fn base(&self) -> &str {
        &self.base
    }

    fn request(&self, method: Method, path: &str) -> (RequestBuilder, String) {
        let url = format!("{}{}", self.base, path);
        (self.http.request(method, &url).bearer_auth(&*self.key), url)
    }

    async fn send<T: DeserializeOwned>(
        &self,
        surface: Surface,
        request: RequestBuilder,
        url: String,
    ) -> Result<T, ClientError> {
        let bytes = self.fetch(request, &url).await?;
        let decode = |detail: String| ClientError::Decode {
            url: url.clone(),
            detail,
        };
        match surface {
            Surface::Primary => serde_json::from_slice::<PrimaryOk<T>>(&bytes)
                .map(|ok| ok.data)
                .map_err(|e| decode(e.to_string())),
            Surface::Compat => serde_json::from_slice::<CompatOk<T>>(&bytes)
                .map(|ok| ok.result)
                .map_err(|e| decode(e.to_string())),
            Surface::Status => serde_json::from_slice::<StatusOk<T>>(&bytes)
                .map(|ok| ok.result)
                .map_err(|e| decode(e.to_string())),
        }
    }

    /// Sends `request` (again, while rate limited, as far as the client's patience goes): the
    /// body of a success, or the error the answer (or the exchange) amounts to.
    async fn fetch(
        &self,
        mut request: RequestBuilder,
        url: &str,
    ) -> Result<bytes::Bytes, ClientError> {
        let mut tries = 1;
        loop {
            let again = if tries < self.patience.tries {
                request.try_clone()
            } else {
                None
            };
            let outcome = self.fetch_once(request, url).await;
            let wait = match &outcome {
                Err(ClientError::Api {
                    status: 429,
                    code,
                    retry_after,
                    ..
                }) if code == "rate_limited" => retry_after
                    .map(|s| Duration::from_secs(s.max(1)))
                    .filter(|wait| *wait <= self.patience.max_wait),
                _ => None,
            };
            match (again, wait) {
                (Some(next), Some(wait)) => {
                    tokio::time::sleep(wait).await;
                    request = next;
                    tries += 1;
                }
                _ => return outcome,
            }
        }
    }

    /// Sends `request` once.
    async fn fetch_once(
        &self,
        request: RequestBuilder,
        url: &str,
    ) -> Result<bytes::Bytes, ClientError> {
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
        let request_id = header("x-request-id");
        let bytes = response
            .bytes()
            .await
            .map_err(|source| ClientError::Transport {
                url: url.clone(),
                source,
            })?;
        if status.is_success() {
            return Ok(bytes);
        }
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

    async fn get<T: DeserializeOwned>(
        &self,
        surface: Surface,
        path: &str,
    ) -> Result<T, ClientError> {
        let (request, url) = self.request(Method::GET, path);
        self.send(surface, request, url).await
    }

    async fn with_body<T: DeserializeOwned>(
        &self,
        surface: Surface,
        method: Method,
        path: &str,
        body: &impl Serialize,
    ) -> Result<T, ClientError> {
        let (request, url) = self.request(method, path);
        self.send(surface, request.json(body), url).await
    }

    // ---- primary surface ------------------------------------------------------------------

    /// `POST /chains`
    ///
    /// # Errors
    /// As the server answers; see [`ClientError`].
    pub async fn create_chain(
        &self,
        input: &primary::CreateChain,
    ) -> Result<primary::Chain, ClientError> {
        self.with_body(Surface::Primary, Method::POST, "/chains", input)
            .await
    }

    /// `GET /chains`
    ///
    /// # Errors
    /// As the server answers; see [`ClientError`].
    pub async fn list_chains(
        &self,
        query: &primary::ListChains,
    ) -> Result<primary::ChainPage, ClientError> {
        let query = serde_urlencoded::to_string(query).map_err(|e| ClientError::Decode {
            url: self.base.to_string(),
            detail: e.to_string(),
        })?;
        let path = if query.is_empty() {
            "/chains".to_owned()
        } else {
            format!("/chains?{query}")
        };
        self.get(Surface::Primary, &path).await
    }

    /// `GET /chains/{id}`
    ///
    /// # Errors
    /// As the server answers; see [`ClientError`].
    pub async fn chain(&self, id: i64) -> Result<primary::Chain, ClientError> {
        self.get(Surface::Primary, &format!("/chains/{id}")).await
    }

    /// `GET /chains/{id}/conversions`
    ///
    /// # Errors
    /// As the server answers; see [`ClientError`].
    pub async fn conversions(
        &self,
        id: i64,
        query: &primary::ListConversions,
    ) -> Result<primary::ConversionPage, ClientError> {
        let query = serde_urlencoded::to_string(query).map_err(|e| ClientError::Decode {
            url: self.base.to_string(),
            detail: e.to_string(),
        })?;
        self.get(
            Surface::Primary,
            &format!("/chains/{id}/conversions?{query}"),
        )
        .await
    }

    /// `GET /chains/{id}/stats?days=N` (`days` 1 to 365; the server's default, 7, when
    /// `None`).
    ///
    /// # Errors
    /// As the server answers; see [`ClientError`].
    pub async fn chain_stats(
        &self,
        id: i64,
        days: Option<i64>,
    ) -> Result<primary::ChainStats, ClientError> {
        let path = match days {
            Some(days) => format!("/chains/{id}/stats?days={days}"),
            None => format!("/chains/{id}/stats"),
        };
        self.get(Surface::Primary, &path).await
    }

    /// `GET /chains/{id}/qr`: a QR code of the chain's link, `format` `png` or `svg`, about
    /// `size` pixels wide; the image's bytes.
    ///
    /// # Errors
    /// As the server answers; see [`ClientError`].
    pub async fn chain_qr(
        &self,
        id: i64,
        format: &str,
        size: Option<u32>,
    ) -> Result<Vec<u8>, ClientError> {
        let query = serde_urlencoded::to_string(primary::QrQuery {
            format: Some(format.to_owned()),
            size,
        })
        .unwrap_or_default();
        let (request, url) = self.request(Method::GET, &format!("/chains/{id}/qr?{query}"));
        Ok(self.fetch(request, &url).await?.to_vec())
    }

    /// `POST /openapi/v1/adcallback/{ad_platform_name}/conversions`: `result.duplicate` says
    /// whether the report repeated one already recorded.
    ///
    /// # Errors
    /// As the server answers; see [`ClientError`].
    pub async fn report_conversion(
        &self,
        ad_platform: &str,
        input: &compat::ConversionReport,
    ) -> Result<compat::ConversionResult, ClientError> {
        // One path segment whatever the name holds.
        let segment: String = ad_platform
            .bytes()
            .map(|b| match b {
                b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' => {
                    char::from(b).to_string()
                }
                other => format!("%{other:02X}"),
            })
            .collect();
        let path = format!("/openapi/v1/adcallback/{segment}/conversions");
        self.with_body(Surface::Status, Method::POST, &path, input)
            .await
    }

    /// `PATCH /chains/{id}`
    ///
    /// # Errors
    /// As the server answers; see [`ClientError`].
    pub async fn update_chain(
        &self,
        id: i64,
        input: &primary::UpdateChain,
    ) -> Result<primary::Chain, ClientError> {
        self.with_body(
            Surface::Primary,
            Method::PATCH,
            &format!("/chains/{id}"),
            input,
        )
        .await
    }

    /// `DELETE /chains/{id}`
    ///
    /// # Errors
    /// As the server answers; see [`ClientError`].
    pub async fn delete_chain(&self, id: i64) -> Result<primary::DeletedChain, ClientError> {
        let (request, url) = self.request(Method::DELETE, &format!("/chains/{id}"));
        self.send(Surface::Primary, request, url).await
    }

    /// `POST /uploads`: streams `body` (`length` bytes) as the part `file`, named
    /// `file_name`. The server decides the type by the bytes.
    ///
    /// # Errors
    /// As the server answers; see [`ClientError`].
    pub async fn upload(
        &self,
        file_name: &str,
        body: reqwest::Body,
        length: u64,
    ) -> Result<primary::Upload, ClientError> {
        let part = reqwest::multipart::Part::stream_with_length(body, length)
            .file_name(file_name.to_owned());
        let form = reqwest::multipart::Form::new().part("file", part);
        let (request, url) = self.request(Method::POST, "/uploads");
        self.send(Surface::Primary, request.multipart(form), url)
            .await
    }

    /// `GET /uploads?page=&page_size=`: the caller's uploads, newest first.
    ///
    /// # Errors
    /// As the server answers; see [`ClientError`].
    pub async fn uploads(
        &self,
        page: Option<i64>,
        page_size: Option<i64>,
    ) -> Result<primary::UploadPage, ClientError> {
        let query = serde_urlencoded::to_string(primary::ListUploads { page, page_size })
            .unwrap_or_default();
        let path = if query.is_empty() {
            "/uploads".to_owned()
        } else {
            format!("/uploads?{query}")
        };
        self.get(Surface::Primary, &path).await
    }

    /// `DELETE /uploads/{file_id}`: answers the upload as it was.
    ///
    /// # Errors
    /// As the server answers; see [`ClientError`].
    pub async fn delete_upload(&self, file_id: i64) -> Result<primary::Upload, ClientError> {
        let (request, url) = self.request(Method::DELETE, &format!("/uploads/{file_id}"));
        self.send(Surface::Primary, request, url).await
    }

    /// `POST /groups`
    ///
    /// # Errors
    /// As the server answers; see [`ClientError`].
    pub async fn create_group(
        &self,
        input: &primary::CreateGroup,
    ) -> Result<primary::Group, ClientError> {
        self.with_body(Surface::Primary, Method::POST, "/groups", input)
            .await
    }

    /// `GET /groups`
    ///
    /// # Errors
    /// As the server answers; see [`ClientError`].
    pub async fn groups(&self) -> Result<Vec<primary::Group>, ClientError> {
        self.get(Surface::Primary, "/groups").await
    }

    /// `GET /domains`
    ///
    /// # Errors
    /// As the server answers; see [`ClientError`].
    pub async fn domains(&self) -> Result<Vec<primary::Domain>, ClientError> {
        self.get(Surface::Primary, "/domains").await
    }

    // ---- compatibility surface -------------------------------------------------------------

    /// `POST /openapi/v1/chain/create`
    ///
    /// # Errors
    /// As the server answers; see [`ClientError`].
    pub async fn compat_create_chain(
        &self,
        input: &compat::CreateChain,
    ) -> Result<compat::CreatedChain, ClientError> {
        self.with_body(
            Surface::Compat,
            Method::POST,
            "/openapi/v1/chain/create",
            input,
        )
        .await
    }

    /// `POST /openapi/v1/chain/edit`
    ///
    /// # Errors
    /// As the server answers; see [`ClientError`].
    pub async fn compat_edit_chain(
        &self,
        input: &compat::EditChain,
    ) -> Result<compat::EditedChain, ClientError> {
        self.with_body(
            Surface::Compat,
            Method::POST,
            "/openapi/v1/chain/edit",
            input,
        )
        .await
    }

    /// `POST /openapi/v1/chain/delete`
    ///
    /// # Errors
    /// As the server answers; see [`ClientError`].
    pub async fn compat_delete_chains(
        &self,
        input: &compat::DeleteChains,
    ) -> Result<(), ClientError> {
        let _: Vec<serde_json::Value> = self
            .with_body(
                Surface::Compat,
                Method::POST,
                "/openapi/v1/chain/delete",
                input,
            )
            .await?;
        Ok(())
    }

    /// `POST /openapi/v1/chain/list`
    ///
    /// # Errors
    /// As the server answers; see [`ClientError`].
    pub async fn compat_list_chains(
        &self,
        input: &compat::ListChains,
    ) -> Result<compat::ChainList, ClientError> {
        self.with_body(
            Surface::Compat,
            Method::POST,
            "/openapi/v1/chain/list",
            input,
        )
        .await
    }

    /// `POST /openapi/v1/chain/info`
    ///
    /// # Errors
    /// As the server answers; see [`ClientError`].
    pub async fn compat_chain_info(
        &self,
        input: &compat::ChainInfo,
    ) -> Result<compat::ChainItem, ClientError> {
        self.with_body(
            Surface::Compat,
            Method::POST,
            "/openapi/v1/chain/info",
            input,
        )
        .await
    }

    /// `POST /openapi/v1/group/create`
    ///
    /// # Errors
    /// As the server answers; see [`ClientError`].
    pub async fn compat_create_group(
        &self,
        input: &compat::CreateGroup,
    ) -> Result<compat::CreatedGroup, ClientError> {
        self.with_body(
            Surface::Compat,
            Method::POST,
            "/openapi/v1/group/create",
            input,
        )
        .await
    }

    /// `POST /openapi/v1/group/list`
    ///
    /// # Errors
    /// As the server answers; see [`ClientError`].
    pub async fn compat_groups(&self) -> Result<compat::GroupList, ClientError> {
        self.with_body(
            Surface::Compat,
            Method::POST,
            "/openapi/v1/group/list",
            &serde_json::json!({}),
        )
        .await
    }

    /// `POST /openapi/v1/domain/list`
    ///
    /// # Errors
    /// As the server answers; see [`ClientError`].
    pub async fn compat_domains(&self) -> Result<compat::DomainList, ClientError> {
        self.with_body(
            Surface::Compat,
            Method::POST,
            "/openapi/v1/domain/list",
            &serde_json::json!({}),
        )
        .await
    }

    // ---- administration --------------------------------------------------------------------

    /// `POST /admin/users`
    ///
    /// # Errors
    /// As the server answers; see [`ClientError`].
    pub async fn create_user(&self, input: &admin::CreateUser) -> Result<admin::User, ClientError> {
        self.with_body(Surface::Primary, Method::POST, "/admin/users", input)
            .await
    }

    /// `GET /admin/users`
    ///
    /// # Errors
    /// As the server answers; see [`ClientError`].
    pub async fn users(&self) -> Result<Vec<admin::User>, ClientError> {
        self.get(Surface::Primary, "/admin/users").await
    }

    /// `POST /admin/keys`: the answer holds the secret, shown this once.
    ///
    /// # Errors
    /// As the server answers; see [`ClientError`].
    pub async fn create_key(
        &self,
        input: &admin::CreateKey,
    ) -> Result<admin::CreatedKey, ClientError> {
        self.with_body(Surface::Primary, Method::POST, "/admin/keys", input)
            .await
    }

    /// `GET /admin/keys`, all or one user's.
    ///
    /// # Errors
    /// As the server answers; see [`ClientError`].
    pub async fn keys(&self, user_id: Option<i64>) -> Result<Vec<admin::Key>, ClientError> {
        match user_id {
            Some(user) => {
                self.get(Surface::Primary, &format!("/admin/keys?user_id={user}"))
                    .await
            }
            None => self.get(Surface::Primary, "/admin/keys").await,
        }
    }

    /// `DELETE /admin/keys/{id}`
    ///
    /// # Errors
    /// As the server answers; see [`ClientError`].
    pub async fn revoke_key(&self, id: i64) -> Result<admin::Key, ClientError> {
        let (request, url) = self.request(Method::DELETE, &format!("/admin/keys/{id}"));
        self.send(Surface::Primary, request, url).await
    }

    /// `POST /admin/visitor-secret`: visitors are keyed with a new secret from now on.
    ///
    /// # Errors
    /// As the server answers; see [`ClientError`].
    pub async fn rotate_visitor_secret(&self) -> Result<admin::VisitorSecretRotated, ClientError> {
        let (request, url) = self.request(Method::POST, "/admin/visitor-secret");
        self.send(Surface::Primary, request, url).await
    }

    /// `POST /admin/domains`
    ///
    /// # Errors
    /// As the server answers; see [`ClientError`].
    pub async fn create_domain(
        &self,
        input: &admin::CreateDomain,
    ) -> Result<admin::Domain, ClientError> {
        self.with_body(Surface::Primary, Method::POST, "/admin/domains", input)
            .await
    }

    /// `GET /admin/domains`
    ///
    /// # Errors
    /// As the server answers; see [`ClientError`].
    pub async fn admin_domains(&self) -> Result<Vec<admin::Domain>, ClientError> {
        self.get(Surface::Primary, "/admin/domains").await
    }

    /// `PATCH /admin/domains/{id}`
    ///
    /// # Errors
    /// As the server answers; see [`ClientError`].
    pub async fn set_domain_status(
        &self,
        id: i64,
        status: i64,
    ) -> Result<admin::Domain, ClientError> {
        self.with_body(
            Surface::Primary,
            Method::PATCH,
            &format!("/admin/domains/{id}"),
            &admin::UpdateDomain { status },
        )
        .await
    }
    /// `GET /templates?page=&page_size=`: the templates offered to the caller.
    ///
    /// # Errors
    /// As the server answers; see [`ClientError`].
    pub async fn templates(
        &self,
        page: Option<i64>,
        page_size: Option<i64>,
    ) -> Result<primary::TemplatePage, ClientError> {
        let query = serde_urlencoded::to_string(primary::ListTemplates { page, page_size })
            .unwrap_or_default();
        self.get(Surface::Primary, &format!("/templates?{query}"))
            .await
    }

    /// `POST /admin/templates`
    ///
    /// # Errors
    /// As the server answers; see [`ClientError`].
    pub async fn create_template(
        &self,
        input: &admin::CreateTemplate,
    ) -> Result<admin::Template, ClientError> {
        self.with_body(Surface::Primary, Method::POST, "/admin/templates", input)
            .await
    }

    /// `GET /admin/templates`: every template, retired ones included (the first 100).
    ///
    /// # Errors
    /// As the server answers; see [`ClientError`].
    pub async fn admin_templates(&self) -> Result<Vec<admin::Template>, ClientError> {
        self.get(Surface::Primary, "/admin/templates?page_size=100")
            .await
    }

    /// `PATCH /admin/templates/{id}`
    ///
    /// # Errors
    /// As the server answers; see [`ClientError`].
    pub async fn update_template(
        &self,
        id: i64,
        input: &admin::UpdateTemplate,
    ) -> Result<admin::Template, ClientError> {
        self.with_body(
            Surface::Primary,
            Method::PATCH,
            &format!("/admin/templates/{id}"),
            input,
        )
        .await
    }

    /// `DELETE /admin/templates/{id}`: retires it.
    ///
    /// # Errors
    /// As the server answers; see [`ClientError`].
    pub async fn retire_template(&self, id: i64) -> Result<admin::Template, ClientError> {
        let (request, url) = self.request(Method::DELETE, &format!("/admin/templates/{id}"));
        self.send(Surface::Primary, request, url).await
    }

    // ---- messaging-app, card and work-chat chains -------------------------------------------

    /// `POST /wx-chains`
    ///
    /// # Errors
    /// As the server answers; see [`ClientError`].
    pub async fn create_wx_chain(
        &self,
        input: &primary::WxChainInput,
    ) -> Result<primary::CreatedWxChain, ClientError> {
        self.with_body(Surface::Primary, Method::POST, "/wx-chains", input)
            .await
    }

    /// `GET /wx-chains?chain_type=&page=&page_size=&group_id=&q=`
    ///
    /// # Errors
    /// As the server answers; see [`ClientError`].
    pub async fn list_wx_chains(
        &self,
        query: &primary::ListWxChains,
    ) -> Result<primary::WxChainPage, ClientError> {
        let query = serde_urlencoded::to_string(query).unwrap_or_default();
        self.get(Surface::Primary, &format!("/wx-chains?{query}"))
            .await
    }

    /// `GET /wx-chains/{id}`, with its channels.
    ///
    /// # Errors
    /// As the server answers; see [`ClientError`].
    pub async fn wx_chain(&self, id: i64) -> Result<primary::WxChain, ClientError> {
        self.get(Surface::Primary, &format!("/wx-chains/{id}"))
            .await
    }

    /// `PATCH /wx-chains/{id}`
    ///
    /// # Errors
    /// As the server answers; see [`ClientError`].
    pub async fn update_wx_chain(
        &self,
        id: i64,
        input: &primary::WxChainInput,
    ) -> Result<primary::WxChain, ClientError> {
        self.with_body(
            Surface::Primary,
            Method::PATCH,
            &format!("/wx-chains/{id}"),
            input,
        )
        .await
    }

    /// `DELETE /wx-chains/{id}`
    ///
    /// # Errors
    /// As the server answers; see [`ClientError`].
    pub async fn delete_wx_chain(&self, id: i64) -> Result<primary::DeletedChain, ClientError> {
        let (request, url) = self.request(Method::DELETE, &format!("/wx-chains/{id}"));
        self.send(Surface::Primary, request, url).await
    }

    /// `GET /card`: up to 100 card chains, newest first.
    ///
    /// # Errors
    /// As the server answers; see [`ClientError`].
    pub async fn cards(&self) -> Result<primary::CardList, ClientError> {
        self.get(Surface::Primary, "/card").await
    }

    /// `POST /card/createWxChain`
    ///
    /// # Errors
    /// As the server answers; see [`ClientError`].
    pub async fn create_card(
        &self,
        input: &compat::WxChainInput,
    ) -> Result<compat::CreatedWxChain, ClientError> {
        self.with_body(Surface::Compat, Method::POST, "/card/createWxChain", input)
            .await
    }

    /// `POST /openapi/v1/wxchain/create`
    ///
    /// # Errors
    /// As the server answers; see [`ClientError`].
    pub async fn compat_create_wx_chain(
        &self,
        input: &compat::WxChainInput,
    ) -> Result<compat::CreatedWxChain, ClientError> {
        self.with_body(
            Surface::Compat,
            Method::POST,
            "/openapi/v1/wxchain/create",
            input,
        )
        .await
    }

    /// `POST /openapi/v1/wxchain/edit`
    ///
    /// # Errors
    /// As the server answers; see [`ClientError`].
    pub async fn compat_edit_wx_chain(
        &self,
        input: &compat::WxChainInput,
    ) -> Result<compat::CreatedWxChain, ClientError> {
        self.with_body(
            Surface::Compat,
            Method::POST,
            "/openapi/v1/wxchain/edit",
            input,
        )
        .await
    }

    /// `POST /openapi/v1/wxchain/info`
    ///
    /// # Errors
    /// As the server answers; see [`ClientError`].
    pub async fn compat_wx_chain_info(
        &self,
        input: &compat::ChainRef,
    ) -> Result<compat::WxChainInfo, ClientError> {
        self.with_body(
            Surface::Compat,
            Method::POST,
            "/openapi/v1/wxchain/info",
            input,
        )
        .await
    }

    /// `POST /openapi/v1/workchat/chain/create`
    ///
    /// # Errors
    /// As the server answers; see [`ClientError`].
    pub async fn create_workchat_chain(
        &self,
        input: &compat::WorkchatChainInput,
    ) -> Result<compat::CreatedWxChain, ClientError> {
        self.with_body(
            Surface::Compat,
            Method::POST,
            "/openapi/v1/workchat/chain/create",
            input,
        )
        .await
    }

    /// `POST /openapi/v1/workchat/chain/edit`
    ///
    /// # Errors
    /// As the server answers; see [`ClientError`].
    pub async fn edit_workchat_chain(
        &self,
        input: &compat::WorkchatChainInput,
    ) -> Result<compat::CreatedWxChain, ClientError> {
        self.with_body(
            Surface::Compat,
            Method::POST,
            "/openapi/v1/workchat/chain/edit",
            input,
        )
        .await
    }

    /// `POST /openapi/v1/workchat/chain/info`
    ///
    /// # Errors
    /// As the server answers; see [`ClientError`].
    pub async fn workchat_chain_info(
        &self,
        input: &compat::ChainRef,
    ) -> Result<compat::WorkchatChainInfo, ClientError> {
        self.with_body(
            Surface::Compat,
            Method::POST,
            "/openapi/v1/workchat/chain/info",
            input,
        )
        .await
    }

    // ---- work-chat data ----------------------------------------------------------------------

    /// `POST /openapi/v1/workchat/assembly/list`: the caller's assembly list.
    ///
    /// # Errors
    /// As the server answers; see [`ClientError`].
    pub async fn assemblies(
        &self,
        input: &compat::ListAssemblies,
    ) -> Result<compat::AssemblyList, ClientError> {
        self.with_body(
            Surface::Compat,
            Method::POST,
            "/openapi/v1/workchat/assembly/list",
            input,
        )
        .await
    }

    /// `POST /openapi/v1/workchat/transfer/result?corp_id=`: one page; pass `next_cursor`
    /// back as `cursor` for the next.
    ///
    /// # Errors
    /// As the server answers; see [`ClientError`].
    pub async fn transfer_result(
        &self,
        corp_id: &str,
        input: &compat::TransferRequest,
    ) -> Result<compat::TransferResult, ClientError> {
        let query = serde_urlencoded::to_string(compat::TransferQuery {
            corp_id: corp_id.to_owned(),
        })
        .unwrap_or_default();
        self.with_body(
            Surface::Status,
            Method::POST,
            &format!("/openapi/v1/workchat/transfer/result?{query}"),
            input,
        )
        .await
    }

    /// `POST /admin/workchat/assemblies`
    ///
    /// # Errors
    /// As the server answers; see [`ClientError`].
    pub async fn put_assembly(
        &self,
        input: &admin::PutAssembly,
    ) -> Result<admin::Assembly, ClientError> {
        self.with_body(
            Surface::Primary,
            Method::POST,
            "/admin/workchat/assemblies",
            input,
        )
        .await
    }

    /// `GET /admin/workchat/assemblies?user_id=`
    ///
    /// # Errors
    /// As the server answers; see [`ClientError`].
    pub async fn admin_assemblies(
        &self,
        query: &admin::ListAssemblies,
    ) -> Result<admin::AssemblyPage, ClientError> {
        let query = serde_urlencoded::to_string(query).unwrap_or_default();
        self.get(
            Surface::Primary,
            &format!("/admin/workchat/assemblies?{query}"),
        )
        .await
    }

    /// `POST /admin/workchat/transfers`
    ///
    /// # Errors
    /// As the server answers; see [`ClientError`].
    pub async fn load_transfers(
        &self,
        input: &admin::LoadTransfers,
    ) -> Result<admin::LoadedTransfers, ClientError> {
        self.with_body(
            Surface::Primary,
            Method::POST,
            "/admin/workchat/transfers",
            input,
        )
        .await
    }
}
