//! Primary-surface shapes (`{base}/chains`, `/groups`, `/domains`, ...). Requests refuse unknown
//! fields so a misspelt field is an error rather than silently ignored.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// `POST /chains`.
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CreateChain {
    /// Destination, http or https.
    #[schemars(regex(pattern = super::URL_PATTERN), length(max = crate::codes::MAX_URL_LEN))]
    pub target_url: String,
    /// Domain to serve on; the server's default domain when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1))]
    pub domain_id: Option<i64>,
    /// Optional label.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(regex(pattern = super::TEXT_PATTERN), length(max = crate::model::limits::MAX_TITLE_CHARS))]
    pub chain_title: Option<String>,
    /// Optional custom code; a random one when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(regex(pattern = super::CODE_PATTERN))]
    pub code: Option<String>,
    /// Unix seconds after which the chain answers 410; 0 or absent is permanent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(max = crate::clock::LATEST))]
    pub valid_time: Option<i64>,
    /// Group to put the chain in.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1))]
    pub group_id: Option<i64>,
}

fn update_chain_changes(schema: &mut schemars::Schema) {
    super::schemas::at_least_one_of(schema, &["chain_title", "target_url", "valid_time"]);
}

/// `PATCH /chains/{id}`: fields left out stay as they are.
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(transform = update_chain_changes)]
pub struct UpdateChain {
    /// New label.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(regex(pattern = super::TEXT_PATTERN), length(max = crate::model::limits::MAX_TITLE_CHARS))]
    pub chain_title: Option<String>,
    /// New destination.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(regex(pattern = super::URL_PATTERN), length(max = crate::codes::MAX_URL_LEN))]
    pub target_url: Option<String>,
    /// New expiry; 0 makes the chain permanent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(max = crate::clock::LATEST))]
    pub valid_time: Option<i64>,
}

/// `GET /chains` query.
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ListChains {
    /// 1-based page.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1))]
    pub page: Option<i64>,
    /// Rows per page, at most 100.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1, max = crate::model::limits::MAX_PAGE_SIZE))]
    pub page_size: Option<i64>,
    /// Only chains in this group.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 0))]
    pub group_id: Option<i64>,
    /// Only chains whose title or code contains this.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(regex(pattern = super::TEXT_PATTERN))]
    pub q: Option<String>,
}

/// A chain on the primary surface (spec 2.1 plus what clients need to use it).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Chain {
    /// Row id.
    pub id: i64,
    /// Short code.
    pub code: String,
    /// 1 normal, 2 expired, 3 disabled, 4 domain not effective.
    pub status: i64,
    /// Label of `status`.
    pub status_label: String,
    /// Destination.
    pub target_url: String,
    /// Kind of chain: 1 short, 2 external, 3 work-chat, 4 card.
    #[serde(rename = "type")]
    pub chain_type: i64,
    /// Destination kind of messaging-app chains.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sub_type: Option<i64>,
    /// Domain id.
    pub domain_id: i64,
    /// Label.
    pub chain_title: String,
    /// Expiry in Unix seconds; 0 permanent.
    pub valid_time: i64,
    /// `scheme://domain/code`.
    pub render_url: String,
    /// First group, if any.
    pub group_id: Option<i64>,
    /// Visits today (UTC).
    pub pv_today: i64,
    /// Visits ever.
    pub pv_history: i64,
    /// RFC 3339.
    pub created_at: String,
    /// RFC 3339.
    pub updated_at: String,
}

/// A page of chains.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct ChainPage {
    /// The chains of this page, newest first.
    pub list: Vec<Chain>,
    /// Chains matching the filter on all pages.
    pub total: i64,
    /// This page, 1-based.
    pub page: i64,
    /// Rows per page.
    pub page_size: i64,
}

/// `DELETE /chains/{id}` answer.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct DeletedChain {
    /// The deleted chain's id.
    pub id: i64,
    /// Always true.
    pub deleted: bool,
}

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

/// Query of `GET /chains/{id}/stats`.
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StatsQuery {
    /// Days of daily trend, 1 to 365 (default 7), today included.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1, max = crate::model::limits::MAX_STATS_DAYS))]
    pub days: Option<i64>,
}

/// One day of the trend.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct DayClicks {
    /// The calendar day, `YYYY-MM-DD`, in the server's time zone.
    pub day: String,
    /// Visits by people that day.
    pub clicks: i64,
}

/// `GET /chains/{id}/stats`: a chain's statistics (spec 2.3). Bots are excluded throughout.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct ChainStats {
    /// The chain.
    pub chain_id: i64,
    /// Visits ever.
    pub total_clicks: i64,
    /// Distinct visitors ever.
    pub unique_visitors: i64,
    /// Days in `daily_trend`.
    pub trend_days: i64,
    /// Visits per day, oldest first, ending today; days without visits included.
    pub daily_trend: Vec<DayClicks>,
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
    #[schemars(range(min = *crate::qr::SIZES.start(), max = *crate::qr::SIZES.end()))]
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

/// A channel as sent in `channel_list`: without `id` a new channel; with `id` a change to one
/// of the chain's channels, or its removal with `is_delete: 1`.
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ChannelInput {
    /// The channel to change or remove.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 0))]
    pub id: Option<i64>,
    /// 1 removes the channel.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 0, max = 1))]
    pub is_delete: Option<i64>,
    /// Position in sort order.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = -crate::model::limits::MAX_VISIT_LIMIT, max = crate::model::limits::MAX_VISIT_LIMIT))]
    pub sort: Option<i64>,
    /// Label.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(regex(pattern = super::LINES_PATTERN), length(max = crate::model::limits::MAX_JUMP_NAME))]
    pub qrcode_name: Option<String>,
    /// The QR image, http(s).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(regex(pattern = super::URL_OR_EMPTY_PATTERN), length(max = crate::codes::MAX_URL_LEN))]
    pub url: Option<String>,
    /// Where the QR code leads, http(s).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(regex(pattern = super::URL_OR_EMPTY_PATTERN), length(max = crate::codes::MAX_URL_LEN))]
    pub url2: Option<String>,
    /// Unix seconds after which the channel is skipped; 0 never.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 0))]
    pub qrcode_time: Option<i64>,
    /// Weight under visit_type 3.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 0, max = crate::model::limits::MAX_RATIO))]
    pub ratio: Option<i64>,
    /// Visits it may get (total or daily by qrcode_vc_type); 0 unlimited.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 0, max = crate::model::limits::MAX_VISIT_LIMIT))]
    pub visit_limit: Option<i64>,
    /// 1 enabled, 0 disabled.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 0, max = 1))]
    pub status: Option<i64>,
}

/// `POST /wx-chains` (spec 2.2) and `PATCH /wx-chains/{id}`: on create absent fields take
/// their defaults, on edit they stay as they are.
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct WxChainInput {
    /// Domain (create only); the default domain when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1))]
    pub domain_id: Option<i64>,
    /// Label.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(regex(pattern = super::TEXT_PATTERN), length(max = crate::model::limits::MAX_TITLE_CHARS))]
    pub chain_title: Option<String>,
    /// Custom code (create only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(regex(pattern = super::CODE_PATTERN))]
    pub code: Option<String>,
    /// Unix seconds; 0 permanent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(max = crate::clock::LATEST))]
    pub valid_time: Option<i64>,
    /// Group (of chain_type 2); 0 none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1))]
    pub group_id: Option<i64>,
    /// Destination kind: 1 scan QR (default), 2 account ID, 3 mini-program, 4 shop,
    /// 5 work-chat URL.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1, max = 5))]
    pub sub_type: Option<i64>,
    /// Account ID (sub_type 2).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(regex(pattern = super::IDENT_OR_EMPTY_PATTERN))]
    pub wx_id: Option<String>,
    /// QR image (sub_type 1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(regex(pattern = super::URL_OR_EMPTY_PATTERN), length(max = crate::codes::MAX_URL_LEN))]
    pub scan_qr_url: Option<String>,
    /// Avatar image.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(regex(pattern = super::URL_OR_EMPTY_PATTERN), length(max = crate::codes::MAX_URL_LEN))]
    pub avatar: Option<String>,
    /// A line guiding the visitor.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(regex(pattern = super::LINES_PATTERN), length(max = crate::model::limits::MAX_PAGE_TEXT))]
    pub guide_text: Option<String>,
    /// Longer text (`desc` on the compatibility surface).
    #[serde(default, alias = "desc", skip_serializing_if = "Option::is_none")]
    #[schemars(regex(pattern = super::LINES_PATTERN), length(max = crate::model::limits::MAX_PAGE_TEXT))]
    pub promo_desc: Option<String>,
    /// Work-chat acquisition URL (sub_type 5).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(regex(pattern = super::URL_OR_EMPTY_PATTERN), length(max = crate::codes::MAX_URL_LEN))]
    pub qwhk_url: Option<String>,
    /// Mini-program app id (sub_type 3).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(regex(pattern = super::IDENT_OR_EMPTY_PATTERN))]
    pub mini_appid: Option<String>,
    /// Mini-program page path.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(regex(pattern = super::APP_PATH_PATTERN))]
    pub mini_path: Option<String>,
    /// Shop app id (sub_type 4).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(regex(pattern = super::IDENT_OR_EMPTY_PATTERN))]
    pub shop_appid: Option<String>,
    /// Shop page path.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(regex(pattern = super::APP_PATH_PATTERN))]
    pub shop_path: Option<String>,
    /// 0 jump page, 1 direct jump.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 0, max = 1))]
    pub is_direct_jump: Option<i64>,
    /// 1 small image, 2 long image.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1, max = 2))]
    pub show_type: Option<i64>,
    /// Line under the heading, at most 20 characters; shown with show_type 1.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(regex(pattern = super::LINES_PATTERN), length(max = crate::model::limits::MAX_SUB_TITLE))]
    pub sub_title: Option<String>,
    /// Template; 0 the generic one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 0))]
    pub jump_template_id: Option<i64>,
    /// 0 none, 1 show a scan hint.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 0, max = 1))]
    pub scan_tips: Option<i64>,
    /// 1 total, 2 daily channel caps.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1, max = 2))]
    pub qrcode_vc_type: Option<i64>,
    /// Rotation: 1 sort order, 3 weighted, 4 round robin, 5 uniform.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(extend("enum" = [1, 3, 4, 5, null]))]
    pub visit_type: Option<i64>,
    /// Channels to add, change or remove.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(length(max = crate::model::limits::MAX_CHANNELS))]
    pub channel_list: Option<Vec<ChannelInput>>,
}

/// Answer of `POST /wx-chains` ("created external chain", spec 2.3).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct CreatedWxChain {
    /// Code.
    pub code: String,
    /// Domain id.
    pub domain_id: i64,
    /// Row id.
    pub id: i64,
    /// 1 normal.
    pub status: i64,
    /// Destination kind.
    pub sub_type: i64,
    /// 2 external, 4 card.
    #[serde(rename = "type")]
    pub chain_type: i64,
    /// `scheme://domain/code`.
    pub render_url: String,
}

/// A messaging-app or card chain on the primary surface: the chain's fields, its page and
/// destination, and (on reads of one chain) its channels.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct WxChain {
    /// What every chain has.
    #[serde(flatten)]
    pub chain: Chain,
    /// Account ID.
    pub wx_id: String,
    /// QR image.
    pub scan_qr_url: String,
    /// Avatar image.
    pub avatar: String,
    /// Guide line.
    pub guide_text: String,
    /// Longer text.
    pub promo_desc: String,
    /// Line under the heading.
    pub sub_title: String,
    /// Work-chat acquisition URL.
    pub qwhk_url: String,
    /// Mini-program app id.
    pub mini_appid: String,
    /// Mini-program path.
    pub mini_path: String,
    /// Shop app id.
    pub shop_appid: String,
    /// Shop path.
    pub shop_path: String,
    /// 0 page, 1 direct jump.
    pub is_direct_jump: i64,
    /// 1 small, 2 long image.
    pub show_type: i64,
    /// Template.
    pub jump_template_id: i64,
    /// 0 or 1.
    pub scan_tips: i64,
    /// 1 total, 2 daily caps.
    pub qrcode_vc_type: i64,
    /// Rotation.
    pub visit_type: i64,
    /// Work-chat chains: 1 acquisition link, 2 work-chat URL.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub wxwork_type: Option<i64>,
    /// Work-chat chains of wxwork_type 1: the assembly-list entry.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub customer_id: Option<i64>,
    /// Channels with their visits; absent in listings.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub channel_list: Option<Vec<super::compat::Channel>>,
}

/// `GET /wx-chains` query.
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ListWxChains {
    /// 2 external (default), 3 work-chat, 4 card.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 2, max = 4))]
    pub chain_type: Option<i64>,
    /// 1-based page.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1))]
    pub page: Option<i64>,
    /// Rows per page, at most 100.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1, max = crate::model::limits::MAX_PAGE_SIZE))]
    pub page_size: Option<i64>,
    /// Only chains in this group.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 0))]
    pub group_id: Option<i64>,
    /// Only chains whose title or code contains this.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(regex(pattern = super::TEXT_PATTERN))]
    pub q: Option<String>,
}

/// A page of messaging-app chains.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct WxChainPage {
    /// This page, newest first.
    pub list: Vec<WxChain>,
    /// Chains on all pages.
    pub total: i64,
    /// This page, 1-based.
    pub page: i64,
    /// Rows per page.
    pub page_size: i64,
}

/// Answer of `GET /card`: up to 100 card chains, newest first.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct CardList {
    /// The chains.
    pub list: Vec<WxChain>,
    /// Card chains the caller has (may exceed the 100 listed).
    pub total: i64,
}

/// `GET /healthz` and `GET /readyz`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Health {
    /// `ok` (the process answers) or `ready` (the store answers too).
    pub status: String,
}
