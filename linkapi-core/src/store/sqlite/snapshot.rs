//! The operator's file-level work on a SQLite database: an online, consistent snapshot
//! ([`backup`]), checking a file before trusting it ([`inspect`]), putting a snapshot in place
//! ([`restore`]), and the lock that says a server has the database open ([`DatabaseLock`]).
//!
//! These run outside the server (from `linkapi-server backup|restore`), so they are blocking
//! and open their own connections. A backup reads through SQLite's own snapshot isolation: a
//! read transaction in WAL mode sees every transaction committed before it began and nothing
//! after, while the server goes on writing.

use std::fs::File;
use std::path::{Path, PathBuf};

use rusqlite::{Connection, OpenFlags};

use super::schema;

/// What a file-level operation on a SQLite database can meet.
#[derive(Debug, thiserror::Error)]
pub enum SnapshotError {
    /// A running server holds the database; the operation needs it stopped.
    #[error(
        "a linkapi server is using {}; stop it first (it holds {})",
        database.display(),
        lock.display()
    )]
    InUse {
        /// The database.
        database: PathBuf,
        /// The lock file the server holds.
        lock: PathBuf,
    },
    /// The file to write exists; nothing is overwritten.
    #[error("{} already exists; remove it or choose another name", .0.display())]
    TargetExists(PathBuf),
    /// There is no database at the path.
    #[error("{} does not exist", .0.display())]
    Missing(PathBuf),
    /// The file is not a sound linkapi database.
    #[error("{} is not a sound linkapi database: {detail}", path.display())]
    Unsound {
        /// The file.
        path: PathBuf,
        /// What SQLite's integrity check or the schema check said.
        detail: String,
    },
    /// The file was written by a newer linkapi.
    #[error(
        "{} has schema version {found}, newer than this linkapi supports ({supported})",
        path.display()
    )]
    TooNew {
        /// The file.
        path: PathBuf,
        /// Its schema version.
        found: i64,
        /// The newest this build knows.
        supported: i64,
    },
    /// SQLite failed.
    #[error("SQLite: {0}")]
    Sqlite(#[from] rusqlite::Error),
    /// A file operation failed.
    #[error("{what} {}: {source}", path.display())]
    Io {
        /// What was being done.
        what: &'static str,
        /// To which file.
        path: PathBuf,
        /// Why it failed.
        source: std::io::Error,
    },
}

impl SnapshotError {
    fn io(what: &'static str, path: &Path) -> impl FnOnce(std::io::Error) -> SnapshotError {
        let path = path.to_path_buf();
        move |source| SnapshotError::Io { what, path, source }
    }
}

/// What a database file holds, as checked by [`inspect`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Snapshot {
    /// Where it is.
    pub path: PathBuf,
    /// Its schema version (migrations applied).
    pub schema_version: i64,
    /// Its size on disk.
    pub bytes: u64,
    /// Rows per table, by table name.
    pub tables: Vec<(String, i64)>,
}

impl Snapshot {
    /// Rows of `table`, 0 when it has none or does not exist.
    pub fn rows(&self, table: &str) -> i64 {
        self.tables
            .iter()
            .find(|(name, _)| name == table)
            .map_or(0, |(_, rows)| *rows)
    }
}

/// Held while a server serves a SQLite database: an exclusive advisory lock on a file beside
/// it. Two processes on one file would each trust caches the other's writes make stale, and a
/// restore under a running server would be overwritten by its next checkpoint.
#[derive(Debug)]
pub struct DatabaseLock {
    _file: File,
}

impl DatabaseLock {
    /// The lock file of the database at `database`.
    pub fn path_for(database: &Path) -> PathBuf {
        let mut name = database.as_os_str().to_owned();
        name.push(".lock");
        PathBuf::from(name)
    }

    /// Takes the lock, or says who has it.
    ///
    /// # Errors
    /// [`SnapshotError::InUse`] when another process (or another server in this one) holds it.
    pub fn acquire(database: &Path) -> Result<DatabaseLock, SnapshotError> {
        let lock = Self::path_for(database);
        let file = File::options()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&lock)
            .map_err(SnapshotError::io("opening the lock file", &lock))?;
        match file.try_lock() {
            Ok(()) => Ok(DatabaseLock { _file: file }),
            Err(std::fs::TryLockError::WouldBlock) => Err(SnapshotError::InUse {
                database: database.to_path_buf(),
                lock,
            }),
            Err(std::fs::TryLockError::Error(source)) => Err(SnapshotError::Io {
                what: "locking",
                path: lock,
                source,
            }),
        }
    }
}

/// Opens `path` read-only without creating it.
fn open_read_only(path: &Path) -> Result<Connection, SnapshotError> {
    if !path.exists() {
        return Err(SnapshotError::Missing(path.to_path_buf()));
    }
    let conn = Connection::open_with_flags(
        path,
        OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )?;
    conn.busy_timeout(std::time::Duration::from_secs(10))?;
    Ok(conn)
}

/// Writes a consistent copy of the database at `source` to `target` while a server may be
/// writing to it: every transaction committed before the copy began is in it. The copy is
/// written beside `target`, synced, checked and only then renamed into place, so `target`
/// either does not exist or is a whole, sound database.
///
/// # Errors
/// When `target` exists, `source` is missing or unsound, or a file operation fails.
pub fn backup(source: &Path, target: &Path) -> Result<Snapshot, SnapshotError> {
    if target.exists() {
        return Err(SnapshotError::TargetExists(target.to_path_buf()));
    }
    let conn = open_read_only(source)?;
    check_version(&conn, source)?;
    let mut partial = target.as_os_str().to_owned();
    partial.push(".partial");
    let partial = PathBuf::from(partial);
    // A partial copy of an earlier, interrupted run is ours to replace.
    match std::fs::remove_file(&partial) {
        Ok(()) => {}
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => {}
        Err(err) => return Err(SnapshotError::io("removing", &partial)(err)),
    }
    let written = partial
        .to_str()
        .ok_or_else(|| SnapshotError::Unsound {
            path: partial.clone(),
            detail: "the backup path must be valid UTF-8".to_owned(),
        })?
        .to_owned();
    // VACUUM INTO runs in one read transaction: a snapshot, compacted, never a torn page.
    conn.execute("VACUUM INTO ?1", [written])?;
    drop(conn);
    sync_file(&partial)?;
    let snapshot = inspect(&partial)?;
    std::fs::rename(&partial, target).map_err(SnapshotError::io("renaming", &partial))?;
    sync_parent(target)?;
    Ok(Snapshot {
        path: target.to_path_buf(),
        ..snapshot
    })
}

/// Checks the database at `path` (SQLite's integrity check, the schema version) and counts the
/// rows of each table.
///
/// # Errors
/// When it is missing, unsound, or newer than this build.
pub fn inspect(path: &Path) -> Result<Snapshot, SnapshotError> {
    let conn = open_read_only(path)?;
    let unsound = |detail: String| SnapshotError::Unsound {
        path: path.to_path_buf(),
        detail,
    };
    let verdict: String = conn
        .query_row("PRAGMA integrity_check", [], |r| r.get(0))
        .map_err(|err| unsound(err.to_string()))?;
    if verdict != "ok" {
        return Err(unsound(verdict));
    }
    let schema_version = check_version(&conn, path)?;
    if schema_version == 0 {
        return Err(unsound("it has no linkapi tables".to_owned()));
    }
    let names = conn
        .prepare(
            "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' \
             ORDER BY name",
        )?
        .query_map([], |r| r.get::<_, String>(0))?
        .collect::<rusqlite::Result<Vec<_>>>()?;
    let mut tables = Vec::with_capacity(names.len());
    for name in names {
        // Names come from sqlite_schema, not from a caller; quoted all the same.
        let rows: i64 = conn.query_row(
            &format!("SELECT count(*) FROM \"{}\"", name.replace('"', "\"\"")),
            [],
            |r| r.get(0),
        )?;
        tables.push((name, rows));
    }
    let bytes = std::fs::metadata(path)
        .map_err(SnapshotError::io("reading the size of", path))?
        .len();
    Ok(Snapshot {
        path: path.to_path_buf(),
        schema_version,
        bytes,
        tables,
    })
}

/// The schema version of `conn`'s database, refused when newer than this build.
fn check_version(conn: &Connection, path: &Path) -> Result<i64, SnapshotError> {
    let found: i64 = conn.query_row("PRAGMA user_version", [], |r| r.get(0))?;
    if found > schema::latest_version() {
        return Err(SnapshotError::TooNew {
            path: path.to_path_buf(),
            found,
            supported: schema::latest_version(),
        });
    }
    Ok(found)
}

/// What [`restore`] did.
#[derive(Debug, Clone)]
pub struct Restored {
    /// The snapshot now in place.
    pub snapshot: Snapshot,
    /// Where the database it replaced went (with its write-ahead log), if there was one.
    pub replaced: Option<PathBuf>,
}

/// Puts the snapshot at `backup` in place as the database at `database`, which no server may
/// be using. The database it replaces is kept beside it, renamed with its write-ahead log, never
/// deleted: a restore of the wrong file is undone by another restore.
///
/// # Errors
/// When a server holds the database, the backup is unsound or newer than this build, or a file
/// operation fails.
pub fn restore(backup: &Path, database: &Path, now_unix: i64) -> Result<Restored, SnapshotError> {
    // Restoring into a data directory that does not exist yet makes it.
    if let Some(dir) = database.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(SnapshotError::io("creating", dir))?;
    }
    let _lock = DatabaseLock::acquire(database)?;
    let snapshot = inspect(backup)?;
    let mut partial = database.as_os_str().to_owned();
    partial.push(".restoring");
    let partial = PathBuf::from(partial);
    std::fs::copy(backup, &partial)
        .map_err(SnapshotError::io("copying the backup to", &partial))?;
    sync_file(&partial)?;
    let replaced = if database.exists() {
        let mut aside = database.as_os_str().to_owned();
        aside.push(format!(".replaced-{now_unix}"));
        let aside = PathBuf::from(aside);
        // The log and index travel with their database, or a stale log would be replayed into
        // the restored file on its next open.
        for suffix in ["-wal", "-shm", ""] {
            let mut from = database.as_os_str().to_owned();
            from.push(suffix);
            let mut to = aside.as_os_str().to_owned();
            to.push(suffix);
            match std::fs::rename(&from, &to) {
                Ok(()) => {}
                Err(err) if err.kind() == std::io::ErrorKind::NotFound => {}
                Err(err) => return Err(SnapshotError::io("moving aside", Path::new(&from))(err)),
            }
        }
        Some(aside)
    } else {
        None
    };
    std::fs::rename(&partial, database).map_err(SnapshotError::io("renaming", &partial))?;
    sync_parent(database)?;
    Ok(Restored {
        snapshot: Snapshot {
            path: database.to_path_buf(),
            ..snapshot
        },
        replaced,
    })
}

fn sync_file(path: &Path) -> Result<(), SnapshotError> {
    File::open(path)
        .and_then(|f| f.sync_all())
        .map_err(SnapshotError::io("syncing", path))
}

/// Makes a rename in `path`'s directory durable (a no-op where directories cannot be opened).
fn sync_parent(path: &Path) -> Result<(), SnapshotError> {
    #[cfg(unix)]
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        File::open(dir)
            .and_then(|f| f.sync_all())
            .map_err(SnapshotError::io("syncing the directory", dir))?;
    }
    #[cfg(not(unix))]
    let _ = path;
    Ok(())
}
