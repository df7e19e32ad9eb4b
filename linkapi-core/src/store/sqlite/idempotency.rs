//! Idempotency keys on SQLite.

use async_trait::async_trait;
use rusqlite::params;

use super::{SqliteStore, SqliteTx, all, first, one};
use crate::model::{Timestamp, UserId};
use crate::store::idempotency::{
    ANSWER, AnswerPart, CLAIM, CLAIM_RUN, FORGET_OLD_PARTS, PART_BODIES, PARTS, PRUNE, PRUNE_PARTS,
    RECORD, RECORD_PART, RELEASE_RUN, RELEASE_RUNS, RunClaim, answer_from_row, part_body_from_row,
    part_from_row,
};
use crate::store::{IdempotencyStore, IdempotencyWrites, IdempotentAnswer, StoreResult};

#[async_trait]
impl IdempotencyStore for SqliteStore {
    async fn idempotent_answer(
        &self,
        user: UserId,
        key: &str,
        used_after: Timestamp,
    ) -> StoreResult<Option<IdempotentAnswer>> {
        let key = key.to_owned();
        self.read(move |c| one(c, ANSWER, params![user.0, key, used_after], answer_from_row))
            .await
    }

    async fn idempotent_parts(
        &self,
        user: UserId,
        key: &str,
    ) -> StoreResult<Vec<(AnswerPart, Vec<u8>)>> {
        let key = key.to_owned();
        self.read(move |c| all(c, PART_BODIES, params![user.0, key], part_body_from_row))
            .await
    }
}

#[async_trait]
impl IdempotencyWrites for SqliteTx<'_> {
    async fn claim_idempotency_key(
        &mut self,
        user: UserId,
        key: &str,
        fingerprint: &[u8],
        now: Timestamp,
        expired_at: Timestamp,
    ) -> StoreResult<bool> {
        let changed = self.conn.prepare_cached(CLAIM)?.execute(params![
            user.0,
            key,
            fingerprint,
            now,
            Vec::<u8>::new(),
            expired_at
        ])?;
        if changed == 1 {
            self.conn
                .prepare_cached(FORGET_OLD_PARTS)?
                .execute(params![user.0, key, now])?;
        }
        Ok(changed == 1)
    }

    async fn claim_idempotency_run(
        &mut self,
        user: UserId,
        key: &str,
        fingerprint: &[u8],
        owner: i64,
        now: Timestamp,
        expired_at: Timestamp,
        stale_at: Timestamp,
    ) -> StoreResult<Option<RunClaim>> {
        let empty = Vec::<u8>::new();
        let Some(claimed_at) = one(
            self.conn,
            CLAIM_RUN,
            params![
                user.0,
                key,
                fingerprint,
                now,
                empty,
                owner,
                expired_at,
                stale_at
            ],
            first,
        )?
        else {
            return Ok(None);
        };
        self.conn
            .prepare_cached(FORGET_OLD_PARTS)?
            .execute(params![user.0, key, claimed_at])?;
        let parts = all(self.conn, PARTS, params![user.0, key], part_from_row)?;
        Ok(Some(RunClaim { claimed_at, parts }))
    }

    async fn record_idempotent_part(
        &mut self,
        user: UserId,
        key: &str,
        part: AnswerPart,
        claimed_at: Timestamp,
        body: &[u8],
    ) -> StoreResult<()> {
        self.conn.prepare_cached(RECORD_PART)?.execute(params![
            user.0,
            key,
            part.part,
            part.first_item,
            part.items,
            part.created,
            claimed_at,
            body
        ])?;
        Ok(())
    }

    async fn record_idempotent_answer(
        &mut self,
        user: UserId,
        key: &str,
        status: u16,
        body: &[u8],
    ) -> StoreResult<()> {
        self.conn
            .prepare_cached(RECORD)?
            .execute(params![status, body, user.0, key])?;
        Ok(())
    }

    async fn release_idempotency_runs(&mut self) -> StoreResult<()> {
        self.conn.prepare_cached(RELEASE_RUNS)?.execute([])?;
        Ok(())
    }

    async fn release_idempotency_run(
        &mut self,
        user: UserId,
        key: &str,
        owner: i64,
    ) -> StoreResult<()> {
        self.conn
            .prepare_cached(RELEASE_RUN)?
            .execute(params![user.0, key, owner])?;
        Ok(())
    }

    async fn prune_idempotency_keys(&mut self, before: Timestamp) -> StoreResult<u64> {
        self.conn.prepare_cached(PRUNE_PARTS)?.execute([before])?;
        let pruned = self.conn.prepare_cached(PRUNE)?.execute([before])?;
        Ok(pruned as u64)
    }
}
