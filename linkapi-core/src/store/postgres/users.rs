//! Users on PostgreSQL.

use async_trait::async_trait;

use super::{PgStore, PgTx, first, insert_returning, one, unique_or};
use crate::model::{Timestamp, User, UserId, UserUsage};
use crate::store::users::{
    ALL_USERS, UPDATE_USER, USER_BY_ID, USER_USAGE, USERS_WITHOUT_REDIRECTS, usage_from_row,
    user_from_row,
};
use crate::store::{NewUser, StoreResult, StoredRow, Unique, UserStore, UserWrites};

#[async_trait]
impl UserStore for PgStore {
    async fn user(&self, id: UserId) -> StoreResult<Option<User>> {
        self.one(&USER_BY_ID, &[&id.0], user_from_row).await
    }

    async fn users(&self) -> StoreResult<Vec<User>> {
        self.all(&ALL_USERS, &[], user_from_row).await
    }

    async fn user_usage(
        &self,
        id: UserId,
        today: Timestamp,
        now: Timestamp,
    ) -> StoreResult<UserUsage> {
        Ok(self
            .one(USER_USAGE, &[&id.0, &today, &now], usage_from_row)
            .await?
            .unwrap_or_default())
    }

    async fn users_without_redirects(&self) -> StoreResult<Vec<UserId>> {
        let ids = self.all(USERS_WITHOUT_REDIRECTS, &[], first).await?;
        Ok(ids.into_iter().map(UserId).collect())
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
            suspended_at: None,
            redirects_suspended: false,
        })
    }

    async fn user(&mut self, id: UserId) -> StoreResult<Option<User>> {
        one(&self.tx, &USER_BY_ID, &[&id.0], user_from_row).await
    }

    async fn update_user(&mut self, user: &User) -> StoreResult<()> {
        let statement = self
            .tx
            .prepare_cached(UPDATE_USER)
            .await
            .map_err(super::pg_error)?;
        self.tx
            .execute(
                &statement,
                &[
                    &user.name,
                    &user.daily_quota,
                    &user.suspended_at,
                    &user.redirects_suspended,
                    &user.id.0,
                ],
            )
            .await
            .map_err(|e| unique_or(e, Unique::UserName))?;
        Ok(())
    }

    async fn lock_user(&mut self, id: UserId) -> StoreResult<()> {
        super::execute(
            &self.tx,
            "SELECT id FROM users WHERE id = $1 FOR UPDATE",
            &[&id.0],
        )
        .await
        .map(|_| ())
    }
}
