//! `POST /chains/bulk`: many chains in one request, each created or refused on its own, the
//! daily quota exact under concurrent bulk and single creates on every instance.

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::instances::{backends, instances};
use crate::support::{Options, START, TestServer, race_posts};

async fn bulk(server: &TestServer, key: &str, chains: Vec<Value>) -> crate::support::Reply {
    server
        .post("/chains/bulk", key, json!({ "chains": chains }))
        .await
}

#[tokio::test]
async fn each_item_is_created_or_refused_on_its_own_in_order() {
    let server = TestServer::start_with(Options {
        max_body_bytes: 1 << 20,
        ..Options::default()
    })
    .await;
    let (_, key) = server.full_user("bulker").await;
    let (_, other) = server.full_user("other").await;
    let theirs = server
        .post(
            "/groups",
            &other,
            json!({"name": "Theirs", "chain_type": 1}),
        )
        .await
        .primary_data()["id"]
        .clone();
    server
        .create_chain(
            &key,
            json!({"target_url": "https://e.example/taken", "code": "taken"}),
        )
        .await;

    let reply = bulk(
        &server,
        &key,
        vec![
            json!({"target_url": "https://e.example/0"}),
            json!({"target_url": "https://e.example/1", "code": "bulk-1", "chain_title": "One"}),
            json!({"target_url": "https://e.example/2", "valid_time": START - 10}),
            json!({"target_url": "https://e.example/3", "code": "taken"}),
            json!({"target_url": "https://e.example/4", "code": "twice"}),
            json!({"target_url": "https://e.example/5", "code": "twice"}),
            json!({"target_url": "https://e.example/6", "group_id": theirs}),
            json!({"target_url": "https://user:pw@e.example/7"}),
        ],
    )
    .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    let data = reply.primary_data();
    assert_eq!(
        (data["created"].as_i64(), data["failed"].as_i64()),
        (Some(3), Some(5))
    );
    let results = data["results"].as_array().unwrap();
    assert_eq!(results.len(), 8);
    for (i, result) in results.iter().enumerate() {
        assert_eq!(result["index"], i, "{result}");
    }
    let codes: Vec<(bool, Value)> = results
        .iter()
        .map(|r| {
            (
                r["ok"].as_bool().unwrap(),
                if r["ok"] == true {
                    r["chain"]["target_url"].clone()
                } else {
                    r["error"]["code"].clone()
                },
            )
        })
        .collect();
    assert_eq!(
        codes,
        vec![
            (true, json!("https://e.example/0")),
            (true, json!("https://e.example/1")),
            (false, json!("invalid_valid_time")),
            (false, json!("code_taken")),
            (true, json!("https://e.example/4")),
            (false, json!("duplicate_code")),
            (false, json!("invalid_group")),
            (false, json!("invalid_target_url")),
        ]
    );
    assert!(
        results[5]["error"]["message"]
            .as_str()
            .unwrap()
            .contains("item 4")
    );
    // Created items are what POST /chains answers, and are there.
    let one = &results[1]["chain"];
    assert_eq!(one["chain_title"], "One");
    assert!(one["render_url"].as_str().unwrap().ends_with("/bulk-1"));
    let read = server.get(&format!("/chains/{}", one["id"]), &key).await;
    assert_eq!(read.primary_data()["code"], "bulk-1");
    assert_eq!(server.visit("bulk-1").await.status, StatusCode::FOUND);
    let listed = server.get("/chains", &key).await;
    assert_eq!(
        listed.primary_data()["total"],
        4,
        "three new and the taken one"
    );

    // The whole request is refused for no items, too many, or an item against the schema.
    bulk(&server, &key, vec![])
        .await
        .assert_primary_error(StatusCode::BAD_REQUEST, "invalid_field");
    let too_many: Vec<Value> = (0..10_001)
        .map(|i| json!({"target_url": format!("https://e.example/{i}")}))
        .collect();
    bulk(&server, &key, too_many)
        .await
        .assert_primary_error(StatusCode::BAD_REQUEST, "too_many_chains");
    bulk(
        &server,
        &key,
        vec![
            json!({"target_url": "https://e.example/ok"}),
            json!({"target_url": 7}),
        ],
    )
    .await
    .assert_primary_error(StatusCode::BAD_REQUEST, "invalid_field");
    let listed = server.get("/chains", &key).await;
    assert_eq!(
        listed.primary_data()["total"],
        4,
        "refused requests create nothing"
    );
}

#[tokio::test]
async fn ten_thousand_chains_fit_in_one_request() {
    let server = TestServer::start().await;
    let (_, key) = server.full_user("importer").await;
    let chains: Vec<Value> = (0..10_000)
        .map(|i| {
            json!({"target_url": format!("https://shop.example/products/{i}?utm_source=import"),
                   "chain_title": format!("Product {i}")})
        })
        .collect();
    let reply = bulk(&server, &key, chains).await;
    assert_eq!(
        reply.status,
        StatusCode::OK,
        "{}",
        &reply.text[..200.min(reply.text.len())]
    );
    assert_eq!(reply.primary_data()["created"], 10_000);
    let results = reply.primary_data()["results"].as_array().unwrap();
    let codes: std::collections::HashSet<&str> = results
        .iter()
        .map(|r| r["chain"]["code"].as_str().unwrap())
        .collect();
    assert_eq!(codes.len(), 10_000, "every chain has a code of its own");
    assert_eq!(
        results[9_999]["chain"]["target_url"],
        "https://shop.example/products/9999?utm_source=import"
    );
    let listed = server.get("/chains", &key).await;
    assert_eq!(listed.primary_data()["total"], 10_000);
}

/// Bulk and single creates at once against a quota of 50, over two instances where PostgreSQL
/// is installed: exactly 50 chains, and every refusal is `quota_exceeded`.
#[tokio::test]
async fn the_quota_is_exact_under_concurrent_bulk_and_single_creates() {
    for backend in backends() {
        let servers = instances(backend.clone(), || Options {
            daily_create_quota: 50,
            max_body_bytes: 1 << 20,
            ..Options::default()
        })
        .await;
        let (_, key) = servers[0].full_user("racer").await;
        let answers = race_posts(&servers, 24, "/chains/bulk", &key, |i| {
            if i % 2 == 0 {
                // Half the racers send 10 chains in one request...
                let chains: Vec<Value> = (0..10)
                    .map(|j| json!({"target_url": format!("https://e.example/{i}/{j}")}))
                    .collect();
                json!({ "chains": chains })
            } else {
                // ... the other half one chain each, in a bulk of one.
                json!({"chains": [{"target_url": format!("https://e.example/{i}")}]})
            }
        })
        .await;
        let singles = race_posts(
            &servers,
            24,
            "/chains",
            &key,
            |i| json!({"target_url": format!("https://single.example/{i}")}),
        )
        .await;
        let mut created = 0;
        for (status, body) in &answers {
            assert_eq!(*status, StatusCode::OK, "{backend:?}: {body}");
            created += body["data"]["created"].as_i64().unwrap();
            for result in body["data"]["results"].as_array().unwrap() {
                if result["ok"] == false {
                    assert_eq!(result["error"]["code"], "quota_exceeded", "{backend:?}");
                }
            }
        }
        for (status, body) in &singles {
            match *status {
                StatusCode::CREATED => created += 1,
                StatusCode::TOO_MANY_REQUESTS => {
                    assert_eq!(body["code"], "quota_exceeded", "{backend:?}: {body}");
                }
                other => panic!("{backend:?}: {other}: {body}"),
            }
        }
        assert_eq!(created, 50, "{backend:?}");
        let listed = servers[servers.len() - 1].get("/chains", &key).await;
        assert_eq!(listed.primary_data()["total"], 50, "{backend:?}");
    }
}

/// With one-character codes (56 of them), random codes collide all the time: items whose
/// code was taken try others, longer ones after a few, and every item is still created once.
#[tokio::test]
async fn items_whose_random_codes_collide_try_others() {
    for backend in backends() {
        let servers = instances(backend.clone(), || Options {
            code_length: 1,
            ..Options::default()
        })
        .await;
        let server = &servers[0];
        let (_, key) = server.full_user("crowded").await;
        let chains: Vec<Value> = (0..120)
            .map(|i| json!({"target_url": format!("https://c.example/{i}")}))
            .collect();
        let reply = bulk(server, &key, chains).await;
        assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
        let data = reply.primary_data();
        assert_eq!(data["created"], 120, "{backend:?}: {}", reply.text);
        let mut codes = std::collections::HashSet::new();
        for (i, result) in data["results"].as_array().unwrap().iter().enumerate() {
            assert_eq!(
                result["chain"]["target_url"],
                format!("https://c.example/{i}"),
                "each result is its own item's chain"
            );
            assert!(codes.insert(result["chain"]["code"].as_str().unwrap().to_owned()));
        }
        assert!(
            codes.iter().any(|c| c.len() > 1),
            "the one-character codes ran out"
        );
        let listed = server.get("/chains?page_size=1", &key).await;
        assert_eq!(listed.primary_data()["total"], 120, "{backend:?}");
    }
}

/// A code visited before it existed is cached as missing; a bulk create that makes it must
/// not leave that answer behind, here or on another instance.
#[tokio::test]
async fn a_bulk_created_code_redirects_at_once_where_it_was_missing() {
    for backend in backends() {
        let servers = instances(backend.clone(), Options::default).await;
        let (_, key) = servers[0].full_user("later").await;
        for server in &servers {
            assert_eq!(server.visit("soon").await.status, StatusCode::NOT_FOUND);
        }
        let reply = bulk(
            &servers[0],
            &key,
            vec![json!({"target_url": "https://e.example/soon", "code": "soon"})],
        )
        .await;
        assert_eq!(reply.primary_data()["created"], 1, "{}", reply.text);
        for server in &servers {
            let found = crate::support::within(std::time::Duration::from_secs(1), || async {
                server.visit("soon").await.status == StatusCode::FOUND
            })
            .await;
            assert!(found, "{backend:?}: the cached miss is gone");
        }
    }
}
