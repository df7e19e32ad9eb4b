//! Idempotency keys on SQLite.

use async_trait::async_trait;
use rusqlite::params;

use super::{SqliteStore, SqliteTx, one};
use crate::model::{Timestamp, UserId};
use crate::store::idempotency::{ANSWER, CLAIM, PRUNE, RECORD, answer_from_row};
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
        Ok(changed == 1)
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

    async fn prune_idempotency_keys(&mut self, before: Timestamp) -> StoreResult<u64> {
        let pruned = self.conn.prepare_cached(PRUNE)?.execute([before])?;
        Ok(pruned as u64)
    }
}
