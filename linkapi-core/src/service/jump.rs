//! Chains with a jump page: messaging-app external chains (type 2), card chains (type 4) and
//! work-chat chains (type 3). Creating, editing, reading, listing and deleting them, and the
//! rules their fields follow.
//!
//! The destination rule (contract section 4): `sub_type` names the destination and the fields
//! it needs are required; a destination field that belongs to another `sub_type` is refused
//! with 400 when it is set (empty strings count as not set), never silently dropped. Channels
//! belong to scan-QR chains (sub_type 1) and work-chat chains. The same rule holds on edit,
//! where the result of the edit is checked as a whole; changing `sub_type` clears the old
//! destination's fields the edit does not set.

use super::chains::{
    ChainView, PageWindow, check_group_filter, check_search, check_title, check_valid_time,
};
use super::{App, Principal, TextRule, check_text};
use crate::codes::{validate_code, validate_optional_url, validate_target_url};
use crate::error::{Error, Result};
use crate::model::limits::{
    MAX_APP_PATH, MAX_CHANNELS, MAX_JUMP_NAME, MAX_PAGE_TEXT, MAX_RATIO, MAX_SUB_TITLE,
    MAX_VISIT_LIMIT,
};
use crate::model::{
    Chain, ChainId, ChainKind, Channel, ChannelId, DomainId, GroupId, JumpSettings, PageViews,
    Rotation, ShowType, SubType, TemplateId, Timestamp, VisitCap, WorkchatKind,
};
use crate::store::{ChainPatch, ChainQuery, ChannelEdit, ChannelInput, NewChain, Page};

/// A messaging-app, card or work-chat chain as a caller describes it. On create, absent
/// fields take their defaults; on edit, absent fields keep their values.
#[derive(Debug, Clone, Default)]
pub struct JumpChainInput {
    /// The kind the caller says it means (`chain_type`); absent or 0 says nothing, anything
    /// else must be the kind the operation makes or edits.
    pub chain_type: Option<i64>,
    /// Domain (create only).
    pub domain_id: Option<DomainId>,
    /// Label.
    pub title: Option<String>,
    /// Custom code (create only).
    pub code: Option<String>,
    /// Expiry, 0 permanent.
    pub valid_time: Option<Timestamp>,
    /// Groups, replacing the old ones on edit.
    pub group_ids: Option<Vec<GroupId>>,
    /// Destination kind of external and card chains; 1 when absent on create.
    pub sub_type: Option<i64>,
    /// Account ID (sub_type 2).
    pub wx_id: Option<String>,
    /// QR image (sub_type 1).
    pub scan_qr_url: Option<String>,
    /// Avatar image.
    pub avatar: Option<String>,
    /// Guide line.
    pub guide_text: Option<String>,
    /// Description (`desc`, `promo_desc`).
    pub desc: Option<String>,
    /// Line under the heading.
    pub sub_title: Option<String>,
    /// Work-chat acquisition URL (sub_type 5).
    pub qwhk_url: Option<String>,
    /// Mini-program (sub_type 3).
    pub mini_appid: Option<String>,
    /// Mini-program path.
    pub mini_path: Option<String>,
    /// Shop (sub_type 4).
    pub shop_appid: Option<String>,
    /// Shop path.
    pub shop_path: Option<String>,
    /// 0 page, 1 direct jump.
    pub is_direct_jump: Option<i64>,
    /// 1 small image, 2 long image.
    pub show_type: Option<i64>,
    /// Template; 0 the generic one.
    pub jump_template_id: Option<i64>,
    /// 0 or 1.
    pub scan_tips: Option<i64>,
    /// 1 total, 2 daily channel caps.
    pub qrcode_vc_type: Option<i64>,
    /// Channel rotation.
    pub visit_type: Option<i64>,
    /// Work-chat destination kind.
    pub wxwork_type: Option<i64>,
    /// Work-chat assembly entry (wxwork_type 1).
    pub customer_id: Option<i64>,
    /// Work-chat URL (wxwork_type 2).
    pub target_url: Option<String>,
    /// Channels to add, change or remove.
    pub channels: Vec<ChannelSpec>,
    /// The work-chat channel an edit changes (work-chat edit only).
    pub channel_id: Option<ChannelId>,
}

/// One entry of a channel list as sent: without `id` a new channel, with `id` a change to
/// (or, with `delete`, the removal of) one of the chain's channels.
#[derive(Debug, Clone, Default)]
pub struct ChannelSpec {
    /// The channel to change or remove.
    pub id: Option<ChannelId>,
    /// Remove it (`is_delete: 1`).
    pub delete: bool,
    /// Position in sort order.
    pub sort: Option<i64>,
    /// Label (`qrcode_name`).
    pub name: Option<String>,
    /// QR image or destination URL.
    pub url: Option<String>,
    /// Where the QR code leads.
    pub url2: Option<String>,
    /// Expiry (`qrcode_time`), Unix seconds, 0 never.
    pub qrcode_time: Option<i64>,
    /// Weight.
    pub ratio: Option<i64>,
    /// Cap, 0 unlimited.
    pub visit_limit: Option<i64>,
    /// 1 enabled, 0 disabled.
    pub status: Option<i64>,
}

/// Which chains with a page an operation addresses. A chain outside its set answers as
/// missing, and a `chain_type` outside it is refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PageChains {
    /// `/wx-chains/{id}`: every kind with a page (messaging-app, card and work-chat).
    All,
    /// The compatibility surface's `wxchain` actions: messaging-app and card chains.
    Messaging,
    /// The compatibility surface's `workchat` actions: work-chat chains.
    WorkChat,
}

impl PageChains {
    fn kinds(self) -> &'static [ChainKind] {
        match self {
            PageChains::All => &[ChainKind::External, ChainKind::Card, ChainKind::WorkChat],
            PageChains::Messaging => &[ChainKind::External, ChainKind::Card],
            PageChains::WorkChat => &[ChainKind::WorkChat],
        }
    }
}

/// Most chains the card list holds (spec 8.1).
const CARD_LIST_LIMIT: i64 = 100;

/// Refuses a `chain_type` that names another kind than `kind`, the one the operation makes
/// or edits.
fn check_chain_type(chain_type: Option<i64>, kind: ChainKind) -> Result<()> {
    match chain_type {
        None | Some(0) => Ok(()),
        Some(t) if t == kind.code() => Ok(()),
        Some(t) => Err(unprocessable(
            "invalid_chain_type",
            format!(
                "chain_type {t} cannot be used here; this operation makes chains of type {}",
                kind.code()
            ),
        )),
    }
}

/// A chain's domain and code are what its link is: an edit cannot change them.
fn immutable(message: &'static str) -> Error {
    unprocessable("immutable_field", message)
}

/// A jump chain as read: the chain, its status and page views, and its live channels.
#[derive(Debug, Clone)]
pub struct JumpChainView {
    /// The chain, status and views.
    pub view: ChainView,
    /// Live channels in sort order, with their visit counts.
    pub channels: Vec<Channel>,
}

impl JumpChainView {
    /// The jump settings (every jump chain has them).
    pub fn settings(&self) -> &JumpSettings {
        static NONE: std::sync::LazyLock<JumpSettings> =
            std::sync::LazyLock::new(JumpSettings::default);
        self.view.chain.jump.as_deref().unwrap_or(&NONE)
    }
}

fn bad(code: &'static str, message: impl Into<String>) -> Error {
    Error::bad_request(code, message)
}

fn unprocessable(code: &'static str, message: impl Into<String>) -> Error {
    Error::unprocessable(code, message)
}

/// A wire integer as one of `T`'s codes.
fn code_of<T>(field: &str, value: i64, from: fn(i64) -> Option<T>, codes: String) -> Result<T> {
    from(value).ok_or_else(|| bad("invalid_code", format!("{field} must be one of {codes}")))
}

fn flag(field: &str, value: i64) -> Result<bool> {
    match value {
        0 => Ok(false),
        1 => Ok(true),
        _ => Err(bad("invalid_code", format!("{field} must be 0 or 1"))),
    }
}

/// Text shown on the page: no control characters but line breaks, at most `max` characters.
fn page_text(field: &str, value: &str, max: usize) -> Result<String> {
    check_text(
        field,
        value,
        TextRule {
            max,
            required: false,
            lines: true,
            code: "invalid_text",
        },
    )
}

/// An http(s) URL (uploaded images' `url`s are), or empty.
fn optional_url(field: &str, value: &str) -> Result<String> {
    validate_optional_url(value).map_err(|e| bad("invalid_url", format!("{field}: {e}")))
}

/// An app or account id: letters, digits, `_` and `-`.
fn identifier(field: &str, value: &str) -> Result<String> {
    let value = value.trim();
    if value.is_empty()
        || value.len() > MAX_JUMP_NAME
        || !value
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
    {
        return Err(bad(
            "invalid_destination",
            format!("{field} must be 1 to {MAX_JUMP_NAME} letters, digits, '_' or '-'"),
        ));
    }
    Ok(value.to_owned())
}

/// A path inside a mini-program or shop: printable, no spaces, no bidirectional overrides
/// (the characters every text field refuses), judged as given like every text field.
fn app_path(field: &str, value: &str) -> Result<String> {
    if value.is_empty()
        || value.len() > MAX_APP_PATH
        || value
            .chars()
            .any(|c| c.is_control() || c.is_whitespace() || super::is_bidi_control(c))
    {
        return Err(bad(
            "invalid_destination",
            format!(
                "{field} must be 1 to {MAX_APP_PATH} characters without spaces or \
                 bidirectional overrides"
            ),
        ));
    }
    Ok(value.to_owned())
}

/// The messaging app's plaintext URL opening a mini-program or shop page.
pub fn app_link(appid: &str, path: &str) -> String {
    let query = url::form_urlencoded::Serializer::new(String::new())
        .append_pair("appid", appid)
        .append_pair("path", path)
        .finish();
    format!("weixin://dl/business/?{query}")
}

/// Where a chain leads, as far as it is fixed by its settings (sub_types 2 to 5 and work-chat
/// chains); scan-QR chains lead where their channel's QR code does. Shown as `target_url`.
pub fn fixed_destination(kind: ChainKind, sub_type: Option<i64>, jump: &JumpSettings) -> String {
    if kind == ChainKind::WorkChat {
        return String::new();
    }
    match sub_type.and_then(SubType::from_code) {
        Some(SubType::ScanQr) | None => jump.scan_qr_url.clone(),
        Some(SubType::AccountId) => String::new(),
        Some(SubType::MiniProgram) => app_link(&jump.mini_appid, &jump.mini_path),
        Some(SubType::Shop) => app_link(&jump.shop_appid, &jump.shop_path),
        Some(SubType::WorkchatUrl) => jump.qwhk_url.clone(),
    }
}

/// The destination fields and the sub_type each belongs to.
fn destination_fields(jump: &JumpSettings) -> [(&'static str, &str, SubType); 7] {
    [
        ("scan_qr_url", &jump.scan_qr_url, SubType::ScanQr),
        ("wx_id", &jump.wx_id, SubType::AccountId),
        ("mini_appid", &jump.mini_appid, SubType::MiniProgram),
        ("mini_path", &jump.mini_path, SubType::MiniProgram),
        ("shop_appid", &jump.shop_appid, SubType::Shop),
        ("shop_path", &jump.shop_path, SubType::Shop),
        ("qwhk_url", &jump.qwhk_url, SubType::WorkchatUrl),
    ]
}

/// Clears the destination fields that do not belong to `sub_type` (an edit that changes it).
fn clear_other_destinations(jump: &mut JumpSettings, sub_type: SubType, input: &JumpChainInput) {
    let given = |name: &str| match name {
        "scan_qr_url" => input.scan_qr_url.is_some(),
        "wx_id" => input.wx_id.is_some(),
        "mini_appid" => input.mini_appid.is_some(),
        "mini_path" => input.mini_path.is_some(),
        "shop_appid" => input.shop_appid.is_some(),
        "shop_path" => input.shop_path.is_some(),
        _ => input.qwhk_url.is_some(),
    };
    let stale: Vec<&'static str> = destination_fields(jump)
        .iter()
        .filter(|(name, _, owner)| *owner != sub_type && !given(name))
        .map(|(name, _, _)| *name)
        .collect();
    for name in stale {
        match name {
            "scan_qr_url" => jump.scan_qr_url.clear(),
            "wx_id" => jump.wx_id.clear(),
            "mini_appid" => jump.mini_appid.clear(),
            "mini_path" => jump.mini_path.clear(),
            "shop_appid" => jump.shop_appid.clear(),
            "shop_path" => jump.shop_path.clear(),
            _ => jump.qwhk_url.clear(),
        }
    }
}

/// Applies the given fields of `input` to `jump`, checking each.
fn merge_settings(jump: &mut JumpSettings, input: &JumpChainInput) -> Result<()> {
    let text = |field: &str, value: &Option<String>, max: usize, into: &mut String| {
        if let Some(v) = value {
            *into = page_text(field, v, max)?;
        }
        Ok::<(), Error>(())
    };
    text(
        "guide_text",
        &input.guide_text,
        MAX_PAGE_TEXT,
        &mut jump.guide_text,
    )?;
    text("desc", &input.desc, MAX_PAGE_TEXT, &mut jump.desc)?;
    text(
        "sub_title",
        &input.sub_title,
        MAX_SUB_TITLE,
        &mut jump.sub_title,
    )?;
    let url = |field: &str, value: &Option<String>, into: &mut String| {
        if let Some(v) = value {
            *into = optional_url(field, v)?;
        }
        Ok::<(), Error>(())
    };
    url("scan_qr_url", &input.scan_qr_url, &mut jump.scan_qr_url)?;
    url("avatar", &input.avatar, &mut jump.avatar)?;
    url("qwhk_url", &input.qwhk_url, &mut jump.qwhk_url)?;
    // Destination identifiers are checked as given (empty clears one); whether the sub_type
    // needs them is the destination rule's to say.
    type Check = fn(&str, &str) -> Result<String>;
    for (field, value, into, check) in [
        ("wx_id", &input.wx_id, &mut jump.wx_id, identifier as Check),
        (
            "mini_appid",
            &input.mini_appid,
            &mut jump.mini_appid,
            identifier,
        ),
        ("mini_path", &input.mini_path, &mut jump.mini_path, app_path),
        (
            "shop_appid",
            &input.shop_appid,
            &mut jump.shop_appid,
            identifier,
        ),
        ("shop_path", &input.shop_path, &mut jump.shop_path, app_path),
    ] {
        if let Some(v) = value {
            *into = if v.trim().is_empty() {
                String::new()
            } else {
                check(field, v)?
            };
        }
    }
    if let Some(v) = input.is_direct_jump {
        jump.direct_jump = flag("is_direct_jump", v)?;
    }
    if let Some(v) = input.scan_tips {
        jump.scan_tips = flag("scan_tips", v)?;
    }
    if let Some(v) = input.show_type {
        jump.show_type = code_of("show_type", v, ShowType::from_code, ShowType::codes())?;
    }
    if let Some(v) = input.qrcode_vc_type {
        jump.visit_cap = code_of("qrcode_vc_type", v, VisitCap::from_code, VisitCap::codes())?;
    }
    if let Some(v) = input.visit_type {
        jump.rotation = code_of("visit_type", v, Rotation::from_code, Rotation::codes())?;
    }
    if let Some(v) = input.jump_template_id {
        if v < 0 {
            return Err(bad(
                "invalid_template",
                "jump_template_id must be 0 or a template id",
            ));
        }
        jump.template_id = TemplateId(v);
    }
    Ok(())
}

/// A destination field `sub_type` needs, present.
fn require(sub_type: SubType, field: &str, value: &str) -> Result<()> {
    if value.is_empty() {
        return Err(unprocessable(
            "missing_destination",
            format!("sub_type {} needs {field}", sub_type.code()),
        ));
    }
    Ok(())
}

/// Checks the destination of an external or card chain as a whole (the destination rule).
fn check_destination(sub_type: SubType, jump: &mut JumpSettings, channels: usize) -> Result<()> {
    for (name, value, owner) in destination_fields(jump) {
        if owner != sub_type && !value.is_empty() {
            return Err(unprocessable(
                "field_not_allowed",
                format!(
                    "{name} belongs to sub_type {}; this chain's sub_type is {}",
                    owner.code(),
                    sub_type.code()
                ),
            ));
        }
    }
    if channels > 0 && sub_type != SubType::ScanQr {
        return Err(unprocessable(
            "field_not_allowed",
            format!(
                "channel_list belongs to sub_type 1; this chain's sub_type is {}",
                sub_type.code()
            ),
        ));
    }
    match sub_type {
        SubType::ScanQr => {
            if jump.scan_qr_url.is_empty() && channels == 0 {
                return Err(unprocessable(
                    "missing_destination",
                    "sub_type 1 needs scan_qr_url or at least one channel in channel_list",
                ));
            }
        }
        SubType::AccountId => {
            require(SubType::AccountId, "wx_id", &jump.wx_id)?;
            if jump.direct_jump {
                return Err(unprocessable(
                    "invalid_direct_jump",
                    "sub_type 2 shows the account ID on its page; it cannot jump directly",
                ));
            }
        }
        SubType::MiniProgram => {
            require(SubType::MiniProgram, "mini_appid", &jump.mini_appid)?;
            require(SubType::MiniProgram, "mini_path", &jump.mini_path)?;
        }
        SubType::Shop => {
            require(SubType::Shop, "shop_appid", &jump.shop_appid)?;
            require(SubType::Shop, "shop_path", &jump.shop_path)?;
        }
        SubType::WorkchatUrl => {
            if jump.qwhk_url.is_empty() {
                return Err(unprocessable(
                    "missing_destination",
                    "sub_type 5 needs qwhk_url",
                ));
            }
        }
    }
    Ok(())
}

/// A channel's integer field, checked against its range.
fn within(field: &str, value: i64, range: std::ops::RangeInclusive<i64>) -> Result<i64> {
    if range.contains(&value) {
        Ok(value)
    } else {
        Err(bad(
            "invalid_channel",
            format!("{field} must be {} to {}", range.start(), range.end()),
        ))
    }
}

/// A channel as it will stand: `old` (when changing one) with the given fields applied.
fn settle_channel(spec: &ChannelSpec, old: Option<&Channel>) -> Result<ChannelInput> {
    let mut c = match old {
        Some(old) => ChannelInput {
            sort: old.sort,
            name: old.name.clone(),
            url: old.url.clone(),
            url2: old.url2.clone(),
            expires_at: old.expires_at,
            ratio: old.ratio,
            visit_limit: old.visit_limit,
            enabled: old.enabled,
        },
        None => ChannelInput {
            sort: 0,
            name: String::new(),
            url: String::new(),
            url2: String::new(),
            expires_at: 0,
            ratio: 1,
            visit_limit: 0,
            enabled: true,
        },
    };
    if let Some(v) = spec.sort {
        c.sort = within("sort", v, -MAX_VISIT_LIMIT..=MAX_VISIT_LIMIT)?;
    }
    if let Some(v) = &spec.name {
        c.name = page_text("qrcode_name", v, MAX_JUMP_NAME)?;
    }
    if let Some(v) = &spec.url {
        c.url = optional_url("channel url", v)?;
    }
    if let Some(v) = &spec.url2 {
        c.url2 = optional_url("channel url2", v)?;
    }
    if let Some(v) = spec.qrcode_time {
        if v < 0 {
            return Err(bad(
                "invalid_channel",
                "qrcode_time is Unix seconds, 0 for never",
            ));
        }
        c.expires_at = v;
    }
    if let Some(v) = spec.ratio {
        c.ratio = within("ratio", v, 0..=MAX_RATIO)?;
    }
    if let Some(v) = spec.visit_limit {
        c.visit_limit = within("visit_limit (0 is unlimited)", v, 0..=MAX_VISIT_LIMIT)?;
    }
    if let Some(v) = spec.status {
        c.enabled = flag("channel status", v)?;
    }
    if c.url.is_empty() {
        return Err(unprocessable(
            "invalid_channel",
            "a new channel needs a url",
        ));
    }
    Ok(c)
}

/// Turns a channel list into edits of `existing`; returns them with the count of live channels
/// after the edit.
fn channel_edits(specs: &[ChannelSpec], existing: &[Channel]) -> Result<(Vec<ChannelEdit>, usize)> {
    let mut edits = Vec::with_capacity(specs.len());
    let mut live = existing.len();
    let mut seen = std::collections::HashSet::new();
    for spec in specs {
        match spec.id.filter(|id| id.0 != 0) {
            None if spec.delete => {
                return Err(unprocessable(
                    "invalid_channel",
                    "is_delete needs the channel's id",
                ));
            }
            None => {
                edits.push(ChannelEdit::Add(settle_channel(spec, None)?));
                live += 1;
            }
            Some(id) => {
                let old = existing.iter().find(|c| c.id == id).ok_or_else(|| {
                    unprocessable("unknown_channel", format!("this chain has no channel {id}"))
                })?;
                if !seen.insert(id) {
                    return Err(unprocessable(
                        "invalid_channel",
                        format!("channel {id} is listed twice"),
                    ));
                }
                if spec.delete {
                    edits.push(ChannelEdit::Remove(id));
                    live -= 1;
                } else {
                    edits.push(ChannelEdit::Change(id, settle_channel(spec, Some(old))?));
                }
            }
        }
    }
    if live > MAX_CHANNELS {
        return Err(bad(
            "too_many_channels",
            format!("a chain has at most {MAX_CHANNELS} channels"),
        ));
    }
    Ok((edits, live))
}

impl App {
    /// Creates a messaging-app external chain (`kind` External) or a card chain (Card).
    ///
    /// # Errors
    /// 400 for invalid fields or any template on a card chain; 422 for fields that break the
    /// destination rule or a template the caller may not use; 409 for a taken code; 429 at the
    /// daily quota.
    pub async fn create_external_chain(
        &self,
        who: &Principal,
        kind: ChainKind,
        input: JumpChainInput,
    ) -> Result<JumpChainView> {
        check_chain_type(input.chain_type, kind)?;
        let sub_type = code_of(
            "sub_type",
            input.sub_type.unwrap_or(1),
            SubType::from_code,
            SubType::codes(),
        )?;
        if input.target_url.as_deref().is_some_and(|t| !t.is_empty())
            || input.wxwork_type.is_some()
            || input.customer_id.is_some_and(|c| c != 0)
        {
            return Err(unprocessable(
                "field_not_allowed",
                "target_url, wxwork_type and customer_id belong to work-chat chains",
            ));
        }
        let mut jump = JumpSettings::default();
        merge_settings(&mut jump, &input)?;
        let (edits, live) = channel_edits(&input.channels, &[])?;
        check_destination(sub_type, &mut jump, live)?;
        self.check_template(who, kind, jump.template_id, None)
            .await?;
        let target_url = fixed_destination(kind, Some(sub_type.code()), &jump);
        self.insert_jump_chain(
            who,
            kind,
            Some(sub_type.code()),
            input,
            jump,
            target_url,
            edits,
        )
        .await
    }

    /// Creates a work-chat chain.
    ///
    /// # Errors
    /// 400 for an invalid destination; 422 for a missing one, an unknown assembly entry or a
    /// template the caller may not use; 409 and 429 as for other chains.
    pub async fn create_workchat_chain(
        &self,
        who: &Principal,
        input: JumpChainInput,
    ) -> Result<JumpChainView> {
        check_chain_type(input.chain_type, ChainKind::WorkChat)?;
        let mut jump = JumpSettings::default();
        merge_settings(&mut jump, &input)?;
        let url = self
            .workchat_destination(who, &input, &mut jump, None)
            .await?;
        self.check_template(who, ChainKind::WorkChat, jump.template_id, None)
            .await?;
        let channel = ChannelInput {
            sort: 0,
            name: String::new(),
            url: url.clone(),
            url2: String::new(),
            expires_at: 0,
            ratio: 1,
            visit_limit: 0,
            enabled: true,
        };
        self.insert_jump_chain(
            who,
            ChainKind::WorkChat,
            None,
            input,
            jump,
            url,
            vec![ChannelEdit::Add(channel)],
        )
        .await
    }

    /// Decides a work-chat chain's destination URL from `wxwork_type` and `customer_id` or
    /// `target_url`, as they stand after `input` is applied to `old`.
    async fn workchat_destination(
        &self,
        who: &Principal,
        input: &JumpChainInput,
        jump: &mut JumpSettings,
        old: Option<&Chain>,
    ) -> Result<String> {
        let has_external = input.sub_type.is_some_and(|s| s != 0)
            || [
                &input.wx_id,
                &input.scan_qr_url,
                &input.qwhk_url,
                &input.mini_appid,
                &input.mini_path,
                &input.shop_appid,
                &input.shop_path,
            ]
            .iter()
            .any(|f| f.as_deref().is_some_and(|v| !v.is_empty()))
            || !input.channels.is_empty();
        if has_external {
            return Err(unprocessable(
                "field_not_allowed",
                "work-chat chains take wxwork_type with customer_id or target_url; sub_type, \
                 messaging-app destinations and channel_list belong to external chains",
            ));
        }
        let kind = match input.wxwork_type {
            Some(v) => Some(code_of(
                "wxwork_type",
                v,
                WorkchatKind::from_code,
                WorkchatKind::codes(),
            )?),
            None => jump.workchat_kind,
        }
        .ok_or_else(|| unprocessable("missing_destination", "wxwork_type is required (1 or 2)"))?;
        jump.workchat_kind = Some(kind);
        let customer_id = input
            .customer_id
            .filter(|c| *c != 0)
            .or(jump.customer_id.filter(|_| input.wxwork_type.is_none()));
        let target_url = input
            .target_url
            .clone()
            .filter(|t| !t.is_empty())
            .or_else(|| {
                old.filter(|_| input.wxwork_type.is_none() && input.customer_id.is_none())
                    .map(|c| c.target_url.clone())
            });
        match kind {
            WorkchatKind::Acquisition => {
                if input.target_url.as_deref().is_some_and(|t| !t.is_empty()) {
                    return Err(unprocessable(
                        "field_not_allowed",
                        "target_url belongs to wxwork_type 2; wxwork_type 1 takes customer_id",
                    ));
                }
                let id = customer_id.ok_or_else(|| {
                    unprocessable(
                        "missing_destination",
                        "wxwork_type 1 needs customer_id, an entry of your assembly list",
                    )
                })?;
                let assembly = self.assembly(who, id).await?.ok_or_else(|| {
                    unprocessable(
                        "unknown_customer",
                        format!("your assembly list has no entry {id}"),
                    )
                })?;
                jump.customer_id = Some(id);
                Ok(assembly.url)
            }
            WorkchatKind::CustomUrl => {
                if input.customer_id.is_some_and(|c| c != 0) {
                    return Err(unprocessable(
                        "field_not_allowed",
                        "customer_id belongs to wxwork_type 1; wxwork_type 2 takes target_url",
                    ));
                }
                // Empty (or only spaces) is none, as in every URL field.
                let url = target_url
                    .filter(|url| !url.trim_matches(' ').is_empty())
                    .ok_or_else(|| {
                        unprocessable("missing_destination", "wxwork_type 2 needs target_url")
                    })?;
                jump.customer_id = None;
                validate_target_url(&url)
                    .map_err(|e| bad("invalid_target_url", format!("target_url: {e}")))
            }
        }
    }

    /// Refuses a template the caller may not choose: any but the generic one on a card chain;
    /// one not offered to the caller (unless the chain already uses it); one past the
    /// caller's template limit.
    async fn check_template(
        &self,
        who: &Principal,
        kind: ChainKind,
        id: TemplateId,
        current: Option<TemplateId>,
    ) -> Result<()> {
        if id.0 == 0 || current == Some(id) {
            return Ok(());
        }
        if kind == ChainKind::Card {
            return Err(bad(
                "template_not_allowed",
                "card chains have no jump template: jump_template_id must be 0",
            ));
        }
        let offered =
            self.store().template(id).await?.is_some_and(|t| {
                t.retired_at.is_none() && t.user_id.is_none_or(|u| u == who.user_id)
            });
        if !offered {
            return Err(unprocessable(
                "invalid_template",
                format!("no template {id} for you (see GET /templates)"),
            ));
        }
        let in_use = self.store().templates_in_use(who.user_id).await?;
        let used = in_use.iter().filter(|t| t.0 != 0).count() as i64;
        if !in_use.contains(&id) && used >= self.config().template_limit {
            return Err(unprocessable(
                "template_limit_reached",
                format!(
                    "your chains already use {used} templates, the limit is {}",
                    self.config().template_limit
                ),
            ));
        }
        Ok(())
    }

    #[allow(clippy::too_many_arguments)]
    async fn insert_jump_chain(
        &self,
        who: &Principal,
        kind: ChainKind,
        sub_type: Option<i64>,
        input: JumpChainInput,
        jump: JumpSettings,
        target_url: String,
        edits: Vec<ChannelEdit>,
    ) -> Result<JumpChainView> {
        let now = self.now();
        let title = check_title(input.title)?.unwrap_or_default();
        let valid_time = input.valid_time.unwrap_or(0);
        check_valid_time(valid_time, now)?;
        let code = input.code.filter(|c| !c.is_empty());
        if let Some(code) = &code {
            validate_code(code).map_err(|e| bad("invalid_code", e.to_string()))?;
        }
        let domain_id = self.domain_for_create(who, input.domain_id)?;
        let group_ids = self
            .groups_for_chain(who, input.group_ids.unwrap_or_default(), kind)
            .await?;
        let channels = edits
            .into_iter()
            .filter_map(|e| match e {
                ChannelEdit::Add(c) => Some(c),
                _ => None,
            })
            .collect();
        let new = NewChain {
            user_id: who.user_id,
            kind,
            sub_type,
            domain_id,
            code: String::new(),
            title,
            target_url,
            group_ids,
            valid_time,
            created_at: now,
            jump: Some(jump),
            channels,
        };
        let (chain, _) = self.insert_new_chain(new, code).await?;
        let channels = self.store().channels(chain.id).await?;
        Ok(JumpChainView {
            view: ChainView {
                status: chain.status_at(now),
                chain,
                views: PageViews::default(),
            },
            channels,
        })
    }

    /// Checks every group (0 meaning none is dropped), keeping the order given.
    async fn groups_for_chain(
        &self,
        who: &Principal,
        ids: Vec<GroupId>,
        kind: ChainKind,
    ) -> Result<Vec<GroupId>> {
        let mut groups = Vec::with_capacity(ids.len());
        for id in ids.into_iter().filter(|g| g.0 != 0) {
            if !groups.contains(&id) {
                groups.push(self.group_for_chain(who, id, kind).await?);
            }
        }
        Ok(groups)
    }

    /// One of the caller's chains of `set` by id, with its channels.
    ///
    /// # Errors
    /// 404 when the caller has no such live chain.
    pub async fn jump_chain(
        &self,
        who: &Principal,
        id: ChainId,
        set: PageChains,
    ) -> Result<JumpChainView> {
        let chain = self.own_chain(who, id, set.kinds()).await?;
        self.jump_view(chain).await
    }

    /// One of the caller's chains of `set` by code.
    ///
    /// # Errors
    /// 404 when there is none; 422 when the code is on several of the caller's domains.
    pub async fn jump_chain_by_code(
        &self,
        who: &Principal,
        code: &str,
        domain: Option<DomainId>,
        set: PageChains,
    ) -> Result<JumpChainView> {
        let chain = self.find_by_code_of(who, code, domain, set.kinds()).await?;
        self.jump_view(chain).await
    }

    async fn jump_view(&self, chain: Chain) -> Result<JumpChainView> {
        let channels = self.store().channels(chain.id).await?;
        Ok(JumpChainView {
            view: self.view_one(chain).await?,
            channels,
        })
    }

    /// A page of the caller's chains of the kind `chain_type` names (2 messaging-app, the
    /// default; 3 work-chat; 4 card), newest first.
    ///
    /// # Errors
    /// 400 for another `chain_type` or a bad page.
    pub async fn list_page_chains(
        &self,
        who: &Principal,
        chain_type: Option<i64>,
        page: Option<i64>,
        page_size: Option<i64>,
        group_id: Option<GroupId>,
        text: Option<String>,
    ) -> Result<(Page<ChainView>, i64, i64)> {
        let kind = match chain_type.unwrap_or(2) {
            2 => ChainKind::External,
            3 => ChainKind::WorkChat,
            4 => ChainKind::Card,
            _ => {
                return Err(bad(
                    "invalid_chain_type",
                    "chain_type is 2 (external), 3 (work-chat) or 4 (card)",
                ));
            }
        };
        self.list_jump_chains(who, kind, page, page_size, group_id, text)
            .await
    }

    /// The caller's card chains, newest first, at most `CARD_LIST_LIMIT` (100).
    ///
    /// # Errors
    /// The store's.
    pub async fn list_cards(&self, who: &Principal) -> Result<Page<ChainView>> {
        let (found, _, _) = self
            .list_jump_chains(
                who,
                ChainKind::Card,
                Some(1),
                Some(CARD_LIST_LIMIT),
                None,
                None,
            )
            .await?;
        Ok(found)
    }

    /// A page of the caller's chains of `kind`, newest first.
    ///
    /// # Errors
    /// 400 for a bad page.
    pub async fn list_jump_chains(
        &self,
        who: &Principal,
        kind: ChainKind,
        page: Option<i64>,
        page_size: Option<i64>,
        group_id: Option<GroupId>,
        text: Option<String>,
    ) -> Result<(Page<ChainView>, i64, i64)> {
        let window = PageWindow::new(page, page_size)?;
        let query = ChainQuery {
            kinds: vec![kind],
            group_id: check_group_filter(group_id)?,
            text: check_search(text)?,
            offset: window.offset(),
            limit: window.size,
        };
        let found = self.store().chains(who.user_id, &query).await?;
        let items = self.view(found.items).await?;
        Ok((
            Page {
                items,
                total: found.total,
            },
            window.page,
            window.size,
        ))
    }

    /// Edits one of the caller's chains of `set` by id. Its domain and code cannot change.
    ///
    /// # Errors
    /// 404 when the caller has no such chain; 400 for invalid fields; 422 for an edit that
    /// changes nothing or breaks the destination rule, `immutable_field` for a domain or code.
    pub async fn edit_jump_chain(
        &self,
        who: &Principal,
        id: ChainId,
        set: PageChains,
        input: JumpChainInput,
    ) -> Result<JumpChainView> {
        if input.domain_id.is_some() || input.code.is_some() {
            return Err(immutable(
                "domain_id and code cannot change; create a new chain instead",
            ));
        }
        let chain = self.own_chain(who, id, set.kinds()).await?;
        self.edit_chain_page(who, chain, input).await
    }

    /// Edits one of the caller's chains of `set` by code (on `domain` when given). Its code
    /// cannot change (naming the same code again is no change), and a `chain_type` must be
    /// its kind.
    ///
    /// # Errors
    /// 404 when the caller has no such chain; 400 for invalid fields; 422 for an edit that
    /// changes nothing or breaks the destination rule, `immutable_field` for another code,
    /// `invalid_chain_type` for another kind, `ambiguous_code` for a code on several domains.
    pub async fn edit_jump_chain_by_code(
        &self,
        who: &Principal,
        code: &str,
        domain: Option<DomainId>,
        set: PageChains,
        mut input: JumpChainInput,
    ) -> Result<JumpChainView> {
        if input
            .code
            .take()
            .is_some_and(|c| !c.is_empty() && c != code)
        {
            return Err(immutable("code cannot change; create a new chain instead"));
        }
        if let [kind] = set.kinds() {
            check_chain_type(input.chain_type, *kind)?;
        }
        let chain = self.find_by_code_of(who, code, domain, set.kinds()).await?;
        check_chain_type(input.chain_type, chain.kind)?;
        self.edit_chain_page(who, chain, input).await
    }

    /// Applies an edit to one of the caller's chains with a page. The result is checked as a
    /// whole, as on create.
    ///
    /// # Errors
    /// 400 for invalid fields; 422 for an edit that changes nothing or breaks the destination
    /// rule.
    async fn edit_chain_page(
        &self,
        who: &Principal,
        chain: Chain,
        input: JumpChainInput,
    ) -> Result<JumpChainView> {
        let id = chain.id;
        let existing = self.store().channels(chain.id).await?;
        let now = self.now();
        let old_jump = chain.jump.as_deref().cloned().unwrap_or_default();
        let mut jump = old_jump.clone();
        merge_settings(&mut jump, &input)?;
        let mut patch = ChainPatch {
            title: check_title(input.title.clone())?,
            valid_time: match input.valid_time {
                Some(t) => {
                    check_valid_time(t, now)?;
                    Some(t)
                }
                None => None,
            },
            group_ids: match input.group_ids.clone() {
                Some(ids) => Some(self.groups_for_chain(who, ids, chain.kind).await?),
                None => None,
            },
            ..ChainPatch::default()
        };
        if chain.kind == ChainKind::WorkChat {
            let url = self
                .workchat_destination(who, &input, &mut jump, Some(&chain))
                .await?;
            let channel = match input.channel_id.filter(|c| c.0 != 0) {
                Some(id) => existing.iter().find(|c| c.id == id).ok_or_else(|| {
                    unprocessable("unknown_channel", format!("this chain has no channel {id}"))
                })?,
                None => existing
                    .first()
                    .ok_or_else(|| Error::Internal("a work-chat chain has no channel".into()))?,
            };
            if url != channel.url {
                let mut changed = settle_channel(&ChannelSpec::default(), Some(channel))?;
                changed.url = url.clone();
                patch
                    .channels
                    .push(ChannelEdit::Change(channel.id, changed));
            }
            if url != chain.target_url {
                patch.target_url = Some(url);
            }
        } else {
            if input.wxwork_type.is_some()
                || input.customer_id.is_some_and(|c| c != 0)
                || input.target_url.as_deref().is_some_and(|t| !t.is_empty())
            {
                return Err(unprocessable(
                    "field_not_allowed",
                    "target_url, wxwork_type and customer_id belong to work-chat chains",
                ));
            }
            let sub_type = code_of(
                "sub_type",
                input.sub_type.or(chain.sub_type).unwrap_or(1),
                SubType::from_code,
                SubType::codes(),
            )?;
            if Some(sub_type.code()) != chain.sub_type {
                clear_other_destinations(&mut jump, sub_type, &input);
                patch.sub_type = Some(sub_type.code());
            }
            let (edits, live) = channel_edits(&input.channels, &existing)?;
            check_destination(sub_type, &mut jump, live)?;
            patch.channels = edits;
            let target_url = fixed_destination(chain.kind, Some(sub_type.code()), &jump);
            if target_url != chain.target_url {
                patch.target_url = Some(target_url);
            }
        }
        self.check_template(
            who,
            chain.kind,
            jump.template_id,
            Some(old_jump.template_id),
        )
        .await?;
        if jump != old_jump {
            patch.jump = Some(jump);
        }
        if patch.is_empty() {
            if input_is_empty(&input) {
                return Err(unprocessable(
                    "empty_update",
                    "the edit changes nothing: give a field",
                ));
            }
            // Every field given already had that value.
            return self.jump_view(chain).await;
        }
        let view = self.patch_chain(who, id, patch).await?;
        let channels = self.store().channels(id).await?;
        Ok(JumpChainView { view, channels })
    }

    /// Deletes one of the caller's chains of `set`.
    ///
    /// # Errors
    /// 404 when the caller has no such chain.
    pub async fn delete_jump_chain(
        &self,
        who: &Principal,
        id: ChainId,
        set: PageChains,
    ) -> Result<()> {
        self.own_chain(who, id, set.kinds()).await?;
        self.delete_chains(who, &[id]).await?;
        Ok(())
    }
}

/// Whether an edit names no field at all.
fn input_is_empty(input: &JumpChainInput) -> bool {
    let JumpChainInput {
        chain_type: _,
        domain_id: _,
        code: _,
        title,
        valid_time,
        group_ids,
        sub_type,
        wx_id,
        scan_qr_url,
        avatar,
        guide_text,
        desc,
        sub_title,
        qwhk_url,
        mini_appid,
        mini_path,
        shop_appid,
        shop_path,
        is_direct_jump,
        show_type,
        jump_template_id,
        scan_tips,
        qrcode_vc_type,
        visit_type,
        wxwork_type,
        customer_id,
        target_url,
        channels,
        channel_id: _,
    } = input;
    [
        title,
        wx_id,
        scan_qr_url,
        avatar,
        guide_text,
        desc,
        sub_title,
        qwhk_url,
        mini_appid,
        mini_path,
        shop_appid,
        shop_path,
        target_url,
    ]
    .iter()
    .all(|f| f.is_none())
        && [
            valid_time,
            sub_type,
            is_direct_jump,
            show_type,
            jump_template_id,
            scan_tips,
            qrcode_vc_type,
            visit_type,
            wxwork_type,
            customer_id,
        ]
        .iter()
        .all(|f| f.is_none())
        && group_ids.is_none()
        && channels.is_empty()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn app_links_use_the_plaintext_scheme_and_encode_the_path() {
        assert_eq!(
            app_link("wx1234", "pages/index?a=1&b=2"),
            "weixin://dl/business/?appid=wx1234&path=pages%2Findex%3Fa%3D1%26b%3D2"
        );
    }

    #[test]
    fn a_destination_field_of_another_sub_type_is_refused() {
        let mut jump = JumpSettings {
            wx_id: "someone".into(),
            mini_appid: "wx1".into(),
            mini_path: "p".into(),
            ..JumpSettings::default()
        };
        let err = check_destination(SubType::MiniProgram, &mut jump, 0).expect_err("refused");
        assert!(
            err.to_string().contains("wx_id belongs to sub_type 2"),
            "{err}"
        );
        jump.wx_id.clear();
        assert!(check_destination(SubType::MiniProgram, &mut jump, 0).is_ok());
        assert!(check_destination(SubType::MiniProgram, &mut jump, 1).is_err());
        let mut empty = JumpSettings::default();
        assert!(check_destination(SubType::ScanQr, &mut empty, 0).is_err());
        assert!(check_destination(SubType::ScanQr, &mut empty, 1).is_ok());
    }

    #[test]
    fn channel_lists_add_change_and_remove() {
        let old = Channel {
            id: ChannelId(7),
            chain_id: ChainId(1),
            sort: 1,
            name: "a".into(),
            url: "https://cdn.example.com/a.png".into(),
            url2: String::new(),
            expires_at: 0,
            ratio: 1,
            visit_limit: 5,
            enabled: true,
            visit_count: 3,
        };
        let specs = vec![
            ChannelSpec {
                url: Some("https://cdn.example.com/b.png".into()),
                ..ChannelSpec::default()
            },
            ChannelSpec {
                id: Some(ChannelId(7)),
                visit_limit: Some(9),
                ..ChannelSpec::default()
            },
        ];
        let (edits, live) = channel_edits(&specs, std::slice::from_ref(&old)).expect("valid");
        assert_eq!(live, 2);
        assert!(
            matches!(&edits[1], ChannelEdit::Change(ChannelId(7), c) if c.visit_limit == 9 && c.url == old.url)
        );
        let remove = vec![ChannelSpec {
            id: Some(ChannelId(7)),
            delete: true,
            ..ChannelSpec::default()
        }];
        let (_, live) = channel_edits(&remove, std::slice::from_ref(&old)).expect("valid");
        assert_eq!(live, 0);
        let unknown = vec![ChannelSpec {
            id: Some(ChannelId(8)),
            ..ChannelSpec::default()
        }];
        assert!(channel_edits(&unknown, &[old]).is_err());
        let no_url = vec![ChannelSpec::default()];
        assert!(channel_edits(&no_url, &[]).is_err());
    }
}
