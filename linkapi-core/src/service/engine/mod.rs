//! The machinery the rules run on: types of their own behind narrow interfaces, no `App`
//! methods and no rule module named (the layers test holds both). What a visit resolves
//! against and how it is counted, and how caches stay true:
//!
//! - [`links`]: the link table, records of links by (domain, code) in rings bounded by bytes.
//! - [`cache`]: the generation rule every cache follows (`Coherence`), and a small coherent
//!   cache of keys and templates.
//! - [`freshness`]: whether this instance's caches may be trusted, from the change feed.
//! - [`classify`]: a visit's user agent (bot or person, device, OS, browser), country and
//!   language, remembered per agent; [`visitors`]: the bot list, and the keyed hash visitors
//!   are counted by; [`rule_match`]: which redirect rule a visit matches.
//! - [`breakdown`]: a chain-day's values per dimension, capped, as the visit pipeline counts
//!   them.
//! - [`ratelimit`]: a token bucket per API key, this instance's share of the limit.
//! - [`visits`]: the visit pipeline, counts aggregated in memory and flushed in batches.

#[cfg(test)]
mod agent_corpus;
pub(crate) mod breakdown;
pub(crate) mod cache;
pub(crate) mod classify;
pub(crate) mod freshness;
pub(crate) mod links;
pub(crate) mod ratelimit;
pub(crate) mod rule_match;
pub(crate) mod visitors;
pub(crate) mod visits;
