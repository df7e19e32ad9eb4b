//! Ad-conversion events.

use super::{ChainId, Timestamp};

/// A conversion event, as recorded (or, given to `ConversionWrites::insert_conversion`, as
/// reported; the service has validated every field).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Conversion {
    /// Unique, time-sortable id.
    pub event_id: String,
    /// The chain it is attributed to.
    pub chain_id: ChainId,
    /// Business event.
    pub conv_type: String,
    /// The caller's idempotency token.
    pub out_id: Option<String>,
    /// Ad-click attribution id.
    pub clickid: Option<String>,
    /// Ad platform named in the body.
    pub platform: Option<String>,
    /// Ad platform named in the path.
    pub ad_platform: String,
    /// Caller-side user id.
    pub external_userid: Option<String>,
    /// Monetary value in cents.
    pub value_cents: Option<i64>,
    /// When it was first reported.
    pub created_at: Timestamp,
}
