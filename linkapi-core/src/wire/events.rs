//! The bodies of webhook events: `{type, timestamp, data}`, `data` in the primary surface's
//! shapes (a chain as `GET /chains/{id}` answers it, and so on), made from the model values
//! an event carries ([`EventData`]).

use serde::Serialize;

use super::primary;
use crate::clock::format_rfc3339;
use crate::model::{EventData, EventType, Timestamp};

#[derive(Serialize)]
struct EventBody<T> {
    r#type: &'static str,
    timestamp: String,
    data: T,
}

/// The `data` of a `channel.exhausted` event.
#[derive(Serialize)]
struct ChannelExhausted {
    chain_id: i64,
    channel_id: i64,
    /// The channel's QR image or URL.
    url: String,
    visit_limit: i64,
    /// `total` or `daily`.
    cap: &'static str,
    /// The day used up (RFC 3339, its first second), for daily caps.
    day: Option<String>,
}

/// The `data` of a `webhook.test` event.
#[derive(Serialize)]
struct Test {
    webhook_id: i64,
}

/// The JSON body of `event` at `at` saying `data`.
pub fn event_body(event: EventType, at: Timestamp, data: EventData<'_>) -> String {
    fn encode<T: Serialize>(event: EventType, at: Timestamp, data: T) -> String {
        let body = EventBody {
            r#type: event.name(),
            timestamp: format_rfc3339(at),
            data,
        };
        // Serializing these shapes cannot fail; an empty object is the fallback.
        serde_json::to_string(&body).unwrap_or_else(|_| "{}".to_owned())
    }
    match data {
        EventData::Chain(view) => encode(event, at, primary::Chain::from(view)),
        EventData::Conversion(c) => encode(event, at, primary::Conversion::from(c)),
        EventData::Upload(upload, url) => {
            encode(event, at, primary::Upload::located(upload, url.to_owned()))
        }
        EventData::ChannelExhausted(e) => encode(
            event,
            at,
            ChannelExhausted {
                chain_id: e.chain_id.0,
                channel_id: e.channel_id.0,
                url: e.url.clone(),
                visit_limit: e.visit_limit,
                cap: if e.day.is_some() { "daily" } else { "total" },
                day: e.day.map(format_rfc3339),
            },
        ),
        EventData::Test(id) => encode(event, at, Test { webhook_id: id.0 }),
    }
}

#[cfg(test)]
mod tests {
    use super::event_body;
    use crate::model::{ChainId, ChannelExhaustion, ChannelId, EventData, EventType, WebhookId};

    #[test]
    fn a_body_is_type_timestamp_and_data() {
        let body: serde_json::Value = serde_json::from_str(&event_body(
            EventType::WebhookTest,
            0,
            EventData::Test(WebhookId(7)),
        ))
        .expect("JSON");
        assert_eq!(
            body,
            serde_json::json!({
                "type": "webhook.test",
                "timestamp": "1970-01-01T00:00:00Z",
                "data": {"webhook_id": 7}
            })
        );
        let daily = ChannelExhaustion {
            chain_id: ChainId(1),
            channel_id: ChannelId(2),
            url: "https://q.example/1".into(),
            visit_limit: 5,
            day: Some(86_400),
        };
        let body: serde_json::Value = serde_json::from_str(&event_body(
            EventType::ChannelExhausted,
            86_400,
            EventData::ChannelExhausted(&daily),
        ))
        .expect("JSON");
        assert_eq!(body["data"]["cap"], "daily");
        assert_eq!(body["data"]["day"], "1970-01-02T00:00:00Z");
        assert_eq!(body["data"]["channel_id"], 2);
    }
}
