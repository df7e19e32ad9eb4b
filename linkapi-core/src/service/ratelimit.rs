//! Per-key rate limiting: a token bucket per API key (governor's GCRA, which behaves as one).

use std::num::NonZeroU32;

use governor::clock::{Clock as _, DefaultClock};
use governor::middleware::StateInformationMiddleware;
use governor::state::keyed::DefaultKeyedStateStore;
use governor::{Quota, RateLimiter};

use super::{App, Principal};
use crate::error::{Error, Result};
use crate::model::KeyId;

/// A key's allowance.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RateLimit {
    /// Tokens added per second.
    pub per_second: NonZeroU32,
    /// Bucket size: the most requests that can arrive at once.
    pub burst: NonZeroU32,
}

impl Default for RateLimit {
    fn default() -> Self {
        RateLimit {
            per_second: NonZeroU32::new(20).unwrap_or(NonZeroU32::MIN),
            burst: NonZeroU32::new(40).unwrap_or(NonZeroU32::MIN),
        }
    }
}

/// What the `X-RateLimit-*` headers report after a request was let through.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RateState {
    /// Bucket size.
    pub limit: u32,
    /// Requests that may still arrive at once.
    pub remaining: u32,
}

type Limiter =
    RateLimiter<KeyId, DefaultKeyedStateStore<KeyId>, DefaultClock, StateInformationMiddleware>;

pub(super) struct KeyLimiter {
    limiter: Limiter,
    burst: u32,
}

impl KeyLimiter {
    pub(super) fn new(limit: RateLimit) -> Self {
        let quota = Quota::per_second(limit.per_second).allow_burst(limit.burst);
        KeyLimiter {
            limiter: RateLimiter::keyed(quota).with_middleware::<StateInformationMiddleware>(),
            burst: limit.burst.get(),
        }
    }
}

impl App {
    /// Takes a token from the principal's bucket.
    ///
    /// # Errors
    /// [`Error::RateLimited`] with the wait when the bucket is empty.
    pub fn check_rate(&self, principal: &Principal) -> Result<Option<RateState>> {
        let Some(limiter) = &self.inner.limiter else {
            return Ok(None);
        };
        match limiter.limiter.check_key(&principal.key_id) {
            Ok(snapshot) => Ok(Some(RateState {
                limit: limiter.burst,
                remaining: snapshot.remaining_burst_capacity(),
            })),
            Err(not_until) => {
                let wait = not_until.wait_time_from(DefaultClock::default().now());
                Err(Error::RateLimited {
                    retry_after: wait.as_secs() + u64::from(wait.subsec_nanos() > 0),
                })
            }
        }
    }
}
