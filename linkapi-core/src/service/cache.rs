//! A bounded cache that stays coherent with writes: the link cache and the key cache are both
//! one of these.
//!
//! Writers invalidate what they changed (locally right after their commit, and on other
//! instances when the change notice arrives). A reader that misses loads from the store and
//! fills the entry; an invalidation racing with that load could leave a stale entry behind
//! (load reads the old row, the write commits and invalidates, the fill inserts the old row).
//! So every invalidation bumps a generation counter first, and a fill keeps what it inserted
//! only when the counter did not move from before its load to after its insert.

use std::hash::Hash;
use std::sync::atomic::{AtomicU64, Ordering};

use quick_cache::sync::Cache;

pub(super) struct CoherentCache<K, V> {
    /// The entries; quick_cache evicts by its own policy at capacity.
    entries: Cache<K, V>,
    /// Bumped by every invalidation, before it removes anything.
    generation: AtomicU64,
}

impl<K: Eq + Hash + Clone, V: Clone> CoherentCache<K, V> {
    pub(super) fn new(capacity: usize) -> Self {
        CoherentCache {
            entries: Cache::new(capacity.max(1)),
            generation: AtomicU64::new(0),
        }
    }

    pub(super) fn get(&self, key: &K) -> Option<V> {
        self.entries.get(key)
    }

    /// Take this before loading a missing entry; hand it to [`CoherentCache::fill`].
    pub(super) fn generation(&self) -> u64 {
        self.generation.load(Ordering::SeqCst)
    }

    /// Inserts what was loaded, unless an invalidation ran since `seen` was taken.
    pub(super) fn fill(&self, seen: u64, key: K, value: V) {
        if self.generation.load(Ordering::SeqCst) != seen {
            return;
        }
        self.entries.insert(key.clone(), value);
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

    pub(super) fn clear(&self) {
        self.generation.fetch_add(1, Ordering::SeqCst);
        self.entries.clear();
    }
}
