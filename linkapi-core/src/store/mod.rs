//! The storage boundary. Services talk to an `Arc<dyn Store>`; two backends implement it:
//! [`sqlite`] (one embedded file, the zero-configuration default) and [`postgres`] (one database
//! shared by several linkapi instances). Every method is async, takes and returns model types,
//! and enforces no business rule.
//!
//! Reads are methods of the per-aggregate traits below. Every write is a *transaction body*
//! given to [`Store::transact`]: a closure that receives a [`Tx`] (the row-level writes plus the
//! reads a rule needs inside the transaction) and decides, as the service's rules say, whether
//! to go on or fail. Whatever the body does commits together or not at all. A body must await
//! nothing but its `Tx`: SQLite runs it synchronously on its writer thread, and PostgreSQL may
//! run it more than once (after a serialization failure), so it must not have other effects.
//!
//! A body also [`Tx::publish`]es the [`Change`]s other instances must hear of (a link edited,
//! a domain changed, a key revoked). They are delivered only if the transaction commits:
//! `transact` returns them to the writer, and PostgreSQL sends them to every other instance
//! (`NOTIFY` inside the transaction), whose [`Store::notices`] feed yields them. A change that
//! must take effect everywhere before its writer hears "done" ([`Change::needs_barrier`]: a
//! revoked key) is followed on every feed by a [`Notice::Checkpoint`], which each instance
//! [`Store::acknowledge`]s once applied; `transact` waits for every live instance's
//! acknowledgement before it returns.
//!
//! Every method on user data takes the owning user first: the store never returns another
//! user's rows to a caller that asked for its own.

use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use async_trait::async_trait;
use serde::{Deserialize, Serialize};

use crate::model::{
    ApiKeyRecord, Assembly, Chain, ChainId, ChainKind, ChainStatus, Channel, ChannelId, Domain,
    DomainId, DomainStatus, Group, GroupId, JumpSettings, KeyId, PageViews, Rotation, Scheme,
    Scope, ShowType, Template, TemplateId, Timestamp, Transfer, Upload, UploadId, User, UserId,
    VisitCap, WorkchatKind,
};

pub mod postgres;
pub mod sqlite;

/// A boxed, sendable future: what transaction bodies return.
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// A type-erased transaction body, as [`Store::transact`] takes it. Services build one with
/// [`write()`], which keeps the body's typed result.
pub type TxBody = Box<dyn for<'t> FnMut(&'t mut dyn Tx) -> BoxFuture<'t, StoreResult<()>> + Send>;

/// A storage failure.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum StoreError {
    /// A unique value is taken; names which.
    #[error("{0} is already taken")]
    Conflict(Unique),
    /// A transaction body found the daily creation quota reached and rolled back.
    #[error("daily quota of {limit} reached")]
    QuotaReached {
        /// The quota that applied.
        limit: i64,
    },
    /// A transaction body found the user's storage quota would be exceeded and rolled back.
    #[error("storage quota of {limit} bytes reached")]
    StorageQuotaReached {
        /// The quota in bytes.
        limit: i64,
        /// Bytes in use before this upload.
        used: i64,
    },
    /// A transaction body met an upload or object another request is still storing or
    /// removing, and rolled back; worth retrying a moment later.
    #[error("the object is being stored or removed by another request")]
    ObjectBusy,
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

/// A committed change that instances caching what it touched must hear of.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "change", rename_all = "snake_case")]
pub enum Change {
    /// What `code` on `domain` resolves to may have changed.
    Link {
        /// The domain.
        domain: DomainId,
        /// The code.
        code: String,
    },
    /// A domain was added or changed status.
    Domains,
    /// A key was added or revoked.
    Keys,
    /// A new visitor secret is in use.
    VisitorSecret,
    /// A template was added, edited or retired.
    Templates,
}

impl Change {
    /// Whether every instance must have applied the change before its writer is told the
    /// write is done: a revoked key must be refused by every instance from the next request on.
    pub fn needs_barrier(&self) -> bool {
        matches!(self, Change::Keys)
    }
}

/// What an instance hears on its [`Store::notices`] feed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Notice {
    /// Another instance (or this one) committed a change.
    Change(Change),
    /// The feed was (re)connected and may have missed changes: everything cached may be stale.
    Resync,
    /// Once every notice before this one is applied, pass this number to
    /// [`Store::acknowledge`]: a writer waiting for a barrier is waiting for it.
    Checkpoint(i64),
    /// Every change committed before this instant was delivered before this notice: once the
    /// notices before it are applied, what the instance caches is as fresh as this instant.
    CaughtUp(std::time::Instant),
}

/// The longest a writer waits for the other instances to apply a change that needs a barrier.
/// An instance that takes longer is logged; the change stays committed, and that instance
/// distrusts its caches until it has applied it (`service::freshness`).
pub const BARRIER_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(3);

/// Result of store calls.
pub type StoreResult<T> = Result<T, StoreError>;

/// A new user.
#[derive(Debug, Clone)]
pub struct NewUser {
    /// Unique name.
    pub name: String,
    /// Per-user daily creation quota, or the server default.
    pub daily_quota: Option<i64>,
    /// Creation time.
    pub created_at: Timestamp,
}

/// A new API key; the secret itself never reaches the store.
#[derive(Debug, Clone)]
pub struct NewApiKey {
    /// Owner.
    pub user_id: UserId,
    /// Label.
    pub name: String,
    /// Visible start of the secret.
    pub prefix: String,
    /// SHA-256 of the secret, hex.
    pub hash: String,
    /// Scopes.
    pub scopes: Vec<Scope>,
    /// Creation time.
    pub created_at: Timestamp,
    /// Expiry.
    pub expires_at: Option<Timestamp>,
}

/// A new domain.
#[derive(Debug, Clone)]
pub struct NewDomain {
    /// Host, lower case, port included when not the default.
    pub host: String,
    /// Scheme of rendered URLs.
    pub scheme: Scheme,
    /// Label.
    pub scene: String,
    /// Offered to everyone.
    pub shared: bool,
    /// Owner of a private domain.
    pub user_id: Option<UserId>,
    /// Initial status.
    pub status: DomainStatus,
    /// Creation time.
    pub created_at: Timestamp,
}

/// A new group.
#[derive(Debug, Clone)]
pub struct NewGroup {
    /// Owner.
    pub user_id: UserId,
    /// Name, unique per user.
    pub name: String,
    /// Kind of chains it holds.
    pub chain_type: ChainKind,
    /// Creation time.
    pub created_at: Timestamp,
}

/// A new chain; the service has validated every field.
#[derive(Debug, Clone)]
pub struct NewChain {
    /// Owner.
    pub user_id: UserId,
    /// Kind.
    pub kind: ChainKind,
    /// Destination kind of messaging-app chains.
    pub sub_type: Option<i64>,
    /// Domain it is served on.
    pub domain_id: DomainId,
    /// Unique suffix on the domain.
    pub code: String,
    /// Label.
    pub title: String,
    /// Destination.
    pub target_url: String,
    /// Groups, already checked to be the owner's.
    pub group_ids: Vec<GroupId>,
    /// Expiry; 0 permanent.
    pub valid_time: Timestamp,
    /// Creation time.
    pub created_at: Timestamp,
    /// Page and destination of messaging-app and work-chat chains.
    pub jump: Option<JumpSettings>,
    /// Channels, in the order given.
    pub channels: Vec<ChannelInput>,
}

/// A channel as written; the service has validated every field.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChannelInput {
    /// Position in sort order.
    pub sort: i64,
    /// Label.
    pub name: String,
    /// QR image or destination URL.
    pub url: String,
    /// Where the QR code leads, may be empty.
    pub url2: String,
    /// Expiry, 0 never.
    pub expires_at: Timestamp,
    /// Weight.
    pub ratio: i64,
    /// Cap, 0 unlimited.
    pub visit_limit: i64,
    /// Offered to visitors.
    pub enabled: bool,
}

/// One change to a chain's channel list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ChannelEdit {
    /// A new channel.
    Add(ChannelInput),
    /// New values for one of the chain's live channels; its visit count stays.
    Change(ChannelId, ChannelInput),
    /// Removes one of the chain's live channels.
    Remove(ChannelId),
}

/// Changes to a chain; `None` leaves a field as it is.
#[derive(Debug, Clone, Default)]
pub struct ChainPatch {
    /// New label.
    pub title: Option<String>,
    /// New destination.
    pub target_url: Option<String>,
    /// New expiry.
    pub valid_time: Option<Timestamp>,
    /// New stored status.
    pub status: Option<ChainStatus>,
    /// New destination kind.
    pub sub_type: Option<i64>,
    /// New page and destination settings, replacing all of them.
    pub jump: Option<JumpSettings>,
    /// New group memberships, replacing the old ones.
    pub group_ids: Option<Vec<GroupId>>,
    /// Channel changes, applied in order.
    pub channels: Vec<ChannelEdit>,
}

impl ChainPatch {
    /// Whether the patch changes nothing.
    pub fn is_empty(&self) -> bool {
        self.title.is_none()
            && self.target_url.is_none()
            && self.valid_time.is_none()
            && self.status.is_none()
            && self.sub_type.is_none()
            && self.jump.is_none()
            && self.group_ids.is_none()
            && self.channels.is_empty()
    }
}

/// The columns of [`JumpSettings`], in the order [`JumpRow`] reads them: eleven texts, then
/// eight integers. Both backends select them with the chain (alias `c`).
pub(crate) const JUMP_COLUMNS: &str = "c.wx_id, c.scan_qr_url, c.avatar, c.guide_text,
    c.description, c.sub_title, c.qwhk_url, c.mini_appid, c.mini_path, c.shop_appid,
    c.shop_path, c.is_direct_jump, c.show_type, c.jump_template_id, c.scan_tips,
    c.qrcode_vc_type, c.visit_type, c.wxwork_type, c.customer_id";

/// How many columns [`JUMP_COLUMNS`] names.
pub(crate) const JUMP_COLUMN_COUNT: usize = 19;

/// The columns of a channel row, in the order both backends read them.
pub(crate) const CHANNEL_COLUMNS: &str = "id, chain_id, sort, qrcode_name, url, url2, qrcode_time,
    ratio, visit_limit, status, visit_count";

/// [`JUMP_COLUMNS`] as read from a row, before the integer codes are checked.
pub(crate) struct JumpRow {
    pub(crate) texts: [Option<String>; 11],
    pub(crate) ints: [Option<i64>; 8],
}

/// A stored integer code that names nothing: data damaged at rest.
#[derive(Debug, thiserror::Error)]
#[error("stored {field} {value} is not a known code")]
pub(crate) struct BadStoredCode {
    pub(crate) field: &'static str,
    pub(crate) value: i64,
}

impl JumpRow {
    /// The settings, for a chain of `kind` (short chains have none).
    pub(crate) fn settings(self, kind: ChainKind) -> StoreResult<Option<Box<JumpSettings>>> {
        if kind == ChainKind::Short {
            return Ok(None);
        }
        let [
            wx_id,
            scan_qr_url,
            avatar,
            guide_text,
            desc,
            sub_title,
            qwhk_url,
            mini_appid,
            mini_path,
            shop_appid,
            shop_path,
        ] = self.texts.map(Option::unwrap_or_default);
        let [
            direct_jump,
            show_type,
            template_id,
            scan_tips,
            visit_cap,
            rotation,
            workchat_kind,
            customer_id,
        ] = self.ints;
        fn code<T>(
            field: &'static str,
            value: Option<i64>,
            default: i64,
            from: fn(i64) -> Option<T>,
        ) -> StoreResult<T> {
            let value = value.unwrap_or(default);
            from(value).ok_or_else(|| StoreError::backend(BadStoredCode { field, value }))
        }
        Ok(Some(Box::new(JumpSettings {
            wx_id,
            scan_qr_url,
            avatar,
            guide_text,
            desc,
            sub_title,
            qwhk_url,
            mini_appid,
            mini_path,
            shop_appid,
            shop_path,
            direct_jump: direct_jump.unwrap_or(0) != 0,
            show_type: code("show_type", show_type, 1, ShowType::from_code)?,
            template_id: TemplateId(template_id.unwrap_or(0)),
            scan_tips: scan_tips.unwrap_or(0) != 0,
            visit_cap: code("qrcode_vc_type", visit_cap, 1, VisitCap::from_code)?,
            rotation: code("visit_type", rotation, 1, Rotation::from_code)?,
            workchat_kind: workchat_kind
                .map(|k| code("wxwork_type", Some(k), 0, WorkchatKind::from_code))
                .transpose()?,
            customer_id,
        })))
    }
}

/// [`JumpSettings`] as column values, in [`JUMP_COLUMNS`] order.
pub(crate) fn jump_values(jump: &JumpSettings) -> ([&str; 11], [Option<i64>; 8]) {
    (
        [
            &jump.wx_id,
            &jump.scan_qr_url,
            &jump.avatar,
            &jump.guide_text,
            &jump.desc,
            &jump.sub_title,
            &jump.qwhk_url,
            &jump.mini_appid,
            &jump.mini_path,
            &jump.shop_appid,
            &jump.shop_path,
        ],
        [
            Some(i64::from(jump.direct_jump)),
            Some(jump.show_type.code()),
            Some(jump.template_id.0),
            Some(i64::from(jump.scan_tips)),
            Some(jump.visit_cap.code()),
            Some(jump.rotation.code()),
            jump.workchat_kind.map(WorkchatKind::code),
            jump.customer_id,
        ],
    )
}

/// Filter and page of a chain listing.
#[derive(Debug, Clone, Default)]
pub struct ChainQuery {
    /// Only these kinds; empty means all.
    pub kinds: Vec<ChainKind>,
    /// Only chains in this group.
    pub group_id: Option<GroupId>,
    /// Only chains whose title or code contains this text.
    pub text: Option<String>,
    /// Rows to skip.
    pub offset: i64,
    /// Rows to return.
    pub limit: i64,
}

/// One page of a listing and the count of all rows that match.
#[derive(Debug, Clone)]
pub struct Page<T> {
    /// The rows of this page.
    pub items: Vec<T>,
    /// Rows matching the filter, on all pages.
    pub total: i64,
}

/// What the redirect path needs of a chain, looked up by domain and code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LinkTarget {
    /// The chain.
    pub chain_id: ChainId,
    /// Kind of chain.
    pub kind: ChainKind,
    /// Destination.
    pub target_url: String,
    /// Expiry; 0 permanent.
    pub valid_time: Timestamp,
    /// Stored status.
    pub status: ChainStatus,
    /// Deleted chains keep their code (codes are never reused) and answer 404.
    pub deleted: bool,
    /// What a messaging-app or work-chat chain's visitor gets; `None` for short chains.
    pub page: Option<std::sync::Arc<PageTarget>>,
}

/// What the redirect path needs of a messaging-app or work-chat chain.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PageTarget {
    /// Its owner (whose templates it may use).
    pub user_id: UserId,
    /// Heading of the page.
    pub title: String,
    /// Destination kind (external and card chains).
    pub sub_type: Option<i64>,
    /// Page and destination.
    pub settings: JumpSettings,
    /// Live channels in sort order (ties by id), counts as of the read.
    pub channels: Vec<Channel>,
}

/// A conversion event, as recorded (or, given to [`Tx::insert_conversion`], as reported;
/// the service has validated every field).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Conversion {
    /// Unique, time-sortable id.
    pub event_id: String,
    /// The chain it is attributed to.
    pub chain_id: ChainId,
    /// Business event.
    pub conv_type: String,
    /// The caller's idempotency token.
    pub out_id: Option<String>,
    /// Ad-click attribution id.
    pub clickid: Option<String>,
    /// Ad platform named in the body.
    pub platform: Option<String>,
    /// Ad platform named in the path.
    pub ad_platform: String,
    /// Caller-side user id.
    pub external_userid: Option<String>,
    /// Monetary value in cents.
    pub value_cents: Option<i64>,
    /// When it was first reported.
    pub created_at: Timestamp,
}

/// A visitor as counted: a keyed hash of the client address and user agent (see
/// [`VisitorSecret`]). Addresses themselves are never stored.
pub type VisitorKey = [u8; 16];

/// The key visitor hashes are made with. The newest one is in use; rotating adds a new one.
#[derive(Clone, PartialEq, Eq)]
pub struct VisitorSecret {
    /// Increases with every rotation.
    pub id: i64,
    /// The hash key.
    pub secret: [u8; 16],
    /// When it was made.
    pub created_at: Timestamp,
}

impl std::fmt::Debug for VisitorSecret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("VisitorSecret")
            .field("id", &self.id)
            .field("created_at", &self.created_at)
            .finish_non_exhaustive()
    }
}

/// Visits of one chain on one day, added up in memory.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DailyVisits {
    /// The chain visited.
    pub chain_id: ChainId,
    /// The first second of the day (see [`crate::clock::Calendar`]).
    pub day: Timestamp,
    /// Visits by people.
    pub clicks: i64,
    /// Visits by crawlers, link previews and `HEAD` requests.
    pub bot_clicks: i64,
}

/// Visits added up in memory, written in one transaction, at most once: the store remembers
/// `id` with the counts, so a batch retried after a commit whose answer was lost adds nothing.
#[derive(Debug, Clone, Default)]
pub struct VisitBatch {
    /// Unique per batch.
    pub id: String,
    /// Per chain and day.
    pub daily: Vec<DailyVisits>,
    /// Visitors seen (people only); those the chain never had before raise its unique count.
    pub visitors: Vec<(ChainId, VisitorKey)>,
    /// Visits of channels without a limit (limited ones are counted as they are taken, by
    /// [`Tx::take_channel_visit`]).
    pub channels: Vec<ChannelVisits>,
}

/// Visits of one channel on one day, added up in memory.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ChannelVisits {
    /// The channel.
    pub channel_id: ChannelId,
    /// The first second of the day.
    pub day: Timestamp,
    /// Visits (people and bots).
    pub visits: i64,
}

/// A new custom template; the service has validated every field.
#[derive(Debug, Clone)]
pub struct NewTemplate {
    /// Offered only to this user; `None` to everyone.
    pub user_id: Option<UserId>,
    /// Display name.
    pub name: String,
    /// Built-in layout used when `body` is empty.
    pub style: String,
    /// Thumbnail URL, may be empty.
    pub thumb: String,
    /// Page source, may be empty.
    pub body: String,
    /// Creation time.
    pub created_at: Timestamp,
}

/// Changes to a custom template; `None` leaves a field as it is.
#[derive(Debug, Clone, Default)]
pub struct TemplatePatch {
    /// New name.
    pub name: Option<String>,
    /// New layout.
    pub style: Option<String>,
    /// New thumbnail URL.
    pub thumb: Option<String>,
    /// New page source.
    pub body: Option<String>,
}

/// An object as the database knows it: what serving it needs, and how many uploads name it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BlobRecord {
    /// Content hash and extension.
    pub object_key: String,
    /// Media type.
    pub content_type: String,
    /// Length in bytes.
    pub size_bytes: i64,
    /// Uploads naming it, those still being stored included.
    pub refs: i64,
    /// Claimed for removal: no upload names it and its bytes are going.
    pub deleting: bool,
}

/// A new upload; its bytes are already in staging.
#[derive(Debug, Clone)]
pub struct NewUpload {
    /// Owner.
    pub user_id: UserId,
    /// Content hash and extension.
    pub object_key: String,
    /// Media type.
    pub content_type: String,
    /// Length in bytes.
    pub size_bytes: i64,
    /// The client's name for it, cleaned for display.
    pub file_name: String,
    /// Upload time.
    pub created_at: Timestamp,
}

/// What [`Tx::begin_upload`] found.
#[derive(Debug, Clone)]
pub enum UploadClaim {
    /// A new upload row, not yet stored; its object gained a reference.
    Pending(UploadId),
    /// The user already has these bytes, stored or still being stored by another request.
    Existing {
        /// That upload.
        upload: Upload,
        /// Whether its bytes are in place.
        stored: bool,
    },
    /// The object is claimed for removal; nothing was written.
    ObjectDeleting,
}

/// A chain's visit figures over a window of days.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ChainVisits {
    /// Visits by people, ever.
    pub clicks: i64,
    /// Distinct visitors (people), ever.
    pub unique_visitors: i64,
    /// Visits by people per day in the window: (the day's first second, visits), days without
    /// visits left out.
    pub daily: Vec<(Timestamp, i64)>,
}

/// Users.
#[async_trait]
pub trait UserStore: Send + Sync {
    /// One user.
    async fn user(&self, id: UserId) -> StoreResult<Option<User>>;
    /// All users, oldest first.
    async fn users(&self) -> StoreResult<Vec<User>>;
}

/// API keys.
#[async_trait]
pub trait KeyStore: Send + Sync {
    /// The key whose secret hashes to `hash`, revoked and expired ones included.
    async fn key_by_hash(&self, hash: &str) -> StoreResult<Option<ApiKeyRecord>>;
    /// Keys, all or one user's, oldest first.
    async fn keys(&self, user: Option<UserId>) -> StoreResult<Vec<ApiKeyRecord>>;
    /// How many keys exist, revoked ones included.
    async fn count_keys(&self) -> StoreResult<i64>;
}

/// Domains.
#[async_trait]
pub trait DomainStore: Send + Sync {
    /// Every domain, oldest first.
    async fn domains(&self) -> StoreResult<Vec<Domain>>;
}

/// Groups.
#[async_trait]
pub trait GroupStore: Send + Sync {
    /// One of the user's groups.
    async fn group(&self, user: UserId, id: GroupId) -> StoreResult<Option<Group>>;
    /// The user's groups, oldest first.
    async fn groups(&self, user: UserId) -> StoreResult<Vec<Group>>;
}

/// Chains and their visits.
#[async_trait]
pub trait ChainStore: Send + Sync {
    /// One of the user's live chains.
    async fn chain(&self, user: UserId, id: ChainId) -> StoreResult<Option<Chain>>;
    /// The user's live chains with this code (one per domain at most).
    async fn chains_by_code(&self, user: UserId, code: &str) -> StoreResult<Vec<Chain>>;
    /// A page of the user's live chains, newest first.
    async fn chains(&self, user: UserId, query: &ChainQuery) -> StoreResult<Page<Chain>>;
    /// The chain with `code` on `domain`, deleted ones included; for redirects.
    async fn link(&self, domain: DomainId, code: &str) -> StoreResult<Option<LinkTarget>>;
    /// A chain's live channels in sort order (ties by id), with their visit counts.
    async fn channels(&self, chain: ChainId) -> StoreResult<Vec<Channel>>;
    /// A page of the conversions the user reported for a chain, newest first.
    async fn conversions(
        &self,
        user: UserId,
        chain: ChainId,
        offset: i64,
        limit: i64,
    ) -> StoreResult<Page<Conversion>>;
}

/// Visit counters.
#[async_trait]
pub trait VisitStore: Send + Sync {
    /// Page views of the given chains, with "today" starting at `today_start`.
    async fn page_views(
        &self,
        ids: &[ChainId],
        today_start: Timestamp,
    ) -> StoreResult<HashMap<ChainId, PageViews>>;
    /// A chain's figures, with the days that start in `from..to`.
    async fn chain_visits(
        &self,
        chain: ChainId,
        from: Timestamp,
        to: Timestamp,
    ) -> StoreResult<ChainVisits>;
    /// The visitor secret in use: the newest.
    async fn visitor_secret(&self) -> StoreResult<Option<VisitorSecret>>;
}

/// Uploads and the objects they name.
#[async_trait]
pub trait UploadStore: Send + Sync {
    /// One of the user's stored uploads.
    async fn upload(&self, user: UserId, id: UploadId) -> StoreResult<Option<Upload>>;
    /// A page of the user's stored uploads, newest first.
    async fn uploads(&self, user: UserId, offset: i64, limit: i64) -> StoreResult<Page<Upload>>;
    /// An object's record.
    async fn blob(&self, object_key: &str) -> StoreResult<Option<BlobRecord>>;
    /// Up to `limit` objects no upload names (claimed for removal or not).
    async fn unreferenced_blobs(&self, limit: i64) -> StoreResult<Vec<BlobRecord>>;
    /// Up to `limit` uploads still being stored that began before `before`: their request
    /// died between claiming the object and storing it.
    async fn stale_pending_uploads(
        &self,
        before: Timestamp,
        limit: i64,
    ) -> StoreResult<Vec<Upload>>;
}

/// Jump-page templates.
#[async_trait]
pub trait TemplateStore: Send + Sync {
    /// A page of templates, lowest id first: with `user`, the live ones offered to that user
    /// (shared and the user's own); without, every template, retired ones included.
    async fn templates(
        &self,
        user: Option<UserId>,
        offset: i64,
        limit: i64,
    ) -> StoreResult<Page<Template>>;
    /// One template, retired or not.
    async fn template(&self, id: TemplateId) -> StoreResult<Option<Template>>;
    /// The distinct templates the user's live chains use.
    async fn templates_in_use(&self, user: UserId) -> StoreResult<Vec<TemplateId>>;
}

/// A new assembly-list entry, or new values for one.
#[derive(Debug, Clone)]
pub struct AssemblyInput {
    /// Owner.
    pub user_id: UserId,
    /// The work-chat's id of the link.
    pub link_id: String,
    /// Name.
    pub link_name: String,
    /// Acquisition URL.
    pub url: String,
    /// Authorization state.
    pub auth_status: String,
    /// Marked invalid.
    pub invalid: bool,
    /// When it was added.
    pub created_at: Timestamp,
}

/// Which transfers a query asks for: one user's, of one corp, optionally of one handover and
/// one takeover user, after a cursor.
#[derive(Debug, Clone)]
pub struct TransferQuery {
    /// The caller.
    pub user_id: UserId,
    /// The corp.
    pub corp_id: String,
    /// Only transfers from this user, when not empty.
    pub handover_userid: String,
    /// Only transfers to this user, when not empty.
    pub takeover_userid: String,
    /// Only rows after this id.
    pub after: i64,
    /// Rows to return.
    pub limit: i64,
}

/// The columns of an assembly-list entry (alias `a`), `use_status` derived: 2 when marked
/// invalid, else 1 when a live work-chat chain of its owner uses it, else 0.
pub(crate) const ASSEMBLY_COLUMNS: &str = "a.id, a.user_id, a.link_id, a.link_name, a.url,
    a.auth_status,
    CASE WHEN a.use_status = 2 THEN 2
         WHEN EXISTS (SELECT 1 FROM chains c WHERE c.user_id = a.user_id AND c.chain_type = 3
                      AND c.customer_id = a.id AND c.deleted_at IS NULL) THEN 1
         ELSE 0 END,
    a.created_at";

/// The columns of a transfer, in [`Transfer`] order.
pub(crate) const TRANSFER_COLUMNS: &str = "id, user_id, corp_id, handover_userid,
    takeover_userid, external_userid, customer_name, status, takeover_time, errcode, reason";

/// Work-chat data: assembly lists and transfer records.
#[async_trait]
pub trait WorkchatStore: Send + Sync {
    /// One entry of the user's assembly list.
    async fn assembly(&self, user: UserId, id: i64) -> StoreResult<Option<Assembly>>;
    /// A page of the user's assembly list, oldest first.
    async fn assemblies(
        &self,
        user: UserId,
        offset: i64,
        limit: i64,
    ) -> StoreResult<Page<Assembly>>;
    /// Transfers matching `query`, by id.
    async fn transfers(&self, query: &TransferQuery) -> StoreResult<Vec<Transfer>>;
}

/// The writes of one transaction, and the reads its rules need inside it. See the module
/// documentation for what a body may do.
#[async_trait]
pub trait Tx: Send {
    /// Inserts a user.
    async fn insert_user(&mut self, new: NewUser) -> StoreResult<User>;
    /// One user, read inside the transaction.
    async fn user(&mut self, id: UserId) -> StoreResult<Option<User>>;
    /// Inserts a key.
    async fn insert_key(&mut self, new: NewApiKey) -> StoreResult<ApiKeyRecord>;
    /// Marks a key revoked at `at` unless it already is; returns it as it now stands.
    async fn revoke_key(&mut self, id: KeyId, at: Timestamp) -> StoreResult<Option<ApiKeyRecord>>;
    /// Inserts a domain.
    async fn insert_domain(&mut self, new: NewDomain) -> StoreResult<Domain>;
    /// Sets a domain's status; returns it as it now stands.
    async fn set_domain_status(
        &mut self,
        id: DomainId,
        status: DomainStatus,
    ) -> StoreResult<Option<Domain>>;
    /// Inserts a group.
    async fn insert_group(&mut self, new: NewGroup) -> StoreResult<Group>;
    /// Inserts a chain and its group memberships.
    async fn insert_chain(&mut self, new: NewChain) -> StoreResult<Chain>;
    /// Adds one to the user's count of chains created on `day` (the start of a UTC day) and
    /// returns the new count. Concurrent transactions counting for the same user and day are
    /// serialized on the counter, so every caller sees a distinct count.
    async fn count_creation(&mut self, user: UserId, day: Timestamp) -> StoreResult<i64>;
    /// Applies a patch to one of the user's live chains; returns it as it now stands.
    async fn update_chain(
        &mut self,
        user: UserId,
        id: ChainId,
        patch: &ChainPatch,
        at: Timestamp,
    ) -> StoreResult<Option<Chain>>;
    /// Deletes one of the user's live chains at `at`; returns it as it was, `None` when the
    /// user has no such live chain.
    async fn delete_chain(
        &mut self,
        user: UserId,
        id: ChainId,
        at: Timestamp,
    ) -> StoreResult<Option<Chain>>;
    /// Adds a batch of visits unless a batch with its id was added before (returns `false`
    /// then), and forgets the ids of batches added before `forget_before`.
    async fn add_visits(
        &mut self,
        batch: &VisitBatch,
        at: Timestamp,
        forget_before: Timestamp,
    ) -> StoreResult<bool>;
    /// Gives one visit to a channel with `limit` visits (ever, or on the day starting at
    /// `day`, by `cap`) unless it has had them all; counts it when it does. Concurrent takes
    /// of one channel, on any instance, are serialized on its counter, so it never gets more
    /// than `limit`. `false` when it is used up (or gone).
    async fn take_channel_visit(
        &mut self,
        channel: ChannelId,
        cap: VisitCap,
        limit: i64,
        day: Timestamp,
    ) -> StoreResult<bool>;
    /// Adds a visitor secret, which becomes the one in use.
    async fn insert_visitor_secret(
        &mut self,
        secret: [u8; 16],
        at: Timestamp,
    ) -> StoreResult<VisitorSecret>;
    /// Records `event` for `user` unless one with the same (user, chain, type, `out_id`)
    /// exists, as the unique index decides (events without `out_id` never collide). Returns
    /// the event that stands and whether this call inserted it.
    async fn insert_conversion(
        &mut self,
        user: UserId,
        event: Conversion,
    ) -> StoreResult<(Conversion, bool)>;
    /// Claims an upload: unless the user already has an upload of this object, inserts one
    /// not yet stored, adds a reference to the object (recording it when new) and adds its
    /// size to the user's storage use; nothing when the object is claimed for removal.
    /// Returns what it found and the user's storage use before this upload. Concurrent claims
    /// of one user are serialized on the user's usage row.
    async fn begin_upload(&mut self, new: &NewUpload) -> StoreResult<(UploadClaim, i64)>;
    /// Marks a claimed upload stored.
    async fn finish_upload(&mut self, id: UploadId) -> StoreResult<()>;
    /// Removes one of the user's uploads (with `pending_only`, only one not yet stored), drops
    /// its reference and its size from the user's use; when no reference is left, claims the
    /// object for removal. Returns the removed upload and whether its object is now claimed.
    async fn delete_upload(
        &mut self,
        user: UserId,
        id: UploadId,
        pending_only: bool,
    ) -> StoreResult<Option<(Upload, bool)>>;
    /// Claims an object no upload names for removal; `false` when it is named again (or gone).
    async fn claim_blob_removal(&mut self, object_key: &str) -> StoreResult<bool>;
    /// Forgets an object claimed for removal once its bytes are gone.
    async fn forget_blob(&mut self, object_key: &str) -> StoreResult<()>;
    /// Inserts a custom template.
    async fn insert_template(&mut self, new: NewTemplate) -> StoreResult<Template>;
    /// Applies a patch to a custom template (built-in ones are not touched); returns it as it
    /// now stands.
    async fn update_template(
        &mut self,
        id: TemplateId,
        patch: &TemplatePatch,
        at: Timestamp,
    ) -> StoreResult<Option<Template>>;
    /// Marks a live custom template retired at `at`; returns it as it now stands.
    async fn retire_template(
        &mut self,
        id: TemplateId,
        at: Timestamp,
    ) -> StoreResult<Option<Template>>;
    /// Adds an entry to a user's assembly list, or, when the user has one with its `link_id`,
    /// changes it. Returns it as it now stands.
    async fn put_assembly(&mut self, entry: &AssemblyInput) -> StoreResult<Assembly>;
    /// Records a transfer, or, when the user has one for the same corp, handover user and
    /// customer, replaces it (keeping its id). Returns it as it now stands.
    async fn put_transfer(&mut self, transfer: &Transfer, at: Timestamp) -> StoreResult<Transfer>;
    /// Announces `change` to every instance once this transaction commits.
    async fn publish(&mut self, change: Change) -> StoreResult<()>;
}

/// Every store capability; what services hold.
#[async_trait]
pub trait Store:
    UserStore
    + KeyStore
    + DomainStore
    + GroupStore
    + ChainStore
    + VisitStore
    + UploadStore
    + TemplateStore
    + WorkchatStore
{
    /// Runs `body` in one transaction and commits it when the body returns `Ok`; returns the
    /// changes the body published. Nothing the body wrote is visible to anyone, nor reported
    /// as done, before the commit.
    async fn transact(&self, body: TxBody) -> StoreResult<Vec<Change>>;
    /// [`Tx::add_visits`] as a transaction of its own. A backend that several instances share
    /// runs it as one statement, so that no flush holds rows between round trips.
    async fn add_visits(
        &self,
        batch: Arc<VisitBatch>,
        at: Timestamp,
        forget_before: Timestamp,
    ) -> StoreResult<bool>;
    /// Whether the backend answers (for `/readyz`).
    async fn ping(&self) -> StoreResult<()>;
    /// The feed of changes committed by any instance, for backends that several instances
    /// share; `None` where this process is the only writer. Call once, inside a runtime.
    fn notices(&self) -> Option<tokio::sync::mpsc::UnboundedReceiver<Notice>>;
    /// Records that this instance applied every notice up to [`Notice::Checkpoint`] `seq`.
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
pub async fn write<T, F>(store: &dyn Store, mut body: F) -> StoreResult<(T, Vec<Change>)>
where
    T: Send + 'static,
    F: for<'t> FnMut(&'t mut dyn Tx) -> BoxFuture<'t, StoreResult<T>> + Send + 'static,
{
    let slot = std::sync::Arc::new(std::sync::Mutex::new(None));
    let filled = slot.clone();
    let erased: TxBody = Box::new(move |tx| {
        let run = body(tx);
        let filled = filled.clone();
        Box::pin(async move {
            let value = run.await?;
            *filled.lock().unwrap_or_else(|p| p.into_inner()) = Some(value);
            Ok(())
        })
    });
    let changes = store.transact(erased).await?;
    let value = slot
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .take()
        .ok_or_else(|| StoreError::backend(Misuse("a committed transaction left no result")))?;
    Ok((value, changes))
}
