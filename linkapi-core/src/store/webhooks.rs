//! Webhooks: a user's endpoints, the outbox of events written with the changes they report,
//! one delivery per event and endpoint, and every attempt.
//!
//! An event goes into `webhook_deliveries` inside the transaction of the write it reports, a
//! row (holding the event's id, type and body) for each endpoint subscribed to it then; the
//! delivery worker of any instance claims due deliveries by setting their lease (PostgreSQL
//! skips rows another instance is claiming at that moment), so one instance at a time attempts
//! a delivery, and a lease that runs out (an instance that died mid-delivery) lets another take
//! it.

use async_trait::async_trait;

use super::{Page, StoreResult, StoredRow, bad_value};
use crate::model::{
    DeliveryAttempt, DeliveryState, EventSet, EventType, Timestamp, UserId, Webhook, WebhookId,
};

/// A new endpoint; the service has checked every field.
#[derive(Debug, Clone)]
pub struct NewWebhook {
    /// Its owner.
    pub user_id: UserId,
    /// Where events go.
    pub url: String,
    /// What it subscribes to.
    pub events: EventSet,
    /// The owner's note.
    pub description: Option<String>,
    /// The signing secret's text.
    pub secret: String,
    /// Now.
    pub created_at: Timestamp,
}

/// A change to an endpoint: `None` leaves a field as it is.
#[derive(Debug, Clone, Default)]
pub struct WebhookPatch {
    /// A new URL.
    pub url: Option<String>,
    /// New subscriptions.
    pub events: Option<EventSet>,
    /// A new note (`Some(None)` clears it).
    pub description: Option<Option<String>>,
    /// Enabled or disabled.
    pub enabled: Option<bool>,
}

/// An event to record with the write it reports.
#[derive(Debug, Clone)]
pub struct NewEvent {
    /// `msg_` and a random part: the `webhook-id` every attempt sends.
    pub id: String,
    /// Whose write it reports.
    pub user_id: UserId,
    /// What happened.
    pub event_type: EventType,
    /// The exact body sent (and signed) on every attempt.
    pub body: String,
    /// When it happened.
    pub created_at: Timestamp,
}

/// A delivery claimed for an attempt, with what the attempt needs.
#[derive(Debug, Clone)]
pub struct ClaimedDelivery {
    /// The delivery's row.
    pub delivery_id: i64,
    /// Attempts made before this one.
    pub attempts: i64,
    /// The event's id.
    pub event_id: String,
    /// The event's type.
    pub event_type: EventType,
    /// The body to send.
    pub body: String,
    /// When the event happened.
    pub event_at: Timestamp,
    /// The endpoint.
    pub webhook: Webhook,
}

/// What an attempt comes to for its delivery.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AttemptVerdict {
    /// The endpoint took the event.
    Delivered,
    /// Try again at this time.
    RetryAt(Timestamp),
    /// No more tries: the delivery failed and the endpoint is flagged.
    Failed,
}

/// The outcome of one attempt, recorded with the delivery's new state.
#[derive(Debug, Clone)]
pub struct FinishedAttempt {
    /// The delivery attempted.
    pub delivery_id: i64,
    /// The attempt, as listed (`id` is assigned by the store).
    pub attempt: DeliveryAttempt,
    /// What follows.
    pub verdict: AttemptVerdict,
}

/// The columns of an endpoint, in the order [`webhook_from_row`] reads them.
pub(crate) const WEBHOOK_COLUMNS: &str = "id, user_id, url, events, description, enabled,
    secret, previous_secret, previous_until, failing_since, created_at, updated_at";

pub(crate) fn webhook_from_row(row: &dyn StoredRow) -> StoreResult<Webhook> {
    Ok(Webhook {
        id: WebhookId(row.int(0)?),
        user_id: UserId(row.int(1)?),
        url: row.text(2)?,
        events: EventSet(row.int(3)?),
        description: row.opt_text(4)?,
        enabled: row.flag(5)?,
        secret: row.text(6)?,
        previous_secret: row.opt_text(7)?,
        previous_until: row.opt_int(8)?,
        failing_since: row.opt_int(9)?,
        created_at: row.int(10)?,
        updated_at: row.int(11)?,
    })
}

/// A user's endpoints, oldest first.
pub(crate) static USER_WEBHOOKS: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
    format!("SELECT {WEBHOOK_COLUMNS} FROM webhooks WHERE user_id = $1 ORDER BY id")
});

/// One of a user's endpoints.
pub(crate) static USER_WEBHOOK: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
    format!("SELECT {WEBHOOK_COLUMNS} FROM webhooks WHERE user_id = $1 AND id = $2")
});

/// Registers an endpoint, returning it.
pub(crate) static INSERT_WEBHOOK: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
    format!(
        "INSERT INTO webhooks (user_id, url, events, description, secret, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $6) RETURNING {WEBHOOK_COLUMNS}"
    )
});

/// Changes what a [`WebhookPatch`] gives of one of a user's endpoints (`$3`: whether to set
/// the description to `$4`) at `$6`; the user `$7`, the endpoint `$8`.
pub(crate) const UPDATE_WEBHOOK: &str = "UPDATE webhooks
     SET url = coalesce($1, url), events = coalesce($2, events),
         description = CASE WHEN $3 THEN $4 ELSE description END,
         enabled = coalesce($5, enabled), updated_at = $6
     WHERE user_id = $7 AND id = $8";

/// A new secret `$2` at `$3` for one of a user's endpoints (the user `$4`, the endpoint `$5`),
/// the current one kept until `$1`.
pub(crate) const ROTATE_SECRET: &str = "UPDATE webhooks
     SET previous_secret = secret, previous_until = $1, secret = $2, updated_at = $3
     WHERE user_id = $4 AND id = $5";

/// Deletes one of a user's endpoints, its attempts and pending deliveries first (finished
/// deliveries go with the retention, as everyone's do).
pub(crate) const DELETE_WEBHOOK: [&str; 3] = [
    "DELETE FROM webhook_attempts
     WHERE webhook_id IN (SELECT id FROM webhooks WHERE user_id = $1 AND id = $2)",
    "DELETE FROM webhook_deliveries
     WHERE state = 0
       AND webhook_id IN (SELECT id FROM webhooks WHERE user_id = $1 AND id = $2)",
    "DELETE FROM webhooks WHERE user_id = $1 AND id = $2",
];

/// How many endpoints a user has.
pub(crate) const COUNT_WEBHOOKS: &str = "SELECT count(*) FROM webhooks WHERE user_id = $1";

/// The users with an enabled endpoint.
pub(crate) const USERS_WITH_WEBHOOKS: &str =
    "SELECT DISTINCT user_id FROM webhooks WHERE enabled ORDER BY user_id";

/// A user's enabled endpoints subscribed to an event (`$2`: its bit).
pub(crate) const SUBSCRIBERS: &str =
    "SELECT id FROM webhooks WHERE user_id = $1 AND enabled AND (events & $2) <> 0 ORDER BY id";

/// Records an event's delivery to one endpoint, due at once.
pub(crate) const INSERT_DELIVERY: &str = "INSERT INTO webhook_deliveries
        (event_id, event_type, body, webhook_id, state, attempts, next_at, lease_until,
         created_at)
     VALUES ($1, $2, $3, $4, 0, 0, $5, 0, $5)";

/// A page of an endpoint's attempts, newest first (`$2`: only those that did not succeed).
pub(crate) const ATTEMPTS_PAGE: &str =
    "SELECT id, webhook_id, event_id, event_type, at, status, error, latency_ms
     FROM webhook_attempts
     WHERE webhook_id = $1 AND (NOT $2 OR status IS NULL OR status < 200 OR status > 299)
     ORDER BY id DESC LIMIT $3 OFFSET $4";

/// How many attempts [`ATTEMPTS_PAGE`] pages through.
pub(crate) const COUNT_ATTEMPTS: &str = "SELECT count(*) FROM webhook_attempts
     WHERE webhook_id = $1 AND (NOT $2 OR status IS NULL OR status < 200 OR status > 299)";

pub(crate) fn attempt_from_row(row: &dyn StoredRow) -> StoreResult<DeliveryAttempt> {
    let event_type = row.text(3)?;
    Ok(DeliveryAttempt {
        id: row.int(0)?,
        webhook_id: WebhookId(row.int(1)?),
        event_id: row.text(2)?,
        event_type: EventType::from_name(&event_type)
            .ok_or_else(|| bad_value("webhook_attempts.event_type", &event_type))?,
        at: row.int(4)?,
        status: row
            .opt_int(5)?
            .map(|s| u16::try_from(s).map_err(|_| bad_value("webhook_attempts.status", s)))
            .transpose()?,
        error: row.opt_text(6)?,
        latency_ms: row.int(7)?,
    })
}

/// What a claimed delivery's query returns, in the order [`claimed_from_row`] reads it: the
/// delivery with its event, then its endpoint's [`WEBHOOK_COLUMNS`] (as `w.`).
pub(crate) const CLAIMED_COLUMNS: &str = "d.id, d.attempts, d.event_id, d.event_type, d.body,
    d.created_at, w.id, w.user_id, w.url, w.events, w.description, w.enabled, w.secret,
    w.previous_secret, w.previous_until, w.failing_since, w.created_at, w.updated_at";

pub(crate) fn claimed_from_row(row: &dyn StoredRow) -> StoreResult<ClaimedDelivery> {
    let event_type = row.text(3)?;
    Ok(ClaimedDelivery {
        delivery_id: row.int(0)?,
        attempts: row.int(1)?,
        event_id: row.text(2)?,
        event_type: EventType::from_name(&event_type)
            .ok_or_else(|| bad_value("webhook_deliveries.event_type", &event_type))?,
        body: row.text(4)?,
        event_at: row.int(5)?,
        webhook: webhook_from_row(&Shifted { row, by: 6 })?,
    })
}

/// A row read from column `by` on, as if those were its first columns.
struct Shifted<'r> {
    row: &'r dyn StoredRow,
    by: usize,
}

impl StoredRow for Shifted<'_> {
    fn int(&self, idx: usize) -> StoreResult<i64> {
        self.row.int(idx + self.by)
    }
    fn opt_int(&self, idx: usize) -> StoreResult<Option<i64>> {
        self.row.opt_int(idx + self.by)
    }
    fn text(&self, idx: usize) -> StoreResult<String> {
        self.row.text(idx + self.by)
    }
    fn opt_text(&self, idx: usize) -> StoreResult<Option<String>> {
        self.row.opt_text(idx + self.by)
    }
    fn flag(&self, idx: usize) -> StoreResult<bool> {
        self.row.flag(idx + self.by)
    }
    fn bytes(&self, idx: usize) -> StoreResult<Vec<u8>> {
        self.row.bytes(idx + self.by)
    }
    fn ids(&self, idx: usize) -> StoreResult<Vec<i64>> {
        self.row.ids(idx + self.by)
    }
}

/// The ids of at most `$3` deliveries due at `$1` to enabled endpoints, fairly: no endpoint
/// past `$2` deliveries leased at once (those already leased, by any instance, counted), and
/// taken in turns, each user's first (their endpoints' earliest due, one per endpoint in
/// turn), then each user's second, and so on, so neither an endpoint with a backlog nor a
/// user with many endpoints takes the room of others. Within an endpoint, earliest due first
/// (a retry that is due is as due as a first attempt).
///
/// The work is bound by the endpoints, not their backlogs: each endpoint's leases are counted
/// in an index of leased rows only, endpoints at their bound are left out, and of the others
/// only the first `$2` due rows are read, in index order. `first_due` joins `hooks h` to
/// those rows as `c` (id and next_at) and opens the WHERE clause: a lateral subquery on
/// PostgreSQL, a rowid list on SQLite (which has no LATERAL). `hooks` is materialized so
/// each endpoint's leases are counted once, not once per row that names it.
pub(crate) fn due_deliveries(first_due: &str) -> String {
    format!(
        "WITH hooks AS MATERIALIZED (
             SELECT w.id, w.user_id,
                    (SELECT count(*) FROM webhook_deliveries l
                     WHERE l.webhook_id = w.id AND l.state = 0 AND l.lease_until > 0
                       AND l.lease_until > $1) AS leased
             FROM webhooks w
             WHERE w.enabled AND EXISTS (
                 SELECT 1 FROM webhook_deliveries e
                 WHERE e.webhook_id = w.id AND e.state = 0 AND e.next_at <= $1
                   AND e.lease_until <= $1)
         ),
         due AS (
             SELECT c.id, h.user_id, h.leased, c.next_at,
                    row_number() OVER (PARTITION BY h.id ORDER BY c.next_at, c.id) AS nth
             FROM hooks h {first_due} h.leased < $2
         ),
         open AS (
             SELECT id, next_at,
                    row_number() OVER (PARTITION BY user_id ORDER BY nth, next_at, id) AS turn
             FROM due WHERE nth + leased <= $2
         )
         SELECT id FROM open ORDER BY turn, next_at, id LIMIT $3"
    )
}

/// An endpoint's (`h`) first `$2` deliveries due at `$1`, in the order they are claimed: the
/// FROM and WHERE of [`due_deliveries`]'s `first_due` on either backend.
pub(crate) const FIRST_DUE: &str = "FROM webhook_deliveries x
     WHERE x.webhook_id = h.id AND x.state = 0 AND x.next_at <= $1 AND x.lease_until <= $1
     ORDER BY x.next_at, x.id LIMIT $2";

pub(crate) const ANY_DUE: &str = "SELECT count(*) FROM (SELECT 1 FROM webhook_deliveries
     WHERE state = 0 AND next_at <= $1 AND lease_until <= $1 LIMIT 1) AS due";

/// A claimed delivery with its event and endpoint.
pub(crate) static CLAIMED_DELIVERY: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
    format!(
        "SELECT {CLAIMED_COLUMNS} FROM webhook_deliveries d
             JOIN webhooks w ON w.id = d.webhook_id
             WHERE d.id = $1"
    )
});

/// Records an attempt.
pub(crate) const INSERT_ATTEMPT: &str = "INSERT INTO webhook_attempts
        (delivery_id, webhook_id, event_id, event_type, at, status, error, latency_ms)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)";

/// A delivery closed with the state `$1` at `$2`: delivered, or failed for good.
pub(crate) const CLOSE_DELIVERY: &str = "UPDATE webhook_deliveries
     SET state = $1, attempts = attempts + 1, lease_until = 0, finished_at = $2
     WHERE id = $3 AND state = 0";

/// A delivery to try again at `$1`.
pub(crate) const RESCHEDULE_DELIVERY: &str = "UPDATE webhook_deliveries
     SET attempts = attempts + 1, next_at = $1, lease_until = 0
     WHERE id = $2 AND state = 0";

/// Flags an endpoint when a delivery to it failed for good (the first such time is kept).
pub(crate) const FLAG_WEBHOOK: &str =
    "UPDATE webhooks SET failing_since = $1 WHERE id = $2 AND failing_since IS NULL";

/// Clears an endpoint's flag when a delivery succeeds; writes nothing when there is none, so
/// deliveries do not all write their endpoint's row.
pub(crate) const UNFLAG_WEBHOOK: &str =
    "UPDATE webhooks SET failing_since = NULL WHERE id = $1 AND failing_since IS NOT NULL";

/// Deletes an endpoint's deliveries still pending (disabled or deleted endpoints get none).
pub(crate) const DROP_PENDING: &str =
    "DELETE FROM webhook_deliveries WHERE webhook_id = $1 AND state = 0";

/// Forgets what was finished before `$1`: attempts, then deliveries.
pub(crate) const PRUNE: [&str; 2] = [
    "DELETE FROM webhook_attempts WHERE delivery_id IN (
         SELECT id FROM webhook_deliveries WHERE state <> 0 AND finished_at < $1)",
    "DELETE FROM webhook_deliveries WHERE state <> 0 AND finished_at < $1",
];

/// The stored integer of a closed delivery's state.
pub(crate) fn closed_state(verdict: AttemptVerdict) -> Option<i64> {
    match verdict {
        AttemptVerdict::Delivered => Some(DeliveryState::Delivered.code()),
        AttemptVerdict::Failed => Some(DeliveryState::Failed.code()),
        AttemptVerdict::RetryAt(_) => None,
    }
}

/// Endpoints and their history.
#[async_trait]
pub trait WebhookStore: Send + Sync {
    /// The user's endpoints, oldest first.
    async fn webhooks(&self, user: UserId) -> StoreResult<Vec<Webhook>>;
    /// One of the user's endpoints.
    async fn webhook(&self, user: UserId, id: WebhookId) -> StoreResult<Option<Webhook>>;
    /// The users with at least one enabled endpoint.
    async fn users_with_webhooks(&self) -> StoreResult<Vec<UserId>>;
    /// Whether a delivery is due at `now` and not leased.
    async fn any_delivery_due(&self, now: Timestamp) -> StoreResult<bool>;
    /// A page of the attempts to deliver to one of the user's endpoints, newest first; only
    /// those that did not succeed when `failed_only`. `None` when the user has no such
    /// endpoint.
    async fn delivery_attempts(
        &self,
        user: UserId,
        id: WebhookId,
        failed_only: bool,
        offset: i64,
        limit: i64,
    ) -> StoreResult<Option<Page<DeliveryAttempt>>>;
}

/// Endpoint changes and the outbox, inside a transaction.
#[async_trait]
pub trait WebhookWrites: Send {
    /// How many endpoints the user has, the user's other registrations waiting for this
    /// transaction to end (so a limit on the count holds).
    async fn count_webhooks(&mut self, user: UserId) -> StoreResult<i64>;
    /// Registers an endpoint.
    async fn insert_webhook(&mut self, new: NewWebhook) -> StoreResult<Webhook>;
    /// Changes one of the user's endpoints at `at`; `None` when there is no such endpoint.
    /// Disabling it drops its pending deliveries.
    async fn update_webhook(
        &mut self,
        user: UserId,
        id: WebhookId,
        patch: WebhookPatch,
        at: Timestamp,
    ) -> StoreResult<Option<Webhook>>;
    /// Deletes one of the user's endpoints with its deliveries and attempts; whether it
    /// existed.
    async fn delete_webhook(&mut self, user: UserId, id: WebhookId) -> StoreResult<bool>;
    /// Gives one of the user's endpoints a new secret, keeping the current one as the
    /// previous secret until `previous_until`.
    async fn rotate_webhook_secret(
        &mut self,
        user: UserId,
        id: WebhookId,
        secret: String,
        previous_until: Timestamp,
        at: Timestamp,
    ) -> StoreResult<Option<Webhook>>;
    /// The user's enabled endpoints subscribed to `event`, as of this transaction.
    async fn webhook_subscribers(
        &mut self,
        user: UserId,
        event: EventType,
    ) -> StoreResult<Vec<WebhookId>>;
    /// Records `event` with a delivery to each of `to`, due at once.
    async fn insert_event(&mut self, event: NewEvent, to: &[WebhookId]) -> StoreResult<()>;
    /// Claims up to `limit` deliveries due at `now` to enabled endpoints whose lease is not
    /// held, leasing them until `lease_until`: until then no claim (of any instance) returns
    /// them again. No endpoint has more than `per_endpoint` leased at once, across instances
    /// (claims are serialized), and endpoints and users take turns for the room there is.
    async fn claim_deliveries(
        &mut self,
        now: Timestamp,
        lease_until: Timestamp,
        limit: i64,
        per_endpoint: i64,
    ) -> StoreResult<Vec<ClaimedDelivery>>;
    /// Records an attempt and moves its delivery on; nothing when the
    /// delivery is no longer pending (its endpoint was disabled or deleted meanwhile).
    async fn finish_attempt(&mut self, finished: FinishedAttempt) -> StoreResult<()>;
    /// Forgets deliveries finished before `before` and their attempts; how many deliveries
    /// went.
    async fn prune_webhook_history(&mut self, before: Timestamp) -> StoreResult<u64>;
}
