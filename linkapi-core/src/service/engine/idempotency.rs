//! Idempotency keys: a create sent again under the key it was first sent with gets its first
//! answer again, on whichever instance, and creates nothing.
//!
//! A create that commits in runs (a bulk create) holds its key across them instead
//! ([`RunReceipt`]): see there.
//!
//! The key's row is written by the create's own transaction: claimed as its first write,
//! filled with the answer as its last. So a key names either nothing or a committed answer:
//! a create that fails rolls its claim back and a retry runs afresh, and a process that
//! dies mid-create leaves no key behind. A second request under a key whose create is still
//! running waits for it on the key's row (PostgreSQL's unique index; SQLite's single
//! writer) and then answers with what the first committed.

use std::sync::{Arc, Mutex};

use bytes::Bytes;

use super::BodyError;
use crate::error::{Error, Result, names};
use crate::locks::Unpoisoned;
use crate::model::{Timestamp, UserId};
use crate::store::{AnswerPart, RunClaim, Store, Tx};

/// How long a key names its answer, in seconds: a day.
pub const IDEMPOTENCY_WINDOW: i64 = 24 * 60 * 60;

/// The longest key.
pub const MAX_IDEMPOTENCY_KEY: usize = 255;

/// Whether `key` may be an `Idempotency-Key`: 1 to 255 printable ASCII
/// characters, not starting or ending with a space (HTTP would drop it).
pub fn is_idempotency_key(key: &[u8]) -> bool {
    (1..=MAX_IDEMPOTENCY_KEY).contains(&key.len())
        && key.iter().all(|b| (b' '..=b'~').contains(b))
        && key.first() != Some(&b' ')
        && key.last() != Some(&b' ')
}

/// A request's idempotency key, checked, with the digest of what the request asks for.
#[derive(Debug, Clone)]
pub struct IdempotencyKey {
    key: String,
    fingerprint: [u8; 32],
}

impl IdempotencyKey {
    /// `key` as the `Idempotency-Key` header gave it, for a request whose operation, path and
    /// body digest to `fingerprint`.
    ///
    /// # Errors
    /// 400 `invalid_idempotency_key` unless the key is 1 to 255 printable ASCII characters
    /// (space inside it allowed).
    pub fn new(key: &[u8], fingerprint: [u8; 32]) -> Result<Self> {
        if !is_idempotency_key(key) {
            return Err(Error::bad_request(
                names::INVALID_IDEMPOTENCY_KEY,
                format!(
                    "Idempotency-Key must be 1 to {MAX_IDEMPOTENCY_KEY} printable ASCII \
                     characters, not starting or ending with a space"
                ),
            ));
        }
        Ok(IdempotencyKey {
            key: String::from_utf8_lossy(key).into_owned(),
            fingerprint,
        })
    }

    /// The key as sent.
    pub fn as_str(&self) -> &str {
        &self.key
    }
}

/// An answer as a key keeps it: the HTTP status and the JSON body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeptAnswer {
    /// The HTTP status.
    pub status: u16,
    /// The body, JSON in the operation's envelope.
    pub body: Bytes,
}

/// What an idempotent create records inside its transaction: the caller, the key, and how
/// the create's outcome `T` becomes the answer the caller gets (and a repeat gets again).
pub struct Receipt<T> {
    user: UserId,
    key: Arc<IdempotencyKey>,
    answer: Arc<dyn Fn(&T) -> KeptAnswer + Send + Sync>,
    /// The answer the last run of the transaction recorded.
    recorded: Arc<Mutex<Option<KeptAnswer>>>,
}

impl<T> Clone for Receipt<T> {
    fn clone(&self) -> Self {
        Receipt {
            user: self.user,
            key: self.key.clone(),
            answer: self.answer.clone(),
            recorded: self.recorded.clone(),
        }
    }
}

impl<T> Receipt<T> {
    /// A receipt of `user`'s request under `key`, answered as `answer` encodes the outcome.
    pub fn new(
        user: UserId,
        key: Arc<IdempotencyKey>,
        answer: impl Fn(&T) -> KeptAnswer + Send + Sync + 'static,
    ) -> Self {
        Receipt {
            user,
            key,
            answer: Arc::new(answer),
            recorded: Arc::new(Mutex::new(None)),
        }
    }

    /// This receipt for a create whose outcome `U` holds the `T` the answer is made of.
    pub(crate) fn of_part<U>(&self, part: impl Fn(&U) -> &T + Send + Sync + 'static) -> Receipt<U>
    where
        T: 'static,
    {
        let answer = self.answer.clone();
        Receipt {
            user: self.user,
            key: self.key.clone(),
            answer: Arc::new(move |outcome: &U| answer(part(outcome))),
            recorded: self.recorded.clone(),
        }
    }

    /// Takes the key for this transaction; its first write. Stops the transaction with
    /// [`Error::IdempotencyKeyInUse`] when another request holds the key.
    pub(crate) async fn claim(
        &self,
        tx: &mut dyn Tx,
        now: Timestamp,
    ) -> std::result::Result<(), BodyError> {
        let claimed = tx
            .claim_idempotency_key(
                self.user,
                &self.key.key,
                &self.key.fingerprint,
                now,
                now - IDEMPOTENCY_WINDOW,
            )
            .await?;
        if claimed {
            Ok(())
        } else {
            Err(BodyError::Rule(Error::IdempotencyKeyInUse))
        }
    }

    /// Records the answer to `outcome` under the claimed key; the transaction's last write.
    pub(crate) async fn record(
        &self,
        tx: &mut dyn Tx,
        outcome: &T,
    ) -> std::result::Result<(), BodyError> {
        let answer = (self.answer)(outcome);
        tx.record_idempotent_answer(self.user, &self.key.key, answer.status, &answer.body)
            .await?;
        *self.recorded.lock().unpoisoned() = Some(answer);
        Ok(())
    }

    /// The answer to `outcome`: the one the committed transaction recorded, byte for byte.
    pub fn answer(&self, outcome: &T) -> KeptAnswer {
        self.recorded
            .lock()
            .unpoisoned()
            .take()
            .unwrap_or_else(|| (self.answer)(outcome))
    }
}

/// How long a create that commits in runs may go without a run before another request with
/// the same key and body may take it over (its holder stopped: the process died, or its
/// client went away), in seconds.
pub const RUN_STALE_AFTER: i64 = 10;

/// What a create that commits in runs (a bulk create) holds its idempotency key with: every
/// run's transaction claims the key again for this request (taking it over, the first time,
/// from one that stopped) and records its part of the answer; the last records what comes
/// before the parts and marks the key answered. A repeat meanwhile waits; a repeat after the
/// holder stopped resumes after the last run committed, so nothing is created twice.
#[derive(Debug, Clone)]
pub struct RunReceipt {
    user: UserId,
    key: Arc<IdempotencyKey>,
    /// This request, among those that may hold the key.
    owner: i64,
}

impl RunReceipt {
    /// The receipt of `user`'s request under `key`.
    pub fn new(user: UserId, key: Arc<IdempotencyKey>) -> Self {
        RunReceipt {
            user,
            key,
            owner: rand::random::<i64>(),
        }
    }

    /// Holds the key for this request's next run: the parts recorded so far and when the key
    /// was first used. Stops the transaction with [`Error::IdempotencyKeyInUse`] when another
    /// request holds it (or it is answered).
    pub(crate) async fn claim(
        &self,
        tx: &mut dyn Tx,
        now: Timestamp,
    ) -> std::result::Result<RunClaim, BodyError> {
        let claimed = tx
            .claim_idempotency_run(
                self.user,
                &self.key.key,
                &self.key.fingerprint,
                self.owner,
                now,
                now - IDEMPOTENCY_WINDOW,
                now - RUN_STALE_AFTER,
            )
            .await?;
        claimed.ok_or(BodyError::Rule(Error::IdempotencyKeyInUse))
    }

    /// Records `part` of the answer, `body` its bytes.
    pub(crate) async fn record_part(
        &self,
        tx: &mut dyn Tx,
        claimed_at: Timestamp,
        part: AnswerPart,
        body: &[u8],
    ) -> std::result::Result<(), BodyError> {
        tx.record_idempotent_part(self.user, &self.key.key, part, claimed_at, body)
            .await?;
        Ok(())
    }

    /// Records what comes before the parts (`head`), with `status`: the key is answered.
    pub(crate) async fn finish(
        &self,
        tx: &mut dyn Tx,
        status: u16,
        head: &[u8],
    ) -> std::result::Result<(), BodyError> {
        tx.record_idempotent_answer(self.user, &self.key.key, status, head)
            .await?;
        Ok(())
    }

    /// Lets another request with the key take it over at once: this one stopped before its
    /// end (it failed, or its client went away). Best effort, since the hold lapses anyway
    /// after [`RUN_STALE_AFTER`].
    pub(crate) async fn release(&self, tx: &mut dyn Tx) -> crate::store::StoreResult<()> {
        tx.release_idempotency_run(self.user, &self.key.key, self.owner)
            .await
    }

    /// The parts recorded so far with their bytes, for a request that took the key over.
    ///
    /// # Errors
    /// When the store fails.
    pub(crate) async fn parts(&self, store: &dyn Store) -> Result<Vec<(AnswerPart, Vec<u8>)>> {
        Ok(store.idempotent_parts(self.user, &self.key.key).await?)
    }
}

/// [`Receipt::claim`] for a create that may have no receipt.
pub(crate) async fn claim<T>(
    receipt: Option<&Receipt<T>>,
    tx: &mut dyn Tx,
    now: Timestamp,
) -> std::result::Result<(), BodyError> {
    match receipt {
        Some(receipt) => receipt.claim(tx, now).await,
        None => Ok(()),
    }
}

/// [`Receipt::record`] for a create that may have no receipt.
pub(crate) async fn record<T>(
    receipt: Option<&Receipt<T>>,
    tx: &mut dyn Tx,
    outcome: &T,
) -> std::result::Result<(), BodyError> {
    match receipt {
        Some(receipt) => receipt.record(tx, outcome).await,
        None => Ok(()),
    }
}

/// The answer `user` was given under `key` since `used_after`, if any.
///
/// # Errors
/// 422 `idempotency_key_reused` when the key was used for a different request; when the
/// store fails.
pub(crate) async fn kept_answer(
    store: &dyn Store,
    user: UserId,
    key: &IdempotencyKey,
    used_after: Timestamp,
) -> Result<Option<KeptAnswer>> {
    let Some(kept) = store.idempotent_answer(user, &key.key, used_after).await? else {
        return Ok(None);
    };
    if kept.fingerprint != key.fingerprint {
        return Err(Error::unprocessable(
            names::IDEMPOTENCY_KEY_REUSED,
            "this Idempotency-Key was used for a different request in the last 24 hours; \
             send a new key for a new request",
        ));
    }
    // Claimed by a create still under way (one committing in runs): no answer yet.
    if kept.status == 0 {
        return Ok(None);
    }
    // The answer is the key's body followed by its parts, if it was written in parts.
    let parts = store.idempotent_parts(user, &key.key).await?;
    let mut body = kept.body;
    body.reserve(parts.iter().map(|(_, bytes)| bytes.len()).sum());
    for (_, bytes) in parts {
        body.extend_from_slice(&bytes);
    }
    Ok(Some(KeptAnswer {
        status: kept.status,
        body: Bytes::from(body),
    }))
}
