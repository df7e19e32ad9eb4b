//! Plain short-chain creates that arrive at once, inserted together: where each write commits
//! on its own (PostgreSQL), one create is two statements and a durable commit, and the
//! database's CPU and its log flushes bound how many a second it takes. Creates waiting at the
//! same moment are taken as one batch: every owner's daily quota is reserved for all of
//! their creates in one statement, the rows go in one statement and one durable commit, and
//! every caller gets its own answer when that commit is done.
//!
//! The batching is the engine's ([`Batcher`]): a lone create is taken at once, so an idle
//! instance answers it as fast as before. The rules are those of a create alone
//! ([`App::insert_new_chain_alone`]): a reservation is exact under the counter row's lock, an
//! owner without room for all of their waiting creates has each of them counted on its own
//! (so exactly as many as fit are made), a custom code that is taken fails its create alone,
//! a random code that is taken is retried with another, and a create that surely did not
//! happen gives its place in the quota back, one interrupted by a store failure does not (it
//! may have committed).

use std::collections::HashMap;
use std::sync::Weak;

use tokio::sync::oneshot;

use super::chain_checks::CreatedChain;
use super::chain_checks::{code_taken, no_free_code, random_codes};
use super::engine::batcher::Batcher;
use super::{App, Inner};
use crate::error::{Error, Result};
use crate::model::ChainView;
use crate::model::{PageViews, Timestamp, UserId};
use crate::store::{Invalidation, NewChain};

/// Most creates in one batch: one statement's worth of rows.
const MAX_BATCH: usize = 512;
/// Creates waiting for a batch at most; a caller past it waits to be queued.
const QUEUE: usize = 4096;

/// A create waiting for its batch.
struct Waiting {
    new: NewChain,
    /// Whether `new.code` is the caller's own (else a random one, replaced when taken).
    custom: bool,
    answer: oneshot::Sender<Result<CreatedChain>>,
}

/// Where plain creates wait for their batch.
pub(crate) struct PlainCreates(Batcher<Waiting>);

impl PlainCreates {
    /// Starts the batching task of `app` (held weakly: it ends with the app).
    pub(super) fn start(app: Weak<Inner>) -> PlainCreates {
        PlainCreates(Batcher::start(MAX_BATCH, QUEUE, move |batch| {
            let inner = app.upgrade()?;
            Some(async move { App { inner }.insert_batch(batch).await })
        }))
    }
}

/// A create of a batch whose owner's quota is reserved, on its way into the store.
struct Reserved {
    waiting: Waiting,
    codes: Box<dyn Iterator<Item = String> + Send>,
    created_today: i64,
    day: Timestamp,
}

impl App {
    /// Creates `new` (a short chain with no groups, jump settings or channels, under no
    /// idempotency key) in the next batch, with `new.code` if `custom`, else a random code.
    ///
    /// # Errors
    /// As [`App::insert_new_chain_alone`].
    pub(crate) async fn insert_plain_batched(
        &self,
        queue: &PlainCreates,
        new: NewChain,
        custom: bool,
    ) -> Result<CreatedChain> {
        let (answer, answered) = oneshot::channel();
        let waiting = Waiting {
            new,
            custom,
            answer,
        };
        if let Err(waiting) = queue.0.send(waiting).await {
            // The batching task is gone (the app is shutting down): create it alone.
            let code = waiting.custom.then(|| waiting.new.code.clone());
            return self.insert_new_chain_alone(waiting.new, code, None).await;
        }
        answered
            .await
            .unwrap_or_else(|_| Err(Error::Internal("a batched create was dropped".into())))
    }

    /// Reserves each owner's quota for their creates of `batch`, inserts them together, and
    /// answers each; owners without room for all of theirs have each create counted alone.
    async fn insert_batch(&self, batch: Vec<Waiting>) {
        let mut by_owner: HashMap<(UserId, Timestamp), Vec<Waiting>> = HashMap::new();
        for waiting in batch {
            let (day, _) = self.quota_day(waiting.new.created_at);
            by_owner
                .entry((waiting.new.user_id, day))
                .or_default()
                .push(waiting);
        }
        let code_length = self.config().code_length;
        let (asks, owners): (Vec<_>, Vec<_>) = by_owner
            .into_iter()
            .map(|((user, day), creates)| ((user, day, creates.len() as i64), (day, creates)))
            .unzip();
        // Every owner's counters in one statement, whatever the number of owners.
        let outcomes: Vec<Result<Option<i64>>> = match self.reserve_each(asks).await {
            Ok(granted) => granted.into_iter().map(Ok).collect(),
            Err(err) => {
                let err = Error::from(err);
                owners.iter().map(|_| Err(copy_of(&err))).collect()
            }
        };
        let mut reserved = Vec::new();
        for ((day, creates), outcome) in owners.into_iter().zip(outcomes) {
            match outcome {
                Ok(Some(count)) => {
                    let first = count - creates.len() as i64;
                    for (position, mut waiting) in creates.into_iter().enumerate() {
                        let mut codes = random_codes(code_length);
                        if !waiting.custom {
                            waiting.new.code = codes.next().unwrap_or_default();
                        }
                        reserved.push(Reserved {
                            waiting,
                            codes: Box::new(codes),
                            created_today: first + position as i64 + 1,
                            day,
                        });
                    }
                }
                // Not room for all of them: each is counted on its own, so as many as fit
                // are made, exactly.
                Ok(None) => {
                    for waiting in creates {
                        let app = self.clone();
                        tokio::spawn(async move {
                            let code = waiting.custom.then(|| waiting.new.code.clone());
                            let created = app.insert_new_chain_alone(waiting.new, code, None).await;
                            let _ = waiting.answer.send(created);
                        });
                    }
                }
                Err(err) => {
                    for waiting in creates {
                        let _ = waiting.answer.send(Err(copy_of(&err)));
                    }
                }
            }
        }
        self.insert_reserved(reserved).await;
    }

    /// Inserts creates whose places are reserved, in rounds: a random code that is taken is
    /// tried again with another in the next round.
    async fn insert_reserved(&self, mut pending: Vec<Reserved>) {
        let mut given_back: HashMap<(UserId, Timestamp), i64> = HashMap::new();
        while !pending.is_empty() {
            let rows = pending.iter().map(|r| r.waiting.new.clone()).collect();
            let inserted = match self.store().insert_plain_chains(rows).await {
                Ok(inserted) => inserted,
                Err(err) => {
                    // The statement may have committed: the places stay used.
                    let err = Error::from(err);
                    for reserved in pending {
                        let _ = reserved.waiting.answer.send(Err(copy_of(&err)));
                    }
                    break;
                }
            };
            let mut links = Vec::new();
            let mut again = Vec::new();
            for (mut reserved, chain) in pending.into_iter().zip(inserted) {
                let now = reserved.waiting.new.created_at;
                let answer = match chain {
                    Some(chain) => {
                        links.push(Invalidation::Link {
                            domain: chain.domain.id,
                            code: chain.code.clone(),
                        });
                        Ok(CreatedChain {
                            view: ChainView {
                                status: chain.status_at(now),
                                chain,
                                views: PageViews::default(),
                            },
                            created_today: reserved.created_today,
                        })
                    }
                    None if reserved.waiting.custom => Err(code_taken(&reserved.waiting.new.code)),
                    None => match reserved.codes.next() {
                        Some(code) => {
                            reserved.waiting.new.code = code;
                            again.push(reserved);
                            continue;
                        }
                        None => Err(no_free_code()),
                    },
                };
                if answer.is_err() {
                    *given_back
                        .entry((reserved.waiting.new.user_id, reserved.day))
                        .or_default() += 1;
                }
                let _ = reserved.waiting.answer.send(answer);
            }
            self.applied(&links).await;
            pending = again;
        }
        for ((user, day), n) in given_back {
            self.release_creations(user, day, n).await;
        }
    }
}

/// An error for one more caller: every caller of a batch that met it is told.
fn copy_of(err: &Error) -> Error {
    match err {
        Error::Unavailable { retry_after } => Error::Unavailable {
            retry_after: *retry_after,
        },
        other => Error::Internal(other.to_string().into()),
    }
}
