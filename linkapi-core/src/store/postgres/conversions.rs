//! Conversions on PostgreSQL.

use async_trait::async_trait;

use super::{PgStore, PgTx, all, count, execute, one};
use crate::model::{ChainId, Conversion, UserId};
use crate::store::conversions::{
    CONVERSION_COLUMNS, CONVERSIONS_PAGE, COUNT_CONVERSIONS, INSERT_CONVERSION, conversion_from_row,
};
use crate::store::{ConversionStore, ConversionWrites, Misuse, Page, StoreError, StoreResult};

#[async_trait]
impl ConversionStore for PgStore {
    async fn conversions(
        &self,
        user: UserId,
        chain: ChainId,
        offset: i64,
        limit: i64,
    ) -> StoreResult<Page<Conversion>> {
        let client = self.client().await?;
        let total = count(&client, COUNT_CONVERSIONS, &[&user.0, &chain.0]).await?;
        let items = all(
            &client,
            &CONVERSIONS_PAGE,
            &[&user.0, &chain.0, &limit, &offset],
            conversion_from_row,
        )
        .await?;
        Ok(Page { items, total })
    }
}

#[async_trait]
impl ConversionWrites for PgTx<'_> {
    async fn insert_conversion(
        &mut self,
        user: UserId,
        new: Conversion,
    ) -> StoreResult<(Conversion, bool)> {
        // A concurrent report of the same key waits here for the first to commit, then finds
        // the conflict: the unique index, not a check before the insert, decides.
        let inserted = execute(
            &self.tx,
            INSERT_CONVERSION,
            &[
                &new.event_id,
                &user.0,
                &new.chain_id.0,
                &new.conv_type,
                &new.out_id,
                &new.clickid,
                &new.platform,
                &new.ad_platform,
                &new.external_userid,
                &new.value_cents,
                &new.created_at,
            ],
        )
        .await?
            == 1;
        let stands = one(
            &self.tx,
            &format!(
                "SELECT {CONVERSION_COLUMNS} FROM conversions
                 WHERE user_id = $1 AND chain_id = $2 AND conv_type = $3
                   AND (out_id = $4 OR ($4::text IS NULL AND event_id = $5))"
            ),
            &[
                &user.0,
                &new.chain_id.0,
                &new.conv_type,
                &new.out_id,
                &new.event_id,
            ],
            conversion_from_row,
        )
        .await?
        .ok_or_else(|| StoreError::backend(Misuse("a conversion could not be read back")))?;
        Ok((stands, inserted))
    }
}
