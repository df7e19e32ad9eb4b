//! The link cache's storage: every cached link is a record of 64-bit words in a ring, one ring
//! per shard, found through an index of word offsets by its (domain, code)'s digest.
//!
//! *Why not a general-purpose cache:* at a million chains what decides redirect speed is
//! whether every chain fits, and a link held as its own allocation in quick_cache cost 273
//! bytes of memory for 87 bytes of code and target (the block, its allocator header, the
//! cache's slot, index and ghost entries). A record here is three words of fields (four if
//! the chain expires), then its code and target together, padded to a word, the target
//! without its `https://`; the index ([`Offsets`]) takes a word a slot, up to three quarters
//! full. A 6-letter code and a 97-byte target take 120 bytes of ring, so the default 144 MiB
//! (its ring 7/8 of it) holds 1.1 million such links, and 1.5 million with 60-byte targets.
//!
//! Eviction is CLOCK in log form: records are appended at the ring's head; when it is full,
//! the record at its tail is dropped unless a lookup found it since it was written, in which
//! case it is written again at the head (its bit cleared), so links in use stay and a scan of
//! codes asked for once goes round without pushing them out. Invalidated or replaced records
//! are marked dead and their space comes back when the tail passes them.
//!
//! A page chain's page and a short chain's rules are `Arc`s, kept beside the ring by digest;
//! their weight is reserved in the record (words never written), so the shard's bytes bound
//! them too.

use std::collections::HashMap;
use std::sync::RwLock;
use std::time::{Duration, Instant};

mod entry;
mod offsets;
mod record;

use super::cache::{Coherence, Load};
use crate::locks::Unpoisoned;
use crate::model::{ChainId, ChainKind, ChainStatus, UserId};
use crate::store::LinkTarget;
pub(crate) use entry::LinkRef;
pub use entry::Location;
use offsets::Offsets;
pub(crate) use record::Cached;
use record::{
    DEAD, DELETED, EXPIRES, EXTRAS, Extras, HTTPS, LOADED_BITS, Meta, PAD, PRESENT, SECURE,
    digest_at, encode, is_at, loaded_at, read_text,
};

/// Shards, each its own lock and ring.
const SHARDS: usize = 16;

struct Shard {
    /// Start offsets of the live records, by digest, each with its referenced bit. When it
    /// is full (a ring of many short records), the oldest records are evicted.
    index: Offsets,
    ring: Box<[u64]>,
    /// Where the next record goes.
    head: usize,
    /// The oldest record.
    tail: usize,
    /// Words from tail to head, filler included.
    used: usize,
    extras: HashMap<u64, Extras>,
}

pub(crate) struct LinkTable {
    shards: Box<[RwLock<Shard>]>,
    coherence: Coherence,
    /// What records' load instants count from: every load begins after it.
    created: Instant,
}

impl LinkTable {
    /// A table of links taking `bytes` at most (rings and indexes).
    pub(crate) fn new(bytes: u64) -> Self {
        let per_shard = (bytes / SHARDS as u64).max(4096);
        // The ring takes 7/8, the index (eight bytes a slot) at most the rest.
        let ring_words = ((per_shard * 7 / 8 / 8) as usize).min(offsets::MAX_OFFSET);
        let slots = ((per_shard / 8 / 8) as usize + 1).next_power_of_two() / 2;
        let shards = (0..SHARDS)
            .map(|_| {
                RwLock::new(Shard {
                    index: Offsets::new(slots.max(offsets::MIN_SLOTS)),
                    // Zeroed by the operating system, so pages count once written.
                    ring: vec![0; ring_words].into_boxed_slice(),
                    head: 0,
                    tail: 0,
                    used: 0,
                    extras: HashMap::new(),
                })
            })
            .collect();
        LinkTable {
            shards,
            coherence: Coherence::default(),
            created: Instant::now(),
        }
    }

    fn shard(&self, digest: u64) -> &RwLock<Shard> {
        // The index files by the digest's top 32 bits; the shard comes from its low bits.
        &self.shards[digest as usize % SHARDS]
    }

    /// What is cached for `key`, and when the load that filled it began.
    pub(crate) fn get(&self, key: &LinkRef<'_>) -> Option<(Cached, Instant)> {
        let shard = self.shard(key.digest()).read().unpoisoned();
        let found = shard
            .index
            .find(key.digest(), |at| is_at(&shard.ring, at, key))?;
        let (cached, loaded) = shard.read(found.at, key)?;
        shard.index.mark_referenced(found);
        Some((cached, self.created + Duration::from_millis(loaded)))
    }

    /// Take this before loading what is missing; hand it to [`LinkTable::fill`].
    pub(crate) fn begin_load(&self) -> Load {
        self.coherence.begin_load()
    }

    /// Caches what the store answered for `key`, unless an invalidation ran since `load`
    /// began. A link that cannot be held (ids past 32 bits, a domain past 24, a code past
    /// 255 bytes, a target past 64 KiB, or bigger than an eighth of a shard) is not cached.
    pub(crate) fn fill(&self, load: Load, key: &LinkRef<'_>, cached: &Cached) {
        // Rounded down, so the record seems older than it is, never newer.
        let loaded = load.began().duration_since(self.created).as_millis();
        let loaded = u64::try_from(loaded).map_or(0, |ms| ms.min((1 << LOADED_BITS) - 1));
        let Some((record, extras)) = encode(key, loaded, cached) else {
            // What was cached before is not the answer any more.
            self.remove(key);
            return;
        };
        self.coherence.fill(
            load,
            || {
                self.shard(key.digest())
                    .write()
                    .unpoisoned()
                    .insert(key, record, extras)
            },
            || self.remove(key),
        );
    }

    /// Forgets `key`.
    pub(crate) fn invalidate(&self, key: &LinkRef<'_>) {
        self.coherence.invalidating();
        self.remove(key);
    }

    fn remove(&self, key: &LinkRef<'_>) {
        self.shard(key.digest()).write().unpoisoned().remove(key);
    }

    /// Forgets every code the store did not have.
    pub(crate) fn forget_missing(&self) {
        self.coherence.invalidating();
        for shard in self.shards.iter() {
            let mut shard = shard.write().unpoisoned();
            let Shard { index, ring, .. } = &mut *shard;
            let mut gone = Vec::new();
            index.retain(|at| {
                let keep = Meta(ring[at]).has(PRESENT);
                if !keep {
                    gone.push(at);
                }
                keep
            });
            for at in gone {
                let meta = Meta(shard.ring[at]);
                shard.ring[at] = meta.with(DEAD).0;
            }
        }
    }

    /// Forgets everything.
    pub(crate) fn clear(&self) {
        self.coherence.invalidating();
        for shard in self.shards.iter() {
            let mut shard = shard.write().unpoisoned();
            shard.index.clear();
            shard.extras.clear();
            (shard.head, shard.tail, shard.used) = (0, 0, 0);
        }
    }

    /// Links held.
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.shards
            .iter()
            .map(|s| s.read().unpoisoned().index.len())
            .sum()
    }
}

impl Shard {
    /// The record at `at`, which is `key`'s, and its load instant.
    fn read(&self, at: usize, key: &LinkRef<'_>) -> Option<(Cached, u64)> {
        let ring = &self.ring;
        let meta = Meta(ring[at]);
        let loaded = loaded_at(ring, at);
        if !meta.has(PRESENT) {
            return Some((None, loaded));
        }
        let ids = ring[at + 2];
        let valid_time = if meta.has(EXPIRES) {
            ring[at + 3] as i64
        } else {
            0
        };
        let prefix = if meta.has(SECURE) { HTTPS } else { "" };
        let text = &ring[at + meta.header()..];
        let target_url = read_text(text, prefix, meta.code_len(), meta.url_len())?;
        let (page, rules, options) = if meta.has(EXTRAS) {
            let extras = self
                .extras
                .get(&key.digest())
                .filter(|e| e.domain == key.domain() && *e.code == *key.code())?;
            let options = extras.options.clone();
            (extras.page.clone(), extras.rules.clone(), options)
        } else {
            (None, None, None)
        };
        let link = LinkTarget {
            chain_id: ChainId(i64::from(ids as u32)),
            kind: ChainKind::from_code(i64::from(meta.kind()))?,
            target_url,
            valid_time,
            status: ChainStatus::from_code(i64::from(meta.status()))?,
            deleted: meta.has(DELETED),
            user_id: UserId(i64::from((ids >> 32) as u32)),
            page,
            rules,
            options,
        };
        Some((Some(link), loaded))
    }

    /// Appends `key`'s record, replacing what it had (which goes even if the new one is too
    /// big to hold).
    fn insert(&mut self, key: &LinkRef<'_>, record: Vec<u64>, extras: Option<Extras>) {
        // Gone first, so that making room does not move what is about to be replaced.
        self.remove(key);
        let len = Meta(record[0]).len();
        if len > self.ring.len() / 8 {
            return;
        }
        while self.index.is_full() {
            self.evict_one();
        }
        let at = self.make_room(len);
        self.ring[at..at + record.len()].copy_from_slice(&record);
        self.index.insert(key.digest(), at);
        if let Some(extras) = extras {
            self.extras.insert(key.digest(), extras);
        }
    }

    /// Forgets `key`'s record, if it has one.
    fn remove(&mut self, key: &LinkRef<'_>) {
        let ring = &self.ring;
        if let Some(found) = self.index.find(key.digest(), |at| is_at(ring, at, key)) {
            self.index.remove(found);
            self.kill(found.at, key.digest());
        }
    }

    /// Marks the record at `at` dead and drops its page or rules.
    fn kill(&mut self, at: usize, digest: u64) {
        let meta = Meta(self.ring[at]);
        self.ring[at] = meta.with(DEAD).0;
        if meta.has(EXTRAS) {
            self.extras.remove(&digest);
        }
    }

    /// Frees `len` contiguous words at the head, evicting from the tail; returns where.
    fn make_room(&mut self, len: usize) -> usize {
        let capacity = self.ring.len();
        loop {
            if self.used == 0 {
                (self.head, self.tail) = (0, 0);
            }
            let free = self.free_at_head();
            if self.head + len > capacity {
                // The rest of the ring is too short: once it is free, fill it and go on at
                // the ring's beginning.
                let rest = capacity - self.head;
                if free == rest {
                    self.ring[self.head] = Meta::new(rest, 0, 0, PAD, 0, 0).0;
                    self.used += rest;
                    self.head = 0;
                } else {
                    self.evict_one();
                }
            } else if free >= len {
                let at = self.head;
                self.head = (at + len) % capacity;
                self.used += len;
                return at;
            } else {
                // Evicting may move a record in use to the head: both are looked at again.
                self.evict_one();
            }
        }
    }

    /// Free words from the head on, before the tail or the ring's end.
    fn free_at_head(&self) -> usize {
        if self.used == self.ring.len() {
            0
        } else if self.head >= self.tail {
            self.ring.len() - self.head
        } else {
            self.tail - self.head
        }
    }

    /// Frees the record at the tail, or moves it to the head when a lookup found it since it
    /// was written.
    fn evict_one(&mut self) {
        let capacity = self.ring.len();
        let at = self.tail;
        let meta = Meta(self.ring[at]);
        let len = meta.len();
        if !meta.has(DEAD) && !meta.has(PAD) {
            let digest = digest_at(&self.ring, at);
            if let Some(found) = self.index.find(digest, |found| found == at) {
                if self.index.take_referenced(found) {
                    if self.used == capacity {
                        // Full: the head is here, so the record stays where it is and both
                        // move on.
                        self.tail = (at + len) % capacity;
                        self.head = self.tail;
                        return;
                    }
                    if self.free_at_head() >= len {
                        let to = self.head;
                        self.ring.copy_within(at..at + len, to);
                        self.index.moved(found, to);
                        self.head = (to + len) % capacity;
                        self.tail = (at + len) % capacity;
                        return;
                    }
                }
                self.index.remove(found);
            }
            if meta.has(EXTRAS) {
                self.extras.remove(&digest);
            }
        }
        self.tail = (at + len) % capacity;
        self.used -= len;
    }
}

#[cfg(test)]
mod tests;
