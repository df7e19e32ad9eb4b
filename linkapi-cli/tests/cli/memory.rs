//! What concurrent bulk work costs the real server's memory: the `linkapi serve` binary, its
//! anonymous memory read from `/proc` (`RssAnon`) while clients send the largest bulk creates
//! at once, from one key and from many. Within the default budgets a 512 MiB container holds
//! the peak, memory goes back after the burst, every request is answered (created, or refused
//! with `Retry-After` before any work), and every chain reported created is there once.

use std::collections::HashSet;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::memory_probe::{MIB, largest_bulk, rss_anon};
use crate::serve::{Data, Running, address, start_logging};
use crate::support::Home;

const ADMIN: &str = "lk_memory_admin_key_000000000000001";

fn client() -> reqwest::Client {
    let _ = rustls::crypto::ring::default_provider().install_default();
    reqwest::Client::builder()
        .timeout(Duration::from_secs(300))
        .build()
        .unwrap()
}

/// A new user with a key that may create and list chains.
async fn user_key(http: &reqwest::Client, base: &str, name: &str) -> String {
    let user: Value = http
        .post(format!("{base}/admin/users"))
        .bearer_auth(ADMIN)
        .json(&json!({"name": name}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let key: Value = http
        .post(format!("{base}/admin/keys"))
        .bearer_auth(ADMIN)
        .json(&json!({"user_id": user["data"]["id"], "scopes": ["chains:read", "chains:write"]}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    key["data"]["api_key"].as_str().unwrap().to_owned()
}

/// Every code of `key`'s chains, page by page, waiting out the key's rate limit as a client
/// must (a few bulks of 10,000 chains are more pages than a key's burst).
async fn listed(http: &reqwest::Client, base: &str, key: &str) -> Vec<String> {
    let mut codes = Vec::new();
    let mut page = 1;
    loop {
        let answer = http
            .get(format!("{base}/chains?page={page}&page_size=100"))
            .bearer_auth(key)
            .send()
            .await
            .unwrap();
        if answer.status() == reqwest::StatusCode::TOO_MANY_REQUESTS {
            let wait = answer
                .headers()
                .get("retry-after")
                .and_then(|v| v.to_str().ok()?.parse().ok())
                .unwrap_or(1);
            tokio::time::sleep(Duration::from_secs(wait)).await;
            continue;
        }
        let answer: Value = answer.json().await.unwrap();
        let list = answer["data"]["list"]
            .as_array()
            .unwrap_or_else(|| panic!("{answer}"));
        codes.extend(list.iter().map(|c| c["code"].as_str().unwrap().to_owned()));
        if list.len() < 100 {
            return codes;
        }
        page += 1;
    }
}

/// Sends `requests` (key, body) at once while sampling the server's memory; returns the peak
/// and, per request's key, the codes it reports created.
async fn burst(
    http: &reqwest::Client,
    base: &str,
    pid: u32,
    requests: Vec<(String, bytes::Bytes)>,
) -> (u64, Vec<(String, Vec<String>)>) {
    let done = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let sampler = {
        let done = done.clone();
        tokio::spawn(async move {
            let mut peak = 0;
            while !done.load(std::sync::atomic::Ordering::SeqCst) {
                peak = peak.max(rss_anon(pid));
                tokio::time::sleep(Duration::from_millis(10)).await;
            }
            peak.max(rss_anon(pid))
        })
    };
    let sent = requests.into_iter().map(|(key, body)| {
        let http = http.clone();
        let url = format!("{base}/chains/bulk");
        async move {
            let answer = http
                .post(url)
                .bearer_auth(&key)
                .header("content-type", "application/json")
                .body(body)
                .send()
                .await
                .unwrap();
            let status = answer.status().as_u16();
            let retry_after = answer.headers().get("retry-after").cloned();
            let text = answer.text().await.unwrap();
            match status {
                200 => {
                    let created: Value = serde_json::from_str(&text).unwrap();
                    let codes = created["data"]["results"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .filter_map(|r| r["chain"]["code"].as_str().map(str::to_owned))
                        .collect();
                    (key, codes)
                }
                429 | 503 => {
                    assert!(
                        retry_after.is_some(),
                        "{status} without Retry-After: {text}"
                    );
                    (key, Vec::new())
                }
                other => panic!("a bulk create answered {other}: {text}"),
            }
        }
    });
    let answers = futures_util::future::join_all(sent).await;
    done.store(true, std::sync::atomic::Ordering::SeqCst);
    (sampler.await.unwrap(), answers)
}

/// Checks that every code reported created is listed for its key, none twice.
async fn all_listed_once(http: &reqwest::Client, base: &str, answers: &[(String, Vec<String>)]) {
    let keys: HashSet<&String> = answers.iter().map(|(key, _)| key).collect();
    for key in keys {
        let reported: Vec<&String> = answers
            .iter()
            .filter(|(k, _)| k == key)
            .flat_map(|(_, codes)| codes)
            .collect();
        let listed = listed(http, base, key).await;
        let unique: HashSet<&String> = listed.iter().collect();
        assert_eq!(unique.len(), listed.len(), "a chain listed twice");
        assert_eq!(
            listed.len(),
            reported.len(),
            "listed against reported created"
        );
        for code in reported {
            assert!(unique.contains(code), "{code} reported created, not listed");
        }
    }
}

/// `linkapi serve` on `data` with a quota no test here reaches: the running server (stopped
/// when dropped), its log, its base URL and its pid.
fn serve_for_memory(
    home: &Home,
    data: &Data,
) -> (Running, std::sync::mpsc::Receiver<String>, String, u32) {
    let config = data.dir.path().join("memory.toml");
    std::fs::write(&config, "daily_create_quota = 10000000\n").unwrap();
    let (running, lines, log) = start_logging(
        home,
        data,
        Some(ADMIN),
        "warn",
        &[
            "--listen",
            "127.0.0.1:0",
            "--config",
            config.to_str().unwrap(),
        ],
    );
    let base = format!("http://{}", address(&lines));
    let pid = running.0.id();
    (running, log, base, pid)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn concurrent_largest_bulk_creates_stay_within_a_small_container() {
    let home = Home::new();
    let data = Data::new();
    let (_running, _log, base, pid) = serve_for_memory(&home, &data);
    let http = client();

    // Twelve of one ordinary key at once.
    let key = user_key(&http, &base, "bulk").await;
    let body = largest_bulk("one");
    let requests = (0..12).map(|_| (key.clone(), body.clone())).collect();
    let (peak, answers) = burst(&http, &base, pid, requests).await;
    assert!(peak < 512 * MIB, "one key: {} MiB at the peak", peak / MIB);
    assert!(
        answers.iter().any(|(_, codes)| !codes.is_empty()),
        "one was created"
    );
    drop(body);
    let settled = Instant::now();
    tokio::time::sleep(Duration::from_secs(10)).await;
    let after = rss_anon(pid);
    assert!(
        after < 256 * MIB,
        "one key: {} MiB ten seconds after",
        after / MIB
    );
    all_listed_once(&http, &base, &answers).await;
    eprintln!(
        "one key: peak {} MiB, {} MiB {:?} after",
        peak / MIB,
        after / MIB,
        settled.elapsed()
    );

    // Forty keys, one each, at once.
    let mut requests = Vec::new();
    let body = largest_bulk("many");
    for i in 0..40 {
        requests.push((
            user_key(&http, &base, &format!("bulk-{i}")).await,
            body.clone(),
        ));
    }
    let (peak, answers) = burst(&http, &base, pid, requests).await;
    assert!(
        peak < 512 * MIB,
        "forty keys: {} MiB at the peak",
        peak / MIB
    );
    drop(body);
    tokio::time::sleep(Duration::from_secs(10)).await;
    let after = rss_anon(pid);
    assert!(
        after < 256 * MIB,
        "forty keys: {} MiB ten seconds after",
        after / MIB
    );
    all_listed_once(&http, &base, &answers).await;
    eprintln!(
        "forty keys: peak {} MiB, {} MiB after",
        peak / MIB,
        after / MIB
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_export_holds_a_page_however_many_chains_it_writes() {
    let home = Home::new();
    let data = Data::new();
    let (_running, _log, base, pid) = serve_for_memory(&home, &data);
    let http = client();
    let key = user_key(&http, &base, "exporter").await;
    for part in ["first", "second"] {
        let answer = http
            .post(format!("{base}/chains/bulk"))
            .bearer_auth(&key)
            .header("content-type", "application/json")
            .body(largest_bulk(part))
            .send()
            .await
            .unwrap();
        assert_eq!(answer.status(), 200, "{}", answer.text().await.unwrap());
    }
    tokio::time::sleep(Duration::from_secs(3)).await;
    let before = rss_anon(pid);

    // The real CLI reads the export into a file while the server's memory is sampled.
    let out = data.dir.path().join("all.jsonl");
    let mut cmd = home.cmd();
    cmd.env("LINKAPI_HOST", &base).env("LINKAPI_API_KEY", &key);
    let args = ["chain", "export", "--output", out.to_str().unwrap()].map(str::to_owned);
    let export = tokio::task::spawn_blocking(move || {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        home.run_with(cmd, &args, None)
    });
    let mut peak = before;
    while !export.is_finished() {
        peak = peak.max(rss_anon(pid));
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    let export = export.await.unwrap();
    assert_eq!(export.code, 0, "{}", export.stderr);
    let written = std::fs::read_to_string(&out).unwrap();
    assert_eq!(written.lines().count(), 20_000);
    assert!(written.len() as u64 > 50 * MIB, "{} bytes", written.len());
    let grew = peak.saturating_sub(before);
    eprintln!(
        "export of {} MiB: the server grew {} MiB",
        written.len() as u64 / MIB,
        grew / MIB
    );
    assert!(
        grew < 24 * MIB,
        "the server grew {} MiB while writing {} MiB",
        grew / MIB,
        written.len() as u64 / MIB
    );
}
