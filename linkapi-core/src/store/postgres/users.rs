//! Users on PostgreSQL.

use async_trait::async_trait;

use super::{PgStore, PgTx, insert_returning, one};
use crate::model::{User, UserId};
use crate::store::users::{ALL_USERS, USER_BY_ID, user_from_row};
use crate::store::{NewUser, StoreResult, StoredRow, Unique, UserStore, UserWrites};

#[async_trait]
impl UserStore for PgStore {
    async fn user(&self, id: UserId) -> StoreResult<Option<User>> {
        self.one(&USER_BY_ID, &[&id.0], user_from_row).await
    }

    async fn users(&self) -> StoreResult<Vec<User>> {
        self.all(&ALL_USERS, &[], user_from_row).await
    }
}

#[async_trait]
impl UserWrites for PgTx<'_> {
    async fn insert_user(&mut self, new: NewUser) -> StoreResult<User> {
        let row = insert_returning(
            &self.tx,
            "INSERT INTO users (name, daily_quota, created_at) VALUES ($1, $2, $3)
             RETURNING id",
            &[&new.name, &new.daily_quota, &new.created_at],
            Unique::UserName,
        )
        .await?;
        Ok(User {
            id: UserId(row.int(0)?),
            name: new.name,
            daily_quota: new.daily_quota,
            created_at: new.created_at,
        })
    }

    async fn user(&mut self, id: UserId) -> StoreResult<Option<User>> {
        one(&self.tx, &USER_BY_ID, &[&id.0], user_from_row).await
    }
}
