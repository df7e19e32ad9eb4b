//! Rate limits per key and the daily creation quota per user.

use std::num::NonZeroU32;

use linkapi_core::service::RateLimit;
use reqwest::StatusCode;
use serde_json::json;

use crate::support::{ADMIN_KEY, Options, TestServer};

#[tokio::test]
async fn a_key_over_its_rate_gets_429_with_retry_after() {
    let server = TestServer::start_with(Options {
        rate_limit: Some(RateLimit {
            per_second: NonZeroU32::new(1).unwrap(),
            burst: NonZeroU32::new(3).unwrap(),
        }),
        ..Options::default()
    })
    .await;
    // Setup spends two of the admin key's three tokens.
    let (_, key) = server.full_user("busy").await;

    let first = server.get("/chains", &key).await;
    first.primary_data();
    assert_eq!(first.header("x-ratelimit-limit"), Some("3"));
    assert_eq!(first.header("x-ratelimit-remaining"), Some("2"));

    // The bucket holds three and refills one a second; a slow machine may see a refill between
    // requests, so send until refused rather than counting on exactly three.
    let mut answered = 1;
    let limited = loop {
        let reply = server.get("/chains", &key).await;
        if reply.status == StatusCode::TOO_MANY_REQUESTS {
            break reply;
        }
        reply.primary_data();
        answered += 1;
        assert!(answered <= 10, "never rate limited");
    };
    assert!(
        answered >= 3,
        "the burst of three was honoured ({answered})"
    );
    limited.assert_primary_error(StatusCode::TOO_MANY_REQUESTS, "rate_limited");
    let retry: u64 = limited.header("retry-after").unwrap().parse().unwrap();
    assert!((1..=2).contains(&retry), "{retry}");
    assert_eq!(limited.header("x-ratelimit-remaining"), Some("0"));

    // The compat surface shares the bucket and answers in its own envelope.
    server
        .get("/openapi/v1/chain/list", &key)
        .await
        .assert_compat_error(StatusCode::TOO_MANY_REQUESTS);

    // Another key (the admin's, with one token left) is unaffected.
    server.get("/chains", ADMIN_KEY).await.primary_data();
}

#[tokio::test]
async fn admin_keys_are_not_rate_limited_unless_the_deployment_says_so() {
    let tight = |rate_limit_admin_keys| Options {
        rate_limit: Some(RateLimit {
            per_second: NonZeroU32::new(1).unwrap(),
            burst: NonZeroU32::new(2).unwrap(),
        }),
        rate_limit_admin_keys,
        ..Options::default()
    };
    // The operator's own scripts run with an admin key: never throttled by default.
    let server = TestServer::start_with(tight(false)).await;
    for _ in 0..20 {
        let reply = server.get("/admin/users", ADMIN_KEY).await;
        assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
        assert_eq!(reply.header("x-ratelimit-limit"), None);
    }
    // Everyone else is.
    let (_, key) = server.full_user("limited").await;
    assert!(
        any_refused(&server, "/chains", &key).await,
        "an ordinary key is limited"
    );

    let server = TestServer::start_with(tight(true)).await;
    assert!(
        any_refused(&server, "/admin/users", ADMIN_KEY).await,
        "rate_limit_admin_keys limits admin keys too"
    );
}

/// Whether six requests at once to `path` with `key` meet a 429.
async fn any_refused(server: &TestServer, path: &str, key: &str) -> bool {
    futures_util::future::join_all((0..6).map(|_| server.get(path, key)))
        .await
        .iter()
        .any(|reply| reply.status == StatusCode::TOO_MANY_REQUESTS)
}

#[tokio::test]
async fn the_daily_quota_stops_creation_until_tomorrow() {
    let server = TestServer::start_with(Options {
        daily_create_quota: 2,
        ..Options::default()
    })
    .await;
    let (_, key) = server.full_user("quota").await;
    server
        .create_chain(&key, json!({"target_url": "https://e.com/1"}))
        .await;
    let second = server
        .post(
            "/openapi/v1/chain/create",
            &key,
            json!({"target_url": "https://e.com/2"}),
        )
        .await;
    assert_eq!(second.compat_result()["created_today"], 2);

    let refused = server
        .post("/chains", &key, json!({"target_url": "https://e.com/3"}))
        .await;
    refused.assert_primary_error(StatusCode::TOO_MANY_REQUESTS, "quota_exceeded");
    let retry: i64 = refused.header("retry-after").unwrap().parse().unwrap();
    // START is 08:00 UTC: sixteen hours to midnight.
    assert_eq!(retry, 16 * 3600);
    server
        .post(
            "/openapi/v1/chain/create",
            &key,
            json!({"target_url": "https://e.com/3"}),
        )
        .await
        .assert_compat_error(StatusCode::TOO_MANY_REQUESTS);

    // Deleting does not give quota back: it counts creations.
    let list = server.get("/chains", &key).await;
    let id = list.primary_data()["list"][0]["id"].as_i64().unwrap();
    server
        .delete(&format!("/chains/{id}"), &key)
        .await
        .primary_data();
    server
        .post("/chains", &key, json!({"target_url": "https://e.com/3"}))
        .await
        .assert_primary_error(StatusCode::TOO_MANY_REQUESTS, "quota_exceeded");

    server.clock.advance(16 * 3600);
    let tomorrow = server
        .post(
            "/openapi/v1/chain/create",
            &key,
            json!({"target_url": "https://e.com/4"}),
        )
        .await;
    assert_eq!(tomorrow.compat_result()["created_today"], 1);

    // A user's own quota overrides the server's.
    let user = server
        .post(
            "/admin/users",
            ADMIN_KEY,
            json!({"name": "tight", "daily_quota": 0}),
        )
        .await;
    let user_id = user.primary_data()["id"].as_i64().unwrap();
    let key = server
        .post(
            "/admin/keys",
            ADMIN_KEY,
            json!({"user_id": user_id, "scopes": ["chains:write"]}),
        )
        .await;
    let key = key.primary_data()["api_key"].as_str().unwrap().to_owned();
    server
        .post("/chains", &key, json!({"target_url": "https://e.com"}))
        .await
        .assert_primary_error(StatusCode::TOO_MANY_REQUESTS, "quota_exceeded");
}
