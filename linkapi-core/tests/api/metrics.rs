//! `GET /metrics`: valid Prometheus text whose counters move with traffic, served to loopback
//! clients or to admin keys as configured; OpenMetrics to scrapes that ask for it, the classic
//! text format to the rest, each read by the tools that read it (`promtool`, Python's
//! `prometheus_client`).

use linkapi_core::MetricsAccess;
use reqwest::StatusCode;
use serde_json::json;

use crate::support::{ADMIN_KEY, Options, TestServer};
use crate::tools::{available, python_module, run_with_input};

/// How Prometheus asks for its scrapes.
const PROMETHEUS_ACCEPT: &str = "application/openmetrics-text;version=1.0.0,\
     application/openmetrics-text;version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1";

/// The metrics text as Prometheus scrapes it, checked by an OpenMetrics parser.
pub async fn scrape(server: &TestServer, key: Option<&str>) -> String {
    let mut request = server
        .client
        .get(server.url("/metrics"))
        .header("accept", PROMETHEUS_ACCEPT);
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
        .assert_primary_error(StatusCode::UNAUTHORIZED, "missing_api_key");
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
    let page = crate::wx_support::create_wx(
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

/// The metrics as anything but Prometheus asks for them (curl, a script): the classic format.
async fn scrape_classic(server: &TestServer, accept: Option<&str>) -> String {
    let mut request = server.client.get(server.url("/metrics"));
    if let Some(accept) = accept {
        request = request.header("accept", accept);
    }
    let response = request.send().await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(
        response.headers()["content-type"],
        "text/plain; version=0.0.4; charset=utf-8"
    );
    assert_eq!(response.headers()["vary"], "accept");
    response.text().await.unwrap()
}

/// Reads `text` with `prometheus_client`'s parser for `format` (`classic` or `openmetrics`)
/// and prints each family as `name type samples`.
fn python_families(format: &str, text: &str) -> Vec<(String, String, usize)> {
    let parser = match format {
        "classic" => "prometheus_client.parser",
        _ => "prometheus_client.openmetrics.parser",
    };
    let script = format!(
        "import sys, {parser} as p\n\
         for f in p.text_string_to_metric_families(sys.stdin.read()):\n\
         \x20   print(f.name, f.type, len(f.samples))\n"
    );
    let output = run_with_input(
        std::process::Command::new("python3").args(["-c", &script]),
        text.as_bytes(),
    );
    assert!(
        output.status.success(),
        "prometheus_client ({format}) cannot read the metrics: {}\n{text}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(|line| {
            let mut words = line.split(' ');
            let mut next = || words.next().unwrap_or_default().to_owned();
            (next(), next(), next().parse().unwrap())
        })
        .collect()
}

#[tokio::test]
async fn every_prometheus_parser_reads_the_metrics_it_is_given() {
    let server = TestServer::start().await;
    let (_, key) = server.full_user("parsed").await;
    server
        .create_chain(
            &key,
            json!({"target_url": "https://e.com", "code": "parsed"}),
        )
        .await;
    assert_eq!(server.visit("parsed").await.status, StatusCode::FOUND);
    server.flush_visits().await;
    let open_metrics = scrape(&server, None).await;
    for accept in [None, Some("*/*"), Some("text/plain")] {
        let classic = scrape_classic(&server, accept).await;
        assert!(!classic.contains("# EOF"));
        assert!(
            classic.contains("# TYPE linkapi_requests_total counter\n"),
            "{classic}"
        );
        assert!(
            classic.contains("# HELP linkapi_redirects_total "),
            "{classic}"
        );
    }
    let classic = scrape_classic(&server, None).await;

    // promtool, as operators lint what they scrape: it reads the classic format.
    if available("promtool", &["promtool", "--version"]) {
        let checked = run_with_input(
            std::process::Command::new("promtool").args(["check", "metrics"]),
            classic.as_bytes(),
        );
        assert!(
            checked.status.success(),
            "promtool check metrics: {}{}\n{classic}",
            String::from_utf8_lossy(&checked.stdout),
            String::from_utf8_lossy(&checked.stderr)
        );
    }

    // Python's prometheus_client, both of its parsers, each on the format it reads.
    if python_module("prometheus_client") {
        let families = python_families("classic", &classic);
        let counters: Vec<_> = families.iter().filter(|f| f.1 == "counter").collect();
        assert!(counters.len() >= 9, "{families:?}");
        for (name, kind, samples) in &families {
            assert_ne!(kind, "unknown", "{name} is read untyped: {families:?}");
            assert!(
                !name.ends_with("_total"),
                "{name} is read as a family of its own"
            );
            if kind == "counter"
                && ["linkapi_requests", "linkapi_redirects"].contains(&name.as_str())
            {
                assert!(*samples > 0, "{name} has no samples: {families:?}");
            }
        }
        let names = |families: &[(String, String, usize)]| {
            let mut names: Vec<String> = families
                .iter()
                .map(|f| format!("{} {}", f.0, f.1))
                .collect();
            names.sort();
            names
        };
        let open = python_families("openmetrics", &open_metrics);
        assert_eq!(
            names(&open),
            names(&families),
            "both formats carry the same families"
        );
    }
}
