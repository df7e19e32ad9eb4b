//! The redirect path. A hit reads two in-memory structures and no database: the domain
//! directory (every domain by host, reloaded whenever a domain changes) and a [`LinkTable`]
//! of links by (domain, code), bounded by bytes, negative answers included. Every write that
//! could change what a code resolves to publishes a [`Invalidation`], which invalidates its
//! entry here and on every other instance ([`App::apply_change`]).

use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, RwLock};

mod counting;
mod limits;
mod previews;

pub use super::engine::links::Location;
use super::engine::links::{Cached, LinkRef, LinkTable};

use super::App;
use crate::error::Result;
use crate::locks::Unpoisoned;
use crate::model::{
    ChainId, ChainKind, ChainStatus, Domain, DomainId, DomainStatus, LinkOptions, RedirectRule,
    RedirectStatus, UserId, is_expired,
};
use crate::store::{FeedEvent, Invalidation};

/// The link cache's hit and miss counters.
const LINKS: crate::metrics::CacheName = crate::metrics::CacheName::Links;

/// What a visitor of a short link gets, every kind of chain alike.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum VisitAnswer {
    /// A redirect to `location` (a short chain's target, or a page chain's direct jump).
    Redirect {
        /// The chain visited.
        chain_id: ChainId,
        /// Where to send the visitor.
        location: Location,
        /// With what status: the chain's own, else the deployment's; 302 for a rule's target
        /// or a page chain's jump.
        status: RedirectStatus,
    },
    /// 200 with a jump page, or a short chain's preview for a link-preview agent.
    Page(String),
    /// 404: unknown host or code, deleted or disabled chain, domain not effective.
    NotFound,
    /// 410: the chain expired, has not started yet, or has served its `max_visits`.
    Expired,
    /// 410: every channel of the page is used up and there is no fallback image.
    UsedUp,
}

/// How long a cached miss (a code the store did not have) is answered from memory. A new
/// chain's notice to other instances is sent after its commit
/// ([`crate::store::InvalidationWrites::publish_after_commit`]); one lost to a crash in
/// between leaves a miss stale for no longer than this.
pub(crate) const MISS_TTL: std::time::Duration = std::time::Duration::from_secs(5);

/// Where a visit to `host/code` goes, before what the visitor gets is chosen.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Resolution {
    /// 302 to the target, unless one of the rules sends the visitor elsewhere.
    Redirect {
        /// The chain visited.
        chain_id: ChainId,
        /// Where to send the visitor when no rule matches.
        location: Location,
        /// The short chain's redirect rules, if it has any.
        rules: Option<Arc<[RedirectRule]>>,
        /// The short chain's options, if it has any.
        options: Option<Arc<LinkOptions>>,
    },
    /// 404: unknown host or code, deleted or disabled chain, domain not effective.
    NotFound,
    /// 410: the chain expired.
    Gone,
    /// A messaging-app, card or work-chat chain: its page or direct jump
    /// ([`App::visit_page_chain`]).
    Jump {
        /// The chain visited.
        chain_id: ChainId,
        /// Its kind.
        kind: ChainKind,
        /// What its visitors get.
        page: std::sync::Arc<crate::store::PageTarget>,
    },
}

/// Every domain, by host for redirects and by id for creates: a few rows, read on every
/// request, changed rarely.
#[derive(Default)]
struct Directory {
    /// foldhash rather than SipHash: every visit looks its host up here, and although the
    /// host is the client's to choose, the keys are the operator's few domains; collisions
    /// an attacker could aim at a hash only hurt a map the attacker fills.
    by_host: HashMap<String, (DomainId, DomainStatus), foldhash::fast::RandomState>,
    by_id: HashMap<DomainId, Domain>,
}

pub(super) struct LinkCache {
    /// The domain directory. Replaced whole on any domain change (here or, through the change
    /// feed, on another instance); readers clone the `Arc`.
    domains: RwLock<Arc<Directory>>,
    /// (domain, code) to what the store holds, `None` when it holds nothing; bounded by
    /// bytes.
    links: LinkTable,
    /// Suspended users whose chains answer 404: a few ids, replaced whole on any suspension
    /// change (here or, through the change feed, on another instance).
    halted_owners: RwLock<HashSet<UserId>>,
    /// Whether `halted_owners` has anyone, so redirects skip its lock when (as nearly always)
    /// it has not.
    any_halted: AtomicBool,
    /// Chains with `max_visits` found used up.
    used_up: limits::UsedUp,
    /// Unknown hosts already logged, so each is logged once (up to [`UNKNOWN_HOSTS_LOGGED`]).
    /// Read-locked on every visit to an unknown host (a balancer that sends an instance's own
    /// address sends it on every request), write-locked only to add one.
    unknown_hosts: RwLock<HashSet<String>>,
}

/// Distinct unknown hosts logged at most: beyond that, random `Host` headers would grow
/// memory and flood the log.
const UNKNOWN_HOSTS_LOGGED: usize = 1_000;

impl LinkCache {
    /// A cache of links weighing `bytes` in all at most.
    pub(super) fn new(bytes: u64) -> Self {
        LinkCache {
            domains: RwLock::default(),
            links: LinkTable::new(bytes),
            halted_owners: RwLock::default(),
            any_halted: AtomicBool::new(false),
            used_up: limits::UsedUp::default(),
            unknown_hosts: RwLock::default(),
        }
    }

    pub(super) fn load_halted_owners(&self, owners: Vec<UserId>) {
        let owners: HashSet<UserId> = owners.into_iter().collect();
        let any = !owners.is_empty();
        *self.halted_owners.write().unpoisoned() = owners;
        self.any_halted.store(any, Ordering::Release);
    }

    /// Whether `owner`'s chains are stopped.
    pub(super) fn halted(&self, owner: UserId) -> bool {
        self.any_halted.load(Ordering::Acquire)
            && self.halted_owners.read().unpoisoned().contains(&owner)
    }

    pub(super) fn load_domains(&self, domains: Vec<Domain>) {
        let directory = Directory {
            by_host: domains
                .iter()
                .map(|d| (d.host.clone(), (d.id, d.status)))
                .collect(),
            by_id: domains.into_iter().map(|d| (d.id, d)).collect(),
        };
        *self.domains.write().unpoisoned() = Arc::new(directory);
    }

    fn directory(&self) -> Arc<Directory> {
        self.domains.read().unpoisoned().clone()
    }

    /// Whether any user's links are halted (a suspended user's, with their redirects).
    pub(super) fn any_halted(&self) -> bool {
        self.any_halted.load(Ordering::Acquire)
    }

    /// The domain at `host` (lower case, as stored), as of the last change heard of.
    pub(super) fn domain_at(&self, host: &str) -> Option<Domain> {
        let (id, _) = self.domain_for_host(host)?;
        self.domain(id)
    }

    /// The domain with this id, as of the last change heard of.
    pub(super) fn domain(&self, id: DomainId) -> Option<Domain> {
        self.directory().by_id.get(&id).cloned()
    }

    fn domain_for_host(&self, host: &str) -> Option<(DomainId, DomainStatus)> {
        // Read under the lock rather than through a clone of the `Arc`: every visit looks its
        // host up, and the clone and its drop were two more atomic writes to one shared line.
        let directory = self.domains.read().unpoisoned();
        let domains = &directory.by_host;
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

    /// The domain a visit to `host` is for: the domain of that host, else the default
    /// domain, so that an instance answers its own address (behind a balancer, or asked
    /// directly) as it answers the public URL. The first visit of each unknown host is
    /// logged.
    fn domain_for_visit(
        &self,
        host: &str,
        default_domain: DomainId,
    ) -> Option<(DomainId, DomainStatus)> {
        if let Some(known) = self.domain_for_host(host) {
            return Some(known);
        }
        self.note_unknown_host(host);
        let directory = self.directory();
        let default = directory.by_id.get(&default_domain)?;
        Some((default.id, default.status))
    }

    fn note_unknown_host(&self, host: &str) {
        let seen = |set: &HashSet<String>| set.len() >= UNKNOWN_HOSTS_LOGGED || set.contains(host);
        if seen(&self.unknown_hosts.read().unpoisoned()) {
            return;
        }
        let mut known = self.unknown_hosts.write().unpoisoned();
        // Another visit may have added it between the two locks.
        if !seen(&known) {
            known.insert(host.to_owned());
            tracing::info!(
                host,
                "a visit to a host that is no domain: answered as the default domain \
                 (logged once per host)"
            );
        }
    }
}

/// What the link cache says of a visit's `host/code` before the store is asked.
enum Lookup {
    /// Settled without the links: no domain answers the host, or it is not in effect.
    Settled(Resolution),
    /// An answer the instance trusts: the link, `None` when the store has none.
    Hit(Cached),
    /// Not cached, or no longer trusted: the store must be asked. `stale` is what the cache
    /// held, the best answer there is while the store is unavailable.
    Miss {
        /// The domain the host names.
        domain_id: DomainId,
        /// What was cached, if anything.
        stale: Option<Cached>,
    },
}

impl App {
    /// A visit of `code` on `host`: resolves the link, chooses what the visitor gets (for a
    /// chain with a page: the channel, the page or the direct jump), counts the visit and its
    /// redirect metric. `request` is called only for a visit that reached a chain, so unknown
    /// codes cost no address work.
    ///
    /// # Errors
    /// When the store fails on a cache miss, or a page cannot be rendered.
    pub async fn visit<'r>(
        &self,
        host: &str,
        code: &str,
        request: impl FnOnce() -> super::VisitRequest<'r>,
    ) -> Result<VisitAnswer> {
        // Held back before resolving, not after: an answer is never older than its wait, so
        // an edit or delete acknowledged meanwhile is what it sees.
        self.inner.visits.pace().await;
        let answer = match self.resolve(host, code).await? {
            Resolution::Redirect {
                chain_id,
                location,
                rules,
                options,
            } => {
                let request = request();
                let limit = options.as_ref().map_or(0, |o| o.max_visits);
                if limit != 0 {
                    let bot = self.is_bot_visit(&request);
                    if !self.take_link_visit(chain_id, limit, bot).await? {
                        self.count_redirect(&VisitAnswer::Expired);
                        return Ok(VisitAnswer::Expired);
                    }
                }
                if let Some(preview) = self.preview_for(options.as_deref(), &request) {
                    self.count_redirect(&preview);
                    return Ok(preview);
                }
                self.redirect_visit(chain_id, location, rules, options.as_deref(), &request)
            }
            // Boxed: inline, its state (824 bytes) made every redirect's future twice the
            // size, moved and allocated per request.
            Resolution::Jump {
                chain_id,
                kind,
                page,
            } => match Box::pin(self.visit_page_chain(chain_id, kind, &page, request())).await? {
                super::PageAnswer::Redirect(location) => VisitAnswer::Redirect {
                    chain_id,
                    location: location.into(),
                    status: RedirectStatus::Found,
                },
                super::PageAnswer::Page(html) => VisitAnswer::Page(html),
                super::PageAnswer::UsedUp => VisitAnswer::UsedUp,
            },
            Resolution::NotFound => {
                self.record_orphan(host, counting::orphan_kind(code));
                VisitAnswer::NotFound
            }
            Resolution::Gone => VisitAnswer::Expired,
        };
        self.count_redirect(&answer);
        Ok(answer)
    }

    /// [`App::visit`] when it needs no waiting, `None` when it does: while visits are held
    /// back for the store, on a cache miss, and for a chain with a page (its channels are
    /// counted in the store). Nearly every visit of a busy link is answered here, with no
    /// future to build, move and poll; a `None` has counted nothing, so the caller goes on
    /// to [`App::visit`].
    pub fn visit_at_once<'r>(
        &self,
        host: &str,
        code: &str,
        request: impl FnOnce() -> super::VisitRequest<'r>,
    ) -> Option<VisitAnswer> {
        if self.inner.visits.holds_back() {
            return None;
        }
        let (resolution, hit) = match self.look_up(host, code) {
            Lookup::Settled(resolution) => (resolution, false),
            Lookup::Hit(entry) => (self.resolution_of(entry), true),
            Lookup::Miss { .. } => return None,
        };
        let answer = match resolution {
            // A visit limit is the store's to count.
            Resolution::Redirect { options, .. }
                if options.as_ref().is_some_and(|o| o.max_visits != 0) =>
            {
                return None;
            }
            Resolution::Redirect {
                chain_id,
                location,
                rules,
                options,
            } => {
                let request = request();
                match self.preview_for(options.as_deref(), &request) {
                    Some(preview) => preview,
                    None => {
                        self.redirect_visit(chain_id, location, rules, options.as_deref(), &request)
                    }
                }
            }
            Resolution::NotFound => {
                self.record_orphan(host, counting::orphan_kind(code));
                VisitAnswer::NotFound
            }
            Resolution::Gone => VisitAnswer::Expired,
            Resolution::Jump { .. } => return None,
        };
        if hit {
            self.metrics().cache(LINKS).hits.inc();
        }
        self.count_redirect(&answer);
        Some(answer)
    }

    /// A short chain's visit: classified, sent where the first matching rule says (else to
    /// `location`, with the chain's status or the deployment's), and counted.
    fn redirect_visit(
        &self,
        chain_id: ChainId,
        location: Location,
        rules: Option<Arc<[RedirectRule]>>,
        options: Option<&LinkOptions>,
        request: &super::VisitRequest<'_>,
    ) -> VisitAnswer {
        let visit = self.classify_visit(request);
        let served = rules.as_ref().and_then(|rules| {
            super::engine::rule_match::first_match(rules, &visit.for_rules(request))
        });
        self.record_classified(chain_id, None, request, &visit, served);
        match (served, rules) {
            // Where a rule sends a visitor depends on the visitor: never a permanent answer.
            (Some(at), Some(rules)) => VisitAnswer::Redirect {
                chain_id,
                location: Location::rule(rules, at),
                status: RedirectStatus::Found,
            },
            _ => VisitAnswer::Redirect {
                chain_id,
                location,
                status: options
                    .and_then(|o| o.redirect_status)
                    .unwrap_or(self.config().redirect_status),
            },
        }
    }

    /// Counts a visit's answer in the redirect metrics.
    fn count_redirect(&self, answer: &VisitAnswer) {
        use crate::metrics::RedirectOutcome::{Found, Gone, NotFound};
        self.metrics().redirect(match answer {
            VisitAnswer::Redirect { .. } | VisitAnswer::Page(_) => Found,
            VisitAnswer::NotFound => NotFound,
            VisitAnswer::Expired | VisitAnswer::UsedUp => Gone,
        });
    }

    /// Where a visit to `host/code` goes, at the app's "now".
    ///
    /// # Errors
    /// When the store fails on a cache miss.
    pub(crate) async fn resolve(&self, host: &str, code: &str) -> Result<Resolution> {
        let counters = self.metrics().cache(LINKS);
        let entry = match self.look_up(host, code) {
            Lookup::Settled(resolution) => return Ok(resolution),
            Lookup::Hit(entry) => {
                counters.hits.inc();
                entry
            }
            Lookup::Miss { domain_id, stale } => {
                counters.misses.inc();
                let links = &self.inner.links.links;
                let load = links.begin_load();
                match self.store().link(domain_id, code).await {
                    Ok(link) => {
                        links.fill(load, &LinkRef::new(domain_id, code), &link);
                        link
                    }
                    Err(err) => match (err, stale) {
                        // Not heard from the other instances lately, and the store does not
                        // answer either (an outage): what is cached is the best answer there is.
                        (crate::store::StoreError::Unavailable(_), Some(entry)) => entry,
                        (err, _) => return Err(err.into()),
                    },
                }
            }
        };
        Ok(self.resolution_of(entry))
    }

    /// What the cache holds for `host/code`, and whether it may answer.
    fn look_up(&self, host: &str, code: &str) -> Lookup {
        let cache = &self.inner.links;
        let Some((domain_id, status)) = cache.domain_for_visit(host, self.inner.default_domain)
        else {
            return Lookup::Settled(Resolution::NotFound);
        };
        if status == DomainStatus::NotEffective {
            return Lookup::Settled(Resolution::NotFound);
        }
        match cache.links.get(&LinkRef::new(domain_id, code)) {
            Some((entry, loaded))
                if self.inner.freshness.trusts(loaded)
                    && (entry.is_some() || loaded.elapsed() < MISS_TTL) =>
            {
                Lookup::Hit(entry)
            }
            cached => Lookup::Miss {
                domain_id,
                stale: cached.map(|(entry, _)| entry),
            },
        }
    }

    /// Where a visit of the link the store holds (`None`: no such code) goes.
    fn resolution_of(&self, entry: Cached) -> Resolution {
        let Some(link) = entry else {
            return Resolution::NotFound;
        };
        if link.deleted
            || link.status == ChainStatus::Disabled
            || self.inner.links.halted(link.user_id)
        {
            return Resolution::NotFound;
        }
        // The clock is read only for a link that can expire or start later: most never do.
        if link.valid_time != 0 && is_expired(link.valid_time, self.now()) {
            return Resolution::Gone;
        }
        if let Some(options) = &link.options
            && options.valid_since != 0
            && options.not_yet(self.now())
        {
            return Resolution::Gone;
        }
        if link.kind != ChainKind::Short {
            return match link.page {
                Some(page) => Resolution::Jump {
                    chain_id: link.chain_id,
                    kind: link.kind,
                    page,
                },
                None => Resolution::NotFound,
            };
        }
        Resolution::Redirect {
            chain_id: link.chain_id,
            location: link.target_url.into(),
            rules: link.rules,
            options: link.options,
        }
    }

    /// Brings what this instance caches up to date with a committed change, made here or on
    /// another instance.
    ///
    /// # Errors
    /// When reloading the domain directory fails; the caller retries (see [`App::follow`]).
    pub(crate) async fn apply_change(&self, change: &Invalidation) -> Result<()> {
        match change {
            Invalidation::Link { domain, code } => {
                self.inner
                    .links
                    .links
                    .invalidate(&LinkRef::new(*domain, code));
            }
            Invalidation::MissingLinks => self.inner.links.links.forget_missing(),
            Invalidation::Domains => self.reload_domains().await?,
            Invalidation::Keys => self.inner.keys.clear(),
            Invalidation::VisitorSecret => self.reload_visitor_secret().await?,
            Invalidation::Templates => self.forget_templates(),
            Invalidation::Users => {
                self.inner.keys.clear();
                self.reload_halted_owners().await?;
            }
            Invalidation::Webhooks => self.reload_webhook_users().await?,
        }
        Ok(())
    }

    /// What a notice from the change feed asks of this instance.
    pub(super) async fn apply_notice(&self, notice: &FeedEvent) -> Result<()> {
        match notice {
            FeedEvent::Invalidation(change) => self.apply_change(change).await,
            FeedEvent::Resync => {
                self.inner.links.links.clear();
                self.forget_templates();
                self.inner.keys.clear();
                self.reload_visitor_secret().await?;
                self.reload_halted_owners().await?;
                self.reload_webhook_users().await?;
                self.reload_domains().await
            }
            FeedEvent::Checkpoint(seq) => Ok(self.store().acknowledge(*seq).await?),
            FeedEvent::CaughtUp(at) => {
                self.inner.freshness.caught_up(*at);
                Ok(())
            }
        }
    }

    /// Reloads who is suspended with their redirects.
    pub(super) async fn reload_halted_owners(&self) -> Result<()> {
        let owners = self.store().users_without_redirects().await?;
        self.inner.links.load_halted_owners(owners);
        Ok(())
    }

    /// Reloads the domain directory.
    pub(super) async fn reload_domains(&self) -> Result<()> {
        let domains = self.store().domains().await?;
        self.inner.links.load_domains(domains);
        Ok(())
    }
}
