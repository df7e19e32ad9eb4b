//! Primary-surface shapes of the chains with a page: `/wx-chains` and `/card`.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::Chain;
use crate::model::{PageTextEdits, PageTexts};

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
    #[schemars(regex(pattern = crate::wire::LINES_PATTERN), length(max = crate::model::limits::MAX_JUMP_NAME))]
    pub qrcode_name: Option<String>,
    /// The QR image, http(s).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(regex(pattern = crate::wire::URL_OR_EMPTY_PATTERN), length(max = crate::codes::MAX_URL_LEN))]
    pub url: Option<String>,
    /// Where the QR code leads, http(s).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(regex(pattern = crate::wire::URL_OR_EMPTY_PATTERN), length(max = crate::codes::MAX_URL_LEN))]
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

/// `PATCH /wx-chains/{id}`, and through [`NewWxChain`] `POST /wx-chains` (spec 2.2): on
/// create absent fields take their defaults, on edit they stay as they are.
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct WxChainInput {
    /// Domain (create only); the default domain when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1))]
    pub domain_id: Option<i64>,
    /// Label.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(regex(pattern = crate::wire::TEXT_PATTERN), length(max = crate::model::limits::MAX_TITLE_CHARS))]
    pub chain_title: Option<String>,
    /// Custom code (create only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(regex(pattern = crate::wire::CODE_PATTERN))]
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
    #[schemars(regex(pattern = crate::wire::IDENT_OR_EMPTY_PATTERN))]
    pub wx_id: Option<String>,
    /// QR image (sub_type 1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(regex(pattern = crate::wire::URL_OR_EMPTY_PATTERN), length(max = crate::codes::MAX_URL_LEN))]
    pub scan_qr_url: Option<String>,
    /// Avatar image.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(regex(pattern = crate::wire::URL_OR_EMPTY_PATTERN), length(max = crate::codes::MAX_URL_LEN))]
    pub avatar: Option<String>,
    /// A line guiding the visitor.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(regex(pattern = crate::wire::LINES_PATTERN), length(max = crate::model::limits::MAX_PAGE_TEXT))]
    pub guide_text: Option<String>,
    /// Longer text (`desc` on the compatibility surface).
    #[serde(default, alias = "desc", skip_serializing_if = "Option::is_none")]
    #[schemars(regex(pattern = crate::wire::LINES_PATTERN), length(max = crate::model::limits::MAX_PAGE_TEXT))]
    pub promo_desc: Option<String>,
    /// Work-chat acquisition URL (sub_type 5).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(regex(pattern = crate::wire::URL_OR_EMPTY_PATTERN), length(max = crate::codes::MAX_URL_LEN))]
    pub qwhk_url: Option<String>,
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
    #[schemars(regex(pattern = crate::wire::LINES_PATTERN), length(max = crate::model::limits::MAX_SUB_TITLE))]
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
    /// Edit of a work-chat chain only: 1 an acquisition link of the assembly list
    /// (`customer_id`), 2 a work-chat URL (`target_url`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(extend("enum" = [1, 2, null]))]
    pub wxwork_type: Option<i64>,
    /// Edit of a work-chat chain only: the assembly-list entry (wxwork_type 1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 0))]
    pub customer_id: Option<i64>,
    /// Edit of a work-chat chain only: the work-chat URL (wxwork_type 2).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(regex(pattern = crate::wire::URL_OR_EMPTY_PATTERN), length(max = crate::codes::MAX_URL_LEN))]
    pub target_url: Option<String>,
}

impl WxChainInput {
    /// The texts it gives.
    pub fn texts(&self) -> PageTextEdits {
        PageTextEdits {
            guide_text: self.guide_text.clone(),
            desc: self.promo_desc.clone(),
            sub_title: self.sub_title.clone(),
            scan_qr_url: self.scan_qr_url.clone(),
            avatar: self.avatar.clone(),
            qwhk_url: self.qwhk_url.clone(),
            wx_id: self.wx_id.clone(),
            mini_appid: self.mini_appid.clone(),
            mini_path: self.mini_path.clone(),
            shop_appid: self.shop_appid.clone(),
            shop_path: self.shop_path.clone(),
        }
    }
}

/// Fields of [`WxChainInput`] that only an edit of a work-chat chain takes: work-chat chains
/// are created on the compatibility surface (`workchat/chain/create`).
const WORK_CHAT_EDIT_FIELDS: &[&str] = &["wxwork_type", "customer_id", "target_url"];

/// `POST /wx-chains`: a [`WxChainInput`] without the work-chat edit fields, which are
/// refused as unknown fields.
#[derive(Debug, Clone, Default, Serialize)]
#[serde(transparent)]
pub struct NewWxChain(pub WxChainInput);

impl<'de> Deserialize<'de> for NewWxChain {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let input = WxChainInput::deserialize(deserializer)?;
        let given = [
            input.wxwork_type.is_some(),
            input.customer_id.is_some(),
            input.target_url.is_some(),
        ];
        if let Some(index) = given.iter().position(|g| *g) {
            return Err(serde::de::Error::unknown_field(
                WORK_CHAT_EDIT_FIELDS[index],
                &[],
            ));
        }
        Ok(NewWxChain(input))
    }
}

impl JsonSchema for NewWxChain {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "NewWxChain".into()
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        let mut schema = WxChainInput::json_schema(generator);
        if let Some(properties) = crate::wire::schemas::properties(&mut schema) {
            for field in WORK_CHAT_EDIT_FIELDS {
                properties.remove(*field);
            }
        }
        schema
    }
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

/// The texts of a page chain on the primary surface, in its [`WxChain`] (`promo_desc` is
/// the compatibility surface's `desc`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct PageTextsView {
    /// Guide line.
    pub guide_text: String,
    /// Longer text.
    pub promo_desc: String,
    /// Line under the heading.
    pub sub_title: String,
    /// QR image.
    pub scan_qr_url: String,
    /// Avatar image.
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

impl From<&PageTexts> for PageTextsView {
    fn from(t: &PageTexts) -> Self {
        PageTextsView {
            guide_text: t.guide_text.clone(),
            promo_desc: t.desc.clone(),
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

/// A messaging-app or card chain on the primary surface: the chain's fields, its page and
/// destination, and (on reads of one chain) its channels.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct WxChain {
    /// What every chain has.
    #[serde(flatten)]
    pub chain: Chain,
    /// Its page's texts.
    #[serde(flatten)]
    pub texts: PageTextsView,
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
    pub channel_list: Option<Vec<crate::wire::compat::Channel>>,
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
    #[schemars(regex(pattern = crate::wire::TEXT_PATTERN))]
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
