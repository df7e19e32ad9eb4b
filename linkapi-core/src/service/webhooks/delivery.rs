//! The delivery worker: claims due deliveries (leasing them, so no other instance attempts
//! them meanwhile), posts each signed event, and records the attempt with what follows: done
//! on a 2xx, else another try after a growing, jittered delay, until [`RETRY_WINDOW`] after
//! the event; then the delivery fails and its endpoint is flagged. An instance that dies
//! mid-attempt leaves the lease to run out ([`LEASE`]) and another instance to try again, so
//! an event is delivered at least once; a healthy endpoint gets it once.
//!
//! Attempts run side by side ([`MAX_IN_FLIGHT`] at most an instance) and each is recorded
//! as it ends (with whatever else ended within [`SPACING`] of the worker's last write), in
//! the transaction that claims deliveries for the slots they freed. Claims are fair: no endpoint has more
//! than `WebhookConfig::endpoint_concurrency` attempts under way across instances, and users
//! and their endpoints take turns for the room there is (`store::webhooks::DUE_DELIVERIES`),
//! so an endpoint that hangs holds a few slots for its timeout and delays only its own
//! events, and a burst to one slow receiver goes out as fast as it answers.

use std::sync::{Arc, Weak};
use std::time::{Duration, Instant};

use bytes::Bytes;
use http_body_util::{BodyExt as _, Full};
use tokio::task::JoinSet;

use super::super::{App, Inner};
use super::target::{ATTEMPT_TIMEOUT, HttpClient, literal_is_refused};
use crate::clock::Clock;
use crate::model::{DeliveryAttempt, Timestamp};
use crate::signing::{Secret, signature_header};
use crate::store::{AttemptVerdict, ClaimedDelivery, FinishedAttempt};

/// Delays before the 2nd, 3rd, ... attempt, in seconds (each jittered by up to a fifth
/// either way); the last repeats until [`RETRY_WINDOW`] is over.
pub const RETRY_DELAYS: [Timestamp; 9] = [5, 30, 120, 600, 1_800, 3_600, 7_200, 14_400, 28_800];
/// How long after its event a delivery is still tried, in seconds.
pub const RETRY_WINDOW: Timestamp = 24 * 3_600;
/// How long a claimed delivery is leased to the instance attempting it: well past an
/// attempt's timeout, so only an instance that stopped loses it.
const LEASE: Timestamp = 60;
/// Deliveries claimed at most in one transaction.
const CLAIM_BATCH: usize = 64;
/// Attempts under way at most; claims wait for room.
const MAX_IN_FLIGHT: usize = 256;
/// How long a woken worker waits for more events before it claims: under a stream of
/// creates, a claim per event would cost more than the deliveries on SQLite's single writer.
const GATHER: Duration = Duration::from_millis(20);
/// The shortest time between two of the worker's transactions: attempts that end meanwhile
/// are recorded together (an idle worker records one at once).
const SPACING: Duration = Duration::from_millis(2);
/// Most of an answer's body read (then the connection is dropped).
const MAX_ANSWER_BYTES: usize = 4_096;
/// What deliveries say they are.
const USER_AGENT: &str = concat!("linkapi-webhooks/", env!("CARGO_PKG_VERSION"));
/// How often finished history is pruned.
const PRUNE_EVERY: Duration = Duration::from_secs(3_600);

/// The delay before the attempt after `attempts` failed ones, jittered with `jitter` in
/// [-1, 1] (a fifth of the delay at most).
pub fn retry_delay(attempts: i64, jitter: f64) -> Timestamp {
    let index = usize::try_from(attempts.max(1) - 1).unwrap_or(0);
    let base = RETRY_DELAYS[index.min(RETRY_DELAYS.len() - 1)];
    base + (base as f64 * 0.2 * jitter.clamp(-1.0, 1.0)).round() as Timestamp
}

/// What follows an attempt that ended at `now`: delivered on a 2xx, else a retry while the
/// window lasts.
fn verdict(succeeded: bool, attempts: i64, event_at: Timestamp, now: Timestamp) -> AttemptVerdict {
    if succeeded {
        return AttemptVerdict::Delivered;
    }
    let jitter = rand::random::<f64>() * 2.0 - 1.0;
    let next = now + retry_delay(attempts, jitter);
    if next > event_at + RETRY_WINDOW {
        AttemptVerdict::Failed
    } else {
        AttemptVerdict::RetryAt(next)
    }
}

/// Starts the worker (and the pruning of old history) for as long as `app` lives.
pub(crate) fn start_delivery(app: &App) {
    let wake = app.inner.webhook_users.wake.clone();
    let poll = app.config().webhooks.poll_interval;
    tokio::spawn(deliver_forever(Arc::downgrade(&app.inner), wake, poll));
    tokio::spawn(super::super::periodically(
        Arc::downgrade(&app.inner),
        PRUNE_EVERY,
        "pruning webhook history",
        |app| Box::pin(app.prune_webhook_history()),
    ));
}

/// Claims while there is room and something is due; records attempts as they end, and claims
/// in the same transaction for the slots they freed. Holds the app only while it writes, so
/// the worker (and the attempts under way, which it drops) stops with the app.
async fn deliver_forever(app: Weak<Inner>, wake: Arc<tokio::sync::Notify>, poll: Duration) {
    let mut in_flight: JoinSet<FinishedAttempt> = JoinSet::new();
    let mut finished: Vec<FinishedAttempt> = Vec::new();
    // Whether deliveries may be due that this worker has not claimed: at start, after a wake
    // or a poll, and while claims come back full.
    let mut maybe_due = true;
    let mut next_poll = tokio::time::Instant::now();
    // When to claim the events whose commit woke the worker: a moment after the first wake,
    // for the events committed with it; attempts that end meanwhile are recorded as usual.
    let mut woken_claim: Option<tokio::time::Instant> = None;
    let mut last_write = tokio::time::Instant::now() - SPACING;
    loop {
        while let Some(ended) = in_flight.try_join_next() {
            finished.extend(ended_attempt(ended));
        }
        let room = MAX_IN_FLIGHT - in_flight.len();
        if !finished.is_empty() || (maybe_due && room > 0) {
            // Attempts end in bursts: what ends within SPACING of the last write waits for
            // the next, so the worker writes at most once per SPACING.
            let settle_at = last_write + SPACING;
            if !finished.is_empty() && tokio::time::Instant::now() < settle_at {
                tokio::time::sleep_until(settle_at).await;
                continue;
            }
            let Some(inner) = app.upgrade() else { return };
            let app = App { inner };
            // Slots that ended attempts held are free again: their backlogs may go on. The
            // claim also takes what was committed before it, woken or not.
            let limit = room.min(CLAIM_BATCH);
            let claimed = app.settle(std::mem::take(&mut finished), limit).await;
            last_write = tokio::time::Instant::now();
            woken_claim = None;
            maybe_due = claimed.len() == limit;
            next_poll = last_write + poll;
            let attempter = Attempter::of(&app);
            for delivery in claimed {
                in_flight.spawn(attempter.clone().attempt(delivery));
            }
            continue;
        }
        let claim_at = woken_claim.map_or(next_poll, |at| at.min(next_poll));
        tokio::select! {
            Some(ended) = in_flight.join_next(), if !in_flight.is_empty() => {
                finished.extend(ended_attempt(ended));
            }
            () = wake.notified() => {
                woken_claim.get_or_insert(tokio::time::Instant::now() + GATHER);
            }
            // The woken claim's moment, or the poll for events other instances committed
            // and retries come due.
            () = tokio::time::sleep_until(claim_at) => {
                maybe_due = true;
                // With no room to claim in, the next look is a poll from now.
                next_poll = tokio::time::Instant::now() + poll;
                woken_claim = None;
            }
        }
    }
}

/// The outcome of an attempt's task; `None` (logged) if it panicked, when the lease runs out
/// and the delivery is attempted again.
fn ended_attempt(
    ended: Result<FinishedAttempt, tokio::task::JoinError>,
) -> Option<FinishedAttempt> {
    ended
        .inspect_err(|err| tracing::error!(error = %err, "a webhook attempt failed to finish"))
        .ok()
}

impl App {
    /// Records ended attempts and what follows each, then claims up to `limit` due
    /// deliveries (leasing them to this instance), in one transaction. The claimed ones, or
    /// none if the store failed: unrecorded attempts' leases run out and their deliveries are
    /// attempted again (at least once).
    async fn settle(&self, finished: Vec<FinishedAttempt>, limit: usize) -> Vec<ClaimedDelivery> {
        let now = self.now();
        let recorded = finished.len();
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        // Most rounds find nothing: a read says so without a write transaction.
        if finished.is_empty() {
            match self.store().any_delivery_due(now).await {
                Ok(true) => {}
                Ok(false) => return Vec::new(),
                Err(err) => {
                    tracing::warn!(error = %err, "webhook deliveries could not be claimed");
                    return Vec::new();
                }
            }
        }
        let per_endpoint =
            i64::try_from(self.config().webhooks.endpoint_concurrency.max(1)).unwrap_or(i64::MAX);
        let settled = self
            .transact(move |tx| {
                let finished = finished.clone();
                Box::pin(async move {
                    for outcome in finished {
                        tx.finish_attempt(outcome).await?;
                    }
                    tx.claim_deliveries(now, now + LEASE, limit, per_endpoint)
                        .await
                })
            })
            .await;
        settled.unwrap_or_else(|err| {
            tracing::warn!(error = %err, recorded, "webhook attempts could not be recorded or claimed");
            Vec::new()
        })
    }

    /// Forgets deliveries finished longer ago than the retention, with their attempts and
    /// events.
    async fn prune_webhook_history(&self) -> crate::error::Result<()> {
        let retention = i64::try_from(self.config().webhooks.retention.as_secs()).unwrap_or(0);
        let before = self.now() - retention;
        let pruned = self
            .transact(move |tx| Box::pin(async move { tx.prune_webhook_history(before).await }))
            .await?;
        if pruned > 0 {
            tracing::info!(pruned, "forgot finished webhook deliveries");
        }
        Ok(())
    }
}

/// What an attempt needs, without the app: an attempt under way does not keep a stopped
/// app alive.
#[derive(Clone)]
struct Attempter {
    http: HttpClient,
    clock: Arc<dyn Clock>,
    allow_private: bool,
}

impl Attempter {
    fn of(app: &App) -> Attempter {
        Attempter {
            http: app.inner.webhook_http.clone(),
            clock: app.inner.clock.clone(),
            allow_private: app.config().webhooks.allow_private,
        }
    }

    /// Posts one delivery; how it went and what follows.
    async fn attempt(self, delivery: ClaimedDelivery) -> FinishedAttempt {
        let at = self.clock.now();
        let started = Instant::now();
        let (status, error) = self.post(&delivery, at).await;
        let latency_ms = i64::try_from(started.elapsed().as_millis()).unwrap_or(i64::MAX);
        let attempt = DeliveryAttempt {
            id: 0,
            webhook_id: delivery.webhook.id,
            event_id: delivery.event_id.clone(),
            event_type: delivery.event_type,
            at,
            status,
            error,
            latency_ms,
        };
        let verdict = verdict(
            attempt.succeeded(),
            delivery.attempts + 1,
            delivery.event_at,
            self.clock.now(),
        );
        if verdict == AttemptVerdict::Failed {
            tracing::warn!(
                webhook = delivery.webhook.id.0,
                event = %delivery.event_id,
                "a webhook delivery ran out of retries; the endpoint is flagged"
            );
        }
        FinishedAttempt {
            delivery_id: delivery.delivery_id,
            attempt,
            verdict,
        }
    }

    /// Signs and posts a delivery at `at`: the endpoint's status, or what went wrong.
    async fn post(
        &self,
        delivery: &ClaimedDelivery,
        at: Timestamp,
    ) -> (Option<u16>, Option<String>) {
        let hook = &delivery.webhook;
        if literal_is_refused(&hook.url, self.allow_private) {
            return (
                None,
                Some("refused: the URL names a non-public address".into()),
            );
        }
        let mut secrets = Vec::with_capacity(2);
        for (text, until) in [
            (Some(&hook.secret), None),
            (hook.previous_secret.as_ref(), hook.previous_until),
        ] {
            let Some(text) = text else { continue };
            if until.is_some_and(|until| until <= at) {
                continue;
            }
            match Secret::parse(text) {
                Ok(secret) => secrets.push(secret),
                Err(err) => return (None, Some(format!("the stored secret is unusable: {err}"))),
            }
        }
        let keys: Vec<&Secret> = secrets.iter().collect();
        let signature = signature_header(&keys, &delivery.event_id, at, delivery.body.as_bytes());
        let request = http::Request::post(&hook.url)
            .header(http::header::CONTENT_TYPE, "application/json")
            .header(http::header::USER_AGENT, USER_AGENT)
            .header("webhook-id", &delivery.event_id)
            .header("webhook-timestamp", at.to_string())
            .header("webhook-signature", signature)
            .body(Full::new(Bytes::from(delivery.body.clone())));
        let request = match request {
            Ok(request) => request,
            Err(err) => return (None, Some(format!("the endpoint's URL is unusable: {err}"))),
        };
        let exchange = async {
            let answer = self.http.request(request).await?;
            let status = answer.status().as_u16();
            // Read a little of the answer, no more: a receiver's body is not ours to keep.
            let mut body = answer.into_body();
            let mut read = 0;
            while read < MAX_ANSWER_BYTES {
                match body.frame().await {
                    Some(Ok(frame)) => read += frame.data_ref().map_or(0, |d| d.len()),
                    _ => break,
                }
            }
            Ok::<u16, hyper_util::client::legacy::Error>(status)
        };
        match tokio::time::timeout(ATTEMPT_TIMEOUT, exchange).await {
            Ok(Ok(status)) => {
                let error = (!(200..300).contains(&status)).then(|| format!("answered {status}"));
                (Some(status), error)
            }
            Ok(Err(err)) => (None, Some(crate::store::describe(&err))),
            Err(_) => (
                None,
                Some(format!("no answer within {} s", ATTEMPT_TIMEOUT.as_secs())),
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{AttemptVerdict, RETRY_DELAYS, RETRY_WINDOW, retry_delay, verdict};

    #[test]
    fn retries_grow_jittered_and_stop_after_the_window() {
        assert_eq!(retry_delay(1, 0.0), 5);
        assert_eq!(retry_delay(2, 1.0), 36);
        assert_eq!(retry_delay(3, -1.0), 96);
        assert_eq!(retry_delay(50, 0.0), RETRY_DELAYS[RETRY_DELAYS.len() - 1]);
        // The schedule fits the window: its delays add up to about a day.
        let total: i64 = (1..=11).map(|n| retry_delay(n, 0.0)).sum();
        assert!(total > RETRY_WINDOW - 8 * 3_600 && total < RETRY_WINDOW + 8 * 3_600);
        assert_eq!(verdict(true, 3, 0, 10), AttemptVerdict::Delivered);
        assert!(
            matches!(verdict(false, 1, 0, 10), AttemptVerdict::RetryAt(t) if (14..=16).contains(&t))
        );
        assert_eq!(
            verdict(false, 9, 0, RETRY_WINDOW - 60),
            AttemptVerdict::Failed
        );
    }
}
