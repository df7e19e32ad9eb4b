//! A bulk create commits in runs; under an `Idempotency-Key` its answer is kept run by run, so
//! a request killed in the middle (`kill -9` of the real binary) is finished by its retry and
//! nothing is created twice: on SQLite after a restart, and (in the suite's pass on
//! PostgreSQL) by the other instance, with ten retries racing. Every retry that is answered
//! gets the same bytes.

#![allow(clippy::unwrap_used, clippy::print_stderr)]

#[path = "../../linkapi-core/tests/pg_cluster.rs"]
mod pg_cluster;
mod support;

use std::collections::HashSet;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use support::Running;

const ITEMS: usize = 10_000;

/// How long a stopped request's hold on its key lasts when it does not let go.
fn idempotency_hold_secs() -> u64 {
    linkapi_core::service::RUN_STALE_AFTER as u64
}
const IDEMPOTENCY_KEY: &str = "resume-after-a-kill";

/// 10,000 chains; every 1,000th with a custom code of `tag`'s.
fn bulk(tag: &str) -> Vec<u8> {
    let chains: Vec<Value> = (0..ITEMS)
        .map(|i| {
            let mut chain = json!({"target_url": format!("https://example.com/resume/{i}")});
            if i % 1000 == 0 {
                chain["code"] = json!(format!("{tag}{i}"));
            }
            chain
        })
        .collect();
    serde_json::to_vec(&json!({ "chains": chains })).unwrap()
}

fn args<'a>(config: &'a str, store: &'a [&'a str]) -> Vec<&'a str> {
    let mut args = vec!["--listen", "127.0.0.1:0", "--config", config];
    args.extend_from_slice(store);
    args
}

/// Users made so far, for their names.
static USERS: AtomicUsize = AtomicUsize::new(0);

/// A user with room for the test's chains, and a key of theirs.
async fn user_key(http: &reqwest::Client, base: &str) -> String {
    let name = format!("resumed-{}", USERS.fetch_add(1, Ordering::SeqCst));
    let user = json!({"name": name, "daily_quota": 100_000});
    let scopes = ["chains:read", "chains:write"];
    support::user_with_keys(http, base, &user, &scopes, 1)
        .await
        .remove(0)
}

/// How many chains the key's user has, by the listing's total.
async fn chains(http: &reqwest::Client, base: &str, key: &str) -> u64 {
    let listed: Value = http
        .get(format!("{base}/chains?page_size=1"))
        .bearer_auth(key)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    listed["data"]["total"].as_u64().unwrap()
}

async fn send(
    http: &reqwest::Client,
    base: &str,
    key: &str,
    body: &[u8],
) -> reqwest::Result<reqwest::Response> {
    http.post(format!("{base}/chains/bulk"))
        .bearer_auth(key)
        .header("idempotency-key", IDEMPOTENCY_KEY)
        .header("content-type", "application/json")
        .body(body.to_vec())
        .send()
        .await
}

/// Sends the bulk to `base` and kills `victim` once some of it, not all, is committed; returns
/// how many chains there were just before the kill.
async fn kill_in_the_middle(
    http: &reqwest::Client,
    victim: &mut Running,
    key: &str,
    body: &[u8],
) -> u64 {
    let base = victim.url.clone();
    let sent = {
        let (http, key, body, base) = (http.clone(), key.to_owned(), body.to_vec(), base.clone());
        tokio::spawn(async move { send(&http, &base, &key, &body).await })
    };
    let started = Instant::now();
    let mut before = 0;
    while before == 0 {
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "no run committed"
        );
        before = chains(http, &base, key).await;
    }
    victim.child.kill().unwrap();
    victim.child.wait().unwrap();
    assert!(
        before < ITEMS as u64,
        "the bulk ended before the kill: {before}"
    );
    assert!(
        sent.await.unwrap().is_err(),
        "the killed request has no answer"
    );
    before
}

/// Retries until answered (a 409 while the killed request's hold lasts), as a client with
/// the key would; the answer's body.
async fn retry(
    http: reqwest::Client,
    base: String,
    key: String,
    body: Vec<u8>,
) -> (bytes::Bytes, bool) {
    let started = Instant::now();
    loop {
        let answer = send(&http, &base, &key, &body).await.unwrap();
        let status = answer.status().as_u16();
        let replayed = answer.headers().contains_key("idempotency-replayed");
        let text = answer.bytes().await.unwrap();
        match status {
            200 => return (text, replayed),
            409 => {}
            other => panic!(
                "a retry answered {other}: {}",
                String::from_utf8_lossy(&text)
            ),
        }
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "never answered"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

/// What the answer must say: every item created, once, in order.
fn check(answer: &[u8]) {
    let answer: Value = serde_json::from_slice(answer).unwrap();
    let data = &answer["data"];
    assert_eq!(data["created"], json!(ITEMS), "{}", data["failed"]);
    let results = data["results"].as_array().unwrap();
    assert_eq!(results.len(), ITEMS);
    let mut codes = HashSet::new();
    for (i, result) in results.iter().enumerate() {
        assert_eq!(result["index"], json!(i));
        assert_eq!(result["ok"], json!(true), "{result}");
        let chain = &result["chain"];
        assert_eq!(
            chain["target_url"],
            json!(format!("https://example.com/resume/{i}"))
        );
        assert!(codes.insert(chain["code"].as_str().unwrap().to_owned()));
    }
}

/// On SQLite, or (`LINKAPI_TEST_BACKEND=postgres`, the suite's second pass) on two
/// PostgreSQL instances.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bulk_killed_in_the_middle_is_finished_by_its_retry_and_creates_nothing_twice() {
    if pg_cluster::selected() {
        return on_postgresql().await;
    }
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("linkapi.toml");
    std::fs::write(
        &config,
        "public_url = \"http://short.example\"\nrate_limit_per_second = 0\n",
    )
    .unwrap();
    let data = dir.path().join("data");
    let (config, data) = (config.to_str().unwrap(), data.to_str().unwrap());
    let store = ["--data-dir", data];
    let mut first = Running::start(&args(config, &store));
    let http = support::client();
    let key = user_key(&http, &first.url).await;
    let body = bulk("killed");
    let before = kill_in_the_middle(&http, &mut first, &key, &body).await;
    // The next process lets the retry take the killed request's runs over at once.
    let second = Running::start(&args(config, &store));
    let (answer, replayed) =
        retry(http.clone(), second.url.clone(), key.clone(), body.clone()).await;
    assert!(!replayed, "the retry finished the create");
    check(&answer);
    assert_eq!(
        chains(&http, &second.url, &key).await,
        ITEMS as u64,
        "none twice"
    );
    let (again, replayed) = retry(http.clone(), second.url.clone(), key.clone(), body).await;
    assert!(replayed);
    assert_eq!(again, answer, "a repeat gets the same bytes");
    eprintln!("killed after {before} of {ITEMS}; finished by the retry");

    // A client that goes away in the middle: the server lets go of the key, and the retry
    // finishes the create at once, without waiting for the hold to lapse.
    let key = user_key(&http, &second.url).await;
    let sent = {
        let (http, base, key, body) = (http.clone(), second.url.clone(), key.clone(), bulk("gone"));
        tokio::spawn(async move { send(&http, &base, &key, &body).await })
    };
    while chains(&http, &second.url, &key).await == 0 {
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    sent.abort();
    let gone = chains(&http, &second.url, &key).await;
    let started = Instant::now();
    let (answer, _) = retry(http.clone(), second.url.clone(), key.clone(), bulk("gone")).await;
    check(&answer);
    assert_eq!(
        chains(&http, &second.url, &key).await,
        ITEMS as u64,
        "none twice"
    );
    let took = started.elapsed();
    assert!(
        took < Duration::from_secs(idempotency_hold_secs()),
        "the retry waited {took:?}"
    );
    eprintln!("the client went away after {gone} of {ITEMS}; the retry finished in {took:?}");
    second.stop();
}

/// Killed on one instance, finished by one of ten retries racing on the other.
async fn on_postgresql() {
    let Some(cluster) = pg_cluster::cluster() else {
        return;
    };
    let url = cluster.new_database();
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("linkapi.toml");
    std::fs::write(
        &config,
        "public_url = \"http://short.example\"\nrate_limit_per_second = 0\n",
    )
    .unwrap();
    let config = config.to_str().unwrap();
    let store = ["--database-url", url.as_str()];
    let mut first = Running::start(&args(config, &store));
    let other = Running::start(&args(config, &store));
    let http = support::client();
    let key = user_key(&http, &first.url).await;
    let body = bulk("killed");
    let before = kill_in_the_middle(&http, &mut first, &key, &body).await;
    // Ten retries at once on the other instance: they wait out the killed request's hold,
    // then one finishes the create and the others are given its answer.
    let retries = (0..10).map(|_| {
        tokio::spawn(retry(
            http.clone(),
            other.url.clone(),
            key.clone(),
            body.clone(),
        ))
    });
    let answers: Vec<(bytes::Bytes, bool)> = futures_util::future::join_all(retries)
        .await
        .into_iter()
        .map(Result::unwrap)
        .collect();
    check(&answers[0].0);
    assert!(
        answers.iter().all(|(a, _)| *a == answers[0].0),
        "every answer the same bytes"
    );
    assert_eq!(
        answers.iter().filter(|(_, replayed)| !replayed).count(),
        1,
        "one finished it"
    );
    assert_eq!(
        chains(&http, &other.url, &key).await,
        ITEMS as u64,
        "none twice"
    );
    eprintln!("killed after {before} of {ITEMS}; finished by one of ten retries");
    other.stop();
}
