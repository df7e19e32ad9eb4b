//! Server plumbing: health, unknown routes, methods, request ids, HTTP/2 (connections are in
//! `connections`).

use reqwest::StatusCode;
use serde_json::json;

use crate::support::{ADMIN_KEY, Reply, TestServer};

#[tokio::test]
async fn health_and_readiness() {
    let server = TestServer::start().await;
    let health = Reply::from(
        server
            .client
            .get(server.url("/healthz"))
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(health.primary_data()["status"], "ok");
    let ready = Reply::from(
        server
            .client
            .get(server.url("/readyz"))
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(ready.primary_data()["status"], "ready");
}

#[tokio::test]
async fn unknown_paths_and_wrong_methods() {
    let server = TestServer::start().await;
    let unknown = server.get("/no/such/path", ADMIN_KEY).await;
    unknown.assert_primary_error(StatusCode::NOT_FOUND, "not_found");
    // API prefixes are never treated as codes.
    server
        .get("/admin", ADMIN_KEY)
        .await
        .assert_primary_error(StatusCode::NOT_FOUND, "not_found");

    let wrong = server.delete("/groups", ADMIN_KEY).await;
    wrong.assert_primary_error(StatusCode::METHOD_NOT_ALLOWED, "method_not_allowed");
    assert_eq!(wrong.header("allow"), Some("GET, POST, HEAD"));
    let wrong = server.get("/admin/keys/3", ADMIN_KEY).await;
    assert_eq!(wrong.header("allow"), Some("DELETE"));
}

#[tokio::test]
async fn request_ids_are_echoed_or_made() {
    let server = TestServer::start().await;
    let made = server
        .client
        .get(server.url("/healthz"))
        .send()
        .await
        .unwrap();
    let id = made.headers()["x-request-id"].to_str().unwrap().to_owned();
    assert_eq!(id.len(), 16);
    let echoed = server
        .client
        .get(server.url("/healthz"))
        .header("x-request-id", "trace-abc-123")
        .send()
        .await
        .unwrap();
    assert_eq!(echoed.headers()["x-request-id"], "trace-abc-123");
    // Too long to log: replaced by a made one, which differs from the last.
    let replaced = server
        .client
        .get(server.url("/healthz"))
        .header("x-request-id", "x".repeat(65))
        .send()
        .await
        .unwrap();
    let other = replaced.headers()["x-request-id"].to_str().unwrap();
    assert_eq!(other.len(), 16);
    assert_ne!(other, id);
    assert_eq!(other[..8], id[..8], "one prefix per process");
}

#[tokio::test]
async fn a_visitors_request_echoes_its_id_and_is_given_none_when_its_log_is_off() {
    // No subscriber here: a visitor's lines (at debug) are not logged, so an id made for a
    // redirect would name nothing in the log. One the visitor's proxy sent comes back.
    let server = TestServer::start().await;
    let (_, key) = server.full_user("ids").await;
    server
        .create_chain(
            &key,
            json!({"target_url": "https://example.com/", "code": "ids"}),
        )
        .await;
    let plain = server.visit("ids").await;
    assert_eq!(plain.status, StatusCode::FOUND);
    assert_eq!(plain.header("x-request-id"), None);
    let traced = server
        .client
        .get(server.url("/ids"))
        .header("x-request-id", "edge-42")
        .send()
        .await
        .unwrap();
    assert_eq!(traced.status(), StatusCode::FOUND);
    assert_eq!(traced.headers()["x-request-id"], "edge-42");
}

#[tokio::test]
async fn http2_without_tls_is_served() {
    let server = TestServer::start().await;
    let client = crate::support::http_client(reqwest::Client::builder().http2_prior_knowledge());
    let reply = client
        .get(server.url("/chains"))
        .bearer_auth(ADMIN_KEY)
        .send()
        .await
        .unwrap();
    assert_eq!(reply.version(), reqwest::Version::HTTP_2);
    assert_eq!(reply.status(), StatusCode::OK);
}
