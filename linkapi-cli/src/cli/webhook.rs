//! `linkapi webhook ...`.

use clap::{Subcommand, ValueEnum};
use linkapi_core::wire::primary::WebhookEvent;

use super::JsonArgs;

/// An event to subscribe to, as the command line spells it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum EventName {
    /// A chain was created
    #[value(name = "chain.created")]
    ChainCreated,
    /// A chain was edited
    #[value(name = "chain.updated")]
    ChainUpdated,
    /// A chain was deleted
    #[value(name = "chain.deleted")]
    ChainDeleted,
    /// A conversion was recorded
    #[value(name = "conversion.created")]
    ConversionCreated,
    /// A channel reached its visit limit
    #[value(name = "channel.exhausted")]
    ChannelExhausted,
    /// An image was uploaded
    #[value(name = "upload.created")]
    UploadCreated,
}

impl From<EventName> for WebhookEvent {
    fn from(name: EventName) -> Self {
        match name {
            EventName::ChainCreated => WebhookEvent::ChainCreated,
            EventName::ChainUpdated => WebhookEvent::ChainUpdated,
            EventName::ChainDeleted => WebhookEvent::ChainDeleted,
            EventName::ConversionCreated => WebhookEvent::ConversionCreated,
            EventName::ChannelExhausted => WebhookEvent::ChannelExhausted,
            EventName::UploadCreated => WebhookEvent::UploadCreated,
        }
    }
}

/// `linkapi webhook ...`
#[derive(Debug, Subcommand)]
pub enum WebhookCommand {
    /// Register an endpoint for events of your writes; prints its signing secret once
    #[command(after_help = "\
The URL must reach a public address (the server refuses loopback and private ones unless it
sets webhook_allow_private, as a local development server may). Keep the secret: receivers
verify each request's webhook-signature with it (Standard Webhooks).

Examples:
  linkapi webhook add https://hooks.example.com/linkapi --events chain.created,conversion.created
  linkapi webhook add https://hooks.example.com/all --events chain.created,chain.updated,chain.deleted --json")]
    Add {
        /// Where events are posted (http or https)
        url: String,
        /// Events to send, comma-separated
        #[arg(long, value_delimiter = ',', required = true, value_name = "EVENTS")]
        events: Vec<EventName>,
        /// A note on what the endpoint is for
        #[arg(long, value_name = "TEXT")]
        description: Option<String>,
        /// Output as JSON.
        #[command(flatten)]
        json: JsonArgs,
    },
    /// List your endpoints
    List {
        /// Output as JSON.
        #[command(flatten)]
        json: JsonArgs,
    },
    /// Show one endpoint
    Info {
        /// The endpoint's id
        id: i64,
        /// Output as JSON.
        #[command(flatten)]
        json: JsonArgs,
    },
    /// Change an endpoint's URL, events or description, or turn it off and on
    #[command(after_help = "\
Examples:
  linkapi webhook edit 3 --events chain.created,chain.deleted
  linkapi webhook edit 3 --disable          # stops deliveries; pending ones are dropped
  linkapi webhook edit 3 --enable --url https://hooks.example.com/v2")]
    Edit {
        /// The endpoint's id
        id: i64,
        /// A new URL
        #[arg(long)]
        url: Option<String>,
        /// New events, replacing the old, comma-separated
        #[arg(long, value_delimiter = ',', value_name = "EVENTS")]
        events: Option<Vec<EventName>>,
        /// A new note; "" clears it
        #[arg(long, value_name = "TEXT")]
        description: Option<String>,
        /// Send events again
        #[arg(long, conflicts_with = "disable")]
        enable: bool,
        /// Send no events (and drop those not yet delivered)
        #[arg(long)]
        disable: bool,
        /// Output as JSON.
        #[command(flatten)]
        json: JsonArgs,
    },
    /// Delete an endpoint, its pending deliveries and its history
    Delete {
        /// The endpoint's id
        id: i64,
        /// Do not ask for confirmation
        #[arg(long, short)]
        yes: bool,
    },
    /// Send a webhook.test event to an endpoint
    Test {
        /// The endpoint's id
        id: i64,
    },
    /// Give an endpoint a new signing secret; the old one keeps signing for 24 hours
    RotateSecret {
        /// The endpoint's id
        id: i64,
        /// Output as JSON.
        #[command(flatten)]
        json: JsonArgs,
    },
    /// List the attempts to deliver to an endpoint, newest first
    #[command(after_help = "\
Examples:
  linkapi webhook deliveries 3
  linkapi webhook deliveries 3 --failed --limit 50")]
    Deliveries {
        /// The endpoint's id
        id: i64,
        /// Only attempts that were not answered 2xx
        #[arg(long)]
        failed: bool,
        /// Page, from 1
        #[arg(long, default_value_t = 1)]
        page: i64,
        /// Attempts per page (at most 100)
        #[arg(long, default_value_t = 20)]
        limit: i64,
        /// Output as JSON.
        #[command(flatten)]
        json: JsonArgs,
    },
    /// Receive webhooks locally and print them as they arrive, checking their signatures
    #[command(after_help = "\
For development: run it, register http://127.0.0.1:PORT/ as an endpoint of a server that sets
webhook_allow_private = true, and give it that endpoint's secret. Each event prints as a line
(time, type, id, whether its signature verified) followed by its body; with --json, the body
alone, one line each. Requests whose signature does not verify are answered 400, others 204.

Examples:
  linkapi webhook listen --port 9000 --secret whsec_...
  LINKAPI_WEBHOOK_SECRET=whsec_... linkapi webhook listen --json | jq .type")]
    Listen {
        /// Port to listen on, on 127.0.0.1
        #[arg(long, default_value_t = 9000)]
        port: u16,
        /// The endpoint's signing secret; without one nothing is verified
        #[arg(long, env = "LINKAPI_WEBHOOK_SECRET", hide_env_values = true)]
        secret: Option<String>,
        /// Print each event's body as one JSON line, nothing else
        #[arg(long)]
        json: bool,
    },
}

#[cfg(test)]
mod tests {
    use clap::ValueEnum;
    use linkapi_core::model::EventType;
    use linkapi_core::wire::primary::WebhookEvent;

    use super::EventName;

    /// `--events` takes exactly the names the API subscribes to, each meaning that event.
    #[test]
    fn event_names_are_the_apis() {
        let mut names = Vec::new();
        for value in EventName::value_variants() {
            let name = value
                .to_possible_value()
                .map(|possible| possible.get_name().to_owned())
                .unwrap_or_default();
            assert_eq!(WebhookEvent::from(*value).name(), name);
            names.push(name);
        }
        names.sort();
        let mut subscribable: Vec<String> = EventType::SUBSCRIBABLE
            .iter()
            .map(|event| event.name().to_owned())
            .collect();
        subscribable.sort();
        assert_eq!(names, subscribable);
    }
}
