//! Users on SQLite.

use async_trait::async_trait;
use rusqlite::params;

use super::{SqliteStore, SqliteTx, all, first, one, unique_or_backend};
use crate::model::{Timestamp, User, UserId, UserUsage};
use crate::store::users::{
    ALL_USERS, UPDATE_USER, USER_BY_ID, USER_USAGE, USERS_WITHOUT_REDIRECTS, usage_from_row,
    user_from_row,
};
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

    async fn user_usage(
        &self,
        id: UserId,
        today: Timestamp,
        now: Timestamp,
    ) -> StoreResult<UserUsage> {
        self.read(move |c| {
            Ok(one(c, USER_USAGE, params![id.0, today, now], usage_from_row)?.unwrap_or_default())
        })
        .await
    }

    async fn users_without_redirects(&self) -> StoreResult<Vec<UserId>> {
        let ids = self
            .read(|c| all(c, USERS_WITHOUT_REDIRECTS, [], first))
            .await?;
        Ok(ids.into_iter().map(UserId).collect())
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
            suspended_at: None,
            redirects_suspended: false,
        })
    }

    async fn user(&mut self, id: UserId) -> StoreResult<Option<User>> {
        one(self.conn, &USER_BY_ID, [id.0], user_from_row)
    }

    async fn update_user(&mut self, user: &User) -> StoreResult<()> {
        self.conn
            .prepare_cached(UPDATE_USER)?
            .execute(params![
                user.name,
                user.daily_quota,
                user.suspended_at,
                user.redirects_suspended,
                user.id.0
            ])
            .map_err(|e| unique_or_backend(e, Unique::UserName))?;
        Ok(())
    }

    async fn lock_user(&mut self, _id: UserId) -> StoreResult<()> {
        // One writer thread runs every transaction body in turn: they are serialized already.
        Ok(())
    }
}
