//! The PostgreSQL backend: one database shared by any number of linkapi instances.
//!
//! tokio-postgres with a deadpool pool; TLS through rustls (ring), verifying the server against
//! the Mozilla roots, so no OpenSSL. Transactions run at READ COMMITTED: every rule that must
//! hold across instances is a statement that holds under it (a unique index for codes, a
//! row-locking counter upsert for the daily quota), and a body that meets a serialization
//! failure or a deadlock is run again from the start.
//!
//! Changes a body publishes are sent with `pg_notify` inside its transaction, so PostgreSQL
//! delivers them to every listening instance exactly when, and only if, it commits
//! (`listen`). A change that needs a barrier also takes a number from `linkapi_change_seq`;
//! after committing, [`Store::transact`] waits until every live instance (a row of
//! `linkapi_instances` whose listener beat recently) has acknowledged that number.

mod listen;
mod schema;

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use deadpool_postgres::{Manager, ManagerConfig, Object, Pool, PoolError, RecyclingMethod};
use tokio_postgres::error::SqlState;
use tokio_postgres::{Row, Statement};

use super::{
    ASSEMBLY_COLUMNS, AssemblyInput, BARRIER_TIMEOUT, BlobRecord, CHANNEL_COLUMNS, ChainPatch,
    ChainQuery, ChainStore, ChainVisits, Change, ChannelEdit, ChannelInput, Conversion,
    DailyVisits, DomainStore, GroupStore, JUMP_COLUMNS, JumpRow, KeyStore, LinkTarget, Misuse,
    NewApiKey, NewChain, NewDomain, NewGroup, NewTemplate, NewUpload, NewUser, Notice, Page,
    PageTarget, Store, StoreError, StoreResult, TRANSFER_COLUMNS, TemplatePatch, TemplateStore,
    TransferQuery, Tx, TxBody, Unique, UploadClaim, UploadStore, UserStore, VisitBatch, VisitStore,
    VisitorSecret, WorkchatStore, jump_values,
};
use crate::model::{
    ApiKeyRecord, Assembly, Chain, ChainId, ChainKind, ChainStatus, Channel, ChannelId, Domain,
    DomainId, DomainStatus, Group, GroupId, JumpSettings, KeyId, PageViews, Scheme, Scope,
    Template, TemplateId, TemplateKind, Timestamp, Transfer, Upload, UploadId, User, UserId,
    VisitCap,
};

/// The channel changes are sent on.
const CHANGES_CHANNEL: &str = "linkapi_changes";

/// Times a body is run when it keeps meeting serialization failures or deadlocks.
const MAX_ATTEMPTS: u32 = 8;

/// An instance whose listener has not beaten for this long is taken for dead, and no writer
/// waits for it.
const INSTANCE_TIMEOUT_SECS: f64 = 20.0;

/// How the pool behaves.
#[derive(Debug, Clone)]
pub struct PgOptions {
    /// Connections this instance opens at most.
    pub max_connections: usize,
    /// How long a request waits for a free connection (or a new one) before the store
    /// answers "unavailable".
    pub acquire_timeout: Duration,
}

impl Default for PgOptions {
    fn default() -> Self {
        PgOptions {
            max_connections: 16,
            acquire_timeout: Duration::from_secs(5),
        }
    }
}

/// A PostgreSQL database behind the [`Store`] traits. Cheap to clone.
#[derive(Clone)]
pub struct PgStore {
    /// Connections for reads and transactions.
    pool: Pool,
    /// What the change listener connects with.
    config: tokio_postgres::Config,
    /// TLS for the listener's own connection.
    tls: tokio_postgres_rustls::MakeRustlsConnect,
    /// This instance's row in `linkapi_instances`.
    instance: Arc<str>,
}

impl std::fmt::Debug for PgStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PgStore").finish_non_exhaustive()
    }
}

/// A database URL that could not be used.
#[derive(Debug, thiserror::Error)]
#[error("invalid database URL: {0}")]
struct BadUrl(String);

fn tls() -> StoreResult<tokio_postgres_rustls::MakeRustlsConnect> {
    let roots = rustls::RootCertStore::from_iter(webpki_roots::TLS_SERVER_ROOTS.iter().cloned());
    let config = rustls::ClientConfig::builder_with_provider(Arc::new(
        rustls::crypto::ring::default_provider(),
    ))
    .with_safe_default_protocol_versions()
    .map_err(StoreError::backend)?
    .with_root_certificates(roots)
    .with_no_client_auth();
    Ok(tokio_postgres_rustls::MakeRustlsConnect::new(config))
}

impl PgStore {
    /// Connects to the database at `url` (`postgres://user:password@host:port/db`, with
    /// `sslmode=require` for TLS) and runs pending migrations.
    ///
    /// # Errors
    /// When the URL is invalid, the database cannot be reached, or its schema is newer than
    /// this build.
    pub async fn connect(url: &str, options: PgOptions) -> StoreResult<Self> {
        let mut config: tokio_postgres::Config = url
            .parse()
            .map_err(|e: tokio_postgres::Error| StoreError::backend(BadUrl(e.to_string())))?;
        if config.get_connect_timeout().is_none() {
            config.connect_timeout(Duration::from_secs(5));
        }
        if config.get_application_name().is_none() {
            config.application_name("linkapi");
        }
        // Notice a silently dead peer (a host gone, a partition) within about a minute.
        config
            .keepalives(true)
            .keepalives_idle(Duration::from_secs(30));
        let tls = tls()?;
        let manager = Manager::from_config(
            config.clone(),
            tls.clone(),
            ManagerConfig {
                recycling_method: RecyclingMethod::Fast,
            },
        );
        let pool = Pool::builder(manager)
            .max_size(options.max_connections.max(1))
            .wait_timeout(Some(options.acquire_timeout))
            .create_timeout(Some(options.acquire_timeout))
            .recycle_timeout(Some(options.acquire_timeout))
            .runtime(deadpool_postgres::Runtime::Tokio1)
            .build()
            .map_err(StoreError::backend)?;
        let instance: Arc<str> =
            format!("{}-{}", std::process::id(), crate::codes::random_code(12)).into();
        let store = PgStore {
            pool,
            config,
            tls,
            instance,
        };
        let mut client = store.client().await?;
        schema::migrate(&mut client).await?;
        // Registered before serving and having applied nothing: writers wait for this
        // instance from now on, and its listener acknowledges once it has caught up.
        client
            .execute(
                "INSERT INTO linkapi_instances (id, applied, seen_at) VALUES ($1, 0, now())",
                &[&&*store.instance],
            )
            .await
            .map_err(pg_error)?;
        Ok(store)
    }

    /// Waits until every live instance has applied the change numbered `seq`.
    async fn await_barrier(&self, seq: i64) -> StoreResult<()> {
        let started = std::time::Instant::now();
        let mut pause = Duration::from_millis(2);
        loop {
            let behind = self
                .query(
                    "SELECT id FROM linkapi_instances
                     WHERE applied < $1 AND seen_at > now() - make_interval(secs => $2)",
                    &[&seq, &INSTANCE_TIMEOUT_SECS],
                )
                .await?;
            if behind.is_empty() {
                return Ok(());
            }
            if started.elapsed() >= BARRIER_TIMEOUT {
                let ids: Vec<String> = behind.iter().filter_map(|r| r.try_get(0).ok()).collect();
                tracing::warn!(
                    ?ids,
                    seq,
                    "instances did not apply a change in time; it is committed and they will \
                     apply it when they catch up"
                );
                return Ok(());
            }
            tokio::time::sleep(pause).await;
            pause = (pause * 2).min(Duration::from_millis(50));
        }
    }

    async fn client(&self) -> StoreResult<Object> {
        self.pool.get().await.map_err(pool_error)
    }

    /// Runs one query on a pooled connection with a cached prepared statement.
    async fn query(
        &self,
        sql: &str,
        params: &[&(dyn tokio_postgres::types::ToSql + Sync)],
    ) -> StoreResult<Vec<Row>> {
        let client = self.client().await?;
        let statement = client.prepare_cached(sql).await.map_err(pg_error)?;
        client.query(&statement, params).await.map_err(pg_error)
    }

    async fn query_opt(
        &self,
        sql: &str,
        params: &[&(dyn tokio_postgres::types::ToSql + Sync)],
    ) -> StoreResult<Option<Row>> {
        Ok(self.query(sql, params).await?.into_iter().next())
    }
}

/// Maps a database error: lost connections, exhausted resources, shutdowns and contention are
/// "unavailable" (worth retrying later); anything else is a backend failure.
pub(super) fn pg_error(err: tokio_postgres::Error) -> StoreError {
    match err.code() {
        // No SQLSTATE: the connection failed, closed or timed out.
        None => StoreError::unavailable(err),
        Some(code) if is_transient(code) => StoreError::unavailable(err),
        Some(_) => StoreError::backend(err),
    }
}

fn is_transient(code: &SqlState) -> bool {
    let code = code.code();
    // 08: connection exception, 53: insufficient resources, 57: operator intervention
    // (shutdown, cannot connect now), 40001/40P01: serialization failure, deadlock.
    code.starts_with("08")
        || code.starts_with("53")
        || code.starts_with("57")
        || is_contention_code(code)
}

fn is_contention_code(code: &str) -> bool {
    code == SqlState::T_R_SERIALIZATION_FAILURE.code()
        || code == SqlState::T_R_DEADLOCK_DETECTED.code()
}

/// Whether a body's failure was contention with a concurrent transaction, so that running it
/// again may succeed.
fn is_contention(err: &StoreError) -> bool {
    match err {
        StoreError::Unavailable(cause) => cause
            .downcast_ref::<tokio_postgres::Error>()
            .and_then(tokio_postgres::Error::code)
            .is_some_and(|code| is_contention_code(code.code())),
        _ => false,
    }
}

fn pool_error(err: PoolError) -> StoreError {
    match err {
        PoolError::Backend(err) => pg_error(err),
        PoolError::Timeout(_) => StoreError::unavailable(err),
        other => StoreError::backend(other),
    }
}

/// Maps a UNIQUE violation to [`StoreError::Conflict`], anything else as [`pg_error`].
fn unique_or(err: tokio_postgres::Error, what: Unique) -> StoreError {
    if err.code() == Some(&SqlState::UNIQUE_VIOLATION) {
        StoreError::Conflict(what)
    } else {
        pg_error(err)
    }
}

/// A stored value that does not decode: data damaged at rest or a schema mismatch.
#[derive(Debug, thiserror::Error)]
#[error("column {column}: unexpected value {value}")]
struct BadValue {
    column: &'static str,
    value: String,
}

fn bad(column: &'static str, value: impl std::fmt::Display) -> StoreError {
    StoreError::backend(BadValue {
        column,
        value: value.to_string(),
    })
}

fn get<'a, T: tokio_postgres::types::FromSql<'a>>(row: &'a Row, idx: usize) -> StoreResult<T> {
    row.try_get(idx).map_err(StoreError::backend)
}

fn chain_kind(row: &Row, idx: usize) -> StoreResult<ChainKind> {
    let v: i64 = get(row, idx)?;
    ChainKind::from_code(v).ok_or_else(|| bad("chain_type", v))
}

fn chain_status(row: &Row, idx: usize) -> StoreResult<ChainStatus> {
    let v: i64 = get(row, idx)?;
    ChainStatus::from_code(v).ok_or_else(|| bad("status", v))
}

// ---- rows ----------------------------------------------------------------------------------

const USER_COLUMNS: &str = "id, name, daily_quota, created_at";

fn user_from_row(row: &Row) -> StoreResult<User> {
    Ok(User {
        id: UserId(get(row, 0)?),
        name: get(row, 1)?,
        daily_quota: get(row, 2)?,
        created_at: get(row, 3)?,
    })
}

const KEY_COLUMNS: &str = "id, user_id, name, prefix, scopes, created_at, expires_at, revoked_at";

fn key_from_row(row: &Row) -> StoreResult<ApiKeyRecord> {
    let scopes: String = get(row, 4)?;
    let scopes = scopes
        .split_whitespace()
        .map(|s| s.parse::<Scope>().map_err(|_| bad("scopes", s)))
        .collect::<StoreResult<Vec<_>>>()?;
    Ok(ApiKeyRecord {
        id: KeyId(get(row, 0)?),
        user_id: UserId(get(row, 1)?),
        name: get(row, 2)?,
        prefix: get(row, 3)?,
        scopes,
        created_at: get(row, 5)?,
        expires_at: get(row, 6)?,
        revoked_at: get(row, 7)?,
    })
}

fn scopes_to_text(scopes: &[Scope]) -> String {
    scopes
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

const DOMAIN_COLUMNS: &str = "id, host, scheme, scene, shared, user_id, status, created_at";

/// Reads a domain from eight columns starting at `at`.
fn domain_at(row: &Row, at: usize) -> StoreResult<Domain> {
    let scheme: String = get(row, at + 2)?;
    let status: i64 = get(row, at + 6)?;
    Ok(Domain {
        id: DomainId(get(row, at)?),
        host: get(row, at + 1)?,
        scheme: Scheme::parse(&scheme).ok_or_else(|| bad("scheme", &scheme))?,
        scene: get(row, at + 3)?,
        shared: get(row, at + 4)?,
        user_id: get::<Option<i64>>(row, at + 5)?.map(UserId),
        status: DomainStatus::from_code(status).ok_or_else(|| bad("domain status", status))?,
        created_at: get(row, at + 7)?,
    })
}

const GROUP_SELECT: &str = "SELECT g.id, g.user_id, g.name, g.chain_type, g.created_at,
        (SELECT count(*) FROM chain_group_members m JOIN chains c ON c.id = m.chain_id
          WHERE m.group_id = g.id AND c.deleted_at IS NULL)
    FROM chain_groups g";

fn group_from_row(row: &Row) -> StoreResult<Group> {
    Ok(Group {
        id: GroupId(get(row, 0)?),
        user_id: UserId(get(row, 1)?),
        name: get(row, 2)?,
        chain_type: chain_kind(row, 3)?,
        created_at: get(row, 4)?,
        chain_count: get(row, 5)?,
    })
}

/// A chain, its groups, its domain (from column 13) and its jump settings (from column
/// [`JUMP_AT`]).
static CHAIN_SELECT: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
    format!(
        "SELECT c.id, c.user_id, c.chain_type, c.sub_type, c.code, c.title,
            c.target_url, c.valid_time, c.status, c.deleted_at, c.created_at, c.updated_at,
            ARRAY(SELECT m.group_id FROM chain_group_members m WHERE m.chain_id = c.id
                  ORDER BY m.position),
            d.id, d.host, d.scheme, d.scene, d.shared, d.user_id, d.status, d.created_at,
            {JUMP_COLUMNS}
        FROM chains c JOIN domains d ON d.id = c.domain_id"
    )
});

/// The first jump column of [`CHAIN_SELECT`].
const JUMP_AT: usize = 21;

/// Reads [`JUMP_COLUMNS`] starting at `at`.
fn jump_row(row: &Row, at: usize) -> StoreResult<JumpRow> {
    let mut texts: [Option<String>; 11] = Default::default();
    for (i, text) in texts.iter_mut().enumerate() {
        *text = get(row, at + i)?;
    }
    let mut ints = [None; 8];
    for (i, int) in ints.iter_mut().enumerate() {
        *int = get(row, at + 11 + i)?;
    }
    Ok(JumpRow { texts, ints })
}

fn chain_from_row(row: &Row) -> StoreResult<Chain> {
    let groups: Vec<i64> = get(row, 12)?;
    let kind = chain_kind(row, 2)?;
    Ok(Chain {
        id: ChainId(get(row, 0)?),
        user_id: UserId(get(row, 1)?),
        kind,
        sub_type: get(row, 3)?,
        code: get(row, 4)?,
        title: get(row, 5)?,
        target_url: get(row, 6)?,
        valid_time: get(row, 7)?,
        stored_status: chain_status(row, 8)?,
        deleted_at: get(row, 9)?,
        created_at: get(row, 10)?,
        updated_at: get(row, 11)?,
        group_ids: groups.into_iter().map(GroupId).collect(),
        domain: domain_at(row, 13)?,
        jump: jump_row(row, JUMP_AT)?.settings(kind)?,
    })
}

fn chain_by_id_sql() -> String {
    format!(
        "{} WHERE c.user_id = $1 AND c.id = $2 AND c.deleted_at IS NULL",
        *CHAIN_SELECT
    )
}

fn channel_from_row(row: &Row) -> StoreResult<Channel> {
    Ok(Channel {
        id: ChannelId(get(row, 0)?),
        chain_id: ChainId(get(row, 1)?),
        sort: get(row, 2)?,
        name: get(row, 3)?,
        url: get(row, 4)?,
        url2: get(row, 5)?,
        expires_at: get(row, 6)?,
        ratio: get(row, 7)?,
        visit_limit: get(row, 8)?,
        enabled: get::<i64>(row, 9)? != 0,
        visit_count: get(row, 10)?,
    })
}

fn assembly_from_row(row: &Row) -> StoreResult<Assembly> {
    Ok(Assembly {
        id: get(row, 0)?,
        user_id: UserId(get(row, 1)?),
        link_id: get(row, 2)?,
        link_name: get(row, 3)?,
        url: get(row, 4)?,
        auth_status: get(row, 5)?,
        use_status: get::<i32>(row, 6)?.into(),
        created_at: get(row, 7)?,
    })
}

fn transfer_from_row(row: &Row) -> StoreResult<Transfer> {
    Ok(Transfer {
        id: get(row, 0)?,
        user_id: UserId(get(row, 1)?),
        corp_id: get(row, 2)?,
        handover_userid: get(row, 3)?,
        takeover_userid: get(row, 4)?,
        external_userid: get(row, 5)?,
        customer_name: get(row, 6)?,
        status: get(row, 7)?,
        takeover_time: get(row, 8)?,
        errcode: get(row, 9)?,
        reason: get(row, 10)?,
    })
}

static ASSEMBLY_BY_ID: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
    format!(
        "SELECT {ASSEMBLY_COLUMNS} FROM workchat_assemblies a WHERE a.user_id = $1 AND a.id = $2"
    )
});

static CHANNELS_OF: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
    format!(
        "SELECT {CHANNEL_COLUMNS} FROM channels
         WHERE chain_id = $1 AND deleted_at IS NULL ORDER BY sort, id"
    )
});

const CONVERSION_COLUMNS: &str = "event_id, chain_id, conv_type, out_id, clickid, platform,
    ad_platform, external_userid, value_cents, created_at";

fn conversion_from_row(row: &Row) -> StoreResult<Conversion> {
    Ok(Conversion {
        event_id: get(row, 0)?,
        chain_id: ChainId(get(row, 1)?),
        conv_type: get(row, 2)?,
        out_id: get(row, 3)?,
        clickid: get(row, 4)?,
        platform: get(row, 5)?,
        ad_platform: get(row, 6)?,
        external_userid: get(row, 7)?,
        value_cents: get(row, 8)?,
        created_at: get(row, 9)?,
    })
}

const TEMPLATE_COLUMNS: &str =
    "id, user_id, name, style, type, thumb, body, created_at, updated_at, retired_at";

fn template_from_row(row: &Row) -> StoreResult<Template> {
    let kind: i64 = get(row, 4)?;
    Ok(Template {
        id: TemplateId(get(row, 0)?),
        user_id: get::<Option<i64>>(row, 1)?.map(UserId),
        name: get(row, 2)?,
        style: get(row, 3)?,
        kind: TemplateKind::from_code(kind).ok_or_else(|| bad("type", kind))?,
        thumb: get(row, 5)?,
        body: get(row, 6)?,
        created_at: get(row, 7)?,
        updated_at: get(row, 8)?,
        retired_at: get(row, 9)?,
    })
}

/// An upload's columns, joined with its object's (`u` and `b`).
const UPLOAD_COLUMNS: &str =
    "u.id, u.user_id, u.object_key, b.content_type, u.size_bytes, u.file_name, u.created_at";

fn upload_from_row(row: &Row) -> StoreResult<Upload> {
    Ok(Upload {
        id: UploadId(get(row, 0)?),
        user_id: UserId(get(row, 1)?),
        object_key: get(row, 2)?,
        content_type: get(row, 3)?,
        size_bytes: get(row, 4)?,
        file_name: get(row, 5)?,
        created_at: get(row, 6)?,
    })
}

const BLOB_COLUMNS: &str = "object_key, content_type, size_bytes, refs, deleting";

fn blob_from_row(row: &Row) -> StoreResult<BlobRecord> {
    Ok(BlobRecord {
        object_key: get(row, 0)?,
        content_type: get(row, 1)?,
        size_bytes: get(row, 2)?,
        refs: get(row, 3)?,
        deleting: get(row, 4)?,
    })
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

// ---- reads ---------------------------------------------------------------------------------

#[async_trait]
impl UserStore for PgStore {
    async fn user(&self, id: UserId) -> StoreResult<Option<User>> {
        let sql = format!("SELECT {USER_COLUMNS} FROM users WHERE id = $1");
        self.query_opt(&sql, &[&id.0])
            .await?
            .as_ref()
            .map(user_from_row)
            .transpose()
    }

    async fn users(&self) -> StoreResult<Vec<User>> {
        let sql = format!("SELECT {USER_COLUMNS} FROM users ORDER BY id");
        self.query(&sql, &[])
            .await?
            .iter()
            .map(user_from_row)
            .collect()
    }
}

#[async_trait]
impl KeyStore for PgStore {
    async fn key_by_hash(&self, hash: &str) -> StoreResult<Option<ApiKeyRecord>> {
        let sql = format!("SELECT {KEY_COLUMNS} FROM api_keys WHERE hash = $1");
        self.query_opt(&sql, &[&hash])
            .await?
            .as_ref()
            .map(key_from_row)
            .transpose()
    }

    async fn keys(&self, user: Option<UserId>) -> StoreResult<Vec<ApiKeyRecord>> {
        let sql = format!(
            "SELECT {KEY_COLUMNS} FROM api_keys
             WHERE $1::bigint IS NULL OR user_id = $1 ORDER BY id"
        );
        self.query(&sql, &[&user.map(|u| u.0)])
            .await?
            .iter()
            .map(key_from_row)
            .collect()
    }

    async fn count_keys(&self) -> StoreResult<i64> {
        let rows = self.query("SELECT count(*) FROM api_keys", &[]).await?;
        rows.first().map_or(Ok(0), |r| get(r, 0))
    }
}

#[async_trait]
impl DomainStore for PgStore {
    async fn domains(&self) -> StoreResult<Vec<Domain>> {
        let sql = format!("SELECT {DOMAIN_COLUMNS} FROM domains ORDER BY id");
        self.query(&sql, &[])
            .await?
            .iter()
            .map(|r| domain_at(r, 0))
            .collect()
    }
}

#[async_trait]
impl GroupStore for PgStore {
    async fn group(&self, user: UserId, id: GroupId) -> StoreResult<Option<Group>> {
        let sql = format!("{GROUP_SELECT} WHERE g.user_id = $1 AND g.id = $2");
        self.query_opt(&sql, &[&user.0, &id.0])
            .await?
            .as_ref()
            .map(group_from_row)
            .transpose()
    }

    async fn groups(&self, user: UserId) -> StoreResult<Vec<Group>> {
        let sql = format!("{GROUP_SELECT} WHERE g.user_id = $1 ORDER BY g.id");
        self.query(&sql, &[&user.0])
            .await?
            .iter()
            .map(group_from_row)
            .collect()
    }
}

#[async_trait]
impl WorkchatStore for PgStore {
    async fn assembly(&self, user: UserId, id: i64) -> StoreResult<Option<Assembly>> {
        self.query_opt(&ASSEMBLY_BY_ID, &[&user.0, &id])
            .await?
            .as_ref()
            .map(assembly_from_row)
            .transpose()
    }

    async fn assemblies(
        &self,
        user: UserId,
        offset: i64,
        limit: i64,
    ) -> StoreResult<Page<Assembly>> {
        let total: i64 = match self
            .query_opt(
                "SELECT count(*) FROM workchat_assemblies WHERE user_id = $1",
                &[&user.0],
            )
            .await?
        {
            Some(row) => get(&row, 0)?,
            None => 0,
        };
        let sql = format!(
            "SELECT {ASSEMBLY_COLUMNS} FROM workchat_assemblies a WHERE a.user_id = $1
             ORDER BY a.id LIMIT $2 OFFSET $3"
        );
        let items = self
            .query(&sql, &[&user.0, &limit, &offset])
            .await?
            .iter()
            .map(assembly_from_row)
            .collect::<StoreResult<Vec<_>>>()?;
        Ok(Page { items, total })
    }

    async fn transfers(&self, q: &TransferQuery) -> StoreResult<Vec<Transfer>> {
        let sql = format!(
            "SELECT {TRANSFER_COLUMNS} FROM workchat_transfers
             WHERE user_id = $1 AND corp_id = $2 AND id > $3
               AND ($4 = '' OR handover_userid = $4) AND ($5 = '' OR takeover_userid = $5)
             ORDER BY id LIMIT $6"
        );
        self.query(
            &sql,
            &[
                &q.user_id.0,
                &q.corp_id,
                &q.after,
                &q.handover_userid,
                &q.takeover_userid,
                &q.limit,
            ],
        )
        .await?
        .iter()
        .map(transfer_from_row)
        .collect()
    }
}

#[async_trait]
impl ChainStore for PgStore {
    async fn chain(&self, user: UserId, id: ChainId) -> StoreResult<Option<Chain>> {
        self.query_opt(&chain_by_id_sql(), &[&user.0, &id.0])
            .await?
            .as_ref()
            .map(chain_from_row)
            .transpose()
    }

    async fn chains_by_code(&self, user: UserId, code: &str) -> StoreResult<Vec<Chain>> {
        let sql = format!(
            "{} WHERE c.user_id = $1 AND c.code = $2 AND c.deleted_at IS NULL
             ORDER BY c.id",
            *CHAIN_SELECT
        );
        self.query(&sql, &[&user.0, &code])
            .await?
            .iter()
            .map(chain_from_row)
            .collect()
    }

    async fn chains(&self, user: UserId, query: &ChainQuery) -> StoreResult<Page<Chain>> {
        let filter = "c.user_id = $1 AND c.deleted_at IS NULL
             AND (cardinality($2::bigint[]) = 0 OR c.chain_type = ANY($2))
             AND ($3::bigint IS NULL OR EXISTS (SELECT 1 FROM chain_group_members m
                    WHERE m.chain_id = c.id AND m.group_id = $3))
             AND ($4::text IS NULL OR c.title LIKE $4 ESCAPE '\\' OR c.code LIKE $4 ESCAPE '\\')";
        let kinds: Vec<i64> = query.kinds.iter().map(|k| k.code()).collect();
        let text = query.text.as_deref().map(like_pattern);
        let group = query.group_id.map(|g| g.0);
        let total_sql = format!("SELECT count(*) FROM chains c WHERE {filter}");
        let total: i64 = match self
            .query_opt(&total_sql, &[&user.0, &kinds, &group, &text])
            .await?
        {
            Some(row) => get(&row, 0)?,
            None => 0,
        };
        let page_sql = format!(
            "{} WHERE {filter}
             ORDER BY c.created_at DESC, c.id DESC LIMIT $5 OFFSET $6",
            *CHAIN_SELECT
        );
        let items = self
            .query(
                &page_sql,
                &[&user.0, &kinds, &group, &text, &query.limit, &query.offset],
            )
            .await?
            .iter()
            .map(chain_from_row)
            .collect::<StoreResult<Vec<_>>>()?;
        Ok(Page { items, total })
    }

    async fn link(&self, domain: DomainId, code: &str) -> StoreResult<Option<LinkTarget>> {
        let sql = format!(
            "SELECT c.id, c.chain_type, c.target_url, c.valid_time, c.status,
                c.deleted_at IS NOT NULL, c.user_id, c.title, c.sub_type, {JUMP_COLUMNS}
             FROM chains c WHERE c.domain_id = $1 AND c.code = $2"
        );
        let Some(row) = self.query_opt(&sql, &[&domain.0, &code]).await? else {
            return Ok(None);
        };
        let kind = chain_kind(&row, 1)?;
        let mut target = LinkTarget {
            chain_id: ChainId(get(&row, 0)?),
            kind,
            target_url: get(&row, 2)?,
            valid_time: get(&row, 3)?,
            status: chain_status(&row, 4)?,
            deleted: get(&row, 5)?,
            page: None,
        };
        if let Some(settings) = jump_row(&row, 9)?.settings(kind)? {
            target.page = Some(Arc::new(PageTarget {
                user_id: UserId(get(&row, 6)?),
                title: get(&row, 7)?,
                sub_type: get(&row, 8)?,
                settings: *settings,
                channels: self.channels(target.chain_id).await?,
            }));
        }
        Ok(Some(target))
    }

    async fn channels(&self, chain: ChainId) -> StoreResult<Vec<Channel>> {
        self.query(&CHANNELS_OF, &[&chain.0])
            .await?
            .iter()
            .map(channel_from_row)
            .collect()
    }

    async fn conversions(
        &self,
        user: UserId,
        chain: ChainId,
        offset: i64,
        limit: i64,
    ) -> StoreResult<Page<Conversion>> {
        let total: i64 = match self
            .query_opt(
                "SELECT count(*) FROM conversions WHERE user_id = $1 AND chain_id = $2",
                &[&user.0, &chain.0],
            )
            .await?
        {
            Some(row) => get(&row, 0)?,
            None => 0,
        };
        let sql = format!(
            "SELECT {CONVERSION_COLUMNS} FROM conversions WHERE user_id = $1 AND chain_id = $2
             ORDER BY event_id DESC LIMIT $3 OFFSET $4"
        );
        let items = self
            .query(&sql, &[&user.0, &chain.0, &limit, &offset])
            .await?
            .iter()
            .map(conversion_from_row)
            .collect::<StoreResult<Vec<_>>>()?;
        Ok(Page { items, total })
    }
}

#[async_trait]
impl VisitStore for PgStore {
    async fn page_views(
        &self,
        ids: &[ChainId],
        today_start: Timestamp,
    ) -> StoreResult<HashMap<ChainId, PageViews>> {
        let ids: Vec<i64> = ids.iter().map(|c| c.0).collect();
        let rows = self
            .query(
                "SELECT t.chain_id, t.clicks, coalesce(d.clicks, 0)
                 FROM chain_visit_totals t
                 LEFT JOIN chain_daily_clicks d ON d.chain_id = t.chain_id AND d.day = $2
                 WHERE t.chain_id = ANY($1)",
                &[&ids, &today_start],
            )
            .await?;
        let mut views: HashMap<ChainId, PageViews> = ids
            .iter()
            .map(|id| (ChainId(*id), PageViews::default()))
            .collect();
        for row in rows {
            views.insert(
                ChainId(get(&row, 0)?),
                PageViews {
                    history: get(&row, 1)?,
                    today: get(&row, 2)?,
                },
            );
        }
        Ok(views)
    }

    async fn chain_visits(
        &self,
        chain: ChainId,
        from: Timestamp,
        to: Timestamp,
    ) -> StoreResult<ChainVisits> {
        let (clicks, unique_visitors) = match self
            .query_opt(
                "SELECT clicks, unique_visitors FROM chain_visit_totals WHERE chain_id = $1",
                &[&chain.0],
            )
            .await?
        {
            Some(row) => (get(&row, 0)?, get(&row, 1)?),
            None => (0, 0),
        };
        let daily = self
            .query(
                "SELECT day, clicks FROM chain_daily_clicks
                 WHERE chain_id = $1 AND day >= $2 AND day < $3 ORDER BY day",
                &[&chain.0, &from, &to],
            )
            .await?
            .iter()
            .map(|row| Ok((get(row, 0)?, get(row, 1)?)))
            .collect::<StoreResult<Vec<_>>>()?;
        Ok(ChainVisits {
            clicks,
            unique_visitors,
            daily,
        })
    }

    async fn visitor_secret(&self) -> StoreResult<Option<VisitorSecret>> {
        self.query_opt(
            "SELECT id, secret, created_at FROM visitor_secrets ORDER BY id DESC LIMIT 1",
            &[],
        )
        .await?
        .as_ref()
        .map(visitor_secret_from_row)
        .transpose()
    }
}

fn visitor_secret_from_row(row: &Row) -> StoreResult<VisitorSecret> {
    let bytes: &[u8] = get(row, 1)?;
    let secret = <[u8; 16]>::try_from(bytes)
        .map_err(|_| StoreError::backend(Misuse("a visitor secret is not 16 bytes")))?;
    Ok(VisitorSecret {
        id: get(row, 0)?,
        secret,
        created_at: get(row, 2)?,
    })
}

// ---- writes --------------------------------------------------------------------------------

/// Adds a batch of visits in one statement, so one round trip: the batch id is claimed (a
/// retry of a batch that committed adds nothing), ids older than `forget_before` are
/// forgotten, and the day rows, new visitors, totals and channel counts are raised only when
/// the claim succeeded. Run on its own it is its own transaction, which can never sit idle
/// between statements holding the rows another instance's flush waits for.
///
/// Rows are locked in (chain, day), (chain, visitor), chain and channel order, so concurrent
/// batches of several instances wait for each other instead of deadlocking.
async fn add_visits(
    client: &impl deadpool_postgres::GenericClient,
    batch: &VisitBatch,
    at: Timestamp,
    forget_before: Timestamp,
) -> StoreResult<bool> {
    let mut daily = batch.daily.clone();
    daily.sort_by_key(|d| (d.chain_id, d.day));
    let mut per_chain: std::collections::BTreeMap<i64, (i64, i64)> = Default::default();
    for d in &daily {
        let entry = per_chain.entry(d.chain_id.0).or_default();
        entry.0 += d.clicks;
        entry.1 += d.bot_clicks;
    }
    let column = |f: fn(&DailyVisits) -> i64| daily.iter().map(f).collect::<Vec<i64>>();
    let mut visitors: Vec<(i64, &[u8])> = batch
        .visitors
        .iter()
        .map(|(chain, key)| (chain.0, &key[..]))
        .collect();
    visitors.sort_unstable();
    let visitor_chains: Vec<i64> = visitors.iter().map(|v| v.0).collect();
    let visitor_keys: Vec<&[u8]> = visitors.iter().map(|v| v.1).collect();
    let click_chains: Vec<i64> = per_chain.keys().copied().collect();
    let clicks: Vec<i64> = per_chain.values().map(|v| v.0).collect();
    let bots: Vec<i64> = per_chain.values().map(|v| v.1).collect();
    let mut channels = batch.channels.clone();
    channels.sort_by_key(|c| (c.channel_id, c.day));
    let channel_ids: Vec<i64> = channels.iter().map(|c| c.channel_id.0).collect();
    let channel_days: Vec<i64> = channels.iter().map(|c| c.day).collect();
    let channel_visits: Vec<i64> = channels.iter().map(|c| c.visits).collect();
    // New visitors are the rows the unique index lets in; whichever instance inserts a
    // visitor first counts it.
    let statement = client
        .prepare_cached(
            "WITH claim AS (
                 INSERT INTO visit_batches (id, added_at) VALUES ($1, $2)
                 ON CONFLICT DO NOTHING RETURNING id
             ), forget AS (
                 DELETE FROM visit_batches WHERE added_at < $3
             ), daily AS (
                 INSERT INTO chain_daily_clicks (chain_id, day, clicks, bot_clicks)
                 SELECT t.* FROM unnest($4::bigint[], $5::bigint[], $6::bigint[], $7::bigint[])
                     AS t(chain_id, day, clicks, bot_clicks)
                 WHERE EXISTS (SELECT 1 FROM claim)
                 ORDER BY t.chain_id, t.day
                 ON CONFLICT (chain_id, day) DO UPDATE
                 SET clicks = chain_daily_clicks.clicks + excluded.clicks,
                     bot_clicks = chain_daily_clicks.bot_clicks + excluded.bot_clicks
             ), new_visitors AS (
                 INSERT INTO chain_visitors (chain_id, visitor)
                 SELECT v.* FROM unnest($8::bigint[], $9::bytea[]) AS v(chain_id, visitor)
                 WHERE EXISTS (SELECT 1 FROM claim)
                 ORDER BY v.chain_id, v.visitor
                 ON CONFLICT DO NOTHING RETURNING chain_id
             ), visitors AS (
                 SELECT chain_id, count(*) AS n FROM new_visitors GROUP BY chain_id
             ), clicks AS (
                 SELECT * FROM unnest($10::bigint[], $11::bigint[], $12::bigint[])
                     AS t(chain_id, clicks, bots)
             ), totals AS (
                 INSERT INTO chain_visit_totals (chain_id, clicks, bot_clicks, unique_visitors)
                 SELECT chain_id, coalesce(c.clicks, 0), coalesce(c.bots, 0), coalesce(v.n, 0)
                 FROM clicks c FULL JOIN visitors v USING (chain_id)
                 WHERE EXISTS (SELECT 1 FROM claim)
                 ORDER BY chain_id
                 ON CONFLICT (chain_id) DO UPDATE
                 SET clicks = chain_visit_totals.clicks + excluded.clicks,
                     bot_clicks = chain_visit_totals.bot_clicks + excluded.bot_clicks,
                     unique_visitors = chain_visit_totals.unique_visitors
                                       + excluded.unique_visitors
             ), channel_days AS (
                 INSERT INTO channel_daily_visits (channel_id, day, visits)
                 SELECT t.* FROM unnest($13::bigint[], $14::bigint[], $15::bigint[])
                     AS t(channel_id, day, visits)
                 WHERE EXISTS (SELECT 1 FROM claim)
                 ORDER BY t.channel_id, t.day
                 ON CONFLICT (channel_id, day) DO UPDATE
                 SET visits = channel_daily_visits.visits + excluded.visits
             ), channel_totals AS (
                 UPDATE channels c SET visit_count = c.visit_count + t.visits
                 FROM (SELECT id, sum(v)::bigint AS visits
                       FROM unnest($13::bigint[], $15::bigint[]) AS u(id, v) GROUP BY id) t
                 WHERE c.id = t.id AND EXISTS (SELECT 1 FROM claim)
             )
             SELECT EXISTS (SELECT 1 FROM claim)",
        )
        .await
        .map_err(pg_error)?;
    let row = client
        .query_one(
            &statement,
            &[
                &batch.id,
                &at,
                &forget_before,
                &column(|d| d.chain_id.0),
                &column(|d| d.day),
                &column(|d| d.clicks),
                &column(|d| d.bot_clicks),
                &visitor_chains,
                &visitor_keys,
                &click_chains,
                &clicks,
                &bots,
                &channel_ids,
                &channel_days,
                &channel_visits,
            ],
        )
        .await
        .map_err(pg_error)?;
    row.try_get(0).map_err(pg_error)
}

/// A transaction on a pooled connection, the changes its body published, and the number of
/// the last one that needs a barrier.
struct PgTx<'c> {
    tx: deadpool_postgres::Transaction<'c>,
    changes: Vec<Change>,
    barrier: Option<i64>,
    /// This instance, named in the notices it sends.
    instance: Arc<str>,
}

/// What a change notification carries: the change, the instance that made it (which applied
/// it already, right after its commit), and when it needs a barrier, its number.
#[derive(serde::Serialize, serde::Deserialize)]
struct Payload {
    #[serde(flatten)]
    change: Change,
    #[serde(default)]
    from: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    seq: Option<i64>,
}

#[async_trait]
impl TemplateStore for PgStore {
    async fn templates(
        &self,
        user: Option<UserId>,
        offset: i64,
        limit: i64,
    ) -> StoreResult<Page<Template>> {
        let user = user.map(|u| u.0);
        let filter =
            "($1::BIGINT IS NULL OR (retired_at IS NULL AND (user_id IS NULL OR user_id = $1)))";
        let total: i64 = match self
            .query_opt(
                &format!("SELECT count(*) FROM templates WHERE {filter}"),
                &[&user],
            )
            .await?
        {
            Some(row) => get(&row, 0)?,
            None => 0,
        };
        let sql = format!(
            "SELECT {TEMPLATE_COLUMNS} FROM templates WHERE {filter}
             ORDER BY id LIMIT $2 OFFSET $3"
        );
        let items = self
            .query(&sql, &[&user, &limit, &offset])
            .await?
            .iter()
            .map(template_from_row)
            .collect::<StoreResult<Vec<_>>>()?;
        Ok(Page { items, total })
    }

    async fn template(&self, id: TemplateId) -> StoreResult<Option<Template>> {
        let sql = format!("SELECT {TEMPLATE_COLUMNS} FROM templates WHERE id = $1");
        self.query_opt(&sql, &[&id.0])
            .await?
            .as_ref()
            .map(template_from_row)
            .transpose()
    }

    async fn templates_in_use(&self, user: UserId) -> StoreResult<Vec<TemplateId>> {
        self.query(
            "SELECT DISTINCT jump_template_id FROM chains
             WHERE user_id = $1 AND deleted_at IS NULL AND chain_type <> 1
             ORDER BY jump_template_id",
            &[&user.0],
        )
        .await?
        .iter()
        .map(|row| get(row, 0).map(TemplateId))
        .collect()
    }
}

#[async_trait]
impl UploadStore for PgStore {
    async fn upload(&self, user: UserId, id: UploadId) -> StoreResult<Option<Upload>> {
        let sql = format!(
            "SELECT {UPLOAD_COLUMNS} FROM uploads u JOIN blobs b USING (object_key)
             WHERE u.user_id = $1 AND u.id = $2 AND u.stored"
        );
        self.query_opt(&sql, &[&user.0, &id.0])
            .await?
            .as_ref()
            .map(upload_from_row)
            .transpose()
    }

    async fn uploads(&self, user: UserId, offset: i64, limit: i64) -> StoreResult<Page<Upload>> {
        let total: i64 = match self
            .query_opt(
                "SELECT count(*) FROM uploads WHERE user_id = $1 AND stored",
                &[&user.0],
            )
            .await?
        {
            Some(row) => get(&row, 0)?,
            None => 0,
        };
        let sql = format!(
            "SELECT {UPLOAD_COLUMNS} FROM uploads u JOIN blobs b USING (object_key)
             WHERE u.user_id = $1 AND u.stored ORDER BY u.id DESC LIMIT $2 OFFSET $3"
        );
        let items = self
            .query(&sql, &[&user.0, &limit, &offset])
            .await?
            .iter()
            .map(upload_from_row)
            .collect::<StoreResult<Vec<_>>>()?;
        Ok(Page { items, total })
    }

    async fn blob(&self, object_key: &str) -> StoreResult<Option<BlobRecord>> {
        let sql = format!("SELECT {BLOB_COLUMNS} FROM blobs WHERE object_key = $1");
        self.query_opt(&sql, &[&object_key])
            .await?
            .as_ref()
            .map(blob_from_row)
            .transpose()
    }

    async fn unreferenced_blobs(&self, limit: i64) -> StoreResult<Vec<BlobRecord>> {
        let sql = format!("SELECT {BLOB_COLUMNS} FROM blobs WHERE refs = 0 LIMIT $1");
        self.query(&sql, &[&limit])
            .await?
            .iter()
            .map(blob_from_row)
            .collect()
    }

    async fn stale_pending_uploads(
        &self,
        before: Timestamp,
        limit: i64,
    ) -> StoreResult<Vec<Upload>> {
        let sql = format!(
            "SELECT {UPLOAD_COLUMNS} FROM uploads u JOIN blobs b USING (object_key)
             WHERE NOT u.stored AND u.created_at < $1 LIMIT $2"
        );
        self.query(&sql, &[&before, &limit])
            .await?
            .iter()
            .map(upload_from_row)
            .collect()
    }
}

impl PgTx<'_> {
    async fn execute(
        &self,
        sql: &str,
        params: &[&(dyn tokio_postgres::types::ToSql + Sync)],
    ) -> StoreResult<u64> {
        let statement = self.statement(sql).await?;
        self.tx.execute(&statement, params).await.map_err(pg_error)
    }

    async fn statement(&self, sql: &str) -> StoreResult<Statement> {
        self.tx.prepare_cached(sql).await.map_err(pg_error)
    }

    async fn query_opt(
        &self,
        sql: &str,
        params: &[&(dyn tokio_postgres::types::ToSql + Sync)],
    ) -> StoreResult<Option<Row>> {
        let statement = self.statement(sql).await?;
        self.tx
            .query_opt(&statement, params)
            .await
            .map_err(pg_error)
    }

    /// Runs an insert that returns one row, mapping a UNIQUE violation to `what`.
    async fn insert_returning(
        &self,
        sql: &str,
        params: &[&(dyn tokio_postgres::types::ToSql + Sync)],
        what: Unique,
    ) -> StoreResult<Row> {
        let statement = self.statement(sql).await?;
        self.tx
            .query_one(&statement, params)
            .await
            .map_err(|e| unique_or(e, what))
    }

    async fn chain_by_id(&self, user: UserId, id: ChainId) -> StoreResult<Option<Chain>> {
        self.query_opt(&chain_by_id_sql(), &[&user.0, &id.0])
            .await?
            .as_ref()
            .map(chain_from_row)
            .transpose()
    }

    /// Puts a chain in `groups`, in that order.
    async fn set_groups(&self, chain: ChainId, groups: &[GroupId]) -> StoreResult<()> {
        if groups.is_empty() {
            return Ok(());
        }
        let groups: Vec<i64> = groups.iter().map(|g| g.0).collect();
        self.execute(
            "INSERT INTO chain_group_members (chain_id, group_id, position)
             SELECT $1, g, p - 1 FROM unnest($2::bigint[]) WITH ORDINALITY AS t(g, p)
             ON CONFLICT DO NOTHING",
            &[&chain.0, &groups],
        )
        .await?;
        Ok(())
    }

    /// Writes every jump column of a chain.
    async fn set_jump(&self, chain: ChainId, jump: &JumpSettings) -> StoreResult<()> {
        let (t, i) = jump_values(jump);
        self.execute(
            "UPDATE chains SET wx_id = $2, scan_qr_url = $3, avatar = $4, guide_text = $5,
                description = $6, sub_title = $7, qwhk_url = $8, mini_appid = $9,
                mini_path = $10, shop_appid = $11, shop_path = $12, is_direct_jump = $13,
                show_type = $14, jump_template_id = $15, scan_tips = $16, qrcode_vc_type = $17,
                visit_type = $18, wxwork_type = $19, customer_id = $20
             WHERE id = $1",
            &[
                &chain.0, &t[0], &t[1], &t[2], &t[3], &t[4], &t[5], &t[6], &t[7], &t[8], &t[9],
                &t[10], &i[0], &i[1], &i[2], &i[3], &i[4], &i[5], &i[6], &i[7],
            ],
        )
        .await?;
        Ok(())
    }

    async fn insert_channel(
        &self,
        chain: ChainId,
        c: &ChannelInput,
        at: Timestamp,
    ) -> StoreResult<()> {
        self.execute(
            "INSERT INTO channels (chain_id, sort, qrcode_name, url, url2, qrcode_time, ratio,
                visit_limit, status, created_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
            &[
                &chain.0,
                &c.sort,
                &c.name,
                &c.url,
                &c.url2,
                &c.expires_at,
                &c.ratio,
                &c.visit_limit,
                &i64::from(c.enabled),
                &at,
            ],
        )
        .await?;
        Ok(())
    }
}

#[async_trait]
impl Tx for PgTx<'_> {
    async fn insert_user(&mut self, new: NewUser) -> StoreResult<User> {
        let row = self
            .insert_returning(
                "INSERT INTO users (name, daily_quota, created_at) VALUES ($1, $2, $3)
                 RETURNING id",
                &[&new.name, &new.daily_quota, &new.created_at],
                Unique::UserName,
            )
            .await?;
        Ok(User {
            id: UserId(get(&row, 0)?),
            name: new.name,
            daily_quota: new.daily_quota,
            created_at: new.created_at,
        })
    }

    async fn user(&mut self, id: UserId) -> StoreResult<Option<User>> {
        let sql = format!("SELECT {USER_COLUMNS} FROM users WHERE id = $1");
        self.query_opt(&sql, &[&id.0])
            .await?
            .as_ref()
            .map(user_from_row)
            .transpose()
    }

    async fn insert_key(&mut self, new: NewApiKey) -> StoreResult<ApiKeyRecord> {
        let row = self
            .insert_returning(
                "INSERT INTO api_keys (user_id, name, prefix, hash, scopes, created_at, expires_at)
                 VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id",
                &[
                    &new.user_id.0,
                    &new.name,
                    &new.prefix,
                    &new.hash,
                    &scopes_to_text(&new.scopes),
                    &new.created_at,
                    &new.expires_at,
                ],
                Unique::KeyHash,
            )
            .await?;
        Ok(ApiKeyRecord {
            id: KeyId(get(&row, 0)?),
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
        let sql = format!(
            "UPDATE api_keys SET revoked_at = coalesce(revoked_at, $2) WHERE id = $1
             RETURNING {KEY_COLUMNS}"
        );
        self.query_opt(&sql, &[&id.0, &at])
            .await?
            .as_ref()
            .map(key_from_row)
            .transpose()
    }

    async fn insert_domain(&mut self, new: NewDomain) -> StoreResult<Domain> {
        let row = self
            .insert_returning(
                "INSERT INTO domains (host, scheme, scene, shared, user_id, status, created_at)
                 VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id",
                &[
                    &new.host,
                    &new.scheme.as_str(),
                    &new.scene,
                    &new.shared,
                    &new.user_id.map(|u| u.0),
                    &new.status.code(),
                    &new.created_at,
                ],
                Unique::DomainHost,
            )
            .await?;
        Ok(Domain {
            id: DomainId(get(&row, 0)?),
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
        let sql =
            format!("UPDATE domains SET status = $2 WHERE id = $1 RETURNING {DOMAIN_COLUMNS}");
        self.query_opt(&sql, &[&id.0, &status.code()])
            .await?
            .map(|r| domain_at(&r, 0))
            .transpose()
    }

    async fn insert_group(&mut self, new: NewGroup) -> StoreResult<Group> {
        let row = self
            .insert_returning(
                "INSERT INTO chain_groups (user_id, name, chain_type, created_at)
                 VALUES ($1, $2, $3, $4) RETURNING id",
                &[
                    &new.user_id.0,
                    &new.name,
                    &new.chain_type.code(),
                    &new.created_at,
                ],
                Unique::GroupName,
            )
            .await?;
        Ok(Group {
            id: GroupId(get(&row, 0)?),
            user_id: new.user_id,
            name: new.name,
            chain_type: new.chain_type,
            chain_count: 0,
            created_at: new.created_at,
        })
    }

    async fn insert_chain(&mut self, new: NewChain) -> StoreResult<Chain> {
        let row = self
            .insert_returning(
                "INSERT INTO chains (user_id, chain_type, sub_type, domain_id, code, title,
                    target_url, valid_time, status, created_at, updated_at)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $10) RETURNING id",
                &[
                    &new.user_id.0,
                    &new.kind.code(),
                    &new.sub_type,
                    &new.domain_id.0,
                    &new.code,
                    &new.title,
                    &new.target_url,
                    &new.valid_time,
                    &ChainStatus::Normal.code(),
                    &new.created_at,
                ],
                Unique::ChainCode,
            )
            .await?;
        let id = ChainId(get(&row, 0)?);
        self.set_groups(id, &new.group_ids).await?;
        if let Some(jump) = &new.jump {
            self.set_jump(id, jump).await?;
        }
        for channel in &new.channels {
            self.insert_channel(id, channel, new.created_at).await?;
        }
        self.chain_by_id(new.user_id, id)
            .await?
            .ok_or_else(|| StoreError::backend(Misuse("an inserted chain could not be read back")))
    }

    async fn count_creation(&mut self, user: UserId, day: Timestamp) -> StoreResult<i64> {
        let row = self
            .query_opt(
                "INSERT INTO daily_creations (user_id, day, count) VALUES ($1, $2, 1)
                 ON CONFLICT (user_id, day)
                 DO UPDATE SET count = daily_creations.count + 1
                 RETURNING count",
                &[&user.0, &day],
            )
            .await?
            .ok_or_else(|| StoreError::backend(Misuse("a counter upsert returned no row")))?;
        get(&row, 0)
    }

    async fn update_chain(
        &mut self,
        user: UserId,
        id: ChainId,
        patch: &ChainPatch,
        at: Timestamp,
    ) -> StoreResult<Option<Chain>> {
        let updated = self
            .query_opt(
                "UPDATE chains SET
                    title = coalesce($3, title),
                    target_url = coalesce($4, target_url),
                    valid_time = coalesce($5, valid_time),
                    status = coalesce($6, status),
                    updated_at = $7
                 WHERE user_id = $1 AND id = $2 AND deleted_at IS NULL
                 RETURNING id",
                &[
                    &user.0,
                    &id.0,
                    &patch.title,
                    &patch.target_url,
                    &patch.valid_time,
                    &patch.status.map(ChainStatus::code),
                    &at,
                ],
            )
            .await?;
        if updated.is_none() {
            return Ok(None);
        }
        if let Some(sub_type) = patch.sub_type {
            self.execute(
                "UPDATE chains SET sub_type = $2 WHERE id = $1",
                &[&id.0, &sub_type],
            )
            .await?;
        }
        if let Some(jump) = &patch.jump {
            self.set_jump(id, jump).await?;
        }
        if let Some(groups) = &patch.group_ids {
            self.execute(
                "DELETE FROM chain_group_members WHERE chain_id = $1",
                &[&id.0],
            )
            .await?;
            self.set_groups(id, groups).await?;
        }
        for edit in &patch.channels {
            match edit {
                ChannelEdit::Add(channel) => self.insert_channel(id, channel, at).await?,
                ChannelEdit::Change(channel_id, c) => {
                    self.execute(
                        "UPDATE channels SET sort = $3, qrcode_name = $4, url = $5, url2 = $6,
                            qrcode_time = $7, ratio = $8, visit_limit = $9, status = $10
                         WHERE id = $1 AND chain_id = $2 AND deleted_at IS NULL",
                        &[
                            &channel_id.0,
                            &id.0,
                            &c.sort,
                            &c.name,
                            &c.url,
                            &c.url2,
                            &c.expires_at,
                            &c.ratio,
                            &c.visit_limit,
                            &i64::from(c.enabled),
                        ],
                    )
                    .await?;
                }
                ChannelEdit::Remove(channel_id) => {
                    self.execute(
                        "UPDATE channels SET deleted_at = $3
                         WHERE id = $1 AND chain_id = $2 AND deleted_at IS NULL",
                        &[&channel_id.0, &id.0, &at],
                    )
                    .await?;
                }
            }
        }
        self.chain_by_id(user, id).await
    }

    async fn take_channel_visit(
        &mut self,
        channel: ChannelId,
        cap: VisitCap,
        limit: i64,
        day: Timestamp,
    ) -> StoreResult<bool> {
        // Each take is one conditional row update: under READ COMMITTED a concurrent take
        // waits for the row and re-checks the condition against the committed count, so no
        // two takes (on any instance) both see the last free visit. Both caps lock the
        // channel's row first, so takes never wait for each other in a cycle.
        let taken = match cap {
            VisitCap::Total => {
                self.execute(
                    "UPDATE channels SET visit_count = visit_count + 1
                     WHERE id = $1 AND deleted_at IS NULL AND visit_count < $2",
                    &[&channel.0, &limit],
                )
                .await?
            }
            VisitCap::Daily => {
                let live = self
                    .query_opt(
                        "SELECT id FROM channels WHERE id = $1 AND deleted_at IS NULL FOR UPDATE",
                        &[&channel.0],
                    )
                    .await?;
                if live.is_none() {
                    return Ok(false);
                }
                self.execute(
                    "INSERT INTO channel_daily_visits (channel_id, day, visits)
                     SELECT $1::bigint, $2::bigint, 1::bigint WHERE $3::bigint > 0
                     ON CONFLICT (channel_id, day) DO UPDATE
                     SET visits = channel_daily_visits.visits + 1
                     WHERE channel_daily_visits.visits < $3",
                    &[&channel.0, &day, &limit],
                )
                .await?
            }
        };
        if taken == 0 {
            return Ok(false);
        }
        match cap {
            VisitCap::Total => {
                self.execute(
                    "INSERT INTO channel_daily_visits (channel_id, day, visits) VALUES ($1, $2, 1)
                     ON CONFLICT (channel_id, day) DO UPDATE
                     SET visits = channel_daily_visits.visits + 1",
                    &[&channel.0, &day],
                )
                .await?
            }
            VisitCap::Daily => {
                self.execute(
                    "UPDATE channels SET visit_count = visit_count + 1 WHERE id = $1",
                    &[&channel.0],
                )
                .await?
            }
        };
        Ok(true)
    }

    async fn delete_chain(
        &mut self,
        user: UserId,
        id: ChainId,
        at: Timestamp,
    ) -> StoreResult<Option<Chain>> {
        // Lock the row first: of two concurrent deletes, the second sees it deleted.
        let live = self
            .query_opt(
                "SELECT id FROM chains
                 WHERE user_id = $1 AND id = $2 AND deleted_at IS NULL FOR UPDATE",
                &[&user.0, &id.0],
            )
            .await?;
        if live.is_none() {
            return Ok(None);
        }
        let chain = self.chain_by_id(user, id).await?;
        let statement = self
            .statement("UPDATE chains SET deleted_at = $2, updated_at = $2 WHERE id = $1")
            .await?;
        self.tx
            .execute(&statement, &[&id.0, &at])
            .await
            .map_err(pg_error)?;
        Ok(chain)
    }

    async fn add_visits(
        &mut self,
        batch: &VisitBatch,
        at: Timestamp,
        forget_before: Timestamp,
    ) -> StoreResult<bool> {
        add_visits(&self.tx, batch, at, forget_before).await
    }

    async fn insert_visitor_secret(
        &mut self,
        secret: [u8; 16],
        at: Timestamp,
    ) -> StoreResult<VisitorSecret> {
        let row = self
            .query_opt(
                "INSERT INTO visitor_secrets (secret, created_at) VALUES ($1, $2) RETURNING id",
                &[&&secret[..], &at],
            )
            .await?
            .ok_or_else(|| StoreError::backend(Misuse("an insert returned no row")))?;
        Ok(VisitorSecret {
            id: get(&row, 0)?,
            secret,
            created_at: at,
        })
    }

    async fn insert_conversion(
        &mut self,
        user: UserId,
        new: Conversion,
    ) -> StoreResult<(Conversion, bool)> {
        // A concurrent report of the same key waits here for the first to commit, then finds
        // the conflict: the unique index, not a check before the insert, decides.
        let inserted = self
            .query_opt(
                "INSERT INTO conversions (event_id, user_id, chain_id, conv_type, out_id,
                    clickid, platform, ad_platform, external_userid, value_cents, created_at)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
                 ON CONFLICT (user_id, chain_id, conv_type, out_id) DO NOTHING
                 RETURNING event_id",
                &[
                    &new.event_id,
                    &user.0,
                    &new.chain_id.0,
                    &new.conv_type,
                    &new.out_id,
                    &new.clickid,
                    &new.platform,
                    &new.ad_platform,
                    &new.external_userid,
                    &new.value_cents,
                    &new.created_at,
                ],
            )
            .await?
            .is_some();
        let sql = format!(
            "SELECT {CONVERSION_COLUMNS} FROM conversions
             WHERE user_id = $1 AND chain_id = $2 AND conv_type = $3
               AND (out_id = $4 OR ($4::text IS NULL AND event_id = $5))"
        );
        let row = self
            .query_opt(
                &sql,
                &[
                    &user.0,
                    &new.chain_id.0,
                    &new.conv_type,
                    &new.out_id,
                    &new.event_id,
                ],
            )
            .await?
            .ok_or_else(|| StoreError::backend(Misuse("a conversion could not be read back")))?;
        Ok((conversion_from_row(&row)?, inserted))
    }

    async fn insert_template(&mut self, new: NewTemplate) -> StoreResult<Template> {
        let sql = format!(
            "INSERT INTO templates (user_id, name, style, type, thumb, body, created_at,
                updated_at)
             VALUES ($1, $2, $3, 2, $4, $5, $6, $6) RETURNING {TEMPLATE_COLUMNS}"
        );
        let row = self
            .query_opt(
                &sql,
                &[
                    &new.user_id.map(|u| u.0),
                    &new.name,
                    &new.style,
                    &new.thumb,
                    &new.body,
                    &new.created_at,
                ],
            )
            .await?
            .ok_or_else(|| StoreError::backend(Misuse("a template insert returned no row")))?;
        template_from_row(&row)
    }

    async fn update_template(
        &mut self,
        id: TemplateId,
        patch: &TemplatePatch,
        at: Timestamp,
    ) -> StoreResult<Option<Template>> {
        let sql = format!(
            "UPDATE templates SET name = coalesce($2, name), style = coalesce($3, style),
                thumb = coalesce($4, thumb), body = coalesce($5, body), updated_at = $6
             WHERE id = $1 AND type = 2 AND retired_at IS NULL RETURNING {TEMPLATE_COLUMNS}"
        );
        self.query_opt(
            &sql,
            &[
                &id.0,
                &patch.name,
                &patch.style,
                &patch.thumb,
                &patch.body,
                &at,
            ],
        )
        .await?
        .as_ref()
        .map(template_from_row)
        .transpose()
    }

    async fn retire_template(
        &mut self,
        id: TemplateId,
        at: Timestamp,
    ) -> StoreResult<Option<Template>> {
        let sql = format!(
            "UPDATE templates SET retired_at = $2, updated_at = $2
             WHERE id = $1 AND type = 2 AND retired_at IS NULL RETURNING {TEMPLATE_COLUMNS}"
        );
        self.query_opt(&sql, &[&id.0, &at])
            .await?
            .as_ref()
            .map(template_from_row)
            .transpose()
    }

    async fn begin_upload(&mut self, new: &NewUpload) -> StoreResult<(UploadClaim, i64)> {
        // Lock the user's usage row first: a user's concurrent uploads, on any instance, then
        // run one after another, each seeing what the one before it committed.
        let used: i64 = match self
            .query_opt(
                "INSERT INTO upload_usage (user_id, bytes) VALUES ($1, 0)
                 ON CONFLICT (user_id) DO UPDATE SET bytes = upload_usage.bytes
                 RETURNING bytes",
                &[&new.user_id.0],
            )
            .await?
        {
            Some(row) => get(&row, 0)?,
            None => 0,
        };
        let sql = format!(
            "SELECT {UPLOAD_COLUMNS}, u.stored FROM uploads u JOIN blobs b USING (object_key)
             WHERE u.user_id = $1 AND u.object_key = $2"
        );
        if let Some(row) = self
            .query_opt(&sql, &[&new.user_id.0, &new.object_key])
            .await?
        {
            let upload = upload_from_row(&row)?;
            let stored: bool = get(&row, 7)?;
            return Ok((UploadClaim::Existing { upload, stored }, used));
        }
        // The object row's lock orders this against a removal claim of the same object.
        let referenced = self
            .query_opt(
                "INSERT INTO blobs (object_key, content_type, size_bytes, refs)
                 VALUES ($1, $2, $3, 1)
                 ON CONFLICT (object_key) DO UPDATE SET refs = blobs.refs + 1
                 WHERE NOT blobs.deleting
                 RETURNING refs",
                &[&new.object_key, &new.content_type, &new.size_bytes],
            )
            .await?;
        if referenced.is_none() {
            return Ok((UploadClaim::ObjectDeleting, used));
        }
        let row = self
            .query_opt(
                "INSERT INTO uploads (user_id, object_key, size_bytes, file_name, created_at)
                 VALUES ($1, $2, $3, $4, $5) RETURNING id",
                &[
                    &new.user_id.0,
                    &new.object_key,
                    &new.size_bytes,
                    &new.file_name,
                    &new.created_at,
                ],
            )
            .await?
            .ok_or_else(|| StoreError::backend(Misuse("an upload insert returned no row")))?;
        let id = UploadId(get(&row, 0)?);
        self.execute(
            "UPDATE upload_usage SET bytes = bytes + $2 WHERE user_id = $1",
            &[&new.user_id.0, &new.size_bytes],
        )
        .await?;
        Ok((UploadClaim::Pending(id), used))
    }

    async fn finish_upload(&mut self, id: UploadId) -> StoreResult<()> {
        self.execute("UPDATE uploads SET stored = true WHERE id = $1", &[&id.0])
            .await?;
        Ok(())
    }

    async fn delete_upload(
        &mut self,
        user: UserId,
        id: UploadId,
        pending_only: bool,
    ) -> StoreResult<Option<(Upload, bool)>> {
        // Lock as claims do, the user's usage row first, so the two never wait on each other
        // in opposite orders.
        self.execute(
            "SELECT bytes FROM upload_usage WHERE user_id = $1 FOR UPDATE",
            &[&user.0],
        )
        .await?;
        let Some(row) = self
            .query_opt(
                "DELETE FROM uploads WHERE id = $1 AND user_id = $2 AND (NOT stored OR NOT $3)
                 RETURNING id, user_id, object_key, size_bytes, file_name, created_at",
                &[&id.0, &user.0, &pending_only],
            )
            .await?
        else {
            return Ok(None);
        };
        let user_id = UserId(get(&row, 1)?);
        let object_key: String = get(&row, 2)?;
        let size_bytes: i64 = get(&row, 3)?;
        self.execute(
            "UPDATE upload_usage SET bytes = bytes - $2 WHERE user_id = $1",
            &[&user_id.0, &size_bytes],
        )
        .await?;
        let blob = self
            .query_opt(
                "UPDATE blobs SET refs = refs - 1, deleting = deleting OR refs - 1 = 0
                 WHERE object_key = $1 RETURNING deleting, content_type",
                &[&object_key],
            )
            .await?
            .ok_or_else(|| StoreError::backend(Misuse("an upload named no object")))?;
        let upload = Upload {
            id: UploadId(get(&row, 0)?),
            user_id,
            object_key,
            content_type: get(&blob, 1)?,
            size_bytes,
            file_name: get(&row, 4)?,
            created_at: get(&row, 5)?,
        };
        Ok(Some((upload, get(&blob, 0)?)))
    }

    async fn claim_blob_removal(&mut self, object_key: &str) -> StoreResult<bool> {
        let changed = self
            .execute(
                "UPDATE blobs SET deleting = true WHERE object_key = $1 AND refs = 0",
                &[&object_key],
            )
            .await?;
        Ok(changed == 1)
    }

    async fn forget_blob(&mut self, object_key: &str) -> StoreResult<()> {
        self.execute(
            "DELETE FROM blobs WHERE object_key = $1 AND deleting AND refs = 0",
            &[&object_key],
        )
        .await?;
        Ok(())
    }

    async fn put_assembly(&mut self, e: &AssemblyInput) -> StoreResult<Assembly> {
        let row = self
            .query_opt(
                "INSERT INTO workchat_assemblies (user_id, link_id, link_name, url, auth_status,
                    use_status, created_at)
                 VALUES ($1, $2, $3, $4, $5, $6, $7)
                 ON CONFLICT (user_id, link_id) DO UPDATE SET link_name = excluded.link_name,
                    url = excluded.url, auth_status = excluded.auth_status,
                    use_status = excluded.use_status
                 RETURNING id",
                &[
                    &e.user_id.0,
                    &e.link_id,
                    &e.link_name,
                    &e.url,
                    &e.auth_status,
                    &if e.invalid { 2i64 } else { 0 },
                    &e.created_at,
                ],
            )
            .await?
            .ok_or_else(|| StoreError::backend(Misuse("an upsert returned no row")))?;
        let id: i64 = get(&row, 0)?;
        self.query_opt(&ASSEMBLY_BY_ID, &[&e.user_id.0, &id])
            .await?
            .as_ref()
            .map(assembly_from_row)
            .transpose()?
            .ok_or_else(|| StoreError::backend(Misuse("an upserted entry could not be read")))
    }

    async fn put_transfer(&mut self, t: &Transfer, at: Timestamp) -> StoreResult<Transfer> {
        let sql = format!(
            "INSERT INTO workchat_transfers (user_id, corp_id, handover_userid,
                takeover_userid, external_userid, customer_name, status, takeover_time,
                errcode, reason, created_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
             ON CONFLICT (user_id, corp_id, handover_userid, external_userid) DO UPDATE
             SET takeover_userid = excluded.takeover_userid,
                 customer_name = excluded.customer_name, status = excluded.status,
                 takeover_time = excluded.takeover_time, errcode = excluded.errcode,
                 reason = excluded.reason
             RETURNING {TRANSFER_COLUMNS}"
        );
        let row = self
            .query_opt(
                &sql,
                &[
                    &t.user_id.0,
                    &t.corp_id,
                    &t.handover_userid,
                    &t.takeover_userid,
                    &t.external_userid,
                    &t.customer_name,
                    &t.status,
                    &t.takeover_time,
                    &t.errcode,
                    &t.reason,
                    &at,
                ],
            )
            .await?
            .ok_or_else(|| StoreError::backend(Misuse("an upsert returned no row")))?;
        transfer_from_row(&row)
    }

    async fn publish(&mut self, change: Change) -> StoreResult<()> {
        let seq = if change.needs_barrier() {
            let row = self
                .query_opt("SELECT nextval('linkapi_change_seq')", &[])
                .await?
                .ok_or_else(|| StoreError::backend(Misuse("nextval returned no row")))?;
            let seq: i64 = get(&row, 0)?;
            self.barrier = Some(seq);
            Some(seq)
        } else {
            None
        };
        let payload = serde_json::to_string(&Payload {
            change: change.clone(),
            from: self.instance.to_string(),
            seq,
        })
        .map_err(StoreError::backend)?;
        let statement = self.statement("SELECT pg_notify($1, $2)").await?;
        self.tx
            .execute(&statement, &[&CHANGES_CHANNEL, &payload])
            .await
            .map_err(pg_error)?;
        self.changes.push(change);
        Ok(())
    }
}

impl PgStore {
    /// One attempt at running `body`: begin, run, commit. Returns the published changes and
    /// the barrier to wait for, if any.
    async fn attempt(&self, body: &mut TxBody) -> StoreResult<(Vec<Change>, Option<i64>)> {
        let mut client = self.client().await?;
        let tx = client.transaction().await.map_err(pg_error)?;
        let mut pg_tx = PgTx {
            tx,
            changes: Vec::new(),
            barrier: None,
            instance: self.instance.clone(),
        };
        body(&mut pg_tx).await?;
        let PgTx {
            tx,
            changes,
            barrier,
            ..
        } = pg_tx;
        // A failed commit may or may not have committed: it is reported, never retried.
        tx.commit()
            .await
            .map_err(|e| StoreError::unavailable(CommitUnknown(e)))?;
        Ok((changes, barrier))
    }
}

/// Waits a little before attempt `attempt + 1` of a body that met contention, more each time, so
/// the contenders spread out.
async fn back_off(attempt: u32) {
    let jitter = rand::random_range(0..=(2u64 << attempt));
    tokio::time::sleep(Duration::from_millis(jitter)).await;
}

/// A commit that failed without saying whether it took effect (typically the connection was
/// lost while committing).
#[derive(Debug, thiserror::Error)]
#[error("the commit's outcome is unknown: {0}")]
struct CommitUnknown(#[source] tokio_postgres::Error);

#[async_trait]
impl Store for PgStore {
    async fn transact(&self, mut body: TxBody) -> StoreResult<Vec<Change>> {
        let mut attempt = 1;
        loop {
            match self.attempt(&mut body).await {
                Ok((changes, None)) => return Ok(changes),
                Ok((changes, Some(seq))) => {
                    self.await_barrier(seq).await?;
                    return Ok(changes);
                }
                Err(err) if is_contention(&err) && attempt < MAX_ATTEMPTS => {
                    back_off(attempt).await;
                    attempt += 1;
                }
                Err(err) => return Err(err),
            }
        }
    }

    async fn add_visits(
        &self,
        batch: Arc<VisitBatch>,
        at: Timestamp,
        forget_before: Timestamp,
    ) -> StoreResult<bool> {
        let mut attempt = 1;
        loop {
            let client = self.client().await?;
            match add_visits(&client, &batch, at, forget_before).await {
                Err(err) if is_contention(&err) && attempt < MAX_ATTEMPTS => {
                    back_off(attempt).await;
                    attempt += 1;
                }
                outcome => return outcome,
            }
        }
    }

    async fn ping(&self) -> StoreResult<()> {
        self.query("SELECT 1", &[]).await.map(|_| ())
    }

    fn notices(&self) -> Option<tokio::sync::mpsc::UnboundedReceiver<Notice>> {
        Some(listen::start(
            self.config.clone(),
            self.tls.clone(),
            self.instance.clone(),
        ))
    }

    async fn acknowledge(&self, seq: i64) -> StoreResult<()> {
        self.query(
            "UPDATE linkapi_instances SET applied = greatest(applied, $2), seen_at = now()
             WHERE id = $1",
            &[&&*self.instance, &seq],
        )
        .await
        .map(|_| ())
    }

    async fn close(&self) {
        if let Err(err) = self
            .query(
                "DELETE FROM linkapi_instances WHERE id = $1",
                &[&&*self.instance],
            )
            .await
        {
            tracing::warn!(error = %err, "could not deregister this instance");
        }
    }
}
