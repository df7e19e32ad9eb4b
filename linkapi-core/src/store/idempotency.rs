//! Idempotency keys: the answer a create gave under a caller's key, written in the same
//! transaction as the create, so a key is either unused or names a committed answer; or, for
//! a create that commits in runs (a bulk), written part by part with each run and held by the
//! request making them, which another may take over once it stopped.

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

/// A key's row, if it was used after `$3`.
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
            status = 0, body = excluded.body, owner = NULL, progress_at = 0
        WHERE idempotency_keys.created_at <= $6";

/// Takes a key for a create that commits in runs, for the request `$6`: inserts its row, takes
/// over an expired one (used at or before `$7`), or resumes one in progress for the same
/// request (the same fingerprint) that is this request's or whose holder stopped (no run since
/// `$8`); marks it as making progress now (`$4`). Returns the key's first use, which its parts
/// carry; no row when the key is in use or answered.
pub(crate) const CLAIM_RUN: &str = "INSERT INTO idempotency_keys
        (user_id, key, fingerprint, created_at, status, body, owner, progress_at)
     VALUES ($1, $2, $3, $4, 0, $5, $6, $4)
     ON CONFLICT (user_id, key) DO UPDATE
        SET created_at = CASE WHEN idempotency_keys.created_at <= $7
                              THEN excluded.created_at ELSE idempotency_keys.created_at END,
            fingerprint = excluded.fingerprint, status = 0, body = excluded.body,
            owner = excluded.owner, progress_at = excluded.progress_at
        WHERE idempotency_keys.created_at <= $7
           OR (idempotency_keys.status = 0 AND idempotency_keys.fingerprint = excluded.fingerprint
               AND (idempotency_keys.owner = excluded.owner
                    OR idempotency_keys.progress_at <= $8))
     RETURNING created_at";

/// Fills in the answer (`$1`, `$2`) of a key this transaction claimed; it is no longer in
/// progress.
pub(crate) const RECORD: &str = "UPDATE idempotency_keys SET status = $1, body = $2, owner = NULL
     WHERE user_id = $3 AND key = $4";

/// Lets every create in progress be taken over at once.
pub(crate) const RELEASE_RUNS: &str =
    "UPDATE idempotency_keys SET progress_at = 0 WHERE status = 0 AND owner IS NOT NULL";

/// Lets the create in progress under key `$2` of user `$1` held by `$3` be taken over at once.
pub(crate) const RELEASE_RUN: &str = "UPDATE idempotency_keys SET progress_at = 0
     WHERE user_id = $1 AND key = $2 AND owner = $3 AND status = 0";

/// Forgets keys used at or before `$1`.
pub(crate) const PRUNE: &str = "DELETE FROM idempotency_keys WHERE created_at <= $1";

/// Forgets the parts of answers of keys used at or before `$1`.
pub(crate) const PRUNE_PARTS: &str = "DELETE FROM idempotency_parts WHERE created_at <= $1";

/// Forgets the parts of key `$2` of user `$1` left by a use before `$3` (an expired one).
pub(crate) const FORGET_OLD_PARTS: &str =
    "DELETE FROM idempotency_parts WHERE user_id = $1 AND key = $2 AND created_at < $3";

/// What the parts of a key's answer say, in order.
pub(crate) const PARTS: &str = "SELECT part, first_item, items, created
     FROM idempotency_parts WHERE user_id = $1 AND key = $2 ORDER BY part";

/// The parts of a key's answer with their bytes, in order.
pub(crate) const PART_BODIES: &str = "SELECT part, first_item, items, created, body
     FROM idempotency_parts WHERE user_id = $1 AND key = $2 ORDER BY part";

/// Records a part of a key's answer.
pub(crate) const RECORD_PART: &str = "INSERT INTO idempotency_parts
        (user_id, key, part, first_item, items, created, created_at, body)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)";

/// A part of an answer written in several transactions (a bulk create's runs): where it is
/// among the parts, the items it answers (`items` from `first_item`), and how many of them it
/// created. The answer is the key's body followed by its parts in order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AnswerPart {
    /// Its place among the parts, from 0.
    pub part: i64,
    /// The first item it answers.
    pub first_item: i64,
    /// How many items it answers.
    pub items: i64,
    /// How many of them were created.
    pub created: i64,
}

pub(crate) fn part_from_row(row: &dyn StoredRow) -> StoreResult<AnswerPart> {
    Ok(AnswerPart {
        part: row.int(0)?,
        first_item: row.int(1)?,
        items: row.int(2)?,
        created: row.int(3)?,
    })
}

pub(crate) fn part_body_from_row(row: &dyn StoredRow) -> StoreResult<(AnswerPart, Vec<u8>)> {
    Ok((part_from_row(row)?, row.bytes(4)?))
}

/// A key held for a create that commits in runs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunClaim {
    /// When the key was first used (its parts carry it).
    pub claimed_at: Timestamp,
    /// The parts recorded so far, in order (none for a fresh claim).
    pub parts: Vec<AnswerPart>,
}

/// Reads of idempotency keys.
#[async_trait]
pub trait IdempotencyStore: Send + Sync {
    /// The row of `key` of `user`, if the key was used after `used_after` (status 0 while its
    /// create is in progress).
    async fn idempotent_answer(
        &self,
        user: UserId,
        key: &str,
        used_after: Timestamp,
    ) -> StoreResult<Option<IdempotentAnswer>>;

    /// The parts of the answer under `key` of `user` with their bytes, in order (none for an
    /// answer written at once).
    async fn idempotent_parts(
        &self,
        user: UserId,
        key: &str,
    ) -> StoreResult<Vec<(AnswerPart, Vec<u8>)>>;
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

    /// Takes `key` of `user` for a create that commits in runs, for the request `owner`:
    /// fresh, taken over when expired (used at or before `expired_at`; its old parts are
    /// forgotten), or resumed when in progress for the same request (`fingerprint`) and
    /// `owner`'s or stopped (no claim since `stale_at`). Marks it as making progress at `now`.
    /// `None` when it is in use or answered.
    #[allow(clippy::too_many_arguments)]
    async fn claim_idempotency_run(
        &mut self,
        user: UserId,
        key: &str,
        fingerprint: &[u8],
        owner: i64,
        now: Timestamp,
        expired_at: Timestamp,
        stale_at: Timestamp,
    ) -> StoreResult<Option<RunClaim>>;

    /// Records `part` of the answer under a key this transaction holds, first used at
    /// `claimed_at`.
    async fn record_idempotent_part(
        &mut self,
        user: UserId,
        key: &str,
        part: AnswerPart,
        claimed_at: Timestamp,
        body: &[u8],
    ) -> StoreResult<()>;

    /// Records the answer under a key this transaction claimed (for an answer in parts: what
    /// comes before them).
    async fn record_idempotent_answer(
        &mut self,
        user: UserId,
        key: &str,
        status: u16,
        body: &[u8],
    ) -> StoreResult<()>;

    /// Lets every create in progress be taken over at once (their holders are known to have
    /// stopped: the process that ran them is gone).
    async fn release_idempotency_runs(&mut self) -> StoreResult<()>;

    /// Lets the create in progress under `key` of `user` that `owner` holds be taken over at
    /// once (it stopped); nothing if another holds it.
    async fn release_idempotency_run(
        &mut self,
        user: UserId,
        key: &str,
        owner: i64,
    ) -> StoreResult<()>;

    /// Forgets every key used at or before `before`, and the parts of their answers; returns
    /// how many keys.
    async fn prune_idempotency_keys(&mut self, before: Timestamp) -> StoreResult<u64>;
}
