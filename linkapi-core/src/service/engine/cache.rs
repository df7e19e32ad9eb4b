//! A bounded cache that stays coherent with writes: the key cache and the template cache are
//! one of these, and the link cache's own table (`engine::links`) follows the same rule
//! ([`Coherence`]).
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
//! from the change feed lately still trust entries it read itself since (`engine::freshness`).

use std::hash::Hash;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use quick_cache::sync::Cache;
use quick_cache::{Equivalent, UnitWeighter};

/// foldhash with a random seed per process: several times cheaper than the standard library's
/// SipHash on short keys, and a seed an outsider cannot learn keeps the keys they choose (codes
/// they ask for) from being made to collide.
type Hasher = foldhash::quality::RandomState;

pub(crate) struct CoherentCache<K, V> {
    /// The entries, with when the load that filled each began; quick_cache evicts by its own
    /// policy at capacity.
    entries: Cache<K, (V, Instant), UnitWeighter, Hasher>,
    coherence: Coherence,
}

/// The generation rule, for the caches here and the link cache's own table
/// (`engine::links`): invalidations bump a counter before they remove, and a fill keeps what
/// it inserted only when the counter did not move from before its load to after its insert.
#[derive(Default)]
pub(crate) struct Coherence {
    /// Bumped by every invalidation, before it removes anything.
    generation: AtomicU64,
}

/// Taken before loading a missing entry, handed to [`Coherence::fill`].
#[derive(Debug, Clone, Copy)]
pub(crate) struct Load {
    generation: u64,
    began: Instant,
}

impl Load {
    /// When the load began: what it read holds every change committed before then.
    pub(crate) fn began(&self) -> Instant {
        self.began
    }
}

impl Coherence {
    /// Take this before loading a missing entry.
    pub(crate) fn begin_load(&self) -> Load {
        Load {
            generation: self.generation.load(Ordering::SeqCst),
            began: Instant::now(),
        }
    }

    /// Runs `insert` (what was loaded), unless an invalidation ran since `load` began, and
    /// `remove` after it when one ran meanwhile.
    pub(crate) fn fill(&self, load: Load, insert: impl FnOnce(), remove: impl FnOnce()) {
        let seen = load.generation;
        if self.generation.load(Ordering::SeqCst) != seen {
            return;
        }
        insert();
        // An invalidation may have landed between the check and the insert, and its removal
        // may have run before our insert. Checking again closes that gap: either we see its
        // bump, or its removal comes after our insert.
        if self.generation.load(Ordering::SeqCst) != seen {
            remove();
        }
    }

    /// Call before removing what an invalidation names.
    pub(crate) fn invalidating(&self) {
        self.generation.fetch_add(1, Ordering::SeqCst);
    }
}

impl<K: Eq + Hash + Clone, V: Clone> CoherentCache<K, V> {
    /// A cache of at most `capacity` entries.
    pub(crate) fn new(capacity: usize) -> Self {
        let capacity = capacity.max(1);
        CoherentCache {
            entries: Cache::with(
                capacity,
                capacity as u64,
                UnitWeighter,
                Hasher::default(),
                Default::default(),
            ),
            coherence: Coherence::default(),
        }
    }

    pub(crate) fn get<Q: Hash + Equivalent<K> + ?Sized>(&self, key: &Q) -> Option<V> {
        self.entries.get(key).map(|(value, _)| value)
    }

    /// The entry and when the load that filled it began.
    pub(crate) fn get_loaded<Q: Hash + Equivalent<K> + ?Sized>(
        &self,
        key: &Q,
    ) -> Option<(V, Instant)> {
        self.entries.get(key)
    }

    /// Take this before loading a missing entry; hand it to [`CoherentCache::fill`].
    pub(crate) fn begin_load(&self) -> Load {
        self.coherence.begin_load()
    }

    /// Inserts what was loaded, unless an invalidation ran since `load` began.
    pub(crate) fn fill(&self, load: Load, key: K, value: V) {
        self.coherence.fill(
            load,
            || self.entries.insert(key.clone(), (value, load.began)),
            || {
                self.entries.remove(&key);
            },
        );
    }

    pub(crate) fn clear(&self) {
        self.coherence.invalidating();
        self.entries.clear();
    }
}
