//! The storage boundary. Services talk to an `Arc<dyn Store>`; SQLite ([`sqlite`]) is the
//! embedded backend and a networked one (PostgreSQL) can implement the same traits: every
//! method is async, takes and returns model types only, and enforces no business rule. Where a
//! rule needs atomicity (the daily quota), the service passes the limit in and the store applies
//! it inside its transaction.
//!
//! Every method on user data takes the owning user first: the store never returns another
//! user's rows to a caller that asked for its own.

use std::collections::HashMap;

use async_trait::async_trait;

use crate::model::{
    ApiKeyRecord, Chain, ChainId, ChainKind, ChainStatus, Domain, DomainId, DomainStatus, Group,
    GroupId, KeyId, PageViews, Scheme, Scope, Timestamp, User, UserId,
};

pub mod sqlite;

/// A storage failure.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum StoreError {
    /// A unique value is taken; names which.
    #[error("{0} is already taken")]
    Conflict(Unique),
    /// A conditional write found its condition false (see [`Quota`]).
    #[error("daily quota reached")]
    QuotaReached,
    /// The backend failed.
    #[error("storage backend failed: {0}")]
    Backend(#[source] Box<dyn std::error::Error + Send + Sync>),
}

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
}

/// A condition on an insert: refuse with [`StoreError::QuotaReached`] when the user has already
/// created `limit` chains since `since`. Checked in the same transaction as the insert.
#[derive(Debug, Clone, Copy)]
pub struct Quota {
    /// Chains allowed in the window.
    pub limit: i64,
    /// Start of the window.
    pub since: Timestamp,
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
}

impl ChainPatch {
    /// Whether the patch changes nothing.
    pub fn is_empty(&self) -> bool {
        self.title.is_none()
            && self.target_url.is_none()
            && self.valid_time.is_none()
            && self.status.is_none()
    }
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
}

/// One visit to a chain.
#[derive(Debug, Clone)]
pub struct Click {
    /// The chain visited.
    pub chain_id: ChainId,
    /// When.
    pub at: Timestamp,
    /// A salted hash of the visitor's address and user agent, for unique-visitor counts.
    pub visitor: String,
}

/// Users.
#[async_trait]
pub trait UserStore: Send + Sync {
    /// Inserts a user.
    async fn insert_user(&self, new: NewUser) -> StoreResult<User>;
    /// One user.
    async fn user(&self, id: UserId) -> StoreResult<Option<User>>;
    /// All users, oldest first.
    async fn users(&self) -> StoreResult<Vec<User>>;
}

/// API keys.
#[async_trait]
pub trait KeyStore: Send + Sync {
    /// Inserts a key.
    async fn insert_key(&self, new: NewApiKey) -> StoreResult<ApiKeyRecord>;
    /// The key whose secret hashes to `hash`, revoked and expired ones included.
    async fn key_by_hash(&self, hash: &str) -> StoreResult<Option<ApiKeyRecord>>;
    /// Keys, all or one user's, oldest first.
    async fn keys(&self, user: Option<UserId>) -> StoreResult<Vec<ApiKeyRecord>>;
    /// Marks a key revoked at `at` unless it already is; returns it as it now stands.
    async fn revoke_key(&self, id: KeyId, at: Timestamp) -> StoreResult<Option<ApiKeyRecord>>;
    /// How many keys exist, revoked ones included.
    async fn count_keys(&self) -> StoreResult<i64>;
}

/// Domains.
#[async_trait]
pub trait DomainStore: Send + Sync {
    /// Inserts a domain.
    async fn insert_domain(&self, new: NewDomain) -> StoreResult<Domain>;
    /// One domain.
    async fn domain(&self, id: DomainId) -> StoreResult<Option<Domain>>;
    /// Every domain, oldest first.
    async fn domains(&self) -> StoreResult<Vec<Domain>>;
    /// Sets a domain's status; returns it as it now stands.
    async fn set_domain_status(
        &self,
        id: DomainId,
        status: DomainStatus,
    ) -> StoreResult<Option<Domain>>;
}

/// Groups.
#[async_trait]
pub trait GroupStore: Send + Sync {
    /// Inserts a group.
    async fn insert_group(&self, new: NewGroup) -> StoreResult<Group>;
    /// One of the user's groups.
    async fn group(&self, user: UserId, id: GroupId) -> StoreResult<Option<Group>>;
    /// The user's groups, oldest first.
    async fn groups(&self, user: UserId) -> StoreResult<Vec<Group>>;
}

/// Chains and their visits.
#[async_trait]
pub trait ChainStore: Send + Sync {
    /// Inserts a chain, refusing when `quota` is reached.
    async fn insert_chain(&self, new: NewChain, quota: Option<Quota>) -> StoreResult<Chain>;
    /// One of the user's live chains.
    async fn chain(&self, user: UserId, id: ChainId) -> StoreResult<Option<Chain>>;
    /// The user's live chains with this code (one per domain at most).
    async fn chains_by_code(&self, user: UserId, code: &str) -> StoreResult<Vec<Chain>>;
    /// A page of the user's live chains, newest first.
    async fn chains(&self, user: UserId, query: &ChainQuery) -> StoreResult<Page<Chain>>;
    /// Applies a patch to one of the user's live chains; returns it as it now stands.
    async fn update_chain(
        &self,
        user: UserId,
        id: ChainId,
        patch: &ChainPatch,
        at: Timestamp,
    ) -> StoreResult<Option<Chain>>;
    /// Deletes the user's live chains among `ids` at `at`; returns those deleted.
    async fn delete_chains(
        &self,
        user: UserId,
        ids: &[ChainId],
        at: Timestamp,
    ) -> StoreResult<Vec<Chain>>;
    /// Chains the user created since `since`, deleted ones included.
    async fn chains_created_since(&self, user: UserId, since: Timestamp) -> StoreResult<i64>;
    /// The chain with `code` on `domain`, deleted ones included; for redirects.
    async fn link(&self, domain: DomainId, code: &str) -> StoreResult<Option<LinkTarget>>;
    /// Records visits.
    async fn insert_clicks(&self, clicks: &[Click]) -> StoreResult<()>;
    /// Page views of the given chains, with "today" starting at `today_start`.
    async fn page_views(
        &self,
        ids: &[ChainId],
        today_start: Timestamp,
    ) -> StoreResult<HashMap<ChainId, PageViews>>;
}

/// Every store capability; what services hold.
#[async_trait]
pub trait Store: UserStore + KeyStore + DomainStore + GroupStore + ChainStore {
    /// Whether the backend answers (for `/readyz`).
    async fn ping(&self) -> StoreResult<()>;
}
