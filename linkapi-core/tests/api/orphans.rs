//! Orphan visits: requests of a short-link domain that reached no chain, counted per domain
//! and kind (the base URL, a code no live chain has, a path that cannot be a code) with the
//! visit flush, exactly under racing requests over two instances, listed by
//! `GET /admin/orphan-visits`.

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::instances::{backends, instances};
use crate::support::{ADMIN_KEY, BROWSER, Options, TestServer};

/// A `GET` of `path` on `server` for `host`, not following redirects: its status.
async fn get_on(server: &TestServer, host: &str, path: &str) -> StatusCode {
    server
        .client
        .get(server.url(path))
        .header("host", host)
        .header("user-agent", BROWSER)
        .send()
        .await
        .expect("a request")
        .status()
}

/// The listing's counts as (domain, kind, visits), in its order.
fn counts(listing: &Value) -> Vec<(String, String, i64)> {
    listing["list"]
        .as_array()
        .expect("a list")
        .iter()
        .map(|c| {
            (
                c["domain"].as_str().unwrap_or_default().to_owned(),
                c["kind"].as_str().unwrap_or_default().to_owned(),
                c["visits"].as_i64().unwrap_or_default(),
            )
        })
        .collect()
}

#[tokio::test]
async fn requests_that_reach_no_chain_are_counted_per_domain_and_kind() {
    for backend in backends() {
        let servers = instances(backend.clone(), Options::default).await;
        let first = &servers[0];
        let last = &servers[servers.len() - 1];
        let home = first.host.clone();
        first
            .post(
                "/admin/domains",
                ADMIN_KEY,
                json!({"domain": "two.example", "scheme": "https"}),
            )
            .await
            .primary_data();
        let (_, key) = first.full_user("owner").await;
        let live = first
            .create_chain(
                &key,
                json!({"target_url": "https://e.example/", "code": "live"}),
            )
            .await;
        let gone = first
            .create_chain(
                &key,
                json!({"target_url": "https://e.example/", "code": "gone"}),
            )
            .await;
        first
            .delete(&format!("/chains/{}", gone["id"]), &key)
            .await
            .primary_data();
        first
            .create_chain(
                &key,
                json!({"target_url": "https://e.example/", "code": "old",
                       "valid_time": crate::support::START + 1}),
            )
            .await;
        first.clock.advance(10);
        // Every domain of the two instances sees the other's domain at once.
        for server in &servers {
            assert_eq!(
                get_on(server, "two.example", "/live").await,
                StatusCode::NOT_FOUND
            );
        }

        // Racing requests for a missing code over every instance: each counted once.
        let racers = 40;
        let mut racing = Vec::new();
        for at in 0..racers {
            let server = &servers[at % servers.len()];
            racing.push(get_on(server, &home, "/missing"));
        }
        for status in futures_util::future::join_all(racing).await {
            assert_eq!(status, StatusCode::NOT_FOUND);
        }
        assert_eq!(get_on(last, &home, "/gone").await, StatusCode::NOT_FOUND);
        assert_eq!(get_on(first, &home, "/").await, StatusCode::OK);
        assert_eq!(get_on(last, &home, "/").await, StatusCode::OK);
        assert_eq!(get_on(first, &home, "/a/b").await, StatusCode::NOT_FOUND);
        assert_eq!(
            get_on(last, &home, "/robots.txt").await,
            StatusCode::NOT_FOUND
        );
        // A host that names no domain is the default domain's, as its visits are.
        assert_eq!(
            get_on(first, "elsewhere.example", "/nope").await,
            StatusCode::NOT_FOUND
        );
        assert_eq!(get_on(last, "two.example", "/").await, StatusCode::OK);
        // Not orphans: a live chain, an expired one, an API route, a POST.
        assert_eq!(get_on(first, &home, "/live").await, StatusCode::FOUND);
        assert_eq!(get_on(first, &home, "/old").await, StatusCode::GONE);
        assert_eq!(get_on(first, &home, "/healthz").await, StatusCode::OK);
        let post = first
            .client
            .post(first.url("/a/b"))
            .header("host", &home)
            .send()
            .await;
        assert_eq!(post.expect("a POST").status(), StatusCode::NOT_FOUND);
        assert_eq!(
            first
                .get(
                    &format!("/chains/{}", live["id"].as_i64().unwrap_or(0) + 1000),
                    &key
                )
                .await
                .status,
            StatusCode::NOT_FOUND
        );

        for server in &servers {
            server.flush_visits().await;
        }
        let listing = last.get("/admin/orphan-visits?days=2", ADMIN_KEY).await;
        let data = listing.primary_data();
        assert_eq!(data["days"], 2);
        let expected_home = |kind: &str, visits| (home.clone(), kind.to_owned(), visits);
        assert_eq!(
            counts(data),
            vec![
                expected_home("base_url", 2),
                // The race, the deleted code and the unknown host; two.example's own below.
                expected_home("unknown_code", racers as i64 + 2),
                expected_home("reserved_path", 2),
                ("two.example".into(), "base_url".into(), 1),
                (
                    "two.example".into(),
                    "unknown_code".into(),
                    servers.len() as i64
                ),
            ],
            "{backend:?}: {}",
            listing.text
        );
        let trend = data["list"][0]["daily_trend"].as_array().expect("days");
        assert_eq!(trend.len(), 2, "every day of the window");
        assert_eq!(trend[1]["visits"], 2, "today's");
    }
}

#[tokio::test]
async fn only_an_administrator_lists_them_and_bad_windows_are_refused() {
    let server = TestServer::start().await;
    let (_, key) = server.full_user("tenant").await;
    let refused = server.get("/admin/orphan-visits", &key).await;
    assert_eq!(refused.status, StatusCode::FORBIDDEN, "{}", refused.text);
    server
        .get("/admin/orphan-visits?days=0", ADMIN_KEY)
        .await
        .assert_primary_error(StatusCode::BAD_REQUEST, "invalid_days");
    server
        .get("/admin/orphan-visits?days=366", ADMIN_KEY)
        .await
        .assert_primary_error(StatusCode::BAD_REQUEST, "invalid_days");
    let empty = server.get("/admin/orphan-visits", ADMIN_KEY).await;
    assert_eq!(empty.primary_data()["days"], 7);
    assert_eq!(empty.primary_data()["list"], json!([]));
}
