//! Webhook endpoints (`/webhooks`).

use super::{Client, ClientError, op};
use crate::wire::primary;

impl Client {
    /// `POST /webhooks`: the answer carries the signing secret, the only time it is shown.
    ///
    /// # Errors
    /// As the server answers; see [`ClientError`].
    pub async fn create_webhook(
        &self,
        input: &primary::CreateWebhook,
    ) -> Result<primary::Webhook, ClientError> {
        self.with_body(op::WEBHOOKS_CREATE, "/webhooks", input)
            .await
    }

    /// `GET /webhooks`: the caller's endpoints, oldest first.
    ///
    /// # Errors
    /// As the server answers; see [`ClientError`].
    pub async fn webhooks(&self) -> Result<Vec<primary::Webhook>, ClientError> {
        self.get(op::WEBHOOKS_LIST, "/webhooks").await
    }

    /// `GET /webhooks/{id}`
    ///
    /// # Errors
    /// As the server answers; see [`ClientError`].
    pub async fn webhook(&self, id: i64) -> Result<primary::Webhook, ClientError> {
        self.get(op::WEBHOOKS_GET, &format!("/webhooks/{id}")).await
    }

    /// `PATCH /webhooks/{id}`
    ///
    /// # Errors
    /// As the server answers; see [`ClientError`].
    pub async fn update_webhook(
        &self,
        id: i64,
        input: &primary::UpdateWebhook,
    ) -> Result<primary::Webhook, ClientError> {
        self.with_body(op::WEBHOOKS_UPDATE, &format!("/webhooks/{id}"), input)
            .await
    }

    /// `DELETE /webhooks/{id}`
    ///
    /// # Errors
    /// As the server answers; see [`ClientError`].
    pub async fn delete_webhook(&self, id: i64) -> Result<primary::DeletedWebhook, ClientError> {
        let (request, url) = self.request(op::WEBHOOKS_DELETE, &format!("/webhooks/{id}"));
        self.send(op::WEBHOOKS_DELETE, request, url).await
    }

    /// `POST /webhooks/{id}/rotate-secret`: the answer carries the new secret.
    ///
    /// # Errors
    /// As the server answers; see [`ClientError`].
    pub async fn rotate_webhook_secret(&self, id: i64) -> Result<primary::Webhook, ClientError> {
        let path = format!("/webhooks/{id}/rotate-secret");
        let (request, url) = self.request(op::WEBHOOKS_ROTATE_SECRET, &path);
        self.send(op::WEBHOOKS_ROTATE_SECRET, request, url).await
    }

    /// `POST /webhooks/{id}/test`: sends a `webhook.test` event; its id.
    ///
    /// # Errors
    /// As the server answers; see [`ClientError`].
    pub async fn test_webhook(&self, id: i64) -> Result<primary::WebhookTest, ClientError> {
        let path = format!("/webhooks/{id}/test");
        let (request, url) = self.request(op::WEBHOOKS_TEST, &path);
        self.send(op::WEBHOOKS_TEST, request, url).await
    }

    /// `GET /webhooks/{id}/deliveries`: attempts, newest first.
    ///
    /// # Errors
    /// As the server answers; see [`ClientError`].
    pub async fn webhook_deliveries(
        &self,
        id: i64,
        query: &primary::ListDeliveries,
    ) -> Result<primary::DeliveryPage, ClientError> {
        let query = serde_urlencoded::to_string(query).unwrap_or_default();
        self.get(
            op::WEBHOOKS_DELIVERIES,
            &format!("/webhooks/{id}/deliveries?{query}"),
        )
        .await
    }
}
