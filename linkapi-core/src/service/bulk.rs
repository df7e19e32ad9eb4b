//! Bulk creation of short chains (`POST /chains/bulk`): up to [`MAX_BULK_CHAINS`] items in one
//! request, each created or refused on its own, all in one transaction.
//!
//! Every item is checked as `POST /chains` checks it; one that fails (a bad target, a group
//! that is not the caller's, a custom code taken, or given twice in the request) fails alone.
//! The transaction first holds the caller's counter of today's creations, so the room left in
//! the daily quota is known and stays theirs until the commit: items past it fail with
//! `quota_exceeded`, and concurrent creates (bulk or single, on any instance) wait their turn,
//! so the quota is exact. Everything reported created is committed before the answer, and
//! under an idempotency key the answer is recorded in the same transaction.

use std::collections::{HashMap, VecDeque};

use super::chain_checks::{code_taken, no_free_code, random_codes};
use super::chains::NewShortChain;
use super::idempotency::{self, Receipt};
use super::quota::quota_in_force;
use super::webhooks;
use super::{App, BodyError, Principal};
use crate::error::{Error, Result};
use crate::model::ChainView;
use crate::model::EventData;
use crate::model::{Chain, ChainKind, DomainId, EventType, GroupId, PageViews};
use crate::store::{Invalidation, NewChain};

use crate::model::limits::MAX_BULK_CHAINS;

/// How one item of a bulk create ended, in the order the items were given.
pub type BulkItem = std::result::Result<ChainView, ItemError>;

/// Why an item was not created: the short name and message `POST /chains` would answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ItemError {
    /// The error's stable short name (`code_taken`, `quota_exceeded`, ...).
    pub code: &'static str,
    /// What is wrong, for a person.
    pub message: String,
}

impl From<Error> for ItemError {
    fn from(err: Error) -> Self {
        ItemError {
            code: err.code(),
            message: err.to_string(),
        }
    }
}

/// An item that passed the checks, waiting for its insert: where its chain is among the
/// accepted ones, its code (the custom one, or the random one it is trying) and the random
/// codes it has left.
struct Pending {
    index: usize,
    at: usize,
    code: String,
    custom: bool,
    codes: Box<dyn Iterator<Item = String> + Send>,
}

/// What the transaction decided for an item that passed the checks.
#[derive(Debug, Clone)]
enum Decided {
    Created(Box<Chain>),
    CodeTaken(String),
    OverQuota,
    NoFreeCode,
}

impl App {
    /// Creates the caller's short chains from `items`; answers one result per item, in order,
    /// and records that answer on `receipt` in the same transaction.
    ///
    /// # Errors
    /// 400 for no items or more than [`MAX_BULK_CHAINS`]; a store failure fails the whole
    /// request (and creates nothing). Anything wrong with one item is that item's result.
    pub async fn create_short_chains(
        &self,
        who: &Principal,
        items: Vec<NewShortChain>,
        receipt: Option<&Receipt<Vec<BulkItem>>>,
    ) -> Result<Vec<BulkItem>> {
        if items.is_empty() {
            return Err(Error::bad_request(
                "invalid_field",
                "chains: give at least one chain",
            ));
        }
        if items.len() > MAX_BULK_CHAINS {
            return Err(Error::bad_request(
                "too_many_chains",
                format!(
                    "chains: {} items, at most {MAX_BULK_CHAINS} in one request",
                    items.len()
                ),
            ));
        }
        let now = self.now();
        let mut results: Vec<Option<BulkItem>> = (0..items.len()).map(|_| None).collect();
        let mut groups: HashMap<GroupId, GroupId> = HashMap::new();
        let mut codes: HashMap<(DomainId, String), usize> = HashMap::new();
        let mut accepted: Vec<(usize, NewChain, Option<String>)> = Vec::new();
        for (index, input) in items.into_iter().enumerate() {
            let group = input.group_id;
            let (mut new, code) = match self.short_chain_record(who, input, now) {
                Ok(checked) => checked,
                Err(err) => {
                    results[index] = Some(Err(err.into()));
                    continue;
                }
            };
            if let Some(group) = group {
                // One read per distinct group; a refused group is read again, which costs only
                // requests that name it.
                let checked = match groups.get(&group) {
                    Some(id) => Ok(*id),
                    None => self.group_for_chain(who, group, ChainKind::Short).await,
                };
                match checked {
                    Ok(id) => {
                        groups.insert(group, id);
                        new.group_ids = vec![id];
                    }
                    Err(err) => {
                        results[index] = Some(Err(err.into()));
                        continue;
                    }
                }
            }
            if let Some(code) = &code {
                if let Some(first) = codes.get(&(new.domain_id, code.clone())) {
                    results[index] = Some(Err(ItemError {
                        code: "duplicate_code",
                        message: format!(
                            "code {code:?} is also asked for by item {first} of this request"
                        ),
                    }));
                    continue;
                }
                codes.insert((new.domain_id, code.clone()), index);
            }
            accepted.push((index, new, code));
        }

        let (day, retry_after) = self.quota_day(now);
        let (user, default_quota) = (who.user_id, self.config().daily_create_quota);
        let code_length = self.config().code_length;
        let receipt = receipt.cloned();
        // Shared by the runs of the transaction: each insert takes a copy of its chain, so at
        // most the batch being inserted is held twice.
        let accepted = std::sync::Arc::new(accepted);
        let results = self
            .transact_checked(move |tx| {
                let accepted = accepted.clone();
                let mut results = results.clone();
                let receipt = receipt.clone();
                Box::pin(async move {
                    idempotency::claim(receipt.as_ref(), tx, now).await?;
                    // Adding nothing holds the counter: the room below stays ours until commit.
                    let used = tx.add_creations(user, day, 0).await?;
                    let limit = quota_in_force(tx.user(user).await?.as_ref(), default_quota);
                    let mut room = (limit - used).max(0);
                    let mut decided = Vec::with_capacity(accepted.len());
                    // In input order, as many at a time as the room left allows: a chain
                    // whose random code was taken goes again at the front with another.
                    let mut queue: VecDeque<Pending> = accepted
                        .iter()
                        .enumerate()
                        .map(|(at, (index, _, code))| {
                            let mut codes = random_codes(code_length);
                            Pending {
                                index: *index,
                                at,
                                code: code.clone().or_else(|| codes.next()).unwrap_or_default(),
                                custom: code.is_some(),
                                codes: Box::new(codes),
                            }
                        })
                        .collect();
                    while !queue.is_empty() {
                        if room == 0 {
                            decided.extend(queue.drain(..).map(|p| (p.index, Decided::OverQuota)));
                            break;
                        }
                        let take = usize::try_from(room).unwrap_or(usize::MAX).min(queue.len());
                        let batch: Vec<Pending> = queue.drain(..take).collect();
                        let chains = batch
                            .iter()
                            .map(|p| NewChain {
                                code: p.code.clone(),
                                ..accepted[p.at].1.clone()
                            })
                            .collect();
                        let inserted = tx.insert_chains_if_free(chains).await?;
                        let mut again = Vec::new();
                        for (mut pending, chain) in batch.into_iter().zip(inserted) {
                            match chain {
                                Some(chain) => {
                                    room -= 1;
                                    decided
                                        .push((pending.index, Decided::Created(Box::new(chain))));
                                }
                                None if pending.custom => {
                                    decided.push((pending.index, Decided::CodeTaken(pending.code)));
                                }
                                None => match pending.codes.next() {
                                    Some(code) => {
                                        pending.code = code;
                                        again.push(pending);
                                    }
                                    None => decided.push((pending.index, Decided::NoFreeCode)),
                                },
                            }
                        }
                        for pending in again.into_iter().rev() {
                            queue.push_front(pending);
                        }
                    }
                    let created = decided
                        .iter()
                        .filter(|(_, d)| matches!(d, Decided::Created(_)))
                        .count() as i64;
                    if created > 0 {
                        tx.add_creations(user, day, created).await?;
                        tx.publish_after_commit(Invalidation::MissingLinks).await?;
                    }
                    for (index, outcome) in decided {
                        results[index] = Some(match outcome {
                            Decided::Created(chain) => Ok(ChainView {
                                status: chain.status_at(now),
                                chain: *chain,
                                views: PageViews::default(),
                            }),
                            Decided::CodeTaken(code) => Err(code_taken(&code).into()),
                            Decided::OverQuota => {
                                Err(Error::QuotaExceeded { limit, retry_after }.into())
                            }
                            Decided::NoFreeCode => Err(no_free_code().into()),
                        });
                    }
                    let results: Vec<BulkItem> = results
                        .into_iter()
                        .map(|result| {
                            result.unwrap_or_else(|| {
                                Err(Error::Internal("a bulk item was not decided".into()).into())
                            })
                        })
                        .collect();
                    let to = tx
                        .webhook_subscribers(user, EventType::ChainCreated)
                        .await?;
                    if !to.is_empty() {
                        for view in results.iter().filter_map(|result| result.as_ref().ok()) {
                            let data = EventData::Chain(view);
                            webhooks::emit_to(tx, &to, user, EventType::ChainCreated, now, data)
                                .await?;
                        }
                    }
                    idempotency::record(receipt.as_ref(), tx, &results).await?;
                    Ok(results)
                })
            })
            .await;
        self.events_committed(user);
        results.map_err(|err| match err {
            BodyError::Rule(err) => err,
            BodyError::Store(err) => err.into(),
        })
    }
}
