//! Conversions on SQLite.

use async_trait::async_trait;
use rusqlite::params;

use super::{SqliteStore, SqliteTx, all, count, one};
use crate::model::{ChainId, Conversion, UserId};
use crate::store::conversions::{
    CONVERSION_COLUMNS, CONVERSIONS_PAGE, COUNT_CONVERSIONS, INSERT_CONVERSION, conversion_from_row,
};
use crate::store::{ConversionStore, ConversionWrites, Misuse, Page, StoreError, StoreResult};

#[async_trait]
impl ConversionStore for SqliteStore {
    async fn conversions(
        &self,
        user: UserId,
        chain: ChainId,
        offset: i64,
        limit: i64,
    ) -> StoreResult<Page<Conversion>> {
        self.read(move |c| {
            let total = count(c, COUNT_CONVERSIONS, [user.0, chain.0])?;
            let items = all(
                c,
                &CONVERSIONS_PAGE,
                [user.0, chain.0, limit, offset],
                conversion_from_row,
            )?;
            Ok(Page { items, total })
        })
        .await
    }
}

#[async_trait]
impl ConversionWrites for SqliteTx<'_> {
    async fn insert_conversion(
        &mut self,
        user: UserId,
        new: Conversion,
    ) -> StoreResult<(Conversion, bool)> {
        let inserted = self
            .conn
            .prepare_cached(INSERT_CONVERSION)?
            .execute(params![
                new.event_id,
                user.0,
                new.chain_id.0,
                new.conv_type,
                new.out_id,
                new.clickid,
                new.platform,
                new.ad_platform,
                new.external_userid,
                new.value_cents,
                new.created_at
            ])?
            == 1;
        let stands = one(
            self.conn,
            &format!(
                "SELECT {CONVERSION_COLUMNS} FROM conversions
                 WHERE user_id = ?1 AND chain_id = ?2 AND conv_type = ?3
                   AND (out_id = ?4 OR (?4 IS NULL AND event_id = ?5))"
            ),
            params![
                user.0,
                new.chain_id.0,
                new.conv_type,
                new.out_id,
                new.event_id
            ],
            conversion_from_row,
        )?
        .ok_or_else(|| StoreError::backend(Misuse("a conversion could not be read back")))?;
        Ok((stands, inserted))
    }
}
