//! How each API object prints: its JSON fields and its table columns.

mod page_chains;

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
        "rules",
        "pv_today",
        "pv_history",
        "created_at",
        "updated_at",
        "archived_at",
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

impl Record for primary::ChainBreakdown {
    const FIELDS: &'static [&'static str] =
        &["chain_id", "dimension", "days", "items", "other_clicks"];
    fn columns() -> Vec<Column<Self>> {
        vec![
            col("CHAIN", |b| b.chain_id.to_string()),
            col("BY", |b| b.dimension.clone()),
            col("DAYS", |b| b.days.to_string()),
            col("OTHER", |b| b.other_clicks.to_string()),
        ]
    }
}

impl Record for primary::UserStats {
    const FIELDS: &'static [&'static str] = &["days", "total_clicks", "bot_clicks", "top_chains"];
    fn columns() -> Vec<Column<Self>> {
        vec![
            col("DAYS", |s| s.days.to_string()),
            col("VISITS", |s| s.total_clicks.to_string()),
            col("BOTS", |s| s.bot_clicks.to_string()),
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
    const FIELDS: &'static [&'static str] = &[
        "id",
        "name",
        "daily_quota",
        "created_at",
        "suspended",
        "suspended_at",
        "suspend_redirects",
    ];
    fn columns() -> Vec<Column<Self>> {
        vec![
            col("ID", |u| u.id.to_string()),
            col("NAME", |u| u.name.clone()),
            col("DAILY QUOTA", |u| opt(&u.daily_quota)),
            col("CREATED", |u| u.created_at.clone()),
            col("STATE", user_state),
        ]
    }
}

fn user_state(u: &admin::User) -> String {
    match (u.suspended, u.suspend_redirects) {
        (false, _) => "active".into(),
        (true, false) => "suspended".into(),
        (true, true) => "suspended, links stopped".into(),
    }
}

impl Record for admin::UserDetail {
    const FIELDS: &'static [&'static str] = &[
        "id",
        "name",
        "daily_quota",
        "created_at",
        "suspended",
        "suspended_at",
        "suspend_redirects",
        "usage",
    ];
    fn columns() -> Vec<Column<Self>> {
        vec![
            col("ID", |d| d.user.id.to_string()),
            col("NAME", |d| d.user.name.clone()),
            col("STATE", |d| user_state(&d.user)),
            col("CHAINS", |d| d.usage.chains.to_string()),
            col("CREATED TODAY", |d| {
                format!("{} of {}", d.usage.created_today, d.usage.daily_quota)
            }),
            col("UPLOADS", |d| {
                format!("{} ({} bytes)", d.usage.uploads, d.usage.upload_bytes)
            }),
            col("KEYS", |d| {
                format!("{} active of {}", d.usage.active_keys, d.usage.keys)
            }),
            col("CREATED", |d| d.user.created_at.clone()),
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

impl Record for primary::Webhook {
    const FIELDS: &'static [&'static str] = &[
        "id",
        "url",
        "events",
        "description",
        "enabled",
        "failing_since",
        "secret",
        "created_at",
        "updated_at",
    ];
    fn columns() -> Vec<Column<Self>> {
        vec![
            col("ID", |w| w.id.to_string()),
            col("URL", |w| w.url.clone()),
            col("EVENTS", |w| {
                let names: Vec<&str> = w.events.iter().map(|e| e.name()).collect();
                names.join(",")
            }),
            col("ENABLED", |w| {
                if w.enabled { "yes" } else { "no" }.to_owned()
            }),
            col("FAILING", |w| opt(&w.failing_since)),
            col("DESCRIPTION", |w| opt(&w.description)),
            col("CREATED", |w| w.created_at.clone()),
        ]
    }
}

impl Record for primary::Delivery {
    const FIELDS: &'static [&'static str] = &[
        "id",
        "event_id",
        "event_type",
        "at",
        "ok",
        "status",
        "error",
        "latency_ms",
    ];
    fn columns() -> Vec<Column<Self>> {
        vec![
            col("AT", |d| d.at.clone()),
            col("EVENT", |d| d.event_type.clone()),
            col("ID", |d| d.event_id.clone()),
            col("OK", |d| if d.ok { "yes" } else { "no" }.to_owned()),
            col("STATUS", |d| opt(&d.status)),
            col("MS", |d| d.latency_ms.to_string()),
            col("ERROR", |d| opt(&d.error)),
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
            rules: Vec::new(),
            pv_today: 0,
            pv_history: 0,
            created_at: String::new(),
            updated_at: String::new(),
            archived_at: None,
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
        let user = admin::User {
            id: 1,
            name: String::new(),
            daily_quota: None,
            created_at: String::new(),
            suspended: false,
            suspended_at: None,
            suspend_redirects: false,
        };
        assert_fields(&user);
        assert_fields(&admin::UserDetail {
            user,
            usage: admin::Usage {
                chains: 0,
                created_today: 0,
                daily_quota: 0,
                upload_bytes: 0,
                uploads: 0,
                active_keys: 0,
                keys: 0,
            },
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
        assert_fields(&primary::ChainBreakdown {
            chain_id: 1,
            dimension: String::new(),
            days: 7,
            items: Vec::new(),
            other_clicks: 0,
        });
        assert_fields(&primary::UserStats {
            days: 7,
            total_clicks: 0,
            bot_clicks: 0,
            top_chains: Vec::new(),
        });
    }
}
