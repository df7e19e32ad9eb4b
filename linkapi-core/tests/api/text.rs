//! Text and URLs as clients send them: control, NUL and bidirectional-override characters are
//! refused, LIKE wildcards, SQL and line breaks stay text, and only http(s) URLs with a real
//! host are targets.

use crate::support::{ADMIN_KEY, TestServer};
use reqwest::StatusCode;
use serde_json::json;

#[tokio::test]
async fn a_nul_byte_or_control_character_in_a_search_is_refused_and_like_wildcards_are_text() {
    let server = TestServer::start().await;
    let (_, key) = server.full_user("searcher").await;
    for (title, code) in [("alpha", "s-1"), ("100% off", "s-2"), ("a_b", "s-3")] {
        server
            .create_chain(
                &key,
                json!({"target_url": "https://example.com/", "chain_title": title, "code": code}),
            )
            .await;
    }
    for q in ["al%00QQQ", "%00", "a%07"] {
        server
            .get(&format!("/chains?q={q}"), &key)
            .await
            .assert_primary_error(StatusCode::BAD_REQUEST, "invalid_query");
        server
            .get(&format!("/wx-chains?q={q}"), &key)
            .await
            .assert_primary_error(StatusCode::BAD_REQUEST, "invalid_query");
    }
    server
        .post(
            "/openapi/v1/chain/list",
            &key,
            json!({"keyword": "al\u{0}QQQ"}),
        )
        .await
        .assert_compat_error(StatusCode::BAD_REQUEST);
    let titles = |reply: crate::support::Reply| -> Vec<String> {
        reply.primary_data()["list"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["chain_title"].as_str().unwrap().to_owned())
            .collect()
    };
    assert_eq!(
        titles(server.get("/chains?q=%25", &key).await),
        ["100% off"]
    );
    assert_eq!(titles(server.get("/chains?q=_", &key).await), ["a_b"]);
    assert_eq!(titles(server.get("/chains?q=al", &key).await), ["alpha"]);
}

#[tokio::test]
async fn nul_control_and_bidi_override_characters_are_refused_in_titles_and_names() {
    let server = TestServer::start().await;
    let (_, key) = server.full_user("namer").await;
    for bad in [
        "a\u{0}b",
        "bell\u{7}",
        "evil\u{202E}gnp.exe",
        "iso\u{2066}late",
        "tab\there",
        // At either end too: refused as given, not trimmed away.
        "\u{b}leading",
        "trailing\t",
    ] {
        server
            .post(
                "/chains",
                &key,
                json!({"target_url": "https://e.com/", "chain_title": bad}),
            )
            .await
            .assert_primary_error(StatusCode::BAD_REQUEST, "invalid_title");
        server
            .post("/groups", &key, json!({"name": bad}))
            .await
            .assert_primary_error(StatusCode::BAD_REQUEST, "invalid_name");
        server
            .post("/admin/users", ADMIN_KEY, json!({"name": bad}))
            .await
            .assert_primary_error(StatusCode::BAD_REQUEST, "invalid_name");
        server
            .post("/admin/templates", ADMIN_KEY, json!({"name": bad}))
            .await
            .assert_primary_error(StatusCode::BAD_REQUEST, "invalid_name");
        server
            .post(
                "/wx-chains",
                &key,
                json!({"scan_qr_url": "https://e.com/q.png", "guide_text": bad}),
            )
            .await
            .assert_primary_error(StatusCode::BAD_REQUEST, "invalid_text");
        // A page path inside an app takes no space at all, but refuses what text refuses.
        for (sub_type, app, path) in [
            (3, "mini_appid", "mini_path"),
            (4, "shop_appid", "shop_path"),
        ] {
            server
                .post(
                    "/wx-chains",
                    &key,
                    json!({"sub_type": sub_type, app: "wx0123456789abcdef", path: bad}),
                )
                .await
                .assert_primary_error(StatusCode::BAD_REQUEST, "invalid_destination");
        }
    }
    // Nothing was created.
    assert_eq!(server.get("/chains", &key).await.primary_data()["total"], 0);
    assert_eq!(
        server
            .get("/groups", &key)
            .await
            .primary_data()
            .as_array()
            .unwrap()
            .len(),
        0
    );
    // Line breaks stay allowed where text is shown as paragraphs.
    let page = server
        .post(
            "/wx-chains",
            &key,
            json!({"scan_qr_url": "https://e.com/q.png", "promo_desc": "one\ntwo"}),
        )
        .await;
    assert_eq!(page.status, StatusCode::CREATED, "{}", page.text);
}

#[tokio::test]
async fn line_breaks_never_reach_a_header_and_sql_metacharacters_are_text() {
    let server = TestServer::start().await;
    let (_, key) = server.full_user("injector").await;
    // A line break in a target is refused, never stripped into some other URL.
    for broken in [
        "https://e.com/a\r\nSet-Cookie: pwned=1\r\n",
        "https://e.com/a\nb",
        "https://e.com/a\tb",
    ] {
        server
            .post("/chains", &key, json!({"target_url": broken}))
            .await
            .assert_primary_error(StatusCode::BAD_REQUEST, "invalid_target_url");
    }
    // What could split a header anyway arrives percent-encoded.
    let chain = server
        .create_chain(
            &key,
            json!({"target_url": "https://e.com/a%0d%0aSet-Cookie:%20pwned=1",
                   "chain_title": "'; DROP TABLE chains; --", "code": "crlf"}),
        )
        .await;
    assert!(!chain["target_url"].as_str().unwrap().contains('\n'));
    let visit = server.visit("crlf").await;
    assert_eq!(visit.status, StatusCode::FOUND);
    assert!(visit.headers.get("set-cookie").is_none());
    let location = visit.header("location").unwrap();
    assert!(!location.contains(['\r', '\n']), "{location}");
    // The quote and comment are stored and found as text; the table is still there.
    let found = server.get("/chains?q=DROP%20TABLE", &key).await;
    assert_eq!(found.primary_data()["total"], 1);
    assert_eq!(
        found.primary_data()["list"][0]["chain_title"],
        "'; DROP TABLE chains; --"
    );
    let group = server
        .post("/groups", &key, json!({"name": "x' OR '1'='1"}))
        .await;
    assert_eq!(group.status, StatusCode::CREATED, "{}", group.text);
    assert_eq!(
        server
            .get("/groups", &key)
            .await
            .primary_data()
            .as_array()
            .unwrap()
            .len(),
        1
    );
}

#[tokio::test]
async fn a_host_made_of_dots_is_not_a_target() {
    let server = TestServer::start().await;
    let (_, key) = server.full_user("dotty").await;
    for target in [
        "https://./",
        "https://../",
        "http://a..b/",
        "https://.example.com/",
    ] {
        server
            .post("/chains", &key, json!({"target_url": target}))
            .await
            .assert_primary_error(StatusCode::BAD_REQUEST, "invalid_target_url");
    }
    assert_eq!(server.get("/chains", &key).await.primary_data()["total"], 0);
}

#[tokio::test]
async fn script_data_and_file_urls_are_never_targets() {
    let server = TestServer::start().await;
    let (_, key) = server.full_user("schemer").await;
    for target in [
        "javascript:alert(1)",
        "JaVaScRiPt:alert(1)",
        " javascript:alert(1)",
        "data:text/html,<script>alert(1)</script>",
        "file:///etc/passwd",
        "vbscript:msgbox(1)",
        "//evil.example.com/",
    ] {
        server
            .post("/chains", &key, json!({"target_url": target}))
            .await
            .assert_primary_error(StatusCode::BAD_REQUEST, "invalid_target_url");
        server
            .post(
                "/openapi/v1/chain/create",
                &key,
                json!({"target_url": target}),
            )
            .await
            .assert_compat_error(StatusCode::BAD_REQUEST);
    }
    assert_eq!(server.get("/chains", &key).await.primary_data()["total"], 0);
}
