//! Groups: a user's named sets of chains of one kind.

use async_trait::async_trait;

use super::chains::chain_kind;
use super::{StoreResult, StoredRow};
use crate::model::{ChainKind, Group, GroupId, Timestamp, UserId};

/// A new group.
#[derive(Debug, Clone)]
pub struct NewGroup {
    /// Owner.
    pub user_id: UserId,
    /// Name, unique per user.
    pub name: String,
    /// Kind of chains it holds.
    pub chain_type: ChainKind,
    /// Creation time.
    pub created_at: Timestamp,
}

/// A group with its count of live chains, in the order [`group_from_row`] reads them.
pub(crate) const GROUP_SELECT: &str = "SELECT g.id, g.user_id, g.name, g.chain_type, g.created_at,
        (SELECT count(*) FROM chain_group_members m JOIN chains c ON c.id = m.chain_id
          WHERE m.group_id = g.id AND c.deleted_at IS NULL)
    FROM chain_groups g";

/// One of a user's groups.
pub(crate) static GROUP_BY_ID: std::sync::LazyLock<String> =
    std::sync::LazyLock::new(|| format!("{GROUP_SELECT} WHERE g.user_id = $1 AND g.id = $2"));

/// A user's groups, oldest first.
pub(crate) static GROUPS_OF: std::sync::LazyLock<String> =
    std::sync::LazyLock::new(|| format!("{GROUP_SELECT} WHERE g.user_id = $1 ORDER BY g.id"));

pub(crate) fn group_from_row(row: &dyn StoredRow) -> StoreResult<Group> {
    Ok(Group {
        id: GroupId(row.int(0)?),
        user_id: UserId(row.int(1)?),
        name: row.text(2)?,
        chain_type: chain_kind(row, 3)?,
        created_at: row.int(4)?,
        chain_count: row.int(5)?,
    })
}

/// Groups.
#[async_trait]
pub trait GroupStore: Send + Sync {
    /// One of the user's groups.
    async fn group(&self, user: UserId, id: GroupId) -> StoreResult<Option<Group>>;
    /// The user's groups, oldest first.
    async fn groups(&self, user: UserId) -> StoreResult<Vec<Group>>;
}

/// Writes to groups.
#[async_trait]
pub trait GroupWrites: Send {
    /// Inserts a group.
    async fn insert_group(&mut self, new: NewGroup) -> StoreResult<Group>;
}
