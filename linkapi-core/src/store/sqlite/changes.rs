//! The change feed on SQLite: one process writes the file, so the writer itself is the only
//! one to tell.

use async_trait::async_trait;

use super::SqliteTx;
use crate::store::{Change, ChangeWrites, StoreResult};

#[async_trait]
impl ChangeWrites for SqliteTx<'_> {
    async fn publish(&mut self, change: Change) -> StoreResult<()> {
        self.changes.push(change);
        Ok(())
    }
}
