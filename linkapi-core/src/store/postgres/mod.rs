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
//!
//! One file per aggregate, as in `store/` and `sqlite/`; this file holds the pool, the error
//! mapping, the retry of transactions and the `StoredRow` reading of tokio-postgres's rows.

mod chains;
mod changes;
mod channels;
mod conversions;
mod domains;
mod flush_breakdowns;
mod groups;
mod idempotency;
mod keys;
mod link_reads;
mod listen;

pub use listen::FEED_CAPACITY;
mod schema;
mod statements;
mod templates;
mod uploads;
mod users;
mod visits;
mod webhooks;
mod workchat;

use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use deadpool_postgres::{
    GenericClient, Hook, HookError, Manager, ManagerConfig, Object, Pool, RecyclingMethod,
};
use tokio_postgres::error::SqlState;

use super::{
    FeedEvent, Invalidation, NewChain, Store, StoreError, StoreResult, StoredRow, TxBody,
    VisitBatch,
};
use crate::locks::Unpoisoned;
use crate::model::{Chain, Timestamp, UserId};
pub(super) use statements::pg_error;
use statements::{
    Params, all, bound, count, execute, first, insert_returning, is_contention, one, pool_error,
    unique_or,
};

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
    /// Notices of committed writes to send (see [`changes::start_after_commit_sender`]).
    after_commit: changes::AfterCommitQueue,
    /// Whether the database answered the last ask for a connection.
    availability: Arc<Availability>,
    /// Redirects' cache misses waiting to be read together.
    link_reads: Arc<link_reads::LinkReads>,
}

/// Whether the database answered the last time a connection was asked for, so that an outage
/// is logged once when it starts, with its cause, and once when it ends, however many
/// requests meet it in between.
#[derive(Default)]
struct Availability {
    /// Set while the database is not answering, so the answered path is one load.
    down: std::sync::atomic::AtomicBool,
    /// When the outage began.
    since: std::sync::Mutex<Option<std::time::Instant>>,
}

impl Availability {
    fn answered(&self) {
        use std::sync::atomic::Ordering;
        if !self.down.load(Ordering::Acquire) {
            return;
        }
        let mut since = self.since.lock().unpoisoned();
        if let Some(began) = since.take() {
            self.down.store(false, Ordering::Release);
            tracing::info!(
                "PostgreSQL answers again, after {:.1} s unavailable",
                began.elapsed().as_secs_f64()
            );
        }
    }

    fn failed(&self, err: &StoreError) {
        use std::sync::atomic::Ordering;
        if !matches!(err, StoreError::Unavailable(_)) {
            return;
        }
        let mut since = self.since.lock().unpoisoned();
        if since.is_none() {
            *since = Some(std::time::Instant::now());
            self.down.store(true, Ordering::Release);
            tracing::warn!(
                cause = %super::describe(err),
                "PostgreSQL is unavailable: API calls answer 503 and visit counts wait in \
                 memory until it answers again"
            );
        }
    }
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

/// Run on every pooled connection once it is opened.
///
/// No JIT compilation: PostgreSQL compiles a statement whose estimated cost passes
/// `jit_above_cost` (100,000 by default), as a visit flush's breakdown statement does once a
/// batch holds a few thousand chains, and compiles it afresh every time: 0.8-2.1 s a batch,
/// 2.1 s of a 2.7 s statement for 6,900 visits (measured, PostgreSQL 15). linkapi's statements
/// read a few rows by an index, or write a batch in one pass, where compiling never pays
/// (docs/decisions.md, "PostgreSQL sessions").
const SESSION_SETTINGS: &str = "SET jit = off";

/// Rows in a visit flush past which its connection is closed rather than returned to the
/// pool. A connection keeps the buffers its largest message grew: a flush of 100,000 visits
/// sends tens of megabytes, and with flushes going out on whichever of 16 pooled connections
/// was free, RSS at a million chains reached 251-288 MB under PostgreSQL against 136-166 MB
/// with a pool of two (same loads). A new connection costs a few milliseconds; a flush this
/// large takes hundreds.
const LARGE_FLUSH_ROWS: usize = 10_000;

/// The rows a visit flush sends, every kind counted.
fn rows_sent(batch: &VisitBatch) -> usize {
    batch.daily.len() + batch.visitors.len() + batch.channels.len() + batch.breakdowns.len()
}

/// A pool of connections to the database at `url`, with what the change listener needs to
/// open its own.
fn pool(
    url: &str,
    options: &PgOptions,
) -> StoreResult<(
    Pool,
    tokio_postgres::Config,
    tokio_postgres_rustls::MakeRustlsConnect,
)> {
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
        .post_create(Hook::async_fn(|client, _| {
            Box::pin(async move {
                match client.batch_execute(SESSION_SETTINGS).await {
                    // PostgreSQL before 11 has no JIT, and no setting for it.
                    Err(err) if err.code() == Some(&SqlState::UNDEFINED_OBJECT) => Ok(()),
                    outcome => outcome.map_err(HookError::Backend),
                }
            })
        }))
        .max_size(options.max_connections.max(1))
        .wait_timeout(Some(options.acquire_timeout))
        .create_timeout(Some(options.acquire_timeout))
        .recycle_timeout(Some(options.acquire_timeout))
        .runtime(deadpool_postgres::Runtime::Tokio1)
        .build()
        .map_err(StoreError::backend)?;
    Ok((pool, config, tls))
}

/// One connection to the database at `url`, its schema brought up to date, that is not an
/// instance: for operator commands working beside or instead of servers (`store::transfer`).
pub(in crate::store) async fn migrated_client(url: &str) -> StoreResult<Object> {
    let options = PgOptions {
        max_connections: 1,
        acquire_timeout: Duration::from_secs(30),
    };
    let (pool, _, _) = pool(url, &options)?;
    let mut client = pool.get().await.map_err(pool_error)?;
    schema::migrate(&mut client).await?;
    Ok(client)
}

/// How many instances have beaten within [`INSTANCE_TIMEOUT_SECS`]: those serving now.
pub(in crate::store) async fn live_instances(client: &impl GenericClient) -> StoreResult<i64> {
    count(
        client,
        "SELECT count(*) FROM linkapi_instances WHERE seen_at > now() - make_interval(secs => $1)",
        &[&INSTANCE_TIMEOUT_SECS],
    )
    .await
}

impl PgStore {
    /// Connects to the database at `url` (`postgres://user:password@host:port/db`, with
    /// `sslmode=require` for TLS) and runs pending migrations.
    ///
    /// # Errors
    /// When the URL is invalid, the database cannot be reached, or its schema is newer than
    /// this build.
    pub async fn connect(url: &str, options: PgOptions) -> StoreResult<Self> {
        let (pool, config, tls) = pool(url, &options)?;
        let instance: Arc<str> =
            format!("{}-{}", std::process::id(), crate::codes::random_code(12)).into();
        let after_commit = changes::start_after_commit_sender(pool.clone());
        let store = PgStore {
            pool,
            config,
            tls,
            instance,
            after_commit,
            availability: Arc::default(),
            link_reads: Arc::default(),
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

    async fn client(&self) -> StoreResult<Object> {
        match self.pool.get().await {
            Ok(client) => {
                self.availability.answered();
                Ok(client)
            }
            Err(err) => {
                let err = pool_error(err);
                self.availability.failed(&err);
                Err(err)
            }
        }
    }

    /// [`one`] on a pooled connection.
    async fn one<T>(
        &self,
        sql: &str,
        params: Params<'_>,
        decode: fn(&dyn StoredRow) -> StoreResult<T>,
    ) -> StoreResult<Option<T>> {
        one(&self.client().await?, sql, params, decode).await
    }

    /// [`all`] on a pooled connection.
    async fn all<T>(
        &self,
        sql: &str,
        params: Params<'_>,
        decode: fn(&dyn StoredRow) -> StoreResult<T>,
    ) -> StoreResult<Vec<T>> {
        all(&self.client().await?, sql, params, decode).await
    }

    /// [`execute`] on a pooled connection.
    async fn execute(&self, sql: &str, params: Params<'_>) -> StoreResult<u64> {
        execute(&self.client().await?, sql, params).await
    }
}

/// A transaction on a pooled connection, the changes its body published, and the number of
/// the last one that needs a barrier.
struct PgTx<'c> {
    tx: deadpool_postgres::Transaction<'c>,
    changes: Vec<Invalidation>,
    /// Changes to announce once the transaction has committed.
    after_commit: Vec<Invalidation>,
    barrier: Option<i64>,
    /// This instance, named in the notices it sends.
    instance: Arc<str>,
}

impl PgStore {
    /// One attempt at running `body`: begin, run, commit. Returns the published changes and
    /// the barrier to wait for, if any.
    async fn attempt(&self, body: &mut TxBody) -> StoreResult<(Vec<Invalidation>, Option<i64>)> {
        let mut client = self.client().await?;
        let (mut changes, after_commit, barrier) = {
            let tx = client.transaction().await.map_err(pg_error)?;
            let mut pg_tx = PgTx {
                tx,
                changes: Vec::new(),
                after_commit: Vec::new(),
                barrier: None,
                instance: self.instance.clone(),
            };
            body(&mut pg_tx).await?;
            let PgTx {
                tx,
                changes,
                after_commit,
                barrier,
                ..
            } = pg_tx;
            // A failed commit may or may not have committed: it is reported, never retried.
            tx.commit()
                .await
                .map_err(|e| StoreError::unavailable(CommitUnknown(e)))?;
            (changes, after_commit, barrier)
        };
        if !after_commit.is_empty() {
            drop(client);
            changes::announce_after_commit(&self.after_commit, &self.instance, &after_commit)
                .await?;
            changes.extend(after_commit);
        }
        Ok((changes, barrier))
    }
}

/// Waits a little before attempt `attempt + 1` of a body that met contention, more each time, so
/// the contenders spread out.
async fn back_off(attempt: u32) {
    let jitter = rand::random_range(0..=(2u64 << attempt));
    tokio::time::sleep(Duration::from_millis(jitter)).await;
}

/// Runs a statement that is a transaction of its own (so a failure undid all of it) again while
/// it meets contention, up to [`MAX_ATTEMPTS`] times.
async fn retrying<T, Fut>(mut run: impl FnMut() -> Fut) -> StoreResult<T>
where
    Fut: std::future::Future<Output = StoreResult<T>>,
{
    let mut attempt = 1;
    loop {
        match run().await {
            Err(err) if is_contention(&err) && attempt < MAX_ATTEMPTS => {
                back_off(attempt).await;
                attempt += 1;
            }
            outcome => return outcome,
        }
    }
}

/// A commit that failed without saying whether it took effect (typically the connection was
/// lost while committing).
#[derive(Debug, thiserror::Error)]
#[error("the commit's outcome is unknown: {0}")]
struct CommitUnknown(#[source] tokio_postgres::Error);

#[async_trait]
impl Store for PgStore {
    async fn transact(&self, mut body: TxBody) -> StoreResult<Vec<Invalidation>> {
        let mut attempt = 1;
        loop {
            match self.attempt(&mut body).await {
                Ok((changes, None)) => return Ok(changes),
                Ok((changes, Some(seq))) => {
                    changes::await_barrier(self, seq).await?;
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

    fn writes_one_at_a_time(&self) -> bool {
        false
    }

    async fn insert_plain_chains(&self, new: Vec<NewChain>) -> StoreResult<Vec<Option<Chain>>> {
        let inserted =
            retrying(|| async { chains::insert_plain_rows(&self.client().await?, &new).await })
                .await?;
        let inserted = chains::inserted_chains(new, inserted);
        let links: Vec<Invalidation> = inserted
            .iter()
            .flatten()
            .map(|chain| Invalidation::Link {
                domain: chain.domain.id,
                code: chain.code.clone(),
            })
            .collect();
        if !links.is_empty() {
            changes::announce_after_commit(&self.after_commit, &self.instance, &links).await?;
        }
        Ok(inserted)
    }

    async fn reserve_creations(
        &self,
        user: UserId,
        day: Timestamp,
        n: i64,
        default_quota: i64,
    ) -> StoreResult<Option<i64>> {
        // One statement in its own transaction, whose commit (`set_config(..., true)` lasts
        // until it) does not wait for the disk: the counter row is locked for microseconds.
        let client = self.client().await?;
        one(
            &client,
            "WITH deferred AS (SELECT set_config('synchronous_commit', 'off', true) AS off)
             INSERT INTO daily_creations AS d (user_id, day, count)
             SELECT $1, $2, $3 FROM deferred
             WHERE deferred.off = 'off'
               AND $3 <= (SELECT coalesce(daily_quota, $4) FROM users WHERE id = $1)
             ON CONFLICT (user_id, day) DO UPDATE SET count = d.count + $3
                WHERE d.count + $3 <= (SELECT coalesce(daily_quota, $4) FROM users WHERE id = $1)
             RETURNING count",
            &[&user.0, &day, &n, &default_quota],
            first,
        )
        .await
    }

    async fn reserve_creations_each(
        &self,
        asks: Vec<(UserId, Timestamp, i64)>,
        default_quota: i64,
    ) -> StoreResult<Vec<Option<i64>>> {
        let users: Vec<i64> = asks.iter().map(|(user, _, _)| user.0).collect();
        let days: Vec<i64> = asks.iter().map(|(_, day, _)| *day).collect();
        let counts: Vec<i64> = asks.iter().map(|(_, _, n)| *n).collect();
        let granted = retrying(|| async {
            let client = self.client().await?;
            // As reserve_creations, for many counters: rows are locked in (user, day) order.
            all(
                &client,
                "WITH deferred AS (SELECT set_config('synchronous_commit', 'off', true) AS off),
                 asks AS (
                    SELECT a.user_id, a.day, a.n FROM unnest($1::bigint[], $2::bigint[], $3::bigint[])
                        AS a(user_id, day, n)
                    JOIN users u ON u.id = a.user_id
                    WHERE a.n <= coalesce(u.daily_quota, $4))
                 INSERT INTO daily_creations AS d (user_id, day, count)
                 SELECT asks.user_id, asks.day, asks.n FROM asks, deferred
                 WHERE deferred.off = 'off'
                 ORDER BY asks.user_id, asks.day
                 ON CONFLICT (user_id, day) DO UPDATE SET count = d.count + excluded.count
                    WHERE d.count + excluded.count
                        <= (SELECT coalesce(daily_quota, $4) FROM users WHERE id = d.user_id)
                 RETURNING user_id, day, count",
                &[&users, &days, &counts, &default_quota],
                |row| Ok(((row.int(0)?, row.int(1)?), row.int(2)?)),
            )
            .await
        })
        .await?;
        let granted: std::collections::HashMap<(i64, i64), i64> = granted.into_iter().collect();
        Ok(asks
            .iter()
            .map(|(user, day, _)| granted.get(&(user.0, *day)).copied())
            .collect())
    }

    async fn add_visits(
        &self,
        batch: Arc<VisitBatch>,
        at: Timestamp,
        forget_before: Timestamp,
    ) -> StoreResult<bool> {
        retrying(|| async {
            let client = self.client().await?;
            let added = visits::add_visits(&client, &batch, at, forget_before).await;
            if rows_sent(&batch) > LARGE_FLUSH_ROWS {
                // Closed rather than pooled: it keeps buffers the size of this flush.
                drop(Object::take(client));
            }
            added
        })
        .await
    }

    async fn ping(&self) -> StoreResult<()> {
        self.execute("SELECT 1", &[]).await.map(|_| ())
    }

    fn feed(&self) -> Option<tokio::sync::mpsc::Receiver<FeedEvent>> {
        Some(listen::start(
            self.config.clone(),
            self.tls.clone(),
            self.instance.clone(),
        ))
    }

    async fn acknowledge(&self, seq: i64) -> StoreResult<()> {
        changes::acknowledge(self, seq).await
    }

    async fn close(&self) {
        changes::deregister(self).await;
    }
}
