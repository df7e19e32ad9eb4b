//! Statistics breakdowns: visits by referrer, device, OS, browser, country (from a MaxMind
//! database the test writes), language and rule, exact on every backend; the cap of distinct
//! values per chain, day and dimension under a flood, on one instance and racing on two.

use std::collections::BTreeMap;
use std::net::Ipv4Addr;

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::mmdb::country_database;
use crate::support::{Backend, Options, TestServer};

pub(crate) const IPHONE: &str = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) \
    AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1";
pub(crate) const ANDROID_TABLET: &str = "Mozilla/5.0 (Linux; Android 13; SM-X710) AppleWebKit/537.36 \
    (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36";
pub(crate) const WINDOWS_FIREFOX: &str =
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:121.0) Gecko/20100101 Firefox/121.0";
const CURL: &str = "curl/8.5.0";

/// A server behind a trusted proxy (the test's own address), with a country database:
/// 203.0.113.0/25 is CN, 203.0.113.128/25 US, 198.51.100.0/24 DE; other addresses have none.
pub(crate) async fn server_on(backend: Backend) -> (TestServer, tempfile::TempDir) {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let path = dir.path().join("countries.mmdb");
    std::fs::write(
        &path,
        country_database(&[
            (Ipv4Addr::new(203, 0, 113, 0), 25, "CN"),
            (Ipv4Addr::new(203, 0, 113, 128), 25, "US"),
            (Ipv4Addr::new(198, 51, 100, 0), 24, "DE"),
        ]),
    )
    .expect("the database written");
    let server = TestServer::start_on(backend, options(&path)).await;
    (server, dir)
}

/// Two instances on one PostgreSQL database, both as [`server_on`] makes them; `None` when
/// PostgreSQL is not installed.
pub(crate) async fn two_instances() -> Option<(TestServer, TestServer, tempfile::TempDir)> {
    let (a, geo) = server_on(Backend::postgres()?).await;
    let b = a.start_peer(geo_options(&geo)).await;
    Some((a, b, geo))
}

/// The options [`server_on`] starts a server with, for a restart or a peer.
pub(crate) fn geo_options(dir: &tempfile::TempDir) -> Options {
    options(&dir.path().join("countries.mmdb"))
}

fn options(geo: &std::path::Path) -> Options {
    Options {
        trusted_proxies: vec!["127.0.0.1/32"],
        geoip_database: Some(geo.to_path_buf()),
        ..Options::default()
    }
}

/// A visit of `code` from `client` with `agent`, `referer` and `language` (empty: not sent).
async fn visit(
    server: &TestServer,
    code: &str,
    client: &str,
    agent: &str,
    referer: &str,
    language: &str,
) {
    let mut request = server
        .client
        .get(server.url(&format!("/{code}")))
        .header("host", &server.host)
        .header("x-forwarded-for", client)
        .header("user-agent", agent);
    if !referer.is_empty() {
        request = request.header("referer", referer);
    }
    if !language.is_empty() {
        request = request.header("accept-language", language);
    }
    let status = request.send().await.expect("a visit").status();
    assert_eq!(status, StatusCode::FOUND);
}

pub(crate) async fn breakdown(server: &TestServer, key: &str, chain: &Value, query: &str) -> Value {
    server
        .get(&format!("/chains/{}/stats/{query}", chain["id"]), key)
        .await
        .primary_data()
        .clone()
}

/// The items of a breakdown as value to clicks.
pub(crate) fn items(figures: &Value) -> BTreeMap<String, i64> {
    figures["items"]
        .as_array()
        .expect("items")
        .iter()
        .map(|item| {
            (
                item["value"].as_str().expect("a value").to_owned(),
                item["clicks"].as_i64().expect("clicks"),
            )
        })
        .collect()
}

pub(crate) fn expect(pairs: &[(&str, i64)]) -> BTreeMap<String, i64> {
    pairs.iter().map(|(v, n)| ((*v).to_owned(), *n)).collect()
}

#[tokio::test]
async fn visits_break_down_exactly_by_every_dimension() {
    let (server, _geo) = server_on(Backend::from_env()).await;
    let (_, key) = server.full_user("marketer").await;
    let chain = server
        .create_chain(
            &key,
            json!({"target_url": "https://e.com/spring", "code": "spring"}),
        )
        .await;
    // (visits, client, agent, referer, accept-language)
    let spread: &[(usize, &str, &str, &str, &str)] = &[
        (
            5,
            "203.0.113.7",
            IPHONE,
            "https://www.google.com/search?q=x",
            "zh-CN,zh;q=0.9",
        ),
        (
            3,
            "203.0.113.200",
            IPHONE,
            "https://t.co/abc",
            "en-US,en;q=0.8",
        ),
        (2, "198.51.100.4", ANDROID_TABLET, "", "de-DE"),
        (
            4,
            "192.0.2.9",
            WINDOWS_FIREFOX,
            "https://news.example.org:8443/a",
            "",
        ),
        (
            1,
            "203.0.113.8",
            WINDOWS_FIREFOX,
            "https://Google.com/",
            "ZH",
        ),
        // Bots: in devices only.
        (6, "203.0.113.9", CURL, "https://t.co/abc", "en"),
    ];
    for (times, client, agent, referer, language) in spread {
        for _ in 0..*times {
            visit(&server, "spring", client, agent, referer, language).await;
        }
    }
    server.flush_visits().await;
    let cases: [(&str, &[(&str, i64)]); 7] = [
        (
            "referrers",
            &[
                ("google.com", 6),
                ("t.co", 3),
                ("direct", 2),
                ("news.example.org", 4),
            ],
        ),
        (
            "devices",
            &[("mobile", 8), ("tablet", 2), ("desktop", 5), ("bot", 6)],
        ),
        ("os", &[("iOS", 8), ("Android", 2), ("Windows", 5)]),
        ("browsers", &[("Safari", 8), ("Chrome", 2), ("Firefox", 5)]),
        (
            "countries",
            &[("CN", 6), ("US", 3), ("DE", 2), ("unknown", 4)],
        ),
        (
            "languages",
            &[("zh", 6), ("en", 3), ("de", 2), ("unknown", 4)],
        ),
        ("rules", &[("default", 15)]),
    ];
    for (dimension, expected) in cases {
        let figures = breakdown(&server, &key, &chain, dimension).await;
        assert_eq!(figures["chain_id"], chain["id"]);
        assert_eq!(figures["dimension"], dimension);
        assert_eq!(figures["days"], 7);
        assert_eq!(items(&figures), expect(expected), "{dimension}");
        assert_eq!(figures["other_clicks"], 0, "{dimension}");
        // Most visits first.
        let clicks: Vec<i64> = figures["items"]
            .as_array()
            .expect("items")
            .iter()
            .filter_map(|i| i["clicks"].as_i64())
            .collect();
        assert!(
            clicks.windows(2).all(|w| w[0] >= w[1]),
            "{dimension}: {clicks:?}"
        );
    }
    // The top two, the rest as other.
    let top = breakdown(&server, &key, &chain, "countries?limit=2").await;
    assert_eq!(items(&top), expect(&[("CN", 6), ("unknown", 4)]));
    assert_eq!(top["other_clicks"], 5);
    // A window of today alone holds them all.
    let today = breakdown(&server, &key, &chain, "os?days=1").await;
    assert_eq!(today["days"], 1);
    assert_eq!(items(&today)["iOS"], 8);
}

#[tokio::test]
async fn visits_of_other_days_fall_outside_the_window() {
    let (server, _geo) = server_on(Backend::from_env()).await;
    let (_, key) = server.full_user("windows").await;
    let chain = server
        .create_chain(&key, json!({"target_url": "https://e.com", "code": "days"}))
        .await;
    for _ in 0..3 {
        visit(
            &server,
            "days",
            "203.0.113.7",
            IPHONE,
            "https://a.example/",
            "",
        )
        .await;
    }
    server.flush_visits().await;
    server.clock.advance(2 * 86_400);
    visit(
        &server,
        "days",
        "203.0.113.7",
        IPHONE,
        "https://b.example/",
        "",
    )
    .await;
    server.flush_visits().await;
    let recent = breakdown(&server, &key, &chain, "referrers?days=2").await;
    assert_eq!(items(&recent), expect(&[("b.example", 1)]));
    let week = breakdown(&server, &key, &chain, "referrers").await;
    assert_eq!(items(&week), expect(&[("a.example", 3), ("b.example", 1)]));
}

#[tokio::test]
async fn a_flood_of_referrers_keeps_a_hundred_a_day_and_counts_the_rest() {
    let (server, _geo) = server_on(Backend::from_env()).await;
    let (_, key) = server.full_user("flooded").await;
    let chain = server
        .create_chain(
            &key,
            json!({"target_url": "https://e.com", "code": "flood"}),
        )
        .await;
    // 60 distinct referrers, written; then 90 more, 30 of them repeats of the first.
    for i in 0..60 {
        let referer = format!("https://r{i}.example/");
        visit(&server, "flood", "203.0.113.7", IPHONE, &referer, "").await;
    }
    server.flush_visits().await;
    for i in 30..120 {
        let referer = format!("https://r{i}.example/");
        visit(&server, "flood", "203.0.113.7", IPHONE, &referer, "").await;
    }
    server.flush_visits().await;
    let figures = breakdown(&server, &key, &chain, "referrers?limit=100").await;
    let kept = items(&figures);
    assert_eq!(kept.len(), 100);
    let listed: i64 = kept.values().sum();
    assert_eq!(
        listed + figures["other_clicks"].as_i64().expect("other"),
        150
    );
    // The first 60 were kept (30 of them visited twice), then 40 of the 60 new ones.
    for i in 0..60 {
        assert_eq!(kept[&format!("r{i}.example")], if i >= 30 { 2 } else { 1 });
    }
    assert_eq!(figures["other_clicks"], 20);
    // Other dimensions are whole.
    let os = breakdown(&server, &key, &chain, "os").await;
    assert_eq!(items(&os), expect(&[("iOS", 150)]));
}

#[tokio::test]
async fn two_instances_flooding_one_chain_keep_to_the_cap_and_add_up() {
    let Some((a, b, _geo)) = two_instances().await else {
        return;
    };
    let (_, key) = a.full_user("raced").await;
    let chain = a
        .create_chain(
            &key,
            json!({"target_url": "https://e.com", "code": "raced"}),
        )
        .await;
    // 80 distinct referrers on each instance, 20 of them on both, at once; then both flush
    // at once, so their writes of the day race.
    let visits = |server: &TestServer, first: usize| {
        let requests: Vec<_> = (first..first + 80)
            .map(|i| {
                server
                    .client
                    .get(server.url("/raced"))
                    .header("host", &a.host)
                    .header("x-forwarded-for", "203.0.113.7")
                    .header("user-agent", IPHONE)
                    .header("referer", format!("https://r{i}.example/"))
            })
            .collect();
        async move {
            for request in requests {
                assert_eq!(
                    request.send().await.expect("a visit").status(),
                    StatusCode::FOUND
                );
            }
        }
    };
    tokio::join!(visits(&a, 0), visits(&b, 60));
    tokio::join!(a.flush_visits(), b.flush_visits());
    for server in [&a, &b] {
        let figures = breakdown(server, &key, &chain, "referrers?limit=100").await;
        let kept = items(&figures);
        assert_eq!(kept.len(), 100, "kept {} values", kept.len());
        let listed: i64 = kept.values().sum();
        assert_eq!(
            listed + figures["other_clicks"].as_i64().expect("other"),
            160
        );
        let os = breakdown(server, &key, &chain, "os").await;
        assert_eq!(items(&os), expect(&[("iOS", 160)]));
    }
    // Sixty days on, a 120-day window holds the day's whole 30-day span and reads the span's
    // row, which both instances' racing flushes added to: the same figures as the day's.
    let by_day = breakdown(&a, &key, &chain, "referrers?limit=100").await;
    a.clock.advance(60 * 86_400);
    for server in [&a, &b] {
        let figures = breakdown(server, &key, &chain, "referrers?limit=100&days=120").await;
        assert_eq!(items(&figures), items(&by_day));
        assert_eq!(figures["other_clicks"], by_day["other_clicks"]);
    }
}

#[tokio::test]
async fn breakdowns_refuse_bad_windows_and_other_users_chains() {
    let (server, _geo) = server_on(Backend::from_env()).await;
    let (_, key) = server.full_user("owner").await;
    let (_, other) = server.full_user("other").await;
    let chain = server
        .create_chain(&key, json!({"target_url": "https://e.com", "code": "mine"}))
        .await;
    let id = &chain["id"];
    for (query, code) in [
        ("referrers?days=0", "invalid_days"),
        ("referrers?days=366", "invalid_days"),
        ("referrers?limit=0", "invalid_limit"),
        ("referrers?limit=101", "invalid_limit"),
    ] {
        server
            .get(&format!("/chains/{id}/stats/{query}"), &key)
            .await
            .assert_primary_error(StatusCode::BAD_REQUEST, code);
    }
    server
        .get(&format!("/chains/{id}/stats/referrers"), &other)
        .await
        .assert_primary_error(StatusCode::NOT_FOUND, "not_found");
    server
        .get(&format!("/chains/{id}/stats/planets"), &key)
        .await
        .assert_primary_error(StatusCode::NOT_FOUND, "not_found");
    let empty = breakdown(&server, &key, &chain, "devices").await;
    assert_eq!(empty["items"], json!([]));
    assert_eq!(empty["other_clicks"], 0);
}

#[tokio::test]
async fn the_callers_summary_adds_up_their_live_chains_and_ranks_them() {
    let (server, _geo) = server_on(Backend::from_env()).await;
    let (_, key) = server.full_user("summed").await;
    let (_, other) = server.full_user("elsewhere").await;
    for (owner, code) in [
        (&key, "most"),
        (&key, "less"),
        (&key, "quiet"),
        (&key, "gone"),
        (&other, "theirs"),
    ] {
        server
            .create_chain(owner, json!({"target_url": "https://e.com", "code": code}))
            .await;
    }
    for (code, times) in [("most", 5), ("less", 2), ("gone", 3), ("theirs", 4)] {
        for _ in 0..times {
            visit(&server, code, "203.0.113.7", IPHONE, "", "").await;
        }
    }
    for _ in 0..2 {
        visit(&server, "most", "203.0.113.9", CURL, "", "").await;
    }
    server.flush_visits().await;
    let gone = server.get("/chains?q=gone", &key).await.primary_data()["list"][0]["id"].clone();
    server
        .delete(&format!("/chains/{gone}"), &key)
        .await
        .primary_data();

    let summary = server.get("/stats", &key).await.primary_data().clone();
    assert_eq!(summary["days"], 7);
    assert_eq!(
        summary["total_clicks"], 7,
        "deleted and others' chains left out"
    );
    assert_eq!(summary["bot_clicks"], 2);
    let ranked: Vec<(String, i64)> = summary["top_chains"]
        .as_array()
        .expect("top chains")
        .iter()
        .map(|c| {
            (
                c["code"].as_str().expect("code").to_owned(),
                c["clicks"].as_i64().expect("clicks"),
            )
        })
        .collect();
    assert_eq!(ranked, [("most".to_owned(), 5), ("less".to_owned(), 2)]);
    assert_eq!(
        summary["top_chains"][0]["render_url"],
        format!("http://{}/most", server.host)
    );
    let first = server
        .get("/stats?limit=1", &key)
        .await
        .primary_data()
        .clone();
    assert_eq!(first["top_chains"].as_array().map(Vec::len), Some(1));
    assert_eq!(first["total_clicks"], 7);

    // Two days on, a window of one day holds that day's visit only.
    server.clock.advance(2 * 86_400);
    visit(&server, "less", "203.0.113.7", IPHONE, "", "").await;
    server.flush_visits().await;
    let today = server
        .get("/stats?days=1", &key)
        .await
        .primary_data()
        .clone();
    assert_eq!(today["total_clicks"], 1);
    assert_eq!(today["top_chains"][0]["code"], "less");
    // A week holds both days: on SQLite the first day's rows are folded into the counters by
    // the flush that counted the later one, which is still apart (recent).
    let week = server.get("/stats", &key).await.primary_data().clone();
    assert_eq!(
        (&week["total_clicks"], &week["bot_clicks"]),
        (&json!(8), &json!(2))
    );
    let ranked: Vec<(&str, i64)> = week["top_chains"]
        .as_array()
        .expect("top chains")
        .iter()
        .map(|c| {
            (
                c["code"].as_str().unwrap_or(""),
                c["clicks"].as_i64().unwrap_or(0),
            )
        })
        .collect();
    assert_eq!(ranked, [("most", 5), ("less", 3)]);
    // Someone without chains has nothing; bad windows are refused.
    let (_, empty) = server.full_user("empty").await;
    let nothing = server.get("/stats", &empty).await.primary_data().clone();
    assert_eq!(nothing["total_clicks"], 0);
    assert_eq!(nothing["top_chains"], json!([]));
    for (query, code) in [("days=0", "invalid_days"), ("limit=101", "invalid_limit")] {
        server
            .get(&format!("/stats?{query}"), &key)
            .await
            .assert_primary_error(StatusCode::BAD_REQUEST, code);
    }
    // `stats` is an API path now, so no code.
    server
        .post(
            "/chains",
            &key,
            json!({"target_url": "https://e.com", "code": "Stats"}),
        )
        .await
        .assert_primary_error(StatusCode::BAD_REQUEST, "invalid_code");
}
