//! `Idempotency-Key` on the creates: a repeat is answered with the first answer and creates
//! nothing, on whichever instance, however many repeats race; another body under a used key is
//! refused; keys are per user, forgotten after a day, and free again after a failure.

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::instances::{backends, instances};
use crate::support::{Options, Reply, TestServer, race};
use crate::wx_support::WX_SCOPES;

/// POSTs `body` as given (so that two spellings of one document can be compared) under the
/// idempotency key `idempotency`.
async fn post_keyed(
    server: &TestServer,
    path: &str,
    key: &str,
    idempotency: &str,
    body: &str,
) -> Reply {
    let response = server
        .client
        .post(server.url(path))
        .bearer_auth(key)
        .header("content-type", "application/json")
        .header("idempotency-key", idempotency)
        .body(body.to_owned())
        .send()
        .await
        .expect("request");
    Reply::from(response).await
}

async fn chain_count(server: &TestServer, key: &str) -> i64 {
    server.get("/chains", key).await.primary_data()["total"]
        .as_i64()
        .unwrap()
}

fn replayed(reply: &Reply) -> bool {
    reply.header("idempotency-replayed") == Some("true")
}

#[tokio::test]
async fn a_repeat_gets_the_first_answer_and_creates_nothing() {
    let server = TestServer::start().await;
    let (_, key) = server.full_user("scripter").await;
    let body = r#"{"target_url": "https://e.example/launch", "chain_title": "Launch"}"#;
    let first = post_keyed(&server, "/chains", &key, "import-2026-11-24/1", body).await;
    assert_eq!(first.status, StatusCode::CREATED, "{}", first.text);
    assert!(!replayed(&first));

    // The same document spelled differently is the same request.
    let respelled = r#"{ "chain_title":"Launch",
        "target_url":"https://e.example/launch" }"#;
    let again = post_keyed(&server, "/chains", &key, "import-2026-11-24/1", respelled).await;
    assert_eq!(again.status, StatusCode::CREATED);
    assert!(replayed(&again));
    assert_eq!(again.text, first.text, "the first answer, byte for byte");
    assert_eq!(chain_count(&server, &key).await, 1);

    // The chain changes afterwards; the replay still says what the create answered.
    let id = first.primary_data()["id"].as_i64().unwrap();
    let edited = server
        .patch(
            &format!("/chains/{id}"),
            &key,
            json!({"chain_title": "Renamed"}),
        )
        .await;
    assert_eq!(edited.status, StatusCode::OK, "{}", edited.text);
    let later = post_keyed(&server, "/chains", &key, "import-2026-11-24/1", body).await;
    assert_eq!(later.text, first.text);

    // Another body under the used key: refused, nothing created.
    let other = post_keyed(
        &server,
        "/chains",
        &key,
        "import-2026-11-24/1",
        r#"{"target_url": "https://e.example/other"}"#,
    )
    .await;
    other.assert_primary_error(StatusCode::UNPROCESSABLE_ENTITY, "idempotency_key_reused");
    assert!(!replayed(&other));
    assert_eq!(chain_count(&server, &key).await, 1);

    // Keys are per user: another user's same key is a new request of theirs.
    let (_, theirs) = server.full_user("neighbour").await;
    let their_own = post_keyed(&server, "/chains", &theirs, "import-2026-11-24/1", body).await;
    assert_eq!(their_own.status, StatusCode::CREATED);
    assert!(!replayed(&their_own));
    assert_ne!(their_own.primary_data()["id"], first.primary_data()["id"]);

    // A day later the key is forgotten: the same request creates again.
    server.clock.advance(24 * 60 * 60 + 1);
    let next_day = post_keyed(&server, "/chains", &key, "import-2026-11-24/1", body).await;
    assert_eq!(next_day.status, StatusCode::CREATED);
    assert!(!replayed(&next_day));
    assert_eq!(chain_count(&server, &key).await, 2);
}

#[tokio::test]
async fn a_failed_create_keeps_nothing_under_its_key() {
    let server = TestServer::start_with(Options {
        daily_create_quota: 1,
        ..Options::default()
    })
    .await;
    let (_, key) = server.full_user("retrier").await;
    let bad = post_keyed(
        &server,
        "/chains",
        &key,
        "k-1",
        r#"{"target_url": "ftp://e.example/"}"#,
    )
    .await;
    assert_eq!(bad.status, StatusCode::BAD_REQUEST);
    // The key is free: the corrected request is a first one.
    let fixed = post_keyed(
        &server,
        "/chains",
        &key,
        "k-1",
        r#"{"target_url": "https://e.example/"}"#,
    )
    .await;
    assert_eq!(fixed.status, StatusCode::CREATED, "{}", fixed.text);
    assert!(!replayed(&fixed));

    // Refused by the quota: not kept either, so the retry after the quota is raised creates.
    let refused = post_keyed(
        &server,
        "/chains",
        &key,
        "k-2",
        r#"{"target_url": "https://e.example/2"}"#,
    )
    .await;
    refused.assert_primary_error(StatusCode::TOO_MANY_REQUESTS, "quota_exceeded");
    server.clock.advance(24 * 60 * 60);
    let retried = post_keyed(
        &server,
        "/chains",
        &key,
        "k-2",
        r#"{"target_url": "https://e.example/2"}"#,
    )
    .await;
    assert_eq!(retried.status, StatusCode::CREATED, "{}", retried.text);
    assert!(!replayed(&retried));
}

#[tokio::test]
async fn malformed_keys_are_refused_before_anything_is_created() {
    let server = TestServer::start().await;
    let (_, key) = server.full_user("careless").await;
    let body = r#"{"target_url": "https://e.example/"}"#;
    // (Spaces around a key are not sent: HTTP drops them before the server sees the value.)
    for bad in [String::new(), "k".repeat(256), "tab\tinside".into()] {
        let reply = post_keyed(&server, "/chains", &key, &bad, body).await;
        reply.assert_primary_error(StatusCode::BAD_REQUEST, "invalid_idempotency_key");
    }
    let non_ascii = server
        .client
        .post(server.url("/chains"))
        .bearer_auth(&key)
        .header(
            "idempotency-key",
            reqwest::header::HeaderValue::from_bytes(b"caf\xc3\xa9").unwrap(),
        )
        .json(&json!({"target_url": "https://e.example/"}))
        .send()
        .await
        .unwrap();
    Reply::from(non_ascii)
        .await
        .assert_primary_error(StatusCode::BAD_REQUEST, "invalid_idempotency_key");
    let twice = server
        .client
        .post(server.url("/chains"))
        .bearer_auth(&key)
        .header("idempotency-key", "a")
        .header("idempotency-key", "b")
        .json(&json!({"target_url": "https://e.example/"}))
        .send()
        .await
        .unwrap();
    Reply::from(twice)
        .await
        .assert_primary_error(StatusCode::BAD_REQUEST, "invalid_idempotency_key");
    assert_eq!(chain_count(&server, &key).await, 0);
    // 255 printable characters, spaces inside, is a key.
    let longest = format!("a{}z", " ~".repeat(126) + "!");
    assert_eq!(longest.len(), 255);
    let reply = post_keyed(&server, "/chains", &key, &longest, body).await;
    assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.text);
}

#[tokio::test]
async fn every_create_replays_its_first_answer() {
    let server = TestServer::start().await;
    let (_, key) = server.user_with_key("maker", WX_SCOPES).await;
    let creates = [
        ("/chains", json!({"target_url": "https://e.example/a"})),
        (
            "/chains/bulk",
            json!({"chains": [{"target_url": "https://e.example/b1"},
                              {"target_url": "https://e.example/b2", "code": "bulk-b2"}]}),
        ),
        (
            "/wx-chains",
            json!({"scan_qr_url": "https://cdn.example.com/q.png"}),
        ),
        ("/groups", json!({"name": "Spring", "chain_type": 1})),
        (
            "/card/createWxChain",
            json!({"scan_qr_url": "https://cdn.example.com/card.png", "chain_type": 4}),
        ),
        (
            "/openapi/v1/chain/create",
            json!({"target_url": "https://e.example/c"}),
        ),
        ("/openapi/v1/group/create", json!({"name": "Summer"})),
        (
            "/openapi/v1/wxchain/create",
            json!({"scan_qr_url": "https://cdn.example.com/q2.png"}),
        ),
        (
            "/openapi/v1/workchat/chain/create",
            json!({"chain_type": 3, "wxwork_type": 2, "target_url": "https://work.example.com/u/1"}),
        ),
    ];
    for (path, body) in creates {
        let body = body.to_string();
        let idempotency = format!("once:{path}");
        let first = post_keyed(&server, path, &key, &idempotency, &body).await;
        assert!(first.status.is_success(), "{path}: {}", first.text);
        assert!(!replayed(&first), "{path}");
        let again = post_keyed(&server, path, &key, &idempotency, &body).await;
        assert_eq!(again.status, first.status, "{path}: {}", again.text);
        assert!(replayed(&again), "{path}");
        // A second create would have answered another code or id (or, for a group, 409).
        assert_eq!(again.text, first.text, "{path}");
    }
    // One chain of each create, two of the bulk one: nothing was made twice.
    assert_eq!(chain_count(&server, &key).await, 4);
    let groups = server.get("/groups", &key).await;
    assert_eq!(groups.primary_data().as_array().unwrap().len(), 2);
}

/// Sends `body` to `path` under one idempotency key from `racers` clients at once, spread over
/// `servers`; the answers in the racers' order.
async fn race_keyed(
    servers: &[TestServer],
    racers: usize,
    path: &str,
    key: &str,
    idempotency: &str,
    body: &Value,
) -> Vec<Reply> {
    race(servers, racers, |server, _| {
        server
            .client
            .post(server.url(path))
            .bearer_auth(key)
            .header("idempotency-key", idempotency)
            .json(body)
    })
    .await
}

#[tokio::test]
async fn thirty_racing_repeats_on_every_instance_create_one_chain() {
    for backend in backends() {
        let servers = instances(backend, Options::default).await;
        let (_, key) = servers[0].full_user("racer").await;
        let replies = race_keyed(
            &servers,
            30,
            "/chains",
            &key,
            "the-one",
            &json!({"target_url": "https://e.example/raced"}),
        )
        .await;
        let first = &replies[0];
        for reply in &replies {
            assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.text);
            assert_eq!(reply.text, first.text, "one answer for every repeat");
        }
        assert_eq!(
            replies.iter().filter(|r| !replayed(r)).count(),
            1,
            "exactly one request created; the others were answered with its answer"
        );
        for server in &servers {
            assert_eq!(chain_count(server, &key).await, 1);
        }
    }
}

#[tokio::test]
async fn racing_repeats_of_a_bulk_create_create_its_items_once() {
    for backend in backends() {
        let servers = instances(backend, Options::default).await;
        let (_, key) = servers[0].full_user("bulk-racer").await;
        let chains: Vec<Value> = (0..200)
            .map(|i| json!({"target_url": format!("https://e.example/{i}")}))
            .collect();
        let replies = race_keyed(
            &servers,
            12,
            "/chains/bulk",
            &key,
            "bulk-batch-0",
            &json!({ "chains": chains }),
        )
        .await;
        for reply in &replies {
            assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
            assert_eq!(reply.text, replies[0].text);
        }
        assert_eq!(replies[0].primary_data()["created"], 200);
        assert_eq!(chain_count(&servers[0], &key).await, 200);
    }
}
