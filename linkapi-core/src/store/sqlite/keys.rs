//! API keys on SQLite.

use async_trait::async_trait;
use rusqlite::params;

use super::{SqliteStore, SqliteTx, all, count, one, unique_or_backend};
use crate::model::{ApiKeyRecord, KeyId, Timestamp, UserId};
use crate::store::keys::{
    COUNT_KEYS, KEY_BY_HASH, KEY_COLUMNS, KeyGrant, grant_from_row, key_from_row, scopes_to_text,
};
use crate::store::{KeyStore, KeyWrites, NewApiKey, StoreResult, Unique};

#[async_trait]
impl KeyStore for SqliteStore {
    async fn key_by_hash(&self, hash: &str) -> StoreResult<Option<KeyGrant>> {
        let hash = hash.to_owned();
        self.read(move |c| one(c, &KEY_BY_HASH, [hash], grant_from_row))
            .await
    }

    async fn keys(&self, user: Option<UserId>) -> StoreResult<Vec<ApiKeyRecord>> {
        self.read(move |c| {
            all(
                c,
                &format!(
                    "SELECT {KEY_COLUMNS} FROM api_keys WHERE ?1 IS NULL OR user_id = ?1 ORDER BY id"
                ),
                [user.map(|u| u.0)],
                key_from_row,
            )
        })
        .await
    }

    async fn count_keys(&self) -> StoreResult<i64> {
        self.read(|c| count(c, COUNT_KEYS, [])).await
    }
}

#[async_trait]
impl KeyWrites for SqliteTx<'_> {
    async fn insert_key(&mut self, new: NewApiKey) -> StoreResult<ApiKeyRecord> {
        self.conn
            .execute(
                "INSERT INTO api_keys (user_id, name, prefix, hash, scopes, created_at, expires_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
                params![
                    new.user_id.0,
                    new.name,
                    new.prefix,
                    new.hash,
                    scopes_to_text(&new.scopes),
                    new.created_at,
                    new.expires_at
                ],
            )
            .map_err(|e| unique_or_backend(e, Unique::KeyHash))?;
        Ok(ApiKeyRecord {
            id: KeyId(self.conn.last_insert_rowid()),
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
        self.conn.execute(
            "UPDATE api_keys SET revoked_at = ?2 WHERE id = ?1 AND revoked_at IS NULL",
            params![id.0, at],
        )?;
        one(
            self.conn,
            &format!("SELECT {KEY_COLUMNS} FROM api_keys WHERE id = $1"),
            [id.0],
            key_from_row,
        )
    }

    async fn count_keys(&mut self) -> StoreResult<i64> {
        count(self.conn, COUNT_KEYS, [])
    }
}
