//! Per-key rate limiting: a token bucket per API key (governor's GCRA, which behaves as one).
//!
//! Buckets live in each instance's memory: a shared bucket would cost a database round trip
//! per request. Instances behind a load balancer each enforce a share of the limit instead
//! ([`RateLimit::share`]), so that together they allow about the configured total.

use std::num::NonZeroU32;

use governor::clock::{Clock as _, DefaultClock};
use governor::middleware::StateInformationMiddleware;
use governor::state::keyed::DefaultKeyedStateStore;
use governor::{Quota, RateLimiter};

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

impl RateLimit {
    /// This instance's share when `instances` instances serve the same keys: 1/N of the rate
    /// and of the burst, rounded up (never below one), so N instances that each see an even
    /// part of a key's requests allow about the configured total between them.
    pub fn share(self, instances: NonZeroU32) -> RateLimit {
        let part = |n: NonZeroU32| {
            NonZeroU32::new(n.get().div_ceil(instances.get())).unwrap_or(NonZeroU32::MIN)
        };
        RateLimit {
            per_second: part(self.per_second),
            burst: part(self.burst),
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

pub(crate) struct KeyLimiter {
    limiter: Limiter,
    burst: u32,
}

impl KeyLimiter {
    pub(crate) fn new(limit: RateLimit) -> Self {
        let quota = Quota::per_second(limit.per_second).allow_burst(limit.burst);
        KeyLimiter {
            limiter: RateLimiter::keyed(quota).with_middleware::<StateInformationMiddleware>(),
            burst: limit.burst.get(),
        }
    }

    /// Takes a token from `key`'s bucket.
    ///
    /// # Errors
    /// [`Error::RateLimited`] with the wait when the bucket is empty.
    pub(crate) fn take(&self, key: &KeyId) -> Result<RateState> {
        match self.limiter.check_key(key) {
            Ok(snapshot) => Ok(RateState {
                limit: self.burst,
                remaining: snapshot.remaining_burst_capacity(),
            }),
            Err(not_until) => {
                let wait = not_until.wait_time_from(DefaultClock::default().now());
                // Rounded up, and never 0: the bucket may refill between the refusal and this
                // reading, and "retry in 0 s" invites a retry storm.
                Err(Error::RateLimited {
                    retry_after: (wait.as_secs() + u64::from(wait.subsec_nanos() > 0)).max(1),
                })
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limit(per_second: u32, burst: u32) -> RateLimit {
        RateLimit {
            per_second: NonZeroU32::new(per_second).unwrap_or(NonZeroU32::MIN),
            burst: NonZeroU32::new(burst).unwrap_or(NonZeroU32::MIN),
        }
    }

    #[test]
    fn instances_each_enforce_a_share_rounded_up() {
        let three = NonZeroU32::new(3).unwrap_or(NonZeroU32::MIN);
        assert_eq!(limit(20, 40).share(three), limit(7, 14));
        assert_eq!(limit(30, 30).share(three), limit(10, 10));
        assert_eq!(limit(1, 2).share(three), limit(1, 1));
        assert_eq!(limit(20, 40).share(NonZeroU32::MIN), limit(20, 40));
    }
}
