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
//! transaction, then holds new writes back while it copies what the passive checkpoint left
//! (about a second of writes) and waits for readers still in the log (a kept snapshot lasts
//! at most 100 ms). Each wait is cut short at [`RESTART_WAIT`], so a long read (an export, a
//! year of statistics) holds writes back no longer than that; the restart is then tried
//! again later, backing off while it keeps failing. A store that closes empties its log
//! (`TRUNCATE`), so the next start reads nothing but the database file.

use std::path::Path;
use std::sync::{Arc, mpsc};
use std::time::{Duration, Instant};

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

/// Longest a restart waits for the writer, and then for readers while it holds writes back.
pub(super) const RESTART_WAIT: Duration = Duration::from_millis(250);

/// Longest a restart that keeps failing is put off. A restart fails when a reader holds the
/// log (it then held writes back for [`RESTART_WAIT`]), and also while the writer writes a
/// backlog of visits in batches back to back (a round of them wrote 300-700 MB of log at a
/// million chains under uniform load): short enough to catch the pause after such a round.
const RESTART_BACKOFF_MAX: Duration = Duration::from_secs(8);

/// Longest a closing store waits to empty its log, for the writer and then for readers:
/// well under the 5 s a write waits for the lock before it fails.
const CLOSE_WAIT: Duration = Duration::from_secs(2);

/// Bytes the log file is cut back to when the log starts over (`journal_size_limit`): the
/// limit itself, so the first commit after a restart frees only what the file grew past it.
/// Cut back to 64 MB, a 290 MB file freed its blocks while every other write waited: under
/// bulk creates the write behind a restart took 140-205 ms, against 115-135 ms now.
pub(super) const LOG_FILE_KEPT: i64 = LOG_LIMIT;

/// When the thread checkpoints.
#[derive(Clone, Copy)]
pub(super) struct Schedule {
    /// How often it copies the log back.
    pub(super) every: Duration,
    /// Bytes of log past which it also starts the log over.
    pub(super) log_limit: i64,
}

impl Schedule {
    /// A store's: [`EVERY`] and [`LOG_LIMIT`].
    pub(super) const STORE: Schedule = Schedule {
        every: EVERY,
        log_limit: LOG_LIMIT,
    };
}

/// The checkpointing thread's handle: it stops when this is dropped.
pub(super) struct Checkpoints {
    /// Asks for the log to be emptied now; answered with [`checkpoint`]'s outcome.
    empty_now: mpsc::Sender<mpsc::Sender<rusqlite::Result<Option<i64>>>>,
}

impl Checkpoints {
    /// Copies the whole log back and empties it, waiting for the writer and readers (for a
    /// store that is closing). Blocks the calling thread.
    pub(super) fn empty_log(&self) -> StoreResult<()> {
        let failed = |why: &str| StoreError::backend(std::io::Error::other(why.to_owned()));
        let (answer, answered) = mpsc::channel();
        let stopped = "the checkpointing thread stopped";
        self.empty_now.send(answer).map_err(|_| failed(stopped))?;
        match answered.recv().map_err(|_| failed(stopped))? {
            Ok(Some(_)) => Ok(()),
            Ok(None) => Err(failed("the log is still in use")),
            Err(err) => Err(StoreError::backend(err)),
        }
    }
}

/// Starts the checkpointing thread on the database at `path`.
pub(super) fn spawn(
    path: &Path,
    readers: Arc<Readers>,
    schedule: Schedule,
) -> std::io::Result<Checkpoints> {
    let (empty_now, requests) = mpsc::channel::<mpsc::Sender<rusqlite::Result<Option<i64>>>>();
    let conn = Connection::open(path).map_err(std::io::Error::other)?;
    let page_size: i64 = conn
        .query_row("PRAGMA page_size", [], |r| r.get(0))
        .map_err(std::io::Error::other)?;
    let mut restarts = Restarts::new(schedule.log_limit / page_size, schedule.every);
    // The database file, to write out what a checkpoint copied that SQLite does not sync.
    let file = std::fs::File::open(path)?;
    std::thread::Builder::new()
        // Linux keeps 15 bytes of a thread's name (top, perf): this and "sqlite-writer"
        // must differ within them.
        .name("sqlite-checkpt".into())
        .spawn(move || {
            loop {
                match requests.recv_timeout(schedule.every) {
                    Ok(answer) => {
                        readers.end_idle_snapshots();
                        let _ = answer.send(checkpoint(&conn, "TRUNCATE", CLOSE_WAIT));
                    }
                    Err(mpsc::RecvTimeoutError::Timeout) => {
                        readers.end_idle_snapshots();
                        let began = Instant::now();
                        let copied = passive(&conn).and_then(|(log, copied)| {
                            // SQLite syncs the file only once a checkpoint copied the whole
                            // log, which under steady writes none does: what the checkpoints
                            // copied piles up unwritten in the page cache (87 MB after a
                            // minute of bulk creates) until one does, and then goes to the
                            // disk at once, every commit's sync waiting behind it (creates
                            // stalled 300-450 ms, measured). Written out each time, it goes a
                            // second's worth at a time.
                            if copied > 0 && copied < log {
                                let _ = file.sync_data();
                            }
                            let synced = Instant::now();
                            let restarted = restarts.after(&conn, log, &readers);
                            log_if_slow(began, synced, log * page_size);
                            restarted
                        });
                        if let Err(err) = copied {
                            tracing::warn!(error = %err, "checkpointing the SQLite log failed");
                        }
                    }
                    Err(mpsc::RecvTimeoutError::Disconnected) => return,
                }
            }
        })?;
    Ok(Checkpoints { empty_now })
}

/// A checkpoint whose copy and sync took this long, or whose restart did, is logged: a restart
/// holds writes back while it runs, and a slow sync says the disk is slow.
const SLOW: Duration = Duration::from_millis(250);

/// Logs the checkpoint that began at `began`, copied and synced until `synced` and was done
/// (a restart included) just now, with `log` bytes of log, if it was slow.
fn log_if_slow(began: Instant, synced: Instant, log: i64) {
    let (copy, restart) = (synced - began, synced.elapsed());
    if copy < SLOW && restart < SLOW {
        return;
    }
    let ms = |d: Duration| d.as_millis() as u64;
    tracing::warn!(
        copy_ms = ms(copy),
        restart_ms = ms(restart),
        log_mb = log >> 20,
        "a checkpoint of the SQLite log was slow"
    );
}

/// When the log is started over after a passive checkpoint.
struct Restarts {
    /// Pages of log past which it is.
    limit: i64,
    /// The log's length when this thread last started it over: until a write starts it over,
    /// the log keeps that length, all of it copied, and needs no restart.
    restarted_at: Option<i64>,
    /// While restarts fail, each waits twice as long as the one before, from the time
    /// between checkpoints.
    backoff: Duration,
    every: Duration,
    next_try: Instant,
}

impl Restarts {
    fn new(limit: i64, every: Duration) -> Self {
        Restarts {
            limit,
            restarted_at: None,
            backoff: every,
            every,
            next_try: Instant::now(),
        }
    }

    /// After a passive checkpoint left `log` pages of log: starts it over if it is past the
    /// limit and the time has come.
    /// Idle readers that took a snapshot since the passive one are ended first: a restart
    /// holds new writes back while it waits for readers in the log.
    fn after(&mut self, conn: &Connection, log: i64, readers: &Readers) -> rusqlite::Result<()> {
        if log <= self.limit || self.restarted_at == Some(log) || Instant::now() < self.next_try {
            return Ok(());
        }
        readers.end_idle_snapshots();
        match checkpoint(conn, "RESTART", RESTART_WAIT)? {
            Some(log) => {
                self.restarted_at = Some(log);
                self.backoff = self.every;
            }
            None => {
                self.backoff = (self.backoff * 2).min(RESTART_BACKOFF_MAX);
                self.next_try = Instant::now() + self.backoff;
            }
        }
        Ok(())
    }
}

/// Copies what no reader still needs; answers the log's length in pages and how many of them
/// are copied.
fn passive(conn: &Connection) -> rusqlite::Result<(i64, i64)> {
    conn.query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |r| {
        Ok((r.get(1)?, r.get(2)?))
    })
}

/// Copies the whole log back and starts it over (`RESTART`), also cutting the file to
/// nothing (`TRUNCATE`); waits up to `wait` for the writer, then as long for readers still in
/// the log. Answers the log's length in pages before it started over, or `None` when a wait
/// ran out first (what could be copied then is).
fn checkpoint(conn: &Connection, mode: &str, wait: Duration) -> rusqlite::Result<Option<i64>> {
    conn.busy_timeout(wait)?;
    let (busy, log): (i64, i64) =
        conn.query_row(&format!("PRAGMA wal_checkpoint({mode})"), [], |r| {
            Ok((r.get(0)?, r.get(1)?))
        })?;
    Ok((busy == 0).then_some(log))
}

#[cfg(test)]
mod tests {
    use std::path::Path;
    use std::sync::Arc;
    use std::time::{Duration, Instant};

    use rusqlite::Connection;

    use super::super::readers::Readers;

    /// The log's limit in these tests.
    const LIMIT: i64 = 1 << 20;

    /// The checkpointing thread's schedule in these tests: a quarter of the store's time
    /// between checkpoints, so that a checkpoint slowed down by a loaded machine (a restart
    /// that timed out and backs off, a sync that took a second) still leaves several within
    /// the four seconds of writes.
    const SCHEDULE: super::Schedule = super::Schedule {
        every: Duration::from_millis(250),
        log_limit: LIMIT,
    };

    fn log_bytes(db: &Path) -> u64 {
        std::fs::metadata(db.with_extension("db-wal")).map_or(0, |m| m.len())
    }

    /// A database in WAL mode with a table, its checkpointing thread started, and a writer
    /// configured as the store's is (no automatic checkpoints, the file cut back to `LIMIT`).
    fn database(path: &Path) -> (Connection, super::Checkpoints) {
        let writer = Connection::open(path).expect("the writer");
        writer
            .pragma_update(None, "journal_mode", "WAL")
            .expect("WAL");
        writer
            .pragma_update(None, "wal_autocheckpoint", 0)
            .expect("no automatic checkpoints");
        writer
            .pragma_update(None, "journal_size_limit", LIMIT)
            .expect("a size limit");
        writer
            .execute_batch("CREATE TABLE t (v BLOB)")
            .expect("a table");
        let checkpoints = super::spawn(path, Arc::new(Readers::new(Vec::new())), SCHEDULE)
            .expect("the checkpointing thread");
        (writer, checkpoints)
    }

    /// What four seconds of steady commits did.
    struct Writes {
        commits: u64,
        /// Bytes the commits wrote to the log, about: three pages each (a leaf and two
        /// overflow pages).
        written: u64,
        /// The log file's largest size, looked at every 20 ms.
        largest_log: u64,
        slowest_commit: Duration,
    }

    /// Commits for four seconds, with a pause between commits as between the store writer's
    /// batches.
    fn write_steadily(writer: Connection, path: &Path) -> Writes {
        let until = Instant::now() + Duration::from_secs(4);
        let writes = std::thread::spawn(move || {
            let (mut commits, mut slowest) = (0, Duration::ZERO);
            while Instant::now() < until {
                let began = Instant::now();
                writer
                    .execute("INSERT INTO t (v) VALUES (zeroblob(5000))", [])
                    .expect("an insert");
                slowest = slowest.max(began.elapsed());
                commits += 1;
                std::thread::sleep(Duration::from_millis(1));
            }
            (commits, slowest)
        });
        let mut largest_log = 0;
        while Instant::now() < until {
            largest_log = largest_log.max(log_bytes(path));
            std::thread::sleep(Duration::from_millis(20));
        }
        let (commits, slowest_commit) = writes.join().expect("the writes");
        Writes {
            commits,
            written: commits * 3 * 4096,
            largest_log,
            slowest_commit,
        }
    }

    /// Commits in quick succession leave a passive checkpoint no moment to catch up with the
    /// whole log, so the log never starts over by itself (it grew to 33 MB here in four
    /// seconds); past the limit the thread starts it over.
    #[test]
    fn the_log_stays_near_its_limit_under_steady_writes() {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let path = dir.path().join("linkapi.db");
        let (writer, checkpoints) = database(&path);
        let writes = write_steadily(writer, &path);
        let (commits, largest) = (writes.commits, writes.largest_log);
        // Four seconds of commits write far more than the limit...
        assert!(writes.written > 8 * LIMIT as u64, "only {commits} commits");
        // ... but the log is started over once it passes it: the file then holds at most the
        // limit and a quarter second of commits (the time between checkpoints), and more
        // while a restart backs off.
        assert!(
            largest < LIMIT as u64 + writes.written / 2,
            "the log reached {largest} bytes after {commits} commits"
        );
        // Closing empties it.
        checkpoints.empty_log().expect("the log emptied");
        assert_eq!(log_bytes(&path), 0);
    }

    /// A read that keeps its snapshot (a long export) keeps the log from starting over; the
    /// restarts tried meanwhile hold writes back for a moment each, never for long.
    #[test]
    fn a_long_read_holds_writes_back_for_a_moment_at_most() {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let path = dir.path().join("linkapi.db");
        let (writer, _checkpoints) = database(&path);
        let reader = Connection::open(&path).expect("a reader");
        reader.execute_batch("BEGIN").expect("a read transaction");
        let rows: i64 = reader
            .query_row("SELECT count(*) FROM t", [], |r| r.get(0))
            .expect("a read");
        assert_eq!(rows, 0);
        let writes = write_steadily(writer, &path);
        // The log passed its limit, so restarts were tried while the read held it...
        assert!(writes.largest_log > 4 * LIMIT as u64);
        // ... each holding writes back no longer than its two waits (for the writer, then
        // for the reader) and the copy.
        assert!(
            writes.slowest_commit < 4 * super::RESTART_WAIT,
            "a commit took {:?}",
            writes.slowest_commit
        );
        reader.execute_batch("COMMIT").expect("the read ended");
    }
}
