//! Conversions: ad-conversion events reported for a chain, recorded once per idempotency key.

use async_trait::async_trait;

use super::{Page, StoreResult, StoredRow};
use crate::model::{ChainId, Conversion, UserId};

/// The columns of a conversion, in the order [`conversion_from_row`] reads them.
pub(crate) const CONVERSION_COLUMNS: &str =
    "event_id, chain_id, conv_type, out_id, clickid, platform,
    ad_platform, external_userid, value_cents, created_at";

pub(crate) fn conversion_from_row(row: &dyn StoredRow) -> StoreResult<Conversion> {
    Ok(Conversion {
        event_id: row.text(0)?,
        chain_id: ChainId(row.int(1)?),
        conv_type: row.text(2)?,
        out_id: row.opt_text(3)?,
        clickid: row.opt_text(4)?,
        platform: row.opt_text(5)?,
        ad_platform: row.text(6)?,
        external_userid: row.opt_text(7)?,
        value_cents: row.opt_int(8)?,
        created_at: row.int(9)?,
    })
}

/// How many conversions a user reported for a chain.
pub(crate) const COUNT_CONVERSIONS: &str =
    "SELECT count(*) FROM conversions WHERE user_id = $1 AND chain_id = $2";

/// Records a conversion unless one with the same (user, chain, type, `out_id`) exists.
pub(crate) const INSERT_CONVERSION: &str = "INSERT INTO conversions (event_id, user_id, chain_id,
        conv_type, out_id, clickid, platform, ad_platform, external_userid, value_cents,
        created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
     ON CONFLICT (user_id, chain_id, conv_type, out_id) DO NOTHING";

/// A page of the conversions a user reported for a chain, newest first.
pub(crate) static CONVERSIONS_PAGE: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
    format!(
        "SELECT {CONVERSION_COLUMNS} FROM conversions WHERE user_id = $1 AND chain_id = $2
         ORDER BY event_id DESC LIMIT $3 OFFSET $4"
    )
});

/// Conversions.
#[async_trait]
pub trait ConversionStore: Send + Sync {
    /// A page of the conversions the user reported for a chain, newest first.
    async fn conversions(
        &self,
        user: UserId,
        chain: ChainId,
        offset: i64,
        limit: i64,
    ) -> StoreResult<Page<Conversion>>;
}

/// Writes to conversions.
#[async_trait]
pub trait ConversionWrites: Send {
    /// Records `event` for `user` unless one with the same (user, chain, type, `out_id`)
    /// exists, as the unique index decides (events without `out_id` never collide). Returns
    /// the event that stands and whether this call inserted it.
    async fn insert_conversion(
        &mut self,
        user: UserId,
        event: Conversion,
    ) -> StoreResult<(Conversion, bool)>;
}
