//! The (domain, code) the link cache is asked for, with its digest, and the `Location` a
//! redirect answers with.

use std::hash::BuildHasher;
use std::sync::{Arc, LazyLock};

use crate::model::{DomainId, RedirectRule};

/// Where a redirect sends its visitor: a URL, or one of a short chain's rules' targets,
/// shared with the cached rules.
#[derive(Clone)]
pub struct Location(LocationText);

#[derive(Clone)]
enum LocationText {
    /// The target of one of a short chain's redirect rules, as cached.
    Rule(Arc<[RedirectRule]>, usize),
    /// A short chain's target, or a page chain's direct jump.
    Owned(String),
}

impl std::ops::Deref for Location {
    type Target = str;

    fn deref(&self) -> &str {
        match &self.0 {
            LocationText::Rule(rules, at) => rules.get(*at).map_or("", |r| &r.target_url),
            LocationText::Owned(url) => url,
        }
    }
}

impl Location {
    /// The target of rule `at` of a short link's cached rules.
    pub(crate) fn rule(rules: Arc<[RedirectRule]>, at: usize) -> Self {
        Location(LocationText::Rule(rules, at))
    }

    /// The URL's bytes for the `Location` header: a target's own buffer, not a copy, when it
    /// has no spare capacity. Not public: the library's API does not name `bytes`' types here.
    pub(crate) fn into_bytes(self) -> bytes::Bytes {
        match self.0 {
            LocationText::Owned(url) => url.into_bytes().into(),
            // A rule's target stays shared with the cached rules: copied, as `Deref` reads it.
            rule => bytes::Bytes::copy_from_slice(Location(rule).as_bytes()),
        }
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

/// The digest a (domain, code) is filed under in the link cache, keyed by a seed drawn once
/// per process (visitors choose the codes, and so could otherwise pile them on one bucket).
fn digest(domain: DomainId, code: &str) -> u64 {
    static SEED: LazyLock<foldhash::quality::RandomState> = LazyLock::new(Default::default);
    SEED.hash_one((domain, code))
}

/// A (domain, code) to look up or invalidate, borrowed: a lookup allocates nothing.
#[derive(Clone, Copy)]
pub(crate) struct LinkRef<'a> {
    domain: DomainId,
    code: &'a str,
    digest: u64,
}

impl<'a> LinkRef<'a> {
    pub(crate) fn new(domain: DomainId, code: &'a str) -> Self {
        LinkRef {
            domain,
            code,
            digest: digest(domain, code),
        }
    }

    pub(crate) fn domain(&self) -> DomainId {
        self.domain
    }

    pub(crate) fn code(&self) -> &'a str {
        self.code
    }

    /// Where the link table files it.
    pub(crate) fn digest(&self) -> u64 {
        self.digest
    }
}
