//! Administration: users, keys, domains; domain visibility on both surfaces.

use reqwest::StatusCode;
use serde_json::json;

use crate::support::{ADMIN_KEY, TestServer, refusal};

#[tokio::test]
async fn users_and_keys() {
    let server = TestServer::start().await;
    let user = server
        .post(
            "/admin/users",
            ADMIN_KEY,
            json!({"name": "ops", "daily_quota": 5}),
        )
        .await;
    let data = user.primary_data();
    assert_eq!(data["name"], "ops");
    assert_eq!(data["daily_quota"], 5);
    let user_id = data["id"].as_i64().unwrap();
    server
        .post("/admin/users", ADMIN_KEY, json!({"name": "ops"}))
        .await
        .assert_primary_error(StatusCode::CONFLICT, "user_exists");
    server
        .post("/admin/users", ADMIN_KEY, json!({"name": " "}))
        .await
        .assert_primary_error(StatusCode::BAD_REQUEST, "invalid_name");
    let users = server.get("/admin/users", ADMIN_KEY).await;
    assert_eq!(
        users.primary_data().as_array().unwrap().len(),
        2,
        "admin and ops"
    );

    let key = server
        .post(
            "/admin/keys",
            ADMIN_KEY,
            json!({"user_id": user_id, "scopes": ["chains:read", "chains:read"], "name": "ci"}),
        )
        .await;
    let data = key.primary_data();
    assert_eq!(data["scopes"], json!(["chains:read"]));
    assert_eq!(data["name"], "ci");
    assert_eq!(data["state"], "active");
    let secret = data["api_key"].as_str().unwrap();
    assert!(secret.starts_with(data["prefix"].as_str().unwrap()));

    for (body, code) in [
        (
            json!({"user_id": 999, "scopes": ["chains:read"]}),
            "invalid_user",
        ),
        (json!({"user_id": user_id, "scopes": []}), "invalid_scope"),
        (
            json!({"user_id": user_id, "scopes": ["chains:delete"]}),
            "invalid_scope",
        ),
        (
            json!({"user_id": user_id, "scopes": ["chains:read"], "expires_at": 1}),
            "invalid_expiry",
        ),
        (json!({"user_id": user_id}), "invalid_field"),
    ] {
        server
            .post("/admin/keys", ADMIN_KEY, body)
            .await
            .assert_primary_error(refusal(code, &["invalid_user", "invalid_expiry"]), code);
    }
    let all = server.get("/admin/keys", ADMIN_KEY).await;
    assert_eq!(
        all.primary_data().as_array().unwrap().len(),
        2,
        "bootstrap key and ci"
    );
}

#[tokio::test]
async fn domains_shared_private_and_status() {
    let server = TestServer::start().await;
    let (alice_id, alice) = server.full_user("alice").await;
    let (_, bob) = server.full_user("bob").await;

    let private = server
        .post(
            "/admin/domains",
            ADMIN_KEY,
            json!({"domain": "Alice.Example.com", "scheme": "https", "scene": "brand", "user_id": alice_id}),
        )
        .await;
    let data = private.primary_data();
    assert_eq!(data["domain"], "alice.example.com");
    assert_eq!(data["shared"], false);
    assert_eq!(data["user_id"], alice_id);
    let private_id = data["id"].as_i64().unwrap();

    server
        .post(
            "/admin/domains",
            ADMIN_KEY,
            json!({"domain": "alice.example.com", "scheme": "https"}),
        )
        .await
        .assert_primary_error(StatusCode::CONFLICT, "domain_exists");
    for (body, code) in [
        (
            json!({"domain": "bad host", "scheme": "https"}),
            "invalid_domain",
        ),
        (
            json!({"domain": "x.com", "scheme": "ftp"}),
            "invalid_scheme",
        ),
        (
            json!({"domain": "x.com", "scheme": "https", "shared": true, "user_id": alice_id}),
            "invalid_owner",
        ),
        (
            json!({"domain": "x.com", "scheme": "https", "user_id": 999}),
            "invalid_user",
        ),
    ] {
        server
            .post("/admin/domains", ADMIN_KEY, body)
            .await
            .assert_primary_error(refusal(code, &["invalid_owner", "invalid_user"]), code);
    }

    let alice_domains = server.get("/domains", &alice).await;
    let list = alice_domains.primary_data().as_array().unwrap().clone();
    assert_eq!(list.len(), 2, "the shared default and her own");
    let own = list.iter().find(|d| d["id"] == private_id).unwrap();
    assert_eq!(own["is_my"], 1);
    assert_eq!(own["scheme"], "https");
    assert_eq!(own["scene"], "brand");
    assert_eq!(own["domain_status"], 1);
    assert_eq!(
        list.iter().find(|d| d["id"] != private_id).unwrap()["is_my"],
        0
    );

    let bob_domains = server.get("/openapi/v1/domain/list", &bob).await;
    let list = bob_domains.compat_result()["domain_list"]
        .as_array()
        .unwrap()
        .clone();
    assert_eq!(list.len(), 1, "bob does not see alice's domain");
    assert_eq!(list[0]["url"], format!("http://{}", server.addr));
    assert_eq!(list[0]["is_my"], 0);

    // Bob cannot create on alice's domain; the answer does not say it exists.
    let bob_try = server
        .post(
            "/chains",
            &bob,
            json!({"target_url": "https://e.com", "domain_id": private_id}),
        )
        .await;
    bob_try.assert_primary_error(StatusCode::UNPROCESSABLE_ENTITY, "invalid_domain");
    let bob_missing = server
        .post(
            "/chains",
            &bob,
            json!({"target_url": "https://e.com", "domain_id": 9999}),
        )
        .await;
    assert_eq!(
        bob_try.body["message"]
            .as_str()
            .unwrap()
            .replace(&private_id.to_string(), "N"),
        bob_missing.body["message"]
            .as_str()
            .unwrap()
            .replace("9999", "N")
    );

    let chain = server
        .create_chain(
            &alice,
            json!({"target_url": "https://e.com", "domain_id": private_id}),
        )
        .await;
    assert!(
        chain["render_url"]
            .as_str()
            .unwrap()
            .starts_with("https://alice.example.com/")
    );

    let off = server
        .patch(
            &format!("/admin/domains/{private_id}"),
            ADMIN_KEY,
            json!({"status": 99}),
        )
        .await;
    assert_eq!(off.primary_data()["status"], 99);
    let read = server
        .get(&format!("/chains/{}", chain["id"]), &alice)
        .await;
    assert_eq!(read.primary_data()["status"], 4);
    assert_eq!(read.primary_data()["status_label"], "domain not effective");
    server
        .post(
            "/chains",
            &alice,
            json!({"target_url": "https://e.com", "domain_id": private_id}),
        )
        .await
        .assert_primary_error(StatusCode::UNPROCESSABLE_ENTITY, "domain_not_effective");
    server
        .patch(
            &format!("/admin/domains/{private_id}"),
            ADMIN_KEY,
            json!({"status": 2}),
        )
        .await
        .assert_primary_error(StatusCode::BAD_REQUEST, "invalid_status");
    server
        .patch("/admin/domains/999", ADMIN_KEY, json!({"status": 1}))
        .await
        .assert_primary_error(StatusCode::NOT_FOUND, "not_found");
}

#[tokio::test]
async fn a_second_user_sees_and_touches_nothing_of_the_first() {
    let server = TestServer::start().await;
    let (_, alice) = server.full_user("alice").await;
    let (_, mallory) = server.full_user("mallory").await;
    let group = server
        .post("/groups", &alice, json!({"name": "private"}))
        .await;
    let group_id = group.primary_data()["id"].as_i64().unwrap();
    let chain = server
        .create_chain(
            &alice,
            json!({"target_url": "https://alice.com", "code": "alice1", "group_id": group_id}),
        )
        .await;
    let path = format!("/chains/{}", chain["id"]);

    // Primary surface: 404 exactly as for a chain that does not exist.
    let missing = server.get("/chains/999999", &mallory).await;
    missing.assert_primary_error(StatusCode::NOT_FOUND, "not_found");
    let theirs = server.get(&path, &mallory).await;
    theirs.assert_primary_error(StatusCode::NOT_FOUND, "not_found");
    assert_eq!(theirs.body, missing.body, "no existence leak");
    server
        .patch(&path, &mallory, json!({"target_url": "https://evil.com"}))
        .await
        .assert_primary_error(StatusCode::NOT_FOUND, "not_found");
    server
        .delete(&path, &mallory)
        .await
        .assert_primary_error(StatusCode::NOT_FOUND, "not_found");
    assert_eq!(
        server.get("/chains", &mallory).await.primary_data()["total"],
        0
    );
    assert_eq!(
        server.get("/groups", &mallory).await.primary_data(),
        &json!([])
    );
    assert_eq!(
        server
            .get(&format!("/chains?group_id={group_id}"), &mallory)
            .await
            .primary_data()["total"],
        0
    );
    server
        .post(
            "/chains",
            &mallory,
            json!({"target_url": "https://evil.com", "group_id": group_id}),
        )
        .await
        .assert_primary_error(StatusCode::UNPROCESSABLE_ENTITY, "invalid_group");

    // Compatibility surface.
    for (action, body) in [
        ("chain/info", json!({"chain": "alice1"})),
        (
            "chain/edit",
            json!({"chain": "alice1", "target_url": "https://evil.com"}),
        ),
    ] {
        server
            .post(&format!("/openapi/v1/{action}"), &mallory, body)
            .await
            .assert_compat_error(StatusCode::NOT_FOUND);
    }
    server
        .post(
            "/openapi/v1/chain/delete",
            &mallory,
            json!({"chains": ["alice1"]}),
        )
        .await
        .assert_compat_error(StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        server
            .get("/openapi/v1/group/list", &mallory)
            .await
            .compat_result()["total"],
        0
    );

    // Alice's chain is untouched.
    let still = server.get(&path, &alice).await;
    assert_eq!(still.primary_data()["target_url"], "https://alice.com/");
    assert_eq!(
        server.visit("alice1").await.header("location"),
        Some("https://alice.com/")
    );
}

#[tokio::test]
async fn groups_on_the_primary_surface() {
    let server = TestServer::start().await;
    let (_, key) = server.full_user("grouper").await;
    let g = server
        .post(
            "/groups",
            &key,
            json!({"name": "  Launch  ", "chain_type": 2}),
        )
        .await;
    assert_eq!(g.status, StatusCode::CREATED);
    let data = g.primary_data();
    assert_eq!(data["name"], "Launch");
    assert_eq!(data["chain_type"], 2);
    assert_eq!(data["chain_count"], 0);
    assert_eq!(data["created_at"], "2027-01-15T08:00:00Z");
    server
        .post("/groups", &key, json!({"name": "Launch"}))
        .await
        .assert_primary_error(StatusCode::CONFLICT, "group_exists");
    server
        .post("/groups", &key, json!({"name": "x", "chain_type": 7}))
        .await
        .assert_primary_error(StatusCode::BAD_REQUEST, "invalid_chain_type");
    // A short chain cannot join a group of external chains.
    server
        .post(
            "/chains",
            &key,
            json!({"target_url": "https://e.com", "group_id": data["id"]}),
        )
        .await
        .assert_primary_error(StatusCode::UNPROCESSABLE_ENTITY, "invalid_group");
    let zero = server
        .post(
            "/groups",
            &key,
            json!({"name": "short ones", "chain_type": 0}),
        )
        .await;
    assert_eq!(zero.primary_data()["chain_type"], 1);
    // One group by id: the caller's only, with its count of chains.
    let id = data["id"].as_i64().unwrap();
    let one = server.get(&format!("/groups/{id}"), &key).await;
    assert_eq!(one.status, StatusCode::OK);
    assert_eq!(one.primary_data(), data);
    let (_, other) = server.full_user("not-the-grouper").await;
    server
        .get(&format!("/groups/{id}"), &other)
        .await
        .assert_primary_error(StatusCode::NOT_FOUND, "not_found");
    server
        .get("/groups/999999", &key)
        .await
        .assert_primary_error(StatusCode::NOT_FOUND, "not_found");
    server
        .get("/groups/abc", &key)
        .await
        .assert_primary_error(StatusCode::NOT_FOUND, "not_found");
}
