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
    Cached(Arc<CachedLink>),
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
    pub(super) fn cached(link: Arc<CachedLink>) -> Self {
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
/// read, `None` for nothing. One `Arc` is both the cache's key and its value, so the code is
/// stored once and a hit copies a pointer.
pub(crate) struct CachedLink {
    domain: DomainId,
    /// The code, then the target URL (nothing for a miss): one allocation, so the target a
    /// hit answers with lies beside the code it compared, and a cached link costs one block
    /// fewer.
    text: Box<str>,
    code_len: usize,
    pub(super) link: Option<CachedTarget>,
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
        CachedLink {
            domain,
            code_len: code.len(),
            text: text.into_boxed_str(),
            link,
        }
    }

    fn code(&self) -> &str {
        &self.text[..self.code_len]
    }

    pub(super) fn target_url(&self) -> &str {
        &self.text[self.code_len..]
    }
}

/// Bytes a cached link costs beyond its text and page, measured (RSS over half a million
/// cached links of 87 bytes of text: 281 a link, 329 before the code and target shared one
/// allocation) plus its key's digest: the `Arc`'s block, the cache's slot, index and ghost
/// entries, the allocator's headers.
const CACHED_LINK_OVERHEAD: u64 = 200;

/// Bytes a page chain's settings and channels cost, about.
const CACHED_PAGE_WEIGHT: u64 = 1024;

/// Bytes a redirect rule costs beyond its target URL, about.
const CACHED_RULE_WEIGHT: u64 = 160;

/// Bytes a typical cached short link costs (a 6-letter code, an 80-byte target).
pub(super) const TYPICAL_CACHED_LINK: u64 = CACHED_LINK_OVERHEAD + 6 + 80;

impl Weight for Arc<CachedLink> {
    fn weight(&self) -> u64 {
        let link = self.link.as_ref();
        CACHED_LINK_OVERHEAD
            + self.text.len() as u64
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
/// per process (visitors choose the codes). A key keeps it: the cache's index is rebuilt from
/// its keys' hashes as links come and go, and hashing a key from its domain and code read the
/// cached link and then its code, two cold reads per entry, which made those rebuilds two
/// thirds of filling the cache under uniform traffic at a million chains.
fn digest(domain: DomainId, code: &str) -> u64 {
    static SEED: LazyLock<foldhash::quality::RandomState> = LazyLock::new(Default::default);
    SEED.hash_one((domain, code))
}

/// The link cache's key: a cached link, compared by its domain and code, hashed by their
/// digest.
#[derive(Clone)]
pub(super) struct LinkKey {
    link: Arc<CachedLink>,
    digest: u64,
}

impl LinkKey {
    pub(super) fn new(link: Arc<CachedLink>) -> Self {
        let digest = digest(link.domain, link.code());
        LinkKey { link, digest }
    }

    fn as_ref(&self) -> LinkRef<'_> {
        LinkRef {
            domain: self.link.domain,
            code: self.link.code(),
            digest: self.digest,
        }
    }
}

impl Hash for LinkKey {
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_u64(self.digest);
    }
}

impl PartialEq for LinkKey {
    fn eq(&self, other: &Self) -> bool {
        self.as_ref() == other.as_ref()
    }
}

impl Eq for LinkKey {}

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
}

impl Hash for LinkRef<'_> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_u64(self.digest);
    }
}

impl PartialEq for LinkRef<'_> {
    fn eq(&self, other: &Self) -> bool {
        // The digest first: a different one needs no read of the code.
        self.digest == other.digest && self.domain == other.domain && self.code == other.code
    }
}

impl Eq for LinkRef<'_> {}

impl quick_cache::Equivalent<LinkKey> for LinkRef<'_> {
    fn equivalent(&self, key: &LinkKey) -> bool {
        *self == key.as_ref()
    }
}
