//! `linkapi admin ...`: users, keys (secret printed once), domains.

use crate::support::{Home, TestServer};

#[test]
fn users_keys_and_domains() {
    let server = TestServer::start();
    let home = Home::new();
    let user = home
        .admin(
            &server,
            &[
                "admin",
                "user",
                "create",
                "ops",
                "--daily-quota",
                "50",
                "--json",
            ],
        )
        .json();
    assert_eq!(user["daily_quota"], 50);
    let user_id = user["id"].as_i64().unwrap().to_string();
    let users = home.admin(&server, &["admin", "user", "list"]);
    assert_eq!(users.ok().lines().count(), 2);

    let key = home
        .admin(
            &server,
            &[
                "admin",
                "key",
                "create",
                "--user",
                &user_id,
                "--scope",
                "chains:read",
                "--name",
                "reader",
                "--json",
            ],
        )
        .json();
    let secret = key["api_key"].as_str().unwrap().to_owned();
    assert!(secret.starts_with("lk_"));
    let key_id = key["id"].as_i64().unwrap().to_string();
    let listed = home
        .admin(
            &server,
            &["admin", "key", "list", "--user", &user_id, "--json"],
        )
        .json();
    assert_eq!(listed[0]["state"], "active");
    assert!(
        !home
            .admin(&server, &["admin", "key", "list"])
            .stdout
            .contains(&secret),
        "secrets are never listed"
    );

    // The new key reads but may not write: 403 exits 4 with a hint.
    home.as_key(&server, &secret, &["chain", "list"]).ok();
    let forbidden = home.as_key(&server, &secret, &["chain", "create", "https://e.com"]);
    let stderr = forbidden.fails(4);
    assert!(
        stderr.contains("chains:write") && stderr.contains("hint:"),
        "{stderr}"
    );

    home.admin(&server, &["admin", "key", "revoke", &key_id, "--yes"])
        .ok();
    let revoked = home.as_key(&server, &secret, &["chain", "list"]);
    assert!(
        revoked.fails(4).contains("invalid api key"),
        "{}",
        revoked.stderr
    );

    let domain = home
        .admin(
            &server,
            &[
                "admin",
                "domain",
                "create",
                "go.example.com",
                "--shared",
                "--json",
            ],
        )
        .json();
    assert_eq!(domain["scheme"], "https");
    assert_eq!(domain["shared"], true);
    let domain_id = domain["id"].as_i64().unwrap().to_string();
    let off = home
        .admin(
            &server,
            &[
                "admin",
                "domain",
                "set-status",
                &domain_id,
                "not-effective",
                "--json=status",
            ],
        )
        .json();
    assert_eq!(off["status"], 99);
    let all = home.admin(&server, &["admin", "domain", "list"]);
    assert!(
        all.ok().contains("go.example.com\thttps\tnot effective"),
        "{}",
        all.stdout
    );
}

/// `--scope user` is every scope but admin: the key manages the user's links and webhooks
/// and is refused every `/admin` operation; `--scope '*'` says that it includes admin.
#[test]
fn scope_user_is_everything_but_admin_and_star_says_it_is_admin() {
    let server = TestServer::start();
    let home = Home::new();
    let (user, key) = home.user_with_key(&server, "script", &["user"]);
    let listed = home
        .admin(
            &server,
            &["admin", "key", "list", "--user", &user, "--json"],
        )
        .json();
    let scopes: Vec<&str> = listed[0]["scopes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap())
        .collect();
    assert_eq!(scopes.len(), 20, "{scopes:?}");
    for scope in ["chains:read", "chains:write", "webhooks:write", "card:read"] {
        assert!(scopes.contains(&scope), "{scopes:?}");
    }
    assert!(
        !scopes.contains(&"admin") && !scopes.contains(&"*"),
        "{scopes:?}"
    );
    home.as_key(&server, &key, &["chain", "create", "https://e.com/a"])
        .ok();
    let refused = home.as_key(&server, &key, &["admin", "user", "list"]);
    assert!(refused.fails(4).contains("admin"), "{}", refused.stderr);

    let star = home.admin(
        &server,
        &[
            "admin",
            "key",
            "create",
            "--user",
            &user,
            "--scope",
            "*",
            "--json=id",
        ],
    );
    star.ok();
    assert!(
        star.stderr.contains("/admin included") && star.stderr.contains("--scope user"),
        "{}",
        star.stderr
    );
}

#[test]
fn a_user_is_shown_edited_suspended_and_resumed() {
    let server = TestServer::start();
    let home = Home::new();
    let user = home
        .admin(&server, &["admin", "user", "create", "hana", "--json"])
        .json();
    let id = user["id"].as_i64().unwrap().to_string();
    let key = home
        .admin(
            &server,
            &[
                "admin",
                "key",
                "create",
                "--user",
                &id,
                "--scope",
                "chains:read",
                "--scope",
                "chains:write",
                "--json=api_key",
            ],
        )
        .json();
    let secret = key["api_key"].as_str().unwrap().to_owned();
    let created = home
        .as_key(
            &server,
            &secret,
            &["chain", "create", "https://h.example/", "--json"],
        )
        .json();
    let url = created["render_url"].as_str().unwrap().to_owned();

    let shown = home.admin(&server, &["admin", "user", "show", &id]);
    let table = shown.ok();
    assert!(table.contains("1 of "), "{table}");
    let usage = home
        .admin(&server, &["admin", "user", "show", &id, "--json=usage"])
        .json();
    assert_eq!(usage["usage"]["chains"], 1);
    assert_eq!(usage["usage"]["active_keys"], 1);

    let edited = home
        .admin(
            &server,
            &[
                "admin",
                "user",
                "edit",
                &id,
                "--name",
                "hana-k",
                "--daily-quota",
                "5",
                "--json",
            ],
        )
        .json();
    assert_eq!(
        (edited["name"].as_str(), edited["daily_quota"].as_i64()),
        (Some("hana-k"), Some(5))
    );
    let back = home
        .admin(
            &server,
            &[
                "admin",
                "user",
                "edit",
                &id,
                "--daily-quota",
                "default",
                "--json",
            ],
        )
        .json();
    assert_eq!(back["daily_quota"], serde_json::Value::Null);
    home.admin(
        &server,
        &["admin", "user", "edit", &id, "--daily-quota", "-3"],
    )
    .fails(2);
    home.admin(&server, &["admin", "user", "edit", &id])
        .fails(2);

    // Suspension asks first; without a terminal and --yes it cannot ask.
    home.admin(&server, &["admin", "user", "suspend", &id])
        .fails(2);
    let suspended = home.admin(&server, &["admin", "user", "suspend", &id, "--yes"]);
    assert!(
        suspended.ok().ends_with("suspended\n"),
        "{}",
        suspended.stdout
    );
    let refused = home.as_key(&server, &secret, &["chain", "list"]);
    assert!(refused.fails(4).contains("suspended"), "{}", refused.stderr);
    assert_eq!(crate::support::fetch_status(&url), 302);
    home.admin(
        &server,
        &["admin", "user", "suspend", &id, "--redirects", "--yes"],
    )
    .ok();
    assert_eq!(crate::support::fetch_status(&url), 404);
    let list = home.admin(&server, &["admin", "user", "list"]);
    assert!(
        list.ok().contains("suspended, links stopped"),
        "{}",
        list.stdout
    );

    home.admin(&server, &["admin", "user", "resume", &id]).ok();
    home.as_key(&server, &secret, &["chain", "list"]).ok();
    assert_eq!(crate::support::fetch_status(&url), 302);
}

#[test]
fn templates_are_added_listed_edited_and_retired() {
    let server = TestServer::start();
    let home = Home::new();
    let page = home.dir.path().join("page.html");
    std::fs::write(&page, "<h1>{{ title }}</h1>").unwrap();
    let added = home
        .admin(
            &server,
            &[
                "admin",
                "template",
                "add",
                "Spring",
                "--style",
                "card",
                "--body-file",
                &page.display().to_string(),
                "--json",
            ],
        )
        .json();
    let id = added["id"].as_i64().unwrap().to_string();
    assert_eq!(added["body"], "<h1>{{ title }}</h1>");
    assert_eq!(added["style"], "card");

    let offered = home.admin(&server, &["template", "list", "--json"]).json();
    let names: Vec<&str> = offered
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["Generic", "Card", "Poster", "Spring"]);
    let table = home.admin(&server, &["template", "list"]);
    assert!(
        table.stderr.contains("use 0 of 10 templates"),
        "{}",
        table.stderr
    );

    let edited = home
        .admin(
            &server,
            &[
                "admin", "template", "edit", &id, "--name", "Summer", "--json",
            ],
        )
        .json();
    assert_eq!(edited["name"], "Summer");
    home.admin(&server, &["admin", "template", "edit", "0", "--name", "x"])
        .fails(1);
    home.admin(&server, &["admin", "template", "retire", &id])
        .ok();
    let all = home
        .admin(&server, &["admin", "template", "list", "--json"])
        .json();
    assert!(
        all.as_array()
            .unwrap()
            .iter()
            .any(|t| t["retired_at"].is_string())
    );
    let offered = home.admin(&server, &["template", "list", "--json"]).json();
    assert_eq!(offered.as_array().unwrap().len(), 3);
}
