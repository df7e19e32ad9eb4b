//! The user lifecycle: an administrator renames a user, changes their quota, sees their usage,
//! suspends them (their keys refused at once on every instance, their links still redirecting
//! unless told otherwise) and resumes them.

use reqwest::{Method, StatusCode};
use serde_json::json;

use crate::images::png;
use crate::instances::{backends, instances};
use crate::support::{ADMIN_KEY, Options, TestServer};
use crate::uploads::{UPLOAD_SCOPES, upload};

#[tokio::test]
async fn an_administrator_edits_a_user_and_sees_what_they_use() {
    let server = TestServer::start().await;
    let scopes: Vec<&str> = ["chains:read", "chains:write"]
        .into_iter()
        .chain(UPLOAD_SCOPES.iter().copied())
        .collect();
    let (id, key) = server.user_with_key("dana", &scopes).await;
    let second = server
        .post(
            "/admin/keys",
            ADMIN_KEY,
            json!({"user_id": id, "scopes": ["chains:read"]}),
        )
        .await;
    let second_id = second.primary_data()["id"].clone();
    server
        .delete(&format!("/admin/keys/{second_id}"), ADMIN_KEY)
        .await;
    let mut chains = Vec::new();
    for i in 0..3 {
        chains.push(
            server
                .create_chain(
                    &key,
                    json!({"target_url": format!("https://d.example/{i}")}),
                )
                .await,
        );
    }
    server
        .delete(&format!("/chains/{}", chains[2]["id"]), &key)
        .await;
    let bytes = png("usage", 0);
    let size = bytes.len() as i64;
    let uploaded = upload(&server, &key, "a.png", bytes, "image/png").await;
    assert_eq!(uploaded.status, StatusCode::CREATED, "{}", uploaded.text);

    let shown = server.get(&format!("/admin/users/{id}"), ADMIN_KEY).await;
    assert_eq!(shown.status, StatusCode::OK, "{}", shown.text);
    let data = shown.primary_data();
    assert_eq!(data["name"], "dana");
    assert_eq!(data["suspended"], false);
    assert_eq!(
        data["usage"],
        json!({"chains": 2, "created_today": 3, "daily_quota": 10_000, "upload_bytes": size,
               "uploads": 1, "active_keys": 1, "keys": 2})
    );

    // Rename, and a taken name.
    let renamed = server
        .patch(
            &format!("/admin/users/{id}"),
            ADMIN_KEY,
            json!({"name": "dana-k"}),
        )
        .await;
    assert_eq!(renamed.primary_data()["name"], "dana-k", "{}", renamed.text);
    server.user_with_key("erin", &["chains:read"]).await;
    server
        .patch(
            &format!("/admin/users/{id}"),
            ADMIN_KEY,
            json!({"name": "erin"}),
        )
        .await
        .assert_primary_error(StatusCode::CONFLICT, "user_exists");

    // A quota of 3 takes effect on the next create; null returns to the server's default.
    let quota = server
        .patch(
            &format!("/admin/users/{id}"),
            ADMIN_KEY,
            json!({"daily_quota": 3}),
        )
        .await;
    assert_eq!(quota.primary_data()["daily_quota"], 3);
    server
        .post(
            "/chains",
            &key,
            json!({"target_url": "https://d.example/over"}),
        )
        .await
        .assert_primary_error(StatusCode::TOO_MANY_REQUESTS, "quota_exceeded");
    let default = server
        .patch(
            &format!("/admin/users/{id}"),
            ADMIN_KEY,
            json!({"daily_quota": null}),
        )
        .await;
    assert_eq!(default.primary_data()["daily_quota"], json!(null));
    server
        .create_chain(&key, json!({"target_url": "https://d.example/ok"}))
        .await;
    // An empty edit changes nothing.
    let same = server
        .patch(&format!("/admin/users/{id}"), ADMIN_KEY, json!({}))
        .await;
    assert_eq!(same.primary_data()["name"], "dana-k");

    // Bad edits are refused whole and change nothing.
    for (body, status, code) in [
        (
            json!({"daily_quota": -1}),
            StatusCode::BAD_REQUEST,
            "invalid_quota",
        ),
        (
            json!({"nickname": "x"}),
            StatusCode::BAD_REQUEST,
            "invalid_field",
        ),
        (json!({"name": ""}), StatusCode::BAD_REQUEST, "invalid_name"),
        (
            json!({"name": "other", "suspend_redirects": true}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "invalid_suspension",
        ),
    ] {
        server
            .patch(&format!("/admin/users/{id}"), ADMIN_KEY, body.clone())
            .await
            .assert_primary_error(status, code);
    }
    let unchanged = server.get(&format!("/admin/users/{id}"), ADMIN_KEY).await;
    assert_eq!(unchanged.primary_data()["name"], "dana-k");
    assert_eq!(unchanged.primary_data()["suspended"], false);
    server
        .get("/admin/users/999999", ADMIN_KEY)
        .await
        .assert_primary_error(StatusCode::NOT_FOUND, "not_found");
    server
        .patch("/admin/users/999999", ADMIN_KEY, json!({"suspended": true}))
        .await
        .assert_primary_error(StatusCode::NOT_FOUND, "not_found");
    // An administrator cannot lock themselves out.
    server
        .patch("/admin/users/1", ADMIN_KEY, json!({"suspended": true}))
        .await
        .assert_primary_error(StatusCode::UNPROCESSABLE_ENTITY, "invalid_suspension");
    // Only administrators.
    server
        .get(&format!("/admin/users/{id}"), &key)
        .await
        .assert_primary_error(StatusCode::FORBIDDEN, "forbidden");
}

#[tokio::test]
async fn a_suspended_users_keys_are_refused_at_once_on_every_instance() {
    for backend in backends() {
        let servers = instances(backend.clone(), Options::default).await;
        let (first, last) = (&servers[0], &servers[servers.len() - 1]);
        let (id, key) = first.full_user("frank").await;
        first
            .create_chain(
                &key,
                json!({"target_url": "https://f.example/", "code": "frank"}),
            )
            .await;
        // Every instance has the key cached and the link resolved.
        for server in &servers {
            assert_eq!(server.get("/chains", &key).await.status, StatusCode::OK);
            assert_eq!(server.visit("frank").await.status, StatusCode::FOUND);
        }

        let suspended = first
            .patch(
                &format!("/admin/users/{id}"),
                ADMIN_KEY,
                json!({"suspended": true}),
            )
            .await;
        assert_eq!(
            suspended.primary_data()["suspended"],
            true,
            "{}",
            suspended.text
        );
        assert!(suspended.primary_data()["suspended_at"].is_string());
        for server in &servers {
            let refused = server.get("/chains", &key).await;
            refused.assert_primary_error(StatusCode::UNAUTHORIZED, "user_suspended");
            assert!(refused.text.contains("suspended"), "{backend:?}");
            let compat = server
                .call(Method::GET, "/openapi/v1/chain/list", Some(&key), None)
                .await;
            compat.assert_compat_error(StatusCode::UNAUTHORIZED);
            // Their links go on redirecting.
            assert_eq!(server.visit("frank").await.status, StatusCode::FOUND);
        }

        // Stopping the redirects stops them everywhere before the answer.
        last.patch(
            &format!("/admin/users/{id}"),
            ADMIN_KEY,
            json!({"suspend_redirects": true}),
        )
        .await;
        for server in &servers {
            assert_eq!(
                server.visit("frank").await.status,
                StatusCode::NOT_FOUND,
                "{backend:?}"
            );
        }
        let shown = first.get(&format!("/admin/users/{id}"), ADMIN_KEY).await;
        assert_eq!(shown.primary_data()["suspend_redirects"], true);

        // Resuming restores keys and redirects alike.
        let resumed = last
            .patch(
                &format!("/admin/users/{id}"),
                ADMIN_KEY,
                json!({"suspended": false}),
            )
            .await;
        assert_eq!(resumed.primary_data()["suspended"], false);
        assert_eq!(resumed.primary_data()["suspend_redirects"], false);
        for server in &servers {
            assert_eq!(server.get("/chains", &key).await.status, StatusCode::OK);
            assert_eq!(server.visit("frank").await.status, StatusCode::FOUND);
        }
    }
}

#[tokio::test]
async fn a_restart_remembers_whose_redirects_are_stopped() {
    let server = TestServer::start().await;
    let (id, key) = server.full_user("gail").await;
    server
        .create_chain(
            &key,
            json!({"target_url": "https://g.example/", "code": "gail"}),
        )
        .await;
    server
        .patch(
            &format!("/admin/users/{id}"),
            ADMIN_KEY,
            json!({"suspended": true, "suspend_redirects": true}),
        )
        .await;
    let old_host = server.host.clone();
    let server = server.restart().await;
    // A restart binds a new address (a new default domain); the chain stays on the old one.
    let visit = server
        .client
        .get(server.url("/gail"))
        .header("host", &old_host)
        .send()
        .await
        .expect("visit");
    assert_eq!(visit.status(), StatusCode::NOT_FOUND);
    server
        .patch(
            &format!("/admin/users/{id}"),
            ADMIN_KEY,
            json!({"suspended": false}),
        )
        .await;
    let visit = server
        .client
        .get(server.url("/gail"))
        .header("host", &old_host)
        .send()
        .await
        .expect("visit");
    assert_eq!(visit.status(), StatusCode::FOUND);
}

#[tokio::test]
async fn a_suspended_users_files_follow_their_links() {
    for backend in backends() {
        let servers = instances(backend.clone(), Options::default).await;
        let (first, last) = (&servers[0], &servers[servers.len() - 1]);
        let (id, key) = first.user_with_key("hana", UPLOAD_SCOPES).await;
        let (_, other) = first.user_with_key("ivan", UPLOAD_SCOPES).await;
        let url_of = |reply: crate::support::Reply| {
            assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.text);
            reply.primary_data()["url"].as_str().unwrap().to_owned()
        };
        let own = url_of(upload(first, &key, "own.png", png("hana only", 0), "image/png").await);
        let shared = url_of(upload(first, &key, "shared.png", png("both", 0), "image/png").await);
        // The same bytes from another user: the same hosted file.
        let again = url_of(upload(first, &other, "same.png", png("both", 0), "image/png").await);
        assert_eq!(shared, again);
        let servers = &servers;
        let status = |url: &str| {
            let path = url
                .split_once("/files/")
                .map(|(_, key)| key)
                .unwrap()
                .to_owned();
            async move {
                let mut statuses = Vec::new();
                for server in servers {
                    let reply = server
                        .client
                        .get(server.url(&format!("/files/{path}")))
                        .send()
                        .await
                        .unwrap();
                    statuses.push(reply.status());
                }
                statuses
            }
        };
        let all = |code| vec![code; servers.len()];
        assert_eq!(status(&own).await, all(StatusCode::OK));

        // Suspended with their keys only: files are served, as links redirect.
        first
            .patch(
                &format!("/admin/users/{id}"),
                ADMIN_KEY,
                json!({"suspended": true}),
            )
            .await;
        assert_eq!(status(&own).await, all(StatusCode::OK), "{backend:?}");
        // With their redirects: their own files are gone everywhere; bytes another user
        // stored too are still that user's file.
        last.patch(
            &format!("/admin/users/{id}"),
            ADMIN_KEY,
            json!({"suspend_redirects": true}),
        )
        .await;
        assert_eq!(
            status(&own).await,
            all(StatusCode::NOT_FOUND),
            "{backend:?}"
        );
        assert_eq!(status(&shared).await, all(StatusCode::OK), "{backend:?}");
        // Resumed, they are back.
        first
            .patch(
                &format!("/admin/users/{id}"),
                ADMIN_KEY,
                json!({"suspended": false}),
            )
            .await;
        assert_eq!(status(&own).await, all(StatusCode::OK), "{backend:?}");
    }
}
