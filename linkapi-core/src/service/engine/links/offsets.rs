//! Where each record of a link table's shard starts, by its (domain, code)'s digest: an
//! open-addressing table of one word a slot, probed linearly.
//!
//! *Why not hashbrown's `HashTable`:* a lookup there reads a group of control bytes, then the
//! bucket they point to, which lives in another cache line: with a million links neither is
//! in the CPU's caches, and with the record itself that made three dependent reads from memory
//! a redirect waited for (plus a fourth for the referenced bit, kept beside the ring). Here a
//! slot holds the digest's top 32 bits, the referenced bit and the offset, so a lookup reads
//! one line of slots, then the record.
//!
//! The slots grow with what they hold, doubling up to the most the link table gives them, and
//! the table bounds its records by what the most slots hold. Grown, not allocated whole: a few
//! thousand links in an index sized for a million spread over 16 MB, and each redirect's one
//! read of a slot missed every cache of the CPU (85% of the lookup's time, 5% of a cached
//! redirect's CPU). Outgrown slots go back to the system: past 128 KiB an allocation is a
//! mapping of its own (`crate::heap`; glibc's default threshold moves up with what is freed,
//! and each doubling asks for more than was freed). The first index, hashbrown's, grew too,
//! and left 26 MB of outgrown tables in the allocator's arenas at a million chains, before
//! large allocations were mappings of their own.

use std::sync::atomic::{AtomicU64, Ordering};

/// A slot: the tag (the digest's top 32 bits) above the referenced bit above the offset
/// plus one (zero is an empty slot).
const REFERENCED: u64 = 1 << 31;
const OFFSET: u64 = REFERENCED - 1;

/// Offsets past this are not filed (a shard's ring is shorter).
pub(super) const MAX_OFFSET: usize = (OFFSET - 1) as usize;

/// The fewest slots a table has.
pub(super) const MIN_SLOTS: usize = 64;

fn tag(digest: u64) -> u64 {
    digest >> 32
}

/// A record found: its offset and the slot that holds it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Found {
    pub(super) at: usize,
    slot: usize,
}

pub(super) struct Offsets {
    /// Atomic so that lookups, under a shard's read lock, can set the referenced bit; every
    /// other change happens under its write lock.
    slots: Box<[AtomicU64]>,
    len: usize,
    /// The most slots it grows to.
    most: usize,
}

/// `count` empty slots.
fn empty_slots(count: usize) -> Box<[AtomicU64]> {
    (0..count).map(|_| AtomicU64::new(0)).collect()
}

/// How many of `slots` may be used: three quarters, beyond which a lookup of something
/// absent would probe too far.
fn usable(slots: usize) -> usize {
    slots / 4 * 3
}

impl Offsets {
    /// An empty table that grows to `most` slots (a power of two, at least [`MIN_SLOTS`]).
    pub(super) fn new(most: usize) -> Self {
        debug_assert!(most.is_power_of_two() && most >= MIN_SLOTS);
        Offsets {
            slots: empty_slots(MIN_SLOTS),
            len: 0,
            most,
        }
    }

    /// Whether it holds all it may: three quarters of its most slots.
    pub(super) fn is_full(&self) -> bool {
        self.len >= usable(self.most)
    }

    fn mask(&self) -> usize {
        self.slots.len() - 1
    }

    fn home(&self, tag: u64) -> usize {
        tag as usize & self.mask()
    }

    /// The record of `digest` for which `is` holds.
    pub(super) fn find(&self, digest: u64, mut is: impl FnMut(usize) -> bool) -> Option<Found> {
        let tag = tag(digest);
        let mut slot = self.home(tag);
        loop {
            let word = self.slots[slot].load(Ordering::Relaxed);
            if word == 0 {
                return None;
            }
            if word >> 32 == tag {
                let at = (word & OFFSET) as usize - 1;
                if is(at) {
                    return Some(Found { at, slot });
                }
            }
            slot = (slot + 1) & self.mask();
        }
    }

    /// Notes that a lookup found the record (readers call this under the read lock).
    pub(super) fn mark_referenced(&self, found: Found) {
        let slot = &self.slots[found.slot];
        if slot.load(Ordering::Relaxed) & REFERENCED == 0 {
            slot.fetch_or(REFERENCED, Ordering::Relaxed);
        }
    }

    /// Whether a lookup found the record since it was filed or moved, clearing the bit.
    pub(super) fn take_referenced(&mut self, found: Found) -> bool {
        let word = self.slots[found.slot].get_mut();
        let referenced = *word & REFERENCED != 0;
        *word &= !REFERENCED;
        referenced
    }

    /// Files a record of `digest` at `at` (not filed yet), unless the table is full.
    pub(super) fn insert(&mut self, digest: u64, at: usize) {
        debug_assert!(at <= MAX_OFFSET);
        if self.is_full() {
            return;
        }
        if self.len >= usable(self.slots.len()) {
            self.grow();
        }
        self.put(tag(digest) << 32 | (at as u64 + 1));
        self.len += 1;
    }

    /// Twice the slots, every word filed again (slots found before are not valid after).
    fn grow(&mut self) {
        let twice = empty_slots(self.slots.len() * 2);
        let outgrown = std::mem::replace(&mut self.slots, twice);
        for slot in outgrown {
            let word = slot.into_inner();
            if word != 0 {
                self.put(word);
            }
        }
    }

    /// Puts a slot's word in the first free slot from its home.
    fn put(&mut self, word: u64) {
        let mut slot = self.home(word >> 32);
        while *self.slots[slot].get_mut() != 0 {
            slot = (slot + 1) & self.mask();
        }
        *self.slots[slot].get_mut() = word;
    }

    /// The record, found, has moved to `at`: its referenced bit is cleared.
    pub(super) fn moved(&mut self, found: Found, at: usize) {
        debug_assert!(at <= MAX_OFFSET);
        let word = self.slots[found.slot].get_mut();
        *word = *word >> 32 << 32 | (at as u64 + 1);
    }

    /// Forgets the record found.
    pub(super) fn remove(&mut self, found: Found) {
        // Backward-shift deletion: later slots of the run that may sit in the hole move into
        // it, so that no lookup stops early at an empty slot.
        let mask = self.mask();
        let mut hole = found.slot;
        let mut next = hole;
        loop {
            next = (next + 1) & mask;
            let word = *self.slots[next].get_mut();
            if word == 0 {
                break;
            }
            let home = self.home(word >> 32);
            // A word whose home lies cyclically in (hole, next] cannot move back to the hole.
            let stays = if hole <= next {
                hole < home && home <= next
            } else {
                hole < home || home <= next
            };
            if !stays {
                *self.slots[hole].get_mut() = word;
                hole = next;
            }
        }
        *self.slots[hole].get_mut() = 0;
        self.len -= 1;
    }

    /// Keeps the records at the offsets for which `keep` holds.
    pub(super) fn retain(&mut self, mut keep: impl FnMut(usize) -> bool) {
        let kept: Vec<u64> = self
            .slots
            .iter_mut()
            .map(|slot| std::mem::take(slot.get_mut()))
            .filter(|&word| word != 0 && keep((word & OFFSET) as usize - 1))
            .collect();
        self.len = kept.len();
        for word in kept {
            self.put(word);
        }
    }

    /// Forgets every record, and gives back the slots it grew to.
    pub(super) fn clear(&mut self) {
        self.slots = empty_slots(MIN_SLOTS);
        self.len = 0;
    }

    /// Records filed.
    #[cfg(test)]
    pub(super) fn len(&self) -> usize {
        self.len
    }

    /// Slots it has now.
    #[cfg(test)]
    pub(super) fn slots(&self) -> usize {
        self.slots.len()
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::{MIN_SLOTS, Offsets};

    /// Digests whose tags differ but share their home (the last slot) in any table of up to
    /// 4,096 slots: one run, wrapping round the end.
    fn crowded(i: u64) -> u64 {
        (i << 12 | 0xfff) << 32 | i
    }

    #[test]
    fn what_is_filed_is_found_until_removed_through_wrapping_runs() {
        let mut offsets = Offsets::new(1024);
        let mut filed: HashMap<u64, usize> = HashMap::new();
        // Tags that collide on their home slot, and ones that do not.
        let digests: Vec<u64> = (0..500)
            .map(|i| {
                if i % 2 == 0 {
                    crowded(i)
                } else {
                    i.wrapping_mul(0x9e37_79b9_7f4a_7c15)
                }
            })
            .collect();
        for (at, &digest) in digests.iter().enumerate() {
            offsets.insert(digest, at);
            filed.insert(digest, at);
        }
        assert_eq!(offsets.len(), 500);
        for (&digest, &at) in &filed {
            let found = offsets.find(digest, |o| o == at).expect("filed");
            assert_eq!(found.at, at);
        }
        // Remove every third, in an order that leaves holes inside runs.
        for (i, &digest) in digests.iter().enumerate().rev() {
            if i % 3 == 0 {
                let at = filed.remove(&digest).expect("filed");
                let found = offsets.find(digest, |o| o == at).expect("still filed");
                offsets.remove(found);
                assert!(offsets.find(digest, |o| o == at).is_none());
            }
        }
        assert_eq!(offsets.len(), filed.len());
        for (&digest, &at) in &filed {
            assert!(
                offsets.find(digest, |o| o == at).is_some(),
                "{digest:x} lost"
            );
        }
        // A lookup only answers what its test accepts: the same digest at another offset.
        let (&digest, &at) = filed.iter().next().expect("some left");
        offsets.insert(digest, 9_999);
        assert_eq!(
            offsets.find(digest, |o| o == 9_999).map(|f| f.at),
            Some(9_999)
        );
        assert_eq!(offsets.find(digest, |o| o == at).map(|f| f.at), Some(at));
    }

    #[test]
    fn the_referenced_bit_survives_shifts_and_clears_when_taken_or_moved() {
        let mut offsets = Offsets::new(1024);
        for i in 100..600 {
            offsets.insert(crowded(i), i as usize);
        }
        offsets.insert(crowded(1), 10);
        offsets.insert(crowded(2), 20);
        let found = offsets.find(crowded(1), |at| at == 10).expect("filed");
        offsets.mark_referenced(found);
        // Removing what precedes it in its run shifts it back, bit and all.
        for i in 100..600 {
            let found = offsets
                .find(crowded(i), |at| at == i as usize)
                .expect("filed");
            offsets.remove(found);
        }
        let found = offsets.find(crowded(1), |at| at == 10).expect("filed");
        assert!(offsets.take_referenced(found));
        assert!(!offsets.take_referenced(found));
        offsets.mark_referenced(found);
        offsets.moved(found, 30);
        let found = offsets.find(crowded(1), |at| at == 30).expect("moved");
        assert!(!offsets.take_referenced(found));
        let other = offsets.find(crowded(2), |at| at == 20).expect("filed");
        assert!(!offsets.take_referenced(other));
    }

    #[test]
    fn it_grows_with_what_it_holds_and_gives_the_slots_back_when_cleared() {
        let mut offsets = Offsets::new(4096);
        assert_eq!(offsets.slots(), MIN_SLOTS);
        // Half crowding one home (a run wrapping round the end), half spread.
        let digest = |i: u64| {
            if i.is_multiple_of(2) {
                crowded(i)
            } else {
                i.wrapping_mul(0x9e37_79b9_7f4a_7c15)
            }
        };
        for i in 0..48 {
            offsets.insert(digest(i), i as usize);
        }
        assert_eq!(offsets.slots(), MIN_SLOTS, "three quarters of 64 fit");
        for i in 48..1000 {
            offsets.insert(digest(i), i as usize);
            if i % 100 == 0 {
                // Everything filed before a growth is found after it.
                for j in 0..=i {
                    assert!(
                        offsets.find(digest(j), |at| at == j as usize).is_some(),
                        "{j} lost at {i}"
                    );
                }
            }
        }
        assert_eq!(offsets.slots(), 2048, "the fewest slots holding 1000");
        assert!(!offsets.is_full());
        offsets.clear();
        assert_eq!(offsets.slots(), MIN_SLOTS);
        assert!(offsets.find(digest(1), |_| true).is_none());
    }

    #[test]
    fn it_holds_three_quarters_of_its_most_slots_and_retains_what_it_is_told_to() {
        let mut offsets = Offsets::new(512);
        for i in 0..400 {
            offsets.insert(crowded(i), i as usize);
        }
        assert!(offsets.is_full());
        assert_eq!(offsets.slots(), 512);
        assert_eq!(offsets.len(), 384);
        assert!(offsets.find(crowded(390), |_| true).is_none());
        offsets.retain(|at| at < 300);
        offsets.retain(|at| at % 2 == 0);
        assert_eq!(offsets.len(), 150);
        for i in 0..300u64 {
            let found = offsets.find(crowded(i), |at| at == i as usize);
            assert_eq!(found.is_some(), i % 2 == 0, "{i}");
        }
        offsets.clear();
        assert_eq!(offsets.len(), 0);
        assert!(offsets.find(crowded(0), |_| true).is_none());
    }
}
