//! Work-chat data: assembly-list entries and ownership transfers.

use super::{Timestamp, UserId};

/// `use_status` of an assembly-list entry.
pub mod use_status {
    /// Not used by any live work-chat chain.
    pub const NOT_IN_USE: i64 = 0;
    /// Used by a live work-chat chain.
    pub const IN_USE: i64 = 1;
    /// Marked invalid: no chain may choose it.
    pub const INVALID: i64 = 2;
}

/// A work-chat customer-acquisition link of one user's assembly list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Assembly {
    /// Row id (`customer_id` of work-chat chains).
    pub id: i64,
    /// Owner.
    pub user_id: UserId,
    /// The work-chat's id of the link, unique per user.
    pub link_id: String,
    /// Its name.
    pub link_name: String,
    /// The acquisition URL visitors are sent to.
    pub url: String,
    /// Authorization state as the work-chat reports it, free text.
    pub auth_status: String,
    /// 0 not in use, 1 in use (derived from live chains), 2 invalid.
    pub use_status: i64,
    /// When it was added.
    pub created_at: Timestamp,
}

/// One customer's ownership transfer between two work-chat users of a corp.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Transfer {
    /// Row id; the paging cursor follows it.
    pub id: i64,
    /// The user whose data it is.
    pub user_id: UserId,
    /// The corp.
    pub corp_id: String,
    /// The user handing the customer over.
    pub handover_userid: String,
    /// The user taking the customer over.
    pub takeover_userid: String,
    /// The customer.
    pub external_userid: String,
    /// The customer's name.
    pub customer_name: String,
    /// 1 done, 2 waiting, 3 refused, 4 taker at its limit, 5 no transfer record.
    pub status: i64,
    /// When the takeover happened (Unix seconds), 0 if it has not.
    pub takeover_time: Timestamp,
    /// The work-chat's error code, 0 none.
    pub errcode: i64,
    /// Why it failed, if it did.
    pub reason: String,
}
