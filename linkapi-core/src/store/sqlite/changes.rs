//! The change feed on SQLite: one process writes the file, so the writer itself is the only
//! one to tell.

use async_trait::async_trait;

use super::SqliteTx;
use crate::store::{Invalidation, InvalidationWrites, StoreResult};

#[async_trait]
impl InvalidationWrites for SqliteTx<'_> {
    async fn publish(&mut self, change: Invalidation) -> StoreResult<()> {
        self.changes.push(change);
        Ok(())
    }

    async fn publish_after_commit(&mut self, change: Invalidation) -> StoreResult<()> {
        // One process: its changes are applied right after the commit, whichever way.
        self.publish(change).await
    }
}
