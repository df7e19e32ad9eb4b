//! Compatibility-surface shapes of the chains with a page (`wxchain/*`, the card creation,
//! `workchat/chain/*`) and of work-chat data (`workchat/assembly/list`,
//! `workchat/transfer/result`).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{ListChains, ListTemplates};
use crate::model::{PageTextEdits, PageTexts};
use crate::wire::{DomainRefs, FlexibleTime, IntList, LenientInt};

/// A channel as sent in `channel_list`: without `id` (or with 0) a new channel; with `id`
/// a change to one of the chain's channels, or its removal with `is_delete: 1`.
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
#[schemars(rename = "CompatChannelInput")]
pub struct ChannelInput {
    /// The channel to change or remove.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(schema_with = "crate::wire::schemas::lenient_id")]
    pub id: Option<LenientInt>,
    /// 1 removes the channel.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(schema_with = "crate::wire::schemas::lenient_in::<0, 1>")]
    pub is_delete: Option<LenientInt>,
    /// Unix seconds after which the channel is skipped; 0 never.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(schema_with = "crate::wire::schemas::lenient_id")]
    pub qrcode_time: Option<LenientInt>,
    /// Weight under visit_type 3.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(schema_with = "crate::wire::schemas::lenient_ratio")]
    pub ratio: Option<LenientInt>,
    /// Position in sort order.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(schema_with = "crate::wire::schemas::lenient_sort")]
    pub sort: Option<LenientInt>,
    /// 1 enabled, 0 disabled.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(schema_with = "crate::wire::schemas::lenient_in::<0, 1>")]
    pub status: Option<LenientInt>,
    /// Visits it may get (total or daily by qrcode_vc_type); 0 unlimited.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(schema_with = "crate::wire::schemas::lenient_visit_limit")]
    pub visit_limit: Option<LenientInt>,
    /// Label.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(regex(pattern = crate::wire::LINES_PATTERN), length(max = crate::model::limits::MAX_JUMP_NAME))]
    pub qrcode_name: Option<String>,
    /// The QR image, http(s) (an uploaded image's `url` is one).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(regex(pattern = crate::wire::URL_OR_EMPTY_PATTERN), length(max = crate::codes::MAX_URL_LEN))]
    pub url: Option<String>,
    /// Where the QR code leads, http(s): the page's button and the direct-jump target.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(regex(pattern = crate::wire::URL_OR_EMPTY_PATTERN), length(max = crate::codes::MAX_URL_LEN))]
    pub url2: Option<String>,
}

/// A channel as read, with its visits.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Channel {
    /// Row id.
    pub id: i64,
    /// Label.
    pub qrcode_name: String,
    /// Expiry in Unix seconds, 0 never.
    pub qrcode_time: i64,
    /// Weight.
    pub ratio: i64,
    /// Position in sort order.
    pub sort: i64,
    /// 1 enabled, 0 disabled.
    pub status: i64,
    /// QR image.
    pub url: String,
    /// Where the QR code leads.
    pub url2: String,
    /// Cap, 0 unlimited.
    pub visit_limit: i64,
    /// Visits it got, ever.
    pub visit_count: i64,
}

/// The texts of a page chain's input on the compatibility surface, in its
/// [`WxChainInput`].
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct PageTextsInput {
    /// A line guiding the visitor.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(regex(pattern = crate::wire::LINES_PATTERN), length(max = crate::model::limits::MAX_PAGE_TEXT))]
    pub guide_text: Option<String>,
    /// Longer text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(regex(pattern = crate::wire::LINES_PATTERN), length(max = crate::model::limits::MAX_PAGE_TEXT))]
    pub desc: Option<String>,
    /// Line under the heading, at most 20 characters.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(regex(pattern = crate::wire::LINES_PATTERN), length(max = crate::model::limits::MAX_SUB_TITLE))]
    pub sub_title: Option<String>,
    /// QR image (sub_type 1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(regex(pattern = crate::wire::URL_OR_EMPTY_PATTERN), length(max = crate::codes::MAX_URL_LEN))]
    pub scan_qr_url: Option<String>,
    /// Avatar image.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(regex(pattern = crate::wire::URL_OR_EMPTY_PATTERN), length(max = crate::codes::MAX_URL_LEN))]
    pub avatar: Option<String>,
    /// Work-chat acquisition URL (sub_type 5).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(regex(pattern = crate::wire::URL_OR_EMPTY_PATTERN), length(max = crate::codes::MAX_URL_LEN))]
    pub qwhk_url: Option<String>,
    /// Account ID (sub_type 2).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(regex(pattern = crate::wire::IDENT_OR_EMPTY_PATTERN))]
    pub wx_id: Option<String>,
    /// Mini-program app id (sub_type 3).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(regex(pattern = crate::wire::IDENT_OR_EMPTY_PATTERN))]
    pub mini_appid: Option<String>,
    /// Mini-program page path.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(regex(pattern = crate::wire::APP_PATH_PATTERN))]
    pub mini_path: Option<String>,
    /// Shop app id (sub_type 4).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(regex(pattern = crate::wire::IDENT_OR_EMPTY_PATTERN))]
    pub shop_appid: Option<String>,
    /// Shop page path.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(regex(pattern = crate::wire::APP_PATH_PATTERN))]
    pub shop_path: Option<String>,
}

impl From<PageTextsInput> for PageTextEdits {
    fn from(t: PageTextsInput) -> Self {
        PageTextEdits {
            guide_text: t.guide_text,
            desc: t.desc,
            sub_title: t.sub_title,
            scan_qr_url: t.scan_qr_url,
            avatar: t.avatar,
            qwhk_url: t.qwhk_url,
            wx_id: t.wx_id,
            mini_appid: t.mini_appid,
            mini_path: t.mini_path,
            shop_appid: t.shop_appid,
            shop_path: t.shop_path,
        }
    }
}

impl From<PageTextEdits> for PageTextsInput {
    fn from(t: PageTextEdits) -> Self {
        PageTextsInput {
            guide_text: t.guide_text,
            desc: t.desc,
            sub_title: t.sub_title,
            scan_qr_url: t.scan_qr_url,
            avatar: t.avatar,
            qwhk_url: t.qwhk_url,
            wx_id: t.wx_id,
            mini_appid: t.mini_appid,
            mini_path: t.mini_path,
            shop_appid: t.shop_appid,
            shop_path: t.shop_path,
        }
    }
}

/// `wxchain/create`, `wxchain/edit` (with `chain`) and `POST /card/createWxChain` (spec 2.5).
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
#[schemars(rename = "CompatWxChainInput")]
pub struct WxChainInput {
    /// The chain to edit (edit only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chain: Option<String>,
    /// Label.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(regex(pattern = crate::wire::TEXT_PATTERN), length(max = crate::model::limits::MAX_TITLE_CHARS))]
    pub chain_title: Option<String>,
    /// 2 (external) on `wxchain/*`, 4 (card) on `/card/createWxChain`; absent or 0 takes
    /// the operation's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(schema_with = "crate::wire::schemas::lenient_external_type")]
    pub chain_type: Option<LenientInt>,
    /// Optional custom code (create only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(regex(pattern = crate::wire::CODE_OR_EMPTY_PATTERN))]
    pub code: Option<String>,
    /// Domain id as a one-element list.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(schema_with = "crate::wire::schemas::one_domain")]
    pub domain: Option<DomainRefs>,
    /// Groups.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub group_id: Option<IntList>,
    /// Expiry: text or Unix seconds; empty or 0 permanent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub valid_time: Option<FlexibleTime>,
    /// Destination kind: 1 scan QR (default), 2 account ID, 3 mini-program, 4 shop,
    /// 5 work-chat URL.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(schema_with = "crate::wire::schemas::lenient_in::<1, 5>")]
    pub sub_type: Option<LenientInt>,
    /// The page's texts.
    #[serde(flatten)]
    pub texts: PageTextsInput,
    /// 0 jump page, 1 direct jump.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(schema_with = "crate::wire::schemas::lenient_in::<0, 1>")]
    pub is_direct_jump: Option<LenientInt>,
    /// Template; 0 the generic one (card chains: 0 only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(schema_with = "crate::wire::schemas::lenient_id")]
    pub jump_template_id: Option<LenientInt>,
    /// 1 total, 2 daily channel caps.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(schema_with = "crate::wire::schemas::lenient_in::<1, 2>")]
    pub qrcode_vc_type: Option<LenientInt>,
    /// 0 none, 1 show a scan hint.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(schema_with = "crate::wire::schemas::lenient_in::<0, 1>")]
    pub scan_tips: Option<LenientInt>,
    /// 1 small image, 2 long image.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(schema_with = "crate::wire::schemas::lenient_in::<1, 2>")]
    pub show_type: Option<LenientInt>,
    /// Rotation: 1 sort order, 3 weighted, 4 round robin, 5 uniform.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(schema_with = "crate::wire::schemas::lenient_rotation")]
    pub visit_type: Option<LenientInt>,
    /// Channels to add, change or remove.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(length(max = crate::model::limits::MAX_CHANNELS))]
    pub channel_list: Option<Vec<ChannelInput>>,
}

/// `POST /card/createWxChain`: a [`WxChainInput`] whose schema says what the card namespace
/// allows: `chain_type` 4 (or 0) and no jump template (spec 4.2: a non-zero
/// `jump_template_id` is a 400).
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(transparent)]
pub struct CardChainInput(pub WxChainInput);

impl JsonSchema for CardChainInput {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "CardChainInput".into()
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        let mut schema = WxChainInput::json_schema(generator);
        if let Some(properties) = crate::wire::schemas::properties(&mut schema) {
            properties.insert(
                "chain_type".into(),
                crate::wire::schemas::lenient_of(&[0, 4]).to_value(),
            );
            properties.insert(
                "jump_template_id".into(),
                crate::wire::schemas::lenient_of(&[0]).to_value(),
            );
        }
        schema
    }
}

/// Answer of `wxchain/create`, `wxchain/edit`, `/card/createWxChain` and the work-chat
/// chain operations.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[schemars(rename = "CompatCreatedWxChain")]
pub struct CreatedWxChain {
    /// Code.
    pub chain: String,
    /// `scheme://domain/code`.
    pub render_url: String,
}

/// The texts of a page chain as `wxchain/info` answers them, in its [`WxChainInfo`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct PageTextsInfo {
    /// Guide line.
    pub guide_text: String,
    /// Longer text.
    pub desc: String,
    /// Line under the heading.
    pub sub_title: String,
    /// QR image.
    pub scan_qr_url: String,
    /// Avatar URL.
    pub avatar: String,
    /// Work-chat acquisition URL.
    pub qwhk_url: String,
    /// Account ID.
    pub wx_id: String,
    /// Mini-program app id.
    pub mini_appid: String,
    /// Mini-program path.
    pub mini_path: String,
    /// Shop app id.
    pub shop_appid: String,
    /// Shop path.
    pub shop_path: String,
}

impl From<&PageTexts> for PageTextsInfo {
    fn from(t: &PageTexts) -> Self {
        PageTextsInfo {
            guide_text: t.guide_text.clone(),
            desc: t.desc.clone(),
            sub_title: t.sub_title.clone(),
            scan_qr_url: t.scan_qr_url.clone(),
            avatar: t.avatar.clone(),
            qwhk_url: t.qwhk_url.clone(),
            wx_id: t.wx_id.clone(),
            mini_appid: t.mini_appid.clone(),
            mini_path: t.mini_path.clone(),
            shop_appid: t.shop_appid.clone(),
            shop_path: t.shop_path.clone(),
        }
    }
}

/// Answer of `wxchain/info` (spec 2.5).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct WxChainInfo {
    /// The page's texts.
    #[serde(flatten)]
    pub texts: PageTextsInfo,
    /// Code.
    pub chain: String,
    /// Row id.
    pub chain_id: i64,
    /// Label.
    pub chain_title: String,
    /// 2 external, 4 card.
    pub chain_type: i64,
    /// Channels with their visits.
    pub channel_list: Vec<Channel>,
    /// Domain id.
    pub domain: i64,
    /// Domain host.
    pub domain_url: String,
    /// First group, 0 for none.
    pub group_id: i64,
    /// Every group.
    pub group_ids: Vec<i64>,
    /// 0 live, 1 deleted.
    pub is_del: i64,
    /// 0 page, 1 direct jump.
    pub is_direct_jump: i64,
    /// Template.
    pub jump_template_id: i64,
    /// 1 total, 2 daily caps.
    pub qrcode_vc_type: i64,
    /// `scheme://domain/code`.
    pub render_url: String,
    /// 0 or 1.
    pub scan_tips: i64,
    /// 1 small, 2 long image.
    pub show_type: i64,
    /// 1 normal, 2 expired, 3 disabled, 4 domain not effective.
    pub status: i64,
    /// Destination kind.
    pub sub_type: i64,
    /// Where the chain leads when that is fixed (sub_types 2 to 5: the destination; 1: the
    /// chain's own QR image).
    pub target_url: String,
    /// Rotation.
    pub visit_type: i64,
    /// Expiry, `YYYY-MM-DD HH:MM:SS` UTC, empty when permanent.
    pub valid_time: String,
    /// Visits today.
    pub pv_today: i64,
    /// Visits ever.
    pub pv_history: i64,
}

/// `wxchain/list` (JSON body or query).
pub type ListWxChains = ListChains;

/// An external chain in `wxchain/list` (spec 2.5).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct WxChainItem {
    /// Code.
    pub chain: String,
    /// Row id.
    pub chain_id: i64,
    /// Label.
    pub chain_title: String,
    /// 2 external.
    pub chain_type: i64,
    /// `YYYY-MM-DD HH:MM:SS` UTC.
    pub create_time: String,
    /// Assembly entry of work-chat chains, 0 otherwise.
    pub customer_id: i64,
    /// Domain id.
    pub domain: i64,
    /// 1 effective, 99 not effective.
    pub domain_status: i64,
    /// Domain host.
    pub domain_url: String,
    /// First group, 0 for none.
    pub group_id: i64,
    /// Its name, empty for none.
    pub group_name: String,
    /// Visits ever.
    pub pv_history: i64,
    /// Visits today.
    pub pv_today: i64,
    /// `scheme://domain/code`.
    pub render_url: String,
    /// 1 small, 2 long image.
    pub show_type: i64,
    /// Label of the status.
    pub status: String,
    /// Destination kind.
    pub sub_type: i64,
    /// Fixed destination, if any.
    pub target_url: String,
    /// Template.
    pub template_id: i64,
}

/// Answer of `wxchain/list`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct WxChainList {
    /// This page.
    pub list: Vec<WxChainItem>,
    /// This page's number.
    pub page: String,
    /// Pages in all.
    #[serde(rename = "pageCount")]
    pub page_count: String,
    /// Chains on all pages.
    pub total: i64,
}

/// `workchat/chain/create` and `edit` (edit adds `chain` and `channel_id`).
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
pub struct WorkchatChainInput {
    /// The chain to edit (edit only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chain: Option<String>,
    /// The channel whose URL an edit changes; the chain's only channel when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub channel_id: Option<LenientInt>,
    /// Label.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(regex(pattern = crate::wire::TEXT_PATTERN), length(max = crate::model::limits::MAX_TITLE_CHARS))]
    pub chain_title: Option<String>,
    /// 3, or absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chain_type: Option<LenientInt>,
    /// Optional custom code (create only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(regex(pattern = crate::wire::CODE_OR_EMPTY_PATTERN))]
    pub code: Option<String>,
    /// Assembly-list entry (wxwork_type 1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(schema_with = "crate::wire::schemas::lenient_id")]
    pub customer_id: Option<LenientInt>,
    /// Domain id as a one-element list.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(schema_with = "crate::wire::schemas::one_domain")]
    pub domain: Option<DomainRefs>,
    /// Groups.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub group_id: Option<IntList>,
    /// 0 page, 1 direct jump.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(schema_with = "crate::wire::schemas::lenient_in::<0, 1>")]
    pub is_direct_jump: Option<LenientInt>,
    /// Template; 0 the generic one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(schema_with = "crate::wire::schemas::lenient_id")]
    pub jump_template_id: Option<LenientInt>,
    /// Work-chat URL (wxwork_type 2).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(regex(pattern = crate::wire::URL_OR_EMPTY_PATTERN), length(max = crate::codes::MAX_URL_LEN))]
    pub target_url: Option<String>,
    /// 1 acquisition link, 2 work-chat URL.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(schema_with = "crate::wire::schemas::lenient_workchat_type")]
    pub wxwork_type: Option<LenientInt>,
    /// Expiry.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub valid_time: Option<FlexibleTime>,
}

/// A work-chat chain's channel as `workchat/chain/info` shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct WorkchatChannel {
    /// Row id (`channel_id` of edits).
    pub id: i64,
    /// Destination URL.
    pub url: String,
    /// Visits it got.
    pub visit_count: i64,
}

/// Answer of `workchat/chain/info` (spec 2.5).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct WorkchatChainInfo {
    /// Code.
    pub chain: String,
    /// Row id.
    pub chain_id: i64,
    /// Label.
    pub chain_title: String,
    /// 3.
    pub chain_type: i64,
    /// Its channel.
    pub channel_list: Vec<WorkchatChannel>,
    /// Assembly-list entry, 0 for wxwork_type 2.
    pub customer_id: i64,
    /// Domain id.
    pub domain: i64,
    /// Domain host.
    pub domain_url: String,
    /// First group, 0 for none.
    pub group_id: i64,
    /// 0 page, 1 direct jump.
    pub is_direct_jump: i64,
    /// Template.
    pub jump_template_id: i64,
    /// `scheme://domain/code`.
    pub render_url: String,
    /// 1 normal, 2 expired, 3 disabled, 4 domain not effective.
    pub status: i64,
    /// The destination URL.
    pub target_url: String,
    /// 1 acquisition link, 2 work-chat URL.
    pub wxwork_type: i64,
    /// Visits today.
    pub pv_today: i64,
    /// Visits ever.
    pub pv_history: i64,
}

/// `workchat/assembly/list` (JSON body or query).
pub type ListAssemblies = ListTemplates;

/// An entry of `workchat/assembly/list` (spec 2.5).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct AssemblyItem {
    /// Authorization state, free text.
    pub auth_status: String,
    /// When it was added, Unix seconds.
    pub create_time: i64,
    /// Row id (`customer_id` of work-chat chains).
    pub id: i64,
    /// The work-chat's id of the link.
    pub link_id: String,
    /// Its name.
    pub link_name: String,
    /// The acquisition URL.
    pub url: String,
    /// 0 not in use, 1 in use, 2 invalid.
    pub use_status: i64,
    /// Label of use_status.
    pub use_status_description: String,
}

/// Answer of `workchat/assembly/list`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct AssemblyList {
    /// This page.
    pub list: Vec<AssemblyItem>,
    /// This page's number.
    pub page: i64,
    /// Pages in all.
    #[serde(rename = "pageCount")]
    pub page_count: i64,
    /// Entries on all pages.
    pub total: i64,
}

/// Query of `workchat/transfer/result`.
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
pub struct TransferQuery {
    /// The corp.
    #[schemars(regex(pattern = r"^[!-~]{1,128}$"))]
    pub corp_id: String,
}

/// Body of `workchat/transfer/result` (spec 4.4).
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
pub struct TransferRequest {
    /// Empty for the first page, then the previous answer's `next_cursor`.
    #[serde(default)]
    #[schemars(regex(pattern = "^(t[0-9]{1,18})?$"))]
    pub cursor: String,
    /// Only transfers from this work-chat user, when given.
    #[serde(default)]
    pub handover_userid: String,
    /// Only transfers to this work-chat user, when given.
    #[serde(default)]
    pub takeover_userid: String,
}

/// One transfer in a result page.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct TransferItem {
    /// The work-chat's error code, 0 none.
    pub errcode: i64,
    /// The customer.
    pub external_userid: String,
    /// 1 takeover done, 2 waiting, 3 refused, 4 taker at its limit, 5 no transfer record.
    pub status: i64,
    /// When the takeover happened, Unix seconds, 0 if it has not.
    pub takeover_time: i64,
}

/// Answer of `workchat/transfer/result` (spec 4.4).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct TransferResult {
    /// Customer names by external user id.
    pub names: std::collections::BTreeMap<String, String>,
    /// Empty on the last page.
    pub next_cursor: String,
    /// Failure reasons by external user id.
    pub reasons: std::collections::BTreeMap<String, String>,
    /// This page of transfers.
    pub results: Vec<TransferItem>,
}
