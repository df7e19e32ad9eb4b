//! Redirects: 302, 404, 410, visit counts, and the cache staying coherent with writes.

use reqwest::StatusCode;
use serde_json::json;

use std::time::Duration;

use crate::support::{ADMIN_KEY, Options, START, TestServer, eventually, within};

#[tokio::test]
async fn live_unknown_deleted_and_expired_links() {
    let server = TestServer::start().await;
    let (_, key) = server.full_user("visitor").await;
    let chain = server
        .create_chain(&key, json!({"target_url": "https://example.com/landing?utm=1", "code": "go", "valid_time": START + 100}))
        .await;

    let hit = server.visit("go").await;
    assert_eq!(hit.status, StatusCode::FOUND);
    assert_eq!(
        hit.header("location"),
        Some("https://example.com/landing?utm=1")
    );
    assert_eq!(hit.header("cache-control"), Some("private, no-cache"));
    assert_eq!(hit.header("content-length"), Some("0"));
    assert_eq!(hit.text, "");

    let head = server.client.head(server.url("/go")).send().await.unwrap();
    assert_eq!(head.status(), StatusCode::FOUND);

    let unknown = server.visit("nothing-here").await;
    assert_eq!(unknown.status, StatusCode::NOT_FOUND);
    assert!(
        unknown
            .header("content-type")
            .unwrap()
            .starts_with("text/html")
    );

    // Expiry: 410 once valid_time passes, and status 2 on reads.
    server.clock.advance(100);
    assert_eq!(server.visit("go").await.status, StatusCode::GONE);
    let read = server.get(&format!("/chains/{}", chain["id"]), &key).await;
    assert_eq!(read.primary_data()["status"], 2);
    assert_eq!(read.primary_data()["status_label"], "expired");
    let info = server.get("/openapi/v1/chain/info?chain=go", &key).await;
    assert_eq!(info.compat_result()["status"], "expired");

    // Extending an expired chain revives it.
    server
        .patch(
            &format!("/chains/{}", chain["id"]),
            &key,
            json!({"valid_time": 0}),
        )
        .await
        .primary_data();
    assert_eq!(server.visit("go").await.status, StatusCode::FOUND);

    server
        .delete(&format!("/chains/{}", chain["id"]), &key)
        .await
        .primary_data();
    assert_eq!(server.visit("go").await.status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn only_the_chains_own_domain_serves_it() {
    let server = TestServer::start().await;
    let (_, key) = server.full_user("hosts").await;
    let other = server
        .post(
            "/admin/domains",
            ADMIN_KEY,
            json!({"domain": "other.test", "scheme": "http", "shared": true}),
        )
        .await;
    let other_id = other.primary_data()["id"].as_i64().unwrap();
    server
        .create_chain(
            &key,
            json!({"target_url": "https://e.com/other", "code": "here", "domain_id": other_id}),
        )
        .await;
    // Same code, asked on the default host: not there.
    assert_eq!(server.visit("here").await.status, StatusCode::NOT_FOUND);
    let visit = |host: &'static str| {
        server
            .client
            .get(server.url("/here"))
            .header("host", host)
            .send()
    };
    let on_other = visit("other.test").await.unwrap();
    assert_eq!(on_other.status(), StatusCode::FOUND);
    assert_eq!(
        visit("OTHER.test:80").await.unwrap().status(),
        StatusCode::FOUND
    );
    // A host that is no domain (an instance's own address, a health check by IP) is
    // answered as the default domain: its chains, and no other domain's.
    assert_eq!(
        visit("unknown.test").await.unwrap().status(),
        StatusCode::NOT_FOUND
    );
    server
        .create_chain(
            &key,
            json!({"target_url": "https://e.com/default", "code": "mine"}),
        )
        .await;
    let by_instance = server
        .client
        .get(server.url("/mine"))
        .header("host", "10.1.2.3:8080")
        .send()
        .await
        .unwrap();
    assert_eq!(by_instance.status(), StatusCode::FOUND);
    assert_eq!(by_instance.headers()["location"], "https://e.com/default");

    server
        .patch(
            &format!("/admin/domains/{other_id}"),
            ADMIN_KEY,
            json!({"status": 99}),
        )
        .await
        .primary_data();
    assert_eq!(
        visit("other.test").await.unwrap().status(),
        StatusCode::NOT_FOUND
    );
    server
        .patch(
            &format!("/admin/domains/{other_id}"),
            ADMIN_KEY,
            json!({"status": 1}),
        )
        .await
        .primary_data();
    assert_eq!(
        visit("other.test").await.unwrap().status(),
        StatusCode::FOUND
    );
}

#[tokio::test]
async fn the_cache_follows_edits_deletes_and_new_codes() {
    let server = TestServer::start().await;
    let (_, key) = server.full_user("cache").await;

    // A miss is cached too; creating the code must replace that answer.
    assert_eq!(server.visit("fresh").await.status, StatusCode::NOT_FOUND);
    let chain = server
        .create_chain(
            &key,
            json!({"target_url": "https://one.example/", "code": "fresh"}),
        )
        .await;
    assert_eq!(
        server.visit("fresh").await.header("location"),
        Some("https://one.example/")
    );

    // Edited on the primary surface: the next hit sees the new target.
    server
        .patch(
            &format!("/chains/{}", chain["id"]),
            &key,
            json!({"target_url": "https://two.example/"}),
        )
        .await
        .primary_data();
    assert_eq!(
        server.visit("fresh").await.header("location"),
        Some("https://two.example/")
    );

    // Edited on the compatibility surface.
    server
        .post(
            "/openapi/v1/chain/edit",
            &key,
            json!({"chain": "fresh", "target_url": "https://three.example/"}),
        )
        .await
        .compat_result();
    assert_eq!(
        server.visit("fresh").await.header("location"),
        Some("https://three.example/")
    );

    // Expiry set on a cached link applies at once.
    server
        .patch(
            &format!("/chains/{}", chain["id"]),
            &key,
            json!({"valid_time": START + 10}),
        )
        .await
        .primary_data();
    assert_eq!(server.visit("fresh").await.status, StatusCode::FOUND);
    server.clock.advance(10);
    assert_eq!(server.visit("fresh").await.status, StatusCode::GONE);
    server.clock.advance(-10);

    // Deleted on the compatibility surface.
    server
        .post(
            "/openapi/v1/chain/delete",
            &key,
            json!({"chains": ["fresh"]}),
        )
        .await
        .compat_result();
    assert_eq!(server.visit("fresh").await.status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn visits_are_counted_and_head_is_not() {
    let server = TestServer::start().await;
    let (_, key) = server.full_user("counter").await;
    let chain = server
        .create_chain(
            &key,
            json!({"target_url": "https://e.com", "code": "count"}),
        )
        .await;
    for _ in 0..3 {
        assert_eq!(server.visit("count").await.status, StatusCode::FOUND);
    }
    server
        .client
        .head(server.url("/count"))
        .send()
        .await
        .unwrap();
    // Visits are written in order: once a later visit to another chain is counted, a HEAD that
    // was (wrongly) counted would be written too.
    let marker = server
        .create_chain(
            &key,
            json!({"target_url": "https://e.com", "code": "marker"}),
        )
        .await;
    assert_eq!(server.visit("marker").await.status, StatusCode::FOUND);
    let marker_path = format!("/chains/{}", marker["id"]);
    let flushed = eventually(|| async {
        server.get(&marker_path, &key).await.body["data"]["pv_history"] == 1
    })
    .await;
    assert!(flushed, "the marker visit was counted");
    let path = format!("/chains/{}", chain["id"]);
    let read = server.get(&path, &key).await;
    assert_eq!(
        read.primary_data()["pv_history"],
        3,
        "three GETs, and the HEAD not counted"
    );
    assert_eq!(read.primary_data()["pv_today"], 3);

    // Tomorrow they are history, not today.
    server.clock.advance(86_400);
    let read = server.get("/openapi/v1/chain/info?chain=count", &key).await;
    assert_eq!(read.compat_result()["pv_today"], 0);
    assert_eq!(read.compat_result()["pv_history"], 3);
}

#[tokio::test]
async fn a_cached_link_is_served_without_reading_the_database() {
    let server = TestServer::start().await;
    let (_, key) = server.full_user("cached").await;
    server
        .create_chain(
            &key,
            json!({"target_url": "https://cached.example/", "code": "hot"}),
        )
        .await;
    assert_eq!(
        server.visit("hot").await.header("location"),
        Some("https://cached.example/")
    );

    // Change the row behind the server's back: a hit that read the database would see it.
    let changed =
        server.sql("UPDATE chains SET target_url = 'https://sneaky.example/' WHERE code = 'hot'");
    assert_eq!(changed, 1);
    for _ in 0..3 {
        assert_eq!(
            server.visit("hot").await.header("location"),
            Some("https://cached.example/")
        );
    }
}

/// A code that was not there is remembered as missing for `MISS_TTL` (5 s, docs/decisions.md),
/// so a flood of unknown codes reads each once. A chain whose notice never reached the cache
/// (here: inserted behind the server's back) is served once that entry expires.
#[tokio::test]
async fn a_code_missed_then_inserted_behind_the_servers_back_redirects_once_the_miss_expires() {
    let server = TestServer::start().await;
    let (_, key) = server.full_user("missed").await;
    server
        .create_chain(
            &key,
            json!({"target_url": "https://seen.example/", "code": "seen"}),
        )
        .await;
    assert_eq!(server.visit("ghost").await.status, StatusCode::NOT_FOUND);
    let inserted = server.sql(
        "INSERT INTO chains (user_id, chain_type, domain_id, code, title, target_url,
             created_at, updated_at)
         SELECT user_id, chain_type, domain_id, 'ghost', title, 'https://ghost.example/',
             created_at, updated_at
         FROM chains WHERE code = 'seen'",
    );
    assert_eq!(inserted, 1);
    let missed_at = std::time::Instant::now();
    assert_eq!(
        server.visit("ghost").await.status,
        StatusCode::NOT_FOUND,
        "the miss is answered from memory"
    );
    let found = within(Duration::from_secs(6), || async {
        server.visit("ghost").await.header("location") == Some("https://ghost.example/")
    })
    .await;
    assert!(
        found,
        "still 404 {:?} after the insert",
        missed_at.elapsed()
    );
}

#[tokio::test]
async fn the_root_names_the_service_or_goes_where_the_operator_says() {
    let server = TestServer::start().await;
    let root = server.client.get(server.url("/")).send().await.unwrap();
    assert_eq!(root.status(), StatusCode::OK);
    assert!(
        root.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/html")
    );
    let page = root.text().await.unwrap();
    assert!(page.contains("This server hosts short links"), "{page}");
    assert!(!page.contains("does not exist"), "{page}");

    let server = TestServer::start_with(Options {
        home_url: Some("https://www.example.com/"),
        ..Options::default()
    })
    .await;
    let root = server.client.get(server.url("/")).send().await.unwrap();
    assert_eq!(root.status(), StatusCode::FOUND);
    assert_eq!(root.headers()["location"], "https://www.example.com/");
}

#[tokio::test]
async fn percent_encoded_unreserved_characters_name_the_same_code() {
    let server = TestServer::start().await;
    let (_, key) = server.full_user("escapes").await;
    for code in ["Abc", "my-code_1", "a"] {
        server
            .create_chain(
                &key,
                json!({"target_url": format!("https://e.example/{code}"), "code": code}),
            )
            .await;
    }
    for (path, target) in [
        ("%41bc", Some("Abc")),
        ("%41%62%63", Some("Abc")),
        ("A%62c", Some("Abc")),
        ("my%2Dcode%5f1", Some("my-code_1")),
        ("%61", Some("a")),
        // Other escapes stay what they are: never a slash, never another code.
        ("a%2F", None),
        ("%2Fa", None),
        ("%2561", None),
        ("%C3%A9", None),
    ] {
        // Twice: the second may be answered from the link cache.
        for _ in 0..2 {
            let visit = server.visit(path).await;
            match target {
                Some(code) => {
                    assert_eq!(visit.status, StatusCode::FOUND, "{path}");
                    assert_eq!(
                        visit.headers["location"],
                        format!("https://e.example/{code}").as_str(),
                        "{path}"
                    );
                }
                None => assert_eq!(visit.status, StatusCode::NOT_FOUND, "{path}"),
            }
        }
    }
}
