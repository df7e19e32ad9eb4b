//! The writer thread: the one connection that writes, and group commit.
//!
//! SQLite takes one writer at a time and a durable commit costs an fsync, so committing each
//! transaction body on its own caps writes at the disk's fsync rate. Instead the thread takes
//! every body that is waiting, runs each inside its own savepoint of one transaction, and
//! commits once: one fsync for the group. A body that fails rolls back to its savepoint alone.
//! No body's caller hears "done" before the commit that holds its writes returned; if that
//! commit fails, every body in the group fails with it.
//!
//! A savepoint is not free: SQLite copies every page a body changes into a statement journal
//! (a temporary file) first, so that it can roll back to the savepoint. For a visit flush,
//! which changes pages all over the counter tables, that copy was a third of its cost. So a
//! group of one body runs without one (its rollback is the transaction's), and a job may ask
//! to be committed alone (`Job::alone`).
//!
//! A long transaction (a visit flush at a million chains runs for tens to hundreds of
//! milliseconds) must not hold up requests where the writer shares a core with the threads
//! serving them: the scheduler lets a running thread finish its time slice (milliseconds)
//! before a request's thread it woke gets the core, which put a flush's length into the
//! redirect's tail (paced p99 3.9 ms against 0.7 ms for a bare server, measured). So the
//! writer offers the CPU ([`std::thread::yield_now`]) every [`YIELD_EVERY`] of statements: a
//! waiting request runs at once, and with nobody waiting the yield returns at once. It keeps
//! its fair share, so a saturated server still writes its visits (a lower scheduling priority
//! would starve them, and an unprivileged process cannot raise its priority back). Still,
//! yielding to a thread that always has requests leaves the writer less than its share: a
//! visit flush written while visits pile up (`Job::hurry`, [`crate::store::VisitBatch::behind`])
//! does not yield, or on a saturated core they would pile up further (measured at a million
//! chains, Zipf-distributed codes, 50 s on one saturated core: 870,000 entries waiting at the
//! end without the rule, about 500,000, the pacing point then, with it).
//!
//! Bodies are async (the same bodies run on PostgreSQL) but every [`Tx`] method here is
//! synchronous, so a body completes on its first poll. One that does not has awaited something
//! other than its `Tx`; it is dropped, its savepoint rolled back, and its caller told so.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, mpsc};
use std::task::{Context, Poll, Waker};
use std::time::{Duration, Instant};

use rusqlite::Connection;
use tokio::sync::oneshot;

use super::{SqliteTx, command};
use crate::store::{Invalidation, Misuse, StoreError, StoreResult, TxBody};

/// Most bodies committed together; bounds how long one group holds the write lock.
const MAX_GROUP: usize = 512;

/// A write transaction that waited this long for the lock (which a checkpoint starting the log
/// over holds) or to commit (the log's sync: the disk) is logged with where its time went, as
/// is one whose bodies ran four times as long (a large bulk create runs about a second).
/// Every write behind it waited as long.
const SLOW: Duration = Duration::from_millis(250);

/// How long the writer runs statements before it offers the CPU to a waiting thread.
const YIELD_EVERY: Duration = Duration::from_micros(200);
/// SQLite virtual-machine steps between checks of [`YIELD_EVERY`]: a few microseconds of work,
/// so a check (a read of the clock) costs well under 1% of it.
const YIELD_CHECK_OPS: std::ffi::c_int = 1000;

/// One transaction body waiting for the writer, and where its outcome goes.
pub(super) struct Job {
    pub(super) body: TxBody,
    pub(super) done: oneshot::Sender<StoreResult<Vec<Invalidation>>>,
    /// Committed in a transaction of its own, never grouped: for a large body, which a
    /// savepoint would make pay for a copy of every page it changes.
    pub(super) alone: bool,
    /// Run without yielding: a visit flush written while visits pile up.
    pub(super) hurry: bool,
}

/// Starts the writer thread on `conn`. It ends when every sender is dropped. `commits` counts
/// every commit before its callers hear of it (see `commit`).
pub(super) fn spawn(
    mut conn: Connection,
    commits: Arc<AtomicU64>,
) -> std::io::Result<mpsc::Sender<Job>> {
    let (jobs, queue) = mpsc::channel::<Job>();
    // Whether the group running now may yield; set by the thread before each group.
    let yielding = Arc::new(AtomicBool::new(true));
    let may_yield = yielding.clone();
    let mut since_yield = Instant::now();
    conn.progress_handler(
        YIELD_CHECK_OPS,
        Some(move || {
            if may_yield.load(Ordering::Relaxed) && since_yield.elapsed() >= YIELD_EVERY {
                std::thread::yield_now();
                since_yield = Instant::now();
            }
            // Never interrupt the statement.
            false
        }),
    )
    .map_err(std::io::Error::other)?;
    std::thread::Builder::new()
        .name("sqlite-writer".into())
        .spawn(move || run(conn, &queue, &commits, &yielding))?;
    Ok(jobs)
}

fn run(
    mut conn: Connection,
    queue: &mpsc::Receiver<Job>,
    commits: &AtomicU64,
    yielding: &AtomicBool,
) {
    // A job that must go alone, taken off the queue while a group was being gathered.
    let mut next: Option<Job> = None;
    loop {
        let first = match next.take() {
            Some(job) => job,
            None => match queue.recv() {
                Ok(job) => job,
                Err(_) => return,
            },
        };
        let mut group = vec![first];
        while !group[0].alone && group.len() < MAX_GROUP {
            match queue.try_recv() {
                Ok(job) if job.alone => {
                    next = Some(job);
                    break;
                }
                Ok(job) => group.push(job),
                Err(_) => break,
            }
        }
        yielding.store(!group.iter().any(|job| job.hurry), Ordering::Relaxed);
        commit_group(&mut conn, group, commits);
    }
}

fn commit_group(conn: &mut Connection, mut group: Vec<Job>, commits: &AtomicU64) {
    let began = Instant::now();
    if let Err(err) = command(conn, "BEGIN IMMEDIATE") {
        fail_all(group, &err);
        return;
    }
    let timing = Timing {
        began,
        locked: Instant::now(),
        bodies: group.len(),
    };
    if group.len() == 1
        && let Some(job) = group.pop()
    {
        commit_alone(conn, job, commits, &timing);
        return;
    }
    let mut outcomes = Vec::with_capacity(group.len());
    for mut job in group {
        match run_in_savepoint(conn, &mut job.body) {
            Ok(outcome) => outcomes.push((job.done, outcome)),
            Err(err) => {
                // The savepoint machinery itself failed: the transaction is in an unknown
                // state, so nothing in it may commit.
                let _ = conn.execute_batch("ROLLBACK");
                let _ = job.done.send(Err(StoreError::backend(err)));
                for (done, _) in outcomes {
                    let _ = done.send(Err(StoreError::backend(Misuse(
                        "a transaction grouped with this one failed; nothing was written",
                    ))));
                }
                return;
            }
        }
    }
    match commit(conn, commits, &timing) {
        Ok(()) => {
            for (done, outcome) in outcomes {
                let _ = done.send(outcome);
            }
        }
        Err(err) => {
            tracing::error!(error = %err, "group commit failed");
            let _ = conn.execute_batch("ROLLBACK");
            for (done, outcome) in outcomes {
                let _ =
                    done.send(outcome.and(Err(StoreError::backend(WriteFailed(err.to_string())))));
            }
        }
    }
}

/// The transaction that held a body's writes could not begin or commit.
#[derive(Debug, thiserror::Error)]
#[error("write transaction failed: {0}")]
struct WriteFailed(String);

/// Commits the open transaction, counting the commit in `commits` once before it may become
/// visible and once after it did. A reader reuses a snapshot only while the count stays what
/// it was before the snapshot began (`readers`): the first count keeps readers from reusing
/// snapshots taken while the commit lands (some would hold it and some not), the second keeps
/// them from reusing one taken just before it landed.
fn commit(conn: &Connection, commits: &AtomicU64, timing: &Timing) -> rusqlite::Result<()> {
    let ran = Instant::now();
    commits.fetch_add(1, Ordering::SeqCst);
    let committed = command(conn, "COMMIT");
    commits.fetch_add(1, Ordering::SeqCst);
    timing.log_if_slow(ran);
    committed
}

/// When a write transaction began waiting for the lock and had it, for [`SLOW`].
struct Timing {
    began: Instant,
    locked: Instant,
    bodies: usize,
}

impl Timing {
    /// Logs the transaction whose bodies ran until `ran` and which committed just now, if it
    /// was slow.
    fn log_if_slow(&self, ran: Instant) {
        let (lock, bodies, commit) = (
            self.locked - self.began,
            ran.saturating_duration_since(self.locked),
            ran.elapsed(),
        );
        if lock < SLOW && commit < SLOW && bodies < 4 * SLOW {
            return;
        }
        let ms = |d: Duration| d.as_millis() as u64;
        let took = self.began.elapsed();
        tracing::warn!(
            lock_ms = ms(lock),
            bodies_ms = ms(bodies),
            commit_ms = ms(commit),
            bodies = self.bodies,
            "a write transaction took {} ms; writes behind it waited",
            ms(took),
        );
    }
}

/// Runs the one body of a group in the transaction just begun, with no savepoint, and commits
/// it, or rolls the transaction back when the body fails.
fn commit_alone(conn: &mut Connection, mut job: Job, commits: &AtomicU64, timing: &Timing) {
    let (outcome, changes) = run_body(conn, &mut job.body);
    let answer = match outcome {
        Ok(()) => match commit(conn, commits, timing) {
            Ok(()) => Ok(changes),
            Err(err) => {
                tracing::error!(error = %err, "commit failed");
                let _ = conn.execute_batch("ROLLBACK");
                Err(StoreError::backend(WriteFailed(err.to_string())))
            }
        },
        Err(err) => {
            if let Err(rollback) = conn.execute_batch("ROLLBACK") {
                tracing::error!(error = %rollback, "rolling back a failed transaction failed");
            }
            Err(err)
        }
    };
    let _ = job.done.send(answer);
}

/// Runs one body in a savepoint. The outer result is the savepoint machinery's; the inner one
/// is the body's, already rolled back when it is an error.
fn run_in_savepoint(
    conn: &mut Connection,
    body: &mut TxBody,
) -> rusqlite::Result<StoreResult<Vec<Invalidation>>> {
    command(conn, "SAVEPOINT body")?;
    let (outcome, changes) = run_body(conn, body);
    match outcome {
        Ok(()) => {
            command(conn, "RELEASE body")?;
            Ok(Ok(changes))
        }
        Err(err) => {
            conn.execute_batch("ROLLBACK TO body; RELEASE body")?;
            Ok(Err(err))
        }
    }
}

/// Runs a body on the open transaction: its outcome and the changes it published.
fn run_body(conn: &mut Connection, body: &mut TxBody) -> (StoreResult<()>, Vec<Invalidation>) {
    let mut tx = SqliteTx {
        conn: &mut *conn,
        changes: Vec::new(),
    };
    let outcome = {
        let mut run = body(&mut tx);
        match run.as_mut().poll(&mut Context::from_waker(Waker::noop())) {
            Poll::Ready(result) => result,
            Poll::Pending => Err(StoreError::backend(Misuse(
                "a transaction body awaited something other than the store",
            ))),
        }
    };
    (outcome, tx.changes)
}

fn fail_all(group: Vec<Job>, err: &rusqlite::Error) {
    tracing::error!(error = %err, "could not begin a write transaction");
    for job in group {
        let _ = job
            .done
            .send(Err(StoreError::backend(WriteFailed(err.to_string()))));
    }
}
