//! Webhook endpoints and their deliveries (`/webhooks`).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// An event an endpoint can subscribe to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub enum WebhookEvent {
    /// A chain of any kind was created, alone or in bulk, on either surface.
    #[serde(rename = "chain.created")]
    ChainCreated,
    /// A chain was edited.
    #[serde(rename = "chain.updated")]
    ChainUpdated,
    /// A chain was deleted.
    #[serde(rename = "chain.deleted")]
    ChainDeleted,
    /// A conversion was recorded (not for a duplicate report).
    #[serde(rename = "conversion.created")]
    ConversionCreated,
    /// A channel of a chain's page reached its visit limit.
    #[serde(rename = "channel.exhausted")]
    ChannelExhausted,
    /// An image was uploaded.
    #[serde(rename = "upload.created")]
    UploadCreated,
}

impl WebhookEvent {
    /// Its name, as bodies and listings spell it.
    pub fn name(self) -> &'static str {
        match self {
            WebhookEvent::ChainCreated => "chain.created",
            WebhookEvent::ChainUpdated => "chain.updated",
            WebhookEvent::ChainDeleted => "chain.deleted",
            WebhookEvent::ConversionCreated => "conversion.created",
            WebhookEvent::ChannelExhausted => "channel.exhausted",
            WebhookEvent::UploadCreated => "upload.created",
        }
    }
}

/// `POST /webhooks`.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CreateWebhook {
    /// Where events are posted: an http(s) URL as a chain's `target_url`, whose host is a
    /// public address.
    #[schemars(
        regex(pattern = super::super::URL_PATTERN),
        length(max = crate::codes::MAX_URL_LEN)
    )]
    pub url: String,
    /// What to send.
    #[schemars(length(min = 1))]
    pub events: Vec<WebhookEvent>,
    /// A note.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(regex(pattern = super::super::TEXT_PATTERN), length(max = 200))]
    pub description: Option<String>,
}

/// `PATCH /webhooks/{id}`: what is given changes.
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct UpdateWebhook {
    /// A new URL.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(
        regex(pattern = super::super::URL_PATTERN),
        length(max = crate::codes::MAX_URL_LEN)
    )]
    pub url: Option<String>,
    /// New subscriptions, replacing the old.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(length(min = 1))]
    pub events: Option<Vec<WebhookEvent>>,
    /// A new note; empty clears it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(regex(pattern = super::super::TEXT_PATTERN), length(max = 200))]
    pub description: Option<String>,
    /// Whether events are sent; disabling drops deliveries not yet made.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub enabled: Option<bool>,
}

/// An endpoint.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Webhook {
    /// Its id.
    pub id: i64,
    /// Where events are posted.
    pub url: String,
    /// What it is sent.
    pub events: Vec<WebhookEvent>,
    /// The owner's note.
    pub description: Option<String>,
    /// Whether events are sent.
    pub enabled: bool,
    /// When a delivery to it last ran out of retries (RFC 3339), until one succeeds again.
    pub failing_since: Option<String>,
    /// The signing secret (`whsec_...`): only in the answers of `POST /webhooks` and
    /// `POST /webhooks/{id}/rotate-secret`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub secret: Option<String>,
    /// RFC 3339.
    pub created_at: String,
    /// RFC 3339.
    pub updated_at: String,
}

/// `DELETE /webhooks/{id}` answer.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct DeletedWebhook {
    /// The deleted endpoint's id.
    pub id: i64,
    /// Always true.
    pub deleted: bool,
}

/// `POST /webhooks/{id}/test` answer.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct WebhookTest {
    /// The `webhook.test` event's id (its `webhook-id` header).
    pub event_id: String,
}

/// Query of `GET /webhooks/{id}/deliveries`.
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ListDeliveries {
    /// Page, from 1.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1))]
    pub page: Option<i64>,
    /// Rows per page, at most 100.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1, max = crate::model::limits::MAX_PAGE_SIZE))]
    pub page_size: Option<i64>,
    /// Only attempts that did not succeed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failed: Option<bool>,
}

/// One attempt to deliver an event.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Delivery {
    /// The attempt's id.
    pub id: i64,
    /// The event's id (`webhook-id`).
    pub event_id: String,
    /// The event's type.
    pub event_type: String,
    /// When the attempt began (RFC 3339).
    pub at: String,
    /// Whether the endpoint answered 2xx.
    pub ok: bool,
    /// The endpoint's HTTP status, when it answered.
    pub status: Option<u16>,
    /// What went wrong, when something did.
    pub error: Option<String>,
    /// From sending to the answer (or the failure), in milliseconds.
    pub latency_ms: i64,
}

/// `GET /webhooks/{id}/deliveries`: newest first.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct DeliveryPage {
    /// This page.
    pub list: Vec<Delivery>,
    /// Attempts on all pages.
    pub total: i64,
    /// This page's number.
    pub page: i64,
    /// Rows per page.
    pub page_size: i64,
}

#[cfg(test)]
mod tests {
    use super::WebhookEvent;
    use crate::model::EventType;

    /// Every string a JSON schema allows by `const` or `enum`, wherever it says so.
    fn allowed_strings(schema: &serde_json::Value, into: &mut Vec<String>) {
        match schema {
            serde_json::Value::Object(fields) => {
                for (key, value) in fields {
                    match (key.as_str(), value) {
                        ("const", serde_json::Value::String(s)) => into.push(s.clone()),
                        ("enum", serde_json::Value::Array(values)) => {
                            into.extend(values.iter().filter_map(|v| v.as_str().map(str::to_owned)))
                        }
                        _ => allowed_strings(value, into),
                    }
                }
            }
            serde_json::Value::Array(items) => {
                for item in items {
                    allowed_strings(item, into);
                }
            }
            _ => {}
        }
    }

    /// The API's event names are the model's, one for every event an endpoint can subscribe
    /// to and no more: a new event added to one enum and not the other fails here.
    #[test]
    fn the_api_names_exactly_the_subscribable_events() {
        let schema = schemars::schema_for!(WebhookEvent);
        let mut listed = Vec::new();
        allowed_strings(schema.as_value(), &mut listed);
        listed.sort();
        let mut subscribable: Vec<String> = EventType::SUBSCRIBABLE
            .iter()
            .map(|event| event.name().to_owned())
            .collect();
        subscribable.sort();
        assert_eq!(listed, subscribable);
        for event in EventType::SUBSCRIBABLE {
            let read: WebhookEvent = serde_json::from_value(serde_json::json!(event.name()))
                .unwrap_or_else(|err| panic!("{}: {err}", event.name()));
            assert_eq!(read.name(), event.name());
            assert_eq!(serde_json::to_value(read).ok(), Some(event.name().into()));
        }
    }
}
