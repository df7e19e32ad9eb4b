//! Users and their API keys.

use super::{KeyId, Scope, Timestamp, UserId};

/// A user.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct User {
    /// Row id.
    pub id: UserId,
    /// Display name, unique.
    pub name: String,
    /// Chains the user may create per UTC day; `None` takes the server's default.
    pub daily_quota: Option<i64>,
    /// When the user was created.
    pub created_at: Timestamp,
    /// When the user was suspended: their keys are refused while it is set.
    pub suspended_at: Option<Timestamp>,
    /// Whether the user's chains answer 404 instead of redirecting (only while suspended).
    pub redirects_suspended: bool,
}

/// What a user has and uses, for administrators.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct UserUsage {
    /// Chains not deleted, of every kind.
    pub chains: i64,
    /// Chains created today (the day the daily quota counts).
    pub created_today: i64,
    /// Bytes the user's uploads take.
    pub upload_bytes: i64,
    /// Uploads the user has.
    pub uploads: i64,
    /// Keys neither revoked nor expired.
    pub active_keys: i64,
    /// Keys ever made, revoked and expired included.
    pub keys: i64,
}

/// An API key as stored: never its secret, only the secret's hash.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiKeyRecord {
    /// Row id.
    pub id: KeyId,
    /// The user the key acts as.
    pub user_id: UserId,
    /// A label chosen at creation.
    pub name: String,
    /// The first characters of the secret, so an operator can tell keys apart.
    pub prefix: String,
    /// What the key may do.
    pub scopes: Vec<Scope>,
    /// When the key was created.
    pub created_at: Timestamp,
    /// After this instant the key is refused; `None` never expires.
    pub expires_at: Option<Timestamp>,
    /// When the key was revoked, if it was.
    pub revoked_at: Option<Timestamp>,
}
