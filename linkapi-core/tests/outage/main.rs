//! A database outage under load: PostgreSQL stopped while two instances serve redirects, then
//! started again. This test stops the cluster it uses, so it is a test binary of its own: its
//! process has a cluster no other test shares.

#![allow(clippy::unwrap_used, clippy::print_stderr)]

#[path = "../pg_cluster.rs"]
mod pg_cluster;
#[allow(dead_code)]
#[path = "../api/support.rs"]
mod support;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

use reqwest::StatusCode;
use serde_json::json;
use support::{Backend, Options, TestServer, within};

/// What the instances of this process logged at info and above.
#[derive(Clone, Default)]
struct Log(Arc<std::sync::Mutex<Vec<u8>>>);

impl std::io::Write for Log {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(bytes);
        Ok(bytes.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Log {
    fn capture() -> Log {
        let log = Log::default();
        let writer = log.clone();
        tracing_subscriber::fmt()
            .with_env_filter("info")
            .with_ansi(false)
            .with_writer(move || writer.clone())
            .init();
        log
    }

    fn lines_with(&self, text: &str) -> Vec<String> {
        String::from_utf8_lossy(&self.0.lock().unwrap())
            .lines()
            .filter(|l| l.contains(text))
            .map(str::to_owned)
            .collect()
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_stopped_under_redirect_load_and_started_again() {
    let Some(backend) = Backend::postgres() else {
        return;
    };
    let log = Log::capture();
    let a = Arc::new(TestServer::start_on(backend, Options::default()).await);
    let b = Arc::new(a.start_peer(Options::default()).await);
    let (_, key) = a.full_user("outage").await;
    let chain = a
        .create_chain(
            &key,
            json!({"target_url": "https://cached.example/", "code": "hot"}),
        )
        .await;
    let id = chain["id"].as_i64().unwrap();
    for server in [&a, &b] {
        assert_eq!(server.visit("hot").await.status, StatusCode::FOUND);
    }

    // Redirect load on both instances for the whole test; every answer must be the redirect.
    let stop = Arc::new(AtomicBool::new(false));
    let served = Arc::new(AtomicU64::new(0));
    let failures = Arc::new(std::sync::Mutex::new(Vec::new()));
    let mut load = Vec::new();
    for i in 0..4 {
        let server = if i % 2 == 0 { a.clone() } else { b.clone() };
        let (stop, served, failures) = (stop.clone(), served.clone(), failures.clone());
        load.push(tokio::spawn(async move {
            while !stop.load(Ordering::Relaxed) {
                let visit = server.visit("hot").await;
                if visit.status == StatusCode::FOUND {
                    served.fetch_add(1, Ordering::Relaxed);
                } else {
                    failures.lock().unwrap().push(visit.status);
                }
            }
        }));
    }
    tokio::time::sleep(Duration::from_millis(300)).await;

    tokio::task::spawn_blocking(|| pg_cluster::cluster().unwrap().stop())
        .await
        .unwrap();
    let during = served.load(Ordering::Relaxed);

    // API calls answer 503 with Retry-After, in each surface's envelope.
    let read = a.get(&format!("/chains/{id}"), &key).await;
    read.assert_primary_error(StatusCode::SERVICE_UNAVAILABLE, "unavailable");
    assert!(read.header("retry-after").is_some(), "{:?}", read.headers);
    b.post("/chains", &key, json!({"target_url": "https://e.com/"}))
        .await
        .assert_primary_error(StatusCode::SERVICE_UNAVAILABLE, "unavailable");
    let compat = a.get("/openapi/v1/chain/list", &key).await;
    compat.assert_compat_error(StatusCode::SERVICE_UNAVAILABLE);
    assert!(compat.header("retry-after").is_some());
    // Readiness follows the database; liveness does not.
    let probe = |server: &TestServer, path: &str| {
        let request = server.client.get(server.url(path));
        async move { request.send().await.unwrap().status() }
    };
    assert_eq!(probe(&a, "/readyz").await, StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(probe(&b, "/healthz").await, StatusCode::OK);
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert!(
        served.load(Ordering::Relaxed) > during,
        "cached redirects kept answering while the database was down"
    );

    tokio::task::spawn_blocking(|| pg_cluster::cluster().unwrap().start_again())
        .await
        .unwrap();

    // Everything works again, without restarting either instance.
    for server in [&a, &b] {
        assert!(
            within(Duration::from_secs(15), || async {
                probe(server, "/readyz").await == StatusCode::OK
            })
            .await,
            "/readyz did not recover"
        );
    }
    let created = b
        .post(
            "/chains",
            &key,
            json!({"target_url": "https://after.example/"}),
        )
        .await;
    assert_eq!(created.status, StatusCode::CREATED, "{}", created.text);
    // The change feed reconnected: an edit through A reaches B's cached redirect.
    a.patch(
        &format!("/chains/{id}"),
        &key,
        json!({"target_url": "https://edited.example/"}),
    )
    .await
    .primary_data();
    assert!(
        within(Duration::from_secs(5), || async {
            b.visit("hot").await.header("location") == Some("https://edited.example/")
        })
        .await,
        "B's change feed did not come back"
    );

    stop.store(true, Ordering::Relaxed);
    for task in load {
        task.await.unwrap();
    }
    let failures = failures.lock().unwrap().clone();
    assert!(failures.is_empty(), "redirects failed: {failures:?}");

    // Each instance said once that the database went away, with the cause, and once that it
    // came back; migrations said nothing at start.
    let down = log.lines_with("PostgreSQL is unavailable");
    assert_eq!(down.len(), 2, "{down:#?}");
    for line in &down {
        assert!(line.contains("cause="), "{line}");
        assert!(!line.trim_end().ends_with("db error"), "no cause: {line}");
    }
    let back = log.lines_with("PostgreSQL answers again");
    assert_eq!(back.len(), 2, "{back:#?}");
    assert!(
        log.lines_with("NOTICE").is_empty(),
        "{:#?}",
        log.lines_with("NOTICE")
    );

    // Visits made during the outage were kept and written once the database returned: at
    // least every redirect the load counted and the two that cached the link (B's checks for
    // the edit add a few more).
    let counted = served.load(Ordering::Relaxed) + 2;
    let views = || async {
        let read = a.get(&format!("/chains/{id}"), &key).await;
        read.primary_data()["pv_history"].as_u64().unwrap_or(0)
    };
    assert!(
        within(Duration::from_secs(15), || async {
            views().await >= counted
        })
        .await,
        "visits lost: {} counted, {counted} served",
        views().await
    );
}
