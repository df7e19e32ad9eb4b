//! `cargo bench -p linkapi-core --bench stats`: statistics and listings stay fast however many
//! visits a chain has.
//!
//! On SQLite, then on PostgreSQL (a throwaway cluster, as the tests start one; skipped when
//! PostgreSQL is not installed), a chain gets 10 million visits from 1 million visitors spread
//! over the 365 days before "now", recorded through the real visit pipeline
//! (`App::record_visit`, flushed day by day); 19 more chains get a few visits each. Then, over
//! real HTTP, the bench times `GET /chains/{id}/stats?days=365`, the chain's breakdowns by
//! referrer (from 500 referring sites, so every day is at its cap of 100) and by language over
//! the year, the caller's summary (`GET /stats?days=365`), and a listing page (`GET /chains`,
//! 20 chains with their page views), and in the same run the outside baseline:
//! counting the chain's distinct visitors with SQL straight on the database, as a server
//! without counters would. It prints medians and p95s and the ratio.
//!
//! `LINKAPI_BENCH_VISITS` and `LINKAPI_BENCH_VISITORS` scale the data down for a quick look.

#![allow(
    clippy::unwrap_used,
    clippy::print_stdout,
    clippy::print_stderr,
    missing_docs
)]

#[path = "../tests/pg_cluster.rs"]
mod pg_cluster;

use std::net::{IpAddr, Ipv4Addr};
use std::sync::Arc;
use std::time::{Duration, Instant};

use linkapi_core::service::VisitRequest;
use linkapi_core::store::Store;
use linkapi_core::store::postgres::{PgOptions, PgStore};
use linkapi_core::{App, AppConfig, ManualClock, ServerConfig, SqliteStore, serve};
use serde_json::{Value, json};

const KEY: &str = "lk_bench_stats_admin_key_0000001";
const DAY: i64 = 86_400;
/// 2027-01-15 08:00 UTC.
const NOW: i64 = 1_800_000_000;
const AGENT: &[u8] = b"Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0";
/// The big chain's visitors' browsers, phones and computers.
const AGENTS: [&[u8]; 4] = [
    AGENT,
    b"Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 \
      (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1",
    b"Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) \
      Chrome/120.0.0.0 Mobile Safari/537.36",
    b"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) \
      Chrome/120.0.0.0 Safari/537.36",
];
/// Languages of the big chain's visitors.
const LANGUAGES: [&[u8]; 8] = [
    b"en-US,en;q=0.9",
    b"zh-CN,zh;q=0.9",
    b"de-DE",
    b"fr-FR,fr",
    b"ja",
    b"es-ES",
    b"pt-BR",
    b"",
];
/// Sites referring the big chain's visitors: five times a day's cap of distinct values.
const REFERRING_SITES: u64 = 500;

fn setting(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.replace('_', "").parse().ok())
        .unwrap_or(default)
}

enum Backend {
    Sqlite(tempfile::TempDir),
    Postgres(String),
}

impl Backend {
    fn name(&self) -> &'static str {
        match self {
            Backend::Sqlite(_) => "SQLite",
            Backend::Postgres(_) => "PostgreSQL",
        }
    }

    async fn open(&self) -> Arc<dyn Store> {
        match self {
            Backend::Sqlite(dir) => {
                Arc::new(SqliteStore::open(&dir.path().join("linkapi.db")).unwrap())
            }
            Backend::Postgres(url) => {
                Arc::new(PgStore::connect(url, PgOptions::default()).await.unwrap())
            }
        }
    }

    /// The baseline: distinct visitors of `chain` counted from the rows, timed.
    fn count_visitors(&self, chain: i64) -> (i64, Duration) {
        let sql = format!("SELECT count(*) FROM chain_visitors WHERE chain_id = {chain}");
        let started = Instant::now();
        let count = match self {
            Backend::Sqlite(dir) => rusqlite::Connection::open(dir.path().join("linkapi.db"))
                .unwrap()
                .query_row(&sql, [], |r| r.get(0))
                .unwrap(),
            Backend::Postgres(url) => {
                let out = pg_cluster::cluster().unwrap().psql(url, &sql);
                out.trim().parse().unwrap()
            }
        };
        (count, started.elapsed())
    }
}

struct Timing {
    median: Duration,
    p95: Duration,
}

async fn time_calls(client: &reqwest::Client, url: &str, runs: usize) -> (Timing, Value) {
    let mut times = Vec::with_capacity(runs);
    let mut last = Value::Null;
    for _ in 0..runs {
        let started = Instant::now();
        let response = client.get(url).bearer_auth(KEY).send().await.unwrap();
        assert!(
            response.status().is_success(),
            "{url}: {}",
            response.status()
        );
        last = response.json().await.unwrap();
        times.push(started.elapsed());
    }
    times.sort();
    let timing = Timing {
        median: times[runs / 2],
        p95: times[runs * 95 / 100],
    };
    (timing, last)
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

async fn run(backend: Backend, visits: u64, visitors: u64) {
    let clock = ManualClock::new(NOW - 364 * DAY);
    let store = backend.open().await;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let config = AppConfig {
        default_host: addr.to_string(),
        rate_limit: None,
        // The bench flushes itself, day by day.
        visit_flush_interval: Duration::from_secs(3_600),
        ..AppConfig::default()
    };
    let app = App::start(store, Arc::new(clock.clone()), config)
        .await
        .unwrap();
    app.bootstrap(Some(KEY)).await.unwrap();
    let served = app.clone();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let server = tokio::spawn(async move {
        serve(listener, served, ServerConfig::default(), async {
            let _ = stopped.await;
        })
        .await
        .unwrap();
    });
    let base = format!("http://{addr}");
    let _ = rustls::crypto::ring::default_provider().install_default();
    let client = reqwest::Client::new();
    let mut chains = Vec::new();
    for i in 0..20 {
        let created: Value = client
            .post(format!("{base}/chains"))
            .bearer_auth(KEY)
            .json(&json!({"target_url": format!("https://example.com/{i}")}))
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        chains.push(linkapi_core::model::ChainId(
            created["data"]["id"].as_i64().unwrap(),
        ));
    }
    let big = chains[0];

    let referers: Vec<Vec<u8>> = (0..REFERRING_SITES)
        .map(|i| format!("https://site{i}.example/post").into_bytes())
        .collect();
    let started = Instant::now();
    let per_day = visits / 365;
    let mut next_visitor: u64 = 0;
    for day in 0..365 {
        let today = if day == 364 {
            visits - per_day * 364
        } else {
            per_day
        };
        for _ in 0..today {
            // Visitors come back: the pool is walked round and round.
            let visitor = next_visitor % visitors;
            next_visitor = next_visitor.wrapping_add(7_919);
            let address = IpAddr::V4(Ipv4Addr::from(0x0a00_0000 + visitor as u32));
            // A visitor keeps their browser, language and referrer; referrers are spread
            // unevenly, site i referring about 1/sqrt(i) as often as the first.
            let site = ((visitor % 1_000).pow(2) / 2_000) as usize;
            app.record_visit(
                big,
                VisitRequest {
                    address,
                    user_agent: AGENTS[visitor as usize % AGENTS.len()],
                    head: false,
                    referer: &referers[site],
                    accept_language: LANGUAGES[visitor as usize % LANGUAGES.len()],
                    query: "",
                },
            );
        }
        for (i, chain) in chains.iter().enumerate().skip(1) {
            for v in 0..i as u32 {
                let address = IpAddr::V4(Ipv4Addr::from(0xc000_0200 + v));
                app.record_visit(
                    *chain,
                    VisitRequest {
                        address,
                        user_agent: AGENT,
                        head: false,
                        referer: b"",
                        accept_language: b"",
                        query: "",
                    },
                );
            }
        }
        assert!(app.flush_visits().await, "visits written");
        if day < 364 {
            clock.advance(DAY);
        }
    }
    eprintln!(
        "{}: recorded {visits} visits from {visitors} visitors in {:.1}s",
        backend.name(),
        started.elapsed().as_secs_f64()
    );

    let stats_url = format!("{base}/chains/{}/stats?days=365", big.0);
    let (stats, body) = time_calls(&client, &stats_url, 200).await;
    let data = &body["data"];
    assert_eq!(data["total_clicks"].as_u64(), Some(visits));
    assert_eq!(data["unique_visitors"].as_u64(), Some(visitors.min(visits)));
    let referrers_week = format!("{base}/chains/{}/stats/referrers", big.0);
    let (referrers_7, _) = time_calls(&client, &referrers_week, 100).await;
    let referrers_month = format!("{base}/chains/{}/stats/referrers?days=30", big.0);
    let (referrers_30, _) = time_calls(&client, &referrers_month, 100).await;
    let referrers_url = format!("{base}/chains/{}/stats/referrers?days=365&limit=10", big.0);
    let (referrers, body) = time_calls(&client, &referrers_url, 100).await;
    let data = &body["data"];
    let listed: i64 = data["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["clicks"].as_i64().unwrap())
        .sum();
    assert_eq!(
        listed + data["other_clicks"].as_i64().unwrap(),
        visits as i64
    );
    let languages_url = format!("{base}/chains/{}/stats/languages?days=365", big.0);
    let (languages, body) = time_calls(&client, &languages_url, 100).await;
    assert_eq!(
        body["data"]["items"].as_array().map(Vec::len),
        Some(LANGUAGES.len()),
        "{body}"
    );
    let summary_url = format!("{base}/stats?days=365");
    let (summary, body) = time_calls(&client, &summary_url, 100).await;
    assert_eq!(body["data"]["top_chains"][0]["chain_id"], big.0);
    let list_url = format!("{base}/chains?page_size=20");
    let (listing, body) = time_calls(&client, &list_url, 200).await;
    assert_eq!(body["data"]["list"].as_array().map(Vec::len), Some(20));
    let (counted, scan) = backend.count_visitors(big.0);
    assert_eq!(counted as u64, visitors.min(visits));

    println!(
        "{:<11} stats (365 days): median {:.2} ms, p95 {:.2} ms (goal < 10 ms) | \
         listing page: median {:.2} ms, p95 {:.2} ms (goal < 5 ms) | \
         baseline, counting the visitors in SQL: {:.1} ms, {:.0}x the stats call",
        backend.name(),
        ms(stats.median),
        ms(stats.p95),
        ms(listing.median),
        ms(listing.p95),
        ms(scan),
        scan.as_secs_f64() / stats.median.as_secs_f64()
    );
    for (name, timing) in [
        ("by referrer (7 days, the default)", &referrers_7),
        ("by referrer (30 days)", &referrers_30),
        ("by referrer (365 days)", &referrers),
        ("by language (365 days)", &languages),
        ("caller's summary (365 days)", &summary),
    ] {
        println!(
            "{:<11} {name}: median {:.2} ms, p95 {:.2} ms (goal < 10 ms) | baseline {:.0}x it",
            backend.name(),
            ms(timing.median),
            ms(timing.p95),
            scan.as_secs_f64() / timing.median.as_secs_f64()
        );
    }
    let _ = stop.send(());
    server.await.unwrap();
}

#[tokio::main]
async fn main() {
    let visits = setting("LINKAPI_BENCH_VISITS", 10_000_000);
    let visitors = setting("LINKAPI_BENCH_VISITORS", 1_000_000);
    run(
        Backend::Sqlite(tempfile::TempDir::new().unwrap()),
        visits,
        visitors,
    )
    .await;
    match pg_cluster::cluster() {
        Some(cluster) => run(Backend::Postgres(cluster.new_database()), visits, visitors).await,
        None => eprintln!("PostgreSQL is not installed: skipped"),
    }
}
