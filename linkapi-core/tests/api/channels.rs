//! Channel rotation: which QR code a visit gets, by visit_type, ratio, sort, status,
//! qrcode_time and visit_limit; limits exact under concurrency and across instances; what a
//! visitor gets when every channel is used up.

use std::collections::HashMap;
use std::sync::Arc;

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::html::page_image;
use crate::instances::{backends, instances};
use crate::support::{Options, TestServer};
use crate::wx_support::{WX_SCOPES, create_wx};

const VISITS: usize = 10_000;
/// Visitors in flight at once while tallying.
const CONCURRENCY: usize = 32;

fn qr(name: &str) -> String {
    format!("https://cdn.example.com/{name}.png")
}

/// Visits `code` `n` times (`CONCURRENCY` at a time) on `servers` in turn; tallies what each
/// visit got: the QR image's name, or the status when there was no page.
async fn tally(servers: &[&TestServer], code: &str, n: usize) -> HashMap<String, usize> {
    let semaphore = Arc::new(tokio::sync::Semaphore::new(CONCURRENCY));
    let mut tasks = Vec::with_capacity(n);
    for i in 0..n {
        let server = servers[i % servers.len()];
        let request = server
            .client
            .get(server.url(&format!("/{code}")))
            .header("host", &server.host);
        let permit = semaphore.clone().acquire_owned();
        tasks.push(tokio::spawn(async move {
            let _permit = permit.await.expect("semaphore");
            let reply = request.send().await.expect("visit");
            let status = reply.status();
            let text = reply.text().await.expect("body");
            outcome(status, &text)
        }));
    }
    let mut counts = HashMap::new();
    for task in tasks {
        *counts.entry(task.await.expect("visitor")).or_default() += 1;
    }
    counts
}

fn outcome(status: StatusCode, html: &str) -> String {
    match (status, page_image(html)) {
        (StatusCode::OK, Some(src)) => src
            .rsplit('/')
            .next()
            .unwrap_or_default()
            .trim_end_matches(".png")
            .to_owned(),
        _ => status.as_u16().to_string(),
    }
}

fn got(counts: &HashMap<String, usize>, name: &str) -> usize {
    counts.get(name).copied().unwrap_or(0)
}

/// Visit counts per channel name as the info endpoint reports them, once flushed.
async fn visit_counts(server: &TestServer, key: &str, id: &Value) -> HashMap<String, i64> {
    server.flush_visits().await;
    server
        .get(&format!("/wx-chains/{id}"), key)
        .await
        .primary_data()["channel_list"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["qrcode_name"].as_str().unwrap().to_owned(),
                c["visit_count"].as_i64().unwrap(),
            )
        })
        .collect()
}

fn channel(name: &str, extra: Value) -> Value {
    let mut c = json!({"qrcode_name": name, "url": qr(name)});
    if let (Some(c), Some(extra)) = (c.as_object_mut(), extra.as_object()) {
        c.extend(extra.clone());
    }
    c
}

/// Within `tolerance` (a fraction of all visits) of `share` of `VISITS`.
fn near(count: usize, share: f64, tolerance: f64) -> bool {
    let expected = share * VISITS as f64;
    (count as f64 - expected).abs() <= tolerance * VISITS as f64
}

#[tokio::test]
async fn each_visit_type_distributes_ten_thousand_visits_as_it_says() {
    let server = TestServer::start().await;
    let (_, key) = server.user_with_key("rotor", WX_SCOPES).await;

    // 1: sort order until a channel's limit; the disabled channel never shows.
    let sorted = create_wx(
        &server,
        &key,
        json!({"visit_type": 1, "channel_list": [
            channel("second", json!({"sort": 2})),
            channel("first", json!({"sort": 1, "visit_limit": 3000})),
            channel("off", json!({"sort": 0, "status": 0})),
        ]}),
    )
    .await;
    let counts = tally(&[&server], sorted["code"].as_str().unwrap(), VISITS).await;
    assert_eq!(got(&counts, "first"), 3000, "{counts:?}");
    assert_eq!(got(&counts, "second"), 7000, "{counts:?}");
    let counted = visit_counts(&server, &key, &sorted["id"]).await;
    assert_eq!(counted["first"], 3000);
    assert_eq!(counted["second"], 7000);
    assert_eq!(counted["off"], 0);

    // 3: weighted by ratio, 1 : 3 : 6.
    let weighted = create_wx(
        &server,
        &key,
        json!({"visit_type": 3, "channel_list": [
            channel("w1", json!({"ratio": 1})),
            channel("w3", json!({"ratio": 3})),
            channel("w6", json!({"ratio": 6})),
        ]}),
    )
    .await;
    let counts = tally(&[&server], weighted["code"].as_str().unwrap(), VISITS).await;
    assert!(near(got(&counts, "w1"), 0.1, 0.02), "{counts:?}");
    assert!(near(got(&counts, "w3"), 0.3, 0.03), "{counts:?}");
    assert!(near(got(&counts, "w6"), 0.6, 0.03), "{counts:?}");

    // 4: round robin: each in turn, so the shares differ by at most one.
    let round = create_wx(
        &server,
        &key,
        json!({"visit_type": 4, "channel_list": [
            channel("r1", json!({})), channel("r2", json!({})), channel("r3", json!({})),
        ]}),
    )
    .await;
    let counts = tally(&[&server], round["code"].as_str().unwrap(), VISITS).await;
    for name in ["r1", "r2", "r3"] {
        let n = got(&counts, name);
        assert!((3333..=3334).contains(&n), "{counts:?}");
    }

    // 5: uniform, whatever the ratios say.
    let uniform = create_wx(
        &server,
        &key,
        json!({"visit_type": 5, "channel_list": [
            channel("u1", json!({"ratio": 9})), channel("u2", json!({})),
            channel("u3", json!({})), channel("u4", json!({})),
        ]}),
    )
    .await;
    let counts = tally(&[&server], uniform["code"].as_str().unwrap(), VISITS).await;
    for name in ["u1", "u2", "u3", "u4"] {
        assert!(near(got(&counts, name), 0.25, 0.025), "{counts:?}");
    }
    let counted = visit_counts(&server, &key, &uniform["id"]).await;
    assert_eq!(counted.values().sum::<i64>(), VISITS as i64);
}

#[tokio::test]
async fn expired_and_disabled_channels_are_skipped_and_used_up_chains_say_so() {
    let server = TestServer::start().await;
    let (_, key) = server.user_with_key("skipper", WX_SCOPES).await;
    let now = crate::support::START;
    let chain = create_wx(
        &server,
        &key,
        json!({"visit_type": 1, "channel_list": [
            channel("soon-expired", json!({"sort": 1, "qrcode_time": now + 60})),
            channel("disabled", json!({"sort": 2, "status": 0})),
            channel("capped", json!({"sort": 3, "visit_limit": 2})),
        ]}),
    )
    .await;
    let code = chain["code"].as_str().unwrap();
    let counts = tally(&[&server], code, 3).await;
    assert_eq!(got(&counts, "soon-expired"), 3);
    server.clock.advance(61);
    let counts = tally(&[&server], code, 4).await;
    assert_eq!(got(&counts, "capped"), 2, "{counts:?}");
    assert_eq!(got(&counts, "410"), 2, "{counts:?}");
    let used_up = server.visit(code).await;
    assert_eq!(used_up.status, StatusCode::GONE);
    assert!(used_up.text.contains("used up"), "{}", used_up.text);

    // Enabling a channel again by edit brings visitors back to it at once.
    let info = server
        .get(&format!("/wx-chains/{}", chain["id"]), &key)
        .await;
    let disabled = info.primary_data()["channel_list"][1]["id"].clone();
    server
        .patch(
            &format!("/wx-chains/{}", chain["id"]),
            &key,
            json!({"channel_list": [{"id": disabled, "status": 1}]}),
        )
        .await;
    let counts = tally(&[&server], code, 2).await;
    assert_eq!(got(&counts, "disabled"), 2, "{counts:?}");

    // A chain with its own QR image falls back to it when every channel is used up, and a
    // direct jump goes there too.
    let fallback = create_wx(
        &server,
        &key,
        json!({"scan_qr_url": qr("own"), "channel_list": [
            channel("once", json!({"visit_limit": 1}))
        ]}),
    )
    .await;
    let counts = tally(&[&server], fallback["code"].as_str().unwrap(), 3).await;
    assert_eq!(
        (got(&counts, "once"), got(&counts, "own")),
        (1, 2),
        "{counts:?}"
    );
}

#[tokio::test]
async fn bots_see_the_page_without_using_up_a_limited_channel() {
    let server = TestServer::start().await;
    let (_, key) = server.user_with_key("botwatch", WX_SCOPES).await;
    let chain = create_wx(
        &server,
        &key,
        json!({"channel_list": [channel("one", json!({"visit_limit": 1}))]}),
    )
    .await;
    let code = chain["code"].as_str().unwrap();
    for agent in ["Slackbot-LinkExpanding 1.0", "curl/8.5.0"] {
        let reply = server
            .client
            .get(server.url(&format!("/{code}")))
            .header("host", &server.host)
            .header("user-agent", agent)
            .send()
            .await
            .unwrap();
        assert_eq!(reply.status(), StatusCode::OK);
    }
    let head = server
        .client
        .head(server.url(&format!("/{code}")))
        .header("host", &server.host)
        .send()
        .await
        .unwrap();
    assert_eq!(head.status(), StatusCode::OK);
    let counts = tally(&[&server], code, 2).await;
    assert_eq!(
        (got(&counts, "one"), got(&counts, "410")),
        (1, 1),
        "{counts:?}"
    );
    assert_eq!(visit_counts(&server, &key, &chain["id"]).await["one"], 1);
    // Every visit reached the chain; its statistics count the people, not the bots.
    let stats = server
        .get(&format!("/chains/{}/stats?days=1", chain["id"]), &key)
        .await;
    assert_eq!(stats.primary_data()["total_clicks"], 2, "{}", stats.text);
}

/// 64 visitors at once against two channels of 20 visits each: exactly 40 get a code, on one
/// SQLite server and across two PostgreSQL instances; total and daily caps alike.
#[tokio::test]
async fn visit_limits_are_exact_under_sixty_four_concurrent_visitors() {
    const RACERS: usize = 64;
    for backend in backends() {
        let servers = instances(backend.clone(), Options::default).await;
        let (_, key) = servers[0].user_with_key("racer", WX_SCOPES).await;
        for cap in [1, 2] {
            let chain = create_wx(
                &servers[0],
                &key,
                json!({"qrcode_vc_type": cap, "visit_type": 3, "channel_list": [
                    channel("a", json!({"visit_limit": 20})),
                    channel("b", json!({"visit_limit": 20})),
                ]}),
            )
            .await;
            let code = chain["code"].as_str().unwrap();
            let servers_ref: Vec<&TestServer> = servers.iter().collect();
            let barrier = Arc::new(tokio::sync::Barrier::new(RACERS));
            let mut tasks = Vec::new();
            for i in 0..RACERS {
                let server = servers_ref[i % servers_ref.len()];
                let request = server
                    .client
                    .get(server.url(&format!("/{code}")))
                    .header("host", &server.host);
                let barrier = barrier.clone();
                tasks.push(tokio::spawn(async move {
                    barrier.wait().await;
                    let reply = request.send().await.expect("visit");
                    let status = reply.status();
                    outcome(status, &reply.text().await.expect("body"))
                }));
            }
            let mut counts: HashMap<String, usize> = HashMap::new();
            for task in tasks {
                *counts.entry(task.await.unwrap()).or_default() += 1;
            }
            assert_eq!(
                (got(&counts, "a"), got(&counts, "b"), got(&counts, "410")),
                (20, 20, 24),
                "{backend:?} cap {cap}: {counts:?}"
            );
            let counted = visit_counts(&servers[0], &key, &chain["id"]).await;
            assert_eq!((counted["a"], counted["b"]), (20, 20), "{backend:?}");
            if cap == 2 {
                // A daily cap opens again the next day.
                servers[0].clock.advance(86_400);
                let counts = tally(&servers_ref, code, 42).await;
                assert_eq!(got(&counts, "410"), 2, "{backend:?}: {counts:?}");
            }
        }
    }
}
