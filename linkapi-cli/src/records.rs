//! How each API object prints: its JSON fields and its table columns.

use linkapi_core::wire::{admin, compat, primary};

use crate::output::{Column, Record, col, opt};

impl Record for primary::Chain {
    const FIELDS: &'static [&'static str] = &[
        "id",
        "code",
        "status",
        "status_label",
        "target_url",
        "type",
        "sub_type",
        "domain_id",
        "chain_title",
        "valid_time",
        "render_url",
        "group_id",
        "pv_today",
        "pv_history",
        "created_at",
        "updated_at",
    ];
    fn columns() -> Vec<Column<Self>> {
        vec![
            col("ID", |c| c.id.to_string()),
            col("CODE", |c| c.code.clone()),
            col("URL", |c| c.render_url.clone()),
            col("TARGET", |c| c.target_url.clone()),
            col("TITLE", |c| c.chain_title.clone()),
            col("STATUS", |c| c.status_label.clone()),
            col("VISITS", |c| c.pv_history.to_string()),
            col("CREATED", |c| c.created_at.clone()),
            // Added after the first eight, so scripts reading piped rows by position keep
            // working.
            col("EXPIRES", |c| {
                if c.valid_time == 0 {
                    "never".to_owned()
                } else {
                    linkapi_core::clock::format_rfc3339(c.valid_time)
                }
            }),
            col("GROUP", |c| opt(&c.group_id)),
        ]
    }
}

impl Record for primary::Conversion {
    const FIELDS: &'static [&'static str] = &[
        "event_id",
        "chain_id",
        "conv_type",
        "out_id",
        "clickid",
        "platform",
        "ad_platform",
        "external_userid",
        "value_cents",
        "created_at",
    ];
    fn columns() -> Vec<Column<Self>> {
        vec![
            col("EVENT", |c| c.event_id.clone()),
            col("TYPE", |c| c.conv_type.clone()),
            col("OUT ID", |c| opt(&c.out_id)),
            col("VALUE", |c| opt(&c.value_cents)),
            col("PLATFORM", |c| c.ad_platform.clone()),
            col("CREATED", |c| c.created_at.clone()),
        ]
    }
}

impl Record for primary::ChainStats {
    const FIELDS: &'static [&'static str] = &[
        "chain_id",
        "total_clicks",
        "unique_visitors",
        "trend_days",
        "daily_trend",
    ];
    fn columns() -> Vec<Column<Self>> {
        vec![
            col("CHAIN", |s| s.chain_id.to_string()),
            col("VISITS", |s| s.total_clicks.to_string()),
            col("UNIQUE", |s| s.unique_visitors.to_string()),
            col("DAYS", |s| s.trend_days.to_string()),
        ]
    }
}

impl Record for compat::ConversionResult {
    const FIELDS: &'static [&'static str] = &["chain_id", "conv_type", "duplicate", "event_id"];
    fn columns() -> Vec<Column<Self>> {
        vec![
            col("EVENT", |c| c.event_id.clone()),
            col("CHAIN", |c| c.chain_id.to_string()),
            col("TYPE", |c| c.conv_type.clone()),
            col("DUPLICATE", |c| {
                if c.duplicate { "yes" } else { "no" }.into()
            }),
        ]
    }
}

impl Record for primary::Group {
    const FIELDS: &'static [&'static str] =
        &["chain_count", "chain_type", "created_at", "id", "name"];
    fn columns() -> Vec<Column<Self>> {
        vec![
            col("ID", |g| g.id.to_string()),
            col("NAME", |g| g.name.clone()),
            col("TYPE", |g| g.chain_type.to_string()),
            col("CHAINS", |g| g.chain_count.to_string()),
            col("CREATED", |g| g.created_at.clone()),
        ]
    }
}

impl Record for primary::Domain {
    const FIELDS: &'static [&'static str] =
        &["domain", "id", "scene", "scheme", "domain_status", "is_my"];
    fn columns() -> Vec<Column<Self>> {
        vec![
            col("ID", |d| d.id.to_string()),
            col("DOMAIN", |d| d.domain.clone()),
            col("SCHEME", |d| d.scheme.clone()),
            col("STATUS", |d| domain_status(d.domain_status)),
            col("MINE", |d| if d.is_my == 1 { "yes" } else { "no" }.into()),
            col("SCENE", |d| d.scene.clone()),
        ]
    }
}

impl Record for admin::User {
    const FIELDS: &'static [&'static str] = &["id", "name", "daily_quota", "created_at"];
    fn columns() -> Vec<Column<Self>> {
        vec![
            col("ID", |u| u.id.to_string()),
            col("NAME", |u| u.name.clone()),
            col("DAILY QUOTA", |u| opt(&u.daily_quota)),
            col("CREATED", |u| u.created_at.clone()),
        ]
    }
}

impl Record for admin::Key {
    const FIELDS: &'static [&'static str] = &[
        "id",
        "user_id",
        "name",
        "prefix",
        "scopes",
        "created_at",
        "expires_at",
        "revoked_at",
        "state",
    ];
    fn columns() -> Vec<Column<Self>> {
        vec![
            col("ID", |k| k.id.to_string()),
            col("USER", |k| k.user_id.to_string()),
            col("NAME", |k| k.name.clone()),
            col("PREFIX", |k| k.prefix.clone()),
            col("SCOPES", |k| k.scopes.join(" ")),
            col("STATE", |k| k.state.clone()),
            col("EXPIRES", |k| opt(&k.expires_at)),
        ]
    }
}

impl Record for admin::CreatedKey {
    const FIELDS: &'static [&'static str] = &[
        "id",
        "user_id",
        "name",
        "prefix",
        "scopes",
        "created_at",
        "expires_at",
        "revoked_at",
        "state",
        "api_key",
    ];
    fn columns() -> Vec<Column<Self>> {
        vec![
            col("ID", |k| k.key.id.to_string()),
            col("USER", |k| k.key.user_id.to_string()),
            col("SCOPES", |k| k.key.scopes.join(" ")),
            col("API KEY", |k| k.api_key.clone()),
        ]
    }
}

impl Record for admin::Domain {
    const FIELDS: &'static [&'static str] = &[
        "id",
        "domain",
        "scheme",
        "scene",
        "shared",
        "user_id",
        "status",
        "created_at",
    ];
    fn columns() -> Vec<Column<Self>> {
        vec![
            col("ID", |d| d.id.to_string()),
            col("DOMAIN", |d| d.domain.clone()),
            col("SCHEME", |d| d.scheme.clone()),
            col("STATUS", |d| domain_status(d.status)),
            col("SHARED", |d| if d.shared { "yes" } else { "no" }.into()),
            col("OWNER", |d| opt(&d.user_id)),
            col("SCENE", |d| d.scene.clone()),
        ]
    }
}

fn domain_status(status: i64) -> String {
    match status {
        1 => "effective".into(),
        99 => "not effective".into(),
        other => other.to_string(),
    }
}

impl Record for primary::Upload {
    const FIELDS: &'static [&'static str] = &[
        "file_id",
        "object_key",
        "size_bytes",
        "url",
        "content_type",
        "file_name",
        "created_at",
    ];
    fn columns() -> Vec<Column<Self>> {
        vec![
            col("ID", |u| u.file_id.to_string()),
            col("NAME", |u| u.file_name.clone()),
            col("TYPE", |u| u.content_type.clone()),
            col("SIZE", |u| u.size_bytes.to_string()),
            col("URL", |u| u.url.clone()),
            col("CREATED", |u| u.created_at.clone()),
        ]
    }
}

impl Record for primary::Template {
    const FIELDS: &'static [&'static str] = &[
        "id",
        "name",
        "style",
        "type",
        "thumb",
        "is_use",
        "update_time",
    ];
    fn columns() -> Vec<Column<Self>> {
        vec![
            col("ID", |t| t.id.to_string()),
            col("NAME", |t| t.name.clone()),
            col("STYLE", |t| t.style.clone()),
            col("TYPE", |t| {
                if t.template_type == 1 {
                    "built-in"
                } else {
                    "custom"
                }
                .to_owned()
            }),
            col("IN USE", |t| {
                if t.is_use == 1 { "yes" } else { "" }.to_owned()
            }),
            col("THUMB", |t| t.thumb.clone()),
        ]
    }
}

impl Record for admin::Template {
    const FIELDS: &'static [&'static str] = &[
        "id",
        "user_id",
        "name",
        "style",
        "type",
        "thumb",
        "body",
        "created_at",
        "updated_at",
        "retired_at",
    ];
    fn columns() -> Vec<Column<Self>> {
        vec![
            col("ID", |t| t.id.to_string()),
            col("NAME", |t| t.name.clone()),
            col("STYLE", |t| t.style.clone()),
            col("FOR", |t| {
                t.user_id
                    .map_or_else(|| "everyone".to_owned(), |u| format!("user {u}"))
            }),
            col("BODY", |t| {
                if t.body.is_empty() { "" } else { "own page" }.to_owned()
            }),
            col("RETIRED", |t| opt(&t.retired_at)),
        ]
    }
}

impl Record for primary::CreatedWxChain {
    const FIELDS: &'static [&'static str] = &[
        "code",
        "domain_id",
        "id",
        "status",
        "sub_type",
        "type",
        "render_url",
    ];
    fn columns() -> Vec<Column<Self>> {
        vec![
            col("ID", |c| c.id.to_string()),
            col("CODE", |c| c.code.clone()),
            col("URL", |c| c.render_url.clone()),
            col("SUB TYPE", |c| sub_type_label(c.sub_type).to_owned()),
        ]
    }
}

impl Record for compat::CreatedWxChain {
    const FIELDS: &'static [&'static str] = &["chain", "render_url"];
    fn columns() -> Vec<Column<Self>> {
        vec![
            col("CODE", |c| c.chain.clone()),
            col("URL", |c| c.render_url.clone()),
        ]
    }
}

/// What a `sub_type` leads to, in a word.
fn sub_type_label(sub_type: i64) -> &'static str {
    match sub_type {
        1 => "scan QR",
        2 => "account ID",
        3 => "mini-program",
        4 => "shop",
        5 => "work-chat URL",
        _ => "",
    }
}

impl Record for primary::WxChain {
    const FIELDS: &'static [&'static str] = &[
        "id",
        "code",
        "status",
        "status_label",
        "target_url",
        "type",
        "sub_type",
        "domain_id",
        "chain_title",
        "valid_time",
        "render_url",
        "group_id",
        "pv_today",
        "pv_history",
        "created_at",
        "updated_at",
        "wx_id",
        "scan_qr_url",
        "avatar",
        "guide_text",
        "promo_desc",
        "sub_title",
        "qwhk_url",
        "mini_appid",
        "mini_path",
        "shop_appid",
        "shop_path",
        "is_direct_jump",
        "show_type",
        "jump_template_id",
        "scan_tips",
        "qrcode_vc_type",
        "visit_type",
        "wxwork_type",
        "customer_id",
        "channel_list",
    ];
    fn columns() -> Vec<Column<Self>> {
        vec![
            col("ID", |c| c.chain.id.to_string()),
            col("CODE", |c| c.chain.code.clone()),
            col("URL", |c| c.chain.render_url.clone()),
            col("LEADS TO", |c| {
                if c.chain.chain_type == 3 {
                    "work chat".to_owned()
                } else {
                    sub_type_label(c.chain.sub_type.unwrap_or(1)).to_owned()
                }
            }),
            col("TITLE", |c| c.chain.chain_title.clone()),
            col("PAGE", |c| {
                if c.is_direct_jump == 1 {
                    "direct jump".to_owned()
                } else {
                    format!("template {}", c.jump_template_id)
                }
            }),
            col("STATUS", |c| c.chain.status_label.clone()),
            col("VISITS", |c| c.chain.pv_history.to_string()),
        ]
    }
}

impl Record for compat::Channel {
    const FIELDS: &'static [&'static str] = &[
        "id",
        "qrcode_name",
        "qrcode_time",
        "ratio",
        "sort",
        "status",
        "url",
        "url2",
        "visit_limit",
        "visit_count",
    ];
    fn columns() -> Vec<Column<Self>> {
        vec![
            col("CHANNEL", |c| c.id.to_string()),
            col("NAME", |c| c.qrcode_name.clone()),
            col("SORT", |c| c.sort.to_string()),
            col("RATIO", |c| c.ratio.to_string()),
            col("VISITS", |c| {
                if c.visit_limit == 0 {
                    c.visit_count.to_string()
                } else {
                    format!("{} / {}", c.visit_count, c.visit_limit)
                }
            }),
            col("ON", |c| {
                if c.status == 1 { "yes" } else { "no" }.to_owned()
            }),
            col("EXPIRES", |c| {
                if c.qrcode_time == 0 {
                    String::new()
                } else {
                    linkapi_core::clock::format_rfc3339(c.qrcode_time)
                }
            }),
            col("QR IMAGE", |c| c.url.clone()),
        ]
    }
}

impl Record for compat::WorkchatChainInfo {
    const FIELDS: &'static [&'static str] = &[
        "chain",
        "chain_id",
        "chain_title",
        "chain_type",
        "channel_list",
        "customer_id",
        "domain",
        "domain_url",
        "group_id",
        "is_direct_jump",
        "jump_template_id",
        "render_url",
        "status",
        "target_url",
        "wxwork_type",
        "pv_today",
        "pv_history",
    ];
    fn columns() -> Vec<Column<Self>> {
        vec![
            col("ID", |c| c.chain_id.to_string()),
            col("CODE", |c| c.chain.clone()),
            col("URL", |c| c.render_url.clone()),
            col("LEADS TO", |c| c.target_url.clone()),
            col("VIA", |c| {
                if c.wxwork_type == 1 {
                    format!("assembly {}", c.customer_id)
                } else {
                    "custom URL".to_owned()
                }
            }),
            col("CHANNEL", |c| {
                c.channel_list
                    .first()
                    .map_or_else(String::new, |ch| ch.id.to_string())
            }),
            col("VISITS", |c| c.pv_history.to_string()),
        ]
    }
}

impl Record for compat::AssemblyItem {
    const FIELDS: &'static [&'static str] = &[
        "auth_status",
        "create_time",
        "id",
        "link_id",
        "link_name",
        "url",
        "use_status",
        "use_status_description",
    ];
    fn columns() -> Vec<Column<Self>> {
        vec![
            col("ID", |a| a.id.to_string()),
            col("LINK", |a| a.link_id.clone()),
            col("NAME", |a| a.link_name.clone()),
            col("URL", |a| a.url.clone()),
            col("USE", |a| a.use_status_description.clone()),
            col("AUTH", |a| a.auth_status.clone()),
        ]
    }
}

impl Record for admin::Assembly {
    const FIELDS: &'static [&'static str] = &[
        "id",
        "user_id",
        "link_id",
        "link_name",
        "url",
        "auth_status",
        "use_status",
        "created_at",
    ];
    fn columns() -> Vec<Column<Self>> {
        vec![
            col("ID", |a| a.id.to_string()),
            col("USER", |a| a.user_id.to_string()),
            col("LINK", |a| a.link_id.clone()),
            col("NAME", |a| a.link_name.clone()),
            col("URL", |a| a.url.clone()),
            col("USE", |a| {
                match a.use_status {
                    1 => "in use",
                    2 => "invalid",
                    _ => "not in use",
                }
                .to_owned()
            }),
        ]
    }
}

#[cfg(test)]
mod tests {
    use linkapi_core::wire::{admin, primary};
    use serde::Serialize;

    use super::*;

    /// FIELDS must list exactly what the JSON form has, or `--json=FIELDS` lies.
    fn assert_fields<T: Record + Serialize>(sample: &T) {
        let value = serde_json::to_value(sample).expect("serializes");
        let mut keys: Vec<&str> = value
            .as_object()
            .expect("object")
            .keys()
            .map(String::as_str)
            .collect();
        let mut fields = T::FIELDS.to_vec();
        keys.sort_unstable();
        fields.sort_unstable();
        assert_eq!(keys, fields);
    }

    #[test]
    fn fields_match_the_wire_types() {
        let key = admin::Key {
            id: 1,
            user_id: 1,
            name: String::new(),
            prefix: String::new(),
            scopes: vec![],
            created_at: String::new(),
            expires_at: None,
            revoked_at: None,
            state: String::new(),
        };
        assert_fields(&primary::Chain {
            id: 1,
            code: String::new(),
            status: 1,
            status_label: String::new(),
            target_url: String::new(),
            chain_type: 1,
            sub_type: Some(1),
            domain_id: 1,
            chain_title: String::new(),
            valid_time: 0,
            render_url: String::new(),
            group_id: None,
            pv_today: 0,
            pv_history: 0,
            created_at: String::new(),
            updated_at: String::new(),
        });
        assert_fields(&primary::Group {
            chain_count: 0,
            chain_type: 1,
            created_at: String::new(),
            id: 1,
            name: String::new(),
        });
        assert_fields(&primary::Domain {
            domain: String::new(),
            id: 1,
            scene: String::new(),
            scheme: String::new(),
            domain_status: 1,
            is_my: 0,
        });
        assert_fields(&admin::User {
            id: 1,
            name: String::new(),
            daily_quota: None,
            created_at: String::new(),
        });
        assert_fields(&key);
        assert_fields(&admin::CreatedKey {
            key,
            api_key: String::new(),
        });
        assert_fields(&admin::Domain {
            id: 1,
            domain: String::new(),
            scheme: String::new(),
            scene: String::new(),
            shared: false,
            user_id: None,
            status: 1,
            created_at: String::new(),
        });
    }
}
