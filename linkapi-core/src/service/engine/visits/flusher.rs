//! The flusher: takes what the shards added up, seals batches and writes them, spacing its
//! rounds by what writing costs, and gives memory back after a backlog.

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use tokio::sync::{mpsc, oneshot};

use super::backlog::Backlog;
use super::{
    BATCH_ENTRIES, BATCH_ID_RETENTION, LOG_EVERY, MAX_STRETCH, RELEASE_EVERY, Shared,
    WAIT_PER_WRITE, lock,
};
use crate::locks::Unpoisoned;
use crate::model::Timestamp;
use crate::store::{Store, VisitBatch};

/// How long to wait for the next round of writes after one that took `spent`.
fn next_round(interval: Duration, spent: Duration) -> Duration {
    (spent * WAIT_PER_WRITE).clamp(interval, interval * MAX_STRETCH)
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

pub(super) async fn flush_loop(
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
    // Orphan visits taken from the request path and not yet sealed into a batch.
    let mut orphans = super::OrphanCounts::new();
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
        for (key, visits) in std::mem::take(&mut *shared.orphans.lock().unpoisoned()) {
            *orphans.entry(key).or_default() += visits;
        }
        // Entries that met one already in the backlog merged into it.
        let merged = before + taken - backlog.entries();
        reclaim.held(backlog.entries());
        release(&shared, merged);
        let mut spent = Duration::ZERO;
        let written = loop {
            if sealed.is_none() {
                if backlog.entries() == 0 && orphans.is_empty() {
                    break true;
                }
                let (mut batch, visits, entries) = backlog.seal(BATCH_ENTRIES);
                batch.behind = shared.behind();
                batch.orphans = orphans
                    .drain()
                    .map(
                        |((domain_id, kind, day), visits)| crate::store::OrphanVisits {
                            domain_id,
                            kind,
                            day,
                            visits,
                        },
                    )
                    .collect();
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
}
