//! Webhooks on SQLite.

use std::sync::LazyLock;

use async_trait::async_trait;
use rusqlite::params;

use super::{SqliteStore, SqliteTx, all, count, one};
use crate::model::{DeliveryAttempt, EventType, Timestamp, UserId, Webhook, WebhookId};
use crate::store::webhooks::{
    ANY_DUE, ATTEMPTS_PAGE, CLAIMED_DELIVERY, CLOSE_DELIVERY, COUNT_ATTEMPTS, COUNT_WEBHOOKS,
    DELETE_WEBHOOK, DROP_PENDING, FIRST_DUE, FLAG_WEBHOOK, INSERT_ATTEMPT, INSERT_DELIVERY,
    INSERT_WEBHOOK, PRUNE, RESCHEDULE_DELIVERY, ROTATE_SECRET, SUBSCRIBERS, UNFLAG_WEBHOOK,
    UPDATE_WEBHOOK, USER_WEBHOOK, USER_WEBHOOKS, USERS_WITH_WEBHOOKS, attempt_from_row,
    claimed_from_row, closed_state, due_deliveries, webhook_from_row,
};
use crate::store::{
    AttemptVerdict, ClaimedDelivery, FinishedAttempt, Misuse, NewEvent, NewWebhook, Page,
    StoreError, StoreResult, WebhookPatch, WebhookStore, WebhookWrites,
};

/// The ids of the due deliveries to lease next (see [`due_deliveries`]): each endpoint's
/// first due rows found by rowid.
static DUE: LazyLock<String> = LazyLock::new(|| {
    due_deliveries(&format!(
        ", webhook_deliveries c WHERE c.id IN (SELECT x.id {FIRST_DUE}) AND"
    ))
});

#[async_trait]
impl WebhookStore for SqliteStore {
    async fn webhooks(&self, user: UserId) -> StoreResult<Vec<Webhook>> {
        self.read(move |c| all(c, &USER_WEBHOOKS, [user.0], webhook_from_row))
            .await
    }

    async fn webhook(&self, user: UserId, id: WebhookId) -> StoreResult<Option<Webhook>> {
        self.read(move |c| one(c, &USER_WEBHOOK, [user.0, id.0], webhook_from_row))
            .await
    }

    async fn users_with_webhooks(&self) -> StoreResult<Vec<UserId>> {
        self.read(|c| all(c, USERS_WITH_WEBHOOKS, [], |r| Ok(UserId(r.int(0)?))))
            .await
    }

    async fn any_delivery_due(&self, now: Timestamp) -> StoreResult<bool> {
        self.read(move |c| Ok(count(c, ANY_DUE, [now])? > 0)).await
    }

    async fn delivery_attempts(
        &self,
        user: UserId,
        id: WebhookId,
        failed_only: bool,
        offset: i64,
        limit: i64,
    ) -> StoreResult<Option<Page<DeliveryAttempt>>> {
        self.read(move |c| {
            if one(c, &USER_WEBHOOK, [user.0, id.0], webhook_from_row)?.is_none() {
                return Ok(None);
            }
            let total = count(c, COUNT_ATTEMPTS, params![id.0, failed_only])?;
            let items = all(
                c,
                ATTEMPTS_PAGE,
                params![id.0, failed_only, limit, offset],
                attempt_from_row,
            )?;
            Ok(Some(Page { items, total }))
        })
        .await
    }
}

#[async_trait]
impl WebhookWrites for SqliteTx<'_> {
    async fn count_webhooks(&mut self, user: UserId) -> StoreResult<i64> {
        // The one writer runs one transaction at a time.
        count(self.conn, COUNT_WEBHOOKS, [user.0])
    }

    async fn insert_webhook(&mut self, new: NewWebhook) -> StoreResult<Webhook> {
        one(
            self.conn,
            &INSERT_WEBHOOK,
            params![
                new.user_id.0,
                new.url,
                new.events.0,
                new.description,
                new.secret,
                new.created_at
            ],
            webhook_from_row,
        )?
        .ok_or_else(|| StoreError::backend(Misuse("an inserted webhook returned no row")))
    }

    async fn update_webhook(
        &mut self,
        user: UserId,
        id: WebhookId,
        patch: WebhookPatch,
        at: Timestamp,
    ) -> StoreResult<Option<Webhook>> {
        let changed = self.conn.prepare_cached(UPDATE_WEBHOOK)?.execute(params![
            patch.url,
            patch.events.map(|e| e.0),
            patch.description.is_some(),
            patch.description.flatten(),
            patch.enabled,
            at,
            user.0,
            id.0
        ])?;
        if changed == 0 {
            return Ok(None);
        }
        if patch.enabled == Some(false) {
            self.conn.prepare_cached(DROP_PENDING)?.execute([id.0])?;
        }
        one(self.conn, &USER_WEBHOOK, [user.0, id.0], webhook_from_row)
    }

    async fn delete_webhook(&mut self, user: UserId, id: WebhookId) -> StoreResult<bool> {
        let mut deleted = 0;
        for sql in DELETE_WEBHOOK {
            deleted = self.conn.prepare_cached(sql)?.execute([user.0, id.0])?;
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
        let changed = self.conn.prepare_cached(ROTATE_SECRET)?.execute(params![
            previous_until,
            secret,
            at,
            user.0,
            id.0
        ])?;
        if changed == 0 {
            return Ok(None);
        }
        one(self.conn, &USER_WEBHOOK, [user.0, id.0], webhook_from_row)
    }

    async fn webhook_subscribers(
        &mut self,
        user: UserId,
        event: EventType,
    ) -> StoreResult<Vec<WebhookId>> {
        all(self.conn, SUBSCRIBERS, [user.0, event.bit()], |r| {
            Ok(WebhookId(r.int(0)?))
        })
    }

    async fn insert_event(&mut self, event: NewEvent, to: &[WebhookId]) -> StoreResult<()> {
        let mut delivery = self.conn.prepare_cached(INSERT_DELIVERY)?;
        for webhook in to {
            delivery.execute(params![
                event.id,
                event.event_type.name(),
                event.body,
                webhook.0,
                event.created_at
            ])?;
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
        // The one writer makes reading the due rows and leasing them one step.
        let due = all(self.conn, &DUE, [now, per_endpoint, limit], |r| r.int(0))?;
        let mut lease = self
            .conn
            .prepare_cached("UPDATE webhook_deliveries SET lease_until = ?2 WHERE id = ?1")?;
        let mut claimed = Vec::with_capacity(due.len());
        for id in due {
            lease.execute([id, lease_until])?;
            if let Some(delivery) = one(self.conn, &CLAIMED_DELIVERY, [id], claimed_from_row)? {
                claimed.push(delivery);
            }
        }
        Ok(claimed)
    }

    async fn finish_attempt(&mut self, finished: FinishedAttempt) -> StoreResult<()> {
        let FinishedAttempt {
            delivery_id,
            attempt,
            verdict,
        } = finished;
        let moved = match (closed_state(verdict), verdict) {
            (Some(state), _) => self.conn.prepare_cached(CLOSE_DELIVERY)?.execute(params![
                state,
                attempt.at,
                delivery_id
            ])?,
            (None, AttemptVerdict::RetryAt(next)) => self
                .conn
                .prepare_cached(RESCHEDULE_DELIVERY)?
                .execute(params![next, delivery_id])?,
            (None, _) => 0,
        };
        if moved == 0 {
            return Ok(());
        }
        self.conn.prepare_cached(INSERT_ATTEMPT)?.execute(params![
            delivery_id,
            attempt.webhook_id.0,
            attempt.event_id,
            attempt.event_type.name(),
            attempt.at,
            attempt.status.map(i64::from),
            attempt.error,
            attempt.latency_ms
        ])?;
        match verdict {
            AttemptVerdict::Delivered => {
                self.conn
                    .prepare_cached(UNFLAG_WEBHOOK)?
                    .execute([attempt.webhook_id.0])?;
            }
            AttemptVerdict::Failed => {
                self.conn
                    .prepare_cached(FLAG_WEBHOOK)?
                    .execute([attempt.at, attempt.webhook_id.0])?;
            }
            AttemptVerdict::RetryAt(_) => {}
        }
        Ok(())
    }

    async fn prune_webhook_history(&mut self, before: Timestamp) -> StoreResult<u64> {
        let mut deliveries = 0;
        for (i, sql) in PRUNE.iter().enumerate() {
            let n = self.conn.prepare_cached(sql)?.execute([before])?;
            if i == 1 {
                deliveries = n as u64;
            }
        }
        Ok(deliveries)
    }
}
