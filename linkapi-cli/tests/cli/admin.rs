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
