//! `GET /metrics`: valid Prometheus text whose counters move with traffic, served to loopback
//! clients or to admin keys as configured.

use linkapi_core::MetricsAccess;
use reqwest::StatusCode;
use serde_json::json;

use crate::support::{ADMIN_KEY, Options, TestServer};

/// The metrics text, checked by an OpenMetrics parser.
pub async fn scrape(server: &TestServer, key: Option<&str>) -> String {
    let mut request = server.client.get(server.url("/metrics"));
    if let Some(key) = key {
        request = request.bearer_auth(key);
    }
    let response = request.send().await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let content_type = response.headers()["content-type"]
        .to_str()
        .unwrap()
        .to_owned();
    assert!(
        content_type.starts_with("application/openmetrics-text"),
        "{content_type}"
    );
    let text = response.text().await.unwrap();
    if let Err(err) = openmetrics_parser::openmetrics::parse_openmetrics(&text) {
        panic!("the metrics do not parse: {err:?}\n{text}");
    }
    text
}

/// The value of the sample named exactly `series` (name and labels as printed), 0 if absent.
fn sample(text: &str, series: &str) -> f64 {
    text.lines()
        .find_map(|line| line.strip_prefix(series)?.strip_prefix(' '))
        .map_or(0.0, |value| value.trim().parse().unwrap())
}

#[tokio::test]
async fn metrics_parse_and_move_with_traffic() {
    let server = TestServer::start().await;
    let (_, key) = server.full_user("measured").await;
    let before = scrape(&server, None).await;
    for family in [
        "linkapi_requests_total",
        "linkapi_request_duration_seconds",
        "linkapi_redirects_total",
        "linkapi_visits_queued_total",
        "linkapi_visits_written_total",
        "linkapi_visits_dropped_total",
        "linkapi_visit_flush_duration_seconds",
        "linkapi_open_connections",
        "linkapi_cache_hits_total",
        "linkapi_cache_misses_total",
        "linkapi_store_errors_total",
    ] {
        assert!(
            before.contains(&format!("# TYPE {}", family.trim_end_matches("_total"))),
            "{family} missing:\n{before}"
        );
    }
    let chain = server
        .create_chain(
            &key,
            json!({"target_url": "https://e.com", "code": "measured"}),
        )
        .await;
    for _ in 0..3 {
        assert_eq!(server.visit("measured").await.status, StatusCode::FOUND);
    }
    assert_eq!(
        server.visit("nothing-here").await.status,
        StatusCode::NOT_FOUND
    );
    server.flush_visits().await;
    server
        .get(&format!("/chains/{}", chain["id"]), &key)
        .await
        .primary_data();
    let after = scrape(&server, None).await;
    let moved = |series: &str| sample(&after, series) - sample(&before, series);
    assert_eq!(moved(r#"linkapi_redirects_total{outcome="found"}"#), 3.0);
    assert_eq!(
        moved(r#"linkapi_redirects_total{outcome="not_found"}"#),
        1.0
    );
    assert_eq!(moved("linkapi_visits_queued_total"), 3.0);
    assert_eq!(moved("linkapi_visits_written_total"), 3.0);
    assert_eq!(moved("linkapi_visit_pending_entries"), 0.0);
    assert_eq!(
        moved(r#"linkapi_requests_total{operation="chains.create",status="201"}"#),
        1.0
    );
    assert_eq!(
        moved(r#"linkapi_requests_total{operation="redirect",status="302"}"#),
        3.0
    );
    assert_eq!(
        moved(r#"linkapi_requests_total{operation="redirect",status="404"}"#),
        1.0
    );
    assert_eq!(
        moved(r#"linkapi_request_duration_seconds_count{operation="redirect"}"#),
        4.0
    );
    assert!(moved(r#"linkapi_request_duration_seconds_count{operation="chains.get"}"#) >= 1.0);
    assert!(moved("linkapi_visit_flush_duration_seconds_count") >= 1.0);
    // The first visit missed the link cache, the next two hit it.
    assert!(moved(r#"linkapi_cache_hits_total{cache="links"}"#) >= 2.0);
    assert!(moved(r#"linkapi_cache_misses_total{cache="links"}"#) >= 1.0);
    assert!(moved(r#"linkapi_cache_hits_total{cache="keys"}"#) >= 1.0);
    assert!(sample(&after, "linkapi_open_connections") >= 1.0);
}

#[tokio::test]
async fn metrics_are_hidden_from_remote_clients_on_loopback_access() {
    // Behind a proxy on this host, the client is whoever the proxy names.
    let server = TestServer::start_with(Options {
        trusted_proxies: vec!["127.0.0.1/32"],
        ..Options::default()
    })
    .await;
    let remote = server
        .client
        .get(server.url("/metrics"))
        .header("x-forwarded-for", "203.0.113.9")
        .send()
        .await
        .unwrap();
    assert_eq!(remote.status(), StatusCode::NOT_FOUND);
    scrape(&server, None).await;
}

#[tokio::test]
async fn metrics_behind_an_admin_key_when_configured() {
    let server = TestServer::start_with(Options {
        metrics_access: MetricsAccess::Admin,
        ..Options::default()
    })
    .await;
    let (_, key) = server.full_user("nosy").await;
    server
        .call(reqwest::Method::GET, "/metrics", None, None)
        .await
        .assert_primary_error(StatusCode::UNAUTHORIZED, "invalid_api_key");
    server
        .get("/metrics", &key)
        .await
        .assert_primary_error(StatusCode::FORBIDDEN, "forbidden");
    let text = scrape(&server, Some(ADMIN_KEY)).await;
    assert!(text.contains("linkapi_requests_total"));
}

/// A visit answered at once from the link cache counts once, and so does one the at-once path
/// hands on (a page chain's, whose page the other path serves): the cache's hits and the found
/// redirects move by one a visit, whichever path answered.
#[tokio::test]
async fn a_visit_counts_once_whichever_path_answers_it() {
    let server = TestServer::start().await;
    let (_, key) = server.full_user("paths").await;
    server
        .create_chain(
            &key,
            json!({"target_url": "https://e.com", "code": "short"}),
        )
        .await;
    let page = crate::page_chains::create_wx(
        &server,
        &key,
        json!({"sub_type": 2, "wx_id": "shop_helper-01"}),
    )
    .await;
    let page_code = page["code"].as_str().unwrap().to_owned();
    // Each code's first visit fills the cache.
    assert_eq!(server.visit("short").await.status, StatusCode::FOUND);
    assert_eq!(server.visit(&page_code).await.status, StatusCode::OK);
    let before = scrape(&server, None).await;
    for _ in 0..4 {
        assert_eq!(server.visit("short").await.status, StatusCode::FOUND);
        assert_eq!(server.visit(&page_code).await.status, StatusCode::OK);
    }
    let after = scrape(&server, None).await;
    let moved = |series: &str| sample(&after, series) - sample(&before, series);
    assert_eq!(moved(r#"linkapi_cache_hits_total{cache="links"}"#), 8.0);
    assert_eq!(moved(r#"linkapi_cache_misses_total{cache="links"}"#), 0.0);
    assert_eq!(moved(r#"linkapi_redirects_total{outcome="found"}"#), 8.0);
    assert_eq!(
        moved(r#"linkapi_requests_total{operation="redirect",status="302"}"#),
        4.0
    );
}
