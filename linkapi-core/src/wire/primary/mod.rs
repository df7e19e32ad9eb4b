//! Primary-surface shapes (`{base}/chains`, `/groups`, `/domains`, ...). Requests refuse unknown
//! fields so a misspelt field is an error rather than silently ignored.

mod chains;
mod encode;
mod export;
mod import;
mod page_chains;
mod stats;
mod webhooks;

pub use chains::*;
pub use export::*;
pub use import::*;
pub use page_chains::*;
pub use stats::*;
pub use webhooks::*;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// `POST /groups`.
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CreateGroup {
    /// Name, unique per user.
    #[schemars(regex(pattern = super::NAME_PATTERN), length(min = 1, max = 64))]
    pub name: String,
    /// Kind of chains it holds; 0 or absent is 1 (short).
    #[serde(default)]
    #[schemars(range(min = 0, max = 4))]
    pub chain_type: i64,
}

/// A group (spec 2.3).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Group {
    /// Live chains in the group.
    pub chain_count: i64,
    /// Kind of chains it holds.
    pub chain_type: i64,
    /// RFC 3339.
    pub created_at: String,
    /// Row id.
    pub id: i64,
    /// Name.
    pub name: String,
}

/// A domain the caller may use (spec 2.3).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Domain {
    /// Host.
    pub domain: String,
    /// Row id.
    pub id: i64,
    /// Label.
    pub scene: String,
    /// `http` or `https`.
    pub scheme: String,
    /// 1 effective, 99 not effective.
    pub domain_status: i64,
    /// 1 when the caller owns it, 0 when it is shared.
    pub is_my: i64,
}

/// The query of a paged listing that takes nothing else.
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PageQuery {
    /// Page, from 1.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1))]
    pub page: Option<i64>,
    /// Rows per page, at most 100.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1, max = crate::model::limits::MAX_PAGE_SIZE))]
    pub page_size: Option<i64>,
}

/// Query of `GET /chains/{id}/conversions`.
pub type ListConversions = PageQuery;

/// A recorded conversion event.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Conversion {
    /// Unique, time-sortable id (a ULID).
    pub event_id: String,
    /// The chain it is attributed to.
    pub chain_id: i64,
    /// The business event.
    pub conv_type: String,
    /// The caller's idempotency token.
    pub out_id: Option<String>,
    /// Ad-click attribution id.
    pub clickid: Option<String>,
    /// Ad platform named in the report's body.
    pub platform: Option<String>,
    /// Ad platform named in the report's path.
    pub ad_platform: String,
    /// Caller-side user id.
    pub external_userid: Option<String>,
    /// Monetary value in cents.
    pub value_cents: Option<i64>,
    /// When it was first reported (RFC 3339, UTC).
    pub created_at: String,
}

/// `GET /chains/{id}/conversions`: newest first.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct ConversionPage {
    /// This page.
    pub list: Vec<Conversion>,
    /// Events of the chain on all pages.
    pub total: i64,
    /// This page's number.
    pub page: i64,
    /// Rows per page.
    pub page_size: i64,
}

/// An uploaded image (`POST /uploads`, `GET /uploads`, `DELETE /uploads/{file_id}`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Upload {
    /// The upload's id.
    pub file_id: i64,
    /// The stored object: the SHA-256 of the bytes and the type's extension. Uploads of the
    /// same bytes name the same object.
    pub object_key: String,
    /// Length in bytes.
    pub size_bytes: i64,
    /// Where the server hosts it.
    pub url: String,
    /// Media type, decided by the bytes.
    pub content_type: String,
    /// The name the client gave (display only).
    pub file_name: String,
    /// When it was uploaded, RFC 3339.
    pub created_at: String,
}

/// Query of `GET /uploads`.
pub type ListUploads = PageQuery;

/// A page of uploads, newest first.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct UploadPage {
    /// This page.
    pub list: Vec<Upload>,
    /// The caller's uploads on all pages.
    pub total: i64,
    /// This page's number.
    pub page: i64,
    /// Rows per page.
    pub page_size: i64,
}

/// Query of `GET /chains/{id}/qr`.
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct QrQuery {
    /// `png` (default) or `svg`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(regex(pattern = "^(png|svg)$"))]
    pub format: Option<String>,
    /// Side of the image in pixels, 64 to 2048 (default 256).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(
        min = *crate::model::limits::QR_SIZES.start(),
        max = *crate::model::limits::QR_SIZES.end()
    ))]
    pub size: Option<u32>,
}

/// Query of `GET /templates`.
pub type ListTemplates = PageQuery;

/// A jump-page template offered to the caller.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Template {
    /// Id; 0 is the generic template.
    pub id: i64,
    /// Name.
    pub name: String,
    /// Built-in layout it uses (or builds on).
    pub style: String,
    /// 1 built in, 2 added by an administrator.
    #[serde(rename = "type")]
    pub template_type: i64,
    /// Thumbnail URL, may be empty.
    pub thumb: String,
    /// 1 when one of the caller's chains uses it.
    pub is_use: i64,
    /// When it last changed, RFC 3339.
    pub update_time: String,
}

/// A page of templates, with the caller's use of them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct TemplatePage {
    /// This page.
    pub list: Vec<Template>,
    /// Templates offered, on all pages.
    pub total: i64,
    /// This page's number.
    pub page: i64,
    /// Rows per page.
    pub page_size: i64,
    /// Templates (other than the generic one) the caller's chains may use.
    pub template_limit: i64,
    /// Templates (other than the generic one) the caller's chains use.
    pub used_num: i64,
}

/// `GET /healthz` and `GET /readyz`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Health {
    /// `ok` (the process answers) or `ready` (the store answers too).
    pub status: String,
}
