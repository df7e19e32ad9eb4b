//! Short chains with `max_visits`: each person's visit is taken in the database, by a
//! conditional update of the chain's count ([`crate::store::VisitLimitWrites`]), so the
//! database decides and a chain never serves more than its limit, whichever instance serves.
//! Bots and `HEAD` take none: they only ask whether one is left. A chain found used up is
//! remembered per instance (until its limit changes), so its later visits are answered 410
//! without asking the database.

use std::collections::HashMap;
use std::sync::Mutex;

use crate::error::Result;
use crate::locks::Unpoisoned;
use crate::model::ChainId;
use crate::service::App;

/// Used-up chains remembered at most; past that the memory starts over (a used-up chain
/// forgotten is asked about once more).
const USED_UP_KEPT: usize = 10_000;

/// Chains found used up, with the limit they were used up under.
#[derive(Default)]
pub(super) struct UsedUp(Mutex<HashMap<ChainId, i64>>);

impl UsedUp {
    fn is_used_up(&self, chain: ChainId, limit: i64) -> bool {
        self.0.lock().unpoisoned().get(&chain) == Some(&limit)
    }

    fn remember(&self, chain: ChainId, limit: i64) {
        let mut used_up = self.0.lock().unpoisoned();
        if used_up.len() >= USED_UP_KEPT {
            used_up.clear();
        }
        used_up.insert(chain, limit);
    }
}

impl App {
    /// Whether a visit of `chain`, which serves `limit` visits in all, may go on: a person's
    /// takes one; a bot's (`bot`) only asks whether one is left.
    ///
    /// # Errors
    /// When the store fails.
    pub(super) async fn take_link_visit(
        &self,
        chain: ChainId,
        limit: i64,
        bot: bool,
    ) -> Result<bool> {
        let used_up = &self.inner.links.used_up;
        if used_up.is_used_up(chain, limit) {
            return Ok(false);
        }
        let taken = self
            .transact(move |tx| {
                Box::pin(async move { tx.take_link_visit(chain, limit, !bot).await })
            })
            .await?;
        if taken.is_none() {
            used_up.remember(chain, limit);
        }
        Ok(taken.is_some())
    }
}
