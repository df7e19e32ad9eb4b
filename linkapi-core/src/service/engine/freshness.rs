//! How recently this instance is known to have applied every change other instances committed,
//! and so whether what it caches (keys, links) may be trusted without asking the store.
//!
//! With several instances, a change reaches the others through the store's change feed. An
//! instance that stops hearing it (its process was frozen, its feed stalls, its notices queue
//! up) would go on answering from caches that another instance's write has already made stale;
//! a revocation answered after waiting [`BARRIER_TIMEOUT`](crate::store::BARRIER_TIMEOUT) for
//! such an instance would not hold there. So the feed proves, every half second or so, that
//! everything committed before a given instant has been delivered ([`FeedEvent::CaughtUp`]); once
//! the instance has applied the notices before it, it is fresh as of that instant. A cache that
//! has not been fresh within [`TRUST_WINDOW`] is not trusted, except for entries the instance
//! read from the store within the window itself: keys are read from the store again, and links
//! too while the store answers.
//!
//! [`TRUST_WINDOW`] is shorter than the barrier's wait, which is what makes the promise hold:
//! a writer answers only when every live instance applied its change, or after waiting the
//! whole barrier timeout, and by then an instance that had not applied it is no longer fresh.
//!
//! [`FeedEvent::CaughtUp`]: crate::store::FeedEvent::CaughtUp

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// How long after the feed last proved it had delivered everything this instance trusts its
/// caches.
pub const TRUST_WINDOW: Duration = Duration::from_secs(2);

// The promise above needs it.
const _: () = assert!(TRUST_WINDOW.as_millis() < crate::store::BARRIER_TIMEOUT.as_millis());

const ALWAYS: u64 = u64::MAX;
const NEVER: u64 = 0;

/// When this instance last caught up with the change feed.
#[derive(Debug)]
pub(crate) struct Freshness {
    /// What instants are measured from.
    origin: Instant,
    /// One more than the milliseconds from `origin` to the latest instant caught up to;
    /// [`NEVER`] before the first, [`ALWAYS`] when there is no feed (one process is the only
    /// writer, and applies its own changes as it commits).
    caught_up_ms: AtomicU64,
}

impl Freshness {
    /// Always fresh: a store without a change feed.
    pub(crate) fn always() -> Self {
        Freshness {
            origin: Instant::now(),
            caught_up_ms: AtomicU64::new(ALWAYS),
        }
    }

    /// Not fresh until the feed says it caught up.
    pub(crate) fn from_feed() -> Self {
        Freshness {
            origin: Instant::now(),
            caught_up_ms: AtomicU64::new(NEVER),
        }
    }

    /// Every change committed before `at` has been applied.
    pub(crate) fn caught_up(&self, at: Instant) {
        let ms = u64::try_from(at.saturating_duration_since(self.origin).as_millis())
            .map_or(ALWAYS - 1, |ms| ms.saturating_add(1).min(ALWAYS - 1));
        // Notices arrive in order, but never move backwards whatever happens.
        self.caught_up_ms.fetch_max(ms, Ordering::Relaxed);
    }

    /// Whether a cache entry whose load from the store began at `loaded` may be trusted now:
    /// when the instance is fresh, or when the entry was read within the window itself (it
    /// holds every change committed before its read began). So while the feed is stalled each
    /// entry in use is read again at most once a window, not on every request.
    pub(crate) fn trusts(&self, loaded: Instant) -> bool {
        self.trusted() || loaded.elapsed() < TRUST_WINDOW
    }

    /// Whether caches may be trusted now.
    pub(crate) fn trusted(&self) -> bool {
        match self.caught_up_ms.load(Ordering::Relaxed) {
            ALWAYS => true,
            NEVER => false,
            caught_up => {
                let now = self.origin.elapsed().as_millis();
                now < u128::from(caught_up) + TRUST_WINDOW.as_millis()
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fresh_only_within_the_window_after_catching_up() {
        assert!(Freshness::always().trusted());
        let feed = Freshness::from_feed();
        assert!(!feed.trusted(), "not before the feed caught up once");
        feed.caught_up(Instant::now());
        assert!(feed.trusted());
        let long_ago = Instant::now()
            .checked_sub(TRUST_WINDOW + Duration::from_millis(50))
            .expect("an instant before now");
        let started_earlier = Freshness {
            origin: long_ago - Duration::from_secs(1),
            caught_up_ms: AtomicU64::new(NEVER),
        };
        started_earlier.caught_up(long_ago);
        assert!(
            !started_earlier.trusted(),
            "caught up longer ago than the window"
        );
        // Entries read from the store within the window are trusted all the same; older not.
        assert!(started_earlier.trusts(Instant::now()));
        assert!(!started_earlier.trusts(long_ago));
        // An older notice never makes it staler.
        feed.caught_up(long_ago);
        assert!(feed.trusted());
    }
}
