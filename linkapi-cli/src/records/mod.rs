//! How each API object prints: its JSON fields and its table columns.

mod page_chains;

use linkapi_core::wire::{admin, compat, primary};

use crate::output::{Column, Record, col, opt};

impl Record for primary::Chain {
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
    fn columns() -> Vec<Column<Self>> {
        vec![
            col("CHAIN", |b| b.chain_id.to_string()),
            col("BY", |b| b.dimension.clone()),
            col("DAYS", |b| b.days.to_string()),
            col("OTHER", |b| b.other_clicks.to_string()),
        ]
    }
}

impl Record for admin::OrphanVisits {
    fn columns() -> Vec<Column<Self>> {
        vec![
            col("DAYS", |s| s.days.to_string()),
            col("VISITS", |s| {
                s.list.iter().map(|c| c.visits).sum::<i64>().to_string()
            }),
        ]
    }
}

impl Record for primary::UserStats {
    fn columns() -> Vec<Column<Self>> {
        vec![
            col("DAYS", |s| s.days.to_string()),
            col("VISITS", |s| s.total_clicks.to_string()),
            col("BOTS", |s| s.bot_clicks.to_string()),
        ]
    }
}

impl Record for primary::ChainStats {
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

    use super::*;

    /// The schema's fields must be exactly what the JSON form has, or `--json=FIELDS` lies.
    fn assert_fields<T: Record>(sample: &T) {
        let value = serde_json::to_value(sample).expect("serializes");
        let mut keys: Vec<&str> = value
            .as_object()
            .expect("object")
            .keys()
            .map(String::as_str)
            .collect();
        let mut fields = crate::output::schema_fields::<T>();
        keys.sort_unstable();
        fields.sort_unstable();
        assert_eq!(keys, fields, "{}", std::any::type_name::<T>());
    }

    #[test]
    fn fields_a_hand_kept_list_had_lost_are_read_from_the_schema() {
        let has = |fields: Vec<String>, name: &str| fields.iter().any(|f| f == name);
        assert!(has(
            crate::output::schema_fields::<primary::ChainStats>(),
            "bot_clicks"
        ));
        for name in ["rules", "archived_at", "channel_list", "id"] {
            assert!(has(
                crate::output::schema_fields::<primary::WxChain>(),
                name
            ));
        }
    }

    /// A sample of `T` from `json`, which names every field that has no default and those
    /// left out of the JSON form when empty: an optional field a type gains needs no line here.
    fn sample<T: serde::de::DeserializeOwned>(json: serde_json::Value) -> T {
        serde_json::from_value(json).expect("a sample of the type")
    }

    #[test]
    fn fields_match_the_wire_types() {
        use serde_json::json;
        let key = json!({"id": 1, "user_id": 1, "name": "", "prefix": "", "scopes": [],
            "created_at": "", "state": ""});
        let user = json!({"id": 1, "name": "", "created_at": "", "suspended": false,
            "suspend_redirects": false});
        assert_fields(&sample::<primary::Chain>(json!({
            "id": 1, "code": "", "status": 1, "status_label": "", "target_url": "", "type": 1,
            "sub_type": 1, "domain_id": 1, "chain_title": "", "valid_time": 0, "render_url": "",
            "pv_today": 0, "pv_history": 0, "created_at": "", "updated_at": ""
        })));
        assert_fields(&sample::<primary::Group>(json!({
            "chain_count": 0, "chain_type": 1, "created_at": "", "id": 1, "name": ""
        })));
        assert_fields(&sample::<primary::Domain>(json!({
            "domain": "", "id": 1, "scene": "", "scheme": "", "domain_status": 1, "is_my": 0
        })));
        assert_fields(&sample::<admin::User>(user.clone()));
        let mut detail = user;
        detail["usage"] = json!({"chains": 0, "created_today": 0, "daily_quota": 0,
            "upload_bytes": 0, "uploads": 0, "active_keys": 0, "keys": 0});
        assert_fields(&sample::<admin::UserDetail>(detail));
        assert_fields(&sample::<admin::Key>(key.clone()));
        let mut created = key;
        created["api_key"] = json!("");
        assert_fields(&sample::<admin::CreatedKey>(created));
        assert_fields(&sample::<admin::Domain>(json!({
            "id": 1, "domain": "", "scheme": "", "scene": "", "shared": false, "status": 1,
            "created_at": ""
        })));
        assert_fields(&sample::<primary::ChainBreakdown>(json!({
            "chain_id": 1, "dimension": "", "days": 7, "items": [], "other_clicks": 0
        })));
        assert_fields(&sample::<primary::UserStats>(json!({
            "days": 7, "total_clicks": 0, "bot_clicks": 0, "top_chains": []
        })));
    }
}
