//! Administration shapes (`{base}/admin/...`, primary envelopes, scope `admin`).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// `POST /admin/users`.
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CreateUser {
    /// Unique name.
    #[schemars(regex(pattern = super::NAME_PATTERN), length(min = 1, max = 64))]
    pub name: String,
    /// Chains the user may create per UTC day; the server default when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 0))]
    pub daily_quota: Option<i64>,
}

/// A user.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct User {
    /// Row id.
    pub id: i64,
    /// Name.
    pub name: String,
    /// Per-user daily quota, null for the server default.
    pub daily_quota: Option<i64>,
    /// RFC 3339.
    pub created_at: String,
    /// Whether the user is suspended (their keys answer 401).
    pub suspended: bool,
    /// When the user was suspended, RFC 3339; null when not suspended.
    pub suspended_at: Option<String>,
    /// Whether the suspended user's chains answer 404 instead of redirecting.
    pub suspend_redirects: bool,
}

/// `PATCH /admin/users/{id}`: only the fields sent change.
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EditUser {
    /// A new unique name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(regex(pattern = super::NAME_PATTERN), length(min = 1, max = 64))]
    pub name: Option<String>,
    /// A new daily quota; null returns the user to the server's default.
    #[serde(
        default,
        deserialize_with = "present",
        skip_serializing_if = "Option::is_none"
    )]
    #[schemars(range(min = 0))]
    pub daily_quota: Option<Option<i64>>,
    /// true suspends the user (every key of theirs answers 401 at once, on every instance);
    /// false resumes them, redirects included.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub suspended: Option<bool>,
    /// With a suspended user: true makes their chains answer 404 instead of redirecting.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub suspend_redirects: Option<bool>,
}

/// A field that is present, null included: `Some(None)` for null, absent stays `None`.
fn present<'de, D, T>(deserializer: D) -> Result<Option<Option<T>>, D::Error>
where
    D: serde::Deserializer<'de>,
    T: Deserialize<'de>,
{
    Option::<T>::deserialize(deserializer).map(Some)
}

/// What a user has and uses.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Usage {
    /// Chains not deleted, of every kind.
    pub chains: i64,
    /// Chains created today, as the daily quota counts them.
    pub created_today: i64,
    /// The daily quota in force: the user's own, else the server's default.
    pub daily_quota: i64,
    /// Bytes the user's uploads take.
    pub upload_bytes: i64,
    /// Uploads the user has.
    pub uploads: i64,
    /// Keys neither revoked nor expired.
    pub active_keys: i64,
    /// Keys ever made, revoked and expired included.
    pub keys: i64,
}

/// `GET /admin/users/{id}`: the user and their usage.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct UserDetail {
    /// The user.
    #[serde(flatten)]
    pub user: User,
    /// What they have and use.
    pub usage: Usage,
}

/// `POST /admin/keys`.
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CreateKey {
    /// The user the key acts as.
    pub user_id: i64,
    /// Scope names, e.g. `chains:read`.
    #[schemars(length(min = 1), inner(regex(pattern = crate::model::SCOPE_PATTERN)))]
    pub scopes: Vec<String>,
    /// Label.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(regex(pattern = super::TEXT_PATTERN), length(max = crate::model::limits::MAX_NAME_CHARS))]
    pub name: Option<String>,
    /// Unix seconds after which the key is refused.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(max = crate::clock::LATEST))]
    pub expires_at: Option<i64>,
}

/// A key as listed: never its secret.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Key {
    /// Row id.
    pub id: i64,
    /// Owner.
    pub user_id: i64,
    /// Label.
    pub name: String,
    /// Visible start of the secret.
    pub prefix: String,
    /// Scope names.
    pub scopes: Vec<String>,
    /// RFC 3339.
    pub created_at: String,
    /// Unix seconds, null for never.
    pub expires_at: Option<i64>,
    /// RFC 3339, null while the key is live.
    pub revoked_at: Option<String>,
    /// `active`, `expired` or `revoked`.
    pub state: String,
}

/// Answer of `POST /admin/keys`: the only time the secret is shown.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct CreatedKey {
    /// The key's record.
    #[serde(flatten)]
    pub key: Key,
    /// The secret, `lk_...`.
    pub api_key: String,
}

/// `POST /admin/domains`.
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CreateDomain {
    /// Host, optionally with a port.
    #[schemars(
        regex(pattern = r"^([a-z0-9]{1,30}\.)+[a-z][a-z0-9]{0,30}$"),
        length(max = crate::model::limits::MAX_HOST_NAME)
    )]
    pub domain: String,
    /// `http` or `https`.
    #[schemars(regex(pattern = "^(http|https)$"))]
    pub scheme: String,
    /// Label.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(regex(pattern = super::TEXT_PATTERN), length(max = crate::model::limits::MAX_NAME_CHARS))]
    pub scene: Option<String>,
    /// Offered to every user.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shared: Option<bool>,
    /// Owner of a private domain; the caller when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub user_id: Option<i64>,
}

/// `PATCH /admin/domains/{id}`.
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct UpdateDomain {
    /// 1 effective, 99 not effective.
    #[schemars(extend("enum" = [1, 99]))]
    pub status: i64,
}

/// A domain as administrators see it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[schemars(rename = "AdminDomain")]
pub struct Domain {
    /// Row id.
    pub id: i64,
    /// Host.
    pub domain: String,
    /// `http` or `https`.
    pub scheme: String,
    /// Label.
    pub scene: String,
    /// Offered to every user.
    pub shared: bool,
    /// Owner of a private domain.
    pub user_id: Option<i64>,
    /// 1 effective, 99 not effective.
    pub status: i64,
    /// RFC 3339.
    pub created_at: String,
}

/// `POST /admin/visitor-secret`: a new visitor secret is in use.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct VisitorSecretRotated {
    /// When the new secret was made (RFC 3339, UTC).
    pub rotated_at: String,
}

/// `GET /admin/orphan-visits`: requests of the deployment's domains that reached no chain,
/// over the last `days` days.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct OrphanVisits {
    /// Days in the window, today included.
    pub days: i64,
    /// Per domain and kind that had any in the window, by domain id then kind.
    pub list: Vec<OrphanVisitCount>,
}

/// One domain's orphan visits of one kind.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct OrphanVisitCount {
    /// The domain's id.
    pub domain_id: i64,
    /// Its host; empty for a domain no longer there.
    pub domain: String,
    /// `base_url` (`/`), `unknown_code` (no live chain has it) or `reserved_path` (a path
    /// that cannot be a code, which no route answers).
    pub kind: String,
    /// Requests in the window, people's and bots' alike.
    pub visits: i64,
    /// Requests per day, oldest first, ending today, days without any included.
    pub daily_trend: Vec<OrphanDay>,
}

/// One day of an orphan-visit count.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct OrphanDay {
    /// The calendar day, `YYYY-MM-DD`, in the server's time zone.
    pub day: String,
    /// Requests that day.
    pub visits: i64,
}

/// `POST /admin/templates`: a custom template.
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CreateTemplate {
    /// Name, 1 to 64 characters.
    #[schemars(regex(pattern = super::NAME_PATTERN), length(min = 1, max = crate::model::limits::MAX_TEMPLATE_NAME))]
    pub name: String,
    /// Built-in layout: `generic` (default), `card` or `poster`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(regex(pattern = "^(generic|card|poster)$"))]
    pub style: Option<String>,
    /// Thumbnail URL (http or https).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(regex(pattern = super::URL_OR_EMPTY_PATTERN), length(max = crate::codes::MAX_URL_LEN))]
    pub thumb: Option<String>,
    /// Page source, a minijinja template (at most 65,536 characters); the layout of `style`
    /// when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(length(max = crate::model::limits::MAX_TEMPLATE_BODY))]
    pub body: Option<String>,
    /// Offer it to this user only; to everyone when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub user_id: Option<i64>,
}

fn update_template_changes(schema: &mut schemars::Schema) {
    super::schemas::at_least_one_of(schema, &["name", "style", "thumb", "body"]);
}

/// `PATCH /admin/templates/{id}`.
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(transform = update_template_changes)]
pub struct UpdateTemplate {
    /// New name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(regex(pattern = super::NAME_PATTERN), length(min = 1, max = crate::model::limits::MAX_TEMPLATE_NAME))]
    pub name: Option<String>,
    /// New layout.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(regex(pattern = "^(generic|card|poster)$"))]
    pub style: Option<String>,
    /// New thumbnail URL (empty removes it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(regex(pattern = super::URL_OR_EMPTY_PATTERN), length(max = crate::codes::MAX_URL_LEN))]
    pub thumb: Option<String>,
    /// New page source (empty returns to the layout of `style`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(length(max = crate::model::limits::MAX_TEMPLATE_BODY))]
    pub body: Option<String>,
}

/// A template as administrators see it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[schemars(rename = "AdminTemplate")]
pub struct Template {
    /// Id; 0 is the generic template.
    pub id: i64,
    /// The only user it is offered to; null for everyone.
    pub user_id: Option<i64>,
    /// Name.
    pub name: String,
    /// Built-in layout.
    pub style: String,
    /// 1 built in, 2 custom.
    #[serde(rename = "type")]
    pub template_type: i64,
    /// Thumbnail URL.
    pub thumb: String,
    /// Page source; empty uses the layout.
    pub body: String,
    /// RFC 3339.
    pub created_at: String,
    /// RFC 3339.
    pub updated_at: String,
    /// RFC 3339, when retired.
    pub retired_at: Option<String>,
}

/// Query of `GET /admin/templates`.
pub type ListTemplates = super::primary::PageQuery;

/// Query of `GET /admin/templates/{id}/preview`.
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PreviewTemplate {
    /// An http(s) image URL to show (an uploaded QR code, say).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(regex(pattern = super::URL_PATTERN), length(max = crate::codes::MAX_URL_LEN))]
    pub image: Option<String>,
    /// 1 small image (default), 2 long image.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1, max = 2))]
    pub show_type: Option<i64>,
}

/// `GET /admin/keys` query.
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ListKeys {
    /// Only this user's keys.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub user_id: Option<i64>,
}

/// `POST /admin/workchat/assemblies`: adds an entry to a user's assembly list, or changes the
/// entry with the same `link_id`.
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PutAssembly {
    /// The user whose list it is.
    pub user_id: i64,
    /// The work-chat's id of the link.
    #[schemars(regex(pattern = r"^[!-~]{1,128}$"))]
    pub link_id: String,
    /// Its name.
    #[schemars(regex(pattern = super::TEXT_PATTERN), length(max = crate::model::limits::MAX_WORKCHAT_TEXT))]
    pub link_name: String,
    /// The acquisition URL, http(s).
    #[schemars(regex(pattern = super::URL_PATTERN), length(max = crate::codes::MAX_URL_LEN))]
    pub url: String,
    /// Authorization state, free text.
    #[serde(default)]
    #[schemars(regex(pattern = super::TEXT_PATTERN), length(max = crate::model::limits::MAX_WORKCHAT_TEXT))]
    pub auth_status: String,
    /// Marks it invalid (use_status 2): no chain may choose it.
    #[serde(default)]
    pub invalid: bool,
}

/// `GET /admin/workchat/assemblies` query.
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ListAssemblies {
    /// Whose list.
    pub user_id: i64,
    /// 1-based page.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1))]
    pub page: Option<i64>,
    /// Rows per page, at most 100.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1, max = crate::model::limits::MAX_PAGE_SIZE))]
    pub page_size: Option<i64>,
}

/// An assembly-list entry.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Assembly {
    /// Row id (`customer_id` of work-chat chains).
    pub id: i64,
    /// Owner.
    pub user_id: i64,
    /// The work-chat's id of the link.
    pub link_id: String,
    /// Name.
    pub link_name: String,
    /// Acquisition URL.
    pub url: String,
    /// Authorization state.
    pub auth_status: String,
    /// 0 not in use, 1 in use, 2 invalid.
    pub use_status: i64,
    /// RFC 3339.
    pub created_at: String,
}

/// A page of assembly-list entries.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct AssemblyPage {
    /// This page, oldest first.
    pub list: Vec<Assembly>,
    /// Entries on all pages.
    pub total: i64,
    /// This page.
    pub page: i64,
    /// Rows per page.
    pub page_size: i64,
}

/// One customer's transfer in [`LoadTransfers`].
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TransferRecord {
    /// The customer.
    #[schemars(regex(pattern = r"^[!-~]{1,128}$"))]
    pub external_userid: String,
    /// The customer's name.
    #[serde(default)]
    #[schemars(regex(pattern = super::TEXT_PATTERN), length(max = crate::model::limits::MAX_WORKCHAT_TEXT))]
    pub name: String,
    /// 1 takeover done, 2 waiting, 3 refused, 4 taker at its limit, 5 no transfer record.
    #[schemars(range(min = 1, max = 5))]
    pub status: i64,
    /// When the takeover happened, Unix seconds.
    #[serde(default)]
    #[schemars(range(min = 0))]
    pub takeover_time: i64,
    /// The work-chat's error code.
    #[serde(default)]
    pub errcode: i64,
    /// Why it failed.
    #[serde(default)]
    #[schemars(regex(pattern = super::TEXT_PATTERN), length(max = crate::model::limits::MAX_WORKCHAT_TEXT))]
    pub reason: String,
}

/// `POST /admin/workchat/transfers`: records transfers of one corp from one work-chat user to
/// another, for one user of this service; all or none.
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LoadTransfers {
    /// The user whose data it is (the key that queries it acts as this user).
    pub user_id: i64,
    /// The corp.
    #[schemars(regex(pattern = r"^[!-~]{1,128}$"))]
    pub corp_id: String,
    /// The user handing customers over.
    #[schemars(regex(pattern = r"^[!-~]{1,128}$"))]
    pub handover_userid: String,
    /// The user taking them over.
    #[schemars(regex(pattern = r"^[!-~]{1,128}$"))]
    pub takeover_userid: String,
    /// One entry per customer.
    #[schemars(length(min = 1, max = crate::model::limits::MAX_TRANSFERS_PER_LOAD))]
    pub records: Vec<TransferRecord>,
}

/// Answer of `POST /admin/workchat/transfers`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct LoadedTransfers {
    /// Records stored (new or replaced).
    pub stored: i64,
}
