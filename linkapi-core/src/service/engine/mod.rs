//! The machinery the rules run on: types of their own behind narrow interfaces, no `App`
//! methods and no rule module named (the layers test holds both). What a visit resolves
//! against and how it is counted, and how caches stay true:
//!
//! - [`batcher`]: work that arrives at once taken in batches, one batch after another.
//! - [`links`]: the link table, records of links by (domain, code) in rings bounded by bytes.
//! - [`cache`]: the generation rule every cache follows (`Coherence`), and a small coherent
//!   cache of keys and templates.
//! - [`freshness`]: whether this instance's caches may be trusted, from the change feed.
//! - [`idempotency`]: idempotency keys, claimed and answered inside a create's transaction.
//! - [`classify`]: a visit's user agent (bot or person, device, OS, browser), country and
//!   language, remembered per agent; [`visitors`]: the bot list, and the keyed hash visitors
//!   are counted by; [`rule_match`]: which redirect rule a visit matches.
//! - [`breakdown`]: a chain-day's values per dimension, capped, as the visit pipeline counts
//!   them.
//! - [`ratelimit`]: a token bucket per API key, this instance's share of the limit.
//! - [`rotation`]: where each page chain's channel rotation stands on this instance.
//! - [`visits`]: the visit pipeline, counts aggregated in memory and flushed in batches.

#[cfg(test)]
mod agent_corpus;
pub(crate) mod batcher;
pub(crate) mod breakdown;
pub(crate) mod cache;
pub(crate) mod classify;
pub(crate) mod freshness;
pub(crate) mod idempotency;
pub(crate) mod links;
pub(crate) mod ratelimit;
pub(crate) mod rotation;
pub(crate) mod rule_match;
pub(crate) mod visitors;
pub(crate) mod visits;

use crate::error::Error;
use crate::store::StoreError;

/// How a transaction body with a rule of its own fails (see `App::transact_checked`).
#[derive(Debug)]
pub(crate) enum BodyError {
    /// The store failed; passed on as it is, so that contention is retried.
    Store(StoreError),
    /// The rule failed: the transaction stops and the caller gets this error.
    Rule(Error),
}

impl From<StoreError> for BodyError {
    fn from(err: StoreError) -> Self {
        BodyError::Store(err)
    }
}

impl From<BodyError> for Error {
    fn from(err: BodyError) -> Self {
        match err {
            BodyError::Rule(err) => err,
            BodyError::Store(err) => err.into(),
        }
    }
}
