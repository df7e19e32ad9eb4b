//! `linkapi webhook ...`: endpoints through the API, and `listen`, a local receiver.

use std::net::SocketAddr;
use std::sync::Arc;

use anyhow::{Context as _, Result};
use http_body_util::{BodyExt as _, Full, Limited};
use hyper::body::{Bytes, Incoming};
use hyper::{Request, Response, StatusCode};
use linkapi_core::clock::format_rfc3339;
use linkapi_core::signing::Secret;
use linkapi_core::wire::primary;

use crate::cli::{EventName, WebhookCommand};
use crate::context::Context;
use crate::output::Output;

/// Largest body `listen` reads.
const MAX_LISTEN_BODY: usize = 1 << 20;

/// Runs `linkapi webhook ...`.
pub async fn run(ctx: Context, command: WebhookCommand) -> Result<()> {
    if let WebhookCommand::Listen { port, secret, json } = command {
        return listen(ctx.out, port, secret, json).await;
    }
    let client = ctx.client()?;
    let events = |names: Vec<EventName>| names.into_iter().map(Into::into).collect();
    match command {
        WebhookCommand::Add {
            url,
            events: names,
            description,
            json,
        } => {
            let created = client
                .create_webhook(&primary::CreateWebhook {
                    url,
                    events: events(names),
                    description,
                })
                .await?;
            ctx.out
                .success(&format!("Registered webhook {}", created.id));
            if json.json.is_none() {
                ctx.out.note(&format!(
                    "Signing secret (shown once; receivers verify with it): {}",
                    created.secret.as_deref().unwrap_or_default()
                ));
            }
            ctx.out.record(&created, json.json.as_deref())
        }
        WebhookCommand::List { json } => {
            let found = client.webhooks().await?;
            ctx.out.records(&found, json.json.as_deref(), false)
        }
        WebhookCommand::Info { id, json } => {
            let found = client.webhook(id).await?;
            ctx.out.record(&found, json.json.as_deref())
        }
        WebhookCommand::Edit {
            id,
            url,
            events: names,
            description,
            enable,
            disable,
            json,
        } => {
            let enabled = match (enable, disable) {
                (true, _) => Some(true),
                (_, true) => Some(false),
                _ => None,
            };
            let edited = client
                .update_webhook(
                    id,
                    &primary::UpdateWebhook {
                        url,
                        events: names.map(events),
                        description,
                        enabled,
                    },
                )
                .await?;
            ctx.out.success(&format!("Updated webhook {id}"));
            ctx.out.record(&edited, json.json.as_deref())
        }
        WebhookCommand::Delete { id, yes } => {
            let question = format!("Delete webhook {id} and its delivery history?");
            if !ctx.confirm(&question, yes)? {
                return Ok(());
            }
            client.delete_webhook(id).await?;
            ctx.out.done(&format!("Deleted webhook {id}"));
            Ok(())
        }
        WebhookCommand::Test { id } => {
            let sent = client.test_webhook(id).await?;
            ctx.out.line(&sent.event_id);
            ctx.out.done(&format!(
                "Queued a webhook.test event for webhook {id}; `linkapi webhook deliveries {id}` shows how it went"
            ));
            Ok(())
        }
        WebhookCommand::RotateSecret { id, json } => {
            let rotated = client.rotate_webhook_secret(id).await?;
            ctx.out.success(&format!("New secret for webhook {id}"));
            if json.json.is_none() {
                ctx.out.note(&format!(
                    "Signing secret (shown once; the old one also signs for 24 hours): {}",
                    rotated.secret.as_deref().unwrap_or_default()
                ));
            }
            ctx.out.record(&rotated, json.json.as_deref())
        }
        WebhookCommand::Deliveries {
            id,
            failed,
            page,
            limit,
            json,
        } => {
            let found = client
                .webhook_deliveries(
                    id,
                    &primary::ListDeliveries {
                        page: Some(page),
                        page_size: Some(limit),
                        failed: failed.then_some(true),
                    },
                )
                .await?;
            ctx.out.records(&found.list, json.json.as_deref(), false)
        }
        WebhookCommand::Listen { .. } => Ok(()),
    }
}

/// What `listen` makes of one request.
struct Heard {
    /// Whether its signature verified (`None`: no secret to check with).
    verified: Option<Result<(), String>>,
    id: String,
    body: Bytes,
}

/// Serves 127.0.0.1:`port` until interrupted, printing every webhook that arrives.
async fn listen(out: Output, port: u16, secret: Option<String>, json: bool) -> Result<()> {
    let secret = secret
        .map(|text| Secret::parse(&text))
        .transpose()
        .context("--secret is not a webhook secret (whsec_...)")?;
    let address = SocketAddr::from(([127, 0, 0, 1], port));
    let listener = tokio::net::TcpListener::bind(address)
        .await
        .with_context(|| format!("listening on {address}"))?;
    if secret.is_none() {
        out.warn("no --secret: signatures are not checked");
    }
    out.note(&format!(
        "Listening on http://{address}/ for webhooks; Ctrl-C stops"
    ));
    let (heard_tx, mut heard) = tokio::sync::mpsc::unbounded_channel::<Heard>();
    let secret = Arc::new(secret);
    let accept = async move {
        loop {
            let Ok((stream, _)) = listener.accept().await else {
                continue;
            };
            let (secret, heard_tx) = (secret.clone(), heard_tx.clone());
            tokio::spawn(async move {
                let service = hyper::service::service_fn(move |request: Request<Incoming>| {
                    let (secret, heard_tx) = (secret.clone(), heard_tx.clone());
                    async move {
                        let heard = receive(request, secret.as_ref().as_ref()).await;
                        let status = match &heard.verified {
                            Some(Err(_)) => StatusCode::BAD_REQUEST,
                            _ => StatusCode::NO_CONTENT,
                        };
                        let _ = heard_tx.send(heard);
                        Response::builder()
                            .status(status)
                            .body(Full::new(Bytes::new()))
                    }
                });
                let _ = hyper::server::conn::http1::Builder::new()
                    .serve_connection(hyper_util::rt::TokioIo::new(stream), service)
                    .await;
            });
        }
    };
    let print = async move {
        while let Some(heard) = heard.recv().await {
            show(&out, &heard, json);
        }
    };
    tokio::select! {
        () = accept => Ok(()),
        () = print => Ok(()),
        _ = tokio::signal::ctrl_c() => Ok(()),
    }
}

/// Reads a request and checks its signature.
async fn receive(request: Request<Incoming>, secret: Option<&Secret>) -> Heard {
    let header = |name: &str| {
        request
            .headers()
            .get(name)
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
            .to_owned()
    };
    let (id, timestamp, signature) = (
        header("webhook-id"),
        header("webhook-timestamp"),
        header("webhook-signature"),
    );
    let body = match Limited::new(request.into_body(), MAX_LISTEN_BODY)
        .collect()
        .await
    {
        Ok(collected) => collected.to_bytes(),
        Err(err) => {
            return Heard {
                verified: Some(Err(format!("body not read: {err}"))),
                id,
                body: Bytes::new(),
            };
        }
    };
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX));
    let verified = secret.map(|secret| {
        secret
            .verify(&id, &timestamp, &signature, &body, now)
            .map_err(|err| err.to_string())
    });
    Heard { verified, id, body }
}

/// Prints one webhook: a summary line and the body, or the body alone as a JSON line.
fn show(out: &Output, heard: &Heard, json: bool) {
    let body: serde_json::Value =
        serde_json::from_slice(&heard.body).unwrap_or(serde_json::Value::Null);
    if json {
        out.line(&serde_json::to_string(&body).unwrap_or_default());
        return;
    }
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_secs()).unwrap_or(0));
    let verdict = match &heard.verified {
        Some(Ok(())) => "signature ok".to_owned(),
        Some(Err(why)) => format!("REFUSED: {why}"),
        None => "not verified".to_owned(),
    };
    let kind = body["type"].as_str().unwrap_or("(not an event)");
    out.line(&format!(
        "{}  {kind}  {}  {verdict}",
        format_rfc3339(now),
        heard.id
    ));
    out.json(&body);
}
