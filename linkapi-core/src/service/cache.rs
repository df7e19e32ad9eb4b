//! A bounded cache that stays coherent with writes: the link cache and the key cache are both
//! one of these.
//!
//! Writers invalidate what they changed (locally right after their commit, and on other
//! instances when the change notice arrives). A reader that misses loads from the store and
//! fills the entry; an invalidation racing with that load could leave a stale entry behind
//! (load reads the old row, the write commits and invalidates, the fill inserts the old row).
//! So every invalidation bumps a generation counter first, and a fill keeps what it inserted
//! only when the counter did not move from before its load to after its insert.
//!
//! Each entry remembers when the load that filled it began: a value read from the store then
//! holds every change committed before that instant, which lets an instance that has not heard
//! from the change feed lately still trust entries it read itself since (`service::freshness`).

use std::hash::Hash;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use quick_cache::sync::Cache;
use quick_cache::{Equivalent, UnitWeighter, Weighter};

/// foldhash with a random seed per process: several times cheaper than the standard library's
/// SipHash on short keys, and a seed an outsider cannot learn keeps the keys they choose (codes
/// they ask for) from being made to collide.
type Hasher = foldhash::quality::RandomState;

pub(super) struct CoherentCache<K, V, W = UnitWeighter> {
    /// The entries, with when the load that filled each began; quick_cache evicts by its own
    /// policy at capacity.
    entries: Cache<K, (V, LoadedAt), W, Hasher>,
    /// Bumped by every invalidation, before it removes anything.
    generation: AtomicU64,
    /// What the entries' [`LoadedAt`] count from: every load begins after it.
    created: Instant,
}

/// When the load that filled an entry began, in nanoseconds since the cache was created:
/// eight bytes where an `Instant` takes sixteen, in every entry (the link cache holds
/// hundreds of thousands; its slots are a third of what a link costs).
#[derive(Debug, Clone, Copy)]
pub(super) struct LoadedAt(u64);

/// Taken before loading a missing entry, handed to [`CoherentCache::fill`].
#[derive(Debug, Clone, Copy)]
pub(super) struct Load {
    generation: u64,
    began: Instant,
}

/// What an entry of a cache bounded by size (rather than count) takes of its capacity.
pub(super) trait Weight {
    /// Bytes, about: what the entry holds and what holding it costs.
    fn weight(&self) -> u64;
}

/// Weighs entries by their [`Weight`].
#[derive(Debug, Clone, Copy)]
pub(super) struct ByWeight;

impl<K, V: Weight> Weighter<K, (V, LoadedAt)> for ByWeight {
    fn weight(&self, _key: &K, (value, _): &(V, LoadedAt)) -> u64 {
        value.weight()
    }
}

impl<K: Eq + Hash + Clone, V: Clone> CoherentCache<K, V> {
    /// A cache of at most `capacity` entries.
    pub(super) fn new(capacity: usize) -> Self {
        Self::with(capacity.max(1), capacity.max(1) as u64, UnitWeighter)
    }
}

impl<K: Eq + Hash + Clone, V: Clone + Weight> CoherentCache<K, V, ByWeight> {
    /// A cache of entries weighing `bytes` in all at most, about `typical` bytes each.
    pub(super) fn weighing(bytes: u64, typical: u64) -> Self {
        let bytes = bytes.max(1);
        Self::with((bytes / typical.max(1)).max(1) as usize, bytes, ByWeight)
    }
}

impl<K: Eq + Hash + Clone, V: Clone, W: Weighter<K, (V, LoadedAt)> + Clone> CoherentCache<K, V, W> {
    fn with(items: usize, weight: u64, weighter: W) -> Self {
        CoherentCache {
            entries: Cache::with(
                items,
                weight,
                weighter,
                Hasher::default(),
                Default::default(),
            ),
            generation: AtomicU64::new(0),
            created: Instant::now(),
        }
    }

    pub(super) fn get<Q: Hash + Equivalent<K> + ?Sized>(&self, key: &Q) -> Option<V> {
        self.entries.get(key).map(|(value, _)| value)
    }

    /// The entry and when the load that filled it began.
    pub(super) fn get_loaded<Q: Hash + Equivalent<K> + ?Sized>(
        &self,
        key: &Q,
    ) -> Option<(V, Instant)> {
        self.entries
            .get(key)
            .map(|(value, LoadedAt(nanos))| (value, self.created + Duration::from_nanos(nanos)))
    }

    /// Take this before loading a missing entry; hand it to [`CoherentCache::fill`].
    pub(super) fn begin_load(&self) -> Load {
        Load {
            generation: self.generation.load(Ordering::SeqCst),
            began: Instant::now(),
        }
    }

    /// Inserts what was loaded, unless an invalidation ran since `load` began.
    pub(super) fn fill(&self, load: Load, key: K, value: V) {
        let seen = load.generation;
        if self.generation.load(Ordering::SeqCst) != seen {
            return;
        }
        // Nanoseconds since `created` fit in 64 bits for 584 years.
        let loaded = LoadedAt(load.began.duration_since(self.created).as_nanos() as u64);
        self.entries.insert(key.clone(), (value, loaded));
        // An invalidation may have landed between the check and the insert, and its removal
        // may have run before our insert. Checking again closes that gap: either we see its
        // bump, or its removal comes after our insert.
        if self.generation.load(Ordering::SeqCst) != seen {
            self.entries.remove(&key);
        }
    }

    pub(super) fn invalidate<Q: Hash + Equivalent<K> + ?Sized>(&self, key: &Q) {
        self.generation.fetch_add(1, Ordering::SeqCst);
        self.entries.remove(key);
    }

    /// Removes every entry `keep` says no to.
    pub(super) fn retain(&self, keep: impl Fn(&K, &V) -> bool) {
        self.generation.fetch_add(1, Ordering::SeqCst);
        self.entries.retain(|key, (value, _)| keep(key, value));
    }

    /// What the entries weigh in all (their count, for a cache bounded by count).
    #[cfg(test)]
    pub(super) fn weight(&self) -> u64 {
        self.entries.weight()
    }

    pub(super) fn clear(&self) {
        self.generation.fetch_add(1, Ordering::SeqCst);
        self.entries.clear();
    }
}
