//! The embedded SQLite backend: one file in WAL mode, one writer thread and a few readers.
//! rusqlite is blocking: reads run on tokio's blocking pool (but for a redirect's lookup of
//! one link, which runs where it is asked when a reader is free, in a read transaction kept
//! open until the next commit: `SqliteStore::read_point`, `readers`), and transaction bodies
//! on the writer thread (`writer`), which commits them in groups. No connection lock is ever
//! held across an `.await`.
//!
//! One file per aggregate, as in `store/` and `postgres/`; this file holds the connections,
//! the error mapping and the `StoredRow` reading of rusqlite's rows.

use std::path::Path;
use std::sync::{Arc, Mutex, MutexGuard, mpsc};

use async_trait::async_trait;
use rusqlite::{Connection, OpenFlags, Row};
use tokio::sync::oneshot;

use super::{
    FeedEvent, Invalidation, Misuse, NewChain, Store, StoreError, StoreResult, StoredRow, TxBody,
    Unique, VisitBatch,
};
use crate::locks::Unpoisoned;
use crate::model::{Chain, Timestamp, UserId};

mod chains;
mod changes;
mod channels;
mod checkpoint;
mod conversions;
mod domains;
mod groups;
mod idempotency;
mod keys;
mod readers;
pub(in crate::store) mod recent_days;
pub(in crate::store) mod schema;
pub mod snapshot;
mod templates;
mod uploads;
mod users;
mod value_numbers;
mod visits;
mod webhooks;
mod workchat;
mod writer;

/// Reader connections; WAL lets them read while the writer writes.
const READERS: usize = 4;

/// A SQLite database file behind the [`Store`] traits. Cheap to clone.
#[derive(Clone)]
pub struct SqliteStore {
    inner: Arc<Inner>,
}

struct Inner {
    /// Transaction bodies for the writer thread. SQLite allows one writer at a time; one
    /// thread owning the only writing connection makes that explicit and lets it commit the
    /// bodies waiting for it together.
    writer: Mutex<mpsc::Sender<writer::Job>>,
    /// The reader connections; shared with the checkpointing thread, which ends the read
    /// transactions idle readers left open.
    readers: Arc<readers::Readers>,
    /// The checkpointing thread (see `checkpoint`); it runs while this is kept.
    checkpoints: checkpoint::Checkpoints,
}

impl std::fmt::Debug for SqliteStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SqliteStore").finish_non_exhaustive()
    }
}

impl From<rusqlite::Error> for StoreError {
    fn from(err: rusqlite::Error) -> Self {
        StoreError::backend(err)
    }
}

/// Maps a UNIQUE violation to [`StoreError::Conflict`], anything else to a backend error.
fn unique_or_backend(err: rusqlite::Error, what: Unique) -> StoreError {
    match &err {
        rusqlite::Error::SqliteFailure(e, _)
            if e.extended_code == rusqlite::ffi::SQLITE_CONSTRAINT_UNIQUE
                || e.extended_code == rusqlite::ffi::SQLITE_CONSTRAINT_PRIMARYKEY =>
        {
            StoreError::Conflict(what)
        }
        _ => StoreError::backend(err),
    }
}

#[derive(Debug, thiserror::Error)]
#[error("database schema version {found} is newer than this linkapi supports ({supported})")]
struct SchemaTooNew {
    found: i64,
    supported: i64,
}

fn configure(conn: &Connection) -> rusqlite::Result<()> {
    conn.busy_timeout(std::time::Duration::from_secs(5))?;
    conn.pragma_update(None, "foreign_keys", "ON")?;
    // FULL: a commit is on disk before the client hears it succeeded, even across power loss.
    conn.pragma_update(None, "synchronous", "FULL")?;
    // Every statement goes through the prepared-statement cache; room for all of them, so
    // none is prepared again because another pushed it out.
    conn.set_prepared_statement_cache_capacity(128);
    // The functions the writer's upsert adds breakdowns with (`recent_days`).
    value_numbers::register(conn)
}

impl SqliteStore {
    /// Opens (creating if needed) the database at `path` and runs pending migrations.
    ///
    /// # Errors
    /// When the file cannot be opened, or its schema is newer than this build.
    pub fn open(path: &Path) -> StoreResult<Self> {
        let mut writer = Connection::open(path).map_err(StoreError::backend)?;
        writer
            .pragma_update(None, "journal_mode", "WAL")
            .map_err(StoreError::backend)?;
        configure(&writer).map_err(StoreError::backend)?;
        // SQLite's default page cache is 2 MB: random codes spread inserts over the whole code
        // index, so once it outgrows the cache every create pays for pages read back. 32 MB
        // (a bound, not an allocation) holds the indexes' inner pages and hot leaves. At a
        // million chains the redirect index alone is 120 MB, which 64 MB did not hold either:
        // 64 MB imported no faster there and cost 32 MB more RSS (docs/decisions.md).
        writer
            .pragma_update(None, "cache_size", -32_768)
            .map_err(StoreError::backend)?;
        // The log file keeps its size when the log starts over: after a burst of visit flushes
        // at a million chains it stayed at 980 MB. It is now cut back to the log's limit when
        // the log starts over (256 MB), and emptied when the store closes.
        writer
            .pragma_update(None, "journal_size_limit", checkpoint::LOG_FILE_KEPT)
            .map_err(StoreError::backend)?;
        let found: i64 = writer
            .query_row("PRAGMA user_version", [], |r| r.get(0))
            .map_err(StoreError::backend)?;
        if found > schema::latest_version() {
            return Err(StoreError::backend(SchemaTooNew {
                found,
                supported: schema::latest_version(),
            }));
        }
        schema::migrate(&mut writer).map_err(StoreError::backend)?;
        let readers = (0..READERS)
            .map(|_| {
                let conn = Connection::open_with_flags(
                    path,
                    OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
                )?;
                configure(&conn)?;
                // A reader's page cache is emptied whenever another connection commits (every
                // visit flush, every create), so it never holds much for long: SQLite's
                // default 2 MB serves the B-trees' upper pages, and the leaves come from the
                // operating system's file cache, outside this process's memory.
                Ok(conn)
            })
            .collect::<rusqlite::Result<Vec<_>>>()
            .map_err(StoreError::backend)?;
        let readers = Arc::new(readers::Readers::new(readers));
        // The checkpointing thread copies the log back, not the writer's commits.
        writer
            .pragma_update(None, "wal_autocheckpoint", 0)
            .map_err(StoreError::backend)?;
        let checkpoints = checkpoint::spawn(path, readers.clone(), checkpoint::Schedule::STORE)
            .map_err(StoreError::backend)?;
        let writer = writer::spawn(writer, readers.committed()).map_err(StoreError::backend)?;
        Ok(SqliteStore {
            inner: Arc::new(Inner {
                writer: Mutex::new(writer),
                readers,
                checkpoints,
            }),
        })
    }

    /// Runs `f` on a reader connection on the blocking pool.
    async fn read<T, F>(&self, f: F) -> StoreResult<T>
    where
        T: Send + 'static,
        F: FnOnce(&Connection) -> StoreResult<T> + Send + 'static,
    {
        let inner = self.inner.clone();
        tokio::task::spawn_blocking(move || {
            let mut reader = inner.readers.any();
            f(reader.autocommit())
        })
        .await
        .map_err(StoreError::backend)?
    }

    /// Runs `f`, a read of a row or two by a unique index, on this thread when a reader is
    /// free, else as [`SqliteStore::read`]. A read like that takes microseconds from the page
    /// cache; handing it to the blocking pool costs more than the read itself (two thread
    /// switches and the pool's locks: most of a redirect's cache miss, measured). The price
    /// is that a read from a cold disk blocks this worker thread for that read. On a free
    /// reader, `f` runs in the read transaction the reader kept open, when nothing was
    /// committed since it began (`readers`).
    async fn read_point<T, F>(&self, f: F) -> StoreResult<T>
    where
        T: Send + 'static,
        F: FnOnce(&Connection) -> StoreResult<T> + Send + 'static,
    {
        if let Some(mut reader) = self.inner.readers.free() {
            let conn = self.inner.readers.snapshot(&mut reader)?;
            return f(conn);
        }
        self.read(f).await
    }

    /// Hands `body` to the writer thread and waits for the commit that holds it; `alone`
    /// commits it in a transaction of its own, `hurry` without giving way to requests (see
    /// `writer`).
    async fn run_on_writer(
        &self,
        body: TxBody,
        alone: bool,
        hurry: bool,
    ) -> StoreResult<Vec<Invalidation>> {
        let (done, outcome) = oneshot::channel();
        lock(&self.inner.writer)
            .send(writer::Job {
                body,
                done,
                alone,
                hurry,
            })
            .map_err(|_| StoreError::backend(Misuse("the SQLite writer thread has stopped")))?;
        outcome.await.map_err(|_| {
            StoreError::backend(Misuse("the SQLite writer thread dropped a transaction"))
        })?
    }
}

/// A transaction on the writer thread: the connection inside the group's transaction (and this
/// body's savepoint), and the changes the body published.
struct SqliteTx<'c> {
    conn: &'c mut Connection,
    changes: Vec<Invalidation>,
}

/// Locks a connection or the writer's queue. A panic while holding either cannot leave SQLite
/// half-written (transactions roll back on drop), so a poisoned lock is safe to take over.
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unpoisoned()
}

/// Runs a statement of transaction control (`BEGIN`, `COMMIT`, a savepoint) through the
/// prepared-statement cache: `execute_batch` parses its text on every call, which was 2-3% of
/// the writer's time in a profile of chain creation, and every read transaction a cache miss
/// begins parsed its `BEGIN`.
fn command(conn: &Connection, sql: &str) -> rusqlite::Result<()> {
    conn.prepare_cached(sql)?.execute([]).map(|_| ())
}

/// One row or none, through the connection's prepared-statement cache: the hot lookups
/// (a chain, a key, a link) are prepared once per connection, not on every call.
fn one<T>(
    c: &Connection,
    sql: &str,
    params: impl rusqlite::Params,
    decode: fn(&dyn StoredRow) -> StoreResult<T>,
) -> StoreResult<Option<T>> {
    let mut statement = c.prepare_cached(sql)?;
    let mut rows = statement.query(params)?;
    match rows.next()? {
        Some(row) => decode(row).map(Some),
        None => Ok(None),
    }
}

/// Every row, through the prepared-statement cache.
fn all<T>(
    c: &Connection,
    sql: &str,
    params: impl rusqlite::Params,
    decode: fn(&dyn StoredRow) -> StoreResult<T>,
) -> StoreResult<Vec<T>> {
    let mut statement = c.prepare_cached(sql)?;
    let mut rows = statement.query(params)?;
    let mut out = Vec::new();
    while let Some(row) = rows.next()? {
        out.push(decode(row)?);
    }
    Ok(out)
}

/// A count, through the prepared-statement cache.
fn count(c: &Connection, sql: &str, params: impl rusqlite::Params) -> StoreResult<i64> {
    Ok(c.prepare_cached(sql)?.query_row(params, |r| r.get(0))?)
}

/// A shared statement's value as SQLite binds it.
impl rusqlite::ToSql for super::Bound {
    fn to_sql(&self) -> rusqlite::Result<rusqlite::types::ToSqlOutput<'_>> {
        match self {
            super::Bound::Int(int) => int.to_sql(),
            super::Bound::Text(text) => text.to_sql(),
        }
    }
}

/// The id of the first column.
fn first(row: &dyn StoredRow) -> StoreResult<i64> {
    row.int(0)
}

impl StoredRow for Row<'_> {
    fn int(&self, idx: usize) -> StoreResult<i64> {
        Ok(self.get(idx)?)
    }

    fn opt_int(&self, idx: usize) -> StoreResult<Option<i64>> {
        Ok(self.get(idx)?)
    }

    fn text(&self, idx: usize) -> StoreResult<String> {
        Ok(self.get(idx)?)
    }

    fn opt_text(&self, idx: usize) -> StoreResult<Option<String>> {
        Ok(self.get(idx)?)
    }

    fn flag(&self, idx: usize) -> StoreResult<bool> {
        Ok(self.get(idx)?)
    }

    fn bytes(&self, idx: usize) -> StoreResult<Vec<u8>> {
        Ok(self.get(idx)?)
    }

    fn ids(&self, idx: usize) -> StoreResult<Vec<i64>> {
        let list: Option<String> = self.get(idx)?;
        list.unwrap_or_default()
            .split(',')
            .filter(|s| !s.is_empty())
            .map(|s| s.parse::<i64>().map_err(|_| super::bad_value("id list", s)))
            .collect()
    }
}

#[async_trait]
impl Store for SqliteStore {
    async fn transact(&self, body: TxBody) -> StoreResult<Vec<Invalidation>> {
        self.run_on_writer(body, false, false).await
    }

    fn writes_one_at_a_time(&self) -> bool {
        true
    }

    async fn insert_plain_chains(&self, new: Vec<NewChain>) -> StoreResult<Vec<Option<Chain>>> {
        let (inserted, _) = crate::store::transact(self, move |tx| {
            let new = new.clone();
            Box::pin(async move { tx.insert_chains_if_free(new).await })
        })
        .await?;
        Ok(inserted)
    }

    async fn reserve_creations(
        &self,
        user: UserId,
        day: Timestamp,
        n: i64,
        default_quota: i64,
    ) -> StoreResult<Option<i64>> {
        let (reserved, _) = crate::store::transact(self, move |tx| {
            Box::pin(async move { tx.add_creations_within(user, day, n, default_quota).await })
        })
        .await?;
        Ok(reserved)
    }

    async fn add_visits(
        &self,
        batch: Arc<VisitBatch>,
        at: Timestamp,
        forget_before: Timestamp,
    ) -> StoreResult<bool> {
        // A flush changes pages all over the counter tables: alone, it needs no savepoint.
        let hurry = batch.behind;
        let (added, _) = crate::store::transact_by(
            |body| self.run_on_writer(body, true, hurry),
            move |tx| {
                let batch = batch.clone();
                Box::pin(async move { tx.add_visits(&batch, at, forget_before).await })
            },
        )
        .await?;
        Ok(added)
    }

    async fn ping(&self) -> StoreResult<()> {
        self.read(|c| count(c, "SELECT 1", []).map(|_| ())).await
    }

    fn feed(&self) -> Option<tokio::sync::mpsc::Receiver<FeedEvent>> {
        None
    }

    async fn acknowledge(&self, _seq: i64) -> StoreResult<()> {
        // No feed, so no checkpoint to acknowledge: this process is the only instance.
        Ok(())
    }

    /// Empties the log into the database file, so that the next start has no log to read
    /// and the file alone holds every commit.
    async fn close(&self) {
        let inner = self.inner.clone();
        let emptied = tokio::task::spawn_blocking(move || inner.checkpoints.empty_log()).await;
        if let Err(err) = emptied
            .map_err(StoreError::backend)
            .and_then(|emptied| emptied)
        {
            tracing::warn!(error = %err, "emptying the SQLite log on the way out failed");
        }
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::SqliteStore;
    use crate::model::DomainId;
    use crate::store::{ChainStore, NewUser};

    async fn add_user(store: &SqliteStore, name: &str) {
        let name = name.to_owned();
        crate::store::transact(store, move |tx| {
            let name = name.clone();
            Box::pin(async move {
                tx.insert_user(NewUser {
                    name,
                    daily_quota: None,
                    created_at: 0,
                })
                .await
            })
        })
        .await
        .expect("a user");
    }

    /// A point read keeps its read transaction open for the next one; a reader that then goes
    /// idle must not hold the log back from being copied into the database for good.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn an_idle_reader_does_not_hold_back_checkpoints() {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let path = dir.path().join("linkapi.db");
        let store = SqliteStore::open(&path).expect("the store");
        add_user(&store, "before").await;
        // The lookup leaves its snapshot open on the first reader...
        assert_eq!(store.link(DomainId(1), "none").await.expect("a read"), None);
        // ... and these commits land in the log after it.
        for i in 0..20 {
            add_user(&store, &format!("after-{i}")).await;
        }
        // The checkpointing thread ends idle snapshots before each of its checkpoints.
        tokio::time::sleep(
            super::readers::SNAPSHOT_REUSE + super::checkpoint::EVERY + Duration::from_millis(500),
        )
        .await;
        let conn = rusqlite::Connection::open(&path).expect("a connection");
        let (busy, log, copied): (i64, i64, i64) = conn
            .query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |r| {
                Ok((r.get(0)?, r.get(1)?, r.get(2)?))
            })
            .expect("a checkpoint");
        assert_eq!(busy, 0);
        assert!(log > 0, "nothing was written to the log");
        assert_eq!(copied, log, "the log was not copied back whole");
    }

    /// A store that closes leaves its log empty: the next start has none to read, and the
    /// database file alone (as a copy of it would be) holds every commit.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_closed_store_leaves_every_commit_in_the_database_file() {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let path = dir.path().join("linkapi.db");
        let store = SqliteStore::open(&path).expect("the store");
        for i in 0..20 {
            add_user(&store, &format!("user-{i}")).await;
        }
        let log = path.with_extension("db-wal");
        assert!(std::fs::metadata(&log).expect("the log").len() > 0);
        crate::store::Store::close(&store).await;
        assert_eq!(std::fs::metadata(&log).expect("the log").len(), 0);
        let copy = dir.path().join("copy.db");
        std::fs::copy(&path, &copy).expect("a copy of the database file alone");
        let users: i64 = rusqlite::Connection::open(&copy)
            .expect("the copy")
            .query_row("SELECT count(*) FROM users", [], |r| r.get(0))
            .expect("a count");
        assert_eq!(users, 20);
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_link_lookup_with_every_reader_busy_waits_for_one() {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let store = SqliteStore::open(&dir.path().join("linkapi.db")).expect("the store");
        // Every reader taken, as by long reads on the blocking pool: no inline read is
        // possible, so the lookup goes to the pool and waits there.
        let held = store.inner.readers.hold_all();
        let lookup = tokio::spawn({
            let store = store.clone();
            async move { store.link(DomainId(1), "nothing").await }
        });
        tokio::time::sleep(Duration::from_millis(100)).await;
        assert!(!lookup.is_finished(), "answered without a reader");
        drop(held);
        let found = tokio::time::timeout(Duration::from_secs(10), lookup)
            .await
            .expect("answered once a reader was free")
            .expect("the lookup task")
            .expect("the lookup");
        assert_eq!(found, None);
    }
}
