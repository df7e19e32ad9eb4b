//! Webhook delivery shared fairly: an endpoint that hangs holds at most its bound of attempts
//! (across instances) and delays no one else's events; a burst to a slow receiver goes out as
//! fast as it answers, each event once. On SQLite, and on two PostgreSQL instances.

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use bytes::Bytes;
use http_body_util::Full;
use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::instances::{backends, instances};
use crate::support::{Options, TestServer};

/// Attempts under way at once to one endpoint (`WebhookConfig::endpoint_concurrency`'s
/// default).
const BOUND: usize = 16;

const SCOPES: &[&str] = &["chains:write", "webhooks:read", "webhooks:write"];

/// Connections a receiver has open now, the most it had at once, and how many it took.
#[derive(Default)]
struct Load {
    open: AtomicUsize,
    most: AtomicUsize,
    taken: AtomicUsize,
}

impl Load {
    fn opened(&self) {
        let open = self.open.fetch_add(1, Ordering::SeqCst) + 1;
        self.most.fetch_max(open, Ordering::SeqCst);
        self.taken.fetch_add(1, Ordering::SeqCst);
    }

    fn closed(&self) {
        self.open.fetch_sub(1, Ordering::SeqCst);
    }

    fn most(&self) -> usize {
        self.most.load(Ordering::SeqCst)
    }
}

/// A receiver that takes connections, reads a request and never answers (it holds each
/// connection until the peer goes).
async fn hanging_receiver() -> (String, Arc<Load>) {
    use tokio::io::AsyncReadExt as _;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let addr = listener.local_addr().expect("addr");
    let load = Arc::new(Load::default());
    let counted = load.clone();
    tokio::spawn(async move {
        while let Ok((mut stream, _)) = listener.accept().await {
            let load = counted.clone();
            load.opened();
            tokio::spawn(async move {
                let mut buffer = vec![0u8; 16 * 1024];
                // Until the peer closes (or a minute, the test is long over by then).
                let _ = tokio::time::timeout(Duration::from_secs(60), async {
                    while matches!(stream.read(&mut buffer).await, Ok(1..)) {}
                })
                .await;
                load.closed();
            });
        }
    });
    (format!("http://{addr}/hooks"), load)
}

/// A receiver that answers 204 after `delay`, counting each event id it is sent and the
/// requests it is answering at once.
async fn slow_receiver(delay: Duration) -> (String, Arc<Mutex<HashMap<String, usize>>>, Arc<Load>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let addr = listener.local_addr().expect("addr");
    let seen: Arc<Mutex<HashMap<String, usize>>> = Arc::default();
    let load = Arc::new(Load::default());
    let (counted, busy) = (seen.clone(), load.clone());
    tokio::spawn(async move {
        while let Ok((stream, _)) = listener.accept().await {
            let (seen, load) = (counted.clone(), busy.clone());
            tokio::spawn(async move {
                let service = hyper::service::service_fn(
                    move |req: hyper::Request<hyper::body::Incoming>| {
                        let (seen, load) = (seen.clone(), load.clone());
                        async move {
                            load.opened();
                            let id = req
                                .headers()
                                .get("webhook-id")
                                .and_then(|v| v.to_str().ok())
                                .unwrap_or_default()
                                .to_owned();
                            tokio::time::sleep(delay).await;
                            *seen.lock().expect("seen").entry(id).or_default() += 1;
                            load.closed();
                            Ok::<_, hyper::Error>(
                                hyper::Response::builder()
                                    .status(204)
                                    .body(Full::new(Bytes::new()))
                                    .expect("a response"),
                            )
                        }
                    },
                );
                let _ = hyper::server::conn::http1::Builder::new()
                    .serve_connection(hyper_util::rt::TokioIo::new(stream), service)
                    .await;
            });
        }
    });
    (format!("http://{addr}/hooks"), seen, load)
}

async fn register(server: &TestServer, key: &str, url: &str) -> Value {
    let reply = server
        .post(
            "/webhooks",
            key,
            json!({"url": url, "events": ["chain.created"]}),
        )
        .await;
    assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.text);
    reply.primary_data().clone()
}

/// `n` chains of `key` in bulk requests spread over `servers`: `n` events.
async fn create_many(servers: &[TestServer], key: &str, n: usize, tag: &str) {
    let per = n / servers.len();
    let creates = servers.iter().enumerate().map(|(s, server)| {
        let chains: Vec<Value> = (0..per)
            .map(|i| json!({"target_url": format!("https://example.com/{tag}/{s}/{i}")}))
            .collect();
        async move {
            let reply = server
                .post("/chains/bulk", key, json!({ "chains": chains }))
                .await;
            assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
        }
    });
    futures_util::future::join_all(creates).await;
}

fn options() -> Options {
    Options {
        max_body_bytes: 1 << 20,
        ..Options::default()
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn an_endpoint_that_hangs_holds_its_bound_and_delays_no_one_else() {
    for backend in backends() {
        let servers = instances(backend.clone(), options).await;
        let (_, stalled) = servers[0].user_with_key("stalled", SCOPES).await;
        let (_, prompt) = servers[0].user_with_key("prompt", SCOPES).await;
        let (hanging, load) = hanging_receiver().await;
        register(&servers[0], &stalled, &hanging).await;
        let (url, seen, _) = slow_receiver(Duration::ZERO).await;
        register(&servers[0], &prompt, &url).await;

        create_many(&servers, &stalled, 2_000, "stalled").await;
        tokio::time::sleep(Duration::from_secs(2)).await;
        let created = Instant::now();
        let last = &servers[servers.len() - 1];
        last.create_chain(&prompt, json!({"target_url": "https://example.com/prompt"}))
            .await;
        while seen.lock().expect("seen").is_empty() {
            assert!(
                created.elapsed() < Duration::from_secs(3),
                "{backend:?}: the other user's event waited behind the hanging endpoint"
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        // No attempt of the hanging endpoint has ended yet (each is given ten seconds): every
        // connection it took is still open, and there are exactly the bound of them, across
        // the instances.
        assert_eq!(load.most(), BOUND, "{backend:?}");
        assert_eq!(load.taken.load(Ordering::SeqCst), BOUND, "{backend:?}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_burst_to_a_slow_receiver_is_delivered_once_each_without_a_timeout() {
    for backend in backends() {
        let servers = instances(backend.clone(), options).await;
        let (_, key) = servers[0].user_with_key("burst", SCOPES).await;
        let (url, seen, load) = slow_receiver(Duration::from_millis(50)).await;
        let hook = register(&servers[0], &key, &url).await;
        create_many(&servers, &key, 1_000, "burst").await;
        let started = Instant::now();
        while seen.lock().expect("seen").len() < 1_000 {
            assert!(
                started.elapsed() < Duration::from_secs(60),
                "{backend:?}: {} of 1,000 delivered",
                seen.lock().expect("seen").len()
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        // A moment for anything sent twice to arrive.
        tokio::time::sleep(Duration::from_millis(500)).await;
        let seen = seen.lock().expect("seen").clone();
        assert_eq!(seen.len(), 1_000, "{backend:?}");
        let twice: Vec<_> = seen.iter().filter(|(_, n)| **n > 1).collect();
        assert!(
            twice.is_empty(),
            "{backend:?}: sent more than once: {twice:?}"
        );
        assert!(load.most() <= BOUND, "{backend:?}: {} at once", load.most());
        let failed = servers[0]
            .get(
                &format!("/webhooks/{}/deliveries?failed=true", hook["id"]),
                &key,
            )
            .await;
        assert_eq!(
            failed.primary_data()["total"],
            0,
            "{backend:?}: {}",
            failed.text
        );
    }
}
