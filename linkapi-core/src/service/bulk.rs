//! Bulk creation of short chains (`POST /chains/bulk`): up to [`MAX_BULK_CHAINS`] items in one
//! request, each created or refused on its own, committed in runs.
//!
//! Every item is checked as `POST /chains` checks it; one that fails (a bad target, a group
//! that is not the caller's, a custom code taken, or given twice in the request) fails alone.
//! Items go in runs, each one transaction sized to take about [`RUN_TAKES`] (from how long the
//! last one took, at most [`RUN_BYTES`] of text), so a large request shares the database
//! (SQLite's one writer) with everyone else's writes instead of holding it for seconds. A run
//! first holds the caller's counter of today's creations, so the room left in the daily quota
//! is known and stays theirs until its commit: items past it fail with `quota_exceeded`, and
//! concurrent creates (bulk or single, on any instance) wait their turn, so the quota is
//! exact. Everything reported created is committed before the answer.
//!
//! The answer is written as the runs go, each run's results encoded once they are decided
//! ([`BulkAnswer`]), so the chains themselves are not held to the end. Under an idempotency
//! key each run records its part of the answer in its own transaction ([`RunReceipt`]): a
//! retry after the request stopped (a lost connection, a process killed) resumes after the
//! last run that committed, and a repeat after the end gets the same bytes.

use std::collections::{HashMap, VecDeque};
use std::sync::Arc;
use std::time::{Duration, Instant};

use bytes::Bytes;

use super::chain_checks::{code_taken, no_free_code, random_codes};
use super::chains::NewShortChain;
use super::engine::idempotency::RunReceipt;
use super::quota;
use super::webhooks;
use super::{App, BodyError, Principal};
use crate::error::{Error, Result, names};
use crate::model::limits::MAX_BULK_CHAINS;
use crate::model::{
    Chain, ChainKind, ChainView, DomainId, EventData, EventType, GroupId, PageViews, Timestamp,
};
use crate::store::{AnswerPart, Invalidation, NewChain, Tx};

/// How long a run should take: others' writes wait at most about this long behind a bulk
/// create. Runs are sized to it from how long the last one took ([`next_run_items`]).
const RUN_TAKES: Duration = Duration::from_millis(20);
/// Items of the first run: the fewest, since nothing says yet how long an item takes; the
/// runs double from there. A first run of 100 held the writer 86 ms at 20,000 chains in a
/// test build, four times a run's time, and others' creates waited behind it.
pub(crate) const FIRST_RUN_ITEMS: usize = *RUN_ITEMS.start();
/// Items one run takes at least and at most.
const RUN_ITEMS: std::ops::RangeInclusive<usize> = 10..=1000;
/// Bytes of targets and rules one run takes at most, whatever its time: what a run's
/// statements and its transaction's copies hold.
pub(crate) const RUN_BYTES: usize = 4 << 20;
/// Items checked between offers of the serving thread to other requests.
pub(crate) const YIELD_EVERY: usize = 16;

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
        ItemError::from(&err)
    }
}

impl From<&Error> for ItemError {
    fn from(err: &Error) -> Self {
        ItemError {
            code: err.code(),
            message: err.to_string(),
        }
    }
}

/// Encodes one run's results (each item's index and result, in order) as their bytes in the
/// answer, preceded by a separator unless they are the first (`true`).
pub type EncodeItems = Arc<dyn Fn(&[(usize, BulkItem)], bool) -> Vec<u8> + Send + Sync>;

/// Encodes what comes before a bulk answer's items and after them, for so many created and
/// failed.
pub type EncodeFrame = Box<dyn Fn(usize, usize) -> (Vec<u8>, Vec<u8>) + Send + Sync>;

/// How a bulk create's answer is written, given by the caller (who knows the wire): the
/// items' results run by run, and what goes around them once the counts are known. The answer
/// is `frame`'s head, then every run's `items`, then `frame`'s tail.
pub struct BulkAnswer {
    /// The results of one run.
    pub items: EncodeItems,
    /// What comes before the items and after them.
    pub frame: EncodeFrame,
    /// The answer's HTTP status.
    pub status: u16,
}

/// A bulk create's answer, in the pieces it was written in.
#[derive(Debug, Clone)]
pub struct BulkAnswered {
    /// The HTTP status.
    pub status: u16,
    /// The answer's bytes, in order.
    pub pieces: Vec<Bytes>,
    /// Items created.
    pub created: usize,
}

/// An item that passed the checks, waiting for its insert: where its chain is among the
/// run's accepted ones, its code (the custom one, or the random one it is trying) and the
/// random codes it has left.
struct Pending {
    index: usize,
    at: usize,
    code: String,
    custom: bool,
    codes: Box<dyn Iterator<Item = String> + Send>,
}

/// What the transaction decided for an item that passed the checks.
#[derive(Debug, Clone)]
pub(crate) enum Decided {
    Created(Box<Chain>),
    CodeTaken(String),
    OverQuota,
    NoFreeCode,
}

/// One run: its items' results so far (`None` for those waiting for the insert), and the
/// accepted items (their index, chain and custom code).
#[derive(Default)]
struct Run {
    first: usize,
    results: Vec<(usize, Option<BulkItem>)>,
    accepted: Vec<(usize, NewChain, Option<String>)>,
}

/// What a request has answered so far.
struct Progress {
    pieces: Vec<Bytes>,
    next_item: usize,
    next_part: i64,
    created: usize,
    claimed_at: Timestamp,
}

impl App {
    /// Creates the caller's short chains from `items`, in runs; answers as `answer` writes
    /// it, each run's part recorded on `receipt` in the run's transaction.
    ///
    /// # Errors
    /// 400 for no items or more than [`MAX_BULK_CHAINS`]; 409 `idempotency_key_in_use` when
    /// another request holds `receipt`'s key. A store failure before any run committed fails
    /// the request (and creates nothing); after, under a key, too (a retry resumes); without a
    /// key the items not committed fail with it, each in its place. Anything wrong with one
    /// item is that item's result.
    pub async fn create_short_chains(
        &self,
        who: &Principal,
        items: Vec<NewShortChain>,
        answer: &BulkAnswer,
        receipt: Option<&RunReceipt>,
    ) -> Result<BulkAnswered> {
        if items.is_empty() {
            return Err(Error::bad_request(
                names::INVALID_FIELD,
                "chains: give at least one chain",
            ));
        }
        if items.len() > MAX_BULK_CHAINS {
            return Err(Error::bad_request(
                names::TOO_MANY_CHAINS,
                format!(
                    "chains: {} items, at most {MAX_BULK_CHAINS} in one request",
                    items.len()
                ),
            ));
        }
        let now = self.now();
        let total = items.len();
        let mut progress = self.resume(receipt, now).await?;
        // From here the key is this request's until the end: if it stops before (a failure,
        // or its client gone and this future dropped), a retry may take over at once.
        let mut hold = Hold { app: self, receipt };
        // Custom codes asked for so far, for `duplicate_code`: those of the runs a resumed
        // request committed count too.
        let mut codes: HashMap<(DomainId, String), usize> = HashMap::new();
        for (index, input) in items.iter().enumerate().take(progress.next_item) {
            if let (Some(code), Ok(domain)) =
                (&input.code, self.domain_for_create(who, input.domain_id))
            {
                codes.entry((domain, code.clone())).or_insert(index);
            }
        }
        let mut groups: HashMap<GroupId, GroupId> = HashMap::new();
        let mut inputs = items
            .into_iter()
            .enumerate()
            .skip(progress.next_item)
            .peekable();
        let mut run_items = FIRST_RUN_ITEMS;
        while inputs.peek().is_some() {
            let mut run = Run {
                first: progress.next_item,
                ..Run::default()
            };
            let mut bytes = 0;
            while run.results.len() < run_items && bytes < RUN_BYTES {
                let Some((index, input)) = inputs.next() else {
                    break;
                };
                // The checks are the request's own work on a serving thread: others queued
                // behind it on that thread get their turn every few items.
                if run.results.len() % YIELD_EVERY == YIELD_EVERY - 1 {
                    tokio::task::yield_now().await;
                }
                bytes += input.target_url.len()
                    + input
                        .rules
                        .iter()
                        .map(|r| r.target_url.len())
                        .sum::<usize>();
                let checked = self
                    .check_item(who, input, now, index, &mut codes, &mut groups)
                    .await;
                match checked {
                    Ok((new, code)) => {
                        run.accepted.push((index, new, code));
                        run.results.push((index, None));
                    }
                    Err(err) => run.results.push((index, Some(Err(err)))),
                }
            }
            let items = run.results.len();
            let first_part = progress.pieces.is_empty();
            let started = Instant::now();
            let committed = self
                .commit_run(who, run, now, answer, receipt, &progress)
                .await;
            run_items = next_run_items(items, started.elapsed());
            match committed {
                Ok((piece, created)) => {
                    // Its webhook events go out as the runs commit.
                    self.events_committed(who.user_id);
                    progress.pieces.push(piece);
                    progress.created += created;
                    progress.next_item += items;
                    progress.next_part += 1;
                }
                // It lost the key: the request holding it now answers.
                Err(Error::IdempotencyKeyInUse) if receipt.is_some() => {
                    hold.receipt = None;
                    return Err(Error::IdempotencyKeyInUse);
                }
                // Nothing of this request is committed, or a retry under the key resumes.
                Err(err) if first_part || receipt.is_some() => return Err(err),
                Err(err) => {
                    // Runs before this one are committed and reported: the rest fail with
                    // the error, each in its place.
                    let failed: Vec<(usize, BulkItem)> = (progress.next_item..total)
                        .map(|index| (index, Err(ItemError::from(&err))))
                        .collect();
                    progress.pieces.push((answer.items)(&failed, false).into());
                    progress.next_item = total;
                    break;
                }
            }
        }
        let (head, tail) = (answer.frame)(progress.created, total - progress.created);
        if let Some(receipt) = receipt {
            let (head, tail) = (head.clone(), tail.clone());
            let receipt = receipt.clone();
            let (status, claimed_at) = (answer.status, progress.claimed_at);
            let tail_part = AnswerPart {
                part: progress.next_part,
                first_item: total as i64,
                items: 0,
                created: 0,
            };
            self.transact_checked(move |tx| {
                let (receipt, head, tail) = (receipt.clone(), head.clone(), tail.clone());
                Box::pin(async move {
                    receipt.claim(tx, now).await?;
                    receipt
                        .record_part(tx, claimed_at, tail_part, &tail)
                        .await?;
                    receipt.finish(tx, status, &head).await
                })
            })
            .await
            .map_err(Error::from)?;
        }
        hold.receipt = None;
        let mut pieces = Vec::with_capacity(progress.pieces.len() + 2);
        pieces.push(Bytes::from(head));
        pieces.append(&mut progress.pieces);
        pieces.push(Bytes::from(tail));
        Ok(BulkAnswered {
            status: answer.status,
            pieces,
            created: progress.created,
        })
    }

    /// Where a request under `receipt` starts: holding the key, after the runs an earlier
    /// request with the same key and body committed before it stopped (their parts read
    /// back); at the first item without a key.
    async fn resume(&self, receipt: Option<&RunReceipt>, now: Timestamp) -> Result<Progress> {
        let mut progress = Progress {
            pieces: Vec::new(),
            next_item: 0,
            next_part: 0,
            created: 0,
            claimed_at: now,
        };
        let Some(receipt) = receipt else {
            return Ok(progress);
        };
        let claim = {
            let receipt = receipt.clone();
            self.transact_checked(move |tx| {
                let receipt = receipt.clone();
                Box::pin(async move { receipt.claim(tx, now).await })
            })
            .await
            .map_err(Error::from)?
        };
        progress.claimed_at = claim.claimed_at;
        if claim.parts.is_empty() {
            return Ok(progress);
        }
        for (part, bytes) in receipt.parts(self.store()).await? {
            progress.pieces.push(Bytes::from(bytes));
            progress.created += usize::try_from(part.created).unwrap_or(0);
            progress.next_item = usize::try_from(part.first_item + part.items).unwrap_or(0);
            progress.next_part = part.part + 1;
        }
        Ok(progress)
    }

    /// One item checked as `POST /chains` checks it, its group read (once per group), its
    /// custom code not asked for by an earlier item: the chain to insert and its custom code.
    async fn check_item(
        &self,
        who: &Principal,
        input: NewShortChain,
        now: Timestamp,
        index: usize,
        codes: &mut HashMap<(DomainId, String), usize>,
        groups: &mut HashMap<GroupId, GroupId>,
    ) -> std::result::Result<(NewChain, Option<String>), ItemError> {
        let group = input.group_id;
        let (mut new, code) = self.short_chain_record(who, input, now)?;
        if let Some(group) = group {
            // One read per distinct group; a refused group is read again, which costs only
            // requests that name it.
            let id = match groups.get(&group) {
                Some(id) => *id,
                None => self.group_for_chain(who, group, ChainKind::Short).await?,
            };
            groups.insert(group, id);
            new.group_ids = vec![id];
        }
        if let Some(code) = &code {
            if let Some(first) = codes.get(&(new.domain_id, code.clone())) {
                return Err(ItemError {
                    code: names::DUPLICATE_CODE.as_str(),
                    message: format!(
                        "code {code:?} is also asked for by item {first} of this request"
                    ),
                });
            }
            codes.insert((new.domain_id, code.clone()), index);
        }
        Ok((new, code))
    }

    /// Commits one run: its chains inserted within the quota's room, their webhook events,
    /// and (under a key) its part of the answer. Returns its encoded results and how many it
    /// created.
    async fn commit_run(
        &self,
        who: &Principal,
        run: Run,
        now: Timestamp,
        answer: &BulkAnswer,
        receipt: Option<&RunReceipt>,
        progress: &Progress,
    ) -> Result<(Bytes, usize)> {
        let (day, retry_after) = self.quota_day(now);
        let (user, default_quota) = (who.user_id, self.config().daily_create_quota);
        let code_length = self.config().code_length;
        let first = progress.pieces.is_empty();
        // Under a key the part is recorded in the run's transaction, so it is encoded there;
        // the encoder is shared with the body, which may run more than once.
        let keyed = receipt.map(|receipt| {
            let part = AnswerPart {
                part: progress.next_part,
                first_item: run.first as i64,
                items: run.results.len() as i64,
                created: 0,
            };
            (receipt.clone(), part, progress.claimed_at)
        });
        let encode = answer.items.clone();
        let run = Arc::new(run);
        let body_encode = encode.clone();
        let (results, encoded, created) = self
            .transact_checked(move |tx| {
                let (run, keyed, encode) = (run.clone(), keyed.clone(), body_encode.clone());
                Box::pin(async move {
                    if let Some((receipt, _, _)) = &keyed {
                        receipt.claim(tx, now).await?;
                    }
                    let (limit, room) = quota::hold_room(tx, user, day, default_quota).await?;
                    let decided = insert_run(tx, &run.accepted, room, code_length).await?;
                    let created = decided
                        .iter()
                        .filter(|(_, d)| matches!(d, Decided::Created(_)))
                        .count();
                    quota::count_run(tx, user, day, created as i64).await?;
                    if created > 0 {
                        tx.publish_after_commit(Invalidation::MissingLinks).await?;
                    }
                    let results = run_results(&run, decided, now, limit, retry_after);
                    let to = tx
                        .webhook_subscribers(user, EventType::ChainCreated)
                        .await?;
                    if !to.is_empty() {
                        for (_, result) in &results {
                            if let Ok(view) = result {
                                let data = EventData::Chain(view);
                                webhooks::emit_to(
                                    tx,
                                    &to,
                                    user,
                                    EventType::ChainCreated,
                                    now,
                                    data,
                                )
                                .await?;
                            }
                        }
                    }
                    let Some((receipt, part, claimed_at)) = &keyed else {
                        return Ok((results, None, created));
                    };
                    let encoded = encode(&results, first);
                    let part = AnswerPart {
                        created: created as i64,
                        ..*part
                    };
                    receipt.record_part(tx, *claimed_at, part, &encoded).await?;
                    Ok((Vec::new(), Some(encoded), created))
                })
            })
            .await
            .map_err(Error::from)?;
        let encoded = encoded.unwrap_or_else(|| encode(&results, first));
        Ok((Bytes::from(encoded), created))
    }
}

/// The items of the next run, after one of `items` took `took`: as many as fit in
/// [`RUN_TAKES`] at that pace, at most twice as many as before, within [`RUN_ITEMS`].
pub(crate) fn next_run_items(items: usize, took: Duration) -> usize {
    let each = took.as_secs_f64() / items.max(1) as f64;
    let fit = (RUN_TAKES.as_secs_f64() / each.max(1e-9)).min(1e9) as usize;
    fit.min(items.saturating_mul(2))
        .clamp(*RUN_ITEMS.start(), *RUN_ITEMS.end())
}

/// A bulk create's hold on its idempotency key while it runs: released when dropped before
/// the end.
struct Hold<'a> {
    app: &'a App,
    receipt: Option<&'a RunReceipt>,
}

impl Drop for Hold<'_> {
    fn drop(&mut self) {
        let (Some(receipt), Ok(runtime)) = (self.receipt, tokio::runtime::Handle::try_current())
        else {
            return;
        };
        // In the background, as a request dropped cannot wait for it.
        let (app, receipt) = (self.app.clone(), receipt.clone());
        runtime.spawn(async move {
            let released = app
                .transact(move |tx| {
                    let receipt = receipt.clone();
                    Box::pin(async move { receipt.release(tx).await })
                })
                .await;
            if let Err(err) = released {
                tracing::debug!(error = %err, "an idempotency key's hold lapses on its own");
            }
        });
    }
}

/// Inserts a run's accepted chains, in order, as many at a time as the quota's `room`
/// allows: a chain whose random code was taken goes again at the front with another.
pub(crate) async fn insert_run(
    tx: &mut dyn Tx,
    accepted: &[(usize, NewChain, Option<String>)],
    mut room: i64,
    code_length: usize,
) -> std::result::Result<Vec<(usize, Decided)>, BodyError> {
    let mut decided = Vec::with_capacity(accepted.len());
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
                    decided.push((pending.index, Decided::Created(Box::new(chain))));
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
    Ok(decided)
}

/// A run's results in order: the checks' failures as they were, the rest as decided.
fn run_results(
    run: &Run,
    decided: Vec<(usize, Decided)>,
    now: Timestamp,
    limit: i64,
    retry_after: u64,
) -> Vec<(usize, BulkItem)> {
    let mut decided: HashMap<usize, Decided> = decided.into_iter().collect();
    run.results
        .iter()
        .map(|(index, result)| {
            let result = match (result, decided.remove(index)) {
                (Some(result), _) => result.clone(),
                (None, Some(Decided::Created(chain))) => Ok(ChainView {
                    status: chain.status_at(now),
                    chain: *chain,
                    views: PageViews::default(),
                }),
                (None, Some(Decided::CodeTaken(code))) => Err(code_taken(&code).into()),
                (None, Some(Decided::OverQuota)) => {
                    Err(Error::QuotaExceeded { limit, retry_after }.into())
                }
                (None, Some(Decided::NoFreeCode)) => Err(no_free_code().into()),
                (None, None) => Err(Error::Internal("a bulk item was not decided".into()).into()),
            };
            (*index, result)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_run_is_sized_to_take_its_time_and_grows_at_most_twofold() {
        // 100 items in 40 ms: 50 fit in 20 ms.
        assert_eq!(next_run_items(100, Duration::from_millis(40)), 50);
        // Fast runs grow, but only twofold a run.
        assert_eq!(next_run_items(100, Duration::from_millis(1)), 200);
        // Never fewer than 10 or more than 1,000; a run that took no time is not infinite.
        assert_eq!(next_run_items(100, Duration::from_secs(5)), 10);
        assert_eq!(next_run_items(900, Duration::ZERO), 1000);
    }
}
