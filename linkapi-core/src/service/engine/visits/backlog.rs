//! The flusher's backlog: pending counts taken from the shards, merged, and sealed into
//! batches in chain order.

use std::collections::{HashMap, HashSet};

use crate::model::{ChainId, ChannelId, Timestamp};
use crate::service::engine::breakdown::{Breakdown, Values};
use crate::store::{BreakdownVisits, ChannelVisits, DailyVisits, VisitBatch, VisitorKey};

/// foldhash rather than SipHash for the pending maps: their keys are chain ids, days and
/// visitor keys, which are already keyed hashes, so nobody can aim collisions at them, and
/// this runs on every visit.
type FastHash = foldhash::fast::RandomState;

/// A chain-day's pending counts.
#[derive(Default, Debug)]
pub(super) struct DayCounts {
    /// Visits by people.
    pub(super) people: i64,
    /// Visits by bots.
    pub(super) bots: i64,
    /// People's visits per dimension and value.
    pub(super) breakdown: Breakdown,
}

/// Counts pending for the store.
#[derive(Default)]
pub(super) struct Pending {
    /// Per (chain, day).
    pub(super) daily: HashMap<(ChainId, Timestamp), DayCounts, FastHash>,
    /// Visitors (people) seen per chain.
    pub(super) visitors: HashSet<(ChainId, VisitorKey), FastHash>,
    /// (channel, day) to visits, for channels without a limit.
    pub(super) channels: HashMap<(ChannelId, Timestamp), i64, FastHash>,
    /// The breakdowns' values.
    pub(super) values: Values,
    /// Entries of every chain-day's breakdown.
    pub(super) breakdown_entries: usize,
}

impl Pending {
    pub(super) fn entries(&self) -> usize {
        self.daily.len()
            + self.visitors.len()
            + self.channels.len()
            + self.breakdown_entries
            + self.values.len()
    }

    fn merge(&mut self, other: Pending) {
        let Pending {
            daily,
            visitors,
            channels,
            values,
            ..
        } = other;
        for (key, counts) in daily {
            let entry = self.daily.entry(key).or_default();
            entry.people += counts.people;
            entry.bots += counts.bots;
            let pairs = entry.breakdown.len();
            entry
                .breakdown
                .merge(counts.breakdown, &values, &mut self.values);
            self.breakdown_entries += entry.breakdown.len() - pairs;
        }
        self.visitors.extend(visitors);
        for (key, visits) in channels {
            *self.channels.entry(key).or_default() += visits;
        }
    }

    /// Moves everything into `sealed`, its breakdowns resolved by name.
    fn drain_into(self, sealed: &mut Sealed) {
        let Pending {
            daily,
            visitors,
            channels,
            values,
            ..
        } = self;
        for ((chain_id, day), counts) in daily {
            sealed.add_day(chain_id, day, counts, &values);
        }
        sealed.visitors.extend(visitors);
        for (key, visits) in channels {
            sealed.add_channel(key, visits);
        }
    }
}

/// What the flusher has taken from the shards and not yet sealed: one part per shard, kept
/// apart as the shards are (they hold disjoint chains). A shard taken while its part is empty,
/// as it is whenever the store keeps up, becomes the part as it is. Merging every shard into
/// one map re-inserted each entry, and sealing then took them out one by one: 5.2% of all
/// CPU under uniform traffic at a million chains, 3.9% kept apart (docs/decisions.md).
pub(super) struct Backlog {
    parts: Box<[Pending]>,
    /// The order the batches of a backlog longer than one take its chains in, made by the
    /// first of them and kept for the rest until more is taken from the shards.
    order: Option<SealingOrder>,
}

/// A backlog's chain-days and visitors with the part holding each, highest chain first, so
/// the lowest is taken off the end.
///
/// *Why once for all the batches:* picking each batch's lowest chains from the whole backlog
/// went over all of it again for every batch, so a backlog of n batches cost n passes; at a
/// million chains under Zipf traffic, with the backlog at half of `max_pending`, sealing was
/// the part of the flush that grew (docs/decisions.md).
#[derive(Default)]
struct SealingOrder {
    days: Vec<((ChainId, Timestamp), usize)>,
    people: Vec<((ChainId, VisitorKey), usize)>,
}

impl SealingOrder {
    fn of(parts: &[Pending]) -> Self {
        let mut order = SealingOrder::default();
        for (at, part) in parts.iter().enumerate() {
            order.days.extend(part.daily.keys().map(|key| (*key, at)));
            order
                .people
                .extend(part.visitors.iter().map(|person| (*person, at)));
        }
        order.days.sort_unstable_by(|a, b| b.cmp(a));
        order.people.sort_unstable_by(|a, b| b.cmp(a));
        order
    }
}

impl Backlog {
    pub(super) fn new(parts: usize) -> Self {
        Backlog {
            order: None,
            parts: (0..parts).map(|_| Pending::default()).collect(),
        }
    }

    pub(super) fn entries(&self) -> usize {
        self.parts.iter().map(Pending::entries).sum()
    }

    /// Adds the counts taken from shard `at`.
    pub(super) fn take(&mut self, at: usize, pending: Pending) {
        self.order = None;
        let part = &mut self.parts[at];
        if part.entries() == 0 {
            *part = pending;
        } else {
            part.merge(pending);
        }
    }

    /// Moves up to `limit` entries into a batch, the lowest chains' first (each chain's days
    /// and visitors together); returns it with the visits it holds and the entries it took
    /// from here.
    ///
    /// *Why the lowest chains:* a backlog bigger than a batch is written as several, and the
    /// tables take a batch's rows in chain order. Batches of chains drawn at random each
    /// touched pages all over those tables: at a million chains under uniform traffic a batch
    /// of 16,000 chain-days read and wrote back most of the day's 25,000 pages, again for
    /// every batch of the backlog. A range of chains touches its own pages only, so a backlog
    /// written in several batches costs what it costs in one (docs/decisions.md).
    pub(super) fn seal(&mut self, limit: usize) -> (VisitBatch, u64, usize) {
        let before = self.entries();
        let mut sealed = Sealed::with_room(&self.parts, limit);
        if before <= limit {
            // All of it: the parts are emptied whole, with no entry looked up or removed.
            self.order = None;
            for part in self.parts.iter_mut() {
                std::mem::take(part).drain_into(&mut sealed);
            }
            sealed.daily.sort_unstable_by_key(|d| (d.chain_id, d.day));
            sealed.visitors.sort_unstable();
        } else {
            self.seal_lowest(limit, &mut sealed);
        }
        let (batch, visits) = sealed.into_batch();
        (batch, visits, before - self.entries())
    }

    /// Moves the lowest chains' days and visitors into `sealed`, up to `limit` entries, and
    /// channel-days as there is room left.
    fn seal_lowest(&mut self, limit: usize, sealed: &mut Sealed) {
        let Backlog { parts, order } = self;
        // Made again once used up, should anything have reached the parts without `take`.
        if order
            .as_ref()
            .is_some_and(|o| o.days.is_empty() && o.people.is_empty())
        {
            *order = None;
        }
        let SealingOrder { days, people } = order.get_or_insert_with(|| SealingOrder::of(parts));
        let mut taken = 0;
        loop {
            // A chain's days before its visitors, so its visitors go with a day of theirs.
            let day_next = match (days.last(), people.last()) {
                (Some(((day_chain, _), _)), Some(((person_chain, _), _))) => {
                    day_chain <= person_chain
                }
                (Some(_), None) => true,
                (None, Some(_)) => false,
                (None, None) => break,
            };
            if !day_next {
                // Like a chain-day, the first always fits.
                if taken > 0 && taken >= limit {
                    break;
                }
                if let Some((person, at)) = people.pop() {
                    parts[at].visitors.remove(&person);
                    sealed.visitors.push(person);
                    taken += 1;
                }
                continue;
            }
            let Some(&(key, at)) = days.last() else {
                break;
            };
            let part = &mut parts[at];
            let size = 1 + part.daily.get(&key).map_or(0, |c| c.breakdown.len());
            // A chain-day goes whole, with its breakdown; the first always fits.
            if taken > 0 && taken + size > limit {
                break;
            }
            days.pop();
            let Some(counts) = part.daily.remove(&key) else {
                continue;
            };
            taken += size;
            part.breakdown_entries -= counts.breakdown.len();
            let (chain_id, day) = key;
            sealed.add_day(chain_id, day, counts, &part.values);
        }
        let mut room = limit.saturating_sub(taken);
        for part in parts.iter_mut() {
            let keys: Vec<_> = part.channels.keys().take(room).copied().collect();
            room -= keys.len();
            for key in keys {
                if let Some(visits) = part.channels.remove(&key) {
                    sealed.add_channel(key, visits);
                }
            }
            // The values are kept while a chain-day may still name them.
            if part.daily.is_empty() {
                part.values = Values::default();
            }
        }
    }
}

/// A batch being sealed.
struct Sealed {
    daily: Vec<DailyVisits>,
    visitors: Vec<(ChainId, VisitorKey)>,
    channels: Vec<ChannelVisits>,
    breakdowns: Vec<BreakdownVisits>,
}

impl Sealed {
    /// Room for `pending`'s entries, up to `limit` of each kind: growing these as they fill
    /// was a quarter of sealing a batch.
    fn with_room(pending: &[Pending], limit: usize) -> Self {
        let room = |of: fn(&Pending) -> usize| pending.iter().map(of).sum::<usize>().min(limit);
        Sealed {
            daily: Vec::with_capacity(room(|p| p.daily.len())),
            visitors: Vec::with_capacity(room(|p| p.visitors.len())),
            channels: Vec::with_capacity(room(|p| p.channels.len())),
            breakdowns: Vec::with_capacity(room(|p| p.breakdown_entries)),
        }
    }

    /// Adds a chain-day's counts, its breakdown's values named from `values`.
    fn add_day(&mut self, chain_id: ChainId, day: Timestamp, counts: DayCounts, values: &Values) {
        self.breakdowns.extend(counts.breakdown.counts(values).map(
            |(dimension, value, clicks)| BreakdownVisits {
                chain_id,
                dimension,
                day,
                value: value.cloned(),
                clicks,
            },
        ));
        self.daily.push(DailyVisits {
            chain_id,
            day,
            clicks: counts.people,
            bot_clicks: counts.bots,
        });
    }

    fn add_channel(&mut self, (channel_id, day): (ChannelId, Timestamp), visits: i64) {
        self.channels.push(ChannelVisits {
            channel_id,
            day,
            visits,
        });
    }

    /// The batch, with the visits it holds. Days and visitors come in chain order.
    fn into_batch(self) -> (VisitBatch, u64) {
        let Sealed {
            daily,
            visitors,
            mut channels,
            mut breakdowns,
        } = self;
        let visits = daily
            .iter()
            .map(|day| (day.clicks + day.bot_clicks) as u64)
            .sum();
        // In key order, chain first (chain-days and visitors come so): the store then
        // writes each table's rows in index order, which touches its pages in sequence rather
        // than at random (SQLite wrote a batch of a million chains' visits over twice as fast
        // so, its foreign-key checks included), and instances writing at once lock
        // PostgreSQL's rows in the same order.
        channels.sort_unstable_by_key(|c| (c.channel_id, c.day));
        breakdowns.sort_unstable_by(|a, b| {
            (a.chain_id, a.dimension, a.day, &a.value).cmp(&(
                b.chain_id,
                b.dimension,
                b.day,
                &b.value,
            ))
        });
        let batch = VisitBatch {
            id: crate::codes::random_code(24),
            daily,
            visitors,
            channels,
            breakdowns,
            orphans: Vec::new(),
            behind: false,
        };
        (batch, visits)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::service::engine::breakdown::Traits;

    /// Ten chains in no order, each with a day of `people` and `bots` visits and a visitor,
    /// spread over three parts as shards spread them.
    fn ten_chains(people: i64, bots: i64) -> Backlog {
        let mut backlog = Backlog::new(3);
        for chain in [7, 2, 9, 0, 5, 3, 8, 1, 6, 4] {
            let part = &mut backlog.parts[chain as usize % 3];
            part.daily.insert(
                (ChainId(chain), 0),
                DayCounts {
                    people,
                    bots,
                    ..DayCounts::default()
                },
            );
            part.visitors.insert((ChainId(chain), [chain as u8; 16]));
        }
        backlog
    }

    #[test]
    fn sealing_moves_at_most_the_limit_lowest_chains_first() {
        let mut backlog = ten_chains(2, 1);
        let chains_of = |batch: &VisitBatch| -> (Vec<i64>, Vec<i64>) {
            (
                batch.daily.iter().map(|d| d.chain_id.0).collect(),
                batch.visitors.iter().map(|(chain, _)| chain.0).collect(),
            )
        };
        let (batch, visits, taken) = backlog.seal(15);
        assert_eq!(taken, 15);
        // Chains 0 to 6 whole, then chain 7's day: its visitor did not fit.
        assert_eq!(
            chains_of(&batch),
            ((0..=7).collect::<Vec<_>>(), (0..=6).collect::<Vec<_>>())
        );
        assert_eq!(visits, 24);
        assert_eq!(backlog.entries(), 5);
        let (rest, visits, taken) = backlog.seal(15);
        assert_eq!(chains_of(&rest), (vec![8, 9], vec![7, 8, 9]));
        assert_eq!((visits, taken), (6, 5));
        assert_eq!(backlog.entries(), 0);
        assert_ne!(batch.id, rest.id);
    }

    #[test]
    fn small_batches_of_a_long_backlog_go_in_chain_order() {
        let mut backlog = ten_chains(1, 0);
        let mut sealed = Vec::new();
        while backlog.entries() > 0 {
            let left = backlog.entries();
            let (batch, _, taken) = backlog.seal(3);
            assert_eq!(taken, left.min(3));
            for day in &batch.daily {
                sealed.push(("day", day.chain_id.0));
            }
            for (chain, _) in &batch.visitors {
                sealed.push(("visitor", chain.0));
            }
            // Within a batch, days and visitors each in chain order.
            let chains: Vec<i64> = batch.daily.iter().map(|d| d.chain_id.0).collect();
            assert!(chains.is_sorted(), "{chains:?}");
        }
        let days: Vec<i64> = sealed
            .iter()
            .filter(|(what, _)| *what == "day")
            .map(|(_, chain)| *chain)
            .collect();
        assert_eq!(days, (0..10).collect::<Vec<_>>());
        assert_eq!(sealed.len(), 20);
    }

    #[test]
    fn what_is_taken_between_batches_is_sealed_in_chain_order_with_the_rest() {
        let mut backlog = ten_chains(1, 0);
        let (first, _, _) = backlog.seal(3);
        assert_eq!(first.daily[0].chain_id, ChainId(0));
        // Chain 0 again, on the next day, while the rest of the backlog waits: the batches'
        // order is made again, so it comes first and nothing is left behind.
        let mut more = Pending::default();
        more.daily
            .insert((ChainId(0), 86_400), DayCounts::default());
        more.visitors.insert((ChainId(0), [99; 16]));
        backlog.take(0, more);
        let mut days = Vec::new();
        while backlog.entries() > 0 {
            let (batch, _, taken) = backlog.seal(3);
            assert!(taken > 0);
            days.extend(batch.daily.iter().map(|d| (d.chain_id.0, d.day)));
        }
        assert_eq!(days[0], (0, 86_400));
        assert_eq!(days.len(), 1 + 10 - first.daily.len());
        assert!(days.is_sorted(), "{days:?}");
    }

    #[test]
    fn a_backlog_within_a_batch_is_sealed_whole_in_chain_order() {
        let mut backlog = ten_chains(1, 1);
        let (batch, visits, taken) = backlog.seal(100);
        assert_eq!((visits, taken), (20, 20));
        let days: Vec<i64> = batch.daily.iter().map(|d| d.chain_id.0).collect();
        let visitors: Vec<i64> = batch.visitors.iter().map(|(chain, _)| chain.0).collect();
        assert_eq!(days, (0..10).collect::<Vec<_>>());
        assert_eq!(visitors, (0..10).collect::<Vec<_>>());
        assert_eq!(backlog.entries(), 0);
    }

    #[test]
    fn a_shard_taken_twice_adds_up_in_its_part() {
        let shard = |people| {
            let mut pending = Pending::default();
            pending.daily.insert(
                (ChainId(3), 0),
                DayCounts {
                    people,
                    ..DayCounts::default()
                },
            );
            pending.visitors.insert((ChainId(3), [people as u8; 16]));
            pending
        };
        let mut backlog = Backlog::new(2);
        backlog.take(1, shard(1));
        backlog.take(1, shard(2));
        // One chain-day of three visits, two visitors.
        assert_eq!(backlog.entries(), 3);
        let (batch, visits, taken) = backlog.seal(100);
        assert_eq!((visits, taken), (3, 3));
        assert_eq!(batch.daily.len(), 1);
        assert_eq!(batch.visitors.len(), 2);
    }

    #[test]
    fn a_chain_day_is_sealed_whole_with_its_breakdown_and_its_values_go_last() {
        let mut backlog = Backlog::new(1);
        let pending = &mut backlog.parts[0];
        for chain in 0..3 {
            let counts = pending.daily.entry((ChainId(chain), 0)).or_default();
            counts.people = 2;
            for referrer in ["a.example", "b.example"] {
                let traits = Traits {
                    values: [
                        Some(referrer),
                        Some("mobile"),
                        Some("iOS"),
                        Some("Safari"),
                        Some("CN"),
                        Some("zh"),
                        Some("1"),
                    ],
                };
                counts.breakdown.count(&mut pending.values, &traits);
            }
            pending.breakdown_entries += counts.breakdown.len();
        }
        // 3 chain-days of 1 + 8 entries, and 8 values.
        assert_eq!(pending.entries(), 3 * 9 + 8);
        let (batch, _, taken) = backlog.seal(10);
        assert_eq!(batch.daily.len(), 1);
        assert_eq!(batch.breakdowns.len(), 8);
        assert_eq!(taken, 9);
        let referrers: Vec<_> = batch
            .breakdowns
            .iter()
            .filter(|b| b.dimension == crate::model::Dimension::Referrers)
            .map(|b| (b.value.clone(), b.clicks))
            .collect();
        assert_eq!(
            referrers,
            [(Some("a.example".into()), 1), (Some("b.example".into()), 1)]
        );
        // Values stay while a chain-day may name them, and go with the last.
        assert_eq!(backlog.parts[0].values.len(), 8);
        let (batch, _, taken) = backlog.seal(100);
        assert_eq!(batch.daily.len(), 2);
        assert_eq!(taken, 2 * 9 + 8);
        assert_eq!(backlog.entries(), 0);
    }
}
