//! `linkapi wx`, `card`, `workchat` and `admin workchat` through the real binary.

use crate::support::{Home, TestServer};

fn qr(name: &str) -> String {
    format!("https://cdn.example.com/{name}.png")
}

#[test]
fn messaging_app_chains_are_created_edited_listed_and_deleted() {
    let server = TestServer::start();
    let home = Home::new();
    let created = home
        .admin(
            &server,
            &[
                "wx",
                "create",
                "--title",
                "Join the group",
                "--channel",
                &qr("g1"),
                "--channel",
                &qr("g2"),
                "--rotation",
                "round-robin",
                "--cap",
                "daily",
                "--code",
                "join-wx",
                "--json",
            ],
        )
        .json();
    assert_eq!(created["code"], "join-wx");
    assert_eq!(created["sub_type"], 1);

    let info = home
        .admin(&server, &["wx", "info", "join-wx", "--json"])
        .json();
    assert_eq!(info["visit_type"], 4);
    assert_eq!(info["qrcode_vc_type"], 2);
    let channels = info["channel_list"].as_array().unwrap();
    assert_eq!(channels.len(), 2);
    assert_eq!(channels[0]["url"], qr("g1"));
    let first = channels[0]["id"].as_i64().unwrap();
    let second = channels[1]["id"].as_i64().unwrap();

    // A full edit from a file: limit one channel, remove the other, add a third.
    let file = home.dir.path().join("edit.json");
    std::fs::write(
        &file,
        format!(
            r#"{{"channel_list": [{{"id": {first}, "visit_limit": 50, "qrcode_name": "first"}},
                                 {{"id": {second}, "is_delete": 1}},
                                 {{"url": "{}", "sort": 5, "ratio": 2}}]}}"#,
            qr("g3")
        ),
    )
    .unwrap();
    let edited = home
        .admin(
            &server,
            &[
                "wx",
                "edit",
                "join-wx",
                "--from-file",
                &file.display().to_string(),
                "--sub-title",
                "Scan me",
                "--json",
            ],
        )
        .json();
    assert_eq!(edited["sub_title"], "Scan me");
    let urls: Vec<&str> = edited["channel_list"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["url"].as_str().unwrap())
        .collect();
    assert_eq!(urls, [qr("g1"), qr("g3")]);
    assert_eq!(edited["channel_list"][0]["visit_limit"], 50);

    // On a terminal, info shows the chain and a table of its channels.
    let shown = home.admin_on_tty(&server, "wx info join-wx");
    assert!(shown.stdout.contains("CHANNEL"), "{}", shown.stdout);
    assert!(shown.stdout.contains("0 / 50"), "{}", shown.stdout);
    // Piped, the chain's row alone, as every record prints (its channels are in --json).
    let piped = home.admin(&server, &["wx", "info", "join-wx"]);
    assert_eq!(piped.ok().lines().count(), 1, "{}", piped.stdout);

    let mini = home
        .admin(
            &server,
            &[
                "wx",
                "create",
                "--sub-type",
                "mini-program",
                "--mini-appid",
                "wx0123456789abcdef",
                "--mini-path",
                "pages/index",
                "--direct-jump",
                "--json",
            ],
        )
        .json();
    let listed = home.admin(&server, &["wx", "list", "--json=code"]).json();
    let codes: Vec<&str> = listed
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["code"].as_str().unwrap())
        .collect();
    assert_eq!(codes, [mini["code"].as_str().unwrap(), "join-wx"]);
    // Fields of the chain part may be asked for too (`rules` and `archived_at` once were not).
    let chosen = home
        .admin(&server, &["wx", "list", "--json=code,rules,archived_at"])
        .json();
    assert_eq!(
        chosen[1],
        serde_json::json!({"code": "join-wx", "rules": [], "archived_at": null})
    );

    // Refusals: the server's message reaches the user; bad files are usage errors.
    let refused = home.admin(&server, &["wx", "create", "--sub-type", "account"]);
    assert!(refused.fails(1).contains("wx_id"), "{}", refused.stderr);
    let bad = home.dir.path().join("bad.json");
    std::fs::write(&bad, r#"{"chanel_list": []}"#).unwrap();
    let usage = home.admin(
        &server,
        &["wx", "create", "--from-file", &bad.display().to_string()],
    );
    assert!(usage.fails(2).contains("chanel_list"), "{}", usage.stderr);

    home.admin(&server, &["wx", "delete", "join-wx", "--yes"])
        .ok();
    home.admin(&server, &["wx", "info", "join-wx"]).fails(1);
}

#[test]
fn card_chains_have_their_own_listing() {
    let server = TestServer::start();
    let home = Home::new();
    let card = home
        .admin(
            &server,
            &["card", "create", "--qr-url", &qr("card"), "--json"],
        )
        .json();
    assert!(
        card["render_url"]
            .as_str()
            .unwrap()
            .ends_with(card["chain"].as_str().unwrap())
    );
    let cards = home.admin(&server, &["card", "list", "--json"]).json();
    assert_eq!(cards.as_array().unwrap().len(), 1);
    assert_eq!(cards[0]["type"], 4);
    let wx = home.admin(&server, &["wx", "list", "--json"]).json();
    assert_eq!(wx, serde_json::json!([]));
    let refused = home.admin(
        &server,
        &["card", "create", "--qr-url", &qr("card"), "--template", "1"],
    );
    assert!(
        refused.fails(1).contains("jump_template_id"),
        "{}",
        refused.stderr
    );
}

#[test]
fn work_chat_chains_and_data() {
    let server = TestServer::start();
    let home = Home::new();
    let (user, key) = home.user_with_key(
        &server,
        "sales",
        &["chains:read", "chains:write", "workchat:read"],
    );
    let entry = home
        .admin(
            &server,
            &[
                "admin",
                "workchat",
                "add-assembly",
                "--user",
                &user,
                "--link-id",
                "cawcde",
                "--name",
                "Sales",
                "--url",
                "https://work.example.com/ca/cawcde",
                "--json",
            ],
        )
        .json();
    let entry_id = entry["id"].as_i64().unwrap().to_string();
    let mine = home
        .as_key(&server, &key, &["workchat", "assemblies", "--json"])
        .json();
    assert_eq!(mine[0]["link_id"], "cawcde");

    let created = home
        .as_key(
            &server,
            &key,
            &[
                "workchat",
                "create",
                "--customer",
                &entry_id,
                "--title",
                "Sales",
                "--json",
            ],
        )
        .json();
    let code = created["chain"].as_str().unwrap().to_owned();
    let info = home
        .as_key(&server, &key, &["workchat", "info", &code, "--json"])
        .json();
    assert_eq!(info["target_url"], "https://work.example.com/ca/cawcde");
    let channel = info["channel_list"][0]["id"].as_i64().unwrap().to_string();
    let edited = home
        .as_key(
            &server,
            &key,
            &[
                "workchat",
                "edit",
                &code,
                "--channel",
                &channel,
                "--url",
                "https://work.example.com/u/42",
                "--json",
            ],
        )
        .json();
    assert_eq!(edited["target_url"], "https://work.example.com/u/42");
    assert_eq!(edited["wxwork_type"], 2);
    let listed = home
        .as_key(&server, &key, &["workchat", "list", "--json=code"])
        .json();
    assert_eq!(listed[0]["code"], code.as_str());
    home.as_key(&server, &key, &["workchat", "create"]).fails(2);

    // Transfers: loaded from JSON lines, read back page by page or all at once.
    let file = home.dir.path().join("transfers.jsonl");
    let lines: Vec<String> = (0..250)
        .map(|i| format!(r#"{{"external_userid": "wm{i:03}", "name": "C{i}", "status": 1}}"#))
        .collect();
    std::fs::write(&file, lines.join("\n")).unwrap();
    home.admin(
        &server,
        &[
            "admin",
            "workchat",
            "load-transfers",
            "--user",
            &user,
            "--corp",
            "ww1",
            "--handover",
            "alice",
            "--takeover",
            "bob",
            &file.display().to_string(),
        ],
    )
    .ok();
    let all = home
        .as_key(
            &server,
            &key,
            &["workchat", "transfers", "--corp", "ww1", "--all", "--json"],
        )
        .json();
    assert_eq!(all.as_array().unwrap().len(), 250);
    assert_eq!(all[249]["name"], "C249");
    let first = home.as_key(
        &server,
        &key,
        &["workchat", "transfers", "--corp", "ww1", "--json"],
    );
    assert_eq!(first.json().as_array().unwrap().len(), 100);
    assert!(first.stderr.contains("--cursor t"), "{}", first.stderr);
    std::fs::write(
        &file,
        "{\"external_userid\": \"x\", \"status\": 1}\nnot json\n",
    )
    .unwrap();
    let bad = home.admin(
        &server,
        &[
            "admin",
            "workchat",
            "load-transfers",
            "--user",
            &user,
            "--corp",
            "ww1",
            "--handover",
            "alice",
            "--takeover",
            "bob",
            &file.display().to_string(),
        ],
    );
    assert!(bad.fails(2).contains("line 2"), "{}", bad.stderr);

    home.as_key(
        &server,
        &key,
        &["workchat", "delete", &code, "--code", "--yes"],
    )
    .ok();
    home.as_key(&server, &key, &["workchat", "info", &code])
        .fails(1);
}

#[test]
fn a_messaging_app_chains_qr_code_is_drawn_on_a_terminal_and_written_as_an_image_elsewhere() {
    let server = TestServer::start();
    let home = Home::new();
    let created = home
        .admin(
            &server,
            &[
                "wx",
                "create",
                "--title",
                "Poster",
                "--qr-url",
                &qr("p"),
                "--code",
                "wx-qr",
                "--json",
            ],
        )
        .json();
    let link = created["render_url"].as_str().unwrap().to_owned();
    let id = created["id"].as_i64().unwrap().to_string();
    home.qr_every_way(&server, &["wx", "qr"], &id, &link);
    let svg = home.admin(&server, &["wx", "qr", "wx-qr", "--format", "svg"]);
    assert!(svg.ok().contains("<svg"), "by code too");

    // A short chain is no messaging-app chain.
    home.admin(
        &server,
        &[
            "chain",
            "create",
            "https://example.com/s",
            "--code",
            "short-qr",
        ],
    )
    .ok();
    home.admin(&server, &["wx", "qr", "short-qr"]).fails(1);
}
