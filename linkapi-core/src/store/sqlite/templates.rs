//! Jump-page templates on SQLite.

use async_trait::async_trait;
use rusqlite::{Connection, params};

use super::{SqliteStore, SqliteTx, all, count, first, one};
use crate::model::{Template, TemplateId, Timestamp, UserId};
use crate::store::templates::{
    TEMPLATE_BY_ID, TEMPLATE_COLUMNS, TEMPLATES_IN_USE, template_from_row,
};
use crate::store::{
    Misuse, NewTemplate, Page, StoreError, StoreResult, TemplatePatch, TemplateStore,
    TemplateWrites,
};

fn template_by_id(c: &Connection, id: TemplateId) -> StoreResult<Option<Template>> {
    one(c, &TEMPLATE_BY_ID, [id.0], template_from_row)
}

#[async_trait]
impl TemplateStore for SqliteStore {
    async fn templates(
        &self,
        user: Option<UserId>,
        offset: i64,
        limit: i64,
    ) -> StoreResult<Page<Template>> {
        let user = user.map(|u| u.0);
        self.read(move |c| {
            let filter =
                "(?1 IS NULL OR (retired_at IS NULL AND (user_id IS NULL OR user_id = ?1)))";
            let total = count(
                c,
                &format!("SELECT count(*) FROM templates WHERE {filter}"),
                [user],
            )?;
            let items = all(
                c,
                &format!(
                    "SELECT {TEMPLATE_COLUMNS} FROM templates WHERE {filter}
                     ORDER BY id LIMIT ?2 OFFSET ?3"
                ),
                params![user, limit, offset],
                template_from_row,
            )?;
            Ok(Page { items, total })
        })
        .await
    }

    async fn template(&self, id: TemplateId) -> StoreResult<Option<Template>> {
        self.read(move |c| template_by_id(c, id)).await
    }

    async fn templates_in_use(&self, user: UserId) -> StoreResult<Vec<TemplateId>> {
        let ids = self
            .read(move |c| all(c, TEMPLATES_IN_USE, [user.0], first))
            .await?;
        Ok(ids.into_iter().map(TemplateId).collect())
    }
}

#[async_trait]
impl TemplateWrites for SqliteTx<'_> {
    async fn insert_template(&mut self, new: NewTemplate) -> StoreResult<Template> {
        let id: i64 = self
            .conn
            .prepare_cached(
                "INSERT INTO templates (user_id, name, style, type, thumb, body, created_at,
                    updated_at)
                 VALUES (?1, ?2, ?3, 2, ?4, ?5, ?6, ?6) RETURNING id",
            )?
            .query_row(
                params![
                    new.user_id.map(|u| u.0),
                    new.name,
                    new.style,
                    new.thumb,
                    new.body,
                    new.created_at
                ],
                |r| r.get(0),
            )?;
        template_by_id(self.conn, TemplateId(id))?
            .ok_or_else(|| StoreError::backend(Misuse("an inserted template is missing")))
    }

    async fn update_template(
        &mut self,
        id: TemplateId,
        patch: &TemplatePatch,
        at: Timestamp,
    ) -> StoreResult<Option<Template>> {
        let changed = self
            .conn
            .prepare_cached(
                "UPDATE templates SET name = coalesce(?2, name), style = coalesce(?3, style),
                    thumb = coalesce(?4, thumb), body = coalesce(?5, body), updated_at = ?6
                 WHERE id = ?1 AND type = 2 AND retired_at IS NULL",
            )?
            .execute(params![
                id.0,
                patch.name,
                patch.style,
                patch.thumb,
                patch.body,
                at
            ])?;
        if changed == 0 {
            return Ok(None);
        }
        template_by_id(self.conn, id)
    }

    async fn retire_template(
        &mut self,
        id: TemplateId,
        at: Timestamp,
    ) -> StoreResult<Option<Template>> {
        let changed = self
            .conn
            .prepare_cached(
                "UPDATE templates SET retired_at = ?2, updated_at = ?2
                 WHERE id = ?1 AND type = 2 AND retired_at IS NULL",
            )?
            .execute(params![id.0, at])?;
        if changed == 0 {
            return Ok(None);
        }
        template_by_id(self.conn, id)
    }

    async fn templates_in_use(&mut self, user: UserId) -> StoreResult<Vec<TemplateId>> {
        let ids = all(self.conn, TEMPLATES_IN_USE, [user.0], first)?;
        Ok(ids.into_iter().map(TemplateId).collect())
    }
}
