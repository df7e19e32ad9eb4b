//! A cached link as a record of 64-bit words: a meta word (lengths, flags, kind and status),
//! the domain and load instant, the chain's ids and expiry, then its code and target as
//! text; and what is kept beside the ring for a page chain's page or a short chain's rules.

use std::sync::Arc;

use super::entry::LinkRef;
use crate::model::{DomainId, LinkOptions, RedirectRule};
use crate::store::{LinkTarget, PageTarget};

/// What the cache held for a (domain, code): the chain, or `None` when the store had none.
pub(crate) type Cached = Option<LinkTarget>;

/// Domains past this id are not cached: the domain shares a word with the load instant.
pub(super) const DOMAIN_BITS: u32 = 24;

/// The load instant, in milliseconds since the table was made: 2^40 ms are 34 years.
pub(super) const LOADED_BITS: u32 = 64 - DOMAIN_BITS;

/// A target beginning with this is stored without it.
pub(super) const HTTPS: &str = "https://";

/// What a cached page chain's page and channels weigh, about, in bytes.
pub(super) const PAGE_WEIGHT: usize = 1024;

/// What a redirect rule weighs beyond its target URL, about, in bytes.
pub(super) const RULE_WEIGHT: usize = 160;

/// What a short chain's options weigh, about, in bytes, beyond their text (a preview's).
pub(super) const OPTIONS_WEIGHT: usize = 64;

/// The meta word: the record's length in words (reserved extra weight included), the code's
/// and the stored target's lengths in bytes, flags, and for a chain its kind and status codes.
#[derive(Clone, Copy)]
pub(super) struct Meta(pub(super) u64);

/// A chain (else a code the store did not have).
pub(super) const PRESENT: u8 = 1;
/// The chain is deleted.
pub(super) const DELETED: u8 = 2;
/// Invalidated or replaced: skipped, its space reclaimed when the tail passes.
pub(super) const DEAD: u8 = 4;
/// Filler from a record's end to the ring's end, where the next record did not fit.
pub(super) const PAD: u8 = 8;
/// Its page, rules or options are in the shard's `extras`.
pub(super) const EXTRAS: u8 = 16;
/// The chain expires: its expiry follows its ids.
pub(super) const EXPIRES: u8 = 32;
/// The target begins with [`HTTPS`], not stored.
pub(super) const SECURE: u8 = 64;

impl Meta {
    pub(super) fn new(
        len: usize,
        code_len: usize,
        url_len: usize,
        flags: u8,
        kind: u8,
        status: u8,
    ) -> Self {
        Meta(
            len as u64
                | (code_len as u64) << 16
                | (url_len as u64) << 24
                | u64::from(flags) << 40
                | u64::from(kind) << 48
                | u64::from(status) << 56,
        )
    }

    pub(super) fn len(self) -> usize {
        (self.0 & 0xffff) as usize
    }

    pub(super) fn code_len(self) -> usize {
        (self.0 >> 16 & 0xff) as usize
    }

    pub(super) fn url_len(self) -> usize {
        (self.0 >> 24 & 0xffff) as usize
    }

    pub(super) fn flags(self) -> u8 {
        (self.0 >> 40) as u8
    }

    pub(super) fn has(self, flag: u8) -> bool {
        self.flags() & flag != 0
    }

    pub(super) fn kind(self) -> u8 {
        (self.0 >> 48) as u8
    }

    pub(super) fn status(self) -> u8 {
        (self.0 >> 56) as u8
    }

    /// Words before the record's text: meta, domain and load instant, then for a chain its
    /// ids and, if it expires, its expiry.
    pub(super) fn header(self) -> usize {
        2 + usize::from(self.has(PRESENT)) + usize::from(self.has(EXPIRES))
    }

    pub(super) fn with(self, flag: u8) -> Self {
        Meta(self.0 | u64::from(flag) << 40)
    }
}

/// Words `bytes` take, padded.
pub(super) fn words(bytes: usize) -> usize {
    bytes.div_ceil(8)
}

/// Writes `text` into `out`, padded with zero bytes to whole words.
pub(super) fn put_text(out: &mut Vec<u64>, text: &[u8]) {
    out.extend(text.chunks(8).map(|chunk| {
        let mut word = [0u8; 8];
        word[..chunk.len()].copy_from_slice(chunk);
        u64::from_le_bytes(word)
    }));
}

/// Whether the padded words hold `text`.
pub(super) fn holds_text(stored: &[u64], text: &str) -> bool {
    text.as_bytes()
        .chunks(8)
        .zip(stored)
        .all(|(chunk, word)| word.to_le_bytes()[..chunk.len()] == *chunk)
}

/// `prefix`, then the `len` bytes from byte `from` of the words, in a string with no spare
/// capacity: a redirect's `Location` header takes its buffer as it is, which it cannot do
/// with spare room (`bytes` then allocates a header of its own).
pub(super) fn read_text(stored: &[u64], prefix: &str, from: usize, len: usize) -> Option<String> {
    let mut bytes = Vec::with_capacity(prefix.len() + len);
    bytes.extend_from_slice(prefix.as_bytes());
    let (mut at, end) = (from, from + len);
    while at < end {
        // The first word may begin with the code's last bytes; the last ends in padding.
        let word = stored.get(at / 8)?.to_le_bytes();
        let (skip, take) = (at % 8, (end - at).min(8 - at % 8));
        bytes.extend_from_slice(&word[skip..skip + take]);
        at += take;
    }
    String::from_utf8(bytes).ok()
}

/// A page chain's page or a short chain's rules and options, and whose they are (two codes of one digest
/// must not share them).
pub(super) struct Extras {
    pub(super) domain: DomainId,
    pub(super) code: Box<str>,
    pub(super) page: Option<Arc<PageTarget>>,
    pub(super) rules: Option<Arc<[RedirectRule]>>,
    pub(super) options: Option<Arc<LinkOptions>>,
}

/// The domain and load-instant word.
pub(super) fn placed(domain: DomainId, loaded: u64) -> u64 {
    domain.0 as u64 | loaded << DOMAIN_BITS
}

pub(super) fn domain_at(ring: &[u64], at: usize) -> DomainId {
    DomainId((ring[at + 1] & ((1 << DOMAIN_BITS) - 1)) as i64)
}

pub(super) fn loaded_at(ring: &[u64], at: usize) -> u64 {
    ring[at + 1] >> DOMAIN_BITS
}

/// Whether the record at `at` is `key`'s.
pub(super) fn is_at(ring: &[u64], at: usize, key: &LinkRef<'_>) -> bool {
    let meta = Meta(ring[at]);
    if domain_at(ring, at) != key.domain() || meta.code_len() != key.code().len() {
        return false;
    }
    let text = at + meta.header();
    holds_text(&ring[text..], key.code())
}

/// The record for `cached`, and what goes beside it.
pub(super) fn encode(
    key: &LinkRef<'_>,
    loaded: u64,
    cached: &Cached,
) -> Option<(Vec<u64>, Option<Extras>)> {
    let code = key.code();
    let domain = u64::try_from(key.domain().0).ok()?;
    if code.len() > 0xff || domain >= 1 << DOMAIN_BITS {
        return None;
    }
    let mut record = Vec::with_capacity(16);
    record.extend([0, placed(key.domain(), loaded)]);
    let Some(link) = cached else {
        put_text(&mut record, code.as_bytes());
        record[0] = Meta::new(record.len(), code.len(), 0, 0, 0, 0).0;
        return Some((record, None));
    };
    let chain = u32::try_from(link.chain_id.0).ok()?;
    let user = u32::try_from(link.user_id.0).ok()?;
    let mut flags = PRESENT;
    record.push(u64::from(chain) | u64::from(user) << 32);
    if link.valid_time != 0 {
        flags |= EXPIRES;
        record.push(link.valid_time as u64);
    }
    let target = match link.target_url.strip_prefix(HTTPS) {
        Some(rest) => {
            flags |= SECURE;
            rest
        }
        None => &link.target_url,
    };
    if target.len() > 0xffff {
        return None;
    }
    // Code and target share their words: a record is as short as its text allows.
    let mut text = Vec::with_capacity(code.len() + target.len());
    text.extend_from_slice(code.as_bytes());
    text.extend_from_slice(target.as_bytes());
    put_text(&mut record, &text);
    if link.deleted {
        flags |= DELETED;
    }
    let mut reserved = 0;
    let extras =
        (link.page.is_some() || link.rules.is_some() || link.options.is_some()).then(|| {
            flags |= EXTRAS;
            reserved = link.page.as_ref().map_or(0, |_| PAGE_WEIGHT)
                + link.rules.as_ref().map_or(0, |rules| {
                    rules.iter().map(|r| RULE_WEIGHT + r.target_url.len()).sum()
                })
                + link
                    .options
                    .as_ref()
                    .map_or(0, |o| OPTIONS_WEIGHT + o.text_len());
            Extras {
                domain: key.domain(),
                code: code.into(),
                page: link.page.clone(),
                rules: link.rules.clone(),
                options: link.options.clone(),
            }
        });
    let len = record.len() + words(reserved);
    if len > 0xffff {
        return None;
    }
    record[0] = Meta::new(
        len,
        code.len(),
        target.len(),
        flags,
        link.kind.code() as u8,
        link.status.code() as u8,
    )
    .0;
    Some((record, extras))
}

/// The digest of the record at `at`, from its domain and code.
pub(super) fn digest_at(ring: &[u64], at: usize) -> u64 {
    let meta = Meta(ring[at]);
    let text = at + meta.header();
    // Codes are at most 255 bytes (`encode`): read on the stack, as eviction runs often.
    let mut code = [0u8; 256];
    for (word, bytes) in ring[text..text + words(meta.code_len())]
        .iter()
        .zip(code.chunks_exact_mut(8))
    {
        bytes.copy_from_slice(&word.to_le_bytes());
    }
    let code = std::str::from_utf8(&code[..meta.code_len()]).unwrap_or_default();
    LinkRef::new(domain_at(ring, at), code).digest()
}
