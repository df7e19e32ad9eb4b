//! What request bodies, and the work they start, may hold of memory at once: a budget per
//! instance and one per key. A request takes its share before its body is read and gives it
//! back when its answer is made; one that cannot have it within a moment is answered 503
//! (the instance is full) or 429 (its key has as much in work as a key may) with
//! `Retry-After`, having read nothing and done nothing.
//!
//! A body costs more than its bytes: decoding a bulk create, the records it makes, the
//! transaction's copies and the answer came to about four times the body on SQLite (a 27 MiB
//! request of 10,000 chains held about 100 MB) and nearly ten on PostgreSQL (about 260 MB:
//! the statements' parameters and the body the transaction keeps to run again), so a request
//! is charged its size times the factor of what it reads ([`cost`]); an upload, which streams,
//! what it buffers ([`UPLOAD_BYTES`]).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use crate::error::{Error, Result};
use crate::locks::Unpoisoned;
use crate::model::KeyId;

/// Memory a bulk body's work takes, per byte of body, at most (measured: about 100 MB for
/// 27 MiB on SQLite, 260 MB on PostgreSQL).
pub(crate) const BULK_FACTOR: u64 = 10;
/// The same for ordinary JSON bodies: the body and what it decodes into.
pub(crate) const JSON_FACTOR: u64 = 2;
/// What an upload request holds while it streams: the staging writer's part (5 MiB,
/// `service::uploads`) and the part being sent, whatever the size of the files.
pub(crate) const UPLOAD_BYTES: u64 = 10 << 20;
/// Charges at least this large give memory back to the system when the instance's budget is
/// whole again ([`crate::heap::release_free_memory`]).
const TRIM_AFTER: u32 = 8 << 10;
/// How long a request waits for its share before it is refused.
pub(crate) const WAIT: Duration = Duration::from_secs(1);
/// What a refused request is told to wait.
const RETRY_AFTER: u64 = 2;
/// Keys remembered before idle ones are forgotten.
const KEYS_KEPT: usize = 1024;
/// The budget of bodies read before their key is known (the compatibility surface's key in
/// the body): a budget of its own, so that clients with no key, sending slowly, can fill it
/// and no more; keyed requests never wait for it.
const UNKNOWN_KEY_BYTES: u64 = 32 << 20;

/// The budgets of one server.
pub(crate) struct Budget {
    /// KiB of the instance's budget.
    instance: Arc<Semaphore>,
    /// The instance's budget, whole, in KiB.
    instance_kib: u32,
    /// A key's budget, in KiB.
    key_kib: u32,
    /// The budgets of keys that have used theirs lately.
    keys: Mutex<HashMap<KeyId, Arc<Semaphore>>>,
    /// KiB of the budget of bodies whose key is not known yet ([`UNKNOWN_KEY_BYTES`]).
    unknown: Arc<Semaphore>,
}

/// A request's share, given back when dropped.
#[derive(Debug)]
pub(crate) struct Held {
    _key: Option<OwnedSemaphorePermit>,
    instance: Option<OwnedSemaphorePermit>,
    /// Whether to give freed memory back once the instance's budget is whole.
    trim: Option<Arc<Semaphore>>,
    whole: u32,
}

impl Drop for Held {
    fn drop(&mut self) {
        drop(self.instance.take());
        if let Some(instance) = self.trim.take()
            && instance.available_permits() >= self.whole as usize
            && let Ok(runtime) = tokio::runtime::Handle::try_current()
        {
            // A few milliseconds walking the allocator's arenas: not on a serving thread.
            runtime.spawn_blocking(crate::heap::release_free_memory);
        }
    }
}

/// KiB, rounded up and at most `u32::MAX`.
fn kib(bytes: u64) -> u32 {
    u32::try_from(bytes.div_ceil(1024)).unwrap_or(u32::MAX)
}

/// What reading a body of `declared` bytes (its `Content-Length`, or `limit` when it has
/// none) and the work it starts is charged, with `factor` of what it reads.
pub(crate) fn cost(declared: Option<u64>, limit: usize, factor: u64) -> u64 {
    declared
        .unwrap_or(limit as u64)
        .min(limit as u64)
        .saturating_mul(factor)
}

impl Budget {
    /// Budgets of `instance_bytes` and `key_bytes`.
    pub(crate) fn new(instance_bytes: u64, key_bytes: u64) -> Budget {
        let instance_kib = kib(instance_bytes).max(1);
        Budget {
            instance: Arc::new(Semaphore::new(instance_kib as usize)),
            instance_kib,
            key_kib: kib(key_bytes).max(1),
            keys: Mutex::default(),
            unknown: Arc::new(Semaphore::new(kib(UNKNOWN_KEY_BYTES) as usize)),
        }
    }

    /// Takes `bytes` of `key`'s budget and of the instance's (for a request not yet known by
    /// its key, of the budget of such requests alone), waiting at most [`WAIT`]. A charge
    /// larger than a whole budget takes the whole budget: such a request runs alone.
    ///
    /// # Errors
    /// 429 `key_busy` when the key's budget stays taken, 503 `overloaded` when the
    /// instance's does.
    pub(crate) async fn admit(&self, key: Option<KeyId>, bytes: u64) -> Result<Held> {
        let wanted = kib(bytes).max(1);
        let key_permit = match key {
            Some(key) => {
                let budget = self.key_budget(key);
                let take = wanted.min(self.key_kib);
                match tokio::time::timeout(WAIT, budget.acquire_many_owned(take)).await {
                    Ok(Ok(permit)) => Some(permit),
                    _ => {
                        return Err(Error::KeyBusy {
                            retry_after: RETRY_AFTER,
                        });
                    }
                }
            }
            None => {
                let take = wanted.min(kib(UNKNOWN_KEY_BYTES));
                let unknown = self.unknown.clone();
                let Ok(Ok(permit)) =
                    tokio::time::timeout(WAIT, unknown.acquire_many_owned(take)).await
                else {
                    return Err(Error::Overloaded {
                        retry_after: RETRY_AFTER,
                    });
                };
                return Ok(Held {
                    _key: None,
                    instance: Some(permit),
                    trim: None,
                    whole: self.instance_kib,
                });
            }
        };
        let take = wanted.min(self.instance_kib);
        let instance = self.instance.clone();
        let Ok(Ok(permit)) = tokio::time::timeout(WAIT, instance.acquire_many_owned(take)).await
        else {
            return Err(Error::Overloaded {
                retry_after: RETRY_AFTER,
            });
        };
        Ok(Held {
            _key: key_permit,
            instance: Some(permit),
            trim: (take >= TRIM_AFTER).then(|| self.instance.clone()),
            whole: self.instance_kib,
        })
    }

    /// `key`'s budget, made on first use; keys with nothing in work are forgotten once many
    /// are remembered.
    fn key_budget(&self, key: KeyId) -> Arc<Semaphore> {
        let mut keys = self.keys.lock().unpoisoned();
        if keys.len() >= KEYS_KEPT && !keys.contains_key(&key) {
            let whole = self.key_kib as usize;
            keys.retain(|_, budget| budget.available_permits() < whole);
        }
        keys.entry(key)
            .or_insert_with(|| Arc::new(Semaphore::new(self.key_kib as usize)))
            .clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_key_and_the_instance_each_hold_no_more_than_their_budget() {
        let budget = Budget::new(3 << 20, 2 << 20);
        let (a, b) = (KeyId(1), KeyId(2));
        let first = budget.admit(Some(a), 2 << 20).await.expect("fits");
        // The key's budget is taken: its next request is refused after the wait.
        let refused = budget.admit(Some(a), 1).await;
        assert!(matches!(refused, Err(Error::KeyBusy { .. })), "{refused:?}");
        // Another key fits in what the instance has left, and then the instance is full.
        let second = budget.admit(Some(b), 1 << 20).await.expect("fits");
        let full = budget.admit(Some(b), 1 << 20).await;
        assert!(matches!(full, Err(Error::Overloaded { .. })), "{full:?}");
        // A request not yet known by its key has a budget of its own: the instance is full,
        // and it is admitted; it cannot take more than its own.
        let unknown = budget.admit(None, 1 << 20).await.expect("its own budget");
        assert!(budget.admit(None, UNKNOWN_KEY_BYTES).await.is_err());
        drop(unknown);
        drop(first);
        budget.admit(Some(a), 2 << 20).await.expect("given back");
        drop(second);
        // Larger than a whole budget: the whole budget.
        let alone = budget.admit(None, 10 << 20).await.expect("alone");
        drop(alone);
    }

    #[test]
    fn a_request_is_charged_its_declared_size_within_its_limit() {
        assert_eq!(cost(Some(100), 1000, 4), 400);
        assert_eq!(cost(Some(5000), 1000, 4), 4000);
        assert_eq!(cost(None, 1000, 2), 2000);
    }
}
