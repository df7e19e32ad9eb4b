//! The change feed: a connection of its own that `LISTEN`s on the changes channel and turns
//! each notification into a [`FeedEvent`].
//!
//! PostgreSQL delivers a notification to every listening session when the transaction that
//! sent it commits, and never one whose transaction rolled back. What it cannot do is deliver
//! to a session that is not connected: so every time the listener (re)connects it first sends
//! [`FeedEvent::Resync`], telling the instance to drop what it cached, because changes may have
//! been committed while it was not listening. The first connect sends one too, which covers
//! changes made between the instance loading its caches and the `LISTEN`.
//!
//! The listener also keeps this instance's row in `linkapi_instances` alive (its heartbeat),
//! and passes a [`FeedEvent::Checkpoint`] after every change that needs a barrier and after every
//! resync (numbered with the sequence's value when listening began), which the instance
//! acknowledges once it has applied everything before it.
//!
//! Every [`CATCH_UP`] it makes a round trip on its connection and then passes
//! [`FeedEvent::CaughtUp`] with the instant it sent it: PostgreSQL sends a listening session the
//! notifications committed before a query ahead of that query's answer, so by the answer every
//! change committed before the instant has been passed on. An instance that stops hearing
//! these (frozen, stalled, its feed lost) knows its caches may be stale.
//!
//! The task ends when the receiving end of the feed is dropped, removing the instance's row.

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::mpsc;
use tokio_postgres::AsyncMessage;

use super::changes::{FEED_TOPIC, Payload};
use crate::store::FeedEvent;

/// How often the listener marks the instance alive in `linkapi_instances`.
const HEARTBEAT: Duration = Duration::from_secs(5);
/// How often the listener proves it has passed on every change committed so far; well within
/// `service::freshness::TRUST_WINDOW`, so a live instance never distrusts its caches.
const CATCH_UP: Duration = Duration::from_millis(500);
/// The longest a round trip on the listener's connection may take before it is taken for lost.
const ROUND_TRIP_TIMEOUT: Duration = Duration::from_secs(5);
/// The longest wait between reconnection attempts.
const MAX_BACKOFF: Duration = Duration::from_secs(2);

pub(super) fn start(
    config: tokio_postgres::Config,
    tls: tokio_postgres_rustls::MakeRustlsConnect,
    instance: Arc<str>,
) -> mpsc::UnboundedReceiver<FeedEvent> {
    let (notices, feed) = mpsc::unbounded_channel();
    let mut config = config;
    // So an operator can tell it apart in pg_stat_activity.
    config.application_name("linkapi listener");
    tokio::spawn(async move {
        let mut backoff = Duration::from_millis(50);
        while !notices.is_closed() {
            match listen(&config, &tls, &instance, &notices).await {
                Ok(()) => return,
                Err(err) => {
                    tracing::warn!(error = %err, "change listener disconnected; reconnecting");
                }
            }
            tokio::time::sleep(backoff).await;
            backoff = (backoff * 2).min(MAX_BACKOFF);
        }
    });
    feed
}

/// Listens on one connection until it is lost (`Err`, with why) or the feed's receiver is gone
/// (`Ok`).
async fn listen(
    config: &tokio_postgres::Config,
    tls: &tokio_postgres_rustls::MakeRustlsConnect,
    instance: &str,
    notices: &mpsc::UnboundedSender<FeedEvent>,
) -> Result<(), String> {
    let (client, mut connection) = config
        .connect(tls.clone())
        .await
        .map_err(|e| e.to_string())?;
    // The connection delivers notifications only while it is polled: a task of its own polls
    // it and passes them on; the client's queries below go through it too.
    let (payloads, mut received) = mpsc::unbounded_channel::<String>();
    let driver = tokio::spawn(async move {
        loop {
            match std::future::poll_fn(|cx| connection.poll_message(cx)).await {
                Some(Ok(AsyncMessage::Notification(n))) => {
                    if payloads.send(n.payload().to_owned()).is_err() {
                        return;
                    }
                }
                Some(Ok(_)) => {}
                Some(Err(err)) => {
                    tracing::debug!(error = %err, "change listener connection failed");
                    return;
                }
                None => return,
            }
        }
    });
    let result = async {
        let listening_from = std::time::Instant::now();
        client
            .batch_execute(&format!("LISTEN {FEED_TOPIC}"))
            .await
            .map_err(|e| e.to_string())?;
        // Every numbered change committed from here on will be heard; the ones before are
        // covered by the resync.
        let caught_up: i64 = client
            .query_one(
                "SELECT CASE WHEN is_called THEN last_value ELSE 0 END FROM linkapi_change_seq",
                &[],
            )
            .await
            .map_err(|e| e.to_string())?
            .get(0);
        beat(&client, instance).await?;
        // The resync covers everything committed before the LISTEN took effect.
        if notices.send(FeedEvent::Resync).is_err()
            || notices.send(FeedEvent::Checkpoint(caught_up)).is_err()
            || notices.send(FeedEvent::CaughtUp(listening_from)).is_err()
        {
            return Ok(());
        }
        tracing::debug!("listening for changes from other instances");
        // Intervals, not a sleep restarted by every notification: a busy feed must not put
        // off the heartbeat.
        let mut catch_up = tokio::time::interval(CATCH_UP);
        catch_up.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        let mut last_beat = std::time::Instant::now();
        loop {
            tokio::select! {
                payload = received.recv() => {
                    // The driver stopped: the connection is gone.
                    let Some(payload) = payload else {
                        return Err("connection closed".to_owned());
                    };
                    if !pass_on(&payload, instance, notices) {
                        return Ok(());
                    }
                }
                _ = catch_up.tick() => {
                    if notices.is_closed() {
                        return Ok(());
                    }
                    let sent = std::time::Instant::now();
                    let round_trip = async {
                        if last_beat.elapsed() >= HEARTBEAT {
                            last_beat = sent;
                            beat(&client, instance).await
                        } else {
                            client.simple_query("SELECT 1").await.map(|_| ()).map_err(|e| e.to_string())
                        }
                    };
                    match tokio::time::timeout(ROUND_TRIP_TIMEOUT, round_trip).await {
                        Ok(Ok(())) => {}
                        Ok(Err(err)) => return Err(err),
                        Err(_) => return Err("the change feed stopped answering".to_owned()),
                    }
                    // The driver passed on every notification that came before the answer.
                    while let Ok(payload) = received.try_recv() {
                        if !pass_on(&payload, instance, notices) {
                            return Ok(());
                        }
                    }
                    if notices.send(FeedEvent::CaughtUp(sent)).is_err() {
                        return Ok(());
                    }
                }
            }
        }
    }
    .await;
    if result.is_ok() {
        // The instance is going away: writers need not wait for it any more.
        let _ = client
            .execute("DELETE FROM linkapi_instances WHERE id = $1", &[&instance])
            .await;
    }
    driver.abort();
    result
}

/// Turns a notification into notices; `false` when the instance is gone.
fn pass_on(payload: &str, instance: &str, notices: &mpsc::UnboundedSender<FeedEvent>) -> bool {
    match serde_json::from_str::<Payload>(payload) {
        Ok(Payload { change, from, seq }) => {
            // The writing instance applied its own change right after its commit; applying
            // the echo again would only empty its cache.
            let mut sent =
                from == instance || notices.send(FeedEvent::Invalidation(change)).is_ok();
            if let Some(seq) = seq {
                sent &= notices.send(FeedEvent::Checkpoint(seq)).is_ok();
            }
            sent
        }
        Err(err) => {
            tracing::warn!(error = %err, payload, "unreadable change notice");
            true
        }
    }
}

/// Marks the instance alive, (re)creating its row if an operator or a cleanup removed it.
async fn beat(client: &tokio_postgres::Client, instance: &str) -> Result<(), String> {
    client
        .execute(
            "INSERT INTO linkapi_instances (id, applied, seen_at) VALUES ($1, 0, now())
             ON CONFLICT (id) DO UPDATE SET seen_at = now()",
            &[&instance],
        )
        .await
        .map(|_| ())
        .map_err(|e| e.to_string())
}
