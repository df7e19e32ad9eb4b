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
