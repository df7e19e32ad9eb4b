//! The change feed: what a committed write tells the instances that cache what it touched.

use async_trait::async_trait;
use serde::{Deserialize, Serialize};

use super::StoreResult;
use crate::model::DomainId;

/// What a committed write makes stale: every instance caching it drops or reloads it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "change", rename_all = "snake_case")]
pub enum Invalidation {
    /// What `code` on `domain` resolves to may have changed.
    Link {
        /// The domain.
        domain: DomainId,
        /// The code.
        code: String,
    },
    /// Chains were created in bulk: codes cached as missing may exist now. (One notice for a
    /// whole batch, rather than one per code: a new chain can only make a cached miss stale.)
    MissingLinks,
    /// A domain was added or changed status.
    Domains,
    /// A key was added or revoked.
    Keys,
    /// A new visitor secret is in use.
    VisitorSecret,
    /// A template was added, edited or retired.
    Templates,
    /// A user was suspended or resumed, or their redirects stopped or restarted.
    Users,
    /// A webhook endpoint was registered, enabled, disabled or deleted: who has one changed.
    Webhooks,
}

impl Invalidation {
    /// Whether every instance must have applied the change before its writer is told the
    /// write is done: a revoked key (or a suspended user's) must be refused by every instance
    /// from the next request on; a new endpoint must be known everywhere before a write it
    /// should hear of can skip its event (see `service::webhooks`).
    pub fn needs_barrier(&self) -> bool {
        matches!(
            self,
            Invalidation::Keys | Invalidation::Users | Invalidation::Webhooks
        )
    }
}

/// What an instance hears on its [`Store::feed`](super::Store::feed).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FeedEvent {
    /// Another instance (or this one) committed a write that makes what it touched stale.
    Invalidation(Invalidation),
    /// The feed was (re)connected and may have missed changes: everything cached may be stale.
    Resync,
    /// Once every event before this one is applied, pass this number to
    /// [`Store::acknowledge`](super::Store::acknowledge): a writer waiting for a barrier is
    /// waiting for it.
    Checkpoint(i64),
    /// Every change committed before this instant was delivered before this notice: once the
    /// notices before it are applied, what the instance caches is as fresh as this instant.
    CaughtUp(std::time::Instant),
}

/// The longest a writer waits for the other instances to apply a change that needs a barrier.
/// An instance that takes longer is logged; the change stays committed, and that instance
/// distrusts its caches until it has applied it (`service::engine::freshness`).
pub const BARRIER_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(3);

/// Announcing what a write makes stale.
#[async_trait]
pub trait InvalidationWrites: Send {
    /// Announces `change` to every instance once this transaction commits.
    async fn publish(&mut self, change: Invalidation) -> StoreResult<()>;

    /// Announces `change` to every instance right after this transaction commits, outside it:
    /// for changes that can only make a cached *miss* stale (new chains), which a notice lost
    /// to a crash between the commit and the send leaves stale for no longer than a miss is
    /// kept. Holds nothing shared through the commit (PostgreSQL's notification lock is held
    /// through the commit of every transaction that notifies, so notifying inside every create
    /// would make creates commit one at a time). The writer applies it locally as it applies
    /// what [`InvalidationWrites::publish`] announces.
    async fn publish_after_commit(&mut self, change: Invalidation) -> StoreResult<()>;
}
