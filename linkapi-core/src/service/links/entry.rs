//! The link cache's entries: a cached link (one `Arc`, the cache's key and value), the
//! borrowed (domain, code) lookups use, what an entry weighs, and the `Location` a redirect
//! answers with, which points into the entry.

use std::hash::{BuildHasher, Hash, Hasher};
use std::sync::{Arc, LazyLock};

use crate::model::{ChainId, ChainKind, ChainStatus, DomainId, RedirectRule, Timestamp, UserId};
use crate::service::cache::Weight;
use crate::store::{LinkTarget, PageTarget};

/// Where a redirect sends its visitor: a URL, shared with the link cache when it came from
/// there, so that serving a cached link copies no string.
#[derive(Clone)]
pub struct Location(LocationText);

#[derive(Clone)]
enum LocationText {
    /// A short chain's target, as cached.
    Cached(CachedLink),
    /// The target of one of a short chain's redirect rules, as cached.
    Rule(Arc<[RedirectRule]>, usize),
    /// A page chain's direct jump.
    Owned(String),
}

impl std::ops::Deref for Location {
    type Target = str;

    fn deref(&self) -> &str {
        match &self.0 {
            LocationText::Cached(link) => link.target_url(),
            LocationText::Rule(rules, at) => rules.get(*at).map_or("", |r| &r.target_url),
            LocationText::Owned(url) => url,
        }
    }
}

impl Location {
    /// The target of a cached short link.
    pub(super) fn cached(link: CachedLink) -> Self {
        Location(LocationText::Cached(link))
    }

    /// The target of rule `at` of a short link's cached rules.
    pub(super) fn rule(rules: Arc<[RedirectRule]>, at: usize) -> Self {
        Location(LocationText::Rule(rules, at))
    }
}

impl From<String> for Location {
    fn from(url: String) -> Self {
        Location(LocationText::Owned(url))
    }
}

impl PartialEq for Location {
    fn eq(&self, other: &Self) -> bool {
        **self == **other
    }
}

impl Eq for Location {}

impl std::fmt::Debug for Location {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(&**self, f)
    }
}

/// What the link cache holds for a (domain, code): what the store held for it when it was
/// read, `None` for nothing. One block holds it all (the reference count, what a redirect
/// decides by, then the code and the target URL), so a hit that compared the code finds the
/// target beside it, and a clone copies a pointer.
#[derive(Clone)]
pub(crate) struct CachedLink(triomphe::Arc<triomphe::HeaderSlice<LinkHead, str>>);

/// What comes before a cached link's text.
pub(super) struct LinkHead {
    domain: DomainId,
    code_len: usize,
    link: Option<CachedTarget>,
}

/// What the redirect path decides by, of a chain the store held (its target URL is in the
/// [`CachedLink`]'s text).
pub(super) struct CachedTarget {
    pub(super) chain_id: ChainId,
    pub(super) kind: ChainKind,
    pub(super) valid_time: Timestamp,
    pub(super) status: ChainStatus,
    pub(super) deleted: bool,
    pub(super) user_id: UserId,
    pub(super) page: Option<Arc<PageTarget>>,
    pub(super) rules: Option<Arc<[RedirectRule]>>,
}

impl CachedLink {
    /// What the store answered for `code` on `domain`.
    pub(super) fn new(domain: DomainId, code: &str, link: Option<LinkTarget>) -> Self {
        let mut text = String::with_capacity(
            code.len() + link.as_ref().map_or(0, |link| link.target_url.len()),
        );
        text.push_str(code);
        let link = link.map(|link| {
            text.push_str(&link.target_url);
            CachedTarget {
                chain_id: link.chain_id,
                kind: link.kind,
                valid_time: link.valid_time,
                status: link.status,
                deleted: link.deleted,
                user_id: link.user_id,
                page: link.page,
                rules: link.rules,
            }
        });
        let head = LinkHead {
            domain,
            code_len: code.len(),
            link,
        };
        CachedLink(triomphe::Arc::from_header_and_str(head, &text))
    }

    /// The chain the store held, `None` when it held none.
    pub(super) fn link(&self) -> Option<&CachedTarget> {
        self.0.header.link.as_ref()
    }

    fn domain(&self) -> DomainId {
        self.0.header.domain
    }

    fn code(&self) -> &str {
        &self.0.slice[..self.0.header.code_len]
    }

    pub(super) fn target_url(&self) -> &str {
        &self.0.slice[self.0.header.code_len..]
    }
}

/// Bytes a cached link costs beyond its text and page, measured: RSS of a full 96 MiB cache
/// of links with 87 bytes of text (1.5 million filled, 377,000 held), 273 bytes a link (308
/// when the link had a block of its own besides its text's, was the cache's key and value
/// both, and the slot held a 16-byte `Instant`). The link's block, the cache's slot, index
/// and ghost entries, the allocator's headers.
const CACHED_LINK_OVERHEAD: u64 = 185;

/// Bytes a page chain's settings and channels cost, about.
const CACHED_PAGE_WEIGHT: u64 = 1024;

/// Bytes a redirect rule costs beyond its target URL, about.
const CACHED_RULE_WEIGHT: u64 = 160;

/// Bytes a typical cached short link costs (a 6-letter code, an 80-byte target).
pub(super) const TYPICAL_CACHED_LINK: u64 = CACHED_LINK_OVERHEAD + 6 + 80;

impl Weight for CachedLink {
    fn weight(&self) -> u64 {
        let link = self.link();
        CACHED_LINK_OVERHEAD
            + self.0.slice.len() as u64
            + link
                .and_then(|l| l.page.as_ref())
                .map_or(0, |_| CACHED_PAGE_WEIGHT)
            + link.and_then(|l| l.rules.as_ref()).map_or(0, |rules| {
                rules
                    .iter()
                    .map(|r| CACHED_RULE_WEIGHT + r.target_url.len() as u64)
                    .sum()
            })
    }
}

/// The digest a (domain, code) is filed under in the link cache, keyed by a seed drawn once
/// per process (visitors choose the codes).
fn digest(domain: DomainId, code: &str) -> u64 {
    static SEED: LazyLock<foldhash::quality::RandomState> = LazyLock::new(Default::default);
    SEED.hash_one((domain, code))
}

/// The link cache's key: the digest of a (domain, code), alone. Eight bytes in the cache's
/// slot, where the link itself was both key and value; the cache rebuilds its index from the
/// keys as links come and go, and a lookup compares digests, without reading a link. Two
/// (domain, code) of one digest (for a million cached links, a chance of one in 37 million
/// that any two collide) share a slot: the one filled last holds it, and a lookup checks
/// that what it found is its own ([`LinkRef::finds`]), so the other is read from the store.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub(super) struct LinkKey(u64);

impl LinkKey {
    pub(super) fn of(link: &CachedLink) -> Self {
        LinkKey(digest(link.domain(), link.code()))
    }
}

/// A (domain, code) to look up or invalidate, borrowed: a lookup allocates nothing. Hashes
/// as the [`LinkKey`] of the same domain and code.
#[derive(Clone, Copy)]
pub(super) struct LinkRef<'a> {
    domain: DomainId,
    code: &'a str,
    digest: u64,
}

impl<'a> LinkRef<'a> {
    pub(super) fn new(domain: DomainId, code: &'a str) -> Self {
        LinkRef {
            domain,
            code,
            digest: digest(domain, code),
        }
    }

    /// Whether `link` is this domain and code's (not another's of the same digest).
    pub(super) fn finds(&self, link: &CachedLink) -> bool {
        self.domain == link.domain() && self.code == link.code()
    }
}

impl Hash for LinkRef<'_> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        LinkKey(self.digest).hash(state);
    }
}

impl quick_cache::Equivalent<LinkKey> for LinkRef<'_> {
    fn equivalent(&self, key: &LinkKey) -> bool {
        self.digest == key.0
    }
}
