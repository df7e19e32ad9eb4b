//! Webhooks: endpoints a user registers, the events sent to them, and each attempt.

use super::{ChainId, ChainView, ChannelId, Conversion, Timestamp, Upload, UserId, WebhookId};

/// What happened: the `type` of an event's body.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum EventType {
    /// A chain of any kind was created, on either surface, alone or in bulk.
    ChainCreated,
    /// A chain's settings were edited.
    ChainUpdated,
    /// A chain was deleted.
    ChainDeleted,
    /// An ad conversion was recorded (a duplicate report is not).
    ConversionCreated,
    /// A channel of a chain's page reached its visit limit.
    ChannelExhausted,
    /// An image was uploaded.
    UploadCreated,
    /// Sent by `POST /webhooks/{id}/test` to that endpoint alone; not subscribable.
    WebhookTest,
}

impl EventType {
    /// The events an endpoint can subscribe to, in the order documented.
    pub const SUBSCRIBABLE: [EventType; 6] = [
        EventType::ChainCreated,
        EventType::ChainUpdated,
        EventType::ChainDeleted,
        EventType::ConversionCreated,
        EventType::ChannelExhausted,
        EventType::UploadCreated,
    ];

    /// The name in bodies, subscriptions and listings.
    pub fn name(self) -> &'static str {
        match self {
            EventType::ChainCreated => "chain.created",
            EventType::ChainUpdated => "chain.updated",
            EventType::ChainDeleted => "chain.deleted",
            EventType::ConversionCreated => "conversion.created",
            EventType::ChannelExhausted => "channel.exhausted",
            EventType::UploadCreated => "upload.created",
            EventType::WebhookTest => "webhook.test",
        }
    }

    /// The event of a name, subscribable or not.
    pub fn from_name(name: &str) -> Option<EventType> {
        Self::SUBSCRIBABLE
            .into_iter()
            .chain([EventType::WebhookTest])
            .find(|e| e.name() == name)
    }

    /// Its bit in an [`EventSet`] (stores match subscriptions in SQL with `events & bit <> 0`);
    /// `webhook.test` has none.
    pub fn bit(self) -> i64 {
        Self::SUBSCRIBABLE
            .iter()
            .position(|e| *e == self)
            .map_or(0, |i| 1 << i)
    }
}

/// The events an endpoint subscribes to, stored as bits (the order of
/// [`EventType::SUBSCRIBABLE`], which only ever grows at its end).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct EventSet(pub i64);

impl EventSet {
    /// The set of `events`.
    pub fn of(events: impl IntoIterator<Item = EventType>) -> Self {
        EventSet(events.into_iter().fold(0, |bits, e| bits | e.bit()))
    }

    /// Whether `event` is in the set.
    pub fn contains(self, event: EventType) -> bool {
        self.0 & event.bit() != 0
    }

    /// The events in the set, in documented order.
    pub fn events(self) -> Vec<EventType> {
        EventType::SUBSCRIBABLE
            .into_iter()
            .filter(|e| self.contains(*e))
            .collect()
    }
}

/// A registered endpoint.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Webhook {
    /// Its id.
    pub id: WebhookId,
    /// Its owner: events of this user's writes are sent to it.
    pub user_id: UserId,
    /// Where events are posted.
    pub url: String,
    /// What it subscribes to.
    pub events: EventSet,
    /// The owner's note.
    pub description: Option<String>,
    /// Whether events are sent; a disabled endpoint gets none, and its pending deliveries stop.
    pub enabled: bool,
    /// The signing secret's text (`whsec_...`).
    pub secret: String,
    /// The secret before the last rotation, signed with too until `previous_until`.
    pub previous_secret: Option<String>,
    /// When the previous secret stops being used.
    pub previous_until: Option<Timestamp>,
    /// When a delivery to it last ran out of retries, until one succeeds again.
    pub failing_since: Option<Timestamp>,
    /// When it was registered.
    pub created_at: Timestamp,
    /// When it was last changed.
    pub updated_at: Timestamp,
}

/// Where a delivery of an event to one endpoint stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DeliveryState {
    /// Not yet answered with a 2xx; tried again at its time.
    Pending,
    /// Answered with a 2xx.
    Delivered,
    /// Out of retries.
    Failed,
}

impl DeliveryState {
    /// The stored integer.
    pub fn code(self) -> i64 {
        match self {
            DeliveryState::Pending => 0,
            DeliveryState::Delivered => 1,
            DeliveryState::Failed => 2,
        }
    }

    /// The state of a stored integer.
    pub fn from_code(code: i64) -> Option<Self> {
        match code {
            0 => Some(DeliveryState::Pending),
            1 => Some(DeliveryState::Delivered),
            2 => Some(DeliveryState::Failed),
            _ => None,
        }
    }
}

/// One attempt to deliver an event to an endpoint.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeliveryAttempt {
    /// Its id, increasing with time.
    pub id: i64,
    /// The endpoint.
    pub webhook_id: WebhookId,
    /// The event's id (`msg_...`, its `webhook-id` header).
    pub event_id: String,
    /// The event's type.
    pub event_type: EventType,
    /// When the attempt began.
    pub at: Timestamp,
    /// The endpoint's HTTP status, when it answered.
    pub status: Option<u16>,
    /// What went wrong when it did not answer, or answered other than 2xx.
    pub error: Option<String>,
    /// From sending to the answer's status line (or the failure), in milliseconds.
    pub latency_ms: i64,
}

impl DeliveryAttempt {
    /// Whether the endpoint took the event.
    pub fn succeeded(&self) -> bool {
        self.status.is_some_and(|s| (200..300).contains(&s))
    }
}

#[cfg(test)]
mod tests {
    use super::{EventSet, EventType};

    #[test]
    fn event_sets_hold_subscribable_events_by_name() {
        for event in EventType::SUBSCRIBABLE {
            assert_eq!(EventType::from_name(event.name()), Some(event));
        }
        let set = EventSet::of([EventType::ChainCreated, EventType::UploadCreated]);
        assert!(set.contains(EventType::ChainCreated));
        assert!(!set.contains(EventType::ChainDeleted));
        assert!(!set.contains(EventType::WebhookTest));
        assert_eq!(
            set.events(),
            [EventType::ChainCreated, EventType::UploadCreated]
        );
        assert_eq!(EventType::from_name("chain.exploded"), None);
    }
}

/// What an event says, as model values; `wire::events` encodes it as the body the endpoint
/// receives, so the webhook messages take the API's shapes from the one place they live.
#[derive(Debug, Clone, Copy)]
pub enum EventData<'a> {
    /// `chain.created`, `chain.updated`, `chain.deleted`: the chain as the API shows it.
    Chain(&'a ChainView),
    /// `conversion.created`: the conversion recorded.
    Conversion(&'a Conversion),
    /// `upload.created`: the upload and the URL its file is served at.
    Upload(&'a Upload, &'a str),
    /// `channel.exhausted`: the channel that reached its visit limit.
    ChannelExhausted(&'a ChannelExhaustion),
    /// `webhook.test`: the endpoint tested.
    Test(WebhookId),
}

/// A messaging-app chain's channel that reached its visit limit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChannelExhaustion {
    /// The chain.
    pub chain_id: ChainId,
    /// The channel.
    pub channel_id: ChannelId,
    /// The channel's QR image or URL.
    pub url: String,
    /// The limit it reached.
    pub visit_limit: i64,
    /// The day used up (its first second) for a daily limit; `None` for a total one.
    pub day: Option<Timestamp>,
}
