//! API keys: a user's credentials and what they may do.

use async_trait::async_trait;

use super::{StoreResult, StoredRow, bad_value};
use crate::model::{ApiKeyRecord, KeyId, Scope, Timestamp, UserId};

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

/// The columns of a key, in the order [`key_from_row`] reads them.
pub(crate) const KEY_COLUMNS: &str =
    "id, user_id, name, prefix, scopes, created_at, expires_at, revoked_at";

/// A key as authentication reads it: the record, and whether its user is suspended (a
/// suspended user's keys are refused, and read together so one cached entry decides).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyGrant {
    /// The key.
    pub key: ApiKeyRecord,
    /// Whether the key's user is suspended.
    pub user_suspended: bool,
}

/// The key whose secret hashes to `$1`, with its user's suspension, as [`grant_from_row`]
/// reads it.
pub(crate) static KEY_BY_HASH: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
    let columns = KEY_COLUMNS
        .split(", ")
        .map(|c| format!("k.{c}"))
        .collect::<Vec<_>>()
        .join(", ");
    format!(
        "SELECT {columns}, u.suspended_at IS NOT NULL
         FROM api_keys k JOIN users u ON u.id = k.user_id WHERE k.hash = $1"
    )
});

/// How many keys exist, revoked ones included.
pub(crate) const COUNT_KEYS: &str = "SELECT count(*) FROM api_keys";

/// Scopes as stored: their names, space-separated.
pub(crate) fn scopes_to_text(scopes: &[Scope]) -> String {
    scopes
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

pub(crate) fn key_from_row(row: &dyn StoredRow) -> StoreResult<ApiKeyRecord> {
    let scopes = row
        .text(4)?
        .split_whitespace()
        .map(|s| s.parse::<Scope>().map_err(|_| bad_value("scopes", s)))
        .collect::<StoreResult<Vec<_>>>()?;
    Ok(ApiKeyRecord {
        id: KeyId(row.int(0)?),
        user_id: UserId(row.int(1)?),
        name: row.text(2)?,
        prefix: row.text(3)?,
        scopes,
        created_at: row.int(5)?,
        expires_at: row.opt_int(6)?,
        revoked_at: row.opt_int(7)?,
    })
}

pub(crate) fn grant_from_row(row: &dyn StoredRow) -> StoreResult<KeyGrant> {
    Ok(KeyGrant {
        key: key_from_row(row)?,
        user_suspended: row.flag(8)?,
    })
}

/// API keys.
#[async_trait]
pub trait KeyStore: Send + Sync {
    /// The key whose secret hashes to `hash`, revoked and expired ones included.
    async fn key_by_hash(&self, hash: &str) -> StoreResult<Option<KeyGrant>>;
    /// Keys, all or one user's, oldest first.
    async fn keys(&self, user: Option<UserId>) -> StoreResult<Vec<ApiKeyRecord>>;
    /// How many keys exist, revoked ones included.
    async fn count_keys(&self) -> StoreResult<i64>;
}

/// Writes to keys.
#[async_trait]
pub trait KeyWrites: Send {
    /// Inserts a key.
    async fn insert_key(&mut self, new: NewApiKey) -> StoreResult<ApiKeyRecord>;
    /// Marks a key revoked at `at` unless it already is; returns it as it now stands.
    async fn revoke_key(&mut self, id: KeyId, at: Timestamp) -> StoreResult<Option<ApiKeyRecord>>;
    /// How many keys exist, revoked ones included, as the transaction sees them.
    async fn count_keys(&mut self) -> StoreResult<i64>;
}
