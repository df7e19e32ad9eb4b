//! The service error: every failure a request can meet, each with an HTTP status and the stable
//! short name the primary error envelope carries in `code` ([`names`]: the names as constants
//! typed by their status).

pub mod names;

use http::StatusCode;

use names::Name;

use crate::model::Scope;
use crate::store::StoreError;

/// A failure of a service call or of request handling.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The request does not match the operation's schema (a field missing, of the wrong type
    /// or out of its documented range); `code` names which.
    #[error("{message}")]
    BadRequest {
        /// Stable short name, e.g. `invalid_target_url`.
        code: Name<400>,
        /// What is wrong, for a person.
        message: String,
    },
    /// The request matches the operation's schema but breaks a rule the schema cannot state:
    /// one that depends on stored data (a user, group, domain or template that does not exist
    /// or is not the caller's), on the clock (a time that must be in the future), or that ties
    /// fields together (a `sub_type` and the destination it needs); `code` names which.
    #[error("{message}")]
    Unprocessable {
        /// Stable short name, e.g. `invalid_valid_time`.
        code: Name<422>,
        /// What is wrong, for a person.
        message: String,
    },
    /// A key that is unknown, revoked, expired or malformed, or two different keys.
    #[error("invalid api key")]
    InvalidApiKey,
    /// An `Authorization` header without the `Bearer` scheme (a bare key, `Token ...`): no key
    /// is taken from it; short name `invalid_api_key`, as for any key that cannot be used.
    #[error(
        "the Authorization header needs the Bearer scheme (Authorization: Bearer YOUR_KEY), or send the key as X-API-Key"
    )]
    NotBearer,
    /// No key at all; the message says how to send one (`?apikey=` and the body's `apikey`
    /// too where the operation takes them: `query`).
    #[error("{}", missing_key_message(*.query))]
    MissingApiKey {
        /// Whether the operation also takes the key as `?apikey=` (and in the JSON body on
        /// the compatibility surface).
        query: bool,
    },
    /// A valid key of a suspended user.
    #[error("this API key's user is suspended; ask an administrator to resume it")]
    UserSuspended,
    /// The key lacks the scope the endpoint needs.
    #[error("api key scope does not permit this endpoint (requires {0})")]
    Forbidden(Scope),
    /// The thing does not exist or is not the caller's (the two are not told apart).
    #[error("{0} not found")]
    NotFound(&'static str),
    /// The path exists but not with this method.
    #[error("method not allowed")]
    MethodNotAllowed {
        /// Value of the `Allow` header.
        allow: String,
    },
    /// A unique value is taken.
    #[error("{message}")]
    Conflict {
        /// Stable short name, e.g. `code_taken`.
        code: Name<409>,
        /// What is taken, for a person.
        message: String,
    },
    /// A request under an idempotency key arrived while another under the same key was
    /// being answered, and that one's answer could not be read: try again in a moment.
    #[error("a request with this Idempotency-Key is still being answered; retry in a moment")]
    IdempotencyKeyInUse,
    /// The body is larger than the server accepts.
    #[error("request body is larger than {limit} bytes")]
    PayloadTooLarge {
        /// The limit in bytes.
        limit: usize,
    },
    /// An uploaded file is not an accepted image type.
    #[error("{message}")]
    UnsupportedFileType {
        /// What it is and what is accepted, for a person.
        message: String,
    },
    /// An upload would take the user past the storage quota.
    #[error("storage quota of {limit} bytes reached ({used} bytes in use)")]
    StorageQuotaExceeded {
        /// The quota in bytes.
        limit: i64,
        /// Bytes in use before the upload.
        used: i64,
    },
    /// The body did not arrive in time.
    #[error("request body not received within {secs} s")]
    RequestTimeout {
        /// The limit in seconds.
        secs: u64,
    },
    /// The body arrived slower than the server's floor (`ServerConfig::min_body_rate`).
    #[error("request body arrived slower than {floor} bytes a second")]
    BodyTooSlow {
        /// The floor, in bytes a second.
        floor: u64,
    },
    /// The body is not of the type the operation reads.
    #[error("content type must be {expected}")]
    UnsupportedMediaType {
        /// What the operation reads.
        expected: &'static str,
    },
    /// The key sent more requests than its rate allows.
    #[error("rate limit exceeded, retry in {retry_after} s")]
    RateLimited {
        /// Seconds until a request will be accepted.
        retry_after: u64,
    },
    /// The user created as many chains today as the quota allows.
    #[error("daily creation quota of {limit} chains reached")]
    QuotaExceeded {
        /// The user's daily quota.
        limit: i64,
        /// Seconds until the quota resets.
        retry_after: u64,
    },
    /// The store cannot serve right now (database unreachable, connections exhausted, writes
    /// contending); the request changed nothing and may be retried.
    #[error("storage is unavailable, retry in {retry_after} s")]
    Unavailable {
        /// Seconds a client should wait.
        retry_after: u64,
    },
    /// The key's user has as much request work in progress as a user may hold at once
    /// (`ServerConfig::user_body_budget_bytes`), or more than its share of a busy instance;
    /// nothing of the request was done.
    #[error("this API key's user has as much work in progress as it may; retry in {retry_after} s")]
    KeyBusy {
        /// Seconds a client should wait.
        retry_after: u64,
    },
    /// The instance holds as much request work as it may (`ServerConfig::body_budget_bytes`);
    /// nothing of the request was done.
    #[error("the server is at its limit of work in progress; retry in {retry_after} s")]
    Overloaded {
        /// Seconds a client should wait.
        retry_after: u64,
    },
    /// Something failed inside the server; the cause is logged, never sent.
    #[error("internal error")]
    Internal(#[source] Box<dyn std::error::Error + Send + Sync>),
}

impl Error {
    /// A 400 with a short name and a message.
    pub fn bad_request(code: Name<400>, message: impl Into<String>) -> Self {
        Error::BadRequest {
            code,
            message: message.into(),
        }
    }

    /// A 422 with a short name and a message: see [`Error::Unprocessable`].
    pub fn unprocessable(code: Name<422>, message: impl Into<String>) -> Self {
        Error::Unprocessable {
            code,
            message: message.into(),
        }
    }

    /// The HTTP status of this error.
    pub fn status(&self) -> StatusCode {
        match self {
            Error::BadRequest { .. } => StatusCode::BAD_REQUEST,
            Error::Unprocessable { .. } => StatusCode::UNPROCESSABLE_ENTITY,
            Error::InvalidApiKey
            | Error::NotBearer
            | Error::MissingApiKey { .. }
            | Error::UserSuspended => StatusCode::UNAUTHORIZED,
            Error::Forbidden(_) => StatusCode::FORBIDDEN,
            Error::NotFound(_) => StatusCode::NOT_FOUND,
            Error::MethodNotAllowed { .. } => StatusCode::METHOD_NOT_ALLOWED,
            Error::Conflict { .. } | Error::IdempotencyKeyInUse => StatusCode::CONFLICT,
            Error::PayloadTooLarge { .. } | Error::StorageQuotaExceeded { .. } => {
                StatusCode::PAYLOAD_TOO_LARGE
            }
            Error::UnsupportedFileType { .. } => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            Error::RequestTimeout { .. } | Error::BodyTooSlow { .. } => StatusCode::REQUEST_TIMEOUT,
            Error::UnsupportedMediaType { .. } => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            Error::RateLimited { .. } | Error::QuotaExceeded { .. } | Error::KeyBusy { .. } => {
                StatusCode::TOO_MANY_REQUESTS
            }
            Error::Unavailable { .. } | Error::Overloaded { .. } => StatusCode::SERVICE_UNAVAILABLE,
            Error::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    /// The stable short name of the primary error envelope.
    pub fn code(&self) -> &'static str {
        use names::*;
        match self {
            Error::BadRequest { code, .. } => code.as_str(),
            Error::Unprocessable { code, .. } => code.as_str(),
            Error::Conflict { code, .. } => code.as_str(),
            Error::InvalidApiKey | Error::NotBearer => INVALID_API_KEY.as_str(),
            Error::MissingApiKey { .. } => MISSING_API_KEY.as_str(),
            Error::UserSuspended => USER_SUSPENDED.as_str(),
            Error::Forbidden(_) => FORBIDDEN.as_str(),
            Error::NotFound(_) => NOT_FOUND.as_str(),
            Error::MethodNotAllowed { .. } => METHOD_NOT_ALLOWED.as_str(),
            Error::IdempotencyKeyInUse => IDEMPOTENCY_KEY_IN_USE.as_str(),
            Error::PayloadTooLarge { .. } => PAYLOAD_TOO_LARGE.as_str(),
            Error::StorageQuotaExceeded { .. } => STORAGE_QUOTA_EXCEEDED.as_str(),
            Error::UnsupportedFileType { .. } => UNSUPPORTED_FILE_TYPE.as_str(),
            Error::RequestTimeout { .. } | Error::BodyTooSlow { .. } => REQUEST_TIMEOUT.as_str(),
            Error::UnsupportedMediaType { .. } => UNSUPPORTED_MEDIA_TYPE.as_str(),
            Error::RateLimited { .. } => RATE_LIMITED.as_str(),
            Error::QuotaExceeded { .. } => QUOTA_EXCEEDED.as_str(),
            Error::Unavailable { .. } => UNAVAILABLE.as_str(),
            Error::KeyBusy { .. } => KEY_BUSY.as_str(),
            Error::Overloaded { .. } => OVERLOADED.as_str(),
            Error::Internal(_) => INTERNAL_ERROR.as_str(),
        }
    }

    /// Seconds a client should wait before retrying, for 429s, 503s and a key in use.
    pub fn retry_after(&self) -> Option<u64> {
        match self {
            Error::RateLimited { retry_after }
            | Error::QuotaExceeded { retry_after, .. }
            | Error::Unavailable { retry_after }
            | Error::KeyBusy { retry_after }
            | Error::Overloaded { retry_after } => Some(*retry_after),
            Error::IdempotencyKeyInUse => Some(1),
            _ => None,
        }
    }
}

/// What a client is told to wait when the store is unavailable: long enough for a pool or a
/// restarting database to recover, short enough not to stall a client that retries.
const UNAVAILABLE_RETRY_AFTER: u64 = 2;

impl Error {
    /// Whether the store failed (unavailable, or failing in a way not caused by the request).
    pub fn is_store_failure(&self) -> bool {
        match self {
            Error::Unavailable { .. } => true,
            Error::Internal(source) => source.is::<StoreError>(),
            _ => false,
        }
    }
}

impl From<StoreError> for Error {
    fn from(err: StoreError) -> Self {
        match err {
            StoreError::Unavailable(cause) => {
                tracing::warn!(error = %cause, "store unavailable");
                Error::Unavailable {
                    retry_after: UNAVAILABLE_RETRY_AFTER,
                }
            }
            other => Error::Internal(Box::new(other)),
        }
    }
}

/// Result of service calls.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// How a request without a key is told to send one.
fn missing_key_message(query: bool) -> String {
    let also = if query {
        ", as ?apikey=<key>, or as \"apikey\" in the JSON body"
    } else {
        ""
    };
    format!(
        "no API key was sent: send it as \"Authorization: Bearer <key>\", as \"X-API-Key: <key>\"{also}"
    )
}
