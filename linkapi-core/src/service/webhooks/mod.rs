//! Webhooks: the endpoints a user registers, the events their writes record, and their
//! delivery.
//!
//! A write that reports an event calls [`emit`] inside its own transaction: the event and a
//! delivery per subscribed endpoint commit with the change or not at all (the outbox). The
//! delivery worker (`delivery`) of each instance claims due deliveries, signs and posts them,
//! and records each attempt; where the endpoint (`target`) may be is checked at registration
//! and at every connection.
//!
//! Plain creates skip the general transaction for speed (`plain_creates`); a user with an
//! enabled endpoint has their creates take the general path so that their events are
//! written. Which users have one is kept in memory ([`WebhookUsers`]) and reloaded on every
//! instance, before the endpoint's registration answers, through a change that needs a
//! barrier ([`Invalidation::Webhooks`]).

mod delivery;
mod target;

use std::collections::HashSet;
use std::sync::{Arc, RwLock};
use std::time::Duration;

pub(crate) use delivery::start_delivery;
pub use delivery::{RETRY_DELAYS, RETRY_WINDOW, retry_delay};
pub(crate) use target::{HttpClient, http_client};

use super::chain_checks::PageWindow;
use super::{App, BodyError, Principal, TextRule, check_text};
use crate::error::{Error, Result, names};
use crate::locks::Unpoisoned;
use crate::model::EventData;
use crate::model::{DeliveryAttempt, EventSet, EventType, Timestamp, UserId, Webhook, WebhookId};
use crate::signing::Secret;
use crate::store::{Invalidation, NewEvent, NewWebhook, Page, StoreResult, Tx, WebhookPatch};
use crate::wire::events::event_body;

/// Most endpoints one user may register.
pub const MAX_WEBHOOKS_PER_USER: usize = 20;
/// How long a rotated-out secret still signs deliveries.
pub const PREVIOUS_SECRET_GRACE: Timestamp = 24 * 3600;

/// How the deployment sends webhooks.
#[derive(Debug, Clone)]
pub struct WebhookConfig {
    /// Whether endpoints may be loopback, private, link-local or other non-public addresses
    /// (tests and local development); never in production.
    pub allow_private: bool,
    /// How long finished deliveries, their attempts and their events are kept.
    pub retention: Duration,
    /// How often an idle worker looks for deliveries other instances recorded (its own
    /// instance's wake it at once).
    pub poll_interval: Duration,
    /// Deliveries to one endpoint under way at once, across every instance: an endpoint
    /// that hangs holds this many attempts and no more, and a slow one is not sent more
    /// than it answers.
    pub endpoint_concurrency: usize,
}

impl Default for WebhookConfig {
    fn default() -> Self {
        WebhookConfig {
            allow_private: false,
            retention: Duration::from_secs(30 * 86_400),
            poll_interval: Duration::from_secs(1),
            endpoint_concurrency: 16,
        }
    }
}

/// The users with an enabled endpoint, as this instance last loaded them, and the signal that
/// wakes the delivery worker.
pub(crate) struct WebhookUsers {
    users: RwLock<HashSet<UserId>>,
    pub(crate) wake: Arc<tokio::sync::Notify>,
}

impl WebhookUsers {
    pub(crate) fn new(users: Vec<UserId>) -> Self {
        WebhookUsers {
            users: RwLock::new(users.into_iter().collect()),
            wake: Arc::new(tokio::sync::Notify::new()),
        }
    }

    fn has(&self, user: UserId) -> bool {
        self.users.read().unpoisoned().contains(&user)
    }

    fn replace(&self, users: Vec<UserId>) {
        *self.users.write().unpoisoned() = users.into_iter().collect();
    }
}

/// What `POST /webhooks` takes.
#[derive(Debug, Clone)]
pub struct NewWebhookInput {
    /// Where events go.
    pub url: String,
    /// Event names to subscribe to.
    pub events: Vec<String>,
    /// A note.
    pub description: Option<String>,
}

/// What `PATCH /webhooks/{id}` takes; `None` leaves a field as it is.
#[derive(Debug, Clone, Default)]
pub struct WebhookEdit {
    /// A new URL.
    pub url: Option<String>,
    /// New subscriptions.
    pub events: Option<Vec<String>>,
    /// A new note (an empty one clears it).
    pub description: Option<String>,
    /// Enable or disable.
    pub enabled: Option<bool>,
}

/// Records `event` of `user`'s write at `at` inside the write's transaction `tx`, with `data`
/// as the body's `data`, for every endpoint of the user subscribed to it: the event commits
/// with the write or not at all.
pub(crate) async fn emit(
    tx: &mut dyn Tx,
    user: UserId,
    event: EventType,
    at: Timestamp,
    data: EventData<'_>,
) -> StoreResult<()> {
    emit_each(tx, user, event, at, [data]).await
}

/// [`emit`] of one event per item of `data` (a bulk write), looking up the subscribers once.
pub(crate) async fn emit_each<'d>(
    tx: &mut dyn Tx,
    user: UserId,
    event: EventType,
    at: Timestamp,
    data: impl IntoIterator<Item = EventData<'d>> + Send,
) -> StoreResult<()> {
    let to = tx.webhook_subscribers(user, event).await?;
    for d in data {
        emit_to(tx, &to, user, event, at, d).await?;
    }
    Ok(())
}

/// [`emit`] to `to`, the endpoints subscribed (`Tx::webhook_subscribers`), looked up once by a
/// caller that makes its items one at a time and only when `to` is not empty (a bulk create
/// with nobody subscribed encodes nothing).
pub(crate) async fn emit_to(
    tx: &mut dyn Tx,
    to: &[WebhookId],
    user: UserId,
    event: EventType,
    at: Timestamp,
    data: EventData<'_>,
) -> StoreResult<()> {
    if to.is_empty() {
        return Ok(());
    }
    tx.insert_event(new_event(user, event, at, data), to).await
}

/// An event with a new id and its body.
fn new_event(user: UserId, event: EventType, at: Timestamp, data: EventData<'_>) -> NewEvent {
    NewEvent {
        // Time-ordered, and unique by its 80 random bits.
        id: format!(
            "msg_{}",
            ulid::Ulid::from_parts(u64::try_from(at).unwrap_or(0) * 1000, rand::random())
        ),
        user_id: user,
        event_type: event,
        body: event_body(event, at, data),
        created_at: at,
    }
}

/// The subscribed events of a list of names.
fn event_set(names: &[String]) -> Result<EventSet> {
    if names.is_empty() {
        return Err(Error::bad_request(
            names::INVALID_EVENTS,
            "events must name at least one event",
        ));
    }
    let mut events = Vec::with_capacity(names.len());
    for name in names {
        match EventType::from_name(name).filter(|e| *e != EventType::WebhookTest) {
            Some(event) => events.push(event),
            None => {
                let known: Vec<&str> = EventType::SUBSCRIBABLE.iter().map(|e| e.name()).collect();
                return Err(Error::bad_request(
                    names::INVALID_EVENTS,
                    format!("unknown event {name:?}; events are {}", known.join(", ")),
                ));
            }
        }
    }
    Ok(EventSet::of(events))
}

/// A description as given, checked; `None` for an empty one (which clears it).
fn description(text: &str) -> Result<Option<String>> {
    let text = check_text("description", text, DESCRIPTION)?;
    Ok((!text.is_empty()).then_some(text))
}

const DESCRIPTION: TextRule = TextRule {
    max: 200,
    required: false,
    lines: false,
    code: names::INVALID_DESCRIPTION,
};

impl App {
    /// Whether `user` has an enabled endpoint, as this instance knows.
    pub(crate) fn emits_webhooks(&self, user: UserId) -> bool {
        self.inner.webhook_users.has(user)
    }

    /// Wakes this instance's delivery worker: an event was just committed.
    pub(crate) fn wake_deliveries(&self) {
        self.inner.webhook_users.wake.notify_one();
    }

    /// After a write of `user`'s that may have recorded events: wakes the delivery worker if
    /// the user has endpoints, so they are sent at once rather than at the next poll.
    pub(crate) fn events_committed(&self, user: UserId) {
        if self.emits_webhooks(user) {
            self.wake_deliveries();
        }
    }

    /// Reloads which users have an enabled endpoint.
    pub(crate) async fn reload_webhook_users(&self) -> Result<()> {
        let users = self.store().users_with_webhooks().await?;
        self.inner.webhook_users.replace(users);
        Ok(())
    }

    /// Registers an endpoint of the caller. The answer carries its secret, the only time
    /// it is shown.
    ///
    /// # Errors
    /// 400 for a bad URL (or one that is not public), events or description; 422
    /// `too_many_webhooks` past [`MAX_WEBHOOKS_PER_USER`].
    pub async fn create_webhook(&self, who: &Principal, input: NewWebhookInput) -> Result<Webhook> {
        let allow_private = self.config().webhooks.allow_private;
        let url = target::check_url(input.url.trim(), allow_private).await?;
        let events = event_set(&input.events)?;
        let description = input
            .description
            .as_deref()
            .map(description)
            .transpose()?
            .flatten();
        let new = NewWebhook {
            user_id: who.user_id,
            url: url.to_string(),
            events,
            description,
            secret: Secret::generate().expose(),
            created_at: self.now(),
        };
        let created = self
            .transact_checked(move |tx| {
                let new = new.clone();
                Box::pin(async move {
                    let held = tx.count_webhooks(new.user_id).await?;
                    if held >= MAX_WEBHOOKS_PER_USER as i64 {
                        return Err(BodyError::Rule(Error::unprocessable(
                            names::TOO_MANY_WEBHOOKS,
                            format!("a user may register at most {MAX_WEBHOOKS_PER_USER} webhooks"),
                        )));
                    }
                    let webhook = tx.insert_webhook(new).await?;
                    tx.publish(Invalidation::Webhooks).await?;
                    Ok(webhook)
                })
            })
            .await?;
        Ok(created)
    }

    /// The caller's endpoints, oldest first.
    ///
    /// # Errors
    /// When the store fails.
    pub async fn webhooks(&self, who: &Principal) -> Result<Vec<Webhook>> {
        Ok(self.store().webhooks(who.user_id).await?)
    }

    /// One of the caller's endpoints.
    ///
    /// # Errors
    /// 404 when the caller has no such endpoint.
    pub async fn webhook(&self, who: &Principal, id: WebhookId) -> Result<Webhook> {
        self.store()
            .webhook(who.user_id, id)
            .await?
            .ok_or(Error::NotFound("webhook"))
    }

    /// Edits one of the caller's endpoints; disabling it drops its pending deliveries.
    ///
    /// # Errors
    /// 400 as for [`App::create_webhook`]; 404 when the caller has no such endpoint.
    pub async fn update_webhook(
        &self,
        who: &Principal,
        id: WebhookId,
        edit: WebhookEdit,
    ) -> Result<Webhook> {
        let allow_private = self.config().webhooks.allow_private;
        let url = match edit.url.as_deref() {
            Some(url) => Some(
                target::check_url(url.trim(), allow_private)
                    .await?
                    .to_string(),
            ),
            None => None,
        };
        let events = edit.events.as_deref().map(event_set).transpose()?;
        let description = edit.description.as_deref().map(description).transpose()?;
        let patch = WebhookPatch {
            url,
            events,
            description,
            enabled: edit.enabled,
        };
        let (user, at) = (who.user_id, self.now());
        let updated = self
            .transact(move |tx| {
                let patch = patch.clone();
                Box::pin(async move {
                    let updated = tx.update_webhook(user, id, patch, at).await?;
                    if updated.is_some() {
                        tx.publish(Invalidation::Webhooks).await?;
                    }
                    Ok(updated)
                })
            })
            .await?;
        updated.ok_or(Error::NotFound("webhook"))
    }

    /// Deletes one of the caller's endpoints, its pending deliveries and its history.
    ///
    /// # Errors
    /// 404 when the caller has no such endpoint.
    pub async fn delete_webhook(&self, who: &Principal, id: WebhookId) -> Result<()> {
        let user = who.user_id;
        let deleted = self
            .transact(move |tx| {
                Box::pin(async move {
                    let deleted = tx.delete_webhook(user, id).await?;
                    if deleted {
                        tx.publish(Invalidation::Webhooks).await?;
                    }
                    Ok(deleted)
                })
            })
            .await?;
        if deleted {
            Ok(())
        } else {
            Err(Error::NotFound("webhook"))
        }
    }

    /// Gives one of the caller's endpoints a new secret; deliveries are signed with the old
    /// one too for [`PREVIOUS_SECRET_GRACE`]. The answer carries the new secret.
    ///
    /// # Errors
    /// 404 when the caller has no such endpoint.
    pub async fn rotate_webhook_secret(&self, who: &Principal, id: WebhookId) -> Result<Webhook> {
        let (user, at) = (who.user_id, self.now());
        let secret = Secret::generate().expose();
        let rotated = self
            .transact(move |tx| {
                let secret = secret.clone();
                Box::pin(async move {
                    tx.rotate_webhook_secret(user, id, secret, at + PREVIOUS_SECRET_GRACE, at)
                        .await
                })
            })
            .await?;
        rotated.ok_or(Error::NotFound("webhook"))
    }

    /// Sends a `webhook.test` event to one of the caller's endpoints (and no other); its id.
    ///
    /// # Errors
    /// 404 when the caller has no such endpoint; 409 `webhook_disabled` when it is disabled.
    pub async fn test_webhook(&self, who: &Principal, id: WebhookId) -> Result<String> {
        let webhook = self.webhook(who, id).await?;
        if !webhook.enabled {
            return Err(Error::Conflict {
                code: names::WEBHOOK_DISABLED,
                message: format!("webhook {id} is disabled; enable it to send events"),
            });
        }
        let event = new_event(
            who.user_id,
            EventType::WebhookTest,
            self.now(),
            EventData::Test(id),
        );
        let event_id = event.id.clone();
        self.transact(move |tx| {
            let event = event.clone();
            Box::pin(async move { tx.insert_event(event, &[id]).await })
        })
        .await?;
        self.wake_deliveries();
        Ok(event_id)
    }

    /// A page of the attempts to deliver to one of the caller's endpoints, newest first (only
    /// those that did not succeed when `failed_only`), with the page's number and size.
    ///
    /// # Errors
    /// 404 when the caller has no such endpoint; 400 for a bad page.
    pub async fn webhook_deliveries(
        &self,
        who: &Principal,
        id: WebhookId,
        failed_only: bool,
        page: Option<i64>,
        page_size: Option<i64>,
    ) -> Result<(Page<DeliveryAttempt>, i64, i64)> {
        let window = PageWindow::new(page, page_size)?;
        let found = self
            .store()
            .delivery_attempts(who.user_id, id, failed_only, window.offset(), window.size)
            .await?
            .ok_or(Error::NotFound("webhook"))?;
        Ok((found, window.page, window.size))
    }
}
