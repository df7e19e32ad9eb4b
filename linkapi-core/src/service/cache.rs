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
use std::time::Instant;

use quick_cache::sync::Cache;

pub(super) struct CoherentCache<K, V> {
    /// The entries, with when the load that filled each began; quick_cache evicts by its own
    /// policy at capacity.
    entries: Cache<K, (V, Instant)>,
    /// Bumped by every invalidation, before it removes anything.
    generation: AtomicU64,
}

/// Taken before loading a missing entry, handed to [`CoherentCache::fill`].
#[derive(Debug, Clone, Copy)]
pub(super) struct Load {
    generation: u64,
    began: Instant,
}

impl<K: Eq + Hash + Clone, V: Clone> CoherentCache<K, V> {
    pub(super) fn new(capacity: usize) -> Self {
        CoherentCache {
            entries: Cache::new(capacity.max(1)),
            generation: AtomicU64::new(0),
        }
    }

    pub(super) fn get(&self, key: &K) -> Option<V> {
        self.entries.get(key).map(|(value, _)| value)
    }

    /// The entry and when the load that filled it began.
    pub(super) fn get_loaded(&self, key: &K) -> Option<(V, Instant)> {
        self.entries.get(key)
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
        self.entries.insert(key.clone(), (value, load.began));
        // An invalidation may have landed between the check and the insert, and its removal
        // may have run before our insert. Checking again closes that gap: either we see its
        // bump, or its removal comes after our insert.
        if self.generation.load(Ordering::SeqCst) != seen {
            self.entries.remove(&key);
        }
    }

    pub(super) fn invalidate(&self, key: &K) {
        self.generation.fetch_add(1, Ordering::SeqCst);
        self.entries.remove(key);
    }

    /// Removes every entry `keep` says no to.
    pub(super) fn retain(&self, keep: impl Fn(&K, &V) -> bool) {
        self.generation.fetch_add(1, Ordering::SeqCst);
        self.entries.retain(|key, (value, _)| keep(key, value));
    }

    pub(super) fn clear(&self) {
        self.generation.fetch_add(1, Ordering::SeqCst);
        self.entries.clear();
    }
}
