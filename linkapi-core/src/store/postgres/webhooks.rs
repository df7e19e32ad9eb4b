//! Webhooks on PostgreSQL.

use std::sync::LazyLock;

use async_trait::async_trait;

use super::{PgStore, PgTx, all, count, execute, one};
use crate::model::{DeliveryAttempt, EventType, Timestamp, UserId, Webhook, WebhookId};
use crate::store::webhooks::{
    ANY_DUE, ATTEMPTS_PAGE, CLAIMED_COLUMNS, CLOSE_DELIVERY, COUNT_ATTEMPTS, COUNT_WEBHOOKS,
    DELETE_WEBHOOK, DROP_PENDING, FIRST_DUE, FLAG_WEBHOOK, INSERT_ATTEMPT, INSERT_DELIVERY,
    INSERT_WEBHOOK, PRUNE, RESCHEDULE_DELIVERY, ROTATE_SECRET, SUBSCRIBERS, UNFLAG_WEBHOOK,
    UPDATE_WEBHOOK, USER_WEBHOOK, USER_WEBHOOKS, USERS_WITH_WEBHOOKS, attempt_from_row,
    claimed_from_row, closed_state, due_deliveries, webhook_from_row,
};
use crate::store::{
    AttemptVerdict, ClaimedDelivery, FinishedAttempt, Misuse, NewEvent, NewWebhook, Page,
    StoreError, StoreResult, WebhookPatch, WebhookStore, WebhookWrites,
};

/// Leases the due deliveries [`due_deliveries`] chooses (`$4` the lease's end). Run under
/// [`CLAIM_LOCK`], so it sees every lease committed before it; the state and lease are checked
/// again on each row as it is updated, in case a row moved on since the choice.
static CLAIM: LazyLock<String> = LazyLock::new(|| {
    let due = due_deliveries(&format!(
        "CROSS JOIN LATERAL (SELECT x.id, x.next_at {FIRST_DUE}) c WHERE"
    ));
    format!(
        "WITH d AS (
             UPDATE webhook_deliveries SET lease_until = $4
             WHERE id IN ({due}) AND state = 0 AND lease_until <= $1
             RETURNING id, attempts, event_id, event_type, body, created_at, webhook_id
         )
         SELECT {CLAIMED_COLUMNS} FROM d JOIN webhooks w ON w.id = d.webhook_id"
    )
});

/// An arbitrary constant naming the advisory lock that serializes claims of every instance:
/// an endpoint's bound counts the leases other instances hold, so two claims must not both
/// count before either leases. A claim is one statement, so they queue only briefly.
const CLAIM_LOCK: i64 = 0x6c6b_7768_636c_6169;

#[async_trait]
impl WebhookStore for PgStore {
    async fn webhooks(&self, user: UserId) -> StoreResult<Vec<Webhook>> {
        self.all(&USER_WEBHOOKS, &[&user.0], webhook_from_row).await
    }

    async fn webhook(&self, user: UserId, id: WebhookId) -> StoreResult<Option<Webhook>> {
        self.one(&USER_WEBHOOK, &[&user.0, &id.0], webhook_from_row)
            .await
    }

    async fn users_with_webhooks(&self) -> StoreResult<Vec<UserId>> {
        self.all(USERS_WITH_WEBHOOKS, &[], |r| Ok(UserId(r.int(0)?)))
            .await
    }

    async fn any_delivery_due(&self, now: Timestamp) -> StoreResult<bool> {
        Ok(count(&self.client().await?, ANY_DUE, &[&now]).await? > 0)
    }

    async fn delivery_attempts(
        &self,
        user: UserId,
        id: WebhookId,
        failed_only: bool,
        offset: i64,
        limit: i64,
    ) -> StoreResult<Option<Page<DeliveryAttempt>>> {
        let client = self.client().await?;
        if one(&client, &USER_WEBHOOK, &[&user.0, &id.0], webhook_from_row)
            .await?
            .is_none()
        {
            return Ok(None);
        }
        let total = count(&client, COUNT_ATTEMPTS, &[&id.0, &failed_only]).await?;
        let items = all(
            &client,
            ATTEMPTS_PAGE,
            &[&id.0, &failed_only, &limit, &offset],
            attempt_from_row,
        )
        .await?;
        Ok(Some(Page { items, total }))
    }
}

#[async_trait]
impl WebhookWrites for PgTx<'_> {
    async fn count_webhooks(&mut self, user: UserId) -> StoreResult<i64> {
        // The user's row is what concurrent registrations of one user queue on.
        execute(
            &self.tx,
            "SELECT 1 FROM users WHERE id = $1 FOR UPDATE",
            &[&user.0],
        )
        .await?;
        count(&self.tx, COUNT_WEBHOOKS, &[&user.0]).await
    }

    async fn insert_webhook(&mut self, new: NewWebhook) -> StoreResult<Webhook> {
        one(
            &self.tx,
            &INSERT_WEBHOOK,
            &[
                &new.user_id.0,
                &new.url,
                &new.events.0,
                &new.description,
                &new.secret,
                &new.created_at,
            ],
            webhook_from_row,
        )
        .await?
        .ok_or_else(|| StoreError::backend(Misuse("an inserted webhook returned no row")))
    }

    async fn update_webhook(
        &mut self,
        user: UserId,
        id: WebhookId,
        patch: WebhookPatch,
        at: Timestamp,
    ) -> StoreResult<Option<Webhook>> {
        let changed = execute(
            &self.tx,
            UPDATE_WEBHOOK,
            &[
                &patch.url,
                &patch.events.map(|e| e.0),
                &patch.description.is_some(),
                &patch.description.clone().flatten(),
                &patch.enabled,
                &at,
                &user.0,
                &id.0,
            ],
        )
        .await?;
        if changed == 0 {
            return Ok(None);
        }
        if patch.enabled == Some(false) {
            execute(&self.tx, DROP_PENDING, &[&id.0]).await?;
        }
        one(&self.tx, &USER_WEBHOOK, &[&user.0, &id.0], webhook_from_row).await
    }

    async fn delete_webhook(&mut self, user: UserId, id: WebhookId) -> StoreResult<bool> {
        let mut deleted = 0;
        for sql in DELETE_WEBHOOK {
            deleted = execute(&self.tx, sql, &[&user.0, &id.0]).await?;
        }
        Ok(deleted > 0)
    }

    async fn rotate_webhook_secret(
        &mut self,
        user: UserId,
        id: WebhookId,
        secret: String,
        previous_until: Timestamp,
        at: Timestamp,
    ) -> StoreResult<Option<Webhook>> {
        let changed = execute(
            &self.tx,
            ROTATE_SECRET,
            &[&previous_until, &secret, &at, &user.0, &id.0],
        )
        .await?;
        if changed == 0 {
            return Ok(None);
        }
        one(&self.tx, &USER_WEBHOOK, &[&user.0, &id.0], webhook_from_row).await
    }

    async fn webhook_subscribers(
        &mut self,
        user: UserId,
        event: EventType,
    ) -> StoreResult<Vec<WebhookId>> {
        all(&self.tx, SUBSCRIBERS, &[&user.0, &event.bit()], |r| {
            Ok(WebhookId(r.int(0)?))
        })
        .await
    }

    async fn insert_event(&mut self, event: NewEvent, to: &[WebhookId]) -> StoreResult<()> {
        for webhook in to {
            execute(
                &self.tx,
                INSERT_DELIVERY,
                &[
                    &event.id,
                    &event.event_type.name(),
                    &event.body,
                    &webhook.0,
                    &event.created_at,
                ],
            )
            .await?;
        }
        Ok(())
    }

    async fn claim_deliveries(
        &mut self,
        now: Timestamp,
        lease_until: Timestamp,
        limit: i64,
        per_endpoint: i64,
    ) -> StoreResult<Vec<ClaimedDelivery>> {
        execute(&self.tx, "SELECT pg_advisory_xact_lock($1)", &[&CLAIM_LOCK]).await?;
        all(
            &self.tx,
            &CLAIM,
            &[&now, &per_endpoint, &limit, &lease_until],
            claimed_from_row,
        )
        .await
    }

    async fn finish_attempt(&mut self, finished: FinishedAttempt) -> StoreResult<()> {
        let FinishedAttempt {
            delivery_id,
            attempt,
            verdict,
        } = finished;
        let moved = match (closed_state(verdict), verdict) {
            (Some(state), _) => {
                execute(
                    &self.tx,
                    CLOSE_DELIVERY,
                    &[&state, &attempt.at, &delivery_id],
                )
                .await?
            }
            (None, AttemptVerdict::RetryAt(next)) => {
                execute(&self.tx, RESCHEDULE_DELIVERY, &[&next, &delivery_id]).await?
            }
            (None, _) => 0,
        };
        if moved == 0 {
            return Ok(());
        }
        let status = attempt.status.map(i64::from);
        execute(
            &self.tx,
            INSERT_ATTEMPT,
            &[
                &delivery_id,
                &attempt.webhook_id.0,
                &attempt.event_id,
                &attempt.event_type.name(),
                &attempt.at,
                &status,
                &attempt.error,
                &attempt.latency_ms,
            ],
        )
        .await?;
        match verdict {
            AttemptVerdict::Delivered => {
                execute(&self.tx, UNFLAG_WEBHOOK, &[&attempt.webhook_id.0]).await?;
            }
            AttemptVerdict::Failed => {
                execute(
                    &self.tx,
                    FLAG_WEBHOOK,
                    &[&attempt.at, &attempt.webhook_id.0],
                )
                .await?;
            }
            AttemptVerdict::RetryAt(_) => {}
        }
        Ok(())
    }

    async fn prune_webhook_history(&mut self, before: Timestamp) -> StoreResult<u64> {
        let mut deliveries = 0;
        for (i, sql) in PRUNE.iter().enumerate() {
            let n = execute(&self.tx, sql, &[&before]).await?;
            if i == 1 {
                deliveries = n;
            }
        }
        Ok(deliveries)
    }
}
