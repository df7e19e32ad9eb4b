//! Groups on SQLite.

use async_trait::async_trait;
use rusqlite::params;

use super::{SqliteStore, SqliteTx, all, one, unique_or_backend};
use crate::model::{Group, GroupId, UserId};
use crate::store::groups::{GROUP_BY_ID, GROUPS_OF, group_from_row};
use crate::store::{GroupStore, GroupWrites, NewGroup, StoreResult, Unique};

#[async_trait]
impl GroupStore for SqliteStore {
    async fn group(&self, user: UserId, id: GroupId) -> StoreResult<Option<Group>> {
        self.read(move |c| one(c, &GROUP_BY_ID, [user.0, id.0], group_from_row))
            .await
    }

    async fn groups(&self, user: UserId) -> StoreResult<Vec<Group>> {
        self.read(move |c| all(c, &GROUPS_OF, [user.0], group_from_row))
            .await
    }
}

#[async_trait]
impl GroupWrites for SqliteTx<'_> {
    async fn insert_group(&mut self, new: NewGroup) -> StoreResult<Group> {
        self.conn
            .execute(
                "INSERT INTO chain_groups (user_id, name, chain_type, created_at)
                 VALUES (?1, ?2, ?3, ?4)",
                params![
                    new.user_id.0,
                    new.name,
                    new.chain_type.code(),
                    new.created_at
                ],
            )
            .map_err(|e| unique_or_backend(e, Unique::GroupName))?;
        Ok(Group {
            id: GroupId(self.conn.last_insert_rowid()),
            user_id: new.user_id,
            name: new.name,
            chain_type: new.chain_type,
            chain_count: 0,
            created_at: new.created_at,
        })
    }
}
