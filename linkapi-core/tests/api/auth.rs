//! Keys: carriers, 401 and 403 on every endpoint, revocation, expiry.

use reqwest::{Method, StatusCode};
use serde_json::json;

use crate::support::{ADMIN_KEY, TestServer};

/// Every authenticated endpoint of the server: method, path, scope, surface is compat.
const ENDPOINTS: &[(&str, &str, &str, bool)] = &[
    ("POST", "/chains", "chains:write", false),
    ("GET", "/chains", "chains:read", false),
    ("GET", "/chains/1", "chains:read", false),
    ("PATCH", "/chains/1", "chains:write", false),
    ("DELETE", "/chains/1", "chains:write", false),
    ("POST", "/groups", "groups:write", false),
    ("GET", "/groups", "groups:read", false),
    ("GET", "/domains", "domains:read", false),
    ("POST", "/openapi/v1/chain/create", "chains:write", true),
    ("POST", "/openapi/v1/chain/edit", "chains:write", true),
    ("POST", "/openapi/v1/chain/delete", "chains:write", true),
    ("POST", "/openapi/v1/chain/list", "chains:read", true),
    ("GET", "/openapi/v1/chain/list", "chains:read", true),
    ("POST", "/openapi/v1/chain/info", "chains:read", true),
    ("GET", "/openapi/v1/chain/info", "chains:read", true),
    ("POST", "/openapi/v1/group/create", "groups:write", true),
    ("POST", "/openapi/v1/group/list", "groups:read", true),
    ("GET", "/openapi/v1/domain/list", "domains:read", true),
    // Under the compatibility prefix, but with primary errors (spec 7).
    (
        "POST",
        "/openapi/v1/adcallback/x/conversions",
        "conversions:write",
        false,
    ),
    ("GET", "/chains/1/conversions", "conversions:read", false),
    ("GET", "/chains/1/stats", "stats:read", false),
    ("GET", "/chains/1/qr", "chains:read", false),
    ("GET", "/templates", "templates:read", false),
    ("POST", "/openapi/v1/template/list", "templates:read", true),
    ("GET", "/openapi/v1/template/list", "templates:read", true),
    ("POST", "/admin/templates", "admin", false),
    ("GET", "/admin/templates", "admin", false),
    ("PATCH", "/admin/templates/1", "admin", false),
    ("DELETE", "/admin/templates/1", "admin", false),
    ("GET", "/admin/templates/0/preview", "admin", false),
    ("POST", "/uploads", "uploads:write", false),
    ("GET", "/uploads", "uploads:read", false),
    ("DELETE", "/uploads/1", "uploads:write", false),
    ("POST", "/openapi/v1/upload/image", "uploads:write", true),
    ("POST", "/admin/visitor-secret", "admin", false),
    ("POST", "/admin/users", "admin", false),
    ("GET", "/admin/users", "admin", false),
    ("POST", "/admin/keys", "admin", false),
    ("GET", "/admin/keys", "admin", false),
    ("DELETE", "/admin/keys/1", "admin", false),
    ("POST", "/admin/domains", "admin", false),
    ("GET", "/admin/domains", "admin", false),
    ("PATCH", "/admin/domains/1", "admin", false),
    ("POST", "/wx-chains", "chains:write", false),
    ("GET", "/wx-chains", "chains:read", false),
    ("GET", "/wx-chains/1", "chains:read", false),
    ("PATCH", "/wx-chains/1", "chains:write", false),
    ("DELETE", "/wx-chains/1", "chains:write", false),
    ("GET", "/wx-chains/1/qr", "chains:read", false),
    ("GET", "/card", "card:read", false),
    // The card namespace's create answers in the compatibility envelope (spec 4.2).
    ("POST", "/card/createWxChain", "card:write", true),
    ("POST", "/openapi/v1/wxchain/create", "chains:write", true),
    ("POST", "/openapi/v1/wxchain/edit", "chains:write", true),
    ("POST", "/openapi/v1/wxchain/info", "chains:read", true),
    ("GET", "/openapi/v1/wxchain/list", "chains:read", true),
    (
        "POST",
        "/openapi/v1/workchat/chain/create",
        "chains:write",
        true,
    ),
    (
        "POST",
        "/openapi/v1/workchat/chain/edit",
        "chains:write",
        true,
    ),
    (
        "GET",
        "/openapi/v1/workchat/chain/info",
        "chains:read",
        true,
    ),
    (
        "POST",
        "/openapi/v1/workchat/assembly/list",
        "workchat:read",
        true,
    ),
    (
        "POST",
        "/openapi/v1/workchat/transfer/result?corp_id=c",
        "workchat:read",
        false,
    ),
    ("POST", "/admin/workchat/assemblies", "admin", false),
    ("GET", "/admin/workchat/assemblies", "admin", false),
    ("POST", "/admin/workchat/transfers", "admin", false),
];

fn method(m: &str) -> Method {
    Method::from_bytes(m.as_bytes()).unwrap()
}

#[tokio::test]
async fn every_endpoint_answers_401_without_a_valid_key() {
    let server = TestServer::start().await;
    for (m, path, _, is_compat) in ENDPOINTS {
        for key in [None, Some("lk_not_a_real_key_at_all_000000")] {
            let reply = server.call(method(m), path, key, Some(json!({}))).await;
            if *is_compat {
                reply.assert_compat_error(StatusCode::UNAUTHORIZED);
            } else {
                reply.assert_primary_error(StatusCode::UNAUTHORIZED, "invalid_api_key");
            }
        }
    }
}

#[tokio::test]
async fn every_endpoint_answers_403_without_its_scope_and_write_does_not_imply_read() {
    let server = TestServer::start().await;
    for (m, path, scope, is_compat) in ENDPOINTS {
        // A key with every scope except the one needed; for `x:read`, that includes `x:write`.
        let others: Vec<&str> = [
            "chains:read",
            "chains:write",
            "groups:read",
            "groups:write",
            "domains:read",
            "admin",
        ]
        .into_iter()
        .filter(|s| s != scope)
        .collect();
        let name = format!("u{}{}", m, path.replace('/', "_"));
        let (_, key) = server.user_with_key(&name, &others).await;
        let reply = server
            .call(method(m), path, Some(&key), Some(json!({})))
            .await;
        if *is_compat {
            reply.assert_compat_error(StatusCode::FORBIDDEN);
        } else {
            reply.assert_primary_error(StatusCode::FORBIDDEN, "forbidden");
        }
        assert!(
            reply.text.contains(scope),
            "names the missing scope: {}",
            reply.text
        );
    }
}

#[tokio::test]
async fn key_carriers_bearer_header_and_query_where_allowed() {
    let server = TestServer::start().await;
    let (_, key) = server.full_user("carrier").await;

    let bearer = server.get("/chains", &key).await;
    bearer.primary_data();

    let header = server
        .client
        .get(server.url("/chains"))
        .header("X-API-Key", &key)
        .send()
        .await
        .unwrap();
    assert_eq!(header.status(), StatusCode::OK);

    // `?apikey=` works on the compatibility surface...
    let query = server
        .client
        .get(server.url(&format!("/openapi/v1/chain/list?apikey={key}")))
        .send()
        .await
        .unwrap();
    assert_eq!(query.status(), StatusCode::OK);

    // ...and not on the primary surface.
    let primary = crate::support::Reply::from(
        server
            .client
            .get(server.url(&format!("/chains?apikey={key}")))
            .send()
            .await
            .unwrap(),
    )
    .await;
    primary.assert_primary_error(StatusCode::UNAUTHORIZED, "invalid_api_key");

    // A malformed Authorization header is no key at all.
    let basic = crate::support::Reply::from(
        server
            .client
            .get(server.url("/chains"))
            .header("Authorization", format!("Basic {key}"))
            .send()
            .await
            .unwrap(),
    )
    .await;
    basic.assert_primary_error(StatusCode::UNAUTHORIZED, "invalid_api_key");
}

#[tokio::test]
async fn revoked_keys_stop_working_at_once() {
    let server = TestServer::start().await;
    let (user_id, key) = server.full_user("revoked").await;
    server.get("/chains", &key).await.primary_data();

    let keys = server
        .get(&format!("/admin/keys?user_id={user_id}"), ADMIN_KEY)
        .await;
    let list = keys.primary_data().as_array().unwrap().clone();
    assert_eq!(list.len(), 1);
    assert!(
        list[0].get("api_key").is_none(),
        "listing never shows secrets"
    );
    assert!(key.starts_with(list[0]["prefix"].as_str().unwrap()));
    let id = list[0]["id"].as_i64().unwrap();

    let revoked = server.delete(&format!("/admin/keys/{id}"), ADMIN_KEY).await;
    assert_eq!(revoked.primary_data()["state"], "revoked");
    server
        .get("/chains", &key)
        .await
        .assert_primary_error(StatusCode::UNAUTHORIZED, "invalid_api_key");
    server
        .delete("/admin/keys/999", ADMIN_KEY)
        .await
        .assert_primary_error(StatusCode::NOT_FOUND, "not_found");
}

#[tokio::test]
async fn expired_keys_are_refused() {
    let server = TestServer::start().await;
    let user = server
        .post("/admin/users", ADMIN_KEY, json!({"name": "exp"}))
        .await;
    let user_id = user.primary_data()["id"].as_i64().unwrap();
    let expires_at = crate::support::START + 60;
    let created = server
        .post(
            "/admin/keys",
            ADMIN_KEY,
            json!({"user_id": user_id, "scopes": ["chains:read"], "expires_at": expires_at}),
        )
        .await;
    let key = created.primary_data()["api_key"]
        .as_str()
        .unwrap()
        .to_owned();
    server.get("/chains", &key).await.primary_data();
    server.clock.advance(61);
    server
        .get("/chains", &key)
        .await
        .assert_primary_error(StatusCode::UNAUTHORIZED, "invalid_api_key");
}

#[tokio::test]
async fn generated_keys_are_prefixed_long_and_stored_only_as_hashes() {
    let server = TestServer::start().await;
    let (_, key) = server.full_user("hashing").await;
    assert!(key.starts_with("lk_"));
    assert!(key.len() >= 40, "{key}");
    let stored = server.stored_bytes();
    let needle = key.as_bytes();
    let visible = &needle[..11];
    assert!(
        stored.windows(visible.len()).any(|w| w == visible),
        "the stored data holds the key's visible prefix, so it is the right data"
    );
    assert!(
        !stored.windows(needle.len()).any(|w| w == needle),
        "the secret must not be stored"
    );
}
