//! Users on SQLite.

use async_trait::async_trait;
use rusqlite::params;

use super::{SqliteStore, SqliteTx, all, one, unique_or_backend};
use crate::model::{User, UserId};
use crate::store::users::{ALL_USERS, USER_BY_ID, user_from_row};
use crate::store::{NewUser, StoreResult, Unique, UserStore, UserWrites};

#[async_trait]
impl UserStore for SqliteStore {
    async fn user(&self, id: UserId) -> StoreResult<Option<User>> {
        self.read(move |c| one(c, &USER_BY_ID, [id.0], user_from_row))
            .await
    }

    async fn users(&self) -> StoreResult<Vec<User>> {
        self.read(|c| all(c, &ALL_USERS, [], user_from_row)).await
    }
}

#[async_trait]
impl UserWrites for SqliteTx<'_> {
    async fn insert_user(&mut self, new: NewUser) -> StoreResult<User> {
        self.conn
            .execute(
                "INSERT INTO users (name, daily_quota, created_at) VALUES (?1, ?2, ?3)",
                params![new.name, new.daily_quota, new.created_at],
            )
            .map_err(|e| unique_or_backend(e, Unique::UserName))?;
        Ok(User {
            id: UserId(self.conn.last_insert_rowid()),
            name: new.name,
            daily_quota: new.daily_quota,
            created_at: new.created_at,
        })
    }

    async fn user(&mut self, id: UserId) -> StoreResult<Option<User>> {
        one(self.conn, &USER_BY_ID, [id.0], user_from_row)
    }
}
