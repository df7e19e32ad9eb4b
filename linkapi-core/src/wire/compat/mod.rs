//! Compatibility-surface shapes (`{base}/openapi/v1/...`, spec 2.5). Requests are lenient:
//! older clients send integers as strings and fields this server does not know.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

mod page_chains;

pub use page_chains::*;

use super::{DomainRefs, FlexibleTime, LenientInt};

/// `chain/create`.
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
#[schemars(rename = "CompatCreateChain")]
pub struct CreateChain {
    /// Label.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(regex(pattern = super::TEXT_PATTERN), length(max = crate::model::limits::MAX_TITLE_CHARS))]
    pub chain_title: Option<String>,
    /// Destination.
    #[schemars(regex(pattern = super::URL_PATTERN), length(max = crate::codes::MAX_URL_LEN))]
    pub target_url: String,
    /// Group to put the chain in; 0 is none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub group_id: Option<LenientInt>,
    /// Domain id, as a one-element list (or a bare integer).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(schema_with = "super::schemas::one_domain")]
    pub domain: Option<DomainRefs>,
    /// Expiry: text or Unix seconds; empty or 0 permanent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub valid_time: Option<FlexibleTime>,
    /// Optional custom code.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(regex(pattern = super::CODE_OR_EMPTY_PATTERN))]
    pub code: Option<String>,
}

/// Answer of `chain/create`.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct CreatedChain {
    /// The new chain's code.
    pub chain: String,
    /// Label.
    pub chain_title: String,
    /// Chains the caller created today, this one included.
    pub created_today: i64,
    /// Group, 0 for none.
    pub group_id: i64,
    /// `scheme://domain/code`.
    pub render_url: String,
}

/// Names one chain by code; `domain` picks among equal codes on different domains.
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
pub struct ChainRef {
    /// The code.
    pub chain: String,
    /// Domain id, needed only when the caller has the code on several domains.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(schema_with = "super::schemas::one_domain")]
    pub domain: Option<DomainRefs>,
}

fn edit_chain_changes(schema: &mut schemars::Schema) {
    super::schemas::at_least_one_of(schema, &["chain_title", "target_url", "valid_time"]);
}

/// `chain/edit`.
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
#[schemars(transform = edit_chain_changes)]
pub struct EditChain {
    /// Which chain.
    #[serde(flatten)]
    pub chain: ChainRef,
    /// New label.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(regex(pattern = super::TEXT_PATTERN), length(max = crate::model::limits::MAX_TITLE_CHARS))]
    pub chain_title: Option<String>,
    /// New destination.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(regex(pattern = super::URL_PATTERN), length(max = crate::codes::MAX_URL_LEN))]
    pub target_url: Option<String>,
    /// New expiry.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub valid_time: Option<FlexibleTime>,
}

/// Answer of `chain/edit`.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct EditedChain {
    /// `scheme://domain/code`.
    pub render_url: String,
    /// Destination as it now stands.
    pub target_url: String,
}

/// `chain/delete`.
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
pub struct DeleteChains {
    /// Codes to delete.
    #[schemars(length(min = 1), inner(regex(pattern = super::CODE_PATTERN)))]
    pub chains: Vec<String>,
    /// Domain id, needed only when a code exists on several of the caller's domains.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(schema_with = "super::schemas::one_domain")]
    pub domain: Option<DomainRefs>,
}

fn list_chains_alias(schema: &mut schemars::Schema) {
    super::schemas::alias(schema, "keyword", "q");
}

/// `chain/list` (JSON body or query).
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
#[schemars(transform = list_chains_alias)]
#[schemars(rename = "CompatListChains")]
pub struct ListChains {
    /// 1-based page.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(schema_with = "super::schemas::lenient_positive")]
    pub page: Option<LenientInt>,
    /// Rows per page, at most 100.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(schema_with = "super::schemas::lenient_in::<1, 100>")]
    pub page_size: Option<LenientInt>,
    /// Only chains in this group.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(schema_with = "super::schemas::lenient_id")]
    pub group_id: Option<LenientInt>,
    /// Only chains whose title or code contains this.
    #[serde(default, alias = "q", skip_serializing_if = "Option::is_none")]
    #[schemars(regex(pattern = super::TEXT_PATTERN))]
    pub keyword: Option<String>,
    /// Rows to skip, the vendor's paging (`getChainList`); with `count`, instead of
    /// `page` and `page_size`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(schema_with = "super::schemas::lenient_id")]
    pub start: Option<LenientInt>,
    /// Rows to return from `start`, at most 1000 (default 100).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(schema_with = "super::schemas::lenient_in::<1, 1000>")]
    pub count: Option<LenientInt>,
    /// Only chains created at or after this Unix time (seconds).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(schema_with = "super::schemas::lenient_id")]
    pub begin_date: Option<LenientInt>,
    /// Only chains created at or before this Unix time (seconds).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(schema_with = "super::schemas::lenient_id")]
    pub end_date: Option<LenientInt>,
}

/// `chain/info` (JSON body or query).
pub type ChainInfo = ChainRef;

/// A chain in listings and `chain/info` (spec 2.5).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct ChainItem {
    /// Code.
    pub chain: String,
    /// Row id.
    pub chain_id: i64,
    /// Label.
    pub chain_title: String,
    /// `YYYY-MM-DD HH:MM:SS` UTC.
    pub create_time: String,
    /// Domain id.
    pub domain: i64,
    /// 1 effective, 99 not effective.
    pub domain_status: i64,
    /// Domain host.
    pub domain_url: String,
    /// Group, 0 for none.
    pub group_id: i64,
    /// Visits ever.
    pub pv_history: i64,
    /// Visits today (UTC).
    pub pv_today: i64,
    /// `scheme://domain/code`.
    pub render_url: String,
    /// Status label.
    pub status: String,
    /// Destination kind of messaging-app chains, 0 for short chains.
    pub sub_type: i64,
    /// Kind of chain.
    #[serde(rename = "type")]
    pub chain_type: i64,
    /// Destination.
    pub target_url: String,
    /// Expiry: `YYYY-MM-DD HH:MM:SS` UTC, empty when permanent.
    pub valid_time: String,
}

/// Answer of `chain/list`.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct ChainList {
    /// This page.
    pub list: Vec<ChainItem>,
    /// Rows on this page.
    pub list_num: i64,
    /// Rows on all pages.
    pub total: i64,
}

/// `group/create`.
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
#[schemars(rename = "CompatCreateGroup")]
pub struct CreateGroup {
    /// Name.
    #[schemars(regex(pattern = super::NAME_PATTERN), length(min = 1, max = 64))]
    pub name: String,
    /// Kind of chains it holds; 0 or absent is 1.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(schema_with = "super::schemas::lenient_in::<0, 4>")]
    pub chain_type: Option<LenientInt>,
}

/// `group/list` (JSON body or query).
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
pub struct ListGroups {
    /// Only groups holding this kind of chains (0 is 1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(schema_with = "super::schemas::lenient_in::<0, 4>")]
    pub chain_type: Option<LenientInt>,
}

/// Answer of `group/create`: the id as a string, as the spec has it.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct CreatedGroup {
    /// The new group's id.
    pub group_id: String,
}

/// A group in `group/list`.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct GroupItem {
    /// Live chains in the group.
    pub chain_num: i64,
    /// Kind of chains it holds.
    pub chain_type: i64,
    /// Row id.
    pub group_id: i64,
    /// Name.
    pub group_name: String,
}

/// Answer of `group/list`.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct GroupList {
    /// The caller's groups, oldest first.
    pub list: Vec<GroupItem>,
    /// How many.
    pub total: i64,
}

/// A domain in `domain/list`.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct DomainItem {
    /// Row id.
    pub id: i64,
    /// 1 when the caller owns the domain, 0 when it is shared.
    pub is_my: i64,
    /// `scheme://host`.
    pub url: String,
    /// 1 effective, 99 not effective.
    pub domain_status: i64,
    /// `http` or `https`.
    pub scheme: String,
    /// Label.
    pub scene: String,
}

/// Answer of `domain/list`.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct DomainList {
    /// Domains the caller may use.
    pub domain_list: Vec<DomainItem>,
}

/// `POST /openapi/v1/adcallback/{ad_platform_name}/conversions` (spec 2.4). Exactly one of
/// `chain` and `chain_id` names the chain.
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
pub struct ConversionReport {
    /// The chain by code.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chain: Option<String>,
    /// The chain by id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(schema_with = "super::schemas::lenient_positive")]
    pub chain_id: Option<LenientInt>,
    /// Business event: `[a-z0-9_]{1,32}`, e.g. `form`, `register`, `purchase`.
    #[schemars(regex(pattern = "^[a-z0-9_]{1,32}$"))]
    pub conv_type: String,
    /// The caller's idempotency token; required for `purchase`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(regex(pattern = crate::wire::TEXT_PATTERN), length(max = crate::model::limits::MAX_OUT_ID))]
    pub out_id: Option<String>,
    /// Ad-click attribution id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(regex(pattern = crate::wire::TEXT_PATTERN), length(max = crate::model::limits::MAX_CONVERSION_TEXT))]
    pub clickid: Option<String>,
    /// Ad platform, free text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(regex(pattern = crate::wire::TEXT_PATTERN), length(max = crate::model::limits::MAX_CONVERSION_TEXT))]
    pub platform: Option<String>,
    /// Caller-side user id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(regex(pattern = crate::wire::TEXT_PATTERN), length(max = crate::model::limits::MAX_CONVERSION_TEXT))]
    pub external_userid: Option<String>,
    /// Monetary value in cents.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(schema_with = "super::schemas::lenient_id")]
    pub value_cents: Option<LenientInt>,
}

/// The result of a conversion report (in `{status: 1, result}`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct ConversionResult {
    /// The chain it is attributed to.
    pub chain_id: i64,
    /// The business event.
    pub conv_type: String,
    /// Whether the report repeated one already recorded (then `event_id` is the original's).
    pub duplicate: bool,
    /// Unique, time-sortable id of the event (a ULID).
    pub event_id: String,
}

/// One stored file of `upload/image`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct UploadedImage {
    /// The name the client gave.
    pub file_name: String,
    /// Where the server hosts it.
    pub img_url: String,
}

/// Answer of `upload/image`: every file is in one list or the other.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct UploadResult {
    /// Files stored.
    pub upload_success_data: Vec<UploadedImage>,
    /// One line per refused file: its name and why.
    pub upload_fail_data: Vec<String>,
}

fn page_count_alias(schema: &mut schemars::Schema) {
    super::schemas::alias(schema, "page_size", "pageCount");
}

/// `template/list` and `workchat/assembly/list` (JSON body or query). The page size may also
/// be called `pageCount`, as the vendor's `getCustomerAssemblyList` calls it.
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
#[schemars(transform = page_count_alias)]
pub struct ListTemplates {
    /// 1-based page.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(schema_with = "super::schemas::lenient_positive")]
    pub page: Option<LenientInt>,
    /// Rows per page, at most 100.
    #[serde(default, alias = "pageCount", skip_serializing_if = "Option::is_none")]
    #[schemars(schema_with = "super::schemas::lenient_in::<1, 100>")]
    pub page_size: Option<LenientInt>,
}

/// A template in `template/list` (spec 2.5).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct TemplateItem {
    /// Id; 0 is the generic template.
    pub id: i64,
    /// 1 when one of the caller's chains uses it.
    pub is_use: i64,
    /// Name.
    pub name: String,
    /// Thumbnail URL, may be empty.
    pub thumb: String,
    /// 1 built in, 2 added by an administrator.
    #[serde(rename = "type")]
    pub template_type: i64,
    /// When it last changed, `YYYY-MM-DD HH:MM:SS` UTC.
    pub update_time: String,
}

/// Answer of `template/list`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct TemplateList {
    /// This page.
    pub list: Vec<TemplateItem>,
    /// This page's number.
    pub page: String,
    /// Pages in all.
    #[serde(rename = "pageCount")]
    pub page_count: String,
    /// Templates (other than the generic one) the caller's chains may use.
    pub template_limit: i64,
    /// Templates offered, on all pages.
    pub total: i64,
    /// Templates (other than the generic one) the caller's chains use.
    pub used_num: i64,
}
