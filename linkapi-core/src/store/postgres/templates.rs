//! Jump-page templates on PostgreSQL.

use async_trait::async_trait;

use super::{PgStore, PgTx, all, count, first, one};
use crate::model::{Template, TemplateId, Timestamp, UserId};
use crate::store::templates::{
    TEMPLATE_BY_ID, TEMPLATE_COLUMNS, TEMPLATES_IN_USE, template_from_row,
};
use crate::store::{
    Misuse, NewTemplate, Page, StoreError, StoreResult, TemplatePatch, TemplateStore,
    TemplateWrites,
};

#[async_trait]
impl TemplateStore for PgStore {
    async fn templates(
        &self,
        user: Option<UserId>,
        offset: i64,
        limit: i64,
    ) -> StoreResult<Page<Template>> {
        let user = user.map(|u| u.0);
        let filter =
            "($1::BIGINT IS NULL OR (retired_at IS NULL AND (user_id IS NULL OR user_id = $1)))";
        let client = self.client().await?;
        let total = count(
            &client,
            &format!("SELECT count(*) FROM templates WHERE {filter}"),
            &[&user],
        )
        .await?;
        let items = all(
            &client,
            &format!(
                "SELECT {TEMPLATE_COLUMNS} FROM templates WHERE {filter}
                 ORDER BY id LIMIT $2 OFFSET $3"
            ),
            &[&user, &limit, &offset],
            template_from_row,
        )
        .await?;
        Ok(Page { items, total })
    }

    async fn template(&self, id: TemplateId) -> StoreResult<Option<Template>> {
        self.one(&TEMPLATE_BY_ID, &[&id.0], template_from_row).await
    }

    async fn templates_in_use(&self, user: UserId) -> StoreResult<Vec<TemplateId>> {
        let ids = self.all(TEMPLATES_IN_USE, &[&user.0], first).await?;
        Ok(ids.into_iter().map(TemplateId).collect())
    }
}

#[async_trait]
impl TemplateWrites for PgTx<'_> {
    async fn insert_template(&mut self, new: NewTemplate) -> StoreResult<Template> {
        one(
            &self.tx,
            &format!(
                "INSERT INTO templates (user_id, name, style, type, thumb, body, created_at,
                    updated_at)
                 VALUES ($1, $2, $3, 2, $4, $5, $6, $6) RETURNING {TEMPLATE_COLUMNS}"
            ),
            &[
                &new.user_id.map(|u| u.0),
                &new.name,
                &new.style,
                &new.thumb,
                &new.body,
                &new.created_at,
            ],
            template_from_row,
        )
        .await?
        .ok_or_else(|| StoreError::backend(Misuse("a template insert returned no row")))
    }

    async fn update_template(
        &mut self,
        id: TemplateId,
        patch: &TemplatePatch,
        at: Timestamp,
    ) -> StoreResult<Option<Template>> {
        one(
            &self.tx,
            &format!(
                "UPDATE templates SET name = coalesce($2, name), style = coalesce($3, style),
                    thumb = coalesce($4, thumb), body = coalesce($5, body), updated_at = $6
                 WHERE id = $1 AND type = 2 AND retired_at IS NULL RETURNING {TEMPLATE_COLUMNS}"
            ),
            &[
                &id.0,
                &patch.name,
                &patch.style,
                &patch.thumb,
                &patch.body,
                &at,
            ],
            template_from_row,
        )
        .await
    }

    async fn retire_template(
        &mut self,
        id: TemplateId,
        at: Timestamp,
    ) -> StoreResult<Option<Template>> {
        one(
            &self.tx,
            &format!(
                "UPDATE templates SET retired_at = $2, updated_at = $2
                 WHERE id = $1 AND type = 2 AND retired_at IS NULL RETURNING {TEMPLATE_COLUMNS}"
            ),
            &[&id.0, &at],
            template_from_row,
        )
        .await
    }

    async fn templates_in_use(&mut self, user: UserId) -> StoreResult<Vec<TemplateId>> {
        let ids = super::all(&self.tx, TEMPLATES_IN_USE, &[&user.0], first).await?;
        Ok(ids.into_iter().map(TemplateId).collect())
    }
}
