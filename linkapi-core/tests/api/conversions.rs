//! Ad-conversion reports: `{status: 1, result}`, duplicates by (user, chain, conv_type, out_id),
//! validation in the primary error envelope, and exactly one event under concurrent repeats.

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::support::{Backend, Options, TestServer, race_posts, refusal};

const REPORT: &str = "/openapi/v1/adcallback/tencent-ads/conversions";

async fn reporter(server: &TestServer, name: &str) -> String {
    server
        .user_with_key(
            name,
            &[
                "chains:read",
                "chains:write",
                "conversions:read",
                "conversions:write",
            ],
        )
        .await
        .1
}

/// Asserts `{status: 1, result}` and returns `result`.
fn result(reply: &crate::support::Reply) -> &Value {
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    assert_eq!(reply.body["status"], 1, "{}", reply.text);
    &reply.body["result"]
}

#[tokio::test]
async fn a_repeat_with_the_same_out_id_is_a_duplicate_of_the_original_event() {
    let server = TestServer::start().await;
    let key = reporter(&server, "advertiser").await;
    let chain = server
        .create_chain(
            &key,
            json!({"target_url": "https://shop.example/", "code": "sale"}),
        )
        .await;
    let id = chain["id"].as_i64().unwrap();

    let first = server
        .post(
            REPORT,
            &key,
            json!({"chain": "sale", "conv_type": "purchase", "out_id": "order-1",
                   "value_cents": 1999, "clickid": "ck-9", "platform": "web"}),
        )
        .await;
    let first = result(&first).clone();
    assert_eq!(first["chain_id"], id);
    assert_eq!(first["conv_type"], "purchase");
    assert_eq!(first["duplicate"], false);
    let event_id = first["event_id"].as_str().unwrap().to_owned();
    assert_eq!(event_id.len(), 26, "a ULID");

    // The same key by id this time, as a string (lenient input): still the same event.
    let again = server
        .post(
            REPORT,
            &key,
            json!({"chain_id": id.to_string(), "conv_type": "purchase", "out_id": "order-1"}),
        )
        .await;
    assert_eq!(result(&again)["duplicate"], true);
    assert_eq!(result(&again)["event_id"], event_id.as_str());

    // Another out_id or another type is another event; no out_id is always a new one.
    for body in [
        json!({"chain": "sale", "conv_type": "purchase", "out_id": "order-2"}),
        json!({"chain": "sale", "conv_type": "refund", "out_id": "order-1"}),
        json!({"chain": "sale", "conv_type": "form"}),
        json!({"chain": "sale", "conv_type": "form"}),
    ] {
        let reply = server.post(REPORT, &key, body).await;
        assert_eq!(result(&reply)["duplicate"], false, "{}", reply.text);
        assert_ne!(result(&reply)["event_id"], event_id.as_str());
    }

    // Everything recorded is listed, newest first, the original once.
    let listed = server
        .get(&format!("/chains/{id}/conversions?page_size=10"), &key)
        .await;
    let data = listed.primary_data();
    assert_eq!(data["total"], 5);
    let events: Vec<&str> = data["list"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["event_id"].as_str().unwrap())
        .collect();
    assert_eq!(events.iter().filter(|e| **e == event_id).count(), 1);
    let original = &data["list"][4];
    assert_eq!(original["event_id"], event_id.as_str());
    assert_eq!(original["value_cents"], 1999);
    assert_eq!(original["ad_platform"], "tencent-ads");
    assert_eq!(original["clickid"], "ck-9");
}

#[tokio::test]
async fn bad_reports_are_refused_in_the_primary_error_envelope() {
    let server = TestServer::start().await;
    let key = reporter(&server, "careless").await;
    let chain = server
        .create_chain(
            &key,
            json!({"target_url": "https://shop.example/", "code": "c1"}),
        )
        .await;
    let id = chain["id"].as_i64().unwrap();
    let cases = [
        (
            json!({"chain": "c1", "conv_type": "purchase"}),
            "missing_out_id",
        ),
        (
            json!({"chain": "c1", "chain_id": id, "conv_type": "form"}),
            "invalid_chain_ref",
        ),
        (json!({"conv_type": "form"}), "invalid_chain_ref"),
        (
            json!({"chain": "c1", "conv_type": "Buy-Now"}),
            "invalid_conv_type",
        ),
        (
            json!({"chain": "c1", "conv_type": "form", "value_cents": -5}),
            "invalid_value",
        ),
    ];
    // The text fields follow the rule of all free text: no control or bidirectional
    // characters (a header injected through a report, a listing that reads backwards).
    let injected = "x\r\nInjected: 1\u{0}\u{202e}";
    let mut cases = cases.to_vec();
    for field in ["out_id", "clickid", "external_userid", "platform"] {
        for text in [injected, "a\u{2066}b", "tab\tinside"] {
            let mut body = json!({"chain": "c1", "conv_type": "form", "out_id": "o-1"});
            body[field] = json!(text);
            cases.push((body, "invalid_field"));
        }
    }
    for (body, code) in cases {
        server
            .post(REPORT, &key, body)
            .await
            .assert_primary_error(refusal(code, &["invalid_chain_ref"]), code);
    }
    server
        .post(
            "/openapi/v1/adcallback/bad%20name/conversions",
            &key,
            json!({"chain": "c1", "conv_type": "form"}),
        )
        .await
        .assert_primary_error(StatusCode::BAD_REQUEST, "invalid_platform");
    // Nothing was recorded.
    let listed = server.get(&format!("/chains/{id}/conversions"), &key).await;
    assert_eq!(listed.primary_data()["total"], 0);
}

#[tokio::test]
async fn another_users_chain_is_not_found_and_scopes_apply() {
    let server = TestServer::start().await;
    let owner = reporter(&server, "owner").await;
    let other = reporter(&server, "other").await;
    let chain = server
        .create_chain(
            &owner,
            json!({"target_url": "https://mine.example/", "code": "mine"}),
        )
        .await;
    let id = chain["id"].as_i64().unwrap();
    for body in [
        json!({"chain": "mine", "conv_type": "form"}),
        json!({"chain_id": id, "conv_type": "form"}),
    ] {
        server
            .post(REPORT, &other, body)
            .await
            .assert_primary_error(StatusCode::NOT_FOUND, "not_found");
    }
    server
        .get(&format!("/chains/{id}/conversions"), &other)
        .await
        .assert_primary_error(StatusCode::NOT_FOUND, "not_found");

    let (_, read_only) = server.user_with_key("reader", &["conversions:read"]).await;
    server
        .post(
            REPORT,
            &read_only,
            json!({"chain": "mine", "conv_type": "form"}),
        )
        .await
        .assert_primary_error(StatusCode::FORBIDDEN, "forbidden");
    // The compatibility surface's query key works here too.
    let by_query = server
        .client
        .post(server.url(&format!("{REPORT}?apikey={owner}")))
        .json(&json!({"chain": "mine", "conv_type": "form"}))
        .send()
        .await
        .unwrap();
    assert_eq!(by_query.status(), StatusCode::OK);
}

/// 200 identical reports at once, over one SQLite instance or two PostgreSQL instances.
async fn race_identical_reports(servers: &[TestServer]) {
    const RACERS: usize = 200;
    let key = reporter(&servers[0], "racer").await;
    let chain = servers[0]
        .create_chain(
            &key,
            json!({"target_url": "https://race.example/", "code": "race"}),
        )
        .await;
    let id = chain["id"].as_i64().unwrap();
    let answers = race_posts(
        servers,
        RACERS,
        REPORT,
        &key,
        |_| json!({"chain_id": id, "conv_type": "purchase", "out_id": "order-77"}),
    )
    .await;
    let mut originals = 0;
    let mut event_ids = std::collections::HashSet::new();
    for (status, body) in answers {
        assert_eq!(status, StatusCode::OK, "{body}");
        if body["result"]["duplicate"] == false {
            originals += 1;
        }
        event_ids.insert(body["result"]["event_id"].as_str().unwrap().to_owned());
    }
    assert_eq!(originals, 1, "exactly one report created the event");
    assert_eq!(
        event_ids.len(),
        1,
        "every repeat carries the original event_id"
    );
    let listed = servers[0]
        .get(&format!("/chains/{id}/conversions"), &key)
        .await;
    assert_eq!(listed.primary_data()["total"], 1);
}

#[tokio::test]
async fn two_hundred_identical_reports_at_once_record_one_event() {
    race_identical_reports(&[TestServer::start_on(Backend::Sqlite, Options::default()).await])
        .await;
    if let Some(backend) = Backend::postgres() {
        let a = TestServer::start_on(backend, Options::default()).await;
        let b = a.start_peer(Options::default()).await;
        race_identical_reports(&[a, b]).await;
    }
}

#[tokio::test]
async fn the_configuration_can_require_out_id_for_more_types() {
    let server = TestServer::start_with(Options {
        out_id_required: vec!["signup".into()],
        ..Options::default()
    })
    .await;
    let key = reporter(&server, "strict").await;
    server
        .create_chain(&key, json!({"target_url": "https://e.com/", "code": "s1"}))
        .await;
    server
        .post(REPORT, &key, json!({"chain": "s1", "conv_type": "signup"}))
        .await
        .assert_primary_error(StatusCode::BAD_REQUEST, "missing_out_id");
    let reply = server
        .post(
            REPORT,
            &key,
            json!({"chain": "s1", "conv_type": "signup", "out_id": "u-1"}),
        )
        .await;
    assert_eq!(result(&reply)["duplicate"], false);
    // Types the configuration does not name still need none.
    let reply = server
        .post(REPORT, &key, json!({"chain": "s1", "conv_type": "form"}))
        .await;
    assert_eq!(result(&reply)["duplicate"], false);
}
