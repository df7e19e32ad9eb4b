//! The visit pipeline and statistics: counts exact after bursts, unique visitors, bots, the
//! trend's days, the trusted-proxy rule, shutdown, memory bound, several instances.

use std::time::Duration;

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::support::{ADMIN_KEY, BROWSER, Backend, Options, START, TestServer, within};

/// A visit to `code` through a trusted proxy naming `client`, with `agent`.
async fn visit_as(server: &TestServer, method: Method, code: &str, client: &str, agent: &str) {
    let response = server
        .client
        .request(method, server.url(&format!("/{code}")))
        .header("host", &server.host)
        .header("x-forwarded-for", client)
        .header("user-agent", agent)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::FOUND);
}

async fn stats(server: &TestServer, key: &str, chain: &Value, days: Option<i64>) -> Value {
    let path = match days {
        Some(days) => format!("/chains/{}/stats?days={days}", chain["id"]),
        None => format!("/chains/{}/stats", chain["id"]),
    };
    server.get(&path, key).await.primary_data().clone()
}

/// `visits` GETs of `code` sent at once, spread over `servers` in turn, from `visitors`
/// addresses in turn (through the trusted proxy that the servers' peer address is).
async fn burst(servers: &[&TestServer], code: &str, visits: usize, visitors: usize) {
    let mut set = tokio::task::JoinSet::new();
    for i in 0..visits {
        let server = servers[i % servers.len()];
        let request = server
            .client
            .get(server.url(&format!("/{code}")))
            .header("host", &servers[0].host)
            .header("x-forwarded-for", format!("198.51.100.{}", i % visitors))
            .header("user-agent", BROWSER);
        set.spawn(async move { request.send().await.unwrap().status() });
    }
    while let Some(status) = set.join_next().await {
        assert_eq!(status.unwrap(), StatusCode::FOUND);
    }
}

fn behind_proxy() -> Options {
    Options {
        trusted_proxies: vec!["127.0.0.1/32"],
        ..Options::default()
    }
}

#[tokio::test]
async fn a_burst_of_concurrent_visits_is_counted_exactly_with_unique_visitors() {
    let server = TestServer::start_with(behind_proxy()).await;
    let (_, key) = server.full_user("burst").await;
    let chain = server
        .create_chain(
            &key,
            json!({"target_url": "https://e.com", "code": "burst"}),
        )
        .await;
    // 300 visits at once from 30 visitors, 10 each.
    burst(&[&server], "burst", 300, 30).await;
    server.flush_visits().await;
    let figures = stats(&server, &key, &chain, None).await;
    assert_eq!(figures["chain_id"], chain["id"]);
    assert_eq!(figures["total_clicks"], 300);
    assert_eq!(figures["unique_visitors"], 30);
    assert_eq!(figures["trend_days"], 7);
    let trend = figures["daily_trend"].as_array().unwrap();
    assert_eq!(trend.len(), 7);
    assert_eq!(
        trend[6],
        json!({"day": "2027-01-15", "clicks": 300, "bot_clicks": 0})
    );
    // The same visitors again: more clicks, no new visitors; a new one adds one.
    visit_as(&server, Method::GET, "burst", "198.51.100.3", BROWSER).await;
    visit_as(&server, Method::GET, "burst", "198.51.100.77", BROWSER).await;
    // A different browser on a known address is another visitor.
    visit_as(
        &server,
        Method::GET,
        "burst",
        "198.51.100.3",
        "Mozilla/5.0 Safari/605",
    )
    .await;
    server.flush_visits().await;
    let figures = stats(&server, &key, &chain, None).await;
    assert_eq!(figures["total_clicks"], 303);
    assert_eq!(figures["unique_visitors"], 32);
    // Listings read the same counters.
    let listed = server.get("/chains", &key).await;
    let item = &listed.primary_data()["list"][0];
    assert_eq!(item["pv_history"], 303);
    assert_eq!(item["pv_today"], 303);
    let compat = server.get("/openapi/v1/chain/list", &key).await;
    assert_eq!(compat.compat_result()["list"][0]["pv_today"], 303);
}

#[tokio::test]
async fn bots_and_head_requests_are_not_in_any_figure() {
    let server = TestServer::start_with(behind_proxy()).await;
    let (_, key) = server.full_user("bots").await;
    let chain = server
        .create_chain(&key, json!({"target_url": "https://e.com", "code": "bots"}))
        .await;
    for agent in [
        "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
        "facebookexternalhit/1.1",
        "Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)",
        "TelegramBot (like TwitterBot)",
        "WhatsApp/2.23.20.0",
        "Mozilla/5.0 (compatible; Discordbot/2.0; +https://discordapp.com)",
    ] {
        visit_as(&server, Method::GET, "bots", "203.0.113.1", agent).await;
    }
    // A plain curl is a tool, not a person: a bot visit too.
    visit_as(&server, Method::GET, "bots", "203.0.113.4", "curl/8.5.0").await;
    visit_as(&server, Method::HEAD, "bots", "203.0.113.2", BROWSER).await;
    visit_as(&server, Method::GET, "bots", "203.0.113.3", BROWSER).await;
    server.flush_visits().await;
    let figures = stats(&server, &key, &chain, Some(1)).await;
    assert_eq!(figures["total_clicks"], 1);
    assert_eq!(figures["unique_visitors"], 1);
    // Counted apart, so a curl-only test of a link does not look like nothing happened.
    assert_eq!(figures["bot_clicks"], 8);
    assert_eq!(
        figures["daily_trend"],
        json!([{"day": "2027-01-15", "clicks": 1, "bot_clicks": 8}])
    );
    let read = server.get(&format!("/chains/{}", chain["id"]), &key).await;
    assert_eq!(read.primary_data()["pv_history"], 1);
}

#[tokio::test]
async fn the_trend_has_every_day_of_the_window_oldest_first() {
    let server = TestServer::start().await;
    let (_, key) = server.full_user("trend").await;
    let chain = server
        .create_chain(
            &key,
            json!({"target_url": "https://e.com", "code": "trend"}),
        )
        .await;
    server.visit("trend").await;
    server.visit("trend").await;
    server.flush_visits().await;
    server.clock.advance(2 * 86_400);
    server.visit("trend").await;
    server.flush_visits().await;
    let figures = stats(&server, &key, &chain, Some(5)).await;
    assert_eq!(figures["trend_days"], 5);
    assert_eq!(
        figures["daily_trend"],
        json!([
            {"day": "2027-01-13", "clicks": 0, "bot_clicks": 0},
            {"day": "2027-01-14", "clicks": 0, "bot_clicks": 0},
            {"day": "2027-01-15", "clicks": 2, "bot_clicks": 0},
            {"day": "2027-01-16", "clicks": 0, "bot_clicks": 0},
            {"day": "2027-01-17", "clicks": 1, "bot_clicks": 0},
        ])
    );
    assert_eq!(figures["total_clicks"], 3);
    // One visitor (same address and agent) on both days.
    assert_eq!(figures["unique_visitors"], 1);
    // A window shorter than the chain's life still reports totals ever.
    let today = stats(&server, &key, &chain, Some(1)).await;
    assert_eq!(
        today["daily_trend"],
        json!([{"day": "2027-01-17", "clicks": 1, "bot_clicks": 0}])
    );
    assert_eq!(today["total_clicks"], 3);
    let read = server.get(&format!("/chains/{}", chain["id"]), &key).await;
    assert_eq!(read.primary_data()["pv_today"], 1);
    assert_eq!(read.primary_data()["pv_history"], 3);
    let year = stats(&server, &key, &chain, Some(365)).await;
    assert_eq!(year["daily_trend"].as_array().unwrap().len(), 365);
}

#[tokio::test]
async fn days_are_checked_and_chains_must_be_the_callers() {
    let server = TestServer::start().await;
    let (_, key) = server.full_user("owner").await;
    let (_, other) = server.full_user("other").await;
    let chain = server
        .create_chain(&key, json!({"target_url": "https://e.com", "code": "mine"}))
        .await;
    let path = format!("/chains/{}/stats", chain["id"]);
    for bad in ["0", "366", "-1", "x"] {
        server
            .get(&format!("{path}?days={bad}"), &key)
            .await
            .assert_primary_error(
                StatusCode::BAD_REQUEST,
                if bad == "x" {
                    "invalid_query"
                } else {
                    "invalid_days"
                },
            );
    }
    server
        .get(&path, &other)
        .await
        .assert_primary_error(StatusCode::NOT_FOUND, "not_found");
    server
        .get("/chains/999999/stats", &key)
        .await
        .assert_primary_error(StatusCode::NOT_FOUND, "not_found");
    server
        .delete(&format!("/chains/{}", chain["id"]), &key)
        .await
        .primary_data();
    server
        .get(&path, &key)
        .await
        .assert_primary_error(StatusCode::NOT_FOUND, "not_found");
}

#[tokio::test]
async fn days_follow_the_configured_time_zone() {
    // START is 08:00 UTC, 16:00 in Shanghai.
    let shanghai = TestServer::start_with(Options {
        time_zone: Some("Asia/Shanghai"),
        ..Options::default()
    })
    .await;
    let (_, key) = shanghai.full_user("tz").await;
    let chain = shanghai
        .create_chain(&key, json!({"target_url": "https://e.com", "code": "tz"}))
        .await;
    shanghai.visit("tz").await;
    shanghai.flush_visits().await;
    // 17:00 UTC: the same day in UTC, the next one in Shanghai.
    shanghai.clock.advance(9 * 3_600);
    shanghai.visit("tz").await;
    shanghai.flush_visits().await;
    let figures = stats(&shanghai, &key, &chain, Some(2)).await;
    assert_eq!(
        figures["daily_trend"],
        json!([{"day": "2027-01-15", "clicks": 1, "bot_clicks": 0}, {"day": "2027-01-16", "clicks": 1, "bot_clicks": 0}])
    );
    let read = shanghai
        .get(&format!("/chains/{}", chain["id"]), &key)
        .await;
    assert_eq!(read.primary_data()["pv_today"], 1);
    assert_eq!(
        START % 86_400,
        8 * 3_600,
        "the test assumes START is 08:00 UTC"
    );
}

/// Five visits claiming five addresses in `X-Forwarded-For`; returns (clicks, unique).
async fn five_forwarded_visits(server: &TestServer) -> (Value, Value) {
    let (_, key) = server.full_user("spoof").await;
    let chain = server
        .create_chain(
            &key,
            json!({"target_url": "https://e.com", "code": "spoof"}),
        )
        .await;
    for i in 0..5 {
        let claimed = format!("192.0.2.{i}");
        visit_as(server, Method::GET, "spoof", &claimed, BROWSER).await;
    }
    server.flush_visits().await;
    let figures = stats(server, &key, &chain, None).await;
    (
        figures["total_clicks"].clone(),
        figures["unique_visitors"].clone(),
    )
}

#[tokio::test]
async fn a_spoofed_forwarded_address_from_an_untrusted_peer_is_ignored() {
    // No trusted proxies: every X-Forwarded-For is the client's own claim.
    let server = TestServer::start().await;
    let (clicks, unique) = five_forwarded_visits(&server).await;
    assert_eq!(clicks, 5);
    assert_eq!(unique, 1, "one peer, one agent: one visitor");
    // Trusting the peer, the same requests are five visitors.
    let trusting = TestServer::start_with(behind_proxy()).await;
    assert_eq!(five_forwarded_visits(&trusting).await, (json!(5), json!(5)));
}

#[tokio::test]
async fn rotating_the_visitor_secret_starts_visitors_afresh() {
    let server = TestServer::start().await;
    let (_, key) = server.full_user("rotate").await;
    let chain = server
        .create_chain(
            &key,
            json!({"target_url": "https://e.com", "code": "rotate"}),
        )
        .await;
    server.visit("rotate").await;
    server.visit("rotate").await;
    let rotated = server
        .post("/admin/visitor-secret", ADMIN_KEY, json!({}))
        .await;
    assert_eq!(rotated.primary_data()["rotated_at"], "2027-01-15T08:00:00Z");
    server.visit("rotate").await;
    server.flush_visits().await;
    let figures = stats(&server, &key, &chain, None).await;
    assert_eq!(figures["total_clicks"], 3);
    assert_eq!(figures["unique_visitors"], 2);
    server
        .post("/admin/visitor-secret", &key, json!({}))
        .await
        .assert_primary_error(StatusCode::FORBIDDEN, "forbidden");
}

#[tokio::test]
async fn counts_survive_a_graceful_shutdown() {
    // Flushes so rare that only the shutdown can have written the visits.
    let slow = || Options {
        visit_flush_interval: Duration::from_secs(3_600),
        ..Options::default()
    };
    let server = TestServer::start_with(slow()).await;
    let (_, key) = server.full_user("durable").await;
    let chain = server
        .create_chain(
            &key,
            json!({"target_url": "https://e.com", "code": "durable"}),
        )
        .await;
    for _ in 0..4 {
        server.visit("durable").await;
    }
    let server = server.restart_with(slow()).await;
    let figures = stats(&server, &key, &chain, None).await;
    assert_eq!(figures["total_clicks"], 4);
    assert_eq!(figures["unique_visitors"], 1);
}

#[tokio::test]
async fn past_half_the_bound_visits_wait_for_the_flusher_and_none_is_dropped() {
    let server = TestServer::start_with(Options {
        trusted_proxies: vec!["127.0.0.1/32"],
        // Flushes so rare that only a visit held back can have started one.
        visit_flush_interval: Duration::from_secs(3_600),
        // One chain-day, two visitors, and the first visit's breakdown: a value of each of
        // the four dimensions with no implicit value (referrer, device, OS, browser) and its
        // count. Its half (5 entries) is passed by the first visit.
        max_pending_visits: 3 + 4 + 4,
        ..Options::default()
    })
    .await;
    let (_, key) = server.full_user("bound").await;
    let chain = server
        .create_chain(
            &key,
            json!({"target_url": "https://e.com", "code": "bound"}),
        )
        .await;
    // Four visitors need more entries than the bound holds: without the flusher catching up
    // in between, the last two would be dropped. Each visit after the first waits, before it
    // is counted, for the flush it starts of the ones before it.
    for client in ["192.0.2.1", "192.0.2.2", "192.0.2.3", "192.0.2.4"] {
        visit_as(&server, Method::GET, "bound", client, BROWSER).await;
    }
    assert!(
        within(Duration::from_secs(5), || async {
            stats(&server, &key, &chain, None).await["total_clicks"].as_i64() >= Some(3)
        })
        .await,
        "the held-back visits did not start a flush"
    );
    server.flush_visits().await;
    let figures = stats(&server, &key, &chain, None).await;
    assert_eq!(figures["total_clicks"], 4);
    assert_eq!(figures["unique_visitors"], 4);
    let text = crate::metrics::scrape(&server, None).await;
    assert!(
        text.lines().any(|l| l == "linkapi_visits_dropped_total 0"),
        "{text}"
    );
    let paced = text
        .lines()
        .find_map(|l| l.strip_prefix("linkapi_visits_paced_total "))
        .and_then(|n| n.parse::<u64>().ok());
    assert!(paced.is_some_and(|n| n >= 1), "{text}");
}

/// Only held-back visits start flushes, and 400 visitors need twice the bound: without the
/// flusher catching up as the clients go, about half of them would be dropped. The clients in
/// flight when half is passed (40 visitors, and the day's few entries) stay well within
/// the rest.
fn racing_past_half_the_bound() -> Options {
    Options {
        trusted_proxies: vec!["127.0.0.1/32"],
        visit_flush_interval: Duration::from_secs(3_600),
        max_pending_visits: 200,
        ..Options::default()
    }
}

/// 40 clients, spread over `servers` in turn, each visiting `race` ten times as a new
/// visitor; then every visit must be counted and none dropped on any instance.
async fn forty_clients_race(servers: &[&TestServer]) {
    let first = servers[0];
    let (_, key) = first.full_user("race").await;
    let chain = first
        .create_chain(&key, json!({"target_url": "https://e.com", "code": "race"}))
        .await;
    let mut clients = tokio::task::JoinSet::new();
    for client in 0..40 {
        let server = servers[client % servers.len()];
        let (http, url, host) = (
            server.client.clone(),
            server.url("/race"),
            first.host.clone(),
        );
        clients.spawn(async move {
            for visit in 0..10 {
                let status = http
                    .get(&url)
                    .header("host", &host)
                    .header("x-forwarded-for", format!("10.0.{client}.{visit}"))
                    .header("user-agent", BROWSER)
                    .send()
                    .await
                    .unwrap()
                    .status();
                assert_eq!(status, StatusCode::FOUND);
            }
        });
    }
    while let Some(done) = clients.join_next().await {
        done.unwrap();
    }
    for server in servers {
        server.flush_visits().await;
    }
    let figures = stats(first, &key, &chain, None).await;
    assert_eq!(figures["total_clicks"], 400);
    assert_eq!(figures["unique_visitors"], 400);
    for server in servers {
        let text = crate::metrics::scrape(server, None).await;
        assert!(
            text.lines().any(|l| l == "linkapi_visits_dropped_total 0"),
            "{text}"
        );
    }
}

#[tokio::test]
async fn forty_clients_racing_past_half_the_bound_lose_no_visit() {
    let server = TestServer::start_with(racing_past_half_the_bound()).await;
    forty_clients_race(&[&server]).await;
}

#[tokio::test]
async fn forty_clients_racing_over_two_instances_past_half_the_bound_lose_no_visit() {
    let Some(backend) = Backend::postgres() else {
        return;
    };
    let a = TestServer::start_on(backend, racing_past_half_the_bound()).await;
    let b = a.start_peer(racing_past_half_the_bound()).await;
    forty_clients_race(&[&a, &b]).await;
}

#[tokio::test]
async fn two_instances_counting_one_chain_add_up_exactly() {
    let Some(backend) = Backend::postgres() else {
        return;
    };
    let a = TestServer::start_on(backend, behind_proxy()).await;
    let b = a.start_peer(behind_proxy()).await;
    let (_, key) = a.full_user("shared").await;
    let chain = a
        .create_chain(
            &key,
            json!({"target_url": "https://e.com", "code": "shared"}),
        )
        .await;
    // 40 visitors, each visiting both instances three times, all at once.
    burst(&[&a, &b], "shared", 240, 40).await;
    tokio::join!(a.flush_visits(), b.flush_visits());
    for server in [&a, &b] {
        let figures = stats(server, &key, &chain, None).await;
        assert_eq!(figures["total_clicks"], 240);
        assert_eq!(figures["unique_visitors"], 40);
    }
}

#[tokio::test]
async fn two_instances_flushing_visits_of_the_same_chains_at_once_add_up_exactly() {
    let Some(backend) = Backend::postgres() else {
        return;
    };
    let a = TestServer::start_on(backend, behind_proxy()).await;
    let b = a.start_peer(behind_proxy()).await;
    let (_, key) = a.full_user("many").await;
    let mut chains = Vec::new();
    for i in 0..20 {
        let code = format!("many-{i}");
        let chain = a
            .create_chain(&key, json!({"target_url": "https://e.com", "code": code}))
            .await;
        chains.push((code, chain));
    }
    // Every chain visited on both instances at once, so both flushes carry rows of every
    // chain (written in key order, both instances lock them in the same order).
    let both = [&a, &b];
    futures_util::future::join_all(chains.iter().map(|(code, _)| burst(&both, code, 24, 6))).await;
    tokio::join!(a.flush_visits(), b.flush_visits());
    for (code, chain) in &chains {
        let figures = stats(&b, &key, chain, None).await;
        assert_eq!(figures["total_clicks"], 24, "{code}");
        assert_eq!(figures["unique_visitors"], 6, "{code}");
    }
}
