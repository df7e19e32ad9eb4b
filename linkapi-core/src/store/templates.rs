//! Jump-page templates: the built-in ones and those administrators add.

use async_trait::async_trait;

use super::{Page, StoreResult, StoredRow, bad_value};
use crate::model::{Template, TemplateId, TemplateKind, Timestamp, UserId};

/// A new custom template; the service has validated every field.
#[derive(Debug, Clone)]
pub struct NewTemplate {
    /// Offered only to this user; `None` to everyone.
    pub user_id: Option<UserId>,
    /// Display name.
    pub name: String,
    /// Built-in layout used when `body` is empty.
    pub style: String,
    /// Thumbnail URL, may be empty.
    pub thumb: String,
    /// Page source, may be empty.
    pub body: String,
    /// Creation time.
    pub created_at: Timestamp,
}

/// Changes to a custom template; `None` leaves a field as it is.
#[derive(Debug, Clone, Default)]
pub struct TemplatePatch {
    /// New name.
    pub name: Option<String>,
    /// New layout.
    pub style: Option<String>,
    /// New thumbnail URL.
    pub thumb: Option<String>,
    /// New page source.
    pub body: Option<String>,
}

/// The columns of a template, in the order [`template_from_row`] reads them.
pub(crate) const TEMPLATE_COLUMNS: &str =
    "id, user_id, name, style, type, thumb, body, created_at, updated_at, retired_at";

/// One template by id.
pub(crate) static TEMPLATE_BY_ID: std::sync::LazyLock<String> =
    std::sync::LazyLock::new(|| format!("SELECT {TEMPLATE_COLUMNS} FROM templates WHERE id = $1"));

pub(crate) fn template_from_row(row: &dyn StoredRow) -> StoreResult<Template> {
    let kind = row.int(4)?;
    Ok(Template {
        id: TemplateId(row.int(0)?),
        user_id: row.opt_int(1)?.map(UserId),
        name: row.text(2)?,
        style: row.text(3)?,
        kind: TemplateKind::from_code(kind).ok_or_else(|| bad_value("type", kind))?,
        thumb: row.text(5)?,
        body: row.text(6)?,
        created_at: row.int(7)?,
        updated_at: row.int(8)?,
        retired_at: row.opt_int(9)?,
    })
}

/// The distinct templates a user's live chains use.
pub(crate) const TEMPLATES_IN_USE: &str = "SELECT DISTINCT jump_template_id FROM chains
     WHERE user_id = $1 AND deleted_at IS NULL AND chain_type <> 1
     ORDER BY jump_template_id";

/// Jump-page templates.
#[async_trait]
pub trait TemplateStore: Send + Sync {
    /// A page of templates, lowest id first: with `user`, the live ones offered to that user
    /// (shared and the user's own); without, every template, retired ones included.
    async fn templates(
        &self,
        user: Option<UserId>,
        offset: i64,
        limit: i64,
    ) -> StoreResult<Page<Template>>;
    /// One template, retired or not.
    async fn template(&self, id: TemplateId) -> StoreResult<Option<Template>>;
    /// The distinct templates the user's live chains use.
    async fn templates_in_use(&self, user: UserId) -> StoreResult<Vec<TemplateId>>;
}

/// Writes to templates.
#[async_trait]
pub trait TemplateWrites: Send {
    /// Inserts a custom template.
    async fn insert_template(&mut self, new: NewTemplate) -> StoreResult<Template>;
    /// Applies a patch to a custom template (built-in ones are not touched); returns it as it
    /// now stands.
    async fn update_template(
        &mut self,
        id: TemplateId,
        patch: &TemplatePatch,
        at: Timestamp,
    ) -> StoreResult<Option<Template>>;
    /// Marks a live custom template retired at `at`; returns it as it now stands.
    async fn retire_template(
        &mut self,
        id: TemplateId,
        at: Timestamp,
    ) -> StoreResult<Option<Template>>;
    /// The distinct templates the user's live chains use, as the transaction sees them.
    async fn templates_in_use(&mut self, user: UserId) -> StoreResult<Vec<TemplateId>>;
}
