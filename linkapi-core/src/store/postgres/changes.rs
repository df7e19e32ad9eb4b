//! The change feed on PostgreSQL: changes go out with `pg_notify` inside the transaction that
//! made them (`listen` receives them), and a change that needs a barrier waits until every
//! live instance has acknowledged it.

use std::time::Duration;

use async_trait::async_trait;

use super::{INSTANCE_TIMEOUT_SECS, PgStore, PgTx, count, execute};
use crate::store::{BARRIER_TIMEOUT, Invalidation, InvalidationWrites, StoreResult, StoredRow};

/// The name the feed goes by in PostgreSQL's `LISTEN`/`NOTIFY` (which calls it a channel; here
/// a channel is a QR entry of a page chain).
pub(super) const FEED_TOPIC: &str = "linkapi_changes";

/// What a change notification carries: the change, the instance that made it (which applied
/// it already, right after its commit), and when it needs a barrier, its number.
#[derive(serde::Serialize, serde::Deserialize)]
pub(super) struct Payload {
    #[serde(flatten)]
    pub(super) change: Invalidation,
    #[serde(default)]
    pub(super) from: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) seq: Option<i64>,
}

#[async_trait]
impl InvalidationWrites for PgTx<'_> {
    async fn publish(&mut self, change: Invalidation) -> StoreResult<()> {
        let seq = if change.needs_barrier() {
            let seq = count(&self.tx, "SELECT nextval('linkapi_change_seq')", &[]).await?;
            self.barrier = Some(seq);
            Some(seq)
        } else {
            None
        };
        let payload = serde_json::to_string(&Payload {
            change: change.clone(),
            from: self.instance.to_string(),
            seq,
        })
        .map_err(crate::store::StoreError::backend)?;
        execute(
            &self.tx,
            "SELECT pg_notify($1, $2)",
            &[&FEED_TOPIC, &payload],
        )
        .await?;
        self.changes.push(change);
        Ok(())
    }

    async fn publish_after_commit(&mut self, change: Invalidation) -> StoreResult<()> {
        self.after_commit.push(change);
        Ok(())
    }
}

/// Notices to send after their transactions committed, and who waits for them to be sent.
pub(super) struct AfterCommit {
    payloads: Vec<String>,
    sent: tokio::sync::oneshot::Sender<()>,
}

/// The queue of [`AfterCommit`] notices, which one task sends.
pub(super) type AfterCommitQueue = tokio::sync::mpsc::UnboundedSender<AfterCommit>;

/// Most notices sent by one statement.
const NOTICES_PER_SEND: usize = 1_000;

/// Starts the task that sends the notices queued after commits: whatever queued up while the
/// previous batch was being sent goes out in one statement, in a transaction that does not
/// wait for the disk (a notice has nothing to make durable), so the notification lock is
/// held for microseconds once per batch rather than through a flush once per create.
pub(super) fn start_after_commit_sender(pool: deadpool_postgres::Pool) -> AfterCommitQueue {
    let (queue, mut queued) = tokio::sync::mpsc::unbounded_channel::<AfterCommit>();
    tokio::spawn(async move {
        while let Some(first) = queued.recv().await {
            let mut batch = vec![first];
            while batch.len() < NOTICES_PER_SEND {
                match queued.try_recv() {
                    Ok(next) => batch.push(next),
                    Err(_) => break,
                }
            }
            let payloads: Vec<&str> = batch
                .iter()
                .flat_map(|notice| notice.payloads.iter().map(String::as_str))
                .collect();
            let sent = match pool.get().await {
                Ok(client) => execute(
                    &client,
                    "SELECT set_config('synchronous_commit', 'off', true), pg_notify($1, payload)
                     FROM unnest($2::text[]) AS payload",
                    &[&FEED_TOPIC, &payloads],
                )
                .await
                .map(|_| ()),
                Err(err) => Err(super::pool_error(err)),
            };
            if let Err(err) = sent {
                // The writes stand. Other instances miss these notices; what they would have
                // invalidated is cached misses, which are forgotten soon anyway.
                tracing::warn!(error = %err, "could not announce new chains to other instances");
            }
            for notice in batch {
                let _ = notice.sent.send(());
            }
        }
    });
    queue
}

/// Queues `changes` (committed a moment ago by this instance) to be sent to every instance,
/// and waits until they were.
pub(super) async fn announce_after_commit(
    queue: &AfterCommitQueue,
    instance: &str,
    changes: &[Invalidation],
) -> StoreResult<()> {
    let payloads = changes
        .iter()
        .map(|change| {
            serde_json::to_string(&Payload {
                change: change.clone(),
                from: instance.to_owned(),
                seq: None,
            })
        })
        .collect::<Result<Vec<String>, _>>()
        .map_err(crate::store::StoreError::backend)?;
    let (sent, done) = tokio::sync::oneshot::channel();
    if queue.send(AfterCommit { payloads, sent }).is_ok() {
        // The sender answers every notice it takes; it stops only with the store.
        let _ = done.await;
    }
    Ok(())
}

/// Waits until every live instance has applied the change numbered `seq`.
pub(super) async fn await_barrier(store: &PgStore, seq: i64) -> StoreResult<()> {
    fn instance(row: &dyn StoredRow) -> StoreResult<String> {
        row.text(0)
    }
    let started = std::time::Instant::now();
    let mut pause = Duration::from_millis(2);
    loop {
        let behind = store
            .all(
                "SELECT id FROM linkapi_instances
                 WHERE applied < $1 AND seen_at > now() - make_interval(secs => $2)
                   AND (listener_pid IS NULL OR listener_pid IN (SELECT pid FROM pg_stat_activity))",
                &[&seq, &INSTANCE_TIMEOUT_SECS],
                instance,
            )
            .await?;
        if behind.is_empty() {
            return Ok(());
        }
        if started.elapsed() >= BARRIER_TIMEOUT {
            tracing::warn!(
                ids = ?behind,
                seq,
                "instances did not apply a change in time; it is committed and they will \
                 apply it when they catch up"
            );
            return Ok(());
        }
        tokio::time::sleep(pause).await;
        pause = (pause * 2).min(Duration::from_millis(50));
    }
}

/// Records that this instance applied every change up to `seq`.
pub(super) async fn acknowledge(store: &PgStore, seq: i64) -> StoreResult<()> {
    store
        .execute(
            "UPDATE linkapi_instances SET applied = greatest(applied, $2), seen_at = now()
             WHERE id = $1",
            &[&&*store.instance, &seq],
        )
        .await
        .map(|_| ())
}

/// Removes this instance from those writers wait for.
pub(super) async fn deregister(store: &PgStore) {
    if let Err(err) = store
        .execute(
            "DELETE FROM linkapi_instances WHERE id = $1",
            &[&&*store.instance],
        )
        .await
    {
        tracing::warn!(error = %err, "could not deregister this instance");
    }
}
