//! The change feed: a connection of its own that `LISTEN`s on the changes channel and turns
//! each notification into a [`Notice`].
//!
//! PostgreSQL delivers a notification to every listening session when the transaction that
//! sent it commits, and never one whose transaction rolled back. What it cannot do is deliver
//! to a session that is not connected: so every time the listener (re)connects it first sends
//! [`Notice::Resync`], telling the instance to drop what it cached, because changes may have
//! been committed while it was not listening. The first connect sends one too, which covers
//! changes made between the instance loading its caches and the `LISTEN`.
//!
//! The listener also keeps this instance's row in `linkapi_instances` alive (its heartbeat),
//! and passes a [`Notice::Checkpoint`] after every change that needs a barrier and after every
//! resync (numbered with the sequence's value when listening began), which the instance
//! acknowledges once it has applied everything before it.
//!
//! The task ends when the receiving end of the feed is dropped, removing the instance's row.

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::mpsc;
use tokio_postgres::AsyncMessage;

use super::{CHANGES_CHANNEL, Payload};
use crate::store::Notice;

/// How often an idle listener checks that its connection is alive.
const HEARTBEAT: Duration = Duration::from_secs(5);
/// The longest wait between reconnection attempts.
const MAX_BACKOFF: Duration = Duration::from_secs(2);

pub(super) fn start(
    config: tokio_postgres::Config,
    tls: tokio_postgres_rustls::MakeRustlsConnect,
    instance: Arc<str>,
) -> mpsc::UnboundedReceiver<Notice> {
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
    notices: &mpsc::UnboundedSender<Notice>,
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
        client
            .batch_execute(&format!("LISTEN {CHANGES_CHANNEL}"))
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
        if notices.send(Notice::Resync).is_err() || notices.send(Notice::Checkpoint(caught_up)).is_err() {
            return Ok(());
        }
        tracing::debug!("listening for changes from other instances");
        loop {
            tokio::select! {
                payload = received.recv() => {
                    // The driver stopped: the connection is gone.
                    let Some(payload) = payload else {
                        return Err("connection closed".to_owned());
                    };
                    match serde_json::from_str::<Payload>(&payload) {
                        Ok(Payload { change, from, seq }) => {
                            // The writing instance applied its own change right after its
                            // commit; applying the echo again would only empty its cache.
                            let mut sent = from == instance
                                || notices.send(Notice::Change(change)).is_ok();
                            if let Some(seq) = seq {
                                sent &= notices.send(Notice::Checkpoint(seq)).is_ok();
                            }
                            if !sent {
                                return Ok(());
                            }
                        }
                        Err(err) => tracing::warn!(error = %err, payload, "unreadable change notice"),
                    }
                }
                () = tokio::time::sleep(HEARTBEAT) => {
                    if notices.is_closed() {
                        return Ok(());
                    }
                    match tokio::time::timeout(HEARTBEAT, beat(&client, instance)).await {
                        Ok(Ok(())) => {}
                        Ok(Err(err)) => return Err(err),
                        Err(_) => return Err("heartbeat timed out".to_owned()),
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
