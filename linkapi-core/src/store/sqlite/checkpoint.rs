//! Checkpoints off the writer thread.
//!
//! In WAL mode SQLite copies the log back into the database file (a checkpoint) once the log
//! passes 1,000 pages, and by default the commit that passed it does so: the writer thread then
//! stops committing while it copies and syncs the file, and with random codes spread over the
//! whole code index a growing database makes each checkpoint longer. So the writer's automatic
//! checkpoints are off and this thread checkpoints on a connection of its own, once a second,
//! without blocking the writer (`PASSIVE`: it copies what no reader still needs and leaves the
//! rest for next time). Before each checkpoint it ends the read transactions that idle
//! readers kept open (`readers`), which would otherwise hold the copy back.
//!
//! A passive checkpoint never starts the log over: the log starts over only when a write
//! begins after a checkpoint copied all of it, and under steady writes one more commit has
//! always landed by the time the copy ends. So the log only grew under load: 4.3 GB after
//! seeding a million chains into a 377 MB database, which the next start then read whole to
//! rebuild its index (1.6-2 s). Once a passive checkpoint leaves more than [`LOG_LIMIT`]
//! of log, this thread also starts it over (`RESTART`): that waits for the writer's current
//! transaction and for readers still in the log (a kept snapshot lasts at most 100 ms), and
//! holds new writes back while it copies what the passive checkpoint left, about a second of
//! writes. A store that closes empties its log (`TRUNCATE`), so the next start reads nothing
//! but the database file.

use std::path::Path;
use std::sync::{Arc, mpsc};
use std::time::Duration;

use rusqlite::Connection;

use super::readers::Readers;
use crate::store::{StoreError, StoreResult};

/// How often the log is copied back. A page written by several commits in between is copied
/// once: a backlog of visits is written in batches of 50,000 entries back to back, which
/// change many of the same pages, and at a million chains under uniform redirect load this
/// thread's CPU per visit written was 5.4 us at 200 ms, 4.6 at 500 ms, 2.9 at 1 s and 2.0 at
/// 2 s (the writer's the same). A second keeps the log to what a second of writes makes.
pub(super) const EVERY: Duration = Duration::from_secs(1);

/// Bytes of log past which a checkpoint also starts it over. Each restart holds writes back
/// for a moment and copies pages a later checkpoint would have copied once: at a million
/// chains under uniform redirect load (the log grows 10-15 MB a second) 64 MB cost the
/// checkpointing thread 2.9-3.1 us of CPU per visit written against 1.7 without restarts,
/// 256 MB 1.9. A crash leaves at most this much for the next start to read (0.1-0.2 s).
pub(super) const LOG_LIMIT: i64 = 256 << 20;

/// Bytes the log file is cut back to when the log starts over (`journal_size_limit`).
pub(super) const LOG_FILE_KEPT: i64 = 64 << 20;

/// The checkpointing thread's handle: it stops when this is dropped.
pub(super) struct Checkpoints {
    /// Asks for the log to be emptied now; answered once it is.
    empty_now: mpsc::Sender<mpsc::Sender<rusqlite::Result<()>>>,
}

impl Checkpoints {
    /// Copies the whole log back and empties it, waiting for the writer and readers (for a
    /// store that is closing). Blocks the calling thread.
    pub(super) fn empty_log(&self) -> StoreResult<()> {
        let stopped =
            || StoreError::backend(std::io::Error::other("the checkpointing thread stopped"));
        let (answer, answered) = mpsc::channel();
        self.empty_now.send(answer).map_err(|_| stopped())?;
        answered
            .recv()
            .map_err(|_| stopped())?
            .map_err(StoreError::backend)
    }
}

/// Starts the checkpointing thread on the database at `path`, starting the log over once it
/// passes `log_limit` bytes ([`LOG_LIMIT`]).
pub(super) fn spawn(
    path: &Path,
    readers: Arc<Readers>,
    log_limit: i64,
) -> std::io::Result<Checkpoints> {
    let (empty_now, requests) = mpsc::channel::<mpsc::Sender<rusqlite::Result<()>>>();
    let conn = Connection::open(path).map_err(std::io::Error::other)?;
    let page_size: i64 = conn
        .query_row("PRAGMA page_size", [], |r| r.get(0))
        .map_err(std::io::Error::other)?;
    std::thread::Builder::new()
        // Linux keeps 15 bytes of a thread's name (top, perf): this and "sqlite-writer"
        // must differ within them.
        .name("sqlite-checkpt".into())
        .spawn(move || {
            // The log's length when this thread last started it over: until a write starts
            // it over, the log keeps that length, all of it copied, and needs no restart.
            let mut restarted_at = None;
            loop {
                let requested = match requests.recv_timeout(EVERY) {
                    Ok(answer) => Some(answer),
                    Err(mpsc::RecvTimeoutError::Timeout) => None,
                    Err(mpsc::RecvTimeoutError::Disconnected) => return,
                };
                readers.end_idle_snapshots();
                let outcome = match requested {
                    Some(_) => checkpoint(&conn, "TRUNCATE").and_then(|emptied| {
                        emptied.map(|_| ()).ok_or_else(|| {
                            rusqlite::Error::SqliteFailure(
                                rusqlite::ffi::Error::new(rusqlite::ffi::SQLITE_BUSY),
                                Some("the log is still in use".into()),
                            )
                        })
                    }),
                    // Under writes back to back the restart may find no moment between them
                    // (it waits the busy timeout, then copies what it can): it is tried again
                    // a second later.
                    None => passive(&conn).and_then(|log| {
                        if log * page_size > log_limit && restarted_at != Some(log) {
                            restarted_at = checkpoint(&conn, "RESTART")?.or(restarted_at);
                        }
                        Ok(())
                    }),
                };
                match requested {
                    Some(answer) => {
                        let _ = answer.send(outcome);
                    }
                    None => {
                        if let Err(err) = outcome {
                            tracing::warn!(error = %err, "checkpointing the SQLite log failed");
                        }
                    }
                }
            }
        })?;
    Ok(Checkpoints { empty_now })
}

/// Copies what no reader still needs; answers the log's length in pages.
fn passive(conn: &Connection) -> rusqlite::Result<i64> {
    conn.query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |r| r.get(1))
}

/// Copies the whole log back and starts it over (`RESTART`), also cutting the file to
/// nothing (`TRUNCATE`); waits (the connection's busy timeout) for the writer and for readers
/// still in the log. Answers the log's length in pages before it started over, or `None` when
/// the wait ran out first.
fn checkpoint(conn: &Connection, mode: &str) -> rusqlite::Result<Option<i64>> {
    let (busy, log): (i64, i64) =
        conn.query_row(&format!("PRAGMA wal_checkpoint({mode})"), [], |r| {
            Ok((r.get(0)?, r.get(1)?))
        })?;
    Ok((busy == 0).then_some(log))
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::time::{Duration, Instant};

    use rusqlite::Connection;

    use super::super::readers::Readers;

    fn log_bytes(db: &std::path::Path) -> u64 {
        std::fs::metadata(db.with_extension("db-wal")).map_or(0, |m| m.len())
    }

    /// Commits in quick succession leave a passive checkpoint no moment to catch up with the
    /// whole log, so the log never starts over by itself (it grew to 100 MB here in four
    /// seconds); past the limit the thread starts it over.
    #[test]
    fn the_log_stays_near_its_limit_under_steady_writes() {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let path = dir.path().join("linkapi.db");
        let limit: i64 = 1 << 20;
        let writer = Connection::open(&path).expect("the writer");
        writer
            .pragma_update(None, "journal_mode", "WAL")
            .expect("WAL");
        // As the store's writer is configured, with the file cut back to the limit.
        writer
            .pragma_update(None, "wal_autocheckpoint", 0)
            .expect("no automatic checkpoints");
        writer
            .pragma_update(None, "journal_size_limit", limit)
            .expect("a size limit");
        writer
            .execute_batch("CREATE TABLE t (v BLOB)")
            .expect("a table");
        let checkpoints = super::spawn(&path, Arc::new(Readers::new(Vec::new())), limit)
            .expect("the checkpointing thread");
        let done = Arc::new(AtomicBool::new(false));
        let writes = std::thread::spawn({
            let done = done.clone();
            move || {
                let mut commits = 0;
                while !done.load(Ordering::Relaxed) {
                    // Three pages a commit (a leaf and two overflow pages), and a pause between
                    // commits as between the store writer's batches.
                    writer
                        .execute("INSERT INTO t (v) VALUES (zeroblob(5000))", [])
                        .expect("an insert");
                    commits += 1;
                    std::thread::sleep(Duration::from_millis(1));
                }
                commits
            }
        });
        let started = Instant::now();
        let mut largest = 0;
        while started.elapsed() < Duration::from_secs(4) {
            largest = largest.max(log_bytes(&path));
            std::thread::sleep(Duration::from_millis(20));
        }
        done.store(true, Ordering::Relaxed);
        let commits: u64 = writes.join().expect("the writes");
        // Four seconds of commits write far more than the limit...
        let written = commits * 3 * 4096;
        assert!(written > 8 * limit as u64, "only {commits} commits");
        // ... but the log is started over once it passes it: the file then holds at most the
        // limit and a second of commits (the time between checkpoints), and some more.
        assert!(
            largest < limit as u64 + written / 2,
            "the log reached {largest} bytes after {commits} commits"
        );
        // Closing empties it.
        checkpoints.empty_log().expect("the log emptied");
        assert_eq!(log_bytes(&path), 0);
    }
}
