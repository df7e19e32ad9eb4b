//! The reader connections, and the read transaction a point read keeps open between calls.
//!
//! A redirect's cache miss reads one row. Run on its own, that read begins and ends a read
//! transaction: SQLite takes and drops a lock on the log's shared index (two `fcntl` calls),
//! checks whether the log moved, and starts the page cache afresh if it did. Measured at a
//! million chains, that was about a third of what a miss cost. So point reads keep their
//! transaction open and the next point read on the same connection reuses it, as long as
//! nothing was committed in between.
//!
//! That is safe because this process's writer thread is the only writer (a server holds the
//! database's lock file) and it counts each commit twice, as it begins and once it is done,
//! before anyone hears of it ([`Readers::committed`]). A reader reuses its snapshot only when
//! the count has not moved since the snapshot began and was even then (no commit landing), so
//! a read that starts after a commit was acknowledged always sees it, and a reader never goes
//! back to an older state than one it read before (no snapshot taken while a commit lands is
//! reused: it may have begun just before the commit became visible, while another reader
//! began just after). Ordinary reads
//! ([`Reader::autocommit`]) end a kept transaction first.
//!
//! An open read transaction holds back checkpoints (the log cannot be copied past what a
//! reader may still need), so a snapshot is reused for at most [`SNAPSHOT_REUSE`], and the
//! checkpointing thread ends the ones left open by readers that went idle
//! ([`Readers::end_idle_snapshots`]).

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, TryLockError};
use std::time::{Duration, Instant};

use rusqlite::Connection;

use super::{command, lock};

/// Longest a kept read transaction is reused.
pub(super) const SNAPSHOT_REUSE: Duration = Duration::from_millis(100);

/// The reader connections and the writer's commit count.
pub(super) struct Readers {
    connections: Vec<Mutex<Reader>>,
    /// Next reader to try for an ordinary read.
    next: AtomicUsize,
    /// Commits made by the writer thread; shared with it.
    commits: Arc<AtomicU64>,
}

/// A reader connection and the read transaction it keeps open, if any.
pub(super) struct Reader {
    conn: Connection,
    /// When the kept transaction began: the commit count then, and the instant.
    snapshot: Option<(u64, Instant)>,
}

impl Readers {
    pub(super) fn new(connections: Vec<Connection>) -> Self {
        Readers {
            connections: connections
                .into_iter()
                .map(|conn| {
                    Mutex::new(Reader {
                        conn,
                        snapshot: None,
                    })
                })
                .collect(),
            next: AtomicUsize::new(0),
            commits: Arc::new(AtomicU64::new(0)),
        }
    }

    /// The writer's commit count, for the writer thread to bump as every commit begins and
    /// ends, before it answers the commit's callers.
    pub(super) fn committed(&self) -> Arc<AtomicU64> {
        self.commits.clone()
    }

    /// A reader for an ordinary read, waiting for one when all are busy; readers are tried
    /// round-robin.
    pub(super) fn any(&self) -> MutexGuard<'_, Reader> {
        let count = self.connections.len();
        let start = self.next.fetch_add(1, Ordering::Relaxed);
        for i in 0..count {
            if let Ok(guard) = self.connections[(start + i) % count].try_lock() {
                return guard;
            }
        }
        lock(&self.connections[start % count])
    }

    /// The first reader not in use, if any. Always trying them in the same order keeps the
    /// point reads on the first ones, whose page caches and snapshots then get reused.
    pub(super) fn free(&self) -> Option<MutexGuard<'_, Reader>> {
        self.connections
            .iter()
            .find_map(|reader| match reader.try_lock() {
                Ok(guard) => Some(guard),
                Err(TryLockError::Poisoned(poisoned)) => Some(poisoned.into_inner()),
                Err(TryLockError::WouldBlock) => None,
            })
    }

    /// A snapshot's commit count, read before its transaction takes its snapshot: every
    /// commit counted by then is in it.
    fn commits_now(&self) -> u64 {
        self.commits.load(Ordering::SeqCst)
    }

    /// Ends the read transactions of idle readers that may no longer be reused, so that
    /// checkpoints are not held back by a reader nobody is using.
    pub(super) fn end_idle_snapshots(&self) {
        let now = self.commits_now();
        for reader in &self.connections {
            if let Ok(mut reader) = reader.try_lock()
                && !reader.reusable(now)
            {
                reader.end_snapshot();
            }
        }
    }

    /// Every reader, for tests that need them all busy.
    #[cfg(test)]
    pub(super) fn hold_all(&self) -> Vec<MutexGuard<'_, Reader>> {
        self.connections.iter().map(lock).collect()
    }

    /// The connection of `reader` inside a read transaction that sees every commit
    /// acknowledged before this call: the kept one when nothing was committed since it
    /// began, else a new one, which is then kept.
    pub(super) fn snapshot<'r>(&self, reader: &'r mut Reader) -> rusqlite::Result<&'r Connection> {
        let now = self.commits_now();
        if !reader.reusable(now) {
            reader.end_snapshot();
            command(&reader.conn, "BEGIN")?;
            reader.snapshot = Some((now, Instant::now()));
        }
        Ok(&reader.conn)
    }
}

impl Reader {
    /// Whether the kept transaction, if any, may serve a read that starts when the commit
    /// count is `commits`. Never one begun while a commit was landing (an odd count): it may
    /// not hold that commit while another reader already sees it, and the count does not move
    /// again until the commit is done.
    fn reusable(&self, commits: u64) -> bool {
        self.snapshot.is_some_and(|(at, began)| {
            at.is_multiple_of(2) && at == commits && began.elapsed() < SNAPSHOT_REUSE
        })
    }

    /// The connection with no transaction open, for an ordinary read.
    pub(super) fn autocommit(&mut self) -> &Connection {
        self.end_snapshot();
        &self.conn
    }

    /// Ends the kept read transaction, if any.
    pub(super) fn end_snapshot(&mut self) {
        if self.snapshot.take().is_some() && !self.conn.is_autocommit() {
            // Ending a read-only transaction cannot fail in a way that matters: if it did, the
            // next BEGIN fails and the read reports it.
            let _ = command(&self.conn, "COMMIT");
        }
    }
}

#[cfg(test)]
mod tests {
    use std::time::Instant;

    use rusqlite::Connection;

    use super::Reader;

    fn reader_with_snapshot_at(commits: u64) -> Reader {
        Reader {
            conn: Connection::open_in_memory().expect("a connection"),
            snapshot: Some((commits, Instant::now())),
        }
    }

    #[test]
    fn a_snapshot_begun_while_a_commit_lands_is_never_reused() {
        // Begun between commits, reused until the next commit begins.
        let settled = reader_with_snapshot_at(4);
        assert!(settled.reusable(4));
        assert!(!settled.reusable(5));
        assert!(!settled.reusable(6));
        // Begun while commit 3 landed (count 5): it may predate the commit that another
        // reader, begun an instant later, already sees, though the count has not moved.
        let landing = reader_with_snapshot_at(5);
        assert!(!landing.reusable(5));
        assert!(!landing.reusable(6));
    }
}
