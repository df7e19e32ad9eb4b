//! Moving a deployment from SQLite to PostgreSQL (`store::transfer`): a database filled through
//! the API with every kind of record, visits included, is copied and then served by two
//! PostgreSQL instances, which answer every read exactly as the SQLite server did.

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::breakdowns::{IPHONE, breakdown, items};
use crate::images::png;
use crate::support::{ADMIN_KEY, Backend, Options, TestServer};
use crate::uploads::upload;
use crate::wx_support::{WX_SCOPES, create_wx};

/// Every scope a user key can hold.
const EVERY_SCOPE: &[&str] = &[
    "chains:read",
    "chains:write",
    "groups:read",
    "groups:write",
    "domains:read",
    "card:read",
    "card:write",
    "templates:read",
    "workchat:read",
    "stats:read",
    "conversions:read",
    "conversions:write",
    "uploads:read",
    "uploads:write",
    "webhooks:read",
    "webhooks:write",
];

/// Fills the server with one or more of every record the API can create; returns the reads
/// that show them all, as (method, path, key, body).
async fn fill(server: &TestServer) -> (Vec<(Method, String, String, Option<Value>)>, Vec<String>) {
    let (alice_id, alice) = server.user_with_key("alice", EVERY_SCOPE).await;
    let (bob_id, bob) = server.user_with_key("bob", WX_SCOPES).await;
    let (carol_id, revoked) = server.user_with_key("carol", &["chains:read"]).await;
    let carol_keys = server
        .get(&format!("/admin/keys?user_id={carol_id}"), ADMIN_KEY)
        .await;
    let carol_key = carol_keys.primary_data()[0]["id"].clone();
    let gone = server
        .delete(&format!("/admin/keys/{carol_key}"), ADMIN_KEY)
        .await;
    assert!(gone.status.is_success(), "{}", gone.text);

    let domain = server
        .post(
            "/admin/domains",
            ADMIN_KEY,
            json!({"domain": "alice.example.com", "scheme": "https", "scene": "brand",
                   "user_id": alice_id}),
        )
        .await;
    assert_eq!(domain.status, StatusCode::CREATED, "{}", domain.text);
    let group = server
        .post(
            "/groups",
            &alice,
            json!({"name": "Spring", "chain_type": 1}),
        )
        .await;
    assert_eq!(group.status, StatusCode::CREATED, "{}", group.text);
    let group_id = group.primary_data()["id"].clone();
    let template = server
        .post(
            "/admin/templates",
            ADMIN_KEY,
            json!({"name": "Shared", "style": "card", "body": "<h1>{{ title }}</h1>"}),
        )
        .await;
    assert_eq!(template.status, StatusCode::CREATED, "{}", template.text);
    let private = server
        .post(
            "/admin/templates",
            ADMIN_KEY,
            json!({"name": "Bob only", "user_id": bob_id}),
        )
        .await;
    assert_eq!(private.status, StatusCode::CREATED, "{}", private.text);

    let mut short_ids = Vec::new();
    for (i, body) in [
        json!({"target_url": "https://shop.example/a", "code": "sale", "group_id": group_id}),
        json!({"target_url": "https://shop.example/b", "chain_title": "Autumn 50%",
               "rules": [{"device": "ios", "query": {"ref": "tw"}, "target_url": "https://shop.example/ios"}]}),
        json!({"target_url": "https://shop.example/c", "domain_id": domain.primary_data()["id"]}),
        json!({"target_url": "https://shop.example/d", "valid_time": crate::support::START + 86_400}),
        json!({"target_url": "https://shop.example/e"}),
    ]
    .into_iter()
    .enumerate()
    {
        let chain = server.create_chain(&alice, body).await;
        short_ids.push(chain["id"].as_i64().expect("id"));
        server.clock.advance(i as i64 + 1);
    }
    let edited = server
        .patch(
            &format!("/chains/{}", short_ids[1]),
            &alice,
            json!({"target_url": "https://shop.example/b2"}),
        )
        .await;
    assert!(edited.status.is_success(), "{}", edited.text);
    let deleted = server
        .delete(&format!("/chains/{}", short_ids[4]), &alice)
        .await;
    assert!(deleted.status.is_success(), "{}", deleted.text);

    let wx = create_wx(
        server,
        &bob,
        json!({"chain_title": "Join us", "visit_type": 1, "jump_template_id": template.primary_data()["id"],
               "channel_list": [
                   {"qrcode_name": "one", "url": "https://cdn.example.com/1.png", "visit_limit": 3},
                   {"qrcode_name": "two", "url": "https://cdn.example.com/2.png", "sort": 2},
               ]}),
    )
    .await;
    let card = server
        .post(
            "/card/createWxChain",
            &bob,
            json!({"chain_title": "Card", "chain_type": 4,
                   "scan_qr_url": "https://cdn.example.com/card.png", "jump_template_id": 0}),
        )
        .await;
    assert_eq!(card.status, StatusCode::OK, "{}", card.text);
    let assembly = server
        .post(
            "/admin/workchat/assemblies",
            ADMIN_KEY,
            json!({"user_id": bob_id, "link_id": "L1", "link_name": "Sales",
                   "url": "https://work.example.com/ca/L1", "auth_status": "authorized"}),
        )
        .await;
    assert_eq!(assembly.status, StatusCode::OK, "{}", assembly.text);
    let workchat = server
        .post(
            "/openapi/v1/workchat/chain/create",
            &bob,
            json!({"chain_title": "Sales", "chain_type": 3, "wxwork_type": 1,
                   "customer_id": assembly.primary_data()["id"], "domain": [], "group_id": [],
                   "is_direct_jump": 1, "jump_template_id": 0}),
        )
        .await;
    assert_eq!(workchat.status, StatusCode::OK, "{}", workchat.text);
    let transfers = server
        .post(
            "/admin/workchat/transfers",
            ADMIN_KEY,
            json!({"user_id": bob_id, "corp_id": "corp1", "handover_userid": "alice",
                   "takeover_userid": "bob", "records": [
                       {"external_userid": "wm1", "name": "One", "status": 1},
                       {"external_userid": "wm2", "status": 3, "errcode": 40096,
                        "reason": "customer refused"}]}),
        )
        .await;
    assert_eq!(transfers.status, StatusCode::OK, "{}", transfers.text);

    for (i, conv_type) in ["purchase", "signup", "purchase"].iter().enumerate() {
        let reported = server
            .post(
                "/openapi/v1/adcallback/tencent-ads/conversions",
                &alice,
                json!({"chain": "sale", "conv_type": conv_type, "out_id": format!("o-{}", i % 2),
                       "value_cents": 1999, "clickid": "ck"}),
            )
            .await;
        assert_eq!(reported.status, StatusCode::OK, "{}", reported.text);
    }
    for name in ["banner", "logo"] {
        let uploaded = upload(
            server,
            &alice,
            &format!("{name}.png"),
            png(name, 0),
            "image/png",
        )
        .await;
        assert_eq!(uploaded.status, StatusCode::CREATED, "{}", uploaded.text);
    }

    // Visits: people and a bot on the short chains, visitors taking the wx chain's channels.
    let agents = [
        "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X)",
        "Mozilla/5.0 (Windows NT 10.0; Win64; x64)",
        "Googlebot/2.1 (+http://www.google.com/bot.html)",
    ];
    for (n, code) in ["sale", "sale", "sale", wx["code"].as_str().expect("code")]
        .iter()
        .cycle()
        .take(12)
        .enumerate()
    {
        let reply = server
            .client
            .get(server.url(&format!("/{code}")))
            .header("host", &server.host)
            .header("user-agent", agents[n % agents.len()])
            .header("x-forwarded-for", format!("198.51.100.{n}"))
            .send()
            .await
            .expect("visit");
        assert!(reply.status().is_redirection() || reply.status().is_success());
        if n == 5 {
            server.clock.advance(86_400);
        }
    }
    // A request that reached no chain: an orphan visit.
    assert_eq!(
        server.visit("no-such-code").await.status,
        StatusCode::NOT_FOUND
    );
    server.flush_visits().await;

    // A webhook whose endpoint refuses connections: an event, its delivery and an attempt.
    let hook = server
        .post(
            "/webhooks",
            &alice,
            json!({"url": "http://127.0.0.1:1/hooks", "events": ["chain.created"]}),
        )
        .await;
    assert_eq!(hook.status, StatusCode::CREATED, "{}", hook.text);
    let hook_id = hook.primary_data()["id"].clone();
    server
        .create_chain(&alice, json!({"target_url": "https://shop.example/hooked"}))
        .await;
    let attempted = crate::support::eventually(|| async {
        let listed = server
            .get(&format!("/webhooks/{hook_id}/deliveries"), &alice)
            .await;
        listed.primary_data()["total"].as_i64() > Some(0)
    })
    .await;
    assert!(attempted, "the delivery was attempted");

    let wx_id = wx["id"].as_i64().expect("id");
    let mut reads: Vec<(Method, String, String, Option<Value>)> = Vec::new();
    let mut get = |path: String, key: &str| reads.push((Method::GET, path, key.to_owned(), None));
    for path in [
        "/chains?page_size=100",
        "/groups",
        "/domains",
        "/templates",
        "/uploads",
    ] {
        get(path.to_owned(), &alice);
    }
    // The deleted chain (the last) reads as missing; the others in full.
    for id in &short_ids[..short_ids.len() - 1] {
        get(format!("/chains/{id}"), &alice);
        get(format!("/chains/{id}/stats?days=30"), &alice);
        get(format!("/chains/{id}/conversions"), &alice);
        // Breakdowns, packed a row per chain-day and span: copied as they are.
        for dimension in ["referrers", "os", "browsers", "devices"] {
            get(format!("/chains/{id}/stats/{dimension}?days=30"), &alice);
        }
    }
    for path in ["/wx-chains?page_size=100", "/card", "/templates", "/groups"] {
        get(path.to_owned(), &bob);
    }
    get(format!("/wx-chains/{wx_id}"), &bob);
    get(format!("/chains/{wx_id}/stats?days=30"), &bob);
    for path in [
        "/admin/users",
        "/admin/keys",
        "/admin/domains",
        "/admin/templates",
        "/admin/orphan-visits?days=30",
    ] {
        get(path.to_owned(), ADMIN_KEY);
    }
    get(
        format!("/admin/workchat/assemblies?user_id={bob_id}"),
        ADMIN_KEY,
    );
    get(
        "/openapi/v1/chain/list?page=1&page_size=100".to_owned(),
        &alice,
    );
    get(
        "/openapi/v1/wxchain/list?page=1&page_size=100".to_owned(),
        &bob,
    );
    get("/openapi/v1/workchat/assembly/list".to_owned(), &bob);
    get("/webhooks".to_owned(), &alice);
    reads.push((
        Method::POST,
        "/openapi/v1/workchat/transfer/result?corp_id=corp1".to_owned(),
        bob.clone(),
        Some(json!({})),
    ));
    (reads, vec![alice, bob, revoked])
}

/// Every read's status and body, in order.
async fn answers(
    server: &TestServer,
    reads: &[(Method, String, String, Option<Value>)],
) -> Vec<(String, u16, Value)> {
    let mut out = Vec::with_capacity(reads.len());
    for (method, path, key, body) in reads {
        let reply = server
            .call(method.clone(), path, Some(key), body.clone())
            .await;
        out.push((path.clone(), reply.status.as_u16(), reply.body));
    }
    out
}

#[tokio::test]
async fn a_sqlite_deployment_copied_to_postgresql_answers_the_same_on_two_instances() {
    let Some(Backend::Postgres { url }) = Backend::postgres() else {
        return; // PostgreSQL is not installed and not required here.
    };
    let mut sqlite = TestServer::start_on(Backend::Sqlite, Options::default()).await;
    let (reads, keys) = fill(&sqlite).await;
    // A create under an idempotency key, replayed from PostgreSQL below.
    let keyed = |server: &TestServer| {
        server
            .client
            .post(server.url("/chains"))
            .bearer_auth(&keys[0])
            .header("idempotency-key", "moved-with-the-data")
            .json(&json!({"target_url": "https://shop.example/keyed"}))
            .send()
    };
    let keyed_first = crate::support::Reply::from(keyed(&sqlite).await.expect("request")).await;
    assert_eq!(keyed_first.status, 201, "{}", keyed_first.text);
    // And a bulk create under one, whose answer is kept in parts.
    let keyed_bulk = |server: &TestServer| {
        server
            .client
            .post(server.url("/chains/bulk"))
            .bearer_auth(&keys[0])
            .header("idempotency-key", "a-bulk-moved-with-the-data")
            .json(&json!({"chains": [{"target_url": "https://shop.example/bulk"}]}))
            .send()
    };
    let bulk_first = crate::support::Reply::from(keyed_bulk(&sqlite).await.expect("request")).await;
    assert_eq!(bulk_first.status, 200, "{}", bulk_first.text);
    let lone = sqlite
        .create_chain(
            &keys[0],
            json!({"target_url": "https://shop.example/lone", "code": "lone"}),
        )
        .await;
    let visit_lone = |server: &TestServer| {
        server
            .client
            .get(server.url("/lone"))
            .header("host", &server.host)
            .header("user-agent", IPHONE)
            .send()
    };
    assert_eq!(
        visit_lone(&sqlite).await.expect("a visit").status(),
        StatusCode::FOUND
    );
    sqlite.flush_visits().await;
    let before = answers(&sqlite, &reads).await;
    for (path, status, body) in &before {
        assert_eq!(*status, 200, "{path}: {body}");
    }
    let sale_stats = &before[6];
    assert!(sale_stats.0.contains("/stats"), "{sale_stats:?}");
    assert!(
        sale_stats.2["data"]["total_clicks"].as_i64() > Some(5),
        "the visits made statistics: {sale_stats:?}"
    );
    sqlite.stop().await;

    let mut reported = Vec::new();
    let report = linkapi_core::store::transfer::sqlite_to_postgres(
        &sqlite.dir.path().join("linkapi.db"),
        &url,
        false,
        &mut |p| reported.push(format!("{p:?}")),
    )
    .await
    .expect("copied");
    assert!(reported.iter().any(|p| p.contains("Verifying")));
    let rows = |table: &str| {
        report
            .tables
            .iter()
            .find(|t| t.table == table)
            .map_or(0, |t| t.rows)
    };
    for table in linkapi_core::store::transfer::TABLES {
        if !["visit_batches", "chain_group_members"].contains(table) {
            assert!(rows(table) > 0, "{table} had rows to copy: {report:?}");
        }
    }

    let backend = Backend::Postgres { url };
    let first = TestServer::start_in(
        sqlite.dir.clone(),
        backend.clone(),
        sqlite.clock.clone(),
        Some(sqlite.host.clone()),
        Options::default(),
    )
    .await;
    let second = first.start_peer(Options::default()).await;
    for instance in [&first, &second] {
        let after = answers(instance, &reads).await;
        for ((path, status, body), (_, status_after, body_after)) in before.iter().zip(&after) {
            assert_eq!(status, status_after, "{path}: {body_after}");
            assert_eq!(body, body_after, "{path} answers as it did on SQLite");
        }
    }

    let replayed = crate::support::Reply::from(keyed(&second).await.expect("request")).await;
    assert_eq!(replayed.header("idempotency-replayed"), Some("true"));
    assert_eq!(replayed.text, keyed_first.text);
    let replayed = crate::support::Reply::from(keyed_bulk(&second).await.expect("request")).await;
    assert_eq!(replayed.header("idempotency-replayed"), Some("true"));
    assert_eq!(replayed.text, bulk_first.text);

    // Every key still opens what it did; the revoked one stays revoked.
    for (key, works) in keys.iter().zip([true, true, false]) {
        let reply = second.get("/chains", key).await;
        assert_eq!(reply.status.is_success(), works, "{}", reply.text);
    }
    // A redirect still counts, seen from the other instance.
    let sale_stats = format!("/chains/{}/stats?days=30", before[5].2["data"]["id"]);
    let clicks = first.get(&sale_stats, &keys[0]).await.primary_data()["total_clicks"]
        .as_i64()
        .expect("clicks");
    let visit = second.visit("sale").await;
    assert_eq!(visit.status, StatusCode::FOUND);
    second.flush_visits().await;
    let after = first.get(&sale_stats, &keys[0]).await;
    assert_eq!(after.primary_data()["total_clicks"], clicks + 1);

    // A chain visited on one day: SQLite keeps no row for the day's span (the day's row is its
    // sum), PostgreSQL reads spans from their rows alone. Visited again after the copy, sixty
    // days on a 120-day window reads the span's row, which must hold both visits.
    assert_eq!(
        visit_lone(&second).await.expect("a visit").status(),
        StatusCode::FOUND
    );
    second.flush_visits().await;
    let by_day = breakdown(&first, &keys[0], &lone, "os").await;
    assert_eq!(items(&by_day), [("iOS".to_owned(), 2)].into());
    first.clock.advance(60 * 86_400);
    for instance in [&first, &second] {
        let by_span = breakdown(instance, &keys[0], &lone, "os?days=120").await;
        assert_eq!(items(&by_span), items(&by_day));
        assert_eq!(by_span["other_clicks"], by_day["other_clicks"]);
    }
}

#[tokio::test]
async fn an_interrupted_copy_leaves_the_target_as_it_was_and_runs_again() {
    let Some(Backend::Postgres { url }) = Backend::postgres() else {
        return; // PostgreSQL is not installed and not required here.
    };
    let mut sqlite = TestServer::start_on(Backend::Sqlite, Options::default()).await;
    let (_, key) = sqlite.full_user("mover").await;
    for i in 0..20 {
        sqlite
            .create_chain(
                &key,
                json!({"target_url": format!("https://e.example/{i}")}),
            )
            .await;
    }
    sqlite.stop().await;
    let source = sqlite.dir.path().join("linkapi.db");

    // Stopped as soon as it starts on the chains, after users, keys and domains went in.
    let (reached, stopped) = tokio::sync::oneshot::channel::<()>();
    let mut reached = Some(reached);
    let mut on_progress = |p: linkapi_core::store::transfer::Progress<'_>| {
        if format!("{p:?}").contains("\"chains\"")
            && let Some(reached) = reached.take()
        {
            let _ = reached.send(());
        }
    };
    let copy =
        linkapi_core::store::transfer::sqlite_to_postgres(&source, &url, false, &mut on_progress);
    tokio::select! {
        _ = copy => panic!("the copy finished before it was interrupted"),
        _ = stopped => {}
    }
    // psql waits for the interrupted transaction to end: off the runtime, so the connection's
    // task can run and close it, as a killed process's socket would close.
    for table in ["users", "api_keys", "domains", "chains"] {
        let url = url.clone();
        let rows = tokio::task::spawn_blocking(move || {
            let cluster = crate::pg_cluster::cluster().expect("cluster");
            cluster.psql(&url, &format!("SELECT count(*) FROM {table}"))
        })
        .await
        .expect("psql");
        assert_eq!(rows.trim(), "0", "{table} after the interruption");
    }

    let report =
        linkapi_core::store::transfer::sqlite_to_postgres(&source, &url, false, &mut |_| {})
            .await
            .expect("the second run copies everything");
    let chains = report.tables.iter().find(|t| t.table == "chains");
    assert_eq!(chains.map(|t| t.rows), Some(20));
}
