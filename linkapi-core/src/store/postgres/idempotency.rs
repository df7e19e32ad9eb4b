//! Idempotency keys on PostgreSQL.

use async_trait::async_trait;

use super::{PgStore, PgTx, all, execute, first, one};
use crate::model::{Timestamp, UserId};
use crate::store::idempotency::{
    ANSWER, AnswerPart, CLAIM, CLAIM_RUN, FORGET_OLD_PARTS, PART_BODIES, PARTS, PRUNE, PRUNE_PARTS,
    RECORD, RECORD_PART, RELEASE_RUN, RELEASE_RUNS, RunClaim, answer_from_row, part_body_from_row,
    part_from_row,
};
use crate::store::{IdempotencyStore, IdempotencyWrites, IdempotentAnswer, StoreResult};

#[async_trait]
impl IdempotencyStore for PgStore {
    async fn idempotent_answer(
        &self,
        user: UserId,
        key: &str,
        used_after: Timestamp,
    ) -> StoreResult<Option<IdempotentAnswer>> {
        let client = self.client().await?;
        one(
            &client,
            ANSWER,
            &[&user.0, &key, &used_after],
            answer_from_row,
        )
        .await
    }

    async fn idempotent_parts(
        &self,
        user: UserId,
        key: &str,
    ) -> StoreResult<Vec<(AnswerPart, Vec<u8>)>> {
        let client = self.client().await?;
        all(&client, PART_BODIES, &[&user.0, &key], part_body_from_row).await
    }
}

#[async_trait]
impl IdempotencyWrites for PgTx<'_> {
    async fn claim_idempotency_key(
        &mut self,
        user: UserId,
        key: &str,
        fingerprint: &[u8],
        now: Timestamp,
        expired_at: Timestamp,
    ) -> StoreResult<bool> {
        // A transaction that claimed the key and has not finished holds its index entry: this
        // insert waits for it, then changes nothing if it committed, or inserts if it rolled
        // back. The unique index decides, across every instance.
        let empty: &[u8] = &[];
        let changed = execute(
            &self.tx,
            CLAIM,
            &[&user.0, &key, &fingerprint, &now, &empty, &expired_at],
        )
        .await?;
        if changed == 1 {
            execute(&self.tx, FORGET_OLD_PARTS, &[&user.0, &key, &now]).await?;
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
        // As above, a holder's transaction holds the row: this waits for its run to commit,
        // then sees the progress it made.
        let empty: &[u8] = &[];
        let Some(claimed_at) = one(
            &self.tx,
            CLAIM_RUN,
            &[
                &user.0,
                &key,
                &fingerprint,
                &now,
                &empty,
                &owner,
                &expired_at,
                &stale_at,
            ],
            first,
        )
        .await?
        else {
            return Ok(None);
        };
        execute(&self.tx, FORGET_OLD_PARTS, &[&user.0, &key, &claimed_at]).await?;
        let parts = all(&self.tx, PARTS, &[&user.0, &key], part_from_row).await?;
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
        execute(
            &self.tx,
            RECORD_PART,
            &[
                &user.0,
                &key,
                &part.part,
                &part.first_item,
                &part.items,
                &part.created,
                &claimed_at,
                &body,
            ],
        )
        .await?;
        Ok(())
    }

    async fn record_idempotent_answer(
        &mut self,
        user: UserId,
        key: &str,
        status: u16,
        body: &[u8],
    ) -> StoreResult<()> {
        execute(
            &self.tx,
            RECORD,
            &[&i64::from(status), &body, &user.0, &key],
        )
        .await?;
        Ok(())
    }

    async fn release_idempotency_runs(&mut self) -> StoreResult<()> {
        execute(&self.tx, RELEASE_RUNS, &[]).await?;
        Ok(())
    }

    async fn release_idempotency_run(
        &mut self,
        user: UserId,
        key: &str,
        owner: i64,
    ) -> StoreResult<()> {
        execute(&self.tx, RELEASE_RUN, &[&user.0, &key, &owner]).await?;
        Ok(())
    }

    async fn prune_idempotency_keys(&mut self, before: Timestamp) -> StoreResult<u64> {
        execute(&self.tx, PRUNE_PARTS, &[&before]).await?;
        execute(&self.tx, PRUNE, &[&before]).await
    }
}
