//! The visits a short chain with `max_visits` has served, counted in its row.

use async_trait::async_trait;

use crate::model::ChainId;
use crate::store::StoreResult;

/// Writes to a short chain's count of visits taken against its `max_visits`.
#[async_trait]
pub trait VisitLimitWrites: Send {
    /// Gives one visit to a chain that serves `limit` in all, unless it has served them all;
    /// counts it when `count` (a person's visit: a bot's asks only whether one is left).
    /// Concurrent takes of one chain, on any instance, are serialized on its row, so it never
    /// serves more than `limit`. The visits taken with this one; `None` when none is left
    /// (or the chain is gone).
    async fn take_link_visit(
        &mut self,
        chain: ChainId,
        limit: i64,
        count: bool,
    ) -> StoreResult<Option<i64>>;
}

/// [`VisitLimitWrites::take_link_visit`] as one conditional update: `$1` what a visit adds
/// (1, or 0 for a bot's), `$2` the chain, `$3` its limit (numbered as they first appear, which
/// is how SQLite binds them). Under PostgreSQL's READ COMMITTED a
/// concurrent take waits for the row and re-checks the condition against the committed count.
pub(crate) const TAKE_LINK_VISIT: &str = "UPDATE chains SET visits_taken = visits_taken + $1
     WHERE id = $2 AND deleted_at IS NULL AND visits_taken < $3
     RETURNING visits_taken";
