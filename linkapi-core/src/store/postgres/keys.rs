//! API keys on PostgreSQL.

use async_trait::async_trait;

use super::{PgStore, PgTx, count, insert_returning, one};
use crate::model::{ApiKeyRecord, KeyId, Timestamp, UserId};
use crate::store::keys::{
    COUNT_KEYS, KEY_BY_HASH, KEY_COLUMNS, KeyGrant, grant_from_row, key_from_row, scopes_to_text,
};
use crate::store::{KeyStore, KeyWrites, NewApiKey, StoreResult, StoredRow, Unique};

#[async_trait]
impl KeyStore for PgStore {
    async fn key_by_hash(&self, hash: &str) -> StoreResult<Option<KeyGrant>> {
        self.one(&KEY_BY_HASH, &[&hash], grant_from_row).await
    }

    async fn keys(&self, user: Option<UserId>) -> StoreResult<Vec<ApiKeyRecord>> {
        self.all(
            &format!(
                "SELECT {KEY_COLUMNS} FROM api_keys
                 WHERE $1::bigint IS NULL OR user_id = $1 ORDER BY id"
            ),
            &[&user.map(|u| u.0)],
            key_from_row,
        )
        .await
    }

    async fn count_keys(&self) -> StoreResult<i64> {
        count(&self.client().await?, COUNT_KEYS, &[]).await
    }
}

#[async_trait]
impl KeyWrites for PgTx<'_> {
    async fn insert_key(&mut self, new: NewApiKey) -> StoreResult<ApiKeyRecord> {
        let row = insert_returning(
            &self.tx,
            "INSERT INTO api_keys (user_id, name, prefix, hash, scopes, created_at, expires_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id",
            &[
                &new.user_id.0,
                &new.name,
                &new.prefix,
                &new.hash,
                &scopes_to_text(&new.scopes),
                &new.created_at,
                &new.expires_at,
            ],
            Unique::KeyHash,
        )
        .await?;
        Ok(ApiKeyRecord {
            id: KeyId(row.int(0)?),
            user_id: new.user_id,
            name: new.name,
            prefix: new.prefix,
            scopes: new.scopes,
            created_at: new.created_at,
            expires_at: new.expires_at,
            revoked_at: None,
        })
    }

    async fn revoke_key(&mut self, id: KeyId, at: Timestamp) -> StoreResult<Option<ApiKeyRecord>> {
        one(
            &self.tx,
            &format!(
                "UPDATE api_keys SET revoked_at = coalesce(revoked_at, $2) WHERE id = $1
                 RETURNING {KEY_COLUMNS}"
            ),
            &[&id.0, &at],
            key_from_row,
        )
        .await
    }

    async fn count_keys(&mut self) -> StoreResult<i64> {
        count(&self.tx, COUNT_KEYS, &[]).await
    }
}
