//! Webhooks: endpoints over the API, events from the writes they report, signed as Standard
//! Webhooks, retried on failure, and never sent to private addresses unless allowed.

use std::collections::VecDeque;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use bytes::Bytes;
use http_body_util::{BodyExt as _, Full};
use linkapi_core::signing::Secret;
use reqwest::StatusCode;
use serde_json::{Value, json};
use tokio::sync::mpsc;

use crate::support::{Options, TestServer, within};

const WEBHOOK_SCOPES: &[&str] = &[
    "chains:read",
    "chains:write",
    "conversions:write",
    "webhooks:read",
    "webhooks:write",
];

/// One request the receiver took.
#[derive(Debug, Clone)]
struct Received {
    id: String,
    timestamp: String,
    signature: String,
    body: Vec<u8>,
}

impl Received {
    fn json(&self) -> Value {
        serde_json::from_slice(&self.body).expect("a JSON body")
    }

    /// Checks the signature with `secret` as a Standard Webhooks receiver does, at the
    /// signed time.
    fn verifies_with(&self, secret: &str) -> bool {
        let secret = Secret::parse(secret).expect("a secret");
        let now: i64 = self.timestamp.parse().expect("a timestamp");
        secret
            .verify(&self.id, &self.timestamp, &self.signature, &self.body, now)
            .is_ok()
    }
}

/// A webhook receiver on loopback: an HTTP/1.1 server that records every request and answers
/// with the statuses queued, then 204.
struct Receiver {
    addr: SocketAddr,
    answers: Arc<Mutex<VecDeque<u16>>>,
    received: mpsc::UnboundedReceiver<Received>,
}

impl Receiver {
    async fn start() -> Receiver {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind");
        let addr = listener.local_addr().expect("addr");
        let answers: Arc<Mutex<VecDeque<u16>>> = Arc::default();
        let (sent, received) = mpsc::unbounded_channel();
        let queued = answers.clone();
        tokio::spawn(async move {
            loop {
                let Ok((stream, _)) = listener.accept().await else {
                    return;
                };
                let (sent, queued) = (sent.clone(), queued.clone());
                tokio::spawn(async move {
                    let service = hyper::service::service_fn(
                        move |req: hyper::Request<hyper::body::Incoming>| {
                            let (sent, queued) = (sent.clone(), queued.clone());
                            async move {
                                let header = |name: &str| {
                                    req.headers()
                                        .get(name)
                                        .and_then(|v| v.to_str().ok())
                                        .unwrap_or_default()
                                        .to_owned()
                                };
                                let (id, timestamp, signature) = (
                                    header("webhook-id"),
                                    header("webhook-timestamp"),
                                    header("webhook-signature"),
                                );
                                let body = req.into_body().collect().await?.to_bytes().to_vec();
                                let _ = sent.send(Received {
                                    id,
                                    timestamp,
                                    signature,
                                    body,
                                });
                                let status =
                                    queued.lock().expect("answers").pop_front().unwrap_or(204);
                                Ok::<_, hyper::Error>(
                                    hyper::Response::builder()
                                        .status(status)
                                        .body(Full::new(Bytes::from_static(b"ok")))
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
        Receiver {
            addr,
            answers,
            received,
        }
    }

    fn url(&self) -> String {
        format!("http://{}/hooks", self.addr)
    }

    fn answer_next(&self, statuses: &[u16]) {
        self.answers
            .lock()
            .expect("answers")
            .extend(statuses.iter().copied());
    }

    /// The next request, within a few seconds.
    async fn next(&mut self) -> Received {
        tokio::time::timeout(Duration::from_secs(10), self.received.recv())
            .await
            .expect("a delivery in time")
            .expect("the receiver runs")
    }

    /// The next request, if one arrives within a moment.
    async fn within_a_moment(&mut self) -> Option<Received> {
        tokio::time::timeout(Duration::from_millis(400), self.received.recv())
            .await
            .ok()
            .flatten()
    }

    /// Whether nothing arrives for a moment.
    async fn stays_quiet(&mut self) -> bool {
        self.within_a_moment().await.is_none()
    }
}

async fn register(server: &TestServer, key: &str, url: &str, events: &[&str]) -> Value {
    let reply = server
        .post("/webhooks", key, json!({"url": url, "events": events}))
        .await;
    assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.text);
    reply.body["data"].clone()
}

/// A user whose key may manage webhooks and do what `more` allows.
async fn user_with_webhooks_and(server: &TestServer, name: &str, more: &[&str]) -> String {
    let mut scopes = WEBHOOK_SCOPES.to_vec();
    scopes.extend(more);
    server.user_with_key(name, &scopes).await.1
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn chain_and_conversion_events_are_signed_and_sent_as_they_happen() {
    let server = TestServer::start().await;
    let (_, key) = server.user_with_key("hooked", WEBHOOK_SCOPES).await;
    let mut receiver = Receiver::start().await;
    let hook = register(
        &server,
        &key,
        &receiver.url(),
        &[
            "chain.created",
            "chain.updated",
            "chain.deleted",
            "conversion.created",
        ],
    )
    .await;
    let secret = hook["secret"]
        .as_str()
        .expect("the secret, once")
        .to_owned();
    assert!(secret.starts_with("whsec_"));
    assert_eq!(hook["enabled"], true);

    let chain = server
        .create_chain(&key, json!({"target_url": "https://example.com/a"}))
        .await;
    let created = receiver.next().await;
    assert!(created.verifies_with(&secret), "{created:?}");
    assert!(created.id.starts_with("msg_"));
    let body = created.json();
    assert_eq!(body["type"], "chain.created");
    assert_eq!(body["data"], chain, "the chain as the API answered it");
    assert!(body["timestamp"].as_str().is_some_and(|t| t.ends_with('Z')));

    let id = chain["id"].as_i64().expect("id");
    let edited = server
        .patch(
            &format!("/chains/{id}"),
            &key,
            json!({"chain_title": "renamed"}),
        )
        .await;
    assert_eq!(edited.status, StatusCode::OK);
    let updated = receiver.next().await.json();
    assert_eq!(updated["type"], "chain.updated");
    assert_eq!(updated["data"]["chain_title"], "renamed");

    let bulk = server
        .post(
            "/chains/bulk",
            &key,
            json!({"chains": [{"target_url": "https://example.com/b"}, {"target_url": "https://example.com/c"}]}),
        )
        .await;
    assert_eq!(bulk.status, StatusCode::OK, "{}", bulk.text);
    let mut bulk_codes: Vec<String> = Vec::new();
    for _ in 0..2 {
        let event = receiver.next().await.json();
        assert_eq!(event["type"], "chain.created");
        bulk_codes.push(event["data"]["code"].as_str().expect("code").to_owned());
    }
    let mut answered: Vec<String> = bulk.body["data"]["results"]
        .as_array()
        .expect("results")
        .iter()
        .map(|r| r["chain"]["code"].as_str().expect("code").to_owned())
        .collect();
    bulk_codes.sort();
    answered.sort();
    assert_eq!(bulk_codes, answered);

    // A conversion is reported once; its duplicate reports nothing.
    let report = json!({"chain_id": id, "conv_type": "purchase", "out_id": "order-1"});
    for _ in 0..2 {
        let reply = server
            .post(
                "/openapi/v1/adcallback/tiktok/conversions",
                &key,
                report.clone(),
            )
            .await;
        assert_eq!(reply.body["status"], 1, "{}", reply.text);
    }
    let conversion = receiver.next().await.json();
    assert_eq!(conversion["type"], "conversion.created");
    assert_eq!(conversion["data"]["out_id"], "order-1");
    assert_eq!(conversion["data"]["chain_id"], id);

    let deleted = server.delete(&format!("/chains/{id}"), &key).await;
    assert_eq!(deleted.status, StatusCode::OK);
    let event = receiver.next().await.json();
    assert_eq!(
        event["type"], "chain.deleted",
        "not a second conversion: {event}"
    );
    assert_eq!(event["data"]["id"], id);
    assert!(receiver.stays_quiet().await);

    // Every attempt is listed, newest first.
    let hook_id = hook["id"].as_i64().expect("id");
    let deliveries = server
        .get(&format!("/webhooks/{hook_id}/deliveries"), &key)
        .await;
    assert_eq!(deliveries.status, StatusCode::OK, "{}", deliveries.text);
    let data = deliveries.primary_data();
    assert_eq!(data["total"], 6);
    let first = &data["list"][0];
    assert_eq!(first["event_type"], "chain.deleted");
    assert_eq!(
        (first["ok"].clone(), first["status"].clone()),
        (json!(true), json!(204))
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refused_delivery_is_sent_again_until_it_is_taken() {
    let server = TestServer::start().await;
    let (_, key) = server.user_with_key("retried", WEBHOOK_SCOPES).await;
    let mut receiver = Receiver::start().await;
    receiver.answer_next(&[500]);
    let hook = register(&server, &key, &receiver.url(), &["chain.created"]).await;
    server
        .create_chain(&key, json!({"target_url": "https://example.com/r"}))
        .await;
    let first = receiver.next().await;
    // Not again before its time (the first retry is 5 s later, give or take a fifth).
    assert!(receiver.stays_quiet().await);
    server.clock.advance(7);
    let second = receiver.next().await;
    assert_eq!(second.id, first.id, "the same event");
    assert_eq!(second.body, first.body);
    assert!(receiver.stays_quiet().await, "taken: not sent a third time");
    let hook_id = hook["id"].as_i64().expect("id");
    let failed = server
        .get(&format!("/webhooks/{hook_id}/deliveries?failed=true"), &key)
        .await;
    let list = failed.primary_data()["list"]
        .as_array()
        .expect("list")
        .clone();
    assert_eq!(list.len(), 1);
    assert_eq!(list[0]["status"], 500);
    assert_eq!(list[0]["error"], "answered 500");
    let all = server
        .get(&format!("/webhooks/{hook_id}/deliveries"), &key)
        .await;
    assert_eq!(all.primary_data()["total"], 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn endpoints_are_managed_by_their_owner_alone() {
    let server = TestServer::start().await;
    let (_, key) = server.user_with_key("owner", WEBHOOK_SCOPES).await;
    let (_, other) = server.user_with_key("other", WEBHOOK_SCOPES).await;
    let (_, chains_only) = server
        .user_with_key("no-hooks", &["chains:read", "chains:write"])
        .await;
    let mut receiver = Receiver::start().await;
    let hook = register(&server, &key, &receiver.url(), &["chain.created"]).await;
    let id = hook["id"].as_i64().expect("id");
    let path = format!("/webhooks/{id}");

    // Listed and read without the secret.
    let listed = server.get("/webhooks", &key).await;
    assert_eq!(listed.primary_data().as_array().map(Vec::len), Some(1));
    assert!(listed.primary_data()[0].get("secret").is_none());
    let read = server.get(&path, &key).await;
    assert!(read.primary_data().get("secret").is_none());
    assert_eq!(read.primary_data()["events"], json!(["chain.created"]));

    // Another user's id answers as a missing one; a key without the scope is refused.
    for reply in [
        server.get(&path, &other).await,
        server.patch(&path, &other, json!({"enabled": false})).await,
        server.delete(&path, &other).await,
        server
            .post(&format!("{path}/test"), &other, json!({}))
            .await,
        server.get(&format!("{path}/deliveries"), &other).await,
    ] {
        reply.assert_primary_error(StatusCode::NOT_FOUND, "not_found");
    }
    server
        .get("/webhooks", &chains_only)
        .await
        .assert_primary_error(StatusCode::FORBIDDEN, "forbidden");

    // Bad input changes nothing.
    for (body, code) in [
        (
            json!({"url": "ftp://example.com/x", "events": ["chain.created"]}),
            "invalid_webhook_url",
        ),
        (
            json!({"url": receiver.url(), "events": []}),
            "invalid_events",
        ),
        (
            json!({"url": receiver.url(), "events": ["chain.exploded"]}),
            "invalid_field",
        ),
    ] {
        let reply = server.post("/webhooks", &key, body).await;
        assert_eq!(reply.status, StatusCode::BAD_REQUEST, "{}", reply.text);
        assert_eq!(reply.body["code"], code, "{}", reply.text);
    }
    assert_eq!(
        server
            .get("/webhooks", &key)
            .await
            .primary_data()
            .as_array()
            .map(Vec::len),
        Some(1)
    );

    // A test event reaches this endpoint; a disabled endpoint gets nothing.
    let tested = server.post(&format!("{path}/test"), &key, json!({})).await;
    assert_eq!(tested.status, StatusCode::OK, "{}", tested.text);
    let test = receiver.next().await;
    assert_eq!(test.json()["type"], "webhook.test");
    assert_eq!(
        test.id,
        tested.primary_data()["event_id"].as_str().expect("id")
    );
    let disabled = server.patch(&path, &key, json!({"enabled": false})).await;
    assert_eq!(disabled.primary_data()["enabled"], false);
    server
        .create_chain(&key, json!({"target_url": "https://example.com/quiet"}))
        .await;
    assert!(receiver.stays_quiet().await);
    server
        .post(&format!("{path}/test"), &key, json!({}))
        .await
        .assert_primary_error(StatusCode::CONFLICT, "webhook_disabled");
    server.patch(&path, &key, json!({"enabled": true})).await;

    // After a rotation both secrets sign, for a day.
    let old = hook["secret"].as_str().expect("secret").to_owned();
    let rotated = server
        .post(&format!("{path}/rotate-secret"), &key, json!({}))
        .await;
    assert_eq!(rotated.status, StatusCode::OK, "{}", rotated.text);
    let new = rotated.primary_data()["secret"]
        .as_str()
        .expect("secret")
        .to_owned();
    assert_ne!(new, old);
    server
        .create_chain(&key, json!({"target_url": "https://example.com/rotated"}))
        .await;
    let signed = receiver.next().await;
    assert!(signed.verifies_with(&new) && signed.verifies_with(&old));
    server.clock.advance(24 * 3600 + 1);
    server
        .create_chain(&key, json!({"target_url": "https://example.com/later"}))
        .await;
    let later = receiver.next().await;
    assert!(later.verifies_with(&new) && !later.verifies_with(&old));

    // Deleted: gone, and sent nothing of what happens after. A delivery of an event from
    // before may still land: delivery is at least once (an attempt whose answer came late is
    // made again), and one in flight as the endpoint goes is not called back.
    assert_eq!(server.delete(&path, &key).await.status, StatusCode::OK);
    server
        .get(&path, &key)
        .await
        .assert_primary_error(StatusCode::NOT_FOUND, "not_found");
    server
        .create_chain(&key, json!({"target_url": "https://example.com/after"}))
        .await;
    while let Some(late) = receiver.within_a_moment().await {
        let body = String::from_utf8_lossy(&late.body);
        assert!(
            !body.contains("https://example.com/after"),
            "a deleted endpoint was sent a later event: {body}"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn private_addresses_are_refused_unless_allowed() {
    let server = TestServer::start_with(Options {
        webhook_allow_private: false,
        ..Options::default()
    })
    .await;
    let (_, key) = server.user_with_key("careful", WEBHOOK_SCOPES).await;
    // Addresses that are not public, and a name that resolves to one: 422 (it depends on
    // where the name points, which no schema states). Not a URL a chain could have: 400, as
    // the schema says.
    let not_public = (StatusCode::UNPROCESSABLE_ENTITY, "webhook_url_not_public");
    let not_a_url = (StatusCode::BAD_REQUEST, "invalid_webhook_url");
    for (url, (status, code)) in [
        ("http://127.0.0.1:9/hooks", not_public),
        ("http://localhost:9/hooks", not_public),
        ("http://10.1.2.3/hooks", not_public),
        ("http://169.254.169.254/latest/meta-data", not_public),
        ("http://100.64.0.1/hooks", not_public),
        ("http://no-such-host.invalid/hooks", not_public),
        ("http://[::1]:9/hooks", not_a_url),
        ("ftp://example.com/", not_a_url),
        ("http://user:pw@example.com/", not_a_url),
    ] {
        let reply = server
            .post(
                "/webhooks",
                &key,
                json!({"url": url, "events": ["chain.created"]}),
            )
            .await;
        assert_eq!(reply.status, status, "{url}: {}", reply.text);
        assert_eq!(reply.body["code"], code, "{url}");
    }
    assert!(
        within(Duration::from_secs(1), || async {
            server
                .get("/webhooks", &key)
                .await
                .primary_data()
                .as_array()
                .is_some_and(Vec::is_empty)
        })
        .await
    );
}

/// Creates `n` chains for `key` on `server` in one bulk request.
async fn create_many(server: &TestServer, key: &str, n: usize, tag: &str) {
    let chains: Vec<Value> = (0..n)
        .map(|i| json!({"target_url": format!("https://example.com/{tag}/{i}")}))
        .collect();
    let reply = server
        .post("/chains/bulk", key, json!({ "chains": chains }))
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
}

/// Takes deliveries until `distinct` different events arrived, then for a moment more;
/// how many times each event arrived.
async fn tally(
    receiver: &mut Receiver,
    distinct: usize,
) -> std::collections::HashMap<String, usize> {
    let mut seen: std::collections::HashMap<String, usize> = Default::default();
    while seen.len() < distinct {
        *seen.entry(receiver.next().await.id).or_default() += 1;
    }
    while let Ok(Some(late)) =
        tokio::time::timeout(Duration::from_millis(500), receiver.received.recv()).await
    {
        *seen.entry(late.id).or_default() += 1;
    }
    seen
}

/// Two instances on one PostgreSQL database taking bulk creates; `None` without PostgreSQL.
async fn two_instances() -> Option<(TestServer, TestServer)> {
    let backend = crate::support::Backend::postgres()?;
    let options = || Options {
        max_body_bytes: 1 << 20,
        ..Options::default()
    };
    let first = TestServer::start_on(backend, options()).await;
    let second = first.start_peer(options()).await;
    Some((first, second))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn two_instances_deliver_each_of_a_thousand_events_exactly_once() {
    let Some((first, second)) = two_instances().await else {
        return; // PostgreSQL is not installed and not required here.
    };
    let (_, key) = first.user_with_key("busy", WEBHOOK_SCOPES).await;
    let mut receiver = Receiver::start().await;
    register(&first, &key, &receiver.url(), &["chain.created"]).await;
    // Both instances record events and both workers claim them, at once.
    tokio::join!(
        create_many(&first, &key, 500, "a"),
        create_many(&second, &key, 500, "b"),
    );
    let seen = tally(&mut receiver, 1_000).await;
    assert_eq!(seen.len(), 1_000);
    let repeated: Vec<_> = seen.iter().filter(|(_, n)| **n > 1).collect();
    assert!(repeated.is_empty(), "sent more than once: {repeated:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn two_instances_deliver_every_event_at_least_once_when_the_receiver_fails() {
    let Some((first, second)) = two_instances().await else {
        return; // PostgreSQL is not installed and not required here.
    };
    let (_, key) = first.user_with_key("flaky", WEBHOOK_SCOPES).await;
    let mut receiver = Receiver::start().await;
    // The first 40 requests fail; those events come again once their retry is due.
    receiver.answer_next(&[500; 40]);
    register(&first, &key, &receiver.url(), &["chain.created"]).await;
    tokio::join!(
        create_many(&first, &key, 100, "a"),
        create_many(&second, &key, 100, "b"),
    );
    let mut seen: std::collections::HashMap<String, usize> = Default::default();
    let mut take = |received: Received| *seen.entry(received.id).or_default() += 1;
    // Every event's first attempt (40 of them refused) ...
    for _ in 0..200 {
        take(receiver.next().await);
    }
    // ... then, once their retries are due, the refused ones again.
    first.clock.advance(10);
    for _ in 0..40 {
        take(receiver.next().await);
    }
    assert!(receiver.stays_quiet().await);
    assert_eq!(seen.len(), 200, "every event arrived");
    assert_eq!(seen.values().filter(|n| **n == 2).count(), 40, "{seen:?}");
    assert!(seen.values().all(|n| *n <= 2), "{seen:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_upload_is_reported_once_with_the_object_the_api_answered() {
    let server = TestServer::start().await;
    let key = user_with_webhooks_and(&server, "uploader", crate::uploads::UPLOAD_SCOPES).await;
    let mut receiver = Receiver::start().await;
    register(&server, &key, &receiver.url(), &["upload.created"]).await;
    let bytes = crate::images::png("hooked", 1);
    let reply = crate::uploads::upload(&server, &key, "a.png", bytes.clone(), "image/png").await;
    assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.text);
    let event = receiver.next().await.json();
    assert_eq!(event["type"], "upload.created");
    assert_eq!(&event["data"], reply.primary_data());
    // The same bytes again are the same upload: nothing new to report.
    let again = crate::uploads::upload(&server, &key, "a.png", bytes, "image/png").await;
    assert_eq!(
        again.primary_data()["file_id"],
        reply.primary_data()["file_id"]
    );
    assert!(receiver.stays_quiet().await);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn chains_of_every_kind_and_surface_are_reported() {
    let server = TestServer::start().await;
    let key = user_with_webhooks_and(&server, "everywhere", crate::wx_support::WX_SCOPES).await;
    let mut receiver = Receiver::start().await;
    register(
        &server,
        &key,
        &receiver.url(),
        &["chain.created", "chain.deleted"],
    )
    .await;
    // The compatibility surface.
    let compat = server
        .post(
            "/openapi/v1/chain/create",
            &key,
            json!({"chain_title": "Old", "target_url": "https://example.com/old"}),
        )
        .await;
    let render_url = compat.compat_result()["render_url"].clone();
    let event = receiver.next().await.json();
    assert_eq!(
        (event["type"].clone(), event["data"]["render_url"].clone()),
        (json!("chain.created"), render_url)
    );
    // A messaging-app chain, created and deleted.
    let wx = crate::wx_support::create_wx(
        &server,
        &key,
        json!({"chain_title": "Join us", "scan_qr_url": "https://cdn.example.com/qr.png"}),
    )
    .await;
    let event = receiver.next().await.json();
    assert_eq!(event["type"], "chain.created");
    assert_eq!(
        (event["data"]["id"].clone(), event["data"]["type"].clone()),
        (wx["id"].clone(), json!(2))
    );
    let id = wx["id"].as_i64().expect("id");
    assert!(
        server
            .delete(&format!("/wx-chains/{id}"), &key)
            .await
            .status
            .is_success()
    );
    let event = receiver.next().await.json();
    assert_eq!(
        (event["type"].clone(), event["data"]["id"].clone()),
        (json!("chain.deleted"), json!(id))
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_channel_used_up_by_racing_visitors_is_reported_once() {
    let server = TestServer::start().await;
    let key = user_with_webhooks_and(&server, "capped", crate::wx_support::WX_SCOPES).await;
    let mut receiver = Receiver::start().await;
    register(&server, &key, &receiver.url(), &["channel.exhausted"]).await;
    let chain = crate::wx_support::create_wx(
        &server,
        &key,
        json!({"channel_list": [{"qrcode_name": "few", "url": "https://cdn.example.com/few.png",
                                 "visit_limit": 3}]}),
    )
    .await;
    let code = chain["code"].as_str().expect("code").to_owned();
    let visits: Vec<_> = (0..24).map(|_| server.visit(&code)).collect();
    let answers = futures_util::future::join_all(visits).await;
    let served = answers
        .iter()
        .filter(|a| a.status == StatusCode::OK)
        .count();
    assert_eq!(served, 3, "the cap holds");
    let event = receiver.next().await.json();
    assert_eq!(event["type"], "channel.exhausted");
    let data = &event["data"];
    assert_eq!(data["chain_id"], chain["id"]);
    assert_eq!(
        (data["visit_limit"].clone(), data["cap"].clone()),
        (json!(3), json!("total"))
    );
    assert_eq!(data["url"], "https://cdn.example.com/few.png");
    assert!(receiver.stays_quiet().await, "reported once");
}

/// A raw receiver on loopback: for each connection, reads the request's head, then answers
/// with `answer` (`None`: never), and writes `endless` bytes after it until the peer goes.
async fn raw_receiver(answer: Option<&'static [u8]>, endless: bool) -> String {
    use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let addr = listener.local_addr().expect("addr");
    tokio::spawn(async move {
        while let Ok((mut stream, _)) = listener.accept().await {
            tokio::spawn(async move {
                let mut head = vec![0u8; 16 * 1024];
                let _ = stream.read(&mut head).await;
                match answer {
                    Some(answer) => {
                        let _ = stream.write_all(answer).await;
                        while endless && stream.write_all(&[b'x'; 1024]).await.is_ok() {}
                    }
                    // Hold the connection, answering nothing.
                    None => tokio::time::sleep(Duration::from_secs(60)).await,
                }
            });
        }
    });
    format!("http://{addr}/hooks")
}

/// The attempts of webhook `id` once there is at least one, within `limit`.
async fn first_attempts(server: &TestServer, key: &str, id: &Value, limit: Duration) -> Value {
    let path = format!("/webhooks/{id}/deliveries");
    let started = std::time::Instant::now();
    loop {
        let listed = server.get(&path, key).await;
        if listed.primary_data()["total"].as_i64() > Some(0) {
            return listed.primary_data()["list"].clone();
        }
        assert!(started.elapsed() < limit, "no attempt within {limit:?}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_endpoint_that_never_answers_is_given_up_on_after_ten_seconds() {
    let server = TestServer::start().await;
    let (_, key) = server.user_with_key("silence", WEBHOOK_SCOPES).await;
    let hook = register(
        &server,
        &key,
        &raw_receiver(None, false).await,
        &["chain.created"],
    )
    .await;
    let started = std::time::Instant::now();
    server
        .create_chain(&key, json!({"target_url": "https://example.com/silent"}))
        .await;
    let attempts = first_attempts(&server, &key, &hook["id"], Duration::from_secs(20)).await;
    let waited = started.elapsed();
    assert!(waited >= Duration::from_secs(9), "gave up after {waited:?}");
    assert_eq!(attempts[0]["ok"], false);
    assert_eq!(attempts[0]["status"], Value::Null);
    assert_eq!(attempts[0]["error"], "no answer within 10 s");
}

/// An endpoint that never answers takes up its own attempt for the ten seconds it is given, not
/// the worker: another user's event, committed while it waits, is delivered at once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_endpoint_that_never_answers_holds_up_no_other_endpoints_deliveries() {
    let server = TestServer::start().await;
    let (_, silent_key) = server.user_with_key("stalled", WEBHOOK_SCOPES).await;
    register(
        &server,
        &silent_key,
        &raw_receiver(None, false).await,
        &["chain.created"],
    )
    .await;
    let mut receiver = Receiver::start().await;
    let (_, key) = server.user_with_key("prompt", WEBHOOK_SCOPES).await;
    register(&server, &key, &receiver.url(), &["chain.created"]).await;

    server
        .create_chain(
            &silent_key,
            json!({"target_url": "https://example.com/stalled"}),
        )
        .await;
    // The silent endpoint's attempt has begun (deliveries are claimed within 20 ms of a commit).
    tokio::time::sleep(Duration::from_millis(300)).await;
    let started = std::time::Instant::now();
    server
        .create_chain(&key, json!({"target_url": "https://example.com/prompt"}))
        .await;
    let delivered = tokio::time::timeout(Duration::from_secs(3), receiver.received.recv())
        .await
        .expect("delivered while the other endpoint is still silent")
        .expect("the receiver runs");
    assert_eq!(delivered.json()["type"], "chain.created");
    assert!(started.elapsed() < Duration::from_secs(3));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_endless_answer_is_read_no_further_than_a_few_kilobytes() {
    let server = TestServer::start().await;
    let (_, key) = server.user_with_key("chatty", WEBHOOK_SCOPES).await;
    let answer: &[u8] = b"HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\nconnection: close\r\n\r\n";
    let hook = register(
        &server,
        &key,
        &raw_receiver(Some(answer), true).await,
        &["chain.created"],
    )
    .await;
    server
        .create_chain(&key, json!({"target_url": "https://example.com/chatty"}))
        .await;
    // Delivered at once: the answer's endless body is not waited for.
    let attempts = first_attempts(&server, &key, &hook["id"], Duration::from_secs(5)).await;
    assert_eq!(
        (attempts[0]["ok"].clone(), attempts[0]["status"].clone()),
        (json!(true), json!(200))
    );
    assert!(
        attempts[0]["latency_ms"].as_i64() < Some(5_000),
        "{attempts}"
    );
}
