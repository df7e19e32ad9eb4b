//! The visitor secret visitors are counted by: made on first start, replaced by rotation
//! (`POST /admin/visitor-secret`), reloaded when another instance rotated it; and whether a
//! visit is a bot's, as the agents this instance has classified say.

use super::engine::visitors::VisitRequest;
use crate::model::Timestamp;
use crate::store::{Store, VisitorSecret};

impl super::App {
    /// Whether a visit is a bot's: a `HEAD` request, or a bot's user agent (see
    /// [`is_bot_agent`]; the agent's class is remembered per agent).
    pub(crate) fn is_bot_visit(&self, request: &VisitRequest<'_>) -> bool {
        request.head || self.inner.agents.class(request.user_agent).bot
    }
}

/// The visitor secret: made on first start, replaced by rotation, reloaded when another
/// instance rotated it.
impl super::App {
    /// The visitor secret in use, made on first start. Instances starting together may each
    /// make one; the newest wins everywhere through the change feed.
    pub(super) async fn visitor_secret(
        store: &dyn Store,
        clock: &dyn crate::clock::Clock,
    ) -> crate::error::Result<VisitorSecret> {
        if let Some(secret) = store.visitor_secret().await? {
            return Ok(secret);
        }
        Self::insert_visitor_secret(store, clock.now()).await
    }

    async fn insert_visitor_secret(
        store: &dyn Store,
        now: Timestamp,
    ) -> crate::error::Result<VisitorSecret> {
        let secret: [u8; 16] = rand::random();
        let (inserted, _) = crate::store::transact(store, move |tx| {
            Box::pin(async move {
                let inserted = tx.insert_visitor_secret(secret, now).await?;
                tx.publish(crate::store::Invalidation::VisitorSecret)
                    .await?;
                Ok(inserted)
            })
        })
        .await?;
        Ok(inserted)
    }

    /// Starts counting visitors with a new secret (scope `admin`). A visitor seen before the
    /// rotation counts once more as unique after it: rotation unlinks old keys from new ones.
    ///
    /// # Errors
    /// When the store fails.
    pub async fn rotate_visitor_secret(&self) -> crate::error::Result<Timestamp> {
        let inserted = Self::insert_visitor_secret(self.store(), self.now()).await?;
        let at = inserted.created_at;
        self.inner.visitor_keys.replace(inserted);
        Ok(at)
    }

    /// Reloads the visitor secret after another instance rotated it.
    pub(crate) async fn reload_visitor_secret(&self) -> crate::error::Result<()> {
        if let Some(secret) = self.store().visitor_secret().await? {
            self.inner.visitor_keys.replace(secret);
        }
        Ok(())
    }

    /// When the visitor secret in use was made.
    pub fn visitor_secret_since(&self) -> Timestamp {
        self.inner.visitor_keys.current().created_at
    }
}
