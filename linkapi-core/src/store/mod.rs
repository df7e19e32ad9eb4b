//! The storage boundary. Services talk to an `Arc<dyn Store>`; two backends implement it:
//! [`sqlite`] (one embedded file, the zero-configuration default) and [`postgres`] (one database
//! shared by several linkapi instances). Every method is async, takes and returns model types,
//! and decides nothing.
//!
//! Reads are methods of the per-aggregate read traits (`UserStore`, `ChainStore`, ...). Every
//! write is a *transaction body* given to [`Store::transact`]: a closure that receives a [`Tx`]
//! (the per-aggregate write traits, `UserWrites`, `ChainWrites`, ..., which include the reads
//! a rule needs inside the transaction) and decides, as the service's rules say, whether to go
//! on or fail. Whatever the body does commits together or not at all. A body must await
//! nothing but its `Tx`: SQLite runs it synchronously on its writer thread, and PostgreSQL may
//! run it more than once (after a serialization failure), so it must not have other effects.
//!
//! A body also [`InvalidationWrites::publish`]es the [`Invalidation`]s other instances must hear
//! of (a link edited, a domain changed, a key revoked). They are delivered only if the
//! transaction commits: `transact` returns them to the writer, and PostgreSQL sends them to
//! every other instance (`NOTIFY` inside the transaction), whose [`Store::feed`] yields them.
//! An invalidation that must take effect everywhere before its writer hears "done"
//! ([`Invalidation::needs_barrier`]: a revoked key) is followed on every feed by a
//! [`FeedEvent::Checkpoint`], which each instance [`Store::acknowledge`]s once applied;
//! `transact` waits for every live instance's acknowledgement before it returns.
//!
//! Every method on user data takes the owning user first: the store never returns another
//! user's rows to a caller that asked for its own.
//!
//! # Layout
//!
//! One file per aggregate holds what both backends share: its records, its read trait, its
//! write trait, its column lists, the statements both dialects spell alike (with `$N`
//! placeholders, numbered in order of first use, which SQLite reads too; a `Statement` when
//! the text depends on the values, as a listing's filter or a patch's columns do) and the
//! decoding of its rows through `StoredRow`. Each backend is a folder with a file of the same name per
//! aggregate holding only what its dialect does differently, so `diff` of `sqlite/chains.rs`
//! and `postgres/chains.rs` shows dialect and nothing else.
//!
//! | aggregate | shared | per backend |
//! |---|---|---|
//! | users | `users` | `sqlite/users`, `postgres/users` |
//! | API keys | `keys` | `*/keys` |
//! | domains | `domains` | `*/domains` |
//! | groups | `groups` | `*/groups` |
//! | chains (and what a redirect reads) | `chains` | `*/chains` |
//! | channels of a chain's page | `channels` | `*/channels` |
//! | visit counters, visitor secrets | `visits` | `*/visits` |
//! | breakdowns as stored (a chain-day's or span's values in one row), their merges | `breakdowns` | `*/visits` |
//! | conversions | `conversions` | `*/conversions` |
//! | idempotency keys of creates | `idempotency` | `*/idempotency` |
//! | uploads and objects | `uploads` | `*/uploads` |
//! | jump-page templates | `templates` | `*/templates` |
//! | work-chat data | `workchat` | `*/workchat` |
//! | webhook endpoints, the event outbox, deliveries | `webhooks` | `*/webhooks` |
//! | the change feed | `changes` | `*/changes`, `postgres/listen` |
//!
//! Each backend's `mod.rs` holds the connection handling, error mapping, how a transaction
//! runs and the `StoredRow` reading of its row type; `schema.rs` holds its first migrations, a
//! closed list; every step after them is in `migrations.rs`, one list for both, each step's
//! two texts side by side.
//!
//! Beside the traits, the operator's work on whole databases: [`sqlite::snapshot`] (online
//! backup, restore, and the lock a serving process holds on its file) and [`transfer`] (a
//! SQLite database copied into PostgreSQL and verified table by table).

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use async_trait::async_trait;

use crate::locks::Unpoisoned;
use crate::model::{Chain, Timestamp, UserId};

mod breakdowns;
mod chains;
mod changes;
mod channels;
mod conversions;
mod domains;
mod groups;
mod idempotency;
mod keys;
mod migrations;
pub mod postgres;
pub mod sqlite;
mod templates;
pub mod transfer;
mod uploads;
mod users;
mod visits;
mod webhooks;
mod workchat;

pub use chains::{
    ChainFilter, ChainPatch, ChainQuery, ChainStore, ChainWrites, CodeHolder, LinkTarget, NewChain,
    PageTarget, VisitLimitWrites,
};
pub use changes::{BARRIER_TIMEOUT, FeedEvent, Invalidation, InvalidationWrites};
pub use channels::{ChannelEdit, ChannelInput, ChannelStore, ChannelWrites};
pub use conversions::{ConversionStore, ConversionWrites};
pub use domains::{DomainStore, DomainWrites, NewDomain};
pub use groups::{GroupStore, GroupWrites, NewGroup};
pub use idempotency::{
    AnswerPart, IdempotencyStore, IdempotencyWrites, IdempotentAnswer, RunClaim,
};
pub use keys::{KeyGrant, KeyStore, KeyWrites, NewApiKey};
pub use templates::{NewTemplate, TemplatePatch, TemplateStore, TemplateWrites};
pub use uploads::{BlobRecord, NewUpload, UploadClaim, UploadStore, UploadWrites};
pub use users::{NewUser, UserStore, UserWrites};
pub use visits::{
    BreakdownCounts, BreakdownVisits, ChainVisits, ChannelVisits, DailyVisits, DayVisits,
    OrphanVisits, UserVisits, VisitBatch, VisitStore, VisitWrites, VisitorKey, VisitorSecret,
};
pub use webhooks::{
    AttemptVerdict, ClaimedDelivery, FinishedAttempt, NewEvent, NewWebhook, WebhookPatch,
    WebhookStore, WebhookWrites,
};
pub use workchat::{AssemblyInput, TransferQuery, WorkchatStore, WorkchatWrites};

/// A boxed, sendable future: what transaction bodies return.
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// A type-erased transaction body, as [`Store::transact`] takes it. Services build one with
/// [`transact()`], which keeps the body's typed result.
pub type TxBody = Box<dyn for<'t> FnMut(&'t mut dyn Tx) -> BoxFuture<'t, StoreResult<()>> + Send>;

/// A storage failure.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum StoreError {
    /// A unique value is taken; names which.
    #[error("{0} is already taken")]
    Conflict(Unique),
    /// The transaction body stopped the transaction, which rolled back: a rule of the caller
    /// failed, and the caller knows which (see `service::App::transact_checked`).
    #[error("the transaction was stopped by its body and rolled back")]
    Stopped,
    /// The backend cannot serve now: it refuses connections, the pool had no connection in
    /// time, or concurrent writes kept conflicting. Worth retrying a moment later.
    #[error("storage unavailable: {0}")]
    Unavailable(#[source] Box<dyn std::error::Error + Send + Sync>),
    /// The backend failed in a way a retry will not fix.
    #[error("storage backend failed: {0}")]
    Backend(#[source] Box<dyn std::error::Error + Send + Sync>),
}

impl StoreError {
    pub(crate) fn backend(err: impl std::error::Error + Send + Sync + 'static) -> Self {
        StoreError::Backend(Box::new(err))
    }

    pub(crate) fn unavailable(err: impl std::error::Error + Send + Sync + 'static) -> Self {
        StoreError::Unavailable(Box::new(err))
    }
}

/// `err` and its sources on one line, each source only when its text is not already said
/// (many errors repeat their source in their own message, others say only "db error").
pub(crate) fn describe(err: &(dyn std::error::Error + 'static)) -> String {
    let mut said = err.to_string();
    let mut source = err.source();
    while let Some(cause) = source {
        let text = cause.to_string();
        if !said.contains(&text) {
            said.push_str(": ");
            said.push_str(&text);
        }
        source = cause.source();
    }
    said
}

/// A misuse of the storage boundary, reported as a backend failure.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub(crate) struct Misuse(pub(crate) &'static str);

/// The unique values a write can collide on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unique {
    /// A chain code on its domain.
    ChainCode,
    /// A domain host.
    DomainHost,
    /// A group name of one user.
    GroupName,
    /// A user name.
    UserName,
    /// A key's hash (only a chosen bootstrap key can collide).
    KeyHash,
}

impl std::fmt::Display for Unique {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Unique::ChainCode => "chain code",
            Unique::DomainHost => "domain",
            Unique::GroupName => "group name",
            Unique::UserName => "user name",
            Unique::KeyHash => "api key",
        })
    }
}

/// Result of store calls.
pub type StoreResult<T> = Result<T, StoreError>;

/// One page of a listing and the count of all rows that match.
#[derive(Debug, Clone)]
pub struct Page<T> {
    /// The rows of this page.
    pub items: Vec<T>,
    /// Rows matching the filter, on all pages.
    pub total: i64,
}

/// One result row, as the decoders both backends share read it. Each backend implements it
/// for its own row type; a column that does not hold what is asked for is a backend error.
pub(crate) trait StoredRow {
    /// An integer column.
    fn int(&self, idx: usize) -> StoreResult<i64>;
    /// An integer column that may be NULL.
    fn opt_int(&self, idx: usize) -> StoreResult<Option<i64>>;
    /// A text column.
    fn text(&self, idx: usize) -> StoreResult<String>;
    /// A text column that may be NULL.
    fn opt_text(&self, idx: usize) -> StoreResult<Option<String>>;
    /// A boolean column (SQLite stores 0 or 1).
    fn flag(&self, idx: usize) -> StoreResult<bool>;
    /// A byte-string column.
    fn bytes(&self, idx: usize) -> StoreResult<Vec<u8>>;
    /// A list of ids the query aggregated into one column, in order (SQLite: `group_concat`
    /// text; PostgreSQL: an array); NULL is the empty list.
    fn ids(&self, idx: usize) -> StoreResult<Vec<i64>>;
}

/// A statement both backends run whose text depends on its values (a listing's filter, a
/// patch's columns): the text, with `$N` placeholders that first appear in order, and the
/// values, `values[N - 1]` for `$N`, which each backend binds as its own parameter type.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Statement {
    /// The text.
    pub(crate) sql: String,
    /// The values of its placeholders, in order.
    pub(crate) values: Vec<Bound>,
}

/// A value of a [`Statement`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Bound {
    /// An integer, or NULL.
    Int(Option<i64>),
    /// A text, or NULL.
    Text(Option<String>),
}

impl Statement {
    /// Binds `value` as the next placeholder and returns the placeholder, to be written into
    /// the text after every placeholder bound before it.
    pub(crate) fn bind(&mut self, value: impl Into<Bound>) -> String {
        self.values.push(value.into());
        format!("${}", self.values.len())
    }
}

impl From<i64> for Bound {
    fn from(value: i64) -> Self {
        Bound::Int(Some(value))
    }
}

impl From<Option<String>> for Bound {
    fn from(value: Option<String>) -> Self {
        Bound::Text(value)
    }
}

impl From<String> for Bound {
    fn from(value: String) -> Self {
        Bound::Text(Some(value))
    }
}

/// A stored value that does not decode: data damaged at rest or a schema mismatch.
#[derive(Debug, thiserror::Error)]
#[error("column {column}: unexpected value {value}")]
struct BadValue {
    column: &'static str,
    value: String,
}

pub(crate) fn bad_value(column: &'static str, value: impl std::fmt::Display) -> StoreError {
    StoreError::backend(BadValue {
        column,
        value: value.to_string(),
    })
}

/// The writes of one transaction, and the reads its rules need inside it: every aggregate's
/// write trait. See the module documentation for what a body may do.
pub trait Tx:
    UserWrites
    + KeyWrites
    + DomainWrites
    + GroupWrites
    + ChainWrites
    + VisitLimitWrites
    + ChannelWrites
    + VisitWrites
    + ConversionWrites
    + IdempotencyWrites
    + UploadWrites
    + TemplateWrites
    + WorkchatWrites
    + WebhookWrites
    + InvalidationWrites
{
}

impl<T> Tx for T where
    T: UserWrites
        + KeyWrites
        + DomainWrites
        + GroupWrites
        + ChainWrites
        + VisitLimitWrites
        + ChannelWrites
        + VisitWrites
        + ConversionWrites
        + IdempotencyWrites
        + UploadWrites
        + TemplateWrites
        + WorkchatWrites
        + WebhookWrites
        + InvalidationWrites
{
}

/// Every store capability; what services hold.
#[async_trait]
pub trait Store:
    UserStore
    + KeyStore
    + DomainStore
    + GroupStore
    + ChainStore
    + ChannelStore
    + VisitStore
    + ConversionStore
    + IdempotencyStore
    + UploadStore
    + TemplateStore
    + WorkchatStore
    + WebhookStore
{
    /// Runs `body` in one transaction and commits it when the body returns `Ok`; returns the
    /// changes the body published. Nothing the body wrote is visible to anyone, nor reported
    /// as done, before the commit.
    async fn transact(&self, body: TxBody) -> StoreResult<Vec<Invalidation>>;
    /// Whether the backend runs one write transaction at a time (SQLite's single writer). Then
    /// a row a transaction holds until its commit costs nothing more; otherwise (PostgreSQL)
    /// concurrent transactions that all hold one hot row commit one flush at a time, and a
    /// service should keep such rows out of its frequent writes.
    fn writes_one_at_a_time(&self) -> bool;
    /// [`ChainWrites::insert_chains_if_free`] as a transaction of its own, for chains with no
    /// groups, jump settings or channels (the commonest create): one result per chain, in
    /// order, `None` where its code was taken (or given earlier in `new` on the same domain).
    /// The new chains are announced to every instance once committed, as
    /// [`InvalidationWrites::publish_after_commit`] would (the caller applies
    /// [`Invalidation::Link`] to its own caches). PostgreSQL runs it as one statement.
    async fn insert_plain_chains(&self, new: Vec<NewChain>) -> StoreResult<Vec<Option<Chain>>>;
    /// Adds `n` to `user`'s count of creations on `day` (the start of a calendar day) unless
    /// the count would pass the user's daily quota (their own, else `default_quota`): the new
    /// count, or `None` when it would. One statement, committed at once and without waiting
    /// for the disk, so the counter is held for no longer than the statement: it reserves
    /// room for creates that follow, whose durable commits (written to the log after it) make
    /// it durable too, and a crash before them loses it with them. SQLite commits it like any
    /// other write.
    async fn reserve_creations(
        &self,
        user: UserId,
        day: Timestamp,
        n: i64,
        default_quota: i64,
    ) -> StoreResult<Option<i64>>;
    /// [`Store::reserve_creations`] of each `(user, day, n)` of `asks` (each pair of user and
    /// day at most once): one result per ask, in order. PostgreSQL takes them all in one
    /// statement, locking the counters in one order so that concurrent callers never
    /// deadlock.
    async fn reserve_creations_each(
        &self,
        asks: Vec<(UserId, Timestamp, i64)>,
        default_quota: i64,
    ) -> StoreResult<Vec<Option<i64>>> {
        let mut granted = Vec::with_capacity(asks.len());
        for (user, day, n) in asks {
            granted.push(self.reserve_creations(user, day, n, default_quota).await?);
        }
        Ok(granted)
    }
    /// [`VisitWrites::add_visits`] as a transaction of its own. A backend that several
    /// instances share runs it as one statement, so that no flush holds rows between round
    /// trips.
    async fn add_visits(
        &self,
        batch: Arc<VisitBatch>,
        at: Timestamp,
        forget_before: Timestamp,
    ) -> StoreResult<bool>;
    /// Whether the backend answers (for `/readyz`).
    async fn ping(&self) -> StoreResult<()>;
    /// The feed of changes committed by any instance, for backends that several instances
    /// share; `None` where this process is the only writer. Call once, inside a runtime. The
    /// feed is bounded: an instance that falls behind is sent [`FeedEvent::Resync`] rather
    /// than a backlog that grows without limit.
    fn feed(&self) -> Option<tokio::sync::mpsc::Receiver<FeedEvent>>;
    /// Records that this instance applied every notice up to [`FeedEvent::Checkpoint`] `seq`.
    async fn acknowledge(&self, seq: i64) -> StoreResult<()>;
    /// This instance is stopping: writers on other instances need no longer wait for it.
    async fn close(&self);
}

/// Runs a typed transaction body: `body` returns its value, `write` returns it with the changes
/// the body published. The body may run more than once (see the module documentation); the
/// value of the run that committed is the one returned.
///
/// # Errors
/// What the body returned, or the store's failure to run or commit it.
pub async fn transact<T, F>(store: &dyn Store, body: F) -> StoreResult<(T, Vec<Invalidation>)>
where
    T: Send + 'static,
    F: for<'t> FnMut(&'t mut dyn Tx) -> BoxFuture<'t, StoreResult<T>> + Send + 'static,
{
    transact_by(|erased| store.transact(erased), body).await
}

/// [`transact`] with the body handed to `run` rather than to [`Store::transact`], for a
/// backend that runs some transactions its own way.
pub(crate) async fn transact_by<T, F, R>(
    run: impl FnOnce(TxBody) -> R,
    mut body: F,
) -> StoreResult<(T, Vec<Invalidation>)>
where
    T: Send + 'static,
    F: for<'t> FnMut(&'t mut dyn Tx) -> BoxFuture<'t, StoreResult<T>> + Send + 'static,
    R: Future<Output = StoreResult<Vec<Invalidation>>>,
{
    let slot = std::sync::Arc::new(std::sync::Mutex::new(None));
    let filled = slot.clone();
    let erased: TxBody = Box::new(move |tx| {
        let run = body(tx);
        let filled = filled.clone();
        Box::pin(async move {
            let value = run.await?;
            *filled.lock().unpoisoned() = Some(value);
            Ok(())
        })
    });
    let changes = run(erased).await?;
    let value = slot
        .lock()
        .unpoisoned()
        .take()
        .ok_or_else(|| StoreError::backend(Misuse("a committed transaction left no result")))?;
    Ok((value, changes))
}
