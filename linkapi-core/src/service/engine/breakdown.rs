//! Breakdowns waiting to be written: per chain and day, how many people's visits had each
//! value of each [`Dimension`].
//!
//! A visit adds one to a value of every dimension, on the request path, under the visit
//! pipeline's shard lock, so it must be cheap and compact: values are interned per pending set
//! ([`Values`]: a string is stored once however many chains share it) and a chain-day holds
//! sorted `(dimension and value id, count)` pairs ([`Breakdown`]), eight bytes each, found by
//! binary search. A chain-day keeps at most [`MAX_BREAKDOWN_VALUES`] values of a dimension;
//! visits with more are counted as that dimension's "other", as the store does for a whole
//! day, so a flood of made-up referrers costs a bounded amount of memory.

use std::collections::HashMap;
use std::sync::Arc;

use crate::model::{Dimension, MAX_BREAKDOWN_VALUE_LEN, MAX_BREAKDOWN_VALUES};

/// Bits of a key that hold the value id; the dimension's index is above them.
const ID_BITS: u32 = 24;
const ID_MASK: u32 = (1 << ID_BITS) - 1;
/// The id of a dimension's "other": values past a cap.
const OTHER: u32 = ID_MASK;
/// Distinct values interned per dimension in one pending set (a shard of the pipeline, or its
/// backlog); later new values count as "other" until the set is written. Bounds what a flood
/// of made-up referrers or languages takes: 7 dimensions, 17 sets, 4,096 values of at most
/// 253 bytes. A chain-day interns no more than it keeps ([`MAX_BREAKDOWN_VALUES`] a
/// dimension), so it takes 41 chains flooded at once, not one, to fill a set.
const MAX_INTERNED: usize = 4096;

/// foldhash: the values are short strings, hashed on every visit.
type FastHash = foldhash::fast::RandomState;

/// What a person's visit counts as in each dimension, in [`Dimension::ALL`] order; `None`
/// for the dimension's [implicit value](Dimension::implicit_value), which is not counted.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Traits<'a> {
    pub(crate) values: [Option<&'a str>; Dimension::ALL.len()],
}

/// The values of one pending set, interned per dimension.
#[derive(Default)]
pub(crate) struct Values {
    tables: [Table; Dimension::ALL.len()],
}

#[derive(Default)]
struct Table {
    ids: HashMap<Arc<str>, u32, FastHash>,
    /// Shared with the batches that name them: a sealed batch and the SQLite writer's rows
    /// take a reference, not a copy (copies were 3-4% of the CPU under uniform traffic at a
    /// million chains, allocated on the serving core and freed there after the write).
    names: Vec<Arc<str>>,
    /// The id last looked up, compared before hashing: visits in a row mostly share a
    /// dimension's value (no referrer, one device class), and a short compare costs less than
    /// hashing and probing.
    last: u32,
}

impl Values {
    /// How many values are interned.
    pub(crate) fn len(&self) -> usize {
        self.tables.iter().map(|t| t.names.len()).sum()
    }

    /// The key of `value` in the dimension at `index`, interning it.
    #[cfg(test)]
    fn key(&mut self, index: usize, value: &str) -> u32 {
        self.key_with(index, value, || true)
    }

    /// The key of `value` in the dimension at `index`; a value not yet interned is interned
    /// only if `room()` says the counts it is for may take another value of the dimension,
    /// else it is "other" (those counts would make it "other" anyway). So one chain flooded
    /// with made-up values interns its cap of them, not the whole set's room, and other
    /// chains' new values keep their names.
    fn key_with(&mut self, index: usize, value: &str, room: impl FnOnce() -> bool) -> u32 {
        let table = &mut self.tables[index];
        let dimension = (index as u32) << ID_BITS;
        let value = cut(value);
        if table
            .names
            .get(table.last as usize)
            .is_some_and(|last| **last == *value)
        {
            return dimension | table.last;
        }
        let id = match table.ids.get(value) {
            Some(&id) => id,
            None if table.names.len() >= MAX_INTERNED || !room() => return dimension | OTHER,
            None => {
                let value: Arc<str> = value.into();
                let id = table.names.len() as u32;
                table.names.push(value.clone());
                table.ids.insert(value, id);
                id
            }
        };
        table.last = id;
        dimension | id
    }

    /// The dimension and value of `key`; `None` as the value for "other".
    pub(crate) fn resolve(&self, key: u32) -> (Dimension, Option<&Arc<str>>) {
        let index = (key >> ID_BITS) as usize;
        let dimension = Dimension::ALL[index.min(Dimension::ALL.len() - 1)];
        let id = key & ID_MASK;
        let name = (id != OTHER)
            .then(|| self.tables[index].names.get(id as usize))
            .flatten();
        (dimension, name)
    }
}

/// `value` cut to [`MAX_BREAKDOWN_VALUE_LEN`] bytes, on a character boundary.
fn cut(value: &str) -> &str {
    if value.len() <= MAX_BREAKDOWN_VALUE_LEN {
        return value;
    }
    let mut end = MAX_BREAKDOWN_VALUE_LEN;
    while !value.is_char_boundary(end) {
        end -= 1;
    }
    &value[..end]
}

/// A chain-day's counts per (dimension, value), in key order. The first six are held in place,
/// in the chain-day's entry: a visit counts one value in each of four to six dimensions, and
/// the entries of a second's visits to a chain mostly fit; a vector of its own was one more
/// random read from memory on every visit (2-5% of a cached redirect's throughput).
#[derive(Default, Debug)]
pub(crate) struct Breakdown(smallvec::SmallVec<[(u32, u32); 6]>);

impl Breakdown {
    /// Entries held.
    pub(crate) fn len(&self) -> usize {
        self.0.len()
    }

    /// Counts a visit with `traits`, interning its values in `values`.
    pub(crate) fn count(&mut self, values: &mut Values, traits: &Traits<'_>) {
        // A visit's keys come in increasing order (a dimension's index is their top bits),
        // and a chain-day mostly holds them already, a few entries apart: each is looked for
        // among the few entries after the last one found, then by binary search of the rest.
        // A binary search of all for each was a quarter of counting a visit.
        const NEAR: usize = 8;
        let mut from = 0;
        for (index, value) in traits.values.iter().enumerate() {
            let Some(value) = value else {
                continue;
            };
            let key = values.key_with(index, value, || self.has_room(index));
            let rest = &self.0[from..];
            let near = rest.len().min(NEAR);
            let at = from
                + match rest[..near].iter().position(|(k, _)| *k >= key) {
                    Some(at) => at,
                    None => near + rest[near..].partition_point(|(k, _)| *k < key),
                };
            match self.0.get_mut(at) {
                Some((k, n)) if *k == key => {
                    *n = n.saturating_add(1);
                    from = at + 1;
                }
                // New here (or its dimension's "other"): entries before `from` stay below
                // every key still to come, wherever this one lands.
                _ => self.add(key, 1),
            }
        }
    }

    /// Adds `n` to `key`; a new value past the dimension's cap goes to its "other".
    fn add(&mut self, key: u32, n: u32) {
        match self.0.binary_search_by_key(&key, |(k, _)| *k) {
            Ok(at) => self.0[at].1 = self.0[at].1.saturating_add(n),
            Err(at) => {
                let dimension = key & !ID_MASK;
                if key & ID_MASK == OTHER {
                    return self.0.insert(at, (key, n));
                }
                if self.held(dimension) < MAX_BREAKDOWN_VALUES as usize {
                    self.0.insert(at, (key, n));
                } else {
                    self.add(dimension | OTHER, n);
                }
            }
        }
    }

    /// Values held of `dimension` (its top bits), "other" not counted.
    fn held(&self, dimension: u32) -> usize {
        let first = self.0.partition_point(|(k, _)| *k < dimension);
        let end = self.0.partition_point(|(k, _)| *k <= dimension | OTHER);
        // "other" sorts last within its dimension and is no value.
        let other = end > first && self.0[end - 1].0 == dimension | OTHER;
        end - first - usize::from(other)
    }

    /// Whether another value of the dimension at `index` would be kept rather than counted
    /// as "other".
    fn has_room(&self, index: usize) -> bool {
        self.held((index as u32) << ID_BITS) < MAX_BREAKDOWN_VALUES as usize
    }

    /// Adds `other`'s counts, whose keys are in `from`, interning their values in `into`.
    pub(crate) fn merge(&mut self, other: Breakdown, from: &Values, into: &mut Values) {
        for (key, n) in other.0 {
            let index = (key >> ID_BITS) as usize;
            let key = match from.resolve(key).1 {
                Some(name) => into.key_with(index, name, || self.has_room(index)),
                None => key,
            };
            self.add(key, n);
        }
    }

    /// The counts with their dimension and value (`None`: "other").
    pub(crate) fn counts<'v>(
        &'v self,
        values: &'v Values,
    ) -> impl Iterator<Item = (Dimension, Option<&'v Arc<str>>, i64)> + 'v {
        self.0.iter().map(|(key, n)| {
            let (dimension, value) = values.resolve(*key);
            (dimension, value, i64::from(*n))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn traits(referrer: &str) -> [Option<&str>; 7] {
        [
            Some(referrer),
            Some("mobile"),
            Some("iOS"),
            Some("Safari"),
            Some("CN"),
            Some("zh"),
            Some("2"),
        ]
    }

    fn counted(breakdown: &Breakdown, values: &Values) -> Vec<(Dimension, Option<String>, i64)> {
        breakdown
            .counts(values)
            .map(|(d, v, n)| (d, v.map(|v| v.to_string()), n))
            .collect()
    }

    #[test]
    fn each_dimension_counts_its_values() {
        let mut values = Values::default();
        let mut day = Breakdown::default();
        day.count(
            &mut values,
            &Traits {
                values: traits("t.co"),
            },
        );
        day.count(
            &mut values,
            &Traits {
                values: traits("t.co"),
            },
        );
        day.count(
            &mut values,
            &Traits {
                values: traits("direct"),
            },
        );
        let counts = counted(&day, &values);
        assert!(counts.contains(&(Dimension::Referrers, Some("t.co".into()), 2)));
        assert!(counts.contains(&(Dimension::Referrers, Some("direct".into()), 1)));
        assert!(counts.contains(&(Dimension::Os, Some("iOS".into()), 3)));
        assert!(counts.contains(&(Dimension::Rules, Some("2".into()), 3)));
        assert_eq!(counts.len(), 8);
        assert_eq!(values.len(), 8);
        // Implicit values are not counted.
        let mut implicit = traits("t.co");
        implicit[6] = None;
        day.count(&mut values, &Traits { values: implicit });
        assert!(counted(&day, &values).contains(&(Dimension::Rules, Some("2".into()), 3)));
        assert!(counted(&day, &values).contains(&(Dimension::Os, Some("iOS".into()), 4)));
    }

    #[test]
    fn counting_a_visit_is_adding_one_to_each_of_its_keys() {
        // Visits drawn from few and from many values (past the cap too), in every dimension:
        // the counts are those of adding each key on its own.
        let mut values = Values::default();
        let (mut counted, mut added) = (Breakdown::default(), Breakdown::default());
        let mut seed = 7u64;
        let mut next = |n: u64| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) % n
        };
        for _ in 0..5_000 {
            let picks: Vec<Option<String>> = (0..Dimension::ALL.len())
                .map(|d| match next(4) {
                    0 => None,
                    1 => Some(format!("v{}", next(3 + d as u64 * 40))),
                    _ => Some(format!("v{}", next(2))),
                })
                .collect();
            let traits = Traits {
                values: std::array::from_fn(|d| picks[d].as_deref()),
            };
            counted.count(&mut values, &traits);
            for (index, value) in traits.values.iter().enumerate() {
                if let Some(value) = value {
                    let key = values.key(index, value);
                    added.add(key, 1);
                }
            }
        }
        assert_eq!(counted.0, added.0);
        assert!(
            counted.0.iter().any(|(k, _)| k & ID_MASK == OTHER),
            "some dimension went past its cap"
        );
    }

    #[test]
    fn a_value_keeps_its_key_whether_or_not_it_was_the_last_looked_up() {
        let mut values = Values::default();
        let order = ["a", "b", "a", "a", "b", "c", "a"];
        let keys: Vec<u32> = order.iter().map(|v| values.key(0, v)).collect();
        let (a, b, c) = (keys[0], keys[1], keys[5]);
        assert_eq!(keys, [a, b, a, a, b, c, a]);
        assert!(a != b && b != c && a != c);
        assert_eq!(values.len(), 3);
        // Each dimension has its own table and its own last value.
        assert_ne!(values.key(1, "a"), a);
        assert_eq!(values.key(0, "a"), a);
        // Past the cap a new value is "other", and the values before it keep their keys.
        for i in values.len()..MAX_INTERNED + 1 {
            values.key(0, &format!("v{i}"));
        }
        assert_eq!(values.key(0, "past the cap") & ID_MASK, OTHER);
        assert_eq!(values.key(0, "b"), b);
        assert_eq!(values.key(0, "past the cap") & ID_MASK, OTHER);
        assert_eq!(values.key(0, "c"), c);
    }

    #[test]
    fn values_past_the_cap_count_as_other_and_merge_by_name() {
        let mut values = Values::default();
        let mut day = Breakdown::default();
        let flood = MAX_BREAKDOWN_VALUES as usize + 50;
        for i in 0..flood {
            day.count(
                &mut values,
                &Traits {
                    values: traits(&format!("r{i}.example")),
                },
            );
        }
        let referrers: Vec<_> = counted(&day, &values)
            .into_iter()
            .filter(|(d, ..)| *d == Dimension::Referrers)
            .collect();
        assert_eq!(referrers.len(), MAX_BREAKDOWN_VALUES as usize + 1);
        assert_eq!(referrers.last(), Some(&(Dimension::Referrers, None, 50)));
        let total: i64 = referrers.iter().map(|r| r.2).sum();
        assert_eq!(total, flood as i64);

        // Merged into another set, values meet by name; the cap holds there too.
        let mut into_values = Values::default();
        let mut into = Breakdown::default();
        into.count(
            &mut into_values,
            &Traits {
                values: traits("r0.example"),
            },
        );
        into.count(
            &mut into_values,
            &Traits {
                values: traits("elsewhere"),
            },
        );
        into.merge(day, &values, &mut into_values);
        let merged = counted(&into, &into_values);
        assert!(merged.contains(&(Dimension::Referrers, Some("r0.example".into()), 2)));
        let referrers: Vec<_> = merged
            .iter()
            .filter(|(d, ..)| *d == Dimension::Referrers)
            .collect();
        assert_eq!(referrers.len(), MAX_BREAKDOWN_VALUES as usize + 1);
        let total: i64 = referrers.iter().map(|r| r.2).sum();
        assert_eq!(total, flood as i64 + 2);
        assert!(merged.contains(&(Dimension::Os, Some("iOS".into()), flood as i64 + 2)));
    }

    #[test]
    fn a_chain_flooded_with_made_up_values_leaves_the_others_their_names() {
        // One chain-day gets 10,000 made-up referrers: it keeps its cap of them, interns no
        // more, and another chain's new referrer in the same set keeps its name.
        let mut values = Values::default();
        let mut flooded = Breakdown::default();
        for i in 0..10_000 {
            flooded.count(
                &mut values,
                &Traits {
                    values: traits(&format!("made-up-{i}.example")),
                },
            );
        }
        assert!(values.tables[0].names.len() <= MAX_BREAKDOWN_VALUES as usize + 1);
        let mut other = Breakdown::default();
        other.count(
            &mut values,
            &Traits {
                values: traits("news.example"),
            },
        );
        assert!(counted(&other, &values).contains(&(
            Dimension::Referrers,
            Some("news.example".into()),
            1
        )));
        let flood: i64 = counted(&flooded, &values)
            .iter()
            .filter(|(d, ..)| *d == Dimension::Referrers)
            .map(|c| c.2)
            .sum();
        assert_eq!(flood, 10_000);
    }

    #[test]
    fn long_values_are_cut_on_a_character_boundary() {
        let long = "é".repeat(MAX_BREAKDOWN_VALUE_LEN);
        let cut = cut(&long);
        assert!(cut.len() <= MAX_BREAKDOWN_VALUE_LEN);
        assert!(long.starts_with(cut));
    }
}
