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
mod tests {
    use std::sync::Arc;

    use super::LinkTable;
    use super::entry::LinkRef;
    use super::record::PAGE_WEIGHT;
    use crate::model::{ChainId, ChainKind, ChainStatus, DomainId, RedirectRule, UserId};
    use crate::store::LinkTarget;

    fn link(chain: i64, target: &str) -> LinkTarget {
        LinkTarget {
            chain_id: ChainId(chain),
            kind: ChainKind::Short,
            target_url: target.to_owned(),
            valid_time: 0,
            status: ChainStatus::Normal,
            deleted: false,
            user_id: UserId(7),
            page: None,
            rules: None,
            options: None,
        }
    }

    fn fill(table: &LinkTable, domain: i64, code: &str, cached: Option<LinkTarget>) {
        let load = table.begin_load();
        table.fill(load, &LinkRef::new(DomainId(domain), code), &cached);
    }

    fn found(table: &LinkTable, domain: i64, code: &str) -> Option<Option<LinkTarget>> {
        table
            .get(&LinkRef::new(DomainId(domain), code))
            .map(|(cached, _)| cached)
    }

    #[test]
    fn what_was_filed_comes_back_whole_and_invalidates_alone() {
        let table = LinkTable::new(1 << 20);
        let rules: Vec<RedirectRule> =
            serde_json::from_str(r#"[{"target_url":"https://e.com/ios","language":"fr"}]"#)
                .expect("rules");
        let every_field = LinkTarget {
            chain_id: ChainId(4_000_000_000),
            kind: ChainKind::Card,
            target_url: "https://e.com/ünïcode?x=1&y=2".to_owned(),
            valid_time: 1_900_000_000_123,
            status: ChainStatus::Disabled,
            deleted: true,
            user_id: UserId(3_000_000_000),
            page: None,
            rules: Some(rules.into()),
            options: Some(Arc::new(crate::model::LinkOptions {
                redirect_status: Some(crate::model::RedirectStatus::Permanent),
                valid_since: 1_800_000_000,
                max_visits: 3,
            })),
        };
        fill(&table, 1, "abc", Some(every_field.clone()));
        fill(&table, 2, "abc", Some(link(2, "https://e.com/2")));
        fill(&table, 1, "a-code-of-more-than-eight-bytes", None);
        // Targets not beginning with https://, shorter than it, or empty; codes of every
        // length modulo a word.
        let plain = [
            ("c", "http://e.com/plain"),
            ("co", "https:/"),
            ("cod", ""),
            ("code", "https://"),
            ("code5", "HTTPS://e.com/"),
            ("code-6", "/relative"),
            ("code--7", "https://e.com/ü"),
            ("code---8", "https://e.com/eight"),
            ("code----9", "ftp://e.com/"),
        ];
        for (chain, (code, target)) in plain.iter().enumerate() {
            fill(&table, 3, code, Some(link(chain as i64, target)));
        }
        assert_eq!(found(&table, 1, "abc"), Some(Some(every_field)));
        assert_eq!(
            found(&table, 2, "abc"),
            Some(Some(link(2, "https://e.com/2")))
        );
        assert_eq!(
            found(&table, 1, "a-code-of-more-than-eight-bytes"),
            Some(None)
        );
        for (chain, (code, target)) in plain.iter().enumerate() {
            let read = found(&table, 3, code);
            assert_eq!(read, Some(Some(link(chain as i64, target))));
            // The `Location` header takes the target's buffer only when nothing is spare.
            let url = read.flatten().map(|l| l.target_url).unwrap_or_default();
            assert_eq!(url.capacity(), url.len(), "{url:?}");
        }
        assert_eq!(found(&table, 1, "abd"), None);
        assert_eq!(found(&table, 1, "ab"), None);
        table.invalidate(&LinkRef::new(DomainId(1), "abc"));
        assert_eq!(found(&table, 1, "abc"), None);
        assert_eq!(
            found(&table, 2, "abc"),
            Some(Some(link(2, "https://e.com/2")))
        );
        // Filled again: the new answer replaces the old.
        fill(&table, 2, "abc", Some(link(2, "https://e.com/new")));
        assert_eq!(
            found(&table, 2, "abc"),
            Some(Some(link(2, "https://e.com/new")))
        );
        assert_eq!(table.len(), 2 + plain.len());
    }

    #[test]
    fn links_it_cannot_hold_are_not_cached() {
        let table = LinkTable::new(1 << 20);
        fill(&table, 1, "big", Some(link(1 << 40, "https://e.com/")));
        fill(&table, 1, &"c".repeat(300), None);
        fill(&table, 1, "long", Some(link(1, &"x".repeat(200_000))));
        fill(&table, 1 << 24, "far", Some(link(1, "https://e.com/")));
        // A link cached, then filled again with what cannot be held: the old answer goes.
        fill(&table, 1, "grew", Some(link(1, "https://e.com/")));
        fill(&table, 1, "grew", Some(link(1, &"x".repeat(200_000))));
        fill(&table, 1, "ids", Some(link(1, "https://e.com/")));
        fill(&table, 1, "ids", Some(link(1 << 40, "https://e.com/")));
        let small = LinkTable::new(64 << 10);
        fill(&small, 1, "page", Some(link(1, "https://e.com/")));
        fill(&small, 1, "page", Some(link(1, &"y".repeat(600))));
        assert_eq!(found(&small, 1, "page"), None);
        fill(&table, 1 << 24, "far-missing", None);
        assert_eq!(found(&table, 1, "big"), None);
        assert_eq!(found(&table, 1 << 24, "far"), None);
        assert_eq!(found(&table, 1 << 24, "far-missing"), None);
        assert_eq!(found(&table, 1, "grew"), None);
        assert_eq!(found(&table, 1, "ids"), None);
        assert_eq!(found(&table, 1, &"c".repeat(300)), None);
        assert_eq!(found(&table, 1, "long"), None);
        assert_eq!(table.len(), 0);
    }

    #[test]
    fn forgetting_missing_codes_keeps_the_links() {
        let table = LinkTable::new(1 << 20);
        fill(&table, 1, "here", Some(link(1, "https://e.com/")));
        fill(&table, 1, "gone", None);
        table.forget_missing();
        assert!(found(&table, 1, "here").is_some());
        assert_eq!(found(&table, 1, "gone"), None);
        table.clear();
        assert_eq!(found(&table, 1, "here"), None);
        fill(&table, 1, "here", Some(link(1, "https://e.com/")));
        assert!(found(&table, 1, "here").is_some());
    }

    #[test]
    fn a_records_load_instant_is_never_later_than_its_load_began() {
        // Freshness trusts a record read within a window of its load: an instant rounded up
        // would stretch that window.
        let table = LinkTable::new(1 << 20);
        for i in 0..50 {
            std::thread::sleep(std::time::Duration::from_micros(300));
            let key = LinkRef::new(DomainId(1), "abc");
            let load = table.begin_load();
            let began = load.began();
            table.fill(load, &key, &Some(link(i, "https://e.com/")));
            let (_, loaded) = table.get(&key).expect("filled");
            assert!(loaded <= began, "{i}: loaded after its load began");
            assert!(
                began.duration_since(loaded) < std::time::Duration::from_millis(1),
                "{i}: rounded down by more than a millisecond"
            );
        }
    }

    #[test]
    fn a_fill_that_raced_an_invalidation_is_dropped() {
        let table = LinkTable::new(1 << 20);
        let load = table.begin_load();
        table.invalidate(&LinkRef::new(DomainId(1), "other"));
        table.fill(
            load,
            &LinkRef::new(DomainId(1), "abc"),
            &Some(link(1, "https://e.com/old")),
        );
        assert_eq!(found(&table, 1, "abc"), None);
    }

    #[test]
    fn the_table_holds_links_up_to_its_bytes_and_keeps_those_in_use() {
        let bytes = 1 << 20;
        let table = LinkTable::new(bytes);
        let target = format!("https://e.com/{}", "x".repeat(66));
        let hot: Vec<String> = (0..200).map(|i| format!("hot{i}")).collect();
        for code in &hot {
            fill(&table, 1, code, Some(link(1, &target)));
        }
        // Looked up every 100 fills, far less than a ring's turn: a link in use is never
        // evicted, so never missed (refilled all the same, as a redirect would, should it be).
        let mut missed = 0;
        for i in 0..100_000 {
            fill(&table, 1, &format!("c{i:06}"), Some(link(i, &target)));
            if i % 100 == 0 {
                for code in &hot {
                    if found(&table, 1, code).is_none() {
                        missed += 1;
                        fill(&table, 1, code, Some(link(1, &target)));
                    }
                }
            }
        }
        assert_eq!(missed, 0, "links in use were evicted and read again");
        // A 7-byte code and an 80-byte https target take 13 words: the ring (7/8 of the
        // bytes) holds at most 8,822 of them, and the ring's tail end loses few.
        let held = table.len();
        assert!(
            (8_500..=8_822).contains(&held),
            "{held} links held in {bytes} bytes"
        );
        let kept = hot.iter().filter(|c| found(&table, 1, c).is_some()).count();
        assert_eq!(kept, hot.len(), "links in use were evicted");
        // A page's weight counts: far fewer page chains fit, and each comes back whole.
        let table = LinkTable::new(bytes);
        let page = Arc::new(crate::store::PageTarget {
            user_id: UserId(7),
            title: "A page".to_owned(),
            sub_type: Some(1),
            settings: crate::model::JumpSettings::default(),
            channels: Vec::new(),
        });
        let page_chain = |chain| LinkTarget {
            kind: ChainKind::Messaging,
            page: Some(page.clone()),
            ..link(chain, "")
        };
        for i in 0..10_000 {
            fill(&table, 1, &format!("p{i:05}"), Some(page_chain(i)));
        }
        let held = table.len() as u64;
        assert!(
            held < bytes / PAGE_WEIGHT as u64,
            "{held} page chains held in {bytes} bytes"
        );
        assert_eq!(found(&table, 1, "p09999"), Some(Some(page_chain(9_999))));
    }

    #[test]
    fn many_short_records_are_bounded_by_the_index_share_too() {
        // 1 MiB: each shard's eighth left by the ring affords 1,024 slots, 768 records, where
        // its ring would take 2,389 three-word records of codes the store did not have.
        let table = LinkTable::new(1 << 20);
        for i in 0..100_000 {
            fill(&table, 1, &format!("m{i}"), None);
        }
        let held = table.len();
        assert!(
            (12_000..=16 * 768).contains(&held),
            "{held} missing codes held"
        );
        assert_eq!(found(&table, 1, "m99999"), Some(None));
    }

    #[test]
    fn racing_readers_and_writers_only_ever_find_a_codes_own_link() {
        let table = Arc::new(LinkTable::new(64 << 10));
        let target = |code: &str| format!("https://e.com/{code}/{}", "y".repeat(code.len() * 3));
        let threads: Vec<_> = (0..8u64)
            .map(|t| {
                let table = table.clone();
                std::thread::spawn(move || {
                    let mut seen = 0;
                    for i in 0..20_000u64 {
                        let n = (i * 7 + t * 13) % 3_000;
                        let code = format!("k{n}");
                        let key = LinkRef::new(DomainId((n % 3) as i64), &code);
                        match i % 5 {
                            0 => table.invalidate(&key),
                            1 | 2 => {
                                let load = table.begin_load();
                                let cached = (n % 4 != 0).then(|| link(n as i64, &target(&code)));
                                table.fill(load, &key, &cached);
                            }
                            _ => {
                                if let Some((cached, _)) = table.get(&key) {
                                    seen += 1;
                                    if let Some(found) = cached {
                                        assert_eq!(found, link(n as i64, &target(&code)));
                                    } else {
                                        assert_eq!(n % 4, 0, "{code}: a miss cached for a link");
                                    }
                                }
                            }
                        }
                    }
                    seen
                })
            })
            .collect();
        let seen: usize = threads
            .into_iter()
            .map(|t| t.join().expect("no reader or writer panicked"))
            .sum();
        assert!(seen > 1_000, "only {seen} lookups found anything");
    }
}
