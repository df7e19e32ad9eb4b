//! Rules that must hold under concurrency, on both backends, and coherence between instances
//! sharing one PostgreSQL database.
//!
//! These tests choose their backends themselves rather than following
//! `LINKAPI_TEST_BACKEND`: the races run on SQLite and, when PostgreSQL is installed, on
//! PostgreSQL across two instances; the coherence tests need PostgreSQL.

use std::time::Duration;

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::support::{ADMIN_KEY, Backend, Options, TestServer, race, race_posts, within};

/// How many clients race.
const RACERS: usize = 50;

/// The instances a race runs on: one SQLite server, or two over one PostgreSQL database.
pub async fn instances(backend: Backend, options: impl Fn() -> Options) -> Vec<TestServer> {
    let first = TestServer::start_on(backend.clone(), options()).await;
    match backend {
        Backend::Sqlite => vec![first],
        Backend::Postgres { .. } => {
            let second = first.start_peer(options()).await;
            vec![first, second]
        }
    }
}

pub fn backends() -> Vec<Backend> {
    let mut backends = vec![Backend::Sqlite];
    backends.extend(Backend::postgres());
    backends
}

fn count(answers: &[(StatusCode, Value)], status: StatusCode) -> usize {
    answers.iter().filter(|(s, _)| *s == status).count()
}

#[tokio::test]
async fn racing_creates_against_a_quota_of_ten_create_exactly_ten() {
    for backend in backends() {
        let servers = instances(backend.clone(), || Options {
            daily_create_quota: 10,
            ..Options::default()
        })
        .await;
        let (_, key) = servers[0].full_user("racer").await;
        let answers = race_posts(
            &servers,
            RACERS,
            "/chains",
            &key,
            |i| json!({"target_url": format!("https://e.com/{i}")}),
        )
        .await;
        assert_eq!(
            count(&answers, StatusCode::CREATED),
            10,
            "{backend:?}: {answers:?}"
        );
        assert_eq!(
            count(&answers, StatusCode::TOO_MANY_REQUESTS),
            RACERS - 10,
            "{backend:?}: {answers:?}"
        );
        for (_, body) in answers
            .iter()
            .filter(|(s, _)| *s == StatusCode::TOO_MANY_REQUESTS)
        {
            assert_eq!(body["code"], "quota_exceeded", "{backend:?}: {body}");
        }
        // What the store holds agrees with what the clients were told.
        let listed = servers[1 % servers.len()].get("/chains", &key).await;
        assert_eq!(listed.primary_data()["total"], 10, "{backend:?}");
    }
}

#[tokio::test]
async fn racing_creates_of_one_custom_code_create_exactly_one() {
    for backend in backends() {
        let servers = instances(backend.clone(), Options::default).await;
        let (_, key) = servers[0].full_user("coder").await;
        let answers = race_posts(
            &servers,
            RACERS,
            "/chains",
            &key,
            |i| json!({"target_url": format!("https://e.com/{i}"), "code": "contested"}),
        )
        .await;
        assert_eq!(
            count(&answers, StatusCode::CREATED),
            1,
            "{backend:?}: {answers:?}"
        );
        assert_eq!(
            count(&answers, StatusCode::CONFLICT),
            RACERS - 1,
            "{backend:?}: {answers:?}"
        );
        for (_, body) in answers.iter().filter(|(s, _)| *s == StatusCode::CONFLICT) {
            assert_eq!(body["code"], "code_taken", "{backend:?}: {body}");
        }
        // The winner is the one every instance redirects to.
        let winner = answers
            .iter()
            .find(|(s, _)| *s == StatusCode::CREATED)
            .map(|(_, body)| body["data"]["target_url"].clone())
            .expect("a winner");
        for server in &servers {
            let visit = server.visit("contested").await;
            assert_eq!(visit.status, StatusCode::FOUND, "{backend:?}");
            assert_eq!(visit.header("location"), winner.as_str(), "{backend:?}");
        }
    }
}

#[tokio::test]
async fn racing_creates_whose_random_codes_collide_each_get_their_own_and_use_their_quota_once() {
    for backend in backends() {
        // One-character codes (62 of them): fifty racing creates, inserted together, draw the
        // same ones, and try longer codes once the short ones run out.
        let servers = instances(backend.clone(), || Options {
            daily_create_quota: RACERS as i64 + 5,
            code_length: 1,
            ..Options::default()
        })
        .await;
        let (_, key) = servers[0].full_user("collider").await;
        let answers = race_posts(
            &servers,
            RACERS,
            "/chains",
            &key,
            |i| json!({"target_url": format!("https://e.com/{i}")}),
        )
        .await;
        assert_eq!(
            count(&answers, StatusCode::CREATED),
            RACERS,
            "{backend:?}: {answers:?}"
        );
        let codes: std::collections::HashSet<&str> = answers
            .iter()
            .map(|(_, body)| body["data"]["code"].as_str().unwrap_or_default())
            .collect();
        assert_eq!(
            codes.len(),
            RACERS,
            "{backend:?}: every create has a code of its own"
        );
        // Retried codes took no extra places: exactly five more fit today.
        for i in 0..5 {
            let created = servers[i % servers.len()]
                .post("/chains", &key, json!({"target_url": "https://e.com/more"}))
                .await;
            assert_eq!(
                created.status,
                StatusCode::CREATED,
                "{backend:?}: {}",
                created.text
            );
        }
        servers[0]
            .post("/chains", &key, json!({"target_url": "https://e.com/over"}))
            .await
            .assert_primary_error(StatusCode::TOO_MANY_REQUESTS, "quota_exceeded");
    }
}

#[tokio::test]
async fn racing_creates_of_several_users_each_stop_exactly_at_their_own_quota() {
    const USERS: usize = 5;
    const QUOTA: usize = 4;
    for backend in backends() {
        // Creates of many owners land in one batch: their quotas are reserved together.
        let servers = instances(backend.clone(), || Options {
            daily_create_quota: QUOTA as i64,
            ..Options::default()
        })
        .await;
        let mut keys = Vec::new();
        for u in 0..USERS {
            keys.push(servers[0].full_user(&format!("owner-{u}")).await.1);
        }
        let answers = race(&servers, RACERS, |server, i| {
            server
                .client
                .post(server.url("/chains"))
                .bearer_auth(&keys[i % USERS])
                .json(&json!({"target_url": format!("https://e.com/{i}")}))
        })
        .await;
        for (u, key) in keys.iter().enumerate() {
            let theirs: Vec<StatusCode> = answers
                .iter()
                .enumerate()
                .filter(|(i, _)| i % USERS == u)
                .map(|(_, reply)| reply.status)
                .collect();
            let created = theirs.iter().filter(|s| **s == StatusCode::CREATED).count();
            let refused = theirs
                .iter()
                .filter(|s| **s == StatusCode::TOO_MANY_REQUESTS)
                .count();
            assert_eq!(
                (created, refused),
                (QUOTA, theirs.len() - QUOTA),
                "{backend:?}: owner {u}: {theirs:?}"
            );
            let listed = servers[1 % servers.len()].get("/chains", key).await;
            assert_eq!(listed.primary_data()["total"], QUOTA, "{backend:?}");
        }
    }
}

/// Two instances over one fresh PostgreSQL database; `None` (the test skips) without one.
async fn two_instances() -> Option<(TestServer, TestServer)> {
    let backend = Backend::postgres()?;
    let a = TestServer::start_on(backend, Options::default()).await;
    let b = a.start_peer(Options::default()).await;
    Some((a, b))
}

#[tokio::test]
async fn an_edit_delete_or_domain_change_through_one_instance_reaches_the_other() {
    let Some((a, b)) = two_instances().await else {
        return;
    };
    let (_, key) = a.full_user("coherent").await;
    let chain = a
        .create_chain(
            &key,
            json!({"target_url": "https://old.example/", "code": "moving"}),
        )
        .await;
    // B has the link cached now.
    assert_eq!(
        b.visit("moving").await.header("location"),
        Some("https://old.example/")
    );

    a.patch(
        &format!("/chains/{}", chain["id"]),
        &key,
        json!({"target_url": "https://new.example/"}),
    )
    .await
    .primary_data();
    let seen = within(Duration::from_secs(1), || async {
        b.visit("moving").await.header("location") == Some("https://new.example/")
    })
    .await;
    assert!(seen, "B still redirected to the old target after 1 s");

    a.delete(&format!("/chains/{}", chain["id"]), &key)
        .await
        .primary_data();
    let seen = within(Duration::from_secs(1), || async {
        b.visit("moving").await.status == StatusCode::NOT_FOUND
    })
    .await;
    assert!(seen, "B still served a deleted chain after 1 s");

    // A domain added through A is served by B; set to 99 through A, B stops serving it.
    let domain = a
        .post(
            "/admin/domains",
            ADMIN_KEY,
            json!({"domain": "branded.test", "scheme": "https", "shared": true}),
        )
        .await;
    let domain_id = domain.primary_data()["id"].as_i64().unwrap();
    a.create_chain(
        &key,
        json!({"target_url": "https://branded.example/", "code": "brand", "domain_id": domain_id}),
    )
    .await;
    let visit_branded = || async {
        b.client
            .get(b.url("/brand"))
            .header("host", "branded.test")
            .send()
            .await
            .unwrap()
            .status()
    };
    let seen = within(Duration::from_secs(1), || async {
        visit_branded().await == StatusCode::FOUND
    })
    .await;
    assert!(seen, "B did not learn of the new domain within 1 s");
    a.patch(
        &format!("/admin/domains/{domain_id}"),
        ADMIN_KEY,
        json!({"status": 99}),
    )
    .await
    .primary_data();
    let seen = within(Duration::from_secs(1), || async {
        visit_branded().await == StatusCode::NOT_FOUND
    })
    .await;
    assert!(seen, "B still served a domain set to 99 after 1 s");
}

/// A code visited on B before it exists is cached there as missing; created through A (as a
/// plain chain, and under an idempotency key, which takes the transactional path), B redirects
/// within a second: the notice sent after A's commit reached it, well before a cached miss
/// would be read again anyway (`MISS_TTL`, 5 s).
#[tokio::test]
async fn a_code_missed_on_one_instance_redirects_there_once_the_other_creates_it() {
    let Some((a, b)) = two_instances().await else {
        return;
    };
    let (_, key) = a.full_user("announcer").await;
    for (code, idempotency) in [("later-plain", None), ("later-keyed", Some("k-later"))] {
        for _ in 0..2 {
            assert_eq!(b.visit(code).await.status, StatusCode::NOT_FOUND);
        }
        let mut request = a
            .client
            .post(a.url("/chains"))
            .bearer_auth(&key)
            .json(&json!({"target_url": format!("https://{code}.example/"), "code": code}));
        if let Some(idempotency) = idempotency {
            request = request.header("idempotency-key", idempotency);
        }
        assert_eq!(
            request.send().await.expect("request").status(),
            StatusCode::CREATED
        );
        let target = format!("https://{code}.example/");
        let seen = within(Duration::from_secs(1), || async {
            b.visit(code).await.header("location") == Some(target.as_str())
        })
        .await;
        assert!(seen, "B still answered 404 for {code} after 1 s");
    }
}

#[tokio::test]
async fn a_key_revoked_through_one_instance_is_refused_by_the_other_at_once() {
    let Some((a, b)) = two_instances().await else {
        return;
    };
    for round in 0..5 {
        let (_, key) = a.full_user(&format!("revoked{round}")).await;
        // B authenticates the key, and so caches it.
        b.get("/chains", &key).await.primary_data();
        b.get("/chains", &key).await.primary_data();
        let keys = a.get("/admin/keys", ADMIN_KEY).await;
        let id = keys
            .primary_data()
            .as_array()
            .unwrap()
            .iter()
            .rev()
            .find(|k| k["state"] == "active" && k["name"] == "")
            .map(|k| k["id"].as_i64().unwrap())
            .unwrap();
        a.delete(&format!("/admin/keys/{id}"), ADMIN_KEY)
            .await
            .primary_data();
        b.get("/chains", &key)
            .await
            .assert_primary_error(StatusCode::UNAUTHORIZED, "invalid_api_key");
    }
}

#[tokio::test]
async fn an_instance_whose_change_feed_reconnects_drops_what_it_cached() {
    let Some((a, b)) = two_instances().await else {
        return;
    };
    let (_, key) = a.full_user("resync").await;
    // B caches that "resyncmark" does not exist yet.
    assert_eq!(b.visit("resyncmark").await.status, StatusCode::NOT_FOUND);
    a.create_chain(
        &key,
        json!({"target_url": "https://before.example/", "code": "resync"}),
    )
    .await;
    a.create_chain(
        &key,
        json!({"target_url": "https://marker.example/", "code": "resyncmark"}),
    )
    .await;
    // Notices arrive in commit order: once B redirects the marker, it has also applied the
    // notice of "resync" being created, and no late invalidation can drop what it caches next.
    let caught_up = within(Duration::from_secs(5), || async {
        b.visit("resyncmark").await.status == StatusCode::FOUND
    })
    .await;
    assert!(caught_up, "B never heard of the marker chain");
    assert_eq!(
        b.visit("resync").await.header("location"),
        Some("https://before.example/")
    );
    // A change no instance hears of, as if its notice were lost: B serves what it cached.
    let changed =
        a.sql("UPDATE chains SET target_url = 'https://behind.example/' WHERE code = 'resync'");
    assert_eq!(changed, 1);
    assert_eq!(
        b.visit("resync").await.header("location"),
        Some("https://before.example/")
    );
    // Cut the change-feed connections: reconnecting, each instance drops what it cached,
    // since it may have missed notices.
    a.sql(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity
         WHERE application_name = 'linkapi listener' AND datname = current_database()",
    );
    let seen = within(Duration::from_secs(5), || async {
        b.visit("resync").await.header("location") == Some("https://behind.example/")
    })
    .await;
    assert!(seen, "B kept its cache across a reconnect");
}

/// Redirect load on two instances over one PostgreSQL database while API calls come in. Both
/// instances' visit flushes raise the same chains' rows many times a second; a flush is one
/// statement, so no connection of either instance ever sits idle inside a transaction holding
/// rows the other waits for, and API reads stay under the bound docs/decisions.md states (one
/// second at the 99th percentile).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn api_calls_answer_while_two_instances_flush_redirect_load() {
    let Some(backend) = Backend::postgres() else {
        return;
    };
    let Backend::Postgres { url } = backend.clone() else {
        unreachable!("a PostgreSQL backend");
    };
    let a = std::sync::Arc::new(TestServer::start_on(backend, Options::default()).await);
    let b = std::sync::Arc::new(a.start_peer(Options::default()).await);
    let (_, key) = a.full_user("loaded").await;
    let mut ids = Vec::new();
    for i in 0..40 {
        let chain = a
            .create_chain(
                &key,
                json!({"target_url": format!("https://e.com/{i}"), "code": format!("hot{i}")}),
            )
            .await;
        ids.push(chain["id"].as_i64().unwrap());
    }
    let (watcher, connection) = tokio_postgres::connect(&url, tokio_postgres::NoTls)
        .await
        .expect("a connection to watch from");
    tokio::spawn(connection);

    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let mut load = Vec::new();
    for i in 0..8 {
        let server = if i % 2 == 0 { a.clone() } else { b.clone() };
        let stop = stop.clone();
        load.push(tokio::spawn(async move {
            let mut n = 0;
            while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                let visit = server.visit(&format!("hot{}", (n * 7 + i) % 40)).await;
                assert_eq!(visit.status, StatusCode::FOUND);
                n += 1;
            }
            n
        }));
    }
    let watching = {
        let stop = stop.clone();
        tokio::spawn(async move {
            let (mut samples, mut idle) = (0, Vec::new());
            while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                let rows = watcher
                    .query(
                        "SELECT query FROM pg_stat_activity
                         WHERE datname = current_database() AND pid <> pg_backend_pid()
                           AND state LIKE 'idle in transaction%'",
                        &[],
                    )
                    .await
                    .expect("pg_stat_activity");
                samples += 1;
                idle.extend(rows.iter().map(|r| r.get::<_, String>(0)));
            }
            (samples, idle)
        })
    };
    let mut latencies = Vec::new();
    for i in 0..100 {
        let server = if i % 2 == 0 { &a } else { &b };
        let path = if i % 4 < 2 {
            format!("/chains/{}", ids[i % ids.len()])
        } else {
            "/chains?page_size=20".to_owned()
        };
        let started = std::time::Instant::now();
        let reply = server.get(&path, &key).await;
        latencies.push(started.elapsed());
        assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    let mut visits = 0;
    for task in load {
        visits += task.await.unwrap();
    }
    let (samples, idle) = watching.await.unwrap();
    assert!(visits > 100, "the load ran: {visits} visits");
    assert!(samples > 100, "the watch ran: {samples} samples");
    assert!(
        idle.is_empty(),
        "connections idle inside a transaction in {} of {samples} samples: {:?}",
        idle.len(),
        idle.iter().take(3).collect::<Vec<_>>()
    );
    latencies.sort();
    let p99 = latencies[latencies.len() * 99 / 100 - 1];
    assert!(p99 < Duration::from_secs(1), "API p99 {p99:?}");
    // The visits were all counted, by both instances' flushes together.
    a.flush_visits().await;
    b.flush_visits().await;
    let mut counted = 0;
    for id in &ids {
        counted += a
            .get(&format!("/chains/{id}/stats"), &key)
            .await
            .primary_data()["total_clicks"]
            .as_i64()
            .unwrap_or(0);
    }
    assert_eq!(counted, visits, "every redirect was counted once");
}

/// Six instances starting at once on one empty database, none given an initial key: exactly
/// one of them makes (and would print) the first admin key.
#[tokio::test]
async fn instances_bootstrapping_one_empty_database_make_exactly_one_key() {
    use linkapi_core::store::Store;
    use linkapi_core::store::postgres::{PgOptions, PgStore};
    use linkapi_core::{App, AppConfig, ManualClock};
    use std::sync::Arc;

    let Some(Backend::Postgres { url }) = Backend::postgres() else {
        return; // PostgreSQL is not installed and not required here.
    };
    let mut apps = Vec::new();
    for _ in 0..6 {
        let store: Arc<dyn Store> = Arc::new(
            PgStore::connect(&url, PgOptions::default())
                .await
                .expect("connect"),
        );
        let app = App::start(
            store,
            Arc::new(ManualClock::new(crate::support::START)),
            AppConfig {
                default_host: "go.example.com".to_owned(),
                ..AppConfig::default()
            },
        )
        .await
        .expect("start");
        apps.push(app);
    }
    let mut set = tokio::task::JoinSet::new();
    for app in apps.clone() {
        set.spawn(async move { app.bootstrap(None).await });
    }
    let mut made = Vec::new();
    while let Some(outcome) = set.join_next().await {
        if let Some(key) = outcome.expect("task").expect("bootstrap") {
            made.push(key);
        }
    }
    assert_eq!(made.len(), 1, "one first key: {made:?}");
    assert!(made[0].generated);
    assert_eq!(apps[0].keys(None).await.expect("keys").len(), 1);
    assert_eq!(apps[0].users().await.expect("users").len(), 1);
    // The key made is the one stored, and it works on every instance.
    for app in &apps {
        app.authenticate(&made[0].secret)
            .await
            .expect("the first key works");
    }
    // A later start finds the key and makes none.
    assert!(apps[3].bootstrap(None).await.expect("bootstrap").is_none());
}

/// An instance that crashed (its listener's session ended) is neither waited for by a revoke
/// nor kept in `linkapi_instances`.
#[tokio::test]
async fn a_crashed_instance_is_not_waited_for_and_is_removed() {
    let Some(backend) = Backend::postgres() else {
        return; // PostgreSQL is not installed and not required here.
    };
    let Backend::Postgres { url } = &backend else {
        unreachable!("a PostgreSQL backend")
    };
    let servers = instances(backend.clone(), Options::default).await;
    let cluster = crate::pg_cluster::cluster().expect("cluster");
    let (user, _) = servers[0].full_user("crash").await;
    // A backend that has ended: this psql session's.
    let gone: i64 = cluster
        .psql(url, "SELECT pg_backend_pid()")
        .trim()
        .parse()
        .expect("a pid");
    cluster.psql(
        url,
        &format!(
            "INSERT INTO linkapi_instances (id, applied, seen_at, listener_pid) \
             VALUES ('crashed', 0, now(), {gone})"
        ),
    );
    let key = servers[0]
        .post(
            "/admin/keys",
            ADMIN_KEY,
            json!({"user_id": user, "scopes": ["chains:read"]}),
        )
        .await;
    let key_id = key.primary_data()["id"].clone();
    let started = std::time::Instant::now();
    let revoked = servers[1]
        .delete(&format!("/admin/keys/{key_id}"), ADMIN_KEY)
        .await;
    assert_eq!(revoked.status, StatusCode::OK, "{}", revoked.text);
    assert!(
        started.elapsed() < linkapi_core::store::BARRIER_TIMEOUT,
        "the revoke did not wait for the crashed instance: {:?}",
        started.elapsed()
    );
    // The next heartbeat of a live instance removes the row.
    let removed = within(Duration::from_secs(15), || async {
        let rows = cluster.psql(
            url,
            "SELECT count(*) FROM linkapi_instances WHERE id = 'crashed'",
        );
        rows.trim() == "0"
    })
    .await;
    assert!(removed, "the crashed instance's row is removed");
    let live = cluster.psql(url, "SELECT count(*) FROM linkapi_instances");
    assert_eq!(live.trim(), "2", "the live instances stay");
}

/// 24 creates at once, spread over eight new templates, against a limit of three: exactly three
/// templates end up in use, and every create that succeeded used one of them.
#[tokio::test]
async fn racing_creates_choosing_new_templates_stay_within_the_template_limit() {
    for backend in backends() {
        let servers = instances(backend.clone(), || Options {
            template_limit: 3,
            ..Options::default()
        })
        .await;
        let mut templates = Vec::new();
        for i in 0..8 {
            let added = servers[0]
                .post(
                    "/admin/templates",
                    ADMIN_KEY,
                    json!({"name": format!("Race {i}")}),
                )
                .await;
            assert_eq!(added.status, StatusCode::CREATED, "{}", added.text);
            templates.push(added.primary_data()["id"].as_i64().expect("id"));
        }
        let (_, key) = servers[0]
            .user_with_key("templater", crate::wx_support::WX_SCOPES)
            .await;
        let answers = race_posts(&servers, 24, "/wx-chains", &key, |i| {
            json!({"scan_qr_url": "https://cdn.example.com/q.png",
                   "jump_template_id": templates[i % templates.len()]})
        })
        .await;
        let mut used = std::collections::HashSet::new();
        // Answers come in the racers' order: racer i chose template i % 8.
        for (i, (status, body)) in answers.iter().enumerate() {
            match *status {
                StatusCode::CREATED => {
                    used.insert(templates[i % templates.len()]);
                }
                StatusCode::UNPROCESSABLE_ENTITY => {
                    assert_eq!(
                        body["code"], "template_limit_reached",
                        "{backend:?}: {body}"
                    );
                }
                other => panic!("{backend:?}: {other}: {body}"),
            }
        }
        assert_eq!(used.len(), 3, "{backend:?}: {answers:?}");
        let listing = servers[1 % servers.len()]
            .post("/openapi/v1/template/list", &key, json!({}))
            .await;
        assert_eq!(listing.compat_result()["used_num"], 3, "{backend:?}");
    }
}
