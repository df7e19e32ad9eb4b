//! The rules of a page chain's fields: each field's own check, the destination rule, merging
//! an edit into stored settings, and turning a channel list as sent into channel edits.

use crate::codes::validate_optional_url;
use crate::error::{Error, Result, names};
use crate::model::limits::{MAX_APP_PATH, MAX_CHANNELS, MAX_JUMP_NAME, MAX_RATIO, MAX_VISIT_LIMIT};
use crate::model::{
    ChainKind, Channel, JumpSettings, PageTexts, Rotation, ShowType, SubType, TemplateId, TextKind,
    VisitCap,
};
use crate::service::{TextRule, check_text};
use crate::store::{ChannelEdit, ChannelInput};

use super::{ChannelSpec, PageChainInput};

pub(super) fn bad(code: names::Name<400>, message: impl Into<String>) -> Error {
    Error::bad_request(code, message)
}

pub(super) fn unprocessable(code: names::Name<422>, message: impl Into<String>) -> Error {
    Error::unprocessable(code, message)
}

/// A wire integer as one of `T`'s codes.
pub(super) fn code_of<T>(
    field: &str,
    value: i64,
    from: fn(i64) -> Option<T>,
    codes: String,
) -> Result<T> {
    from(value).ok_or_else(|| {
        bad(
            names::INVALID_CODE,
            format!("{field} must be one of {codes}"),
        )
    })
}

pub(super) fn flag(field: &str, value: i64) -> Result<bool> {
    match value {
        0 => Ok(false),
        1 => Ok(true),
        _ => Err(bad(names::INVALID_CODE, format!("{field} must be 0 or 1"))),
    }
}

/// Text shown on the page: no control characters but line breaks, at most `max` characters.
pub(super) fn page_text(field: &str, value: &str, max: usize) -> Result<String> {
    check_text(
        field,
        value,
        TextRule {
            max,
            required: false,
            lines: true,
            code: names::INVALID_TEXT,
        },
    )
}

/// An http(s) URL (uploaded images' `url`s are), or empty.
pub(super) fn optional_url(field: &str, value: &str) -> Result<String> {
    validate_optional_url(value).map_err(|e| bad(names::INVALID_URL, format!("{field}: {e}")))
}

/// An app or account id: letters, digits, `_` and `-`.
pub(super) fn identifier(field: &str, value: &str) -> Result<String> {
    let value = value.trim();
    if value.is_empty()
        || value.len() > MAX_JUMP_NAME
        || !value
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
    {
        return Err(bad(
            names::INVALID_DESTINATION,
            format!("{field} must be 1 to {MAX_JUMP_NAME} letters, digits, '_' or '-'"),
        ));
    }
    Ok(value.to_owned())
}

/// A path inside a mini-program or shop: printable, no spaces, no bidirectional overrides
/// (the characters every text field refuses), judged as given like every text field.
pub(super) fn app_path(field: &str, value: &str) -> Result<String> {
    if value.is_empty()
        || value.len() > MAX_APP_PATH
        || value
            .chars()
            .any(|c| c.is_control() || c.is_whitespace() || crate::service::is_bidi_control(c))
    {
        return Err(bad(
            names::INVALID_DESTINATION,
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
        Some(SubType::ScanQr) | None => jump.texts.scan_qr_url.clone(),
        Some(SubType::AccountId) => String::new(),
        Some(SubType::MiniProgram) => app_link(&jump.texts.mini_appid, &jump.texts.mini_path),
        Some(SubType::Shop) => app_link(&jump.texts.shop_appid, &jump.texts.shop_path),
        Some(SubType::WorkchatUrl) => jump.texts.qwhk_url.clone(),
    }
}

/// The destination texts and the sub_type each belongs to.
pub(super) const DESTINATION_TEXTS: [(&str, SubType); 7] = [
    ("scan_qr_url", SubType::ScanQr),
    ("wx_id", SubType::AccountId),
    ("mini_appid", SubType::MiniProgram),
    ("mini_path", SubType::MiniProgram),
    ("shop_appid", SubType::Shop),
    ("shop_path", SubType::Shop),
    ("qwhk_url", SubType::WorkchatUrl),
];

/// The destination fields, their values in `jump` and the sub_type each belongs to.
pub(super) fn destination_fields(jump: &JumpSettings) -> [(&'static str, &str, SubType); 7] {
    let values = jump.texts.values();
    DESTINATION_TEXTS.map(|(name, owner)| {
        let at = PageTexts::ALL.iter().position(|t| t.name == name);
        (name, at.map_or("", |at| values[at]), owner)
    })
}

/// Clears the destination fields that do not belong to `sub_type` (an edit that changes it).
pub(super) fn clear_other_destinations(
    jump: &mut JumpSettings,
    sub_type: SubType,
    input: &PageChainInput,
) {
    let stale: Vec<&'static str> = destination_fields(jump)
        .iter()
        .filter(|(name, _, owner)| *owner != sub_type && input.texts.get(name).is_none())
        .map(|(name, _, _)| *name)
        .collect();
    for name in stale {
        if let Some(text) = jump.texts.get_mut(name) {
            text.clear();
        }
    }
}

/// Applies the given fields of `input` to `jump`, checking each.
pub(super) fn merge_settings(jump: &mut JumpSettings, input: &PageChainInput) -> Result<()> {
    for (text, given) in PageTexts::ALL.iter().zip(input.texts.values()) {
        let Some(value) = given else { continue };
        let checked = match text.kind {
            TextKind::Lines { max } => page_text(text.name, value, max)?,
            TextKind::Url => optional_url(text.name, value)?,
            // Destination identifiers are checked as given (empty clears one); whether the
            // sub_type needs them is the destination rule's to say.
            _ if value.trim().is_empty() => String::new(),
            TextKind::Identifier => identifier(text.name, value)?,
            TextKind::AppPath => app_path(text.name, value)?,
        };
        if let Some(into) = jump.texts.get_mut(text.name) {
            *into = checked;
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
                names::INVALID_TEMPLATE_MALFORMED,
                "jump_template_id must be 0 or a template id",
            ));
        }
        jump.template_id = TemplateId(v);
    }
    Ok(())
}

/// A destination field `sub_type` needs, present.
pub(super) fn require(sub_type: SubType, field: &str, value: &str) -> Result<()> {
    if value.is_empty() {
        return Err(unprocessable(
            names::MISSING_DESTINATION,
            format!("sub_type {} needs {field}", sub_type.code()),
        ));
    }
    Ok(())
}

/// Checks the destination of an external or card chain as a whole (the destination rule).
pub(super) fn check_destination(
    sub_type: SubType,
    jump: &mut JumpSettings,
    channels: usize,
) -> Result<()> {
    for (name, value, owner) in destination_fields(jump) {
        if owner != sub_type && !value.is_empty() {
            return Err(unprocessable(
                names::FIELD_NOT_ALLOWED,
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
            names::FIELD_NOT_ALLOWED,
            format!(
                "channel_list belongs to sub_type 1; this chain's sub_type is {}",
                sub_type.code()
            ),
        ));
    }
    match sub_type {
        SubType::ScanQr => {
            if jump.texts.scan_qr_url.is_empty() && channels == 0 {
                return Err(unprocessable(
                    names::MISSING_DESTINATION,
                    "sub_type 1 needs scan_qr_url or at least one channel in channel_list",
                ));
            }
        }
        SubType::AccountId => {
            require(SubType::AccountId, "wx_id", &jump.texts.wx_id)?;
            if jump.direct_jump {
                return Err(unprocessable(
                    names::INVALID_DIRECT_JUMP,
                    "sub_type 2 shows the account ID on its page; it cannot jump directly",
                ));
            }
        }
        SubType::MiniProgram => {
            require(SubType::MiniProgram, "mini_appid", &jump.texts.mini_appid)?;
            require(SubType::MiniProgram, "mini_path", &jump.texts.mini_path)?;
        }
        SubType::Shop => {
            require(SubType::Shop, "shop_appid", &jump.texts.shop_appid)?;
            require(SubType::Shop, "shop_path", &jump.texts.shop_path)?;
        }
        SubType::WorkchatUrl => {
            if jump.texts.qwhk_url.is_empty() {
                return Err(unprocessable(
                    names::MISSING_DESTINATION,
                    "sub_type 5 needs qwhk_url",
                ));
            }
        }
    }
    Ok(())
}

/// A channel's integer field, checked against its range.
pub(super) fn within(field: &str, value: i64, range: std::ops::RangeInclusive<i64>) -> Result<i64> {
    if range.contains(&value) {
        Ok(value)
    } else {
        Err(bad(
            names::INVALID_CHANNEL_MALFORMED,
            format!("{field} must be {} to {}", range.start(), range.end()),
        ))
    }
}

/// A channel as it will stand: `old` (when changing one) with the given fields applied.
pub(super) fn settle_channel(spec: &ChannelSpec, old: Option<&Channel>) -> Result<ChannelInput> {
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
                names::INVALID_CHANNEL_MALFORMED,
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
            names::INVALID_CHANNEL,
            "a new channel needs a url",
        ));
    }
    Ok(c)
}

/// Turns a channel list into edits of `existing`; returns them with the count of live channels
/// after the edit.
pub(super) fn channel_edits(
    specs: &[ChannelSpec],
    existing: &[Channel],
) -> Result<(Vec<ChannelEdit>, usize)> {
    let mut edits = Vec::with_capacity(specs.len());
    let mut live = existing.len();
    let mut seen = std::collections::HashSet::new();
    for spec in specs {
        match spec.id.filter(|id| id.0 != 0) {
            None if spec.delete => {
                return Err(unprocessable(
                    names::INVALID_CHANNEL,
                    "is_delete needs the channel's id",
                ));
            }
            None => {
                edits.push(ChannelEdit::Add(settle_channel(spec, None)?));
                live += 1;
            }
            Some(id) => {
                let old = existing.iter().find(|c| c.id == id).ok_or_else(|| {
                    unprocessable(
                        names::UNKNOWN_CHANNEL,
                        format!("this chain has no channel {id}"),
                    )
                })?;
                if !seen.insert(id) {
                    return Err(unprocessable(
                        names::INVALID_CHANNEL,
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
            names::TOO_MANY_CHANNELS,
            format!("a chain has at most {MAX_CHANNELS} channels"),
        ));
    }
    Ok((edits, live))
}

/// Whether an edit names no field at all.
pub(super) fn input_is_empty(input: &PageChainInput) -> bool {
    let PageChainInput {
        chain_type: _,
        domain_id: _,
        code: _,
        title,
        valid_time,
        group_ids,
        sub_type,
        texts,
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
    title.is_none()
        && target_url.is_none()
        && texts.is_empty()
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
    use crate::model::{ChainId, ChannelId};

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
            texts: PageTexts {
                wx_id: "someone".into(),
                mini_appid: "wx1".into(),
                mini_path: "p".into(),
                ..PageTexts::default()
            },
            ..JumpSettings::default()
        };
        let err = check_destination(SubType::MiniProgram, &mut jump, 0).expect_err("refused");
        assert!(
            err.to_string().contains("wx_id belongs to sub_type 2"),
            "{err}"
        );
        jump.texts.wx_id.clear();
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
