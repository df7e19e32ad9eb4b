//! Work-chat data on SQLite.

use async_trait::async_trait;
use rusqlite::params;

use super::{SqliteStore, SqliteTx, all, count, one};
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
impl WorkchatStore for SqliteStore {
    async fn assembly(&self, user: UserId, id: i64) -> StoreResult<Option<Assembly>> {
        self.read(move |c| one(c, &ASSEMBLY_BY_ID, [user.0, id], assembly_from_row))
            .await
    }

    async fn assemblies(
        &self,
        user: UserId,
        offset: i64,
        limit: i64,
    ) -> StoreResult<Page<Assembly>> {
        self.read(move |c| {
            let total = count(c, COUNT_ASSEMBLIES, [user.0])?;
            let items = all(
                c,
                &ASSEMBLIES_PAGE,
                [user.0, limit, offset],
                assembly_from_row,
            )?;
            Ok(Page { items, total })
        })
        .await
    }

    async fn transfers(&self, query: &TransferQuery) -> StoreResult<Vec<Transfer>> {
        let q = query.clone();
        self.read(move |c| {
            all(
                c,
                &TRANSFERS,
                params![
                    q.user_id.0,
                    q.corp_id,
                    q.after,
                    q.handover_userid,
                    q.takeover_userid,
                    q.limit
                ],
                transfer_from_row,
            )
        })
        .await
    }
}

#[async_trait]
impl WorkchatWrites for SqliteTx<'_> {
    async fn put_assembly(&mut self, e: &AssemblyInput) -> StoreResult<Assembly> {
        let id: i64 = self.conn.prepare_cached(PUT_ASSEMBLY)?.query_row(
            params![
                e.user_id.0,
                e.link_id,
                e.link_name,
                e.url,
                e.auth_status,
                if e.invalid { 2 } else { 0 },
                e.created_at
            ],
            |r| r.get(0),
        )?;
        one(
            self.conn,
            &ASSEMBLY_BY_ID,
            [e.user_id.0, id],
            assembly_from_row,
        )?
        .ok_or_else(|| StoreError::backend(Misuse("an upserted entry could not be read")))
    }

    async fn put_transfer(&mut self, t: &Transfer, at: Timestamp) -> StoreResult<Transfer> {
        one(
            self.conn,
            &PUT_TRANSFER,
            params![
                t.user_id.0,
                t.corp_id,
                t.handover_userid,
                t.takeover_userid,
                t.external_userid,
                t.customer_name,
                t.status,
                t.takeover_time,
                t.errcode,
                t.reason,
                at
            ],
            transfer_from_row,
        )?
        .ok_or_else(|| StoreError::backend(Misuse("an upsert returned no row")))
    }
}
