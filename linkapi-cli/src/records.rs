//! How each API object prints: its JSON fields and its table columns.

use linkapi_core::wire::{admin, primary};

use crate::output::{Column, Record, opt};

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
            Column {
                header: "ID",
                cell: |c| c.id.to_string(),
            },
            Column {
                header: "CODE",
                cell: |c| c.code.clone(),
            },
            Column {
                header: "URL",
                cell: |c| c.render_url.clone(),
            },
            Column {
                header: "TARGET",
                cell: |c| c.target_url.clone(),
            },
            Column {
                header: "TITLE",
                cell: |c| c.chain_title.clone(),
            },
            Column {
                header: "STATUS",
                cell: |c| c.status_label.clone(),
            },
            Column {
                header: "VISITS",
                cell: |c| c.pv_history.to_string(),
            },
            Column {
                header: "CREATED",
                cell: |c| c.created_at.clone(),
            },
        ]
    }
}

impl Record for primary::Group {
    const FIELDS: &'static [&'static str] =
        &["chain_count", "chain_type", "created_at", "id", "name"];
    fn columns() -> Vec<Column<Self>> {
        vec![
            Column {
                header: "ID",
                cell: |g| g.id.to_string(),
            },
            Column {
                header: "NAME",
                cell: |g| g.name.clone(),
            },
            Column {
                header: "TYPE",
                cell: |g| g.chain_type.to_string(),
            },
            Column {
                header: "CHAINS",
                cell: |g| g.chain_count.to_string(),
            },
            Column {
                header: "CREATED",
                cell: |g| g.created_at.clone(),
            },
        ]
    }
}

impl Record for primary::Domain {
    const FIELDS: &'static [&'static str] =
        &["domain", "id", "scene", "scheme", "domain_status", "is_my"];
    fn columns() -> Vec<Column<Self>> {
        vec![
            Column {
                header: "ID",
                cell: |d| d.id.to_string(),
            },
            Column {
                header: "DOMAIN",
                cell: |d| d.domain.clone(),
            },
            Column {
                header: "SCHEME",
                cell: |d| d.scheme.clone(),
            },
            Column {
                header: "STATUS",
                cell: |d| domain_status(d.domain_status),
            },
            Column {
                header: "MINE",
                cell: |d| if d.is_my == 1 { "yes" } else { "no" }.into(),
            },
            Column {
                header: "SCENE",
                cell: |d| d.scene.clone(),
            },
        ]
    }
}

impl Record for admin::User {
    const FIELDS: &'static [&'static str] = &["id", "name", "daily_quota", "created_at"];
    fn columns() -> Vec<Column<Self>> {
        vec![
            Column {
                header: "ID",
                cell: |u| u.id.to_string(),
            },
            Column {
                header: "NAME",
                cell: |u| u.name.clone(),
            },
            Column {
                header: "DAILY QUOTA",
                cell: |u| opt(&u.daily_quota),
            },
            Column {
                header: "CREATED",
                cell: |u| u.created_at.clone(),
            },
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
            Column {
                header: "ID",
                cell: |k| k.id.to_string(),
            },
            Column {
                header: "USER",
                cell: |k| k.user_id.to_string(),
            },
            Column {
                header: "NAME",
                cell: |k| k.name.clone(),
            },
            Column {
                header: "PREFIX",
                cell: |k| k.prefix.clone(),
            },
            Column {
                header: "SCOPES",
                cell: |k| k.scopes.join(" "),
            },
            Column {
                header: "STATE",
                cell: |k| k.state.clone(),
            },
            Column {
                header: "EXPIRES",
                cell: |k| opt(&k.expires_at),
            },
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
            Column {
                header: "ID",
                cell: |k| k.key.id.to_string(),
            },
            Column {
                header: "USER",
                cell: |k| k.key.user_id.to_string(),
            },
            Column {
                header: "SCOPES",
                cell: |k| k.key.scopes.join(" "),
            },
            Column {
                header: "API KEY",
                cell: |k| k.api_key.clone(),
            },
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
            Column {
                header: "ID",
                cell: |d| d.id.to_string(),
            },
            Column {
                header: "DOMAIN",
                cell: |d| d.domain.clone(),
            },
            Column {
                header: "SCHEME",
                cell: |d| d.scheme.clone(),
            },
            Column {
                header: "STATUS",
                cell: |d| domain_status(d.status),
            },
            Column {
                header: "SHARED",
                cell: |d| if d.shared { "yes" } else { "no" }.into(),
            },
            Column {
                header: "OWNER",
                cell: |d| opt(&d.user_id),
            },
            Column {
                header: "SCENE",
                cell: |d| d.scene.clone(),
            },
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
