//! Work-chat data on PostgreSQL.

use async_trait::async_trait;

use super::{PgStore, PgTx, all, count, first, one};
use crate::model::{Assembly, Timestamp, Transfer, UserId};
use crate::store::workchat::{
    ASSEMBLIES_PAGE, ASSEMBLY_BY_ID, COUNT_ASSEMBLIES, PUT_ASSEMBLY, PUT_TRANSFER, TRANSFERS,
    assembly_from_row, transfer_from_row,
};
use crate::store::{
    AssemblyInput, Misuse, Page, StoreError, StoreResult, TransferQuery, WorkchatStore,
    WorkchatWrites,
};

#[async_trait]
impl WorkchatStore for PgStore {
    async fn assembly(&self, user: UserId, id: i64) -> StoreResult<Option<Assembly>> {
        self.one(&ASSEMBLY_BY_ID, &[&user.0, &id], assembly_from_row)
            .await
    }

    async fn assemblies(
        &self,
        user: UserId,
        offset: i64,
        limit: i64,
    ) -> StoreResult<Page<Assembly>> {
        let client = self.client().await?;
        let total = count(&client, COUNT_ASSEMBLIES, &[&user.0]).await?;
        let items = all(
            &client,
            &ASSEMBLIES_PAGE,
            &[&user.0, &limit, &offset],
            assembly_from_row,
        )
        .await?;
        Ok(Page { items, total })
    }

    async fn transfers(&self, q: &TransferQuery) -> StoreResult<Vec<Transfer>> {
        self.all(
            &TRANSFERS,
            &[
                &q.user_id.0,
                &q.corp_id,
                &q.after,
                &q.handover_userid,
                &q.takeover_userid,
                &q.limit,
            ],
            transfer_from_row,
        )
        .await
    }
}

#[async_trait]
impl WorkchatWrites for PgTx<'_> {
    async fn put_assembly(&mut self, e: &AssemblyInput) -> StoreResult<Assembly> {
        let id = one(
            &self.tx,
            PUT_ASSEMBLY,
            &[
                &e.user_id.0,
                &e.link_id,
                &e.link_name,
                &e.url,
                &e.auth_status,
                &if e.invalid { 2i64 } else { 0 },
                &e.created_at,
            ],
            first,
        )
        .await?
        .ok_or_else(|| StoreError::backend(Misuse("an upsert returned no row")))?;
        one(
            &self.tx,
            &ASSEMBLY_BY_ID,
            &[&e.user_id.0, &id],
            assembly_from_row,
        )
        .await?
        .ok_or_else(|| StoreError::backend(Misuse("an upserted entry could not be read")))
    }

    async fn put_transfer(&mut self, t: &Transfer, at: Timestamp) -> StoreResult<Transfer> {
        one(
            &self.tx,
            &PUT_TRANSFER,
            &[
                &t.user_id.0,
                &t.corp_id,
                &t.handover_userid,
                &t.takeover_userid,
                &t.external_userid,
                &t.customer_name,
                &t.status,
                &t.takeover_time,
                &t.errcode,
                &t.reason,
                &at,
            ],
            transfer_from_row,
        )
        .await?
        .ok_or_else(|| StoreError::backend(Misuse("an upsert returned no row")))
    }
}
