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
//! Both queues on the way (connection to listener, listener to instance) are bounded. When the
//! instance falls so far behind that one fills, the listener drops its connection and
//! reconnects, which opens with a resync: the instance forgets its caches instead of holding an
//! ever-growing backlog, and memory stays bounded however fast the others write.
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
/// `service::engine::freshness::TRUST_WINDOW`, so a live instance never distrusts its caches.
const CATCH_UP: Duration = Duration::from_millis(500);
/// The longest a round trip on the listener's connection may take before it is taken for lost.
const ROUND_TRIP_TIMEOUT: Duration = Duration::from_secs(5);
/// The longest wait between reconnection attempts.
const MAX_BACKOFF: Duration = Duration::from_secs(2);
/// Notices an instance may have waiting before it is taken to have fallen behind (each one a
/// few dozen bytes; a burst of writes elsewhere is thousands).
pub const FEED_CAPACITY: usize = 8192;

/// Why a notice was not passed on.
enum Undelivered {
    /// The instance is gone: stop.
    Closed,
    /// The instance is behind: start again from a resync.
    Behind,
}

/// Passes a notice on without waiting.
fn offer(notices: &mpsc::Sender<FeedEvent>, notice: FeedEvent) -> Result<(), Undelivered> {
    notices.try_send(notice).map_err(|err| match err {
        mpsc::error::TrySendError::Full(_) => Undelivered::Behind,
        mpsc::error::TrySendError::Closed(_) => Undelivered::Closed,
    })
}

pub(super) fn start(
    config: tokio_postgres::Config,
    tls: tokio_postgres_rustls::MakeRustlsConnect,
    instance: Arc<str>,
) -> mpsc::Receiver<FeedEvent> {
    let (notices, feed) = mpsc::channel(FEED_CAPACITY);
    let mut config = config;
    // So an operator can tell it apart in pg_stat_activity.
    config.application_name("linkapi listener");
    tokio::spawn(async move {
        let mut backoff = Duration::from_millis(50);
        // Failed attempts since the listener last listened: an outage is logged when it
        // starts and when it ends, not at every attempt in between.
        let mut failed_attempts = 0u32;
        while !notices.is_closed() {
            let mut listened = false;
            let outcome = listen(&config, &tls, &instance, &notices, &mut listened).await;
            if listened {
                if failed_attempts > 0 {
                    tracing::info!(failed_attempts, "change listener reconnected");
                }
                failed_attempts = 0;
            }
            match outcome {
                Ok(()) => return,
                Err(err) if failed_attempts == 0 => {
                    tracing::warn!(error = %err, "change listener disconnected; reconnecting");
                }
                Err(err) => {
                    tracing::debug!(error = %err, failed_attempts, "change listener still cannot connect");
                }
            }
            failed_attempts += 1;
            tokio::time::sleep(backoff).await;
            backoff = (backoff * 2).min(MAX_BACKOFF);
        }
    });
    feed
}

/// Listens on one connection until it is lost (`Err`, with why) or the feed's receiver is gone
/// (`Ok`); sets `listened` once it listens.
async fn listen(
    config: &tokio_postgres::Config,
    tls: &tokio_postgres_rustls::MakeRustlsConnect,
    instance: &str,
    notices: &mpsc::Sender<FeedEvent>,
    listened: &mut bool,
) -> Result<(), String> {
    let (client, mut connection) = config
        .connect(tls.clone())
        .await
        .map_err(|e| e.to_string())?;
    // The connection delivers notifications only while it is polled: a task of its own polls
    // it and passes them on; the client's queries below go through it too.
    // It never waits for the listener (whose queries it carries): when the queue is full it
    // stops, which closes the connection and starts again from a resync.
    let (payloads, mut received) = mpsc::channel::<String>(FEED_CAPACITY);
    let driver = tokio::spawn(async move {
        loop {
            match std::future::poll_fn(|cx| connection.poll_message(cx)).await {
                Some(Ok(AsyncMessage::Notification(n))) => {
                    if let Err(err) = payloads.try_send(n.payload().to_owned()) {
                        if matches!(err, mpsc::error::TrySendError::Full(_)) {
                            behind();
                        }
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
        // The resync covers everything committed before the LISTEN took effect. These wait
        // for room: after falling behind, the instance first works off what it has.
        if notices.send(FeedEvent::Resync).await.is_err()
            || notices.send(FeedEvent::Checkpoint(caught_up)).await.is_err()
            || notices.send(FeedEvent::CaughtUp(listening_from)).await.is_err()
        {
            return Ok(());
        }
        tracing::debug!("listening for changes from other instances");
        *listened = true;
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
                    match pass_on(&payload, instance, notices) {
                        Ok(()) => {}
                        Err(Undelivered::Closed) => return Ok(()),
                        Err(Undelivered::Behind) => return Err(behind()),
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
                        match pass_on(&payload, instance, notices) {
                            Ok(()) => {}
                            Err(Undelivered::Closed) => return Ok(()),
                            Err(Undelivered::Behind) => return Err(behind()),
                        }
                    }
                    match offer(notices, FeedEvent::CaughtUp(sent)) {
                        Ok(()) => {}
                        Err(Undelivered::Closed) => return Ok(()),
                        Err(Undelivered::Behind) => return Err(behind()),
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

/// Why the listener starts again after the instance fell behind.
fn behind() -> String {
    tracing::warn!("this instance fell behind the change feed; starting again from a resync");
    "the instance fell behind the change feed".to_owned()
}

/// Turns a notification into notices.
fn pass_on(
    payload: &str,
    instance: &str,
    notices: &mpsc::Sender<FeedEvent>,
) -> Result<(), Undelivered> {
    match serde_json::from_str::<Payload>(payload) {
        Ok(Payload { change, from, seq }) => {
            // The writing instance applied its own change right after its commit; applying
            // the echo again would only empty its cache.
            if from != instance {
                offer(notices, FeedEvent::Invalidation(change))?;
            }
            if let Some(seq) = seq {
                offer(notices, FeedEvent::Checkpoint(seq))?;
            }
            Ok(())
        }
        Err(err) => {
            tracing::warn!(error = %err, payload, "unreadable change notice");
            Ok(())
        }
    }
}

/// Marks the instance alive, (re)creating its row if an operator or a cleanup removed it, with
/// the backend of this connection: while that backend lives the instance is reachable. Then
/// removes the rows of instances that are gone: their listener's backend has ended (the
/// process crashed or was killed, so PostgreSQL closed its session), or they have not beaten
/// for ten minutes.
async fn beat(client: &tokio_postgres::Client, instance: &str) -> Result<(), String> {
    client
        .execute(
            "INSERT INTO linkapi_instances (id, applied, seen_at, listener_pid)
             VALUES ($1, 0, now(), pg_backend_pid())
             ON CONFLICT (id) DO UPDATE SET seen_at = now(), listener_pid = pg_backend_pid()",
            &[&instance],
        )
        .await
        .map_err(|e| e.to_string())?;
    client
        .execute(
            "DELETE FROM linkapi_instances
             WHERE id <> $1 AND (seen_at < now() - interval '10 minutes'
                OR listener_pid NOT IN (SELECT pid FROM pg_stat_activity))",
            &[&instance],
        )
        .await
        .map(|_| ())
        .map_err(|e| e.to_string())
}
