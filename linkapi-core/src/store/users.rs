//! Users: who owns chains, keys, groups and uploads.

use async_trait::async_trait;

use super::{StoreResult, StoredRow};
use crate::model::{Timestamp, User, UserId};

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
pub(crate) const USER_COLUMNS: &str = "id, name, daily_quota, created_at";

/// One user by id.
pub(crate) static USER_BY_ID: std::sync::LazyLock<String> =
    std::sync::LazyLock::new(|| format!("SELECT {USER_COLUMNS} FROM users WHERE id = $1"));

/// Every user, oldest first.
pub(crate) static ALL_USERS: std::sync::LazyLock<String> =
    std::sync::LazyLock::new(|| format!("SELECT {USER_COLUMNS} FROM users ORDER BY id"));

pub(crate) fn user_from_row(row: &dyn StoredRow) -> StoreResult<User> {
    Ok(User {
        id: UserId(row.int(0)?),
        name: row.text(1)?,
        daily_quota: row.opt_int(2)?,
        created_at: row.int(3)?,
    })
}

/// Users.
#[async_trait]
pub trait UserStore: Send + Sync {
    /// One user.
    async fn user(&self, id: UserId) -> StoreResult<Option<User>>;
    /// All users, oldest first.
    async fn users(&self) -> StoreResult<Vec<User>>;
}

/// Writes to users.
#[async_trait]
pub trait UserWrites: Send {
    /// Inserts a user.
    async fn insert_user(&mut self, new: NewUser) -> StoreResult<User>;
    /// One user, read inside the transaction.
    async fn user(&mut self, id: UserId) -> StoreResult<Option<User>>;
}
