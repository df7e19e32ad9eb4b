//! Idempotency keys: the answer a create gave under a caller's key, written in the same
//! transaction as the create, so a key is either unused or names a committed answer.

use async_trait::async_trait;

use super::{StoreResult, StoredRow};
use crate::model::{Timestamp, UserId};

/// A key's row: what the request under it asked for, and what it was answered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IdempotentAnswer {
    /// Digest of the request that first used the key.
    pub fingerprint: Vec<u8>,
    /// The HTTP status it was answered.
    pub status: u16,
    /// The body it was answered (JSON).
    pub body: Vec<u8>,
    /// When the key was first used.
    pub created_at: Timestamp,
}

pub(crate) fn answer_from_row(row: &dyn StoredRow) -> StoreResult<IdempotentAnswer> {
    let status = row.int(1)?;
    Ok(IdempotentAnswer {
        fingerprint: row.bytes(0)?,
        status: u16::try_from(status).map_err(|_| super::bad_value("status", status))?,
        body: row.bytes(2)?,
        created_at: row.int(3)?,
    })
}

/// A key's answer, if it was used after `$3`.
pub(crate) const ANSWER: &str = "SELECT fingerprint, status, body, created_at
     FROM idempotency_keys WHERE user_id = $1 AND key = $2 AND created_at > $3";

/// Takes a key: inserts its row (status 0 and body `$5`, empty, until [`RECORD`] fills
/// them in before the transaction commits), or takes over one used at or before `$6`
/// (expired). Changes no row when the key is in use, so the caller learns it from the count.
pub(crate) const CLAIM: &str = "INSERT INTO idempotency_keys
        (user_id, key, fingerprint, created_at, status, body)
     VALUES ($1, $2, $3, $4, 0, $5)
     ON CONFLICT (user_id, key) DO UPDATE
        SET fingerprint = excluded.fingerprint, created_at = excluded.created_at,
            status = 0, body = excluded.body
        WHERE idempotency_keys.created_at <= $6";

/// Fills in the answer (`$1`, `$2`) of a key this transaction claimed.
pub(crate) const RECORD: &str =
    "UPDATE idempotency_keys SET status = $1, body = $2 WHERE user_id = $3 AND key = $4";

/// Forgets keys used at or before `$1`.
pub(crate) const PRUNE: &str = "DELETE FROM idempotency_keys WHERE created_at <= $1";

/// Reads of idempotency keys.
#[async_trait]
pub trait IdempotencyStore: Send + Sync {
    /// The answer given under `key` of `user`, if the key was used after `used_after`.
    async fn idempotent_answer(
        &self,
        user: UserId,
        key: &str,
        used_after: Timestamp,
    ) -> StoreResult<Option<IdempotentAnswer>>;
}

/// Writes of idempotency keys, inside the transaction of the create they guard.
#[async_trait]
pub trait IdempotencyWrites: Send {
    /// Takes `key` of `user` for this transaction: `false` when it is in use (used after
    /// `expired_at`, or claimed by a transaction that has not finished: PostgreSQL makes
    /// this call wait for that one, and answers `false` if it commits).
    async fn claim_idempotency_key(
        &mut self,
        user: UserId,
        key: &str,
        fingerprint: &[u8],
        now: Timestamp,
        expired_at: Timestamp,
    ) -> StoreResult<bool>;

    /// Records the answer under a key this transaction claimed.
    async fn record_idempotent_answer(
        &mut self,
        user: UserId,
        key: &str,
        status: u16,
        body: &[u8],
    ) -> StoreResult<()>;

    /// Forgets every key used at or before `before`; returns how many.
    async fn prune_idempotency_keys(&mut self, before: Timestamp) -> StoreResult<u64>;
}
