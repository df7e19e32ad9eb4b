//! Webhook endpoints: `/webhooks` and what hangs off one.

use crate::clock::format_rfc3339;
use crate::error::Result;
use crate::http::call::Call;
use crate::http::request::{json, path_id, query};
use crate::http::response::Body;
use crate::model::{EventType, Webhook, WebhookId};
use crate::service::{App, NewWebhookInput, WebhookEdit};
use crate::wire::primary as wire;

type Response = http::Response<Body>;

/// An endpoint as answered; its secret only where `with_secret` (creation and rotation).
fn webhook_out(webhook: &Webhook, with_secret: bool) -> wire::Webhook {
    wire::Webhook {
        id: webhook.id.0,
        url: webhook.url.clone(),
        events: webhook
            .events
            .events()
            .into_iter()
            .filter_map(event_out)
            .collect(),
        description: webhook.description.clone(),
        enabled: webhook.enabled,
        failing_since: webhook.failing_since.map(format_rfc3339),
        secret: with_secret.then(|| webhook.secret.clone()),
        created_at: format_rfc3339(webhook.created_at),
        updated_at: format_rfc3339(webhook.updated_at),
    }
}

/// The wire name of a subscribable event.
fn event_out(event: EventType) -> Option<wire::WebhookEvent> {
    use wire::WebhookEvent as W;
    Some(match event {
        EventType::ChainCreated => W::ChainCreated,
        EventType::ChainUpdated => W::ChainUpdated,
        EventType::ChainDeleted => W::ChainDeleted,
        EventType::ConversionCreated => W::ConversionCreated,
        EventType::ChannelExhausted => W::ChannelExhausted,
        EventType::UploadCreated => W::UploadCreated,
        EventType::WebhookTest => return None,
    })
}

fn event_names(events: &[wire::WebhookEvent]) -> Vec<String> {
    events.iter().map(|e| e.name().to_owned()).collect()
}

fn webhook_id(call: &Call) -> Result<WebhookId> {
    Ok(WebhookId(path_id(call.param(), "webhook")?))
}

/// # `POST /webhooks` (`webhooks:write`)
pub(crate) async fn create(app: &App, call: Call) -> Result<Response> {
    let input: wire::CreateWebhook = json(&call.parts.headers, &call.body)?;
    let webhook = app
        .create_webhook(
            &call.who,
            NewWebhookInput {
                url: input.url,
                events: event_names(&input.events),
                description: input.description,
            },
        )
        .await?;
    Ok(call.reply.created(webhook_out(&webhook, true)))
}

/// # `GET /webhooks` (`webhooks:read`)
pub(crate) async fn list(app: &App, call: Call) -> Result<Response> {
    let webhooks = app.webhooks(&call.who).await?;
    Ok(call.reply.ok(webhooks
        .iter()
        .map(|w| webhook_out(w, false))
        .collect::<Vec<_>>()))
}

/// # `GET /webhooks/{id}` (`webhooks:read`)
pub(crate) async fn get(app: &App, call: Call) -> Result<Response> {
    let webhook = app.webhook(&call.who, webhook_id(&call)?).await?;
    Ok(call.reply.ok(webhook_out(&webhook, false)))
}

/// # `PATCH /webhooks/{id}` (`webhooks:write`)
pub(crate) async fn update(app: &App, call: Call) -> Result<Response> {
    let id = webhook_id(&call)?;
    let input: wire::UpdateWebhook = json(&call.parts.headers, &call.body)?;
    let webhook = app
        .update_webhook(
            &call.who,
            id,
            WebhookEdit {
                url: input.url,
                events: input.events.as_deref().map(event_names),
                description: input.description,
                enabled: input.enabled,
            },
        )
        .await?;
    Ok(call.reply.ok(webhook_out(&webhook, false)))
}

/// # `DELETE /webhooks/{id}` (`webhooks:write`)
pub(crate) async fn delete(app: &App, call: Call) -> Result<Response> {
    let id = webhook_id(&call)?;
    app.delete_webhook(&call.who, id).await?;
    Ok(call.reply.ok(wire::DeletedWebhook {
        id: id.0,
        deleted: true,
    }))
}

/// # `POST /webhooks/{id}/rotate-secret` (`webhooks:write`)
pub(crate) async fn rotate_secret(app: &App, call: Call) -> Result<Response> {
    let webhook = app
        .rotate_webhook_secret(&call.who, webhook_id(&call)?)
        .await?;
    Ok(call.reply.ok(webhook_out(&webhook, true)))
}

/// # `POST /webhooks/{id}/test` (`webhooks:write`)
pub(crate) async fn test(app: &App, call: Call) -> Result<Response> {
    let event_id = app.test_webhook(&call.who, webhook_id(&call)?).await?;
    Ok(call.reply.ok(wire::WebhookTest { event_id }))
}

/// # `GET /webhooks/{id}/deliveries` (`webhooks:read`)
pub(crate) async fn deliveries(app: &App, call: Call) -> Result<Response> {
    let id = webhook_id(&call)?;
    let q: wire::ListDeliveries = query(&call.parts)?;
    let (found, page, page_size) = app
        .webhook_deliveries(
            &call.who,
            id,
            q.failed.unwrap_or(false),
            q.page,
            q.page_size,
        )
        .await?;
    Ok(call.reply.ok(wire::DeliveryPage {
        list: found
            .items
            .iter()
            .map(|a| wire::Delivery {
                id: a.id,
                event_id: a.event_id.clone(),
                event_type: a.event_type.name().to_owned(),
                at: format_rfc3339(a.at),
                ok: a.succeeded(),
                status: a.status,
                error: a.error.clone(),
                latency_ms: a.latency_ms,
            })
            .collect(),
        total: found.total,
        page,
        page_size,
    }))
}
