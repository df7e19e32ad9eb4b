//! Input an attacker (or a fuzzer) sends, and what the server must do with it: refuse it with
//! a message in the client's terms, and change nothing.

use std::num::NonZeroU32;

use reqwest::{Method, StatusCode};
use serde_json::json;

use crate::support::{ADMIN_KEY, Options, TestServer};
use linkapi_core::service::RateLimit;

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
async fn decoding_errors_say_what_a_field_must_be_not_which_rust_type_failed() {
    let server = TestServer::start().await;
    let (_, key) = server.full_user("decoder").await;
    for (method, path, body, says) in [
        (
            Method::POST,
            "/chains",
            json!(["https://example.com/"]),
            "a JSON object",
        ),
        (
            Method::POST,
            "/chains",
            json!({"target_url": "https://e.com/", "domain_id": "x"}),
            "an integer",
        ),
        (
            Method::POST,
            "/openapi/v1/chain/create",
            json!({"target_url": "https://e.com/", "group_id": true}),
            "an integer, or a string of digits",
        ),
        (
            Method::POST,
            "/openapi/v1/chain/create",
            json!({"target_url": "https://e.com/", "domain": {"id": 1}}),
            "an id or a list of ids",
        ),
        (
            Method::POST,
            "/openapi/v1/chain/create",
            json!({"target_url": "https://e.com/", "valid_time": [1]}),
            "a time",
        ),
        (
            Method::POST,
            "/openapi/v1/wxchain/create",
            json!({"channel_list": ["https://e.com/q.png"]}),
            "a JSON object",
        ),
    ] {
        let reply = server
            .call(method, path, Some(&key), Some(body.clone()))
            .await;
        assert_eq!(
            reply.status,
            StatusCode::BAD_REQUEST,
            "{body}: {}",
            reply.text
        );
        let message = reply.body["message"]
            .as_str()
            .or_else(|| reply.body["msg"].as_str())
            .unwrap()
            .to_owned();
        assert!(message.contains(says), "{body}: {message}");
        for rust in ["struct ", "enum ", "IntOrText", "Either", "i64", "elements"] {
            assert!(!message.contains(rust), "{body}: {message}");
        }
    }
}

#[tokio::test]
async fn rate_limited_answers_never_say_retry_after_zero() {
    let server = TestServer::start_with(Options {
        rate_limit: Some(RateLimit {
            per_second: NonZeroU32::new(20).unwrap(),
            burst: NonZeroU32::new(3).unwrap(),
        }),
        ..Options::default()
    })
    .await;
    let (_, key) = server.full_user("hurried").await;
    let mut limited = 0;
    for _ in 0..400 {
        let reply = server.get("/groups", &key).await;
        if reply.status == StatusCode::TOO_MANY_REQUESTS {
            limited += 1;
            let wait: u64 = reply.header("retry-after").unwrap().parse().unwrap();
            assert!(wait >= 1, "Retry-After: {wait}");
        }
    }
    assert!(limited > 0, "the limit was never met");
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
