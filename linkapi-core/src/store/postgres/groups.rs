//! Groups on PostgreSQL.

use async_trait::async_trait;

use super::{PgStore, PgTx, insert_returning};
use crate::model::{Group, GroupId, UserId};
use crate::store::groups::{GROUP_BY_ID, GROUPS_OF, group_from_row};
use crate::store::{GroupStore, GroupWrites, NewGroup, StoreResult, StoredRow, Unique};

#[async_trait]
impl GroupStore for PgStore {
    async fn group(&self, user: UserId, id: GroupId) -> StoreResult<Option<Group>> {
        self.one(&GROUP_BY_ID, &[&user.0, &id.0], group_from_row)
            .await
    }

    async fn groups(&self, user: UserId) -> StoreResult<Vec<Group>> {
        self.all(&GROUPS_OF, &[&user.0], group_from_row).await
    }
}

#[async_trait]
impl GroupWrites for PgTx<'_> {
    async fn insert_group(&mut self, new: NewGroup) -> StoreResult<Group> {
        let row = insert_returning(
            &self.tx,
            "INSERT INTO chain_groups (user_id, name, chain_type, created_at)
             VALUES ($1, $2, $3, $4) RETURNING id",
            &[
                &new.user_id.0,
                &new.name,
                &new.chain_type.code(),
                &new.created_at,
            ],
            Unique::GroupName,
        )
        .await?;
        Ok(Group {
            id: GroupId(row.int(0)?),
            user_id: new.user_id,
            name: new.name,
            chain_type: new.chain_type,
            chain_count: 0,
            created_at: new.created_at,
        })
    }
}
