//! The redirect path. A hit reads two in-memory structures and no database: the domain
//! directory (every domain by host, reloaded whenever a domain changes) and a bounded cache of
//! links by (domain, code), negative answers included. Every write that could change what a
//! code resolves to invalidates its entry.
//!
//! A miss reads the store and inserts what it found. An edit racing with that read could leave
//! a stale entry behind (read old row, edit commits and invalidates, miss inserts old row), so
//! each invalidation bumps a generation counter before removing the entry, and a miss keeps
//! what it inserted only when the counter did not move from before its read to after its
//! insert.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, RwLock};

use quick_cache::sync::Cache;

use super::App;
use crate::error::Result;
use crate::model::{ChainId, ChainKind, ChainStatus, Domain, DomainId, DomainStatus, is_expired};
use crate::store::{Click, LinkTarget};

/// What a visit to `host/code` gets.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Resolution {
    /// 302 to the target.
    Redirect {
        /// The chain visited.
        chain_id: ChainId,
        /// Where to send the visitor.
        location: String,
    },
    /// 404: unknown host or code, deleted or disabled chain, domain not effective.
    NotFound,
    /// 410: the chain expired.
    Gone,
}

pub(super) struct LinkCache {
    /// Host to what a redirect needs of its domain. Replaced whole on any domain change;
    /// readers clone the `Arc`.
    domains: RwLock<Arc<HashMap<String, (DomainId, DomainStatus)>>>,
    /// (domain, code) to what the store holds, `None` when it holds nothing.
    links: Cache<(DomainId, String), Option<LinkTarget>>,
    /// Bumped by every invalidation.
    generation: AtomicU64,
}

impl LinkCache {
    pub(super) fn new(capacity: usize) -> Self {
        LinkCache {
            domains: RwLock::default(),
            links: Cache::new(capacity.max(1)),
            generation: AtomicU64::new(0),
        }
    }

    pub(super) fn load_domains(&self, domains: Vec<Domain>) {
        let map = domains
            .into_iter()
            .map(|d| (d.host, (d.id, d.status)))
            .collect();
        *self
            .domains
            .write()
            .unwrap_or_else(|poisoned| poisoned.into_inner()) = Arc::new(map);
    }

    fn domain_for_host(&self, host: &str) -> Option<(DomainId, DomainStatus)> {
        let domains = self
            .domains
            .read()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .clone();
        let lookup = |h: &str| {
            domains.get(h).copied().or_else(|| {
                // Hosts are stored lower case; most clients send them so, which skips this copy.
                h.bytes()
                    .any(|b| b.is_ascii_uppercase())
                    .then(|| domains.get(&h.to_ascii_lowercase()).copied())
                    .flatten()
            })
        };
        // A client may name the scheme's default port explicitly, or a proxy may add one.
        lookup(host).or_else(|| lookup(host.rsplit_once(':')?.0))
    }

    pub(super) fn invalidate(&self, domain: DomainId, code: &str) {
        self.generation.fetch_add(1, Ordering::SeqCst);
        self.links.remove(&(domain, code.to_owned()));
    }
}

impl App {
    /// Where a visit to `host/code` goes, at the app's "now".
    ///
    /// # Errors
    /// When the store fails on a cache miss.
    pub async fn resolve(&self, host: &str, code: &str) -> Result<Resolution> {
        let cache = &self.inner.links;
        let Some((domain_id, status)) = cache.domain_for_host(host) else {
            return Ok(Resolution::NotFound);
        };
        if status == DomainStatus::NotEffective {
            return Ok(Resolution::NotFound);
        }
        let key = (domain_id, code.to_owned());
        let link = match cache.links.get(&key) {
            Some(link) => link,
            None => {
                let generation = cache.generation.load(Ordering::SeqCst);
                let link = self.store().link(domain_id, code).await?;
                if cache.generation.load(Ordering::SeqCst) == generation {
                    cache.links.insert(key.clone(), link.clone());
                    // An invalidation may have landed between the check and the insert; its
                    // removal may then have run before our insert. Checking again after the
                    // insert closes that gap: either we see its bump, or its removal follows.
                    if cache.generation.load(Ordering::SeqCst) != generation {
                        cache.links.remove(&key);
                    }
                }
                link
            }
        };
        let Some(link) = link else {
            return Ok(Resolution::NotFound);
        };
        if link.deleted || link.status == ChainStatus::Disabled {
            return Ok(Resolution::NotFound);
        }
        if is_expired(link.valid_time, self.now()) {
            return Ok(Resolution::Gone);
        }
        if link.kind != ChainKind::Short {
            // Jump pages of messaging-app chains are not served yet: they have no target here.
            return Ok(Resolution::NotFound);
        }
        Ok(Resolution::Redirect {
            chain_id: link.chain_id,
            location: link.target_url,
        })
    }

    /// Counts a visit. Buffered: it reaches the store within a moment, off the request path.
    pub async fn record_visit(&self, chain_id: ChainId, visitor: String) {
        self.inner
            .clicks
            .record(Click {
                chain_id,
                at: self.now(),
                visitor,
            })
            .await;
    }

    /// Forgets what the cache knows of `code` on `domain`; call after any write to it.
    pub(super) fn invalidate_link(&self, domain: DomainId, code: &str) {
        self.inner.links.invalidate(domain, code);
    }

    /// Reloads the domain directory; call after any domain write.
    pub(super) async fn reload_domains(&self) -> Result<()> {
        let domains = self.store().domains().await?;
        self.inner.links.load_domains(domains);
        Ok(())
    }
}
