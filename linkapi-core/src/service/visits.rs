//! The visit pipeline: every visit that reaches a chain is added up in memory on the request
//! path, and the sums are written by a background task.
//!
//! A visit costs the request a keyed hash and a few hash-map updates under a sharded lock; it
//! waits on the store only while visits pile up faster than the store takes them (past
//! half the memory bound; [`VisitCounter::pace`]). Pending counts are kept per
//! (chain, day) and the visitors seen per chain, so memory grows with distinct chains and
//! visitors, not with visits. At least once per flush interval (and on graceful shutdown)
//! the flusher seals what is pending into a [`VisitBatch`] and writes it in one
//! transaction. A batch is written at most once: it carries an id the store remembers, so
//! retrying one whose commit answer was lost adds nothing. While the store is unavailable
//! the sealed batch is retried every interval and new visits keep merging into the pending
//! counts.
//!
//! Under load the flusher writes less often, so that writing takes about a tenth of its time
//! at most: after a round of writes that took `t`, the next round waits `10 t` if that is
//! longer than the interval, up to five intervals ([`next_round`]). A write's cost is mostly
//! the pages it changes, and at a million chains with visits spread over all of them a round
//! changes most pages of the counter tables whether it holds one second of visits or five:
//! writing a second's worth every second took a fifth of the server's CPU. The price is that
//! statistics lag, and a crash loses, up to five intervals of visits at the busiest (and the
//! visits waiting take memory for that long: five intervals rather than more, measured against
//! the memory goal at a million chains).
//!
//! Memory is bounded by `max_pending` entries (a chain-day, a chain-visitor or a channel-day);
//! a visit that would need a new entry past the bound is not counted, and that is logged and
//! counted in `linkapi_visits_dropped_total`.

use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use tokio::sync::{Notify, mpsc, oneshot};

use super::breakdown::{Breakdown, Traits, Values};
use super::classify::{primary_language, referrer_host};
use super::visitors::VisitRequest;
use crate::locks::Unpoisoned;
use crate::metrics::VisitCounters;
use crate::model::DIRECT;
use crate::model::{ChainId, ChannelId, Timestamp};
use crate::store::{
    BreakdownVisits, ChannelVisits, DailyVisits, Store, VisitBatch, VisitorKey, VisitorSecret,
};

/// Lock shards of the pending counts; visits of one chain always meet the same shard.
const SHARDS: usize = 16;
/// Most entries sealed into one batch, so a backlog is written in bounded transactions.
const BATCH_ENTRIES: usize = 100_000;
/// How long the store remembers written batch ids: a batch retried later than this after a
/// commit whose answer was lost would count twice.
const BATCH_ID_RETENTION: i64 = 86_400;
/// Failed writes logged: the first, then one in this many.
const LOG_EVERY: u64 = 60;
/// The flusher waits at least this many times as long as its last round of writes took.
const WAIT_PER_WRITE: u32 = 10;
/// The longest wait between rounds, in flush intervals.
const MAX_STRETCH: u32 = 5;
/// The flusher is behind once pending entries pass `max_pending` divided by this: half.
/// Under saturating load it is this point that spaces the rounds (held visits wake the
/// flusher), and a round's writes cost per distinct chain-day, which grow slower than its
/// visits: at a million chains under Zipf traffic the SQLite writer took 0.47-0.63 µs a visit
/// with half, 0.81-0.88 with a quarter. Its memory fits the RSS goal with large allocations
/// mapped on their own (`crate::heap`; docs/decisions.md).
const BEHIND_FRACTION: usize = 2;
/// The longest a visit is held back while the flusher is behind (see [`VisitCounter::pace`]),
/// whether or not a batch was written meanwhile: under saturating load at a million chains a
/// batch took about 0.4 s to write, so a visit waits for part of one at most.
const PACE_WAIT: Duration = Duration::from_millis(250);
/// Memory freed by a written backlog of at least a batch is given back to the operating
/// system at most this often: under steady load the next backlog would take it again at
/// once, and giving it back walks the whole heap.
const RELEASE_EVERY: Duration = Duration::from_secs(60);

/// How long to wait for the next round of writes after one that took `spent`.
fn next_round(interval: Duration, spent: Duration) -> Duration {
    (spent * WAIT_PER_WRITE).clamp(interval, interval * MAX_STRETCH)
}

/// The rule of a visit a redirect rule served: its position, from 1.
const RULE_NAMES: [&str; crate::model::MAX_REDIRECT_RULES] = [
    "1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "13", "14", "15", "16", "17",
    "18", "19", "20",
];

/// What a visit is, once classified ([`App::classify_visit`](super::App::classify_visit)).
pub(super) struct ClassifiedVisit {
    /// What its user agent is.
    agent: std::sync::Arc<super::classify::AgentClass>,
    /// A bot's visit (its agent's, or a `HEAD` request).
    bot: bool,
    /// The host it was referred from; `None` for a bot's or when there was none.
    referrer: Option<String>,
    /// Its country, when a database knows its address.
    country: Option<super::classify::Country>,
    /// Its language.
    language: Option<super::classify::Language>,
}

impl ClassifiedVisit {
    /// What redirect rules look at, for a visit with `request`.
    pub(super) fn for_rules<'a>(
        &'a self,
        request: &VisitRequest<'a>,
    ) -> super::rules::RuleVisit<'a> {
        super::rules::RuleVisit {
            agent: &self.agent,
            country: self.country,
            language: self.language,
            query: request.query,
        }
    }
}

/// foldhash rather than SipHash for the pending maps: their keys are chain ids, days and
/// visitor keys, which are already keyed hashes, so nobody can aim collisions at them, and
/// this runs on every visit.
type FastHash = foldhash::fast::RandomState;

/// A chain-day's pending counts.
#[derive(Default, Debug)]
struct DayCounts {
    /// Visits by people.
    people: i64,
    /// Visits by bots.
    bots: i64,
    /// People's visits per dimension and value.
    breakdown: Breakdown,
}

/// Counts pending for the store.
#[derive(Default)]
struct Pending {
    /// Per (chain, day).
    daily: HashMap<(ChainId, Timestamp), DayCounts, FastHash>,
    /// Visitors (people) seen per chain.
    visitors: HashSet<(ChainId, VisitorKey), FastHash>,
    /// (channel, day) to visits, for channels without a limit.
    channels: HashMap<(ChannelId, Timestamp), i64, FastHash>,
    /// The breakdowns' values.
    values: Values,
    /// Entries of every chain-day's breakdown.
    breakdown_entries: usize,
}

impl Pending {
    fn entries(&self) -> usize {
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
struct Backlog {
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
    fn new(parts: usize) -> Self {
        Backlog {
            order: None,
            parts: (0..parts).map(|_| Pending::default()).collect(),
        }
    }

    fn entries(&self) -> usize {
        self.parts.iter().map(Pending::entries).sum()
    }

    /// Adds the counts taken from shard `at`.
    fn take(&mut self, at: usize, pending: Pending) {
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
    fn seal(&mut self, limit: usize) -> (VisitBatch, u64, usize) {
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
            behind: false,
        };
        (batch, visits)
    }
}

/// When the memory a written backlog freed is given back to the operating system: once the
/// backlog is empty after holding a batch or more, at most every [`RELEASE_EVERY`] (and then
/// at the first empty backlog after it, so the last burst's memory goes back too).
#[derive(Default)]
struct Reclaim {
    /// The most entries the backlog held since it was last empty.
    peak: usize,
    /// Whether a backlog of a batch or more was written since memory was last given back.
    owed: bool,
    /// When memory was last given back.
    last: Option<Instant>,
}

impl Reclaim {
    /// The backlog holds `entries` now.
    fn held(&mut self, entries: usize) {
        self.peak = self.peak.max(entries);
    }

    /// The backlog is empty; returns whether to give memory back now.
    fn drained(&mut self, now: Instant) -> bool {
        self.owed |= self.peak >= BATCH_ENTRIES;
        self.peak = 0;
        let due = self.owed
            && self
                .last
                .is_none_or(|at| now.saturating_duration_since(at) >= RELEASE_EVERY);
        if due {
            self.owed = false;
            self.last = Some(now);
        }
        due
    }
}

/// State shared by the request path and the flusher.
struct Shared {
    shards: Box<[Mutex<Pending>]>,
    /// Entries pending in the shards and the flusher's backlog.
    entries: AtomicUsize,
    max_entries: usize,
    metrics: VisitCounters,
    /// Wakes visits held back by [`VisitCounter::pace`] when a batch is written.
    written: Notify,
    /// Wakes the flusher for a round now: visits are held back for it.
    wanted: Notify,
    /// Whether the store took the last batch it was given: a failing store is not waited
    /// for (an outage must not slow redirects; its visits wait up to the bound instead).
    store_writes: AtomicBool,
}

impl Shared {
    /// Whether visits are piling up faster than they are written: entries waiting past
    /// half the bound. A batch sealed then is written as fast as the store can
    /// ([`VisitBatch::behind`]) rather than giving way to requests, which would let the
    /// entries grow on toward the bound, where visits are dropped.
    fn behind(&self) -> bool {
        self.entries.load(Ordering::Relaxed) > self.max_entries / BEHIND_FRACTION
    }
}

fn lock(shard: &Mutex<Pending>) -> MutexGuard<'_, Pending> {
    // A panic while counting leaves consistent-enough counts; keep counting.
    shard.lock().unpoisoned()
}

/// The request path's handle on the pipeline.
pub(super) struct VisitCounter {
    shared: Arc<Shared>,
    /// Flush requests; answered with whether nothing is left unwritten. Dropping it stops the
    /// flusher after a last flush.
    flushes: mpsc::Sender<oneshot::Sender<bool>>,
}

/// Settings of the pipeline.
#[derive(Debug, Clone, Copy)]
pub(super) struct VisitSettings {
    pub(super) flush_interval: Duration,
    pub(super) max_pending: usize,
}

impl VisitCounter {
    /// Starts the flusher. Must run inside a tokio runtime.
    pub(super) fn start(
        store: Arc<dyn Store>,
        clock: Arc<dyn crate::clock::Clock>,
        settings: VisitSettings,
        metrics: VisitCounters,
    ) -> Self {
        let shared = Arc::new(Shared {
            shards: (0..SHARDS).map(|_| Mutex::default()).collect(),
            entries: AtomicUsize::new(0),
            max_entries: settings.max_pending.max(1),
            metrics,
            written: Notify::new(),
            wanted: Notify::new(),
            store_writes: AtomicBool::new(true),
        });
        let (flushes, requests) = mpsc::channel(16);
        tokio::spawn(flush_loop(
            shared.clone(),
            store,
            clock,
            settings.flush_interval,
            requests,
        ));
        VisitCounter { shared, flushes }
    }

    /// Counts one visit of `chain_id` on the day starting at `day`; `visitor` is `None` for
    /// bots; `channel` is the channel (without a limit) the visit got, if any. Returns
    /// `false` when the visit could not be counted (memory bound reached).
    pub(super) fn record(
        &self,
        chain_id: ChainId,
        day: Timestamp,
        visitor: Option<VisitorKey>,
        channel: Option<ChannelId>,
        traits: Option<&Traits<'_>>,
    ) -> bool {
        let shared = &*self.shared;
        let index = (chain_id.0.unsigned_abs() % SHARDS as u64) as usize;
        let mut guard = lock(&shared.shards[index]);
        let Pending {
            daily,
            visitors,
            channels,
            values,
            breakdown_entries,
        } = &mut *guard;
        // One lookup of the chain-day, whether or not it is new (this runs on every visit).
        let chain_day = daily.entry((chain_id, day));
        let new_day = matches!(chain_day, std::collections::hash_map::Entry::Vacant(_));
        let new_visitor = visitor.is_some_and(|v| !visitors.contains(&(chain_id, v)));
        let new_channel = channel.is_some_and(|c| !channels.contains_key(&(c, day)));
        let needed = usize::from(new_day) + usize::from(new_visitor) + usize::from(new_channel);
        // The breakdown's new entries are counted once made (below): a chain-day holds at most
        // a few hundred and a dimension's values are capped, so bounding chain-days, visitors
        // and channels bounds them too.
        if needed > 0 {
            let before = shared.entries.fetch_add(needed, Ordering::Relaxed);
            if before + needed > shared.max_entries {
                shared.entries.fetch_sub(needed, Ordering::Relaxed);
                drop(guard);
                let dropped = shared.metrics.dropped.inc() + 1;
                if dropped.is_power_of_two() {
                    tracing::error!(
                        dropped,
                        "visit counts waiting for the store reached their memory bound; \
                         visits are not being counted"
                    );
                }
                return false;
            }
            shared.metrics.pending_entries.inc_by(needed as i64);
        }
        let counts = chain_day.or_default();
        match visitor {
            Some(v) => {
                counts.people += 1;
                if new_visitor {
                    visitors.insert((chain_id, v));
                }
            }
            None => counts.bots += 1,
        }
        let mut added = 0;
        if let Some(traits) = traits {
            let (pairs, interned) = (counts.breakdown.len(), values.len());
            counts.breakdown.count(values, traits);
            *breakdown_entries += counts.breakdown.len() - pairs;
            added = counts.breakdown.len() - pairs + values.len() - interned;
        }
        if let Some(channel) = channel {
            *channels.entry((channel, day)).or_default() += 1;
        }
        drop(guard);
        if added > 0 {
            shared.entries.fetch_add(added, Ordering::Relaxed);
            shared.metrics.pending_entries.inc_by(added as i64);
        }
        shared.metrics.queued.inc();
        true
    }

    /// Holds a visit back, before it is resolved or counted, while visits are counted faster
    /// than the store takes them: past half the bound, until the next batch is
    /// written (the flusher starts a round at once) or [`PACE_WAIT`] at most.
    /// On a saturated core the flusher gets the CPU only when requests leave it some; without
    /// this, a million chains under uniform load on a fast machine piled up 840,000 entries
    /// in a minute (RSS 288 MB) on their way to the bound, past which visits are dropped.
    /// Holding redirects back slows them to the pace the store writes at, and counts them
    /// all. Not while the store fails: an outage keeps redirects as fast as the cache allows.
    pub(super) async fn pace(&self) {
        if !self.holds_back() {
            return;
        }
        let shared = &*self.shared;
        shared.metrics.paced.inc();
        let written = shared.written.notified();
        // The flusher may be waiting out the spacing between rounds; held-back visits are
        // what it would space them for.
        shared.wanted.notify_one();
        let _ = tokio::time::timeout(PACE_WAIT, written).await;
    }

    /// Whether [`VisitCounter::pace`] holds visits back now.
    pub(super) fn holds_back(&self) -> bool {
        let shared = &*self.shared;
        shared.behind() && shared.store_writes.load(Ordering::Relaxed)
    }

    /// Writes every visit counted before the call. Returns `false` when some could not be
    /// written (the store is failing); they stay pending.
    pub(super) async fn flush(&self) -> bool {
        let (done, answer) = oneshot::channel();
        if self.flushes.send(done).await.is_err() {
            return false;
        }
        answer.await.unwrap_or(false)
    }
}

async fn flush_loop(
    shared: Arc<Shared>,
    store: Arc<dyn Store>,
    clock: Arc<dyn crate::clock::Clock>,
    interval: Duration,
    mut requests: mpsc::Receiver<oneshot::Sender<bool>>,
) {
    let mut backlog = Backlog::new(shared.shards.len());
    // A batch sealed but not yet known to be written, with the visits it holds. Shared with
    // the store rather than copied per attempt: a batch at a million chains is tens of
    // thousands of rows, each breakdown's value a string.
    let mut sealed: Option<(Arc<VisitBatch>, u64, usize)> = None;
    let mut failures: u64 = 0;
    let mut wait = interval;
    let mut open = true;
    let mut reclaim = Reclaim::default();
    while open {
        let waiter = tokio::select! {
            _ = tokio::time::sleep(wait) => None,
            () = shared.wanted.notified() => None,
            request = requests.recv() => match request {
                Some(done) => Some(done),
                None => {
                    open = false;
                    None
                }
            },
        };
        // Take what the request path added up.
        let before = backlog.entries();
        let mut taken = 0;
        for (at, shard) in shared.shards.iter().enumerate() {
            let pending = std::mem::take(&mut *lock(shard));
            taken += pending.entries();
            backlog.take(at, pending);
            // This task runs on a thread that serves requests: let them in between shards
            // (merged into a part that still holds entries, a shard at a million chains is a
            // few thousand entries to merge).
            tokio::task::yield_now().await;
        }
        // Entries that met one already in the backlog merged into it.
        let merged = before + taken - backlog.entries();
        reclaim.held(backlog.entries());
        release(&shared, merged);
        let mut spent = Duration::ZERO;
        let written = loop {
            if sealed.is_none() {
                if backlog.entries() == 0 {
                    break true;
                }
                let (mut batch, visits, entries) = backlog.seal(BATCH_ENTRIES);
                batch.behind = shared.behind();
                sealed = Some((Arc::new(batch), visits, entries));
            }
            let Some((batch, visits, entries)) = &sealed else {
                break true;
            };
            let started = Instant::now();
            match add_batch(&*store, Arc::clone(batch), clock.now()).await {
                Ok(()) => {
                    let took = started.elapsed();
                    spent += took;
                    shared.metrics.flush_seconds.observe(took.as_secs_f64());
                    shared.metrics.written.inc_by(*visits);
                    release(&shared, *entries);
                    shared.store_writes.store(true, Ordering::Relaxed);
                    shared.written.notify_waiters();
                    if failures > 0 {
                        tracing::info!(failures, "visit counts are being written again");
                    }
                    failures = 0;
                    sealed = None;
                }
                Err(err) => {
                    shared.metrics.store_errors.inc();
                    shared.store_writes.store(false, Ordering::Relaxed);
                    shared.written.notify_waiters();
                    if failures.is_multiple_of(LOG_EVERY) {
                        tracing::warn!(
                            error = %err,
                            pending_entries = shared.entries.load(Ordering::Relaxed),
                            "writing visit counts failed; keeping them to retry"
                        );
                    }
                    failures += 1;
                    break false;
                }
            }
        };
        if backlog.entries() == 0 {
            // Emptied maps keep their tables: 20 MB held for the next backlog after a uniform
            // run at a million chains (docs/decisions.md). Start small again instead.
            backlog = Backlog::new(shared.shards.len());
            if reclaim.drained(Instant::now()) {
                tokio::task::spawn_blocking(crate::heap::release_free_memory);
            }
        }
        // A failing store is tried again every interval, however long the failure took.
        wait = if written {
            next_round(interval, spent)
        } else {
            interval
        };
        if let Some(done) = waiter {
            let _ = done.send(written);
        }
        if !open && !written {
            tracing::error!(
                pending_entries = shared.entries.load(Ordering::Relaxed),
                "visit counts lost at shutdown: the store did not take them"
            );
        }
    }
}

fn release(shared: &Shared, entries: usize) {
    shared.entries.fetch_sub(entries, Ordering::Relaxed);
    shared.metrics.pending_entries.dec_by(entries as i64);
}

async fn add_batch(
    store: &dyn Store,
    batch: Arc<VisitBatch>,
    now: Timestamp,
) -> crate::store::StoreResult<()> {
    store
        .add_visits(batch, now, now - BATCH_ID_RETENTION)
        .await
        .map(|_| ())
}

impl super::App {
    /// Counts a visit of `chain_id`. Never waits on the store: the count is written within
    /// the flush interval. The redirect path counts its visits through
    /// [`App::visit`](super::App::visit); this is for a program embedding the service that
    /// counts visits it served itself (and for the statistics benchmark).
    pub fn record_visit(&self, chain_id: ChainId, request: VisitRequest<'_>) {
        self.record_channel_visit(chain_id, None, request);
    }

    /// Counts a visit of `chain_id` that got `channel` (a channel without a limit; limited
    /// ones were counted when the visit was taken).
    pub(super) fn record_channel_visit(
        &self,
        chain_id: ChainId,
        channel: Option<ChannelId>,
        request: VisitRequest<'_>,
    ) {
        let visit = self.classify_visit(&request);
        self.record_classified(chain_id, channel, &request, &visit, None);
    }

    /// What a visit is: a bot's or a person's, and what its breakdowns and redirect rules
    /// look at. Once per visit.
    pub(super) fn classify_visit(&self, request: &VisitRequest<'_>) -> ClassifiedVisit {
        let agent = self.inner.agents.class(request.user_agent);
        let bot = request.head || agent.bot;
        ClassifiedVisit {
            // A bot's referrer is counted nowhere.
            referrer: if bot {
                None
            } else {
                referrer_host(request.referer)
            },
            country: self
                .config()
                .geo
                .as_ref()
                .and_then(|geo| geo.country(request.address)),
            language: primary_language(request.accept_language),
            bot,
            agent,
        }
    }

    /// Counts a classified visit of `chain_id` that got `channel` (one without a limit), and
    /// was served by redirect rule `rule` (its position from 0), if any.
    pub(super) fn record_classified(
        &self,
        chain_id: ChainId,
        channel: Option<ChannelId>,
        request: &VisitRequest<'_>,
        visit: &ClassifiedVisit,
        rule: Option<usize>,
    ) {
        let day = self.config().calendar.day_start(self.now());
        if visit.bot {
            self.inner.visits.record(chain_id, day, None, channel, None);
            return;
        }
        let visitor = self
            .inner
            .visitor_keys
            .key(request.address, request.user_agent);
        let traits = Traits {
            // None: the dimension's implicit value, not stored.
            values: [
                Some(visit.referrer.as_deref().unwrap_or(DIRECT)),
                Some(visit.agent.device.name()),
                Some(&visit.agent.os),
                Some(&visit.agent.browser),
                visit.country.as_ref().map(|c| c.as_str()),
                visit.language.as_ref().map(|l| l.as_str()),
                rule.and_then(|at| RULE_NAMES.get(at)).copied(),
            ],
        };
        self.inner
            .visits
            .record(chain_id, day, Some(visitor), channel, Some(&traits));
    }

    /// The visitor secret in use, made on first start. Instances starting together may each
    /// make one; the newest wins everywhere through the change feed.
    pub(super) async fn visitor_secret(
        store: &dyn Store,
        clock: &dyn crate::clock::Clock,
    ) -> crate::error::Result<VisitorSecret> {
        if let Some(secret) = store.visitor_secret().await? {
            return Ok(secret);
        }
        Self::insert_visitor_secret(store, clock.now()).await
    }

    async fn insert_visitor_secret(
        store: &dyn Store,
        now: Timestamp,
    ) -> crate::error::Result<VisitorSecret> {
        let secret: [u8; 16] = rand::random();
        let (inserted, _) = crate::store::transact(store, move |tx| {
            Box::pin(async move {
                let inserted = tx.insert_visitor_secret(secret, now).await?;
                tx.publish(crate::store::Invalidation::VisitorSecret)
                    .await?;
                Ok(inserted)
            })
        })
        .await?;
        Ok(inserted)
    }

    /// Starts counting visitors with a new secret (scope `admin`). A visitor seen before the
    /// rotation counts once more as unique after it: rotation unlinks old keys from new ones.
    ///
    /// # Errors
    /// When the store fails.
    pub async fn rotate_visitor_secret(&self) -> crate::error::Result<Timestamp> {
        let inserted = Self::insert_visitor_secret(self.store(), self.now()).await?;
        let at = inserted.created_at;
        self.inner.visitor_keys.replace(inserted);
        Ok(at)
    }

    /// Reloads the visitor secret after another instance rotated it.
    pub(super) async fn reload_visitor_secret(&self) -> crate::error::Result<()> {
        if let Some(secret) = self.store().visitor_secret().await? {
            self.inner.visitor_keys.replace(secret);
        }
        Ok(())
    }

    /// When the visitor secret in use was made.
    pub fn visitor_secret_since(&self) -> Timestamp {
        self.inner.visitor_keys.current().created_at
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rounds_of_writes_wait_ten_times_their_cost_within_five_intervals() {
        let second = Duration::from_secs(1);
        assert_eq!(next_round(second, Duration::from_millis(20)), second);
        assert_eq!(next_round(second, Duration::from_millis(100)), second);
        assert_eq!(
            next_round(second, Duration::from_millis(350)),
            Duration::from_millis(3_500)
        );
        assert_eq!(next_round(second, Duration::from_secs(4)), 5 * second);
    }

    fn shared(shards: usize, max_entries: usize) -> Shared {
        Shared {
            shards: (0..shards).map(|_| Mutex::default()).collect(),
            entries: AtomicUsize::new(0),
            max_entries,
            metrics: crate::metrics::Metrics::new().visits.clone(),
            written: Notify::new(),
            wanted: Notify::new(),
            store_writes: AtomicBool::new(true),
        }
    }

    #[test]
    fn the_flusher_is_behind_once_half_the_bound_waits() {
        let shared = shared(0, 2_000);
        assert!(!shared.behind());
        shared.entries.store(1_000, Ordering::Relaxed);
        assert!(!shared.behind());
        shared.entries.store(1_001, Ordering::Relaxed);
        assert!(shared.behind());
    }

    /// A counter with no flusher: nothing it counts is written, as while the store fails.
    fn unwritten(max_entries: usize) -> VisitCounter {
        VisitCounter {
            shared: Arc::new(shared(SHARDS, max_entries)),
            flushes: mpsc::channel(1).0,
        }
    }

    #[test]
    fn past_the_bound_visits_needing_new_entries_are_dropped_and_counted() {
        // A chain-day and two visitors; bots need no visitor entry.
        let counter = unwritten(3);
        let (chain, day) = (ChainId(7), 86_400);
        assert!(counter.record(chain, day, Some([1; 16]), None, None));
        assert!(counter.record(chain, day, Some([2; 16]), None, None));
        assert!(!counter.record(chain, day, Some([3; 16]), None, None));
        assert!(!counter.record(ChainId(8), day, None, None, None));
        // Known visitors and bots of a counted day need nothing new.
        assert!(counter.record(chain, day, Some([1; 16]), None, None));
        assert!(counter.record(chain, day, None, None, None));
        let shared = &counter.shared;
        assert_eq!(shared.entries.load(Ordering::Relaxed), 3);
        assert_eq!(shared.metrics.dropped.get(), 2);
        assert_eq!(shared.metrics.queued.get(), 4);
    }

    #[tokio::test]
    async fn a_failing_store_holds_no_visit_back() {
        let counter = unwritten(4);
        counter.shared.entries.store(3, Ordering::Relaxed);
        counter.shared.store_writes.store(false, Ordering::Relaxed);
        tokio::time::timeout(PACE_WAIT / 5, counter.pace())
            .await
            .expect("a visit was held back for a store that fails");
        assert_eq!(counter.shared.metrics.paced.get(), 0);
        // A working one does, until a batch is written or the wait is over.
        counter.shared.store_writes.store(true, Ordering::Relaxed);
        let started = Instant::now();
        counter.pace().await;
        assert!(started.elapsed() >= PACE_WAIT);
        assert_eq!(counter.shared.metrics.paced.get(), 1);
    }

    #[test]
    fn memory_is_given_back_after_a_backlog_of_a_batch_at_most_once_a_minute() {
        let start = Instant::now();
        let mut reclaim = Reclaim::default();
        reclaim.held(BATCH_ENTRIES - 1);
        assert!(!reclaim.drained(start), "a backlog under a batch");
        reclaim.held(BATCH_ENTRIES);
        assert!(reclaim.drained(start), "the first backlog of a batch");
        reclaim.held(BATCH_ENTRIES * 10);
        assert!(
            !reclaim.drained(start + RELEASE_EVERY / 2),
            "within a minute of the last"
        );
        reclaim.held(10);
        assert!(
            reclaim.drained(start + RELEASE_EVERY),
            "the backlog held back is given back at the first empty one after the minute"
        );
        reclaim.held(10);
        assert!(
            !reclaim.drained(start + RELEASE_EVERY * 3),
            "nothing owed since"
        );
    }

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
