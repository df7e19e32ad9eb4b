//! Idempotency keys on PostgreSQL.

use async_trait::async_trait;

use super::{PgStore, PgTx, execute, one};
use crate::model::{Timestamp, UserId};
use crate::store::idempotency::{ANSWER, CLAIM, PRUNE, RECORD, answer_from_row};
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
        Ok(changed == 1)
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

    async fn prune_idempotency_keys(&mut self, before: Timestamp) -> StoreResult<u64> {
        execute(&self.tx, PRUNE, &[&before]).await
    }
}
