//! Channels: the QR entries of a chain's page, each with its own visit count and cap.

use async_trait::async_trait;

use super::{StoreResult, StoredRow};
use crate::model::{ChainId, Channel, ChannelId, Timestamp, VisitCap};

/// A channel as written; the service has validated every field.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChannelInput {
    /// Position in sort order.
    pub sort: i64,
    /// Label.
    pub name: String,
    /// QR image or destination URL.
    pub url: String,
    /// Where the QR code leads, may be empty.
    pub url2: String,
    /// Expiry, 0 never.
    pub expires_at: Timestamp,
    /// Weight.
    pub ratio: i64,
    /// Cap, 0 unlimited.
    pub visit_limit: i64,
    /// Offered to visitors.
    pub enabled: bool,
}

/// One change to a chain's channel list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ChannelEdit {
    /// A new channel.
    Add(ChannelInput),
    /// New values for one of the chain's live channels; its visit count stays.
    Change(ChannelId, ChannelInput),
    /// Removes one of the chain's live channels.
    Remove(ChannelId),
}

/// The columns of a channel row, in the order both backends read them.
pub(crate) const CHANNEL_COLUMNS: &str = "id, chain_id, sort, qrcode_name, url, url2, qrcode_time,
    ratio, visit_limit, status, visit_count";

/// A chain's live channels in sort order (ties by id).
pub(crate) static CHANNELS_OF: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
    format!(
        "SELECT {CHANNEL_COLUMNS} FROM channels
         WHERE chain_id = $1 AND deleted_at IS NULL ORDER BY sort, id"
    )
});

/// A new channel of a chain.
pub(crate) const INSERT_CHANNEL: &str = "INSERT INTO channels (chain_id, sort, qrcode_name, url,
        url2, qrcode_time, ratio, visit_limit, status, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)";

pub(crate) fn channel_from_row(row: &dyn StoredRow) -> StoreResult<Channel> {
    Ok(Channel {
        id: ChannelId(row.int(0)?),
        chain_id: ChainId(row.int(1)?),
        sort: row.int(2)?,
        name: row.text(3)?,
        url: row.text(4)?,
        url2: row.text(5)?,
        expires_at: row.int(6)?,
        ratio: row.int(7)?,
        visit_limit: row.int(8)?,
        enabled: row.int(9)? != 0,
        visit_count: row.int(10)?,
    })
}

/// Channels.
#[async_trait]
pub trait ChannelStore: Send + Sync {
    /// A chain's live channels in sort order (ties by id), with their visit counts.
    async fn channels(&self, chain: ChainId) -> StoreResult<Vec<Channel>>;
}

/// Writes to channels (their settings are written with their chain).
#[async_trait]
pub trait ChannelWrites: Send {
    /// Gives one visit to a channel with `limit` visits (ever, or on the day starting at
    /// `day`, by `cap`) unless it has had them all; counts it when it does. Concurrent takes
    /// of one channel, on any instance, are serialized on its counter, so it never gets more
    /// than `limit`. The visits it has had under its cap with this one (so `limit` exactly
    /// once: for the take that used it up); `None` when it is used up (or gone).
    async fn take_channel_visit(
        &mut self,
        channel: ChannelId,
        cap: VisitCap,
        limit: i64,
        day: Timestamp,
    ) -> StoreResult<Option<i64>>;
}
