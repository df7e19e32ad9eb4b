//! Work-chat data: each user's assembly list and ownership-transfer records.

use async_trait::async_trait;

use super::{Page, StoreResult, StoredRow};
use crate::model::{Assembly, Timestamp, Transfer, UserId};

/// A new assembly-list entry, or new values for one.
#[derive(Debug, Clone)]
pub struct AssemblyInput {
    /// Owner.
    pub user_id: UserId,
    /// The work-chat's id of the link.
    pub link_id: String,
    /// Name.
    pub link_name: String,
    /// Acquisition URL.
    pub url: String,
    /// Authorization state.
    pub auth_status: String,
    /// Marked invalid.
    pub invalid: bool,
    /// When it was added.
    pub created_at: Timestamp,
}

/// Which transfers a query asks for: one user's, of one corp, optionally of one handover and
/// one takeover user, after a cursor.
#[derive(Debug, Clone)]
pub struct TransferQuery {
    /// The caller.
    pub user_id: UserId,
    /// The corp.
    pub corp_id: String,
    /// Only transfers from this user, when not empty.
    pub handover_userid: String,
    /// Only transfers to this user, when not empty.
    pub takeover_userid: String,
    /// Only rows after this id.
    pub after: i64,
    /// Rows to return.
    pub limit: i64,
}

/// The columns of an assembly-list entry (alias `a`), `use_status` derived: 2 when marked
/// invalid, else 1 when a live work-chat chain of its owner uses it, else 0.
pub(crate) const ASSEMBLY_COLUMNS: &str = "a.id, a.user_id, a.link_id, a.link_name, a.url,
    a.auth_status,
    CASE WHEN a.use_status = 2 THEN 2
         WHEN EXISTS (SELECT 1 FROM chains c WHERE c.user_id = a.user_id AND c.chain_type = 3
                      AND c.customer_id = a.id AND c.deleted_at IS NULL) THEN 1
         ELSE 0 END,
    a.created_at";

/// The columns of a transfer, in [`Transfer`] order.
pub(crate) const TRANSFER_COLUMNS: &str = "id, user_id, corp_id, handover_userid,
    takeover_userid, external_userid, customer_name, status, takeover_time, errcode, reason";

/// One entry of a user's assembly list.
pub(crate) static ASSEMBLY_BY_ID: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
    format!(
        "SELECT {ASSEMBLY_COLUMNS} FROM workchat_assemblies a WHERE a.user_id = $1 AND a.id = $2"
    )
});

/// How many entries a user's assembly list has.
pub(crate) const COUNT_ASSEMBLIES: &str =
    "SELECT count(*) FROM workchat_assemblies WHERE user_id = $1";

/// Transfers of a user and corp after a cursor, of a handover and a takeover user when given.
pub(crate) static TRANSFERS: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
    format!(
        "SELECT {TRANSFER_COLUMNS} FROM workchat_transfers
         WHERE user_id = $1 AND corp_id = $2 AND id > $3
           AND ($4 = '' OR handover_userid = $4) AND ($5 = '' OR takeover_userid = $5)
         ORDER BY id LIMIT $6"
    )
});

/// A page of a user's assembly list, oldest first.
pub(crate) static ASSEMBLIES_PAGE: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
    format!(
        "SELECT {ASSEMBLY_COLUMNS} FROM workchat_assemblies a WHERE a.user_id = $1
         ORDER BY a.id LIMIT $2 OFFSET $3"
    )
});

pub(crate) fn assembly_from_row(row: &dyn StoredRow) -> StoreResult<Assembly> {
    Ok(Assembly {
        id: row.int(0)?,
        user_id: UserId(row.int(1)?),
        link_id: row.text(2)?,
        link_name: row.text(3)?,
        url: row.text(4)?,
        auth_status: row.text(5)?,
        use_status: row.int(6)?,
        created_at: row.int(7)?,
    })
}

pub(crate) fn transfer_from_row(row: &dyn StoredRow) -> StoreResult<Transfer> {
    Ok(Transfer {
        id: row.int(0)?,
        user_id: UserId(row.int(1)?),
        corp_id: row.text(2)?,
        handover_userid: row.text(3)?,
        takeover_userid: row.text(4)?,
        external_userid: row.text(5)?,
        customer_name: row.text(6)?,
        status: row.int(7)?,
        takeover_time: row.int(8)?,
        errcode: row.int(9)?,
        reason: row.text(10)?,
    })
}

/// Records a transfer, or replaces the one for the same corp, handover user and customer.
pub(crate) static PUT_TRANSFER: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
    format!(
        "INSERT INTO workchat_transfers (user_id, corp_id, handover_userid,
            takeover_userid, external_userid, customer_name, status, takeover_time,
            errcode, reason, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
         ON CONFLICT (user_id, corp_id, handover_userid, external_userid) DO UPDATE
         SET takeover_userid = excluded.takeover_userid,
             customer_name = excluded.customer_name, status = excluded.status,
             takeover_time = excluded.takeover_time, errcode = excluded.errcode,
             reason = excluded.reason
         RETURNING {TRANSFER_COLUMNS}"
    )
});

/// Adds an assembly-list entry or changes the user's one with its `link_id`.
pub(crate) const PUT_ASSEMBLY: &str =
    "INSERT INTO workchat_assemblies (user_id, link_id, link_name, url,
        auth_status, use_status, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7)
     ON CONFLICT (user_id, link_id) DO UPDATE SET link_name = excluded.link_name,
        url = excluded.url, auth_status = excluded.auth_status,
        use_status = excluded.use_status
     RETURNING id";

/// Work-chat data: assembly lists and transfer records.
#[async_trait]
pub trait WorkchatStore: Send + Sync {
    /// One entry of the user's assembly list.
    async fn assembly(&self, user: UserId, id: i64) -> StoreResult<Option<Assembly>>;
    /// A page of the user's assembly list, oldest first.
    async fn assemblies(
        &self,
        user: UserId,
        offset: i64,
        limit: i64,
    ) -> StoreResult<Page<Assembly>>;
    /// Transfers matching `query`, by id.
    async fn transfers(&self, query: &TransferQuery) -> StoreResult<Vec<Transfer>>;
}

/// Writes to work-chat data.
#[async_trait]
pub trait WorkchatWrites: Send {
    /// Adds an entry to a user's assembly list, or, when the user has one with its `link_id`,
    /// changes it. Returns it as it now stands.
    async fn put_assembly(&mut self, entry: &AssemblyInput) -> StoreResult<Assembly>;
    /// Records a transfer, or, when the user has one for the same corp, handover user and
    /// customer, replaces it (keeping its id). Returns it as it now stands.
    async fn put_transfer(&mut self, transfer: &Transfer, at: Timestamp) -> StoreResult<Transfer>;
}
