//! Services: every business rule of the API. Handlers call these with a [`Principal`] that came
//! from the request's key; services call the [`Store`].
//!
//! [`App`] is a cheap clonable handle holding the store, the clock, the configuration and the
//! in-memory state the redirect path reads (domain directory and link cache), the click
//! recorder and the rate limiter. Methods are grouped by area in the submodules.

mod admin;
mod auth;
mod chains;
mod clicks;
mod groups;
mod links;
mod ratelimit;

use std::sync::Arc;

pub use auth::{BootstrapKey, Principal, hash_key};
pub use chains::{ChainView, CreatedChain, NewShortChain, ShortChainPatch};
pub use links::Resolution;
pub use ratelimit::{RateLimit, RateState};

use crate::clock::Clock;
use crate::error::{Error, Result};
use crate::model::{Domain, DomainId, DomainStatus, Scheme, Timestamp, UserId};
use crate::store::{NewDomain, Store, StoreError, Unique};

/// What the services need to know about the deployment.
#[derive(Debug, Clone)]
pub struct AppConfig {
    /// Host (with port when not the scheme's default) of the domain this server answers on;
    /// registered as a shared domain at start and used when a create names no domain.
    pub default_host: String,
    /// Scheme of the default domain.
    pub default_scheme: Scheme,
    /// Length of generated codes.
    pub code_length: usize,
    /// Per-key request rate; `None` turns rate limiting off.
    pub rate_limit: Option<RateLimit>,
    /// Chains a user may create per UTC day unless the user has a quota of its own.
    pub daily_create_quota: i64,
    /// Links the redirect cache holds.
    pub link_cache_capacity: usize,
}

impl Default for AppConfig {
    fn default() -> Self {
        AppConfig {
            default_host: "127.0.0.1:8080".into(),
            default_scheme: Scheme::Http,
            code_length: 6,
            rate_limit: Some(RateLimit::default()),
            daily_create_quota: 10_000,
            link_cache_capacity: 100_000,
        }
    }
}

/// The service layer. Clone it freely: clones share everything.
#[derive(Clone)]
pub struct App {
    inner: Arc<Inner>,
}

struct Inner {
    /// Persistence.
    store: Arc<dyn Store>,
    /// "Now", injectable for tests.
    clock: Arc<dyn Clock>,
    /// Deployment settings.
    config: AppConfig,
    /// The domain chains are created on when a request names none.
    default_domain: DomainId,
    /// Domains by host and the link cache: what redirects read instead of the database.
    links: links::LinkCache,
    /// Batches visits into the store off the redirect path.
    clicks: clicks::ClickRecorder,
    /// Per-key token buckets.
    limiter: Option<ratelimit::KeyLimiter>,
}

impl std::fmt::Debug for App {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("App")
            .field("config", &self.inner.config)
            .finish_non_exhaustive()
    }
}

impl App {
    /// Starts the services on `store`: registers the default domain if it is new, loads the
    /// domain directory and starts the click recorder. Must run inside a tokio runtime.
    ///
    /// # Errors
    /// When the store fails.
    pub async fn start(
        store: Arc<dyn Store>,
        clock: Arc<dyn Clock>,
        config: AppConfig,
    ) -> Result<App> {
        let host = normalize_host(&config.default_host).ok_or_else(|| {
            Error::bad_request(
                "invalid_domain",
                format!("default host {:?} is not a host name", config.default_host),
            )
        })?;
        let existing = store.domains().await?;
        let default_domain = match existing.iter().find(|d| d.host == host) {
            Some(d) => d.id,
            None => {
                let new = NewDomain {
                    host,
                    scheme: config.default_scheme,
                    scene: "default".into(),
                    shared: true,
                    user_id: None,
                    status: DomainStatus::Effective,
                    created_at: clock.now(),
                };
                store.insert_domain(new).await?.id
            }
        };
        let links = links::LinkCache::new(config.link_cache_capacity);
        links.load_domains(store.domains().await?);
        let clicks = clicks::ClickRecorder::start(store.clone());
        let limiter = config.rate_limit.map(ratelimit::KeyLimiter::new);
        Ok(App {
            inner: Arc::new(Inner {
                store,
                clock,
                config,
                default_domain,
                links,
                clicks,
                limiter,
            }),
        })
    }

    /// Writes what is still buffered (visits) to the store. Call after the server drained.
    pub async fn shutdown(&self) {
        self.inner.clicks.flush().await;
    }

    /// Whether the store answers.
    ///
    /// # Errors
    /// When it does not.
    pub async fn ready(&self) -> Result<()> {
        Ok(self.inner.store.ping().await?)
    }

    /// The deployment settings.
    pub fn config(&self) -> &AppConfig {
        &self.inner.config
    }

    /// Now, by the app's clock.
    pub fn now(&self) -> Timestamp {
        self.inner.clock.now()
    }

    fn store(&self) -> &dyn Store {
        &*self.inner.store
    }

    /// Domains the user may use: shared ones and the user's own, oldest first.
    ///
    /// # Errors
    /// When the store fails.
    pub async fn domains_for(&self, user: UserId) -> Result<Vec<Domain>> {
        let mut domains = self.store().domains().await?;
        domains.retain(|d| d.is_visible_to(user));
        Ok(domains)
    }
}

/// Lower-cases a host (with optional port) and checks its characters; `None` when it is not a
/// plausible host. Ports 80 and 443 are kept as written: the scheme decides what is default.
pub fn normalize_host(raw: &str) -> Option<String> {
    let host = raw.trim().to_ascii_lowercase();
    let (name, port) = match host.rsplit_once(':') {
        Some((name, port)) if !name.contains(':') => (name, Some(port)),
        _ => (host.as_str(), None),
    };
    let name_ok = !name.is_empty()
        && name.len() <= 253
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'.')
        && !name.starts_with(['-', '.'])
        && !name.ends_with(['-', '.']);
    let port_ok = port.is_none_or(|p| p.parse::<u16>().is_ok_and(|p| p != 0));
    (name_ok && port_ok).then_some(host)
}

/// Maps a conflict to a 409 with the given short name; other store errors become internal.
fn conflict_as(err: StoreError, what: Unique, code: &'static str, message: String) -> Error {
    match err {
        StoreError::Conflict(w) if w == what => Error::Conflict { code, message },
        other => other.into(),
    }
}

#[cfg(test)]
mod tests {
    use super::normalize_host;

    #[test]
    fn hosts_are_normalised_and_checked() {
        assert_eq!(
            normalize_host("S.Example.COM").as_deref(),
            Some("s.example.com")
        );
        assert_eq!(
            normalize_host("127.0.0.1:8080").as_deref(),
            Some("127.0.0.1:8080")
        );
        assert_eq!(normalize_host("a.b:0"), None);
        assert_eq!(normalize_host("a.b:99999"), None);
        assert_eq!(normalize_host("bad host"), None);
        assert_eq!(normalize_host("-x.com"), None);
        assert_eq!(normalize_host(""), None);
        assert_eq!(normalize_host("x.com/path"), None);
    }
}
