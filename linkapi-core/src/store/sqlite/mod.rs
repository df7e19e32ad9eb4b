//! The embedded SQLite backend: one file in WAL mode, one writer thread and a few readers.
//! rusqlite is blocking: reads run on tokio's blocking pool, and transaction bodies on the
//! writer thread (`writer`), which commits them in groups. No connection lock is ever held
//! across an `.await`.

use std::collections::HashMap;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, mpsc};

use async_trait::async_trait;
use rusqlite::{Connection, OpenFlags, OptionalExtension, Row, params};
use tokio::sync::oneshot;

use super::{
    ASSEMBLY_COLUMNS, AssemblyInput, BlobRecord, CHANNEL_COLUMNS, ChainPatch, ChainQuery,
    ChainStore, ChainVisits, Change, ChannelEdit, ChannelInput, Conversion, DomainStore,
    GroupStore, JUMP_COLUMN_COUNT, JUMP_COLUMNS, JumpRow, KeyStore, LinkTarget, Misuse, NewApiKey,
    NewChain, NewDomain, NewGroup, NewTemplate, NewUpload, NewUser, Notice, Page, PageTarget,
    Store, StoreError, StoreResult, TRANSFER_COLUMNS, TemplatePatch, TemplateStore, TransferQuery,
    Tx, TxBody, Unique, UploadClaim, UploadStore, UserStore, VisitBatch, VisitStore, VisitorSecret,
    WorkchatStore, jump_values,
};
use crate::model::{
    ApiKeyRecord, Assembly, Chain, ChainId, ChainKind, ChainStatus, Channel, ChannelId, Domain,
    DomainId, DomainStatus, Group, GroupId, JumpSettings, KeyId, PageViews, Scheme, Scope,
    Template, TemplateId, TemplateKind, Timestamp, Transfer, Upload, UploadId, User, UserId,
    VisitCap,
};

mod schema;
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
    /// Readers, handed out round-robin.
    readers: Vec<Mutex<Connection>>,
    /// Next reader to try.
    next_reader: AtomicUsize,
}

impl std::fmt::Debug for SqliteStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SqliteStore").finish_non_exhaustive()
    }
}

fn backend(err: impl std::error::Error + Send + Sync + 'static) -> StoreError {
    StoreError::backend(err)
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
        _ => backend(err),
    }
}

/// A database file whose schema is newer than this build knows.
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
    // SQLite's default page cache is 2 MB: random codes spread inserts over the whole code
    // index, so once it outgrows the cache every create pays for pages read back. 64 MB per
    // connection (a bound, not an allocation) keeps the hot indexes of millions of chains.
    conn.pragma_update(None, "cache_size", -65_536)?;
    Ok(())
}

impl SqliteStore {
    /// Opens (creating if needed) the database at `path` and runs pending migrations.
    ///
    /// # Errors
    /// When the file cannot be opened, or its schema is newer than this build.
    pub fn open(path: &Path) -> StoreResult<Self> {
        let mut writer = Connection::open(path).map_err(backend)?;
        writer
            .pragma_update(None, "journal_mode", "WAL")
            .map_err(backend)?;
        configure(&writer).map_err(backend)?;
        let found: i64 = writer
            .query_row("PRAGMA user_version", [], |r| r.get(0))
            .map_err(backend)?;
        if found > schema::latest_version() {
            return Err(backend(SchemaTooNew {
                found,
                supported: schema::latest_version(),
            }));
        }
        schema::migrate(&mut writer).map_err(backend)?;
        let readers = (0..READERS)
            .map(|_| {
                let conn = Connection::open_with_flags(
                    path,
                    OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
                )?;
                configure(&conn)?;
                Ok(Mutex::new(conn))
            })
            .collect::<rusqlite::Result<Vec<_>>>()
            .map_err(backend)?;
        let writer = writer::spawn(writer).map_err(backend)?;
        Ok(SqliteStore {
            inner: Arc::new(Inner {
                writer: Mutex::new(writer),
                readers,
                next_reader: AtomicUsize::new(0),
            }),
        })
    }

    /// Runs `f` on a reader connection on the blocking pool.
    async fn read<T, F>(&self, f: F) -> StoreResult<T>
    where
        T: Send + 'static,
        F: FnOnce(&Connection) -> rusqlite::Result<T> + Send + 'static,
    {
        let inner = self.inner.clone();
        tokio::task::spawn_blocking(move || {
            let conn = inner.reader();
            f(&conn).map_err(backend)
        })
        .await
        .map_err(backend)?
    }

    /// Hands `body` to the writer thread and waits for the commit that holds it.
    async fn run_on_writer(&self, body: TxBody) -> StoreResult<Vec<Change>> {
        let (done, outcome) = oneshot::channel();
        lock(&self.inner.writer)
            .send(writer::Job { body, done })
            .map_err(|_| backend(Misuse("the SQLite writer thread has stopped")))?;
        outcome
            .await
            .map_err(|_| backend(Misuse("the SQLite writer thread dropped a transaction")))?
    }
}

/// A transaction on the writer thread: the connection inside the group's transaction (and this
/// body's savepoint), and the changes the body published.
pub(super) struct SqliteTx<'c> {
    conn: &'c mut Connection,
    changes: Vec<Change>,
}

/// Locks a connection or the writer's queue. A panic while holding either cannot leave SQLite
/// half-written (transactions roll back on drop), so a poisoned lock is safe to take over.
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl Inner {
    fn reader(&self) -> MutexGuard<'_, Connection> {
        let start = self.next_reader.fetch_add(1, Ordering::Relaxed);
        for i in 0..self.readers.len() {
            if let Ok(guard) = self.readers[(start + i) % self.readers.len()].try_lock() {
                return guard;
            }
        }
        lock(&self.readers[start % self.readers.len()])
    }
}

/// One row or none, through the connection's prepared-statement cache: the hot lookups
/// (a chain, a key, a link) are prepared once per connection, not on every call.
fn one<T>(
    c: &Connection,
    sql: &str,
    params: impl rusqlite::Params,
    map: impl FnOnce(&Row<'_>) -> rusqlite::Result<T>,
) -> rusqlite::Result<Option<T>> {
    c.prepare_cached(sql)?.query_row(params, map).optional()
}

fn bad_value(column: usize, value: i64) -> rusqlite::Error {
    rusqlite::Error::IntegralValueOutOfRange(column, value)
}

fn chain_kind(row: &Row<'_>, idx: usize) -> rusqlite::Result<ChainKind> {
    let v: i64 = row.get(idx)?;
    ChainKind::from_code(v).ok_or_else(|| bad_value(idx, v))
}

fn chain_status(row: &Row<'_>, idx: usize) -> rusqlite::Result<ChainStatus> {
    let v: i64 = row.get(idx)?;
    ChainStatus::from_code(v).ok_or_else(|| bad_value(idx, v))
}

fn domain_status(row: &Row<'_>, idx: usize) -> rusqlite::Result<DomainStatus> {
    let v: i64 = row.get(idx)?;
    DomainStatus::from_code(v).ok_or_else(|| bad_value(idx, v))
}

// ---- users ---------------------------------------------------------------------------------

const USER_COLUMNS: &str = "id, name, daily_quota, created_at";

fn user_from_row(row: &Row<'_>) -> rusqlite::Result<User> {
    Ok(User {
        id: UserId(row.get(0)?),
        name: row.get(1)?,
        daily_quota: row.get(2)?,
        created_at: row.get(3)?,
    })
}

fn user_by_id(c: &Connection, id: UserId) -> rusqlite::Result<Option<User>> {
    one(
        c,
        &format!("SELECT {USER_COLUMNS} FROM users WHERE id = ?1"),
        [id.0],
        user_from_row,
    )
}

#[async_trait]
impl UserStore for SqliteStore {
    async fn user(&self, id: UserId) -> StoreResult<Option<User>> {
        self.read(move |c| user_by_id(c, id)).await
    }

    async fn users(&self) -> StoreResult<Vec<User>> {
        self.read(|c| {
            c.prepare_cached(&format!("SELECT {USER_COLUMNS} FROM users ORDER BY id"))?
                .query_map([], user_from_row)?
                .collect()
        })
        .await
    }
}

// ---- keys ----------------------------------------------------------------------------------

const KEY_COLUMNS: &str = "id, user_id, name, prefix, scopes, created_at, expires_at, revoked_at";

fn scopes_to_text(scopes: &[Scope]) -> String {
    scopes
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

fn key_from_row(row: &Row<'_>) -> rusqlite::Result<ApiKeyRecord> {
    let scopes: String = row.get(4)?;
    let scopes = scopes
        .split_whitespace()
        .map(|s| {
            s.parse::<Scope>().map_err(|e| {
                rusqlite::Error::FromSqlConversionFailure(4, rusqlite::types::Type::Text, e.into())
            })
        })
        .collect::<rusqlite::Result<Vec<_>>>()?;
    Ok(ApiKeyRecord {
        id: KeyId(row.get(0)?),
        user_id: UserId(row.get(1)?),
        name: row.get(2)?,
        prefix: row.get(3)?,
        scopes,
        created_at: row.get(5)?,
        expires_at: row.get(6)?,
        revoked_at: row.get(7)?,
    })
}

#[async_trait]
impl KeyStore for SqliteStore {
    async fn key_by_hash(&self, hash: &str) -> StoreResult<Option<ApiKeyRecord>> {
        let hash = hash.to_owned();
        self.read(move |c| {
            one(
                c,
                &format!("SELECT {KEY_COLUMNS} FROM api_keys WHERE hash = ?1"),
                [hash],
                key_from_row,
            )
        })
        .await
    }

    async fn keys(&self, user: Option<UserId>) -> StoreResult<Vec<ApiKeyRecord>> {
        self.read(move |c| {
            c.prepare_cached(&format!(
                "SELECT {KEY_COLUMNS} FROM api_keys WHERE ?1 IS NULL OR user_id = ?1 ORDER BY id"
            ))?
            .query_map([user.map(|u| u.0)], key_from_row)?
            .collect()
        })
        .await
    }

    async fn count_keys(&self) -> StoreResult<i64> {
        self.read(|c| c.query_row("SELECT count(*) FROM api_keys", [], |r| r.get(0)))
            .await
    }
}

// ---- domains -------------------------------------------------------------------------------

const DOMAIN_COLUMNS: &str = "id, host, scheme, scene, shared, user_id, status, created_at";

/// Reads a domain from eight columns starting at `at`.
fn domain_at(row: &Row<'_>, at: usize) -> rusqlite::Result<Domain> {
    let scheme: String = row.get(at + 2)?;
    Ok(Domain {
        id: DomainId(row.get(at)?),
        host: row.get(at + 1)?,
        scheme: Scheme::parse(&scheme).ok_or_else(|| {
            rusqlite::Error::InvalidColumnType(at + 2, scheme, rusqlite::types::Type::Text)
        })?,
        scene: row.get(at + 3)?,
        shared: row.get(at + 4)?,
        user_id: row.get::<_, Option<i64>>(at + 5)?.map(UserId),
        status: domain_status(row, at + 6)?,
        created_at: row.get(at + 7)?,
    })
}

fn domain_from_row(row: &Row<'_>) -> rusqlite::Result<Domain> {
    domain_at(row, 0)
}

fn domain_by_id(c: &Connection, id: DomainId) -> rusqlite::Result<Option<Domain>> {
    one(
        c,
        &format!("SELECT {DOMAIN_COLUMNS} FROM domains WHERE id = ?1"),
        [id.0],
        domain_from_row,
    )
}

#[async_trait]
impl DomainStore for SqliteStore {
    async fn domains(&self) -> StoreResult<Vec<Domain>> {
        self.read(|c| {
            c.prepare_cached(&format!("SELECT {DOMAIN_COLUMNS} FROM domains ORDER BY id"))?
                .query_map([], domain_from_row)?
                .collect()
        })
        .await
    }
}

// ---- groups --------------------------------------------------------------------------------

const GROUP_SELECT: &str = "SELECT g.id, g.user_id, g.name, g.chain_type, g.created_at,
        (SELECT count(*) FROM chain_group_members m JOIN chains c ON c.id = m.chain_id
          WHERE m.group_id = g.id AND c.deleted_at IS NULL)
    FROM chain_groups g";

fn group_from_row(row: &Row<'_>) -> rusqlite::Result<Group> {
    Ok(Group {
        id: GroupId(row.get(0)?),
        user_id: UserId(row.get(1)?),
        name: row.get(2)?,
        chain_type: chain_kind(row, 3)?,
        created_at: row.get(4)?,
        chain_count: row.get(5)?,
    })
}

#[async_trait]
impl GroupStore for SqliteStore {
    async fn group(&self, user: UserId, id: GroupId) -> StoreResult<Option<Group>> {
        self.read(move |c| {
            one(
                c,
                &format!("{GROUP_SELECT} WHERE g.user_id = ?1 AND g.id = ?2"),
                [user.0, id.0],
                group_from_row,
            )
        })
        .await
    }

    async fn groups(&self, user: UserId) -> StoreResult<Vec<Group>> {
        self.read(move |c| {
            c.prepare_cached(&format!(
                "{GROUP_SELECT} WHERE g.user_id = ?1 ORDER BY g.id"
            ))?
            .query_map([user.0], group_from_row)?
            .collect()
        })
        .await
    }
}

// ---- chains --------------------------------------------------------------------------------

/// A chain, its groups, its domain (from column 13) and its jump settings (from column
/// [`JUMP_AT`]).
static CHAIN_SELECT: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
    format!(
        "SELECT c.id, c.user_id, c.chain_type, c.sub_type, c.code, c.title,
            c.target_url, c.valid_time, c.status, c.deleted_at, c.created_at, c.updated_at,
            (SELECT group_concat(group_id) FROM
                (SELECT group_id FROM chain_group_members m WHERE m.chain_id = c.id
                 ORDER BY position)),
            d.id, d.host, d.scheme, d.scene, d.shared, d.user_id, d.status, d.created_at,
            {JUMP_COLUMNS}
        FROM chains c JOIN domains d ON d.id = c.domain_id"
    )
});

/// The first jump column of [`CHAIN_SELECT`].
const JUMP_AT: usize = 21;

/// Reads [`JUMP_COLUMNS`] starting at `at`.
fn jump_row(row: &Row<'_>, at: usize) -> rusqlite::Result<JumpRow> {
    let mut texts: [Option<String>; 11] = Default::default();
    for (i, text) in texts.iter_mut().enumerate() {
        *text = row.get(at + i)?;
    }
    let mut ints = [None; 8];
    for (i, int) in ints.iter_mut().enumerate() {
        *int = row.get(at + texts.len() + i)?;
    }
    debug_assert_eq!(texts.len() + ints.len(), JUMP_COLUMN_COUNT);
    Ok(JumpRow { texts, ints })
}

/// A store error from reading a row, as rusqlite sees it.
fn row_error(column: usize, err: StoreError) -> rusqlite::Error {
    rusqlite::Error::FromSqlConversionFailure(column, rusqlite::types::Type::Integer, err.into())
}

fn chain_from_row(row: &Row<'_>) -> rusqlite::Result<Chain> {
    let groups: Option<String> = row.get(12)?;
    let group_ids = groups
        .unwrap_or_default()
        .split(',')
        .filter(|s| !s.is_empty())
        .map(|s| s.parse::<i64>().map(GroupId))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| {
            rusqlite::Error::FromSqlConversionFailure(12, rusqlite::types::Type::Text, e.into())
        })?;
    let kind = chain_kind(row, 2)?;
    Ok(Chain {
        id: ChainId(row.get(0)?),
        user_id: UserId(row.get(1)?),
        kind,
        sub_type: row.get(3)?,
        code: row.get(4)?,
        title: row.get(5)?,
        target_url: row.get(6)?,
        valid_time: row.get(7)?,
        stored_status: chain_status(row, 8)?,
        deleted_at: row.get(9)?,
        created_at: row.get(10)?,
        updated_at: row.get(11)?,
        group_ids,
        domain: domain_at(row, 13)?,
        jump: jump_row(row, JUMP_AT)?
            .settings(kind)
            .map_err(|e| row_error(JUMP_AT, e))?,
    })
}

fn channel_from_row(row: &Row<'_>) -> rusqlite::Result<Channel> {
    Ok(Channel {
        id: ChannelId(row.get(0)?),
        chain_id: ChainId(row.get(1)?),
        sort: row.get(2)?,
        name: row.get(3)?,
        url: row.get(4)?,
        url2: row.get(5)?,
        expires_at: row.get(6)?,
        ratio: row.get(7)?,
        visit_limit: row.get(8)?,
        enabled: row.get::<_, i64>(9)? != 0,
        visit_count: row.get(10)?,
    })
}

fn channels_of(c: &Connection, chain: ChainId) -> rusqlite::Result<Vec<Channel>> {
    c.prepare_cached(&format!(
        "SELECT {CHANNEL_COLUMNS} FROM channels
         WHERE chain_id = ?1 AND deleted_at IS NULL ORDER BY sort, id"
    ))?
    .query_map([chain.0], channel_from_row)?
    .collect()
}

fn chain_by_id(c: &Connection, user: UserId, id: ChainId) -> rusqlite::Result<Option<Chain>> {
    one(
        c,
        &format!(
            "{} WHERE c.user_id = ?1 AND c.id = ?2 AND c.deleted_at IS NULL",
            *CHAIN_SELECT
        ),
        [user.0, id.0],
        chain_from_row,
    )
}

/// Escapes `%`, `_` and `\` for a LIKE pattern with `ESCAPE '\'`.
fn like_pattern(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('%');
    for ch in text.chars() {
        if matches!(ch, '%' | '_' | '\\') {
            out.push('\\');
        }
        out.push(ch);
    }
    out.push('%');
    out
}

#[async_trait]
impl ChainStore for SqliteStore {
    async fn chain(&self, user: UserId, id: ChainId) -> StoreResult<Option<Chain>> {
        self.read(move |c| chain_by_id(c, user, id)).await
    }

    async fn chains_by_code(&self, user: UserId, code: &str) -> StoreResult<Vec<Chain>> {
        let code = code.to_owned();
        self.read(move |c| {
            c.prepare_cached(&format!(
                "{} WHERE c.user_id = ?1 AND c.code = ?2 AND c.deleted_at IS NULL
                 ORDER BY c.id",
                *CHAIN_SELECT
            ))?
            .query_map(params![user.0, code], chain_from_row)?
            .collect()
        })
        .await
    }

    async fn chains(&self, user: UserId, query: &ChainQuery) -> StoreResult<Page<Chain>> {
        let query = query.clone();
        self.read(move |c| {
            let kinds = query
                .kinds
                .iter()
                .map(|k| k.code().to_string())
                .collect::<Vec<_>>()
                .join(",");
            let filter = String::from(
                "c.user_id = ?1 AND c.deleted_at IS NULL
                 AND (?2 = '' OR instr(',' || ?2 || ',', ',' || c.chain_type || ',') > 0)
                 AND (?3 IS NULL OR EXISTS (SELECT 1 FROM chain_group_members m
                        WHERE m.chain_id = c.id AND m.group_id = ?3))
                 AND (?4 IS NULL OR c.title LIKE ?4 ESCAPE '\\' OR c.code LIKE ?4 ESCAPE '\\')",
            );
            let text = query.text.as_deref().map(like_pattern);
            let group = query.group_id.map(|g| g.0);
            let total: i64 = c.query_row(
                &format!("SELECT count(*) FROM chains c WHERE {filter}"),
                params![user.0, kinds, group, text],
                |r| r.get(0),
            )?;
            let items = c
                .prepare_cached(&format!(
                    "{} WHERE {filter}
                     ORDER BY c.created_at DESC, c.id DESC LIMIT ?5 OFFSET ?6",
                    *CHAIN_SELECT
                ))?
                .query_map(
                    params![user.0, kinds, group, text, query.limit, query.offset],
                    chain_from_row,
                )?
                .collect::<rusqlite::Result<Vec<_>>>()?;
            Ok(Page { items, total })
        })
        .await
    }

    async fn link(&self, domain: DomainId, code: &str) -> StoreResult<Option<LinkTarget>> {
        let code = code.to_owned();
        self.read(move |c| {
            let found = one(
                c,
                &format!(
                    "SELECT c.id, c.chain_type, c.target_url, c.valid_time, c.status,
                        c.deleted_at IS NOT NULL, c.user_id, c.title, c.sub_type, {JUMP_COLUMNS}
                     FROM chains c WHERE c.domain_id = ?1 AND c.code = ?2"
                ),
                params![domain.0, code],
                |row| {
                    let kind = chain_kind(row, 1)?;
                    let settings = jump_row(row, 9)?
                        .settings(kind)
                        .map_err(|e| row_error(9, e))?;
                    let target = LinkTarget {
                        chain_id: ChainId(row.get(0)?),
                        kind,
                        target_url: row.get(2)?,
                        valid_time: row.get(3)?,
                        status: chain_status(row, 4)?,
                        deleted: row.get(5)?,
                        page: None,
                    };
                    let page = settings.map(|settings| -> rusqlite::Result<_> {
                        Ok((
                            UserId(row.get(6)?),
                            row.get::<_, String>(7)?,
                            row.get::<_, Option<i64>>(8)?,
                            *settings,
                        ))
                    });
                    Ok((target, page.transpose()?))
                },
            )?;
            let Some((mut target, page)) = found else {
                return Ok(None);
            };
            if let Some((user_id, title, sub_type, settings)) = page {
                target.page = Some(Arc::new(PageTarget {
                    user_id,
                    title,
                    sub_type,
                    settings,
                    channels: channels_of(c, target.chain_id)?,
                }));
            }
            Ok(Some(target))
        })
        .await
    }

    async fn channels(&self, chain: ChainId) -> StoreResult<Vec<Channel>> {
        self.read(move |c| channels_of(c, chain)).await
    }

    async fn conversions(
        &self,
        user: UserId,
        chain: ChainId,
        offset: i64,
        limit: i64,
    ) -> StoreResult<Page<Conversion>> {
        self.read(move |c| {
            let total: i64 = c
                .prepare_cached(
                    "SELECT count(*) FROM conversions WHERE user_id = ?1 AND chain_id = ?2",
                )?
                .query_row([user.0, chain.0], |r| r.get(0))?;
            let items = c
                .prepare_cached(&format!(
                    "SELECT {CONVERSION_COLUMNS} FROM conversions
                     WHERE user_id = ?1 AND chain_id = ?2
                     ORDER BY event_id DESC LIMIT ?3 OFFSET ?4"
                ))?
                .query_map(params![user.0, chain.0, limit, offset], conversion_from_row)?
                .collect::<rusqlite::Result<Vec<_>>>()?;
            Ok(Page { items, total })
        })
        .await
    }
}

/// An upload's columns, joined with its object's (`u` and `b`).
const UPLOAD_COLUMNS: &str =
    "u.id, u.user_id, u.object_key, b.content_type, u.size_bytes, u.file_name, u.created_at";

fn upload_from_row(row: &Row<'_>) -> rusqlite::Result<Upload> {
    Ok(Upload {
        id: UploadId(row.get(0)?),
        user_id: UserId(row.get(1)?),
        object_key: row.get(2)?,
        content_type: row.get(3)?,
        size_bytes: row.get(4)?,
        file_name: row.get(5)?,
        created_at: row.get(6)?,
    })
}

const BLOB_COLUMNS: &str = "object_key, content_type, size_bytes, refs, deleting";

fn blob_from_row(row: &Row<'_>) -> rusqlite::Result<BlobRecord> {
    Ok(BlobRecord {
        object_key: row.get(0)?,
        content_type: row.get(1)?,
        size_bytes: row.get(2)?,
        refs: row.get(3)?,
        deleting: row.get(4)?,
    })
}

#[async_trait]
impl UploadStore for SqliteStore {
    async fn upload(&self, user: UserId, id: UploadId) -> StoreResult<Option<Upload>> {
        self.read(move |c| {
            one(
                c,
                &format!(
                    "SELECT {UPLOAD_COLUMNS} FROM uploads u JOIN blobs b USING (object_key)
                     WHERE u.user_id = ?1 AND u.id = ?2 AND u.stored = 1"
                ),
                params![user.0, id.0],
                upload_from_row,
            )
        })
        .await
    }

    async fn uploads(&self, user: UserId, offset: i64, limit: i64) -> StoreResult<Page<Upload>> {
        self.read(move |c| {
            let total: i64 = c
                .prepare_cached("SELECT count(*) FROM uploads WHERE user_id = ?1 AND stored = 1")?
                .query_row([user.0], |r| r.get(0))?;
            let items = c
                .prepare_cached(&format!(
                    "SELECT {UPLOAD_COLUMNS} FROM uploads u JOIN blobs b USING (object_key)
                     WHERE u.user_id = ?1 AND u.stored = 1
                     ORDER BY u.id DESC LIMIT ?2 OFFSET ?3"
                ))?
                .query_map(params![user.0, limit, offset], upload_from_row)?
                .collect::<rusqlite::Result<Vec<_>>>()?;
            Ok(Page { items, total })
        })
        .await
    }

    async fn blob(&self, object_key: &str) -> StoreResult<Option<BlobRecord>> {
        let key = object_key.to_owned();
        self.read(move |c| {
            one(
                c,
                &format!("SELECT {BLOB_COLUMNS} FROM blobs WHERE object_key = ?1"),
                [key],
                blob_from_row,
            )
        })
        .await
    }

    async fn unreferenced_blobs(&self, limit: i64) -> StoreResult<Vec<BlobRecord>> {
        self.read(move |c| {
            c.prepare_cached(&format!(
                "SELECT {BLOB_COLUMNS} FROM blobs WHERE refs = 0 LIMIT ?1"
            ))?
            .query_map([limit], blob_from_row)?
            .collect::<rusqlite::Result<Vec<_>>>()
        })
        .await
    }

    async fn stale_pending_uploads(
        &self,
        before: Timestamp,
        limit: i64,
    ) -> StoreResult<Vec<Upload>> {
        self.read(move |c| {
            c.prepare_cached(&format!(
                "SELECT {UPLOAD_COLUMNS} FROM uploads u JOIN blobs b USING (object_key)
                 WHERE u.stored = 0 AND u.created_at < ?1 LIMIT ?2"
            ))?
            .query_map(params![before, limit], upload_from_row)?
            .collect::<rusqlite::Result<Vec<_>>>()
        })
        .await
    }
}

const TEMPLATE_COLUMNS: &str =
    "id, user_id, name, style, type, thumb, body, created_at, updated_at, retired_at";

fn template_from_row(row: &Row<'_>) -> rusqlite::Result<Template> {
    let kind: i64 = row.get(4)?;
    Ok(Template {
        id: TemplateId(row.get(0)?),
        user_id: row.get::<_, Option<i64>>(1)?.map(UserId),
        name: row.get(2)?,
        style: row.get(3)?,
        kind: TemplateKind::from_code(kind).ok_or_else(|| bad_value(4, kind))?,
        thumb: row.get(5)?,
        body: row.get(6)?,
        created_at: row.get(7)?,
        updated_at: row.get(8)?,
        retired_at: row.get(9)?,
    })
}

fn template_by_id(c: &Connection, id: TemplateId) -> rusqlite::Result<Option<Template>> {
    one(
        c,
        &format!("SELECT {TEMPLATE_COLUMNS} FROM templates WHERE id = ?1"),
        [id.0],
        template_from_row,
    )
}

#[async_trait]
impl TemplateStore for SqliteStore {
    async fn templates(
        &self,
        user: Option<UserId>,
        offset: i64,
        limit: i64,
    ) -> StoreResult<Page<Template>> {
        let user = user.map(|u| u.0);
        self.read(move |c| {
            let filter =
                "(?1 IS NULL OR (retired_at IS NULL AND (user_id IS NULL OR user_id = ?1)))";
            let total: i64 = c
                .prepare_cached(&format!("SELECT count(*) FROM templates WHERE {filter}"))?
                .query_row([user], |r| r.get(0))?;
            let items = c
                .prepare_cached(&format!(
                    "SELECT {TEMPLATE_COLUMNS} FROM templates WHERE {filter}
                     ORDER BY id LIMIT ?2 OFFSET ?3"
                ))?
                .query_map(params![user, limit, offset], template_from_row)?
                .collect::<rusqlite::Result<Vec<_>>>()?;
            Ok(Page { items, total })
        })
        .await
    }

    async fn template(&self, id: TemplateId) -> StoreResult<Option<Template>> {
        self.read(move |c| template_by_id(c, id)).await
    }

    async fn templates_in_use(&self, user: UserId) -> StoreResult<Vec<TemplateId>> {
        self.read(move |c| {
            c.prepare_cached(
                "SELECT DISTINCT jump_template_id FROM chains
                 WHERE user_id = ?1 AND deleted_at IS NULL AND chain_type <> 1
                 ORDER BY jump_template_id",
            )?
            .query_map([user.0], |r| Ok(TemplateId(r.get(0)?)))?
            .collect()
        })
        .await
    }
}

#[async_trait]
impl VisitStore for SqliteStore {
    async fn page_views(
        &self,
        ids: &[ChainId],
        today_start: Timestamp,
    ) -> StoreResult<HashMap<ChainId, PageViews>> {
        let ids = ids.to_vec();
        self.read(move |c| {
            let mut history =
                c.prepare_cached("SELECT clicks FROM chain_visit_totals WHERE chain_id = ?1")?;
            let mut today = c.prepare_cached(
                "SELECT clicks FROM chain_daily_clicks WHERE chain_id = ?1 AND day = ?2",
            )?;
            let mut views = HashMap::with_capacity(ids.len());
            for id in ids {
                let history = history.query_row([id.0], |r| r.get(0)).optional()?;
                let today = today
                    .query_row([id.0, today_start], |r| r.get(0))
                    .optional()?;
                views.insert(
                    id,
                    PageViews {
                        today: today.unwrap_or(0),
                        history: history.unwrap_or(0),
                    },
                );
            }
            Ok(views)
        })
        .await
    }

    async fn chain_visits(
        &self,
        chain: ChainId,
        from: Timestamp,
        to: Timestamp,
    ) -> StoreResult<ChainVisits> {
        self.read(move |c| {
            let (clicks, unique_visitors) = c
                .prepare_cached(
                    "SELECT clicks, unique_visitors FROM chain_visit_totals WHERE chain_id = ?1",
                )?
                .query_row([chain.0], |r| Ok((r.get(0)?, r.get(1)?)))
                .optional()?
                .unwrap_or((0, 0));
            let daily = c
                .prepare_cached(
                    "SELECT day, clicks FROM chain_daily_clicks
                     WHERE chain_id = ?1 AND day >= ?2 AND day < ?3 ORDER BY day",
                )?
                .query_map([chain.0, from, to], |r| Ok((r.get(0)?, r.get(1)?)))?
                .collect::<rusqlite::Result<Vec<_>>>()?;
            Ok(ChainVisits {
                clicks,
                unique_visitors,
                daily,
            })
        })
        .await
    }

    async fn visitor_secret(&self) -> StoreResult<Option<VisitorSecret>> {
        self.read(|c| {
            one(
                c,
                "SELECT id, secret, created_at FROM visitor_secrets ORDER BY id DESC LIMIT 1",
                [],
                visitor_secret_from_row,
            )
        })
        .await
    }
}

fn visitor_secret_from_row(row: &rusqlite::Row<'_>) -> rusqlite::Result<VisitorSecret> {
    let bytes: Vec<u8> = row.get(1)?;
    let secret = <[u8; 16]>::try_from(bytes.as_slice()).map_err(|_| {
        rusqlite::Error::FromSqlConversionFailure(
            1,
            rusqlite::types::Type::Blob,
            "a visitor secret is not 16 bytes".into(),
        )
    })?;
    Ok(VisitorSecret {
        id: row.get(0)?,
        secret,
        created_at: row.get(2)?,
    })
}

const CONVERSION_COLUMNS: &str = "event_id, chain_id, conv_type, out_id, clickid, platform,
    ad_platform, external_userid, value_cents, created_at";

fn conversion_from_row(row: &Row<'_>) -> rusqlite::Result<Conversion> {
    Ok(Conversion {
        event_id: row.get(0)?,
        chain_id: ChainId(row.get(1)?),
        conv_type: row.get(2)?,
        out_id: row.get(3)?,
        clickid: row.get(4)?,
        platform: row.get(5)?,
        ad_platform: row.get(6)?,
        external_userid: row.get(7)?,
        value_cents: row.get(8)?,
        created_at: row.get(9)?,
    })
}

// ---- work-chat data ------------------------------------------------------------------------

fn assembly_from_row(row: &Row<'_>) -> rusqlite::Result<Assembly> {
    Ok(Assembly {
        id: row.get(0)?,
        user_id: UserId(row.get(1)?),
        link_id: row.get(2)?,
        link_name: row.get(3)?,
        url: row.get(4)?,
        auth_status: row.get(5)?,
        use_status: row.get(6)?,
        created_at: row.get(7)?,
    })
}

fn assembly_by_id(c: &Connection, user: UserId, id: i64) -> rusqlite::Result<Option<Assembly>> {
    one(
        c,
        &format!(
            "SELECT {ASSEMBLY_COLUMNS} FROM workchat_assemblies a WHERE a.user_id = ?1 AND a.id = ?2"
        ),
        [user.0, id],
        assembly_from_row,
    )
}

fn transfer_from_row(row: &Row<'_>) -> rusqlite::Result<Transfer> {
    Ok(Transfer {
        id: row.get(0)?,
        user_id: UserId(row.get(1)?),
        corp_id: row.get(2)?,
        handover_userid: row.get(3)?,
        takeover_userid: row.get(4)?,
        external_userid: row.get(5)?,
        customer_name: row.get(6)?,
        status: row.get(7)?,
        takeover_time: row.get(8)?,
        errcode: row.get(9)?,
        reason: row.get(10)?,
    })
}

#[async_trait]
impl WorkchatStore for SqliteStore {
    async fn assembly(&self, user: UserId, id: i64) -> StoreResult<Option<Assembly>> {
        self.read(move |c| assembly_by_id(c, user, id)).await
    }

    async fn assemblies(
        &self,
        user: UserId,
        offset: i64,
        limit: i64,
    ) -> StoreResult<Page<Assembly>> {
        self.read(move |c| {
            let total: i64 = c
                .prepare_cached("SELECT count(*) FROM workchat_assemblies WHERE user_id = ?1")?
                .query_row([user.0], |r| r.get(0))?;
            let items = c
                .prepare_cached(&format!(
                    "SELECT {ASSEMBLY_COLUMNS} FROM workchat_assemblies a WHERE a.user_id = ?1
                     ORDER BY a.id LIMIT ?2 OFFSET ?3"
                ))?
                .query_map([user.0, limit, offset], assembly_from_row)?
                .collect::<rusqlite::Result<Vec<_>>>()?;
            Ok(Page { items, total })
        })
        .await
    }

    async fn transfers(&self, query: &TransferQuery) -> StoreResult<Vec<Transfer>> {
        let q = query.clone();
        self.read(move |c| {
            c.prepare_cached(&format!(
                "SELECT {TRANSFER_COLUMNS} FROM workchat_transfers
                 WHERE user_id = ?1 AND corp_id = ?2 AND id > ?3
                   AND (?4 = '' OR handover_userid = ?4) AND (?5 = '' OR takeover_userid = ?5)
                 ORDER BY id LIMIT ?6"
            ))?
            .query_map(
                params![
                    q.user_id.0,
                    q.corp_id,
                    q.after,
                    q.handover_userid,
                    q.takeover_userid,
                    q.limit
                ],
                transfer_from_row,
            )?
            .collect()
        })
        .await
    }
}

// ---- writes --------------------------------------------------------------------------------

/// Puts a chain in `groups`, in that order.
fn set_groups(conn: &Connection, chain: ChainId, groups: &[GroupId]) -> rusqlite::Result<()> {
    for (position, group) in groups.iter().enumerate() {
        conn.prepare_cached(
            "INSERT OR IGNORE INTO chain_group_members (chain_id, group_id, position)
             VALUES (?1, ?2, ?3)",
        )?
        .execute(params![chain.0, group.0, position as i64])?;
    }
    Ok(())
}

/// Writes every jump column of a chain.
fn set_jump(conn: &Connection, chain: ChainId, jump: &JumpSettings) -> rusqlite::Result<()> {
    let (texts, ints) = jump_values(jump);
    conn.prepare_cached(
        "UPDATE chains SET wx_id = ?2, scan_qr_url = ?3, avatar = ?4, guide_text = ?5,
            description = ?6, sub_title = ?7, qwhk_url = ?8, mini_appid = ?9, mini_path = ?10,
            shop_appid = ?11, shop_path = ?12, is_direct_jump = ?13, show_type = ?14,
            jump_template_id = ?15, scan_tips = ?16, qrcode_vc_type = ?17, visit_type = ?18,
            wxwork_type = ?19, customer_id = ?20
         WHERE id = ?1",
    )?
    .execute(params![
        chain.0, texts[0], texts[1], texts[2], texts[3], texts[4], texts[5], texts[6], texts[7],
        texts[8], texts[9], texts[10], ints[0], ints[1], ints[2], ints[3], ints[4], ints[5],
        ints[6], ints[7]
    ])?;
    Ok(())
}

fn insert_channel(
    conn: &Connection,
    chain: ChainId,
    c: &ChannelInput,
    at: Timestamp,
) -> rusqlite::Result<()> {
    conn.prepare_cached(
        "INSERT INTO channels (chain_id, sort, qrcode_name, url, url2, qrcode_time, ratio,
            visit_limit, status, created_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
    )?
    .execute(params![
        chain.0,
        c.sort,
        c.name,
        c.url,
        c.url2,
        c.expires_at,
        c.ratio,
        c.visit_limit,
        i64::from(c.enabled),
        at
    ])?;
    Ok(())
}

/// Adds `visits` to a channel's total and its count for the day.
fn count_channel_visits(
    conn: &Connection,
    channel: ChannelId,
    day: Timestamp,
    visits: i64,
) -> rusqlite::Result<()> {
    conn.prepare_cached("UPDATE channels SET visit_count = visit_count + ?2 WHERE id = ?1")?
        .execute(params![channel.0, visits])?;
    conn.prepare_cached(
        "INSERT INTO channel_daily_visits (channel_id, day, visits) VALUES (?1, ?2, ?3)
         ON CONFLICT (channel_id, day) DO UPDATE SET visits = visits + excluded.visits",
    )?
    .execute(params![channel.0, day, visits])?;
    Ok(())
}

#[async_trait]
impl Tx for SqliteTx<'_> {
    async fn insert_user(&mut self, new: NewUser) -> StoreResult<User> {
        self.conn
            .execute(
                "INSERT INTO users (name, daily_quota, created_at) VALUES (?1, ?2, ?3)",
                params![new.name, new.daily_quota, new.created_at],
            )
            .map_err(|e| unique_or_backend(e, Unique::UserName))?;
        Ok(User {
            id: UserId(self.conn.last_insert_rowid()),
            name: new.name,
            daily_quota: new.daily_quota,
            created_at: new.created_at,
        })
    }

    async fn user(&mut self, id: UserId) -> StoreResult<Option<User>> {
        user_by_id(self.conn, id).map_err(backend)
    }

    async fn insert_key(&mut self, new: NewApiKey) -> StoreResult<ApiKeyRecord> {
        self.conn
            .execute(
                "INSERT INTO api_keys (user_id, name, prefix, hash, scopes, created_at, expires_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
                params![
                    new.user_id.0,
                    new.name,
                    new.prefix,
                    new.hash,
                    scopes_to_text(&new.scopes),
                    new.created_at,
                    new.expires_at
                ],
            )
            .map_err(|e| unique_or_backend(e, Unique::KeyHash))?;
        Ok(ApiKeyRecord {
            id: KeyId(self.conn.last_insert_rowid()),
            user_id: new.user_id,
            name: new.name,
            prefix: new.prefix,
            scopes: new.scopes,
            created_at: new.created_at,
            expires_at: new.expires_at,
            revoked_at: None,
        })
    }

    async fn revoke_key(&mut self, id: KeyId, at: Timestamp) -> StoreResult<Option<ApiKeyRecord>> {
        self.conn
            .execute(
                "UPDATE api_keys SET revoked_at = ?2 WHERE id = ?1 AND revoked_at IS NULL",
                params![id.0, at],
            )
            .map_err(backend)?;
        self.conn
            .query_row(
                &format!("SELECT {KEY_COLUMNS} FROM api_keys WHERE id = ?1"),
                [id.0],
                key_from_row,
            )
            .optional()
            .map_err(backend)
    }

    async fn insert_domain(&mut self, new: NewDomain) -> StoreResult<Domain> {
        self.conn
            .execute(
                "INSERT INTO domains (host, scheme, scene, shared, user_id, status, created_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
                params![
                    new.host,
                    new.scheme.as_str(),
                    new.scene,
                    new.shared,
                    new.user_id.map(|u| u.0),
                    new.status.code(),
                    new.created_at
                ],
            )
            .map_err(|e| unique_or_backend(e, Unique::DomainHost))?;
        Ok(Domain {
            id: DomainId(self.conn.last_insert_rowid()),
            host: new.host,
            scheme: new.scheme,
            scene: new.scene,
            shared: new.shared,
            user_id: new.user_id,
            status: new.status,
            created_at: new.created_at,
        })
    }

    async fn set_domain_status(
        &mut self,
        id: DomainId,
        status: DomainStatus,
    ) -> StoreResult<Option<Domain>> {
        self.conn
            .execute(
                "UPDATE domains SET status = ?2 WHERE id = ?1",
                params![id.0, status.code()],
            )
            .map_err(backend)?;
        domain_by_id(self.conn, id).map_err(backend)
    }

    async fn insert_group(&mut self, new: NewGroup) -> StoreResult<Group> {
        self.conn
            .execute(
                "INSERT INTO chain_groups (user_id, name, chain_type, created_at)
                 VALUES (?1, ?2, ?3, ?4)",
                params![
                    new.user_id.0,
                    new.name,
                    new.chain_type.code(),
                    new.created_at
                ],
            )
            .map_err(|e| unique_or_backend(e, Unique::GroupName))?;
        Ok(Group {
            id: GroupId(self.conn.last_insert_rowid()),
            user_id: new.user_id,
            name: new.name,
            chain_type: new.chain_type,
            chain_count: 0,
            created_at: new.created_at,
        })
    }

    async fn insert_chain(&mut self, new: NewChain) -> StoreResult<Chain> {
        self.conn
            .prepare_cached(
                "INSERT INTO chains (user_id, chain_type, sub_type, domain_id, code, title,
                    target_url, valid_time, status, created_at, updated_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?10)",
            )
            .and_then(|mut insert| {
                insert.execute(params![
                    new.user_id.0,
                    new.kind.code(),
                    new.sub_type,
                    new.domain_id.0,
                    new.code,
                    new.title,
                    new.target_url,
                    new.valid_time,
                    ChainStatus::Normal.code(),
                    new.created_at
                ])
            })
            .map_err(|e| unique_or_backend(e, Unique::ChainCode))?;
        let id = ChainId(self.conn.last_insert_rowid());
        set_groups(self.conn, id, &new.group_ids).map_err(backend)?;
        if let Some(jump) = &new.jump {
            set_jump(self.conn, id, jump).map_err(backend)?;
        }
        for channel in &new.channels {
            insert_channel(self.conn, id, channel, new.created_at).map_err(backend)?;
        }
        chain_by_id(self.conn, new.user_id, id)
            .map_err(backend)?
            .ok_or_else(|| backend(rusqlite::Error::QueryReturnedNoRows))
    }

    async fn count_creation(&mut self, user: UserId, day: Timestamp) -> StoreResult<i64> {
        self.conn
            .prepare_cached(
                "INSERT INTO daily_creations (user_id, day, count) VALUES (?1, ?2, 1)
                 ON CONFLICT (user_id, day) DO UPDATE SET count = count + 1
                 RETURNING count",
            )
            .and_then(|mut count| count.query_row(params![user.0, day], |r| r.get(0)))
            .map_err(backend)
    }

    async fn update_chain(
        &mut self,
        user: UserId,
        id: ChainId,
        patch: &ChainPatch,
        at: Timestamp,
    ) -> StoreResult<Option<Chain>> {
        let changed = self
            .conn
            .execute(
                "UPDATE chains SET
                    title = coalesce(?3, title),
                    target_url = coalesce(?4, target_url),
                    valid_time = coalesce(?5, valid_time),
                    status = coalesce(?6, status),
                    updated_at = ?7
                 WHERE user_id = ?1 AND id = ?2 AND deleted_at IS NULL",
                params![
                    user.0,
                    id.0,
                    patch.title,
                    patch.target_url,
                    patch.valid_time,
                    patch.status.map(ChainStatus::code),
                    at
                ],
            )
            .map_err(backend)?;
        if changed == 0 {
            return Ok(None);
        }
        if let Some(sub_type) = patch.sub_type {
            self.conn
                .execute(
                    "UPDATE chains SET sub_type = ?2 WHERE id = ?1",
                    params![id.0, sub_type],
                )
                .map_err(backend)?;
        }
        if let Some(jump) = &patch.jump {
            set_jump(self.conn, id, jump).map_err(backend)?;
        }
        if let Some(groups) = &patch.group_ids {
            self.conn
                .execute(
                    "DELETE FROM chain_group_members WHERE chain_id = ?1",
                    [id.0],
                )
                .map_err(backend)?;
            set_groups(self.conn, id, groups).map_err(backend)?;
        }
        for edit in &patch.channels {
            match edit {
                ChannelEdit::Add(channel) => {
                    insert_channel(self.conn, id, channel, at).map_err(backend)?;
                }
                ChannelEdit::Change(channel_id, c) => {
                    self.conn
                        .execute(
                            "UPDATE channels SET sort = ?3, qrcode_name = ?4, url = ?5,
                                url2 = ?6, qrcode_time = ?7, ratio = ?8, visit_limit = ?9,
                                status = ?10
                             WHERE id = ?1 AND chain_id = ?2 AND deleted_at IS NULL",
                            params![
                                channel_id.0,
                                id.0,
                                c.sort,
                                c.name,
                                c.url,
                                c.url2,
                                c.expires_at,
                                c.ratio,
                                c.visit_limit,
                                i64::from(c.enabled)
                            ],
                        )
                        .map_err(backend)?;
                }
                ChannelEdit::Remove(channel_id) => {
                    self.conn
                        .execute(
                            "UPDATE channels SET deleted_at = ?3
                             WHERE id = ?1 AND chain_id = ?2 AND deleted_at IS NULL",
                            params![channel_id.0, id.0, at],
                        )
                        .map_err(backend)?;
                }
            }
        }
        chain_by_id(self.conn, user, id).map_err(backend)
    }

    async fn take_channel_visit(
        &mut self,
        channel: ChannelId,
        cap: VisitCap,
        limit: i64,
        day: Timestamp,
    ) -> StoreResult<bool> {
        // The writer thread runs one transaction at a time, so read-then-write is exact here.
        let used: Option<i64> = match cap {
            VisitCap::Total => one(
                self.conn,
                "SELECT visit_count FROM channels WHERE id = ?1 AND deleted_at IS NULL",
                [channel.0],
                |r| r.get(0),
            ),
            VisitCap::Daily => one(
                self.conn,
                "SELECT coalesce((SELECT visits FROM channel_daily_visits
                                  WHERE channel_id = ?1 AND day = ?2), 0)
                 FROM channels WHERE id = ?1 AND deleted_at IS NULL",
                [channel.0, day],
                |r| r.get(0),
            ),
        }
        .map_err(backend)?;
        match used {
            Some(used) if used < limit => {
                count_channel_visits(self.conn, channel, day, 1).map_err(backend)?;
                Ok(true)
            }
            _ => Ok(false),
        }
    }

    async fn delete_chain(
        &mut self,
        user: UserId,
        id: ChainId,
        at: Timestamp,
    ) -> StoreResult<Option<Chain>> {
        let Some(chain) = chain_by_id(self.conn, user, id).map_err(backend)? else {
            return Ok(None);
        };
        self.conn
            .execute(
                "UPDATE chains SET deleted_at = ?2, updated_at = ?2 WHERE id = ?1",
                params![id.0, at],
            )
            .map_err(backend)?;
        Ok(Some(chain))
    }

    async fn add_visits(
        &mut self,
        batch: &VisitBatch,
        at: Timestamp,
        forget_before: Timestamp,
    ) -> StoreResult<bool> {
        let conn = &*self.conn;
        let claimed = conn
            .prepare_cached(
                "INSERT INTO visit_batches (id, added_at) VALUES (?1, ?2) ON CONFLICT DO NOTHING",
            )
            .and_then(|mut s| s.execute(params![batch.id, at]))
            .map_err(backend)?;
        conn.prepare_cached("DELETE FROM visit_batches WHERE added_at < ?1")
            .and_then(|mut s| s.execute([forget_before]))
            .map_err(backend)?;
        if claimed == 0 {
            return Ok(false);
        }
        let mut daily = conn
            .prepare_cached(
                "INSERT INTO chain_daily_clicks (chain_id, day, clicks, bot_clicks)
                 VALUES (?1, ?2, ?3, ?4)
                 ON CONFLICT (chain_id, day) DO UPDATE
                 SET clicks = clicks + excluded.clicks, bot_clicks = bot_clicks + excluded.bot_clicks",
            )
            .map_err(backend)?;
        let mut totals = conn
            .prepare_cached(
                "INSERT INTO chain_visit_totals (chain_id, clicks, bot_clicks, unique_visitors)
                 VALUES (?1, ?2, ?3, ?4)
                 ON CONFLICT (chain_id) DO UPDATE
                 SET clicks = clicks + excluded.clicks,
                     bot_clicks = bot_clicks + excluded.bot_clicks,
                     unique_visitors = unique_visitors + excluded.unique_visitors",
            )
            .map_err(backend)?;
        let mut visitor = conn
            .prepare_cached(
                "INSERT INTO chain_visitors (chain_id, visitor) VALUES (?1, ?2)
                 ON CONFLICT DO NOTHING",
            )
            .map_err(backend)?;
        // Per chain: (clicks, bot clicks, new visitors).
        let mut added: HashMap<ChainId, (i64, i64, i64)> = HashMap::new();
        for d in &batch.daily {
            daily
                .execute(params![d.chain_id.0, d.day, d.clicks, d.bot_clicks])
                .map_err(backend)?;
            let entry = added.entry(d.chain_id).or_default();
            entry.0 += d.clicks;
            entry.1 += d.bot_clicks;
        }
        for (chain, key) in &batch.visitors {
            let inserted = visitor
                .execute(params![chain.0, &key[..]])
                .map_err(backend)?;
            added.entry(*chain).or_default().2 += inserted as i64;
        }
        for (chain, (clicks, bots, visitors)) in added {
            totals
                .execute(params![chain.0, clicks, bots, visitors])
                .map_err(backend)?;
        }
        for c in &batch.channels {
            count_channel_visits(conn, c.channel_id, c.day, c.visits).map_err(backend)?;
        }
        Ok(true)
    }

    async fn insert_visitor_secret(
        &mut self,
        secret: [u8; 16],
        at: Timestamp,
    ) -> StoreResult<VisitorSecret> {
        self.conn
            .execute(
                "INSERT INTO visitor_secrets (secret, created_at) VALUES (?1, ?2)",
                params![&secret[..], at],
            )
            .map_err(backend)?;
        Ok(VisitorSecret {
            id: self.conn.last_insert_rowid(),
            secret,
            created_at: at,
        })
    }

    async fn insert_conversion(
        &mut self,
        user: UserId,
        new: Conversion,
    ) -> StoreResult<(Conversion, bool)> {
        let inserted = self
            .conn
            .prepare_cached(
                "INSERT INTO conversions (event_id, user_id, chain_id, conv_type, out_id,
                    clickid, platform, ad_platform, external_userid, value_cents, created_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)
                 ON CONFLICT (user_id, chain_id, conv_type, out_id) DO NOTHING",
            )
            .and_then(|mut insert| {
                insert.execute(params![
                    new.event_id,
                    user.0,
                    new.chain_id.0,
                    new.conv_type,
                    new.out_id,
                    new.clickid,
                    new.platform,
                    new.ad_platform,
                    new.external_userid,
                    new.value_cents,
                    new.created_at
                ])
            })
            .map_err(backend)?
            == 1;
        let stands = one(
            self.conn,
            &format!(
                "SELECT {CONVERSION_COLUMNS} FROM conversions
                 WHERE user_id = ?1 AND chain_id = ?2 AND conv_type = ?3
                   AND (out_id = ?4 OR (?4 IS NULL AND event_id = ?5))"
            ),
            params![
                user.0,
                new.chain_id.0,
                new.conv_type,
                new.out_id,
                new.event_id
            ],
            conversion_from_row,
        )
        .map_err(backend)?
        .ok_or_else(|| backend(Misuse("a conversion could not be read back")))?;
        Ok((stands, inserted))
    }

    async fn insert_template(&mut self, new: NewTemplate) -> StoreResult<Template> {
        let id: i64 = self
            .conn
            .prepare_cached(
                "INSERT INTO templates (user_id, name, style, type, thumb, body, created_at,
                    updated_at)
                 VALUES (?1, ?2, ?3, 2, ?4, ?5, ?6, ?6) RETURNING id",
            )
            .and_then(|mut s| {
                s.query_row(
                    params![
                        new.user_id.map(|u| u.0),
                        new.name,
                        new.style,
                        new.thumb,
                        new.body,
                        new.created_at
                    ],
                    |r| r.get(0),
                )
            })
            .map_err(backend)?;
        template_by_id(self.conn, TemplateId(id))
            .map_err(backend)?
            .ok_or_else(|| backend(Misuse("an inserted template is missing")))
    }

    async fn update_template(
        &mut self,
        id: TemplateId,
        patch: &TemplatePatch,
        at: Timestamp,
    ) -> StoreResult<Option<Template>> {
        let changed = self
            .conn
            .prepare_cached(
                "UPDATE templates SET name = coalesce(?2, name), style = coalesce(?3, style),
                    thumb = coalesce(?4, thumb), body = coalesce(?5, body), updated_at = ?6
                 WHERE id = ?1 AND type = 2 AND retired_at IS NULL",
            )
            .and_then(|mut s| {
                s.execute(params![
                    id.0,
                    patch.name,
                    patch.style,
                    patch.thumb,
                    patch.body,
                    at
                ])
            })
            .map_err(backend)?;
        if changed == 0 {
            return Ok(None);
        }
        template_by_id(self.conn, id).map_err(backend)
    }

    async fn retire_template(
        &mut self,
        id: TemplateId,
        at: Timestamp,
    ) -> StoreResult<Option<Template>> {
        let changed = self
            .conn
            .prepare_cached(
                "UPDATE templates SET retired_at = ?2, updated_at = ?2
                 WHERE id = ?1 AND type = 2 AND retired_at IS NULL",
            )
            .and_then(|mut s| s.execute(params![id.0, at]))
            .map_err(backend)?;
        if changed == 0 {
            return Ok(None);
        }
        template_by_id(self.conn, id).map_err(backend)
    }

    async fn begin_upload(&mut self, new: &NewUpload) -> StoreResult<(UploadClaim, i64)> {
        // One writer: nothing runs between these statements, so no row lock is needed.
        let c = &*self.conn;
        let used: i64 = one(
            c,
            "SELECT bytes FROM upload_usage WHERE user_id = ?1",
            [new.user_id.0],
            |r| r.get(0),
        )
        .map_err(backend)?
        .unwrap_or(0);
        let existing = one(
            c,
            &format!(
                "SELECT {UPLOAD_COLUMNS}, u.stored FROM uploads u JOIN blobs b USING (object_key)
                 WHERE u.user_id = ?1 AND u.object_key = ?2"
            ),
            params![new.user_id.0, new.object_key],
            |r| Ok((upload_from_row(r)?, r.get::<_, bool>(7)?)),
        )
        .map_err(backend)?;
        if let Some((upload, stored)) = existing {
            return Ok((UploadClaim::Existing { upload, stored }, used));
        }
        let deleting: Option<bool> = one(
            c,
            "SELECT deleting FROM blobs WHERE object_key = ?1",
            [&new.object_key],
            |r| r.get(0),
        )
        .map_err(backend)?;
        match deleting {
            Some(true) => return Ok((UploadClaim::ObjectDeleting, used)),
            Some(false) => c
                .prepare_cached("UPDATE blobs SET refs = refs + 1 WHERE object_key = ?1")
                .and_then(|mut s| s.execute([&new.object_key]))
                .map_err(backend)?,
            None => c
                .prepare_cached(
                    "INSERT INTO blobs (object_key, content_type, size_bytes, refs)
                     VALUES (?1, ?2, ?3, 1)",
                )
                .and_then(|mut s| {
                    s.execute(params![new.object_key, new.content_type, new.size_bytes])
                })
                .map_err(backend)?,
        };
        let id: i64 = c
            .prepare_cached(
                "INSERT INTO uploads (user_id, object_key, size_bytes, file_name, created_at)
                 VALUES (?1, ?2, ?3, ?4, ?5) RETURNING id",
            )
            .and_then(|mut s| {
                s.query_row(
                    params![
                        new.user_id.0,
                        new.object_key,
                        new.size_bytes,
                        new.file_name,
                        new.created_at
                    ],
                    |r| r.get(0),
                )
            })
            .map_err(backend)?;
        c.prepare_cached(
            "INSERT INTO upload_usage (user_id, bytes) VALUES (?1, ?2)
             ON CONFLICT (user_id) DO UPDATE SET bytes = bytes + excluded.bytes",
        )
        .and_then(|mut s| s.execute(params![new.user_id.0, new.size_bytes]))
        .map_err(backend)?;
        Ok((UploadClaim::Pending(UploadId(id)), used))
    }

    async fn finish_upload(&mut self, id: UploadId) -> StoreResult<()> {
        self.conn
            .prepare_cached("UPDATE uploads SET stored = 1 WHERE id = ?1")
            .and_then(|mut s| s.execute([id.0]))
            .map_err(backend)?;
        Ok(())
    }

    async fn delete_upload(
        &mut self,
        user: UserId,
        id: UploadId,
        pending_only: bool,
    ) -> StoreResult<Option<(Upload, bool)>> {
        let c = &*self.conn;
        let found = one(
            c,
            &format!(
                "SELECT {UPLOAD_COLUMNS} FROM uploads u JOIN blobs b USING (object_key)
                 WHERE u.id = ?1 AND u.user_id = ?2 AND (u.stored = 0 OR NOT ?3)"
            ),
            params![id.0, user.0, pending_only],
            upload_from_row,
        )
        .map_err(backend)?;
        let Some(upload) = found else {
            return Ok(None);
        };
        c.prepare_cached("DELETE FROM uploads WHERE id = ?1")
            .and_then(|mut s| s.execute([id.0]))
            .map_err(backend)?;
        c.prepare_cached("UPDATE upload_usage SET bytes = bytes - ?2 WHERE user_id = ?1")
            .and_then(|mut s| s.execute(params![upload.user_id.0, upload.size_bytes]))
            .map_err(backend)?;
        let claimed: bool = c
            .prepare_cached(
                "UPDATE blobs SET refs = refs - 1,
                    deleting = CASE WHEN refs - 1 = 0 THEN 1 ELSE deleting END
                 WHERE object_key = ?1 RETURNING deleting",
            )
            .and_then(|mut s| s.query_row([&upload.object_key], |r| r.get(0)))
            .map_err(backend)?;
        Ok(Some((upload, claimed)))
    }

    async fn claim_blob_removal(&mut self, object_key: &str) -> StoreResult<bool> {
        let changed = self
            .conn
            .prepare_cached("UPDATE blobs SET deleting = 1 WHERE object_key = ?1 AND refs = 0")
            .and_then(|mut s| s.execute([object_key]))
            .map_err(backend)?;
        Ok(changed == 1)
    }

    async fn forget_blob(&mut self, object_key: &str) -> StoreResult<()> {
        self.conn
            .prepare_cached("DELETE FROM blobs WHERE object_key = ?1 AND deleting = 1 AND refs = 0")
            .and_then(|mut s| s.execute([object_key]))
            .map_err(backend)?;
        Ok(())
    }

    async fn put_assembly(&mut self, e: &AssemblyInput) -> StoreResult<Assembly> {
        let id: i64 = self
            .conn
            .prepare_cached(
                "INSERT INTO workchat_assemblies (user_id, link_id, link_name, url, auth_status,
                    use_status, created_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
                 ON CONFLICT (user_id, link_id) DO UPDATE SET link_name = excluded.link_name,
                    url = excluded.url, auth_status = excluded.auth_status,
                    use_status = excluded.use_status
                 RETURNING id",
            )
            .and_then(|mut s| {
                s.query_row(
                    params![
                        e.user_id.0,
                        e.link_id,
                        e.link_name,
                        e.url,
                        e.auth_status,
                        if e.invalid { 2 } else { 0 },
                        e.created_at
                    ],
                    |r| r.get(0),
                )
            })
            .map_err(backend)?;
        assembly_by_id(self.conn, e.user_id, id)
            .map_err(backend)?
            .ok_or_else(|| backend(rusqlite::Error::QueryReturnedNoRows))
    }

    async fn put_transfer(&mut self, t: &Transfer, at: Timestamp) -> StoreResult<Transfer> {
        self.conn
            .prepare_cached(&format!(
                "INSERT INTO workchat_transfers (user_id, corp_id, handover_userid,
                    takeover_userid, external_userid, customer_name, status, takeover_time,
                    errcode, reason, created_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)
                 ON CONFLICT (user_id, corp_id, handover_userid, external_userid) DO UPDATE
                 SET takeover_userid = excluded.takeover_userid,
                     customer_name = excluded.customer_name, status = excluded.status,
                     takeover_time = excluded.takeover_time, errcode = excluded.errcode,
                     reason = excluded.reason
                 RETURNING {TRANSFER_COLUMNS}"
            ))
            .and_then(|mut s| {
                s.query_row(
                    params![
                        t.user_id.0,
                        t.corp_id,
                        t.handover_userid,
                        t.takeover_userid,
                        t.external_userid,
                        t.customer_name,
                        t.status,
                        t.takeover_time,
                        t.errcode,
                        t.reason,
                        at
                    ],
                    transfer_from_row,
                )
            })
            .map_err(backend)
    }

    async fn publish(&mut self, change: Change) -> StoreResult<()> {
        // One process writes this file, so the writer itself is the only one to tell.
        self.changes.push(change);
        Ok(())
    }
}

#[async_trait]
impl Store for SqliteStore {
    async fn transact(&self, body: TxBody) -> StoreResult<Vec<Change>> {
        self.run_on_writer(body).await
    }

    async fn add_visits(
        &self,
        batch: Arc<VisitBatch>,
        at: Timestamp,
        forget_before: Timestamp,
    ) -> StoreResult<bool> {
        let (added, _) = crate::store::write(self, move |tx| {
            let batch = batch.clone();
            Box::pin(async move { tx.add_visits(&batch, at, forget_before).await })
        })
        .await?;
        Ok(added)
    }

    async fn ping(&self) -> StoreResult<()> {
        self.read(|c| c.query_row("SELECT 1", [], |_| Ok(()))).await
    }

    fn notices(&self) -> Option<tokio::sync::mpsc::UnboundedReceiver<Notice>> {
        None
    }

    async fn acknowledge(&self, _seq: i64) -> StoreResult<()> {
        // No feed, so no checkpoint to acknowledge: this process is the only instance.
        Ok(())
    }

    async fn close(&self) {}
}
