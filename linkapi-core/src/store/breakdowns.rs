//! Breakdowns as both backends store them: one row per chain and day, and one per chain and
//! span of 30 days, each holding every dimension's values in one `data` column, with the
//! merges the visit flush applies to them and the sum a breakdown read makes of them.
//!
//! `data` is a JSON array of `[dimension, value, clicks]` triples (`value` null for the visits
//! past the day's cap of distinct values), in no promised order. JSON because both databases
//! can read and write it: the migration from the earlier row per value runs in each one's SQL.
//! Both backends' flushes merge here ([`Packed::add_day`]): SQLite's writer reads, adds and
//! writes back; PostgreSQL's flush reads, adds, and writes back in its one statement only the
//! rows still as read (`store::postgres::visits`).
//!
//! *Why one row per chain-day rather than one per value:* a visit flush wrote about eight
//! rows per chain-day visited (each value's day row and span row, the day's count of values),
//! and every row costs a B-tree descent and a page written, whatever table it is in. Read,
//! extended and rewritten, a chain-day costs two reads and two writes however many values it
//! has: the SQLite writer's time per visit under uniform traffic at a million chains went from
//! 37 to 21 µs (docs/decisions.md).
//!
//! *Spans without rows:* PostgreSQL writes a chain's span with each of its days. SQLite writes
//! it once the span has a second day, and reads a span without a row from its one day: a chain
//! visited on one day of a span is the commonest case at a million chains, and its span's read
//! and write were a third of the writer's time there.

use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

use serde::Deserialize;

use super::{BreakdownCounts, BreakdownVisits, StoreError, StoreResult};
use crate::model::Timestamp;

/// A chain's people's visits per dimension and value on one day or span, as in a `data` column.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub(crate) struct Packed {
    /// Visits per (dimension, value); `None`: visits past the day's cap (for a span, its days').
    /// A value is the batch's (the visit counter's one copy), shared, not copied, by the day
    /// that keeps it, what the day gained and the span that adds that up: copies of each value
    /// were a seventh of the SQLite writer's breakdown work under uniform traffic at a million
    /// chains.
    entries: BTreeMap<(i64, Option<Arc<str>>), i64>,
}

/// A stored triple (dimension, value, clicks) read in place: a value without escapes is not
/// copied, so a read of one dimension copies none of the others' values.
#[derive(Deserialize)]
struct Triple<'a>(i64, #[serde(borrow)] Option<Cow<'a, str>>, i64);

fn decode_triples(data: &str) -> StoreResult<Vec<Triple<'_>>> {
    serde_json::from_str(data).map_err(StoreError::backend)
}

impl Packed {
    /// The stored `data` of a row; an empty one for a row not there yet.
    pub(crate) fn decode(data: Option<&str>) -> StoreResult<Packed> {
        let mut packed = Packed::default();
        if let Some(data) = data {
            for Triple(dimension, value, clicks) in decode_triples(data)? {
                let key = (dimension, value.map(|value| Arc::from(value.as_ref())));
                *packed.entries.entry(key).or_default() += clicks;
            }
        }
        Ok(packed)
    }

    /// Its visits: dimension, value (`None` past the cap), clicks, in (dimension, value)
    /// order.
    pub(crate) fn entries(&self) -> impl Iterator<Item = (i64, Option<&Arc<str>>, i64)> {
        self.entries
            .iter()
            .map(|((dimension, value), clicks)| (*dimension, value.as_ref(), *clicks))
    }

    /// Adds `clicks` visits of `value` of `dimension`, with no cap (visits already kept).
    pub(crate) fn add_entry(&mut self, dimension: i64, value: Option<Arc<str>>, clicks: i64) {
        *self.entries.entry((dimension, value)).or_default() += clicks;
    }

    /// What the `data` column holds.
    pub(crate) fn encode(&self) -> StoreResult<String> {
        let triples: Vec<(i64, Option<&str>, i64)> = self
            .entries
            .iter()
            .map(|((dimension, value), clicks)| (*dimension, value.as_deref(), *clicks))
            .collect();
        serde_json::to_string(&triples).map_err(StoreError::backend)
    }

    /// Adds a day's visits (`rows`: one chain and day, each dimension's in value order),
    /// keeping each dimension to `cap` distinct values: a value the day has is added to; a new
    /// one is kept while its dimension has room, and counted past the cap otherwise. Returns
    /// what the day gained (the values it kept, the visits past its cap), which is what its
    /// span gains.
    pub(crate) fn add_day<'a>(
        &mut self,
        rows: impl IntoIterator<Item = &'a BreakdownVisits>,
        cap: i64,
    ) -> Packed {
        let mut gained = Packed::default();
        self.add_capped(day_visits(rows), cap, Some(&mut gained));
        gained
    }

    /// Adds a day's visits as [`Packed::add_day`] does, without reckoning what the day gained
    /// (SQLite's recent rows have no span yet: theirs is reckoned when they are folded).
    pub(crate) fn extend_day<'a>(
        &mut self,
        rows: impl IntoIterator<Item = &'a BreakdownVisits>,
        cap: i64,
    ) {
        self.add_capped(day_visits(rows), cap, None);
    }

    /// Adds `other`, more visits of the same day, as [`Packed::add_day`] adds a day's visits:
    /// the day keeps to `cap` values a dimension. Returns what the day gained.
    pub(crate) fn add_to_day(&mut self, other: &Packed, cap: i64) -> Packed {
        let mut gained = Packed::default();
        let visits = other
            .entries
            .iter()
            .map(|((dimension, value), clicks)| (*dimension, value.clone(), *clicks));
        self.add_capped(visits, cap, Some(&mut gained));
        gained
    }

    /// Adds `visits` keeping each dimension to `cap` values, and to `gained` what was added.
    fn add_capped(
        &mut self,
        visits: impl Iterator<Item = (i64, Option<Arc<str>>, i64)>,
        cap: i64,
        mut gained: Option<&mut Packed>,
    ) {
        // Distinct values per dimension: a handful of dimensions, so a list (a map allocated
        // and hashed for each chain-day a flush writes cost more than the search).
        let mut distinct: Vec<(i64, i64)> = Vec::new();
        for (dimension, value) in self.entries.keys() {
            if value.is_some() {
                *values_of(&mut distinct, *dimension) += 1;
            }
        }
        for (dimension, value, clicks) in visits {
            let kept = match value {
                Some(value) => {
                    let key = (dimension, Some(value));
                    let values = values_of(&mut distinct, dimension);
                    if self.entries.contains_key(&key) {
                        Some(key)
                    } else if *values < cap {
                        *values += 1;
                        Some(key)
                    } else {
                        None
                    }
                }
                None => None,
            };
            let key = kept.unwrap_or((dimension, None));
            if let Some(gained) = gained.as_deref_mut() {
                *gained.entries.entry(key.clone()).or_default() += clicks;
            }
            *self.entries.entry(key).or_default() += clicks;
        }
    }

    /// Adds `other`'s visits, with no cap (a span's values are those its days kept).
    pub(crate) fn add(&mut self, other: &Packed) {
        for (key, clicks) in &other.entries {
            *self.entries.entry(key.clone()).or_default() += clicks;
        }
    }
}

/// The count of `dimension`'s distinct values in `distinct`, a new one at 0.
fn values_of(distinct: &mut Vec<(i64, i64)>, dimension: i64) -> &mut i64 {
    let at = match distinct.iter().position(|(d, _)| *d == dimension) {
        Some(at) => at,
        None => {
            distinct.push((dimension, 0));
            distinct.len() - 1
        }
    };
    &mut distinct[at].1
}

/// A day's breakdown rows as [`Packed::add_capped`] takes them.
fn day_visits<'a>(
    rows: impl IntoIterator<Item = &'a BreakdownVisits>,
) -> impl Iterator<Item = (i64, Option<Arc<str>>, i64)> {
    rows.into_iter()
        .map(|row| (row.dimension.code(), row.value.clone(), row.clicks))
}

/// A batch's breakdowns (ordered by chain, dimension, day and value) in (chain, day) order,
/// each chain-day's rows still in dimension and value order (the sort is stable): a flush
/// cuts them into chain-days with [`chain_days`]. One list of references rather than a map
/// of a list per chain-day, which cost SQLite's writer more than binding its statements.
pub(crate) fn by_chain_day(breakdowns: &[BreakdownVisits]) -> Vec<&BreakdownVisits> {
    let mut rows: Vec<&BreakdownVisits> = breakdowns.iter().collect();
    rows.sort_by_key(|row| (row.chain_id.0, row.day));
    rows
}

/// The chain-days of rows as [`by_chain_day`] orders them: each (chain, day) with its run of
/// rows, in (chain, day) order.
pub(crate) fn chain_days<'r, 'a>(
    rows: &'r [&'a BreakdownVisits],
) -> impl Iterator<Item = ((i64, Timestamp), &'r [&'a BreakdownVisits])> {
    rows.chunk_by(|a, b| (a.chain_id, a.day) == (b.chain_id, b.day))
        .filter_map(|run| run.first().map(|row| ((row.chain_id.0, row.day), run)))
}

/// One dimension's figures of a window's rows (its days' and spans'): the `limit` values
/// with the most visits (ties by value), every value's visits, the visits past the cap.
pub(crate) fn breakdown_of(
    rows: impl IntoIterator<Item = String>,
    dimension: i64,
    limit: i64,
) -> StoreResult<BreakdownCounts> {
    let mut values: HashMap<String, i64> = HashMap::new();
    let mut past_cap = 0;
    for data in rows {
        for Triple(of, value, clicks) in decode_triples(&data)? {
            if of != dimension {
                continue;
            }
            match value {
                Some(value) => match values.get_mut(value.as_ref()) {
                    Some(sum) => *sum += clicks,
                    None => {
                        values.insert(value.into_owned(), clicks);
                    }
                },
                None => past_cap += clicks,
            }
        }
    }
    let total = values.values().sum();
    let mut top: Vec<(String, i64)> = values.into_iter().collect();
    top.sort_unstable_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    top.truncate(usize::try_from(limit).unwrap_or(0));
    Ok(BreakdownCounts {
        top,
        total,
        past_cap,
    })
}

#[cfg(test)]
mod tests {
    use super::{Packed, breakdown_of};
    use crate::model::{ChainId, Dimension};
    use crate::store::BreakdownVisits;

    fn visits(dimension: Dimension, value: Option<&str>, clicks: i64) -> BreakdownVisits {
        BreakdownVisits {
            chain_id: ChainId(7),
            dimension,
            day: 0,
            value: value.map(std::sync::Arc::from),
            clicks,
        }
    }

    #[test]
    fn a_day_keeps_each_dimension_to_its_cap_and_its_span_gains_what_it_kept() {
        let mut day = Packed::default();
        let first = [
            visits(Dimension::Referrers, Some("a.example"), 2),
            visits(Dimension::Referrers, Some("b.example"), 1),
            visits(Dimension::Countries, Some("FR"), 3),
        ];
        let gained = day.add_day(&first, 2);
        assert_eq!(gained, day);
        // The referrers are full: a value the day has is added to, a new one is past the cap;
        // countries still have room.
        let second = [
            visits(Dimension::Referrers, None, 4),
            visits(Dimension::Referrers, Some("b.example"), 5),
            visits(Dimension::Referrers, Some("c.example"), 6),
            visits(Dimension::Countries, Some("DE"), 1),
        ];
        let gained = day.add_day(&second, 2);
        let stored = Packed::decode(Some(&day.encode().expect("encodes"))).expect("decodes");
        assert_eq!(stored, day);
        let referrers = breakdown_of(
            [day.encode().expect("encodes")],
            Dimension::Referrers.code(),
            10,
        )
        .expect("decodes");
        assert_eq!(
            referrers.top,
            [("b.example".to_owned(), 6), ("a.example".to_owned(), 2)]
        );
        assert_eq!((referrers.total, referrers.past_cap), (8, 10));
        let countries = breakdown_of(
            [gained.encode().expect("encodes")],
            Dimension::Countries.code(),
            1,
        )
        .expect("decodes");
        assert_eq!(countries.top, [("DE".to_owned(), 1)]);
        assert_eq!((countries.total, countries.past_cap), (1, 0));
        // A span adds up what its days gained, without a cap.
        let mut span = Packed::decode(None).expect("empty");
        span.add(&gained);
        span.add(&gained);
        let referrers = breakdown_of(
            [span.encode().expect("encodes")],
            Dimension::Referrers.code(),
            10,
        )
        .expect("decodes");
        assert_eq!(referrers.top, [("b.example".to_owned(), 10)]);
        assert_eq!((referrers.total, referrers.past_cap), (10, 20));
        // A value stored with escapes reads back as it was.
        let mut odd = Packed::default();
        odd.add_day(&[visits(Dimension::Languages, Some("a\"b\\c"), 2)], 2);
        let stored = odd.encode().expect("encodes");
        let languages = breakdown_of([stored.clone(), stored], Dimension::Languages.code(), 1)
            .expect("decodes");
        assert_eq!(languages.top, [("a\"b\\c".to_owned(), 4)]);
    }
}
