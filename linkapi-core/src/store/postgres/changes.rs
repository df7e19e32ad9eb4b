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
