//! Users: who owns chains, keys, groups and uploads.

use async_trait::async_trait;

use super::{StoreResult, StoredRow};
use crate::model::{Timestamp, User, UserId, UserUsage};

/// A new user.
#[derive(Debug, Clone)]
pub struct NewUser {
    /// Unique name.
    pub name: String,
    /// Per-user daily creation quota, or the server default.
    pub daily_quota: Option<i64>,
    /// Creation time.
    pub created_at: Timestamp,
}

/// The columns of a user, in the order [`user_from_row`] reads them.
pub(crate) const USER_COLUMNS: &str =
    "id, name, daily_quota, created_at, suspended_at, redirects_suspended";

/// One user by id.
pub(crate) static USER_BY_ID: std::sync::LazyLock<String> =
    std::sync::LazyLock::new(|| format!("SELECT {USER_COLUMNS} FROM users WHERE id = $1"));

/// Every user, oldest first.
pub(crate) static ALL_USERS: std::sync::LazyLock<String> =
    std::sync::LazyLock::new(|| format!("SELECT {USER_COLUMNS} FROM users ORDER BY id"));

/// Writes every changeable column of a user; a taken name is `Unique::UserName`.
pub(crate) const UPDATE_USER: &str = "UPDATE users SET name = $1, daily_quota = $2,
     suspended_at = $3, redirects_suspended = $4 WHERE id = $5";

/// Users whose chains do not redirect: suspended, with their redirects.
pub(crate) const USERS_WITHOUT_REDIRECTS: &str =
    "SELECT id FROM users WHERE redirects_suspended AND suspended_at IS NOT NULL ORDER BY id";

/// What user `$1` has and uses: `$2` is the start of today, `$3` now (for key expiry).
pub(crate) const USER_USAGE: &str = "SELECT
    (SELECT count(*) FROM chains WHERE user_id = $1 AND deleted_at IS NULL),
    (SELECT coalesce(max(count), 0) FROM daily_creations WHERE user_id = $1 AND day = $2),
    (SELECT coalesce(max(bytes), 0) FROM upload_usage WHERE user_id = $1),
    (SELECT count(*) FROM uploads WHERE user_id = $1 AND stored),
    (SELECT count(*) FROM api_keys WHERE user_id = $1 AND revoked_at IS NULL
        AND (expires_at IS NULL OR expires_at > $3)),
    (SELECT count(*) FROM api_keys WHERE user_id = $1)";

pub(crate) fn user_from_row(row: &dyn StoredRow) -> StoreResult<User> {
    Ok(User {
        id: UserId(row.int(0)?),
        name: row.text(1)?,
        daily_quota: row.opt_int(2)?,
        created_at: row.int(3)?,
        suspended_at: row.opt_int(4)?,
        redirects_suspended: row.flag(5)?,
    })
}

pub(crate) fn usage_from_row(row: &dyn StoredRow) -> StoreResult<UserUsage> {
    Ok(UserUsage {
        chains: row.int(0)?,
        created_today: row.int(1)?,
        upload_bytes: row.int(2)?,
        uploads: row.int(3)?,
        active_keys: row.int(4)?,
        keys: row.int(5)?,
    })
}

/// Users.
#[async_trait]
pub trait UserStore: Send + Sync {
    /// One user.
    async fn user(&self, id: UserId) -> StoreResult<Option<User>>;
    /// All users, oldest first.
    async fn users(&self) -> StoreResult<Vec<User>>;
    /// What a user has and uses; `today` starts the quota's day, `now` decides key expiry.
    async fn user_usage(
        &self,
        id: UserId,
        today: Timestamp,
        now: Timestamp,
    ) -> StoreResult<UserUsage>;
    /// Users whose chains do not redirect (suspended, with their redirects).
    async fn users_without_redirects(&self) -> StoreResult<Vec<UserId>>;
}

/// Writes to users.
#[async_trait]
pub trait UserWrites: Send {
    /// Inserts a user.
    async fn insert_user(&mut self, new: NewUser) -> StoreResult<User>;
    /// One user, read inside the transaction.
    async fn user(&mut self, id: UserId) -> StoreResult<Option<User>>;
    /// Writes `user`'s name, quota and suspension over the stored row.
    async fn update_user(&mut self, user: &User) -> StoreResult<()>;
    /// Holds the user's row until commit: transactions checking a per-user limit that no row
    /// of their own serializes (the templates a user's chains use) take it first, so they run
    /// one after another on every instance.
    async fn lock_user(&mut self, id: UserId) -> StoreResult<()>;
}
