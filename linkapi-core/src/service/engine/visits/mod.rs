//! The visit pipeline: every visit that reaches a chain is added up in memory on the request
//! path, and the sums are written by a background task.
//!
//! A visit costs the request a keyed hash and a few hash-map updates under a sharded lock; it
//! waits on the store only while visits pile up faster than the store takes them (past
//! half the memory bound; [`VisitCounter::pace`]). Pending counts are kept per
//! (chain, day) and the visitors seen per chain, so memory grows with distinct chains and
//! visitors, not with visits. At least once per flush interval (and on graceful shutdown)
//! the flusher seals what is pending into a [`VisitBatch`](crate::store::VisitBatch) and writes it in one
//! transaction. A batch is written at most once: it carries an id the store remembers, so
//! retrying one whose commit answer was lost adds nothing. While the store is unavailable
//! the sealed batch is retried every interval and new visits keep merging into the pending
//! counts.
//!
//! Under load the flusher writes less often, so that writing takes about a tenth of its time
//! at most: after a round of writes that took `t`, the next round waits `10 t` if that is
//! longer than the interval, up to five intervals (`flusher::next_round`). A write's cost is mostly
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
//!
//! Orphan visits (requests that reached no chain) are added up beside them, per domain, kind
//! and day, at most [`MAX_ORPHAN_KEYS`] of those, and written with the next batch: a 404
//! costs one lock of a small map.
//!
//! Here: the request path's side ([`VisitCounter`], classification, the shards). `backlog`:
//! what the flusher took from the shards and how it is sealed into batches in chain order.
//! `flusher`: the rounds of writes, their spacing and giving memory back. The keys unique
//! visitors are counted by are `engine::visitors`', made with the secret of
//! `service::visitor_secret`.

mod backlog;
mod flusher;

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use tokio::sync::{Notify, mpsc, oneshot};

use backlog::Pending;
use flusher::flush_loop;

use super::breakdown::Traits;
use super::rule_match::RuleVisit;
use super::visitors::VisitRequest;
use crate::locks::Unpoisoned;
use crate::metrics::VisitCounters;
use crate::model::{ChainId, ChannelId, DomainId, OrphanKind, Timestamp};
use crate::store::{Store, VisitorKey};

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
/// Orphan visits' (domain, kind, day) keys pending at most: domains are the operator's few,
/// so this is room for every domain's kinds over the days a flush could be late by.
const MAX_ORPHAN_KEYS: usize = 10_000;
/// Orphan visits pending, per domain, kind and day.
pub(super) type OrphanCounts = std::collections::HashMap<(DomainId, OrphanKind, Timestamp), i64>;
/// The rule of a visit a redirect rule served: its position, from 1.
pub(crate) const RULE_NAMES: [&str; crate::model::MAX_REDIRECT_RULES] = [
    "1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "13", "14", "15", "16", "17",
    "18", "19", "20",
];

/// What a visit is, once classified (`App::classify_visit`).
pub(crate) struct ClassifiedVisit {
    /// What its user agent is.
    pub(crate) agent: std::sync::Arc<super::classify::AgentClass>,
    /// A bot's visit (its agent's, or a `HEAD` request).
    pub(crate) bot: bool,
    /// The host it was referred from; `None` for a bot's or when there was none.
    pub(crate) referrer: Option<String>,
    /// Its country, when a database knows its address.
    pub(crate) country: Option<super::classify::Country>,
    /// Its language.
    pub(crate) language: Option<super::classify::Language>,
}

impl ClassifiedVisit {
    /// What redirect rules look at, for a visit with `request`.
    pub(crate) fn for_rules<'a>(&'a self, request: &VisitRequest<'a>) -> RuleVisit<'a> {
        RuleVisit {
            agent: &self.agent,
            country: self.country,
            language: self.language,
            query: request.query,
        }
    }
}

/// State shared by the request path and the flusher.
struct Shared {
    shards: Box<[Mutex<Pending>]>,
    /// Orphan visits, apart from the shards: taken whole by each round.
    orphans: Mutex<OrphanCounts>,
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
    /// ([`VisitBatch::behind`](crate::store::VisitBatch::behind)) rather than giving way to requests, which would let the
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
pub(crate) struct VisitCounter {
    shared: Arc<Shared>,
    /// Flush requests; answered with whether nothing is left unwritten. Dropping it stops the
    /// flusher after a last flush.
    flushes: mpsc::Sender<oneshot::Sender<bool>>,
}

/// Settings of the pipeline.
#[derive(Debug, Clone, Copy)]
pub(crate) struct VisitSettings {
    pub(crate) flush_interval: Duration,
    pub(crate) max_pending: usize,
}

impl VisitCounter {
    /// Starts the flusher. Must run inside a tokio runtime.
    pub(crate) fn start(
        store: Arc<dyn Store>,
        clock: Arc<dyn crate::clock::Clock>,
        settings: VisitSettings,
        metrics: VisitCounters,
    ) -> Self {
        let shared = Arc::new(Shared {
            shards: (0..SHARDS).map(|_| Mutex::default()).collect(),
            orphans: Mutex::default(),
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
    pub(crate) fn record(
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

    /// Counts one orphan visit of `domain` asking for `kind` on the day starting at `day`.
    /// Returns `false` when it could not be counted (its map full).
    pub(crate) fn record_orphan(&self, domain: DomainId, kind: OrphanKind, day: Timestamp) -> bool {
        let mut orphans = self.shared.orphans.lock().unpoisoned();
        let key = (domain, kind, day);
        if let Some(visits) = orphans.get_mut(&key) {
            *visits += 1;
            return true;
        }
        if orphans.len() >= MAX_ORPHAN_KEYS {
            drop(orphans);
            self.shared.metrics.dropped.inc();
            return false;
        }
        orphans.insert(key, 1);
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
    pub(crate) async fn pace(&self) {
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
    pub(crate) fn holds_back(&self) -> bool {
        let shared = &*self.shared;
        shared.behind() && shared.store_writes.load(Ordering::Relaxed)
    }

    /// Writes every visit counted before the call. Returns `false` when some could not be
    /// written (the store is failing); they stay pending.
    pub(crate) async fn flush(&self) -> bool {
        let (done, answer) = oneshot::channel();
        if self.flushes.send(done).await.is_err() {
            return false;
        }
        answer.await.unwrap_or(false)
    }
}

#[cfg(test)]
mod tests {
    use std::time::Instant;

    use super::*;

    fn shared(shards: usize, max_entries: usize) -> Shared {
        Shared {
            shards: (0..shards).map(|_| Mutex::default()).collect(),
            orphans: Mutex::default(),
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
}
