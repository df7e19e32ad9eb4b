//! Keys: carriers, 401 and 403 on every endpoint, revocation, expiry.

use reqwest::{Method, StatusCode};
use serde_json::json;

use crate::support::{ADMIN_KEY, TestServer, concrete_path};

/// An authenticated operation: method, a path to call it on, its scope, and whether its
/// errors come in the compatibility envelope.
struct Endpoint {
    method: Method,
    path: String,
    scope: String,
    compat: bool,
}

/// Every authenticated operation of the server, read from its own `/openapi.json`, which is
/// built from the route table: a route added to the table is tested here without anyone
/// listing it. Keys are checked before anything else is read, so any parameter value does.
async fn endpoints(server: &TestServer) -> Vec<Endpoint> {
    let document: serde_json::Value = server
        .client
        .get(server.url("/openapi.json"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let mut endpoints = Vec::new();
    for (template, operations) in document["paths"].as_object().unwrap() {
        for (m, operation) in operations.as_object().unwrap() {
            let Some(scope) = operation["x-scope"].as_str() else {
                continue;
            };
            let path = concrete_path(template);
            let refusal =
                operation["responses"]["401"]["content"]["application/json"]["schema"]["$ref"]
                    .as_str()
                    .unwrap_or_else(|| panic!("{m} {template} documents its 401"));
            endpoints.push(Endpoint {
                method: method(&m.to_ascii_uppercase()),
                path,
                scope: scope.to_owned(),
                compat: refusal.ends_with("/CompatError"),
            });
        }
    }
    // Every operation of both surfaces, admin and uploads included (63 were listed by hand
    // before the list came from the table).
    assert!(endpoints.len() >= 63, "{} operations", endpoints.len());
    endpoints
}

fn method(m: &str) -> Method {
    Method::from_bytes(m.as_bytes()).unwrap()
}

#[tokio::test]
async fn every_endpoint_answers_401_without_a_valid_key() {
    let server = TestServer::start().await;
    for Endpoint {
        method,
        path,
        compat,
        ..
    } in endpoints(&server).await
    {
        for key in [None, Some("lk_not_a_real_key_at_all_000000")] {
            let reply = server
                .call(method.clone(), &path, key, Some(json!({})))
                .await;
            if compat {
                reply.assert_compat_error(StatusCode::UNAUTHORIZED);
            } else if key.is_some() {
                reply.assert_primary_error(StatusCode::UNAUTHORIZED, "invalid_api_key");
            } else {
                reply.assert_primary_error(StatusCode::UNAUTHORIZED, "missing_api_key");
            }
            // Without a key, the answer says how to send one, as the operation takes it.
            let said = reply.body["message"]
                .as_str()
                .or(reply.body["msg"].as_str())
                .unwrap_or_default();
            if key.is_none() {
                assert!(said.contains("Authorization: Bearer <key>"), "{said}");
                assert!(said.contains("X-API-Key: <key>"), "{said}");
                // Contract section 1: the compatibility surface (both mounts) and the card
                // create also take the key as `?apikey=`.
                let query_key = path.starts_with("/openapi/")
                    || path.starts_with("/v1/")
                    || path == "/card/createWxChain";
                assert_eq!(said.contains("?apikey=<key>"), query_key, "{path}: {said}");
            } else {
                assert!(!said.contains("Authorization"), "{said}");
            }
        }
    }
}

#[tokio::test]
async fn every_endpoint_answers_403_without_its_scope_and_write_does_not_imply_read() {
    let server = TestServer::start().await;
    for Endpoint {
        method,
        path,
        scope,
        compat,
    } in endpoints(&server).await
    {
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
        .filter(|s| *s != scope)
        .collect();
        let name = format!("u{method}{}", path.replace('/', "_"));
        let (_, key) = server.user_with_key(&name, &others).await;
        let reply = server
            .call(method.clone(), &path, Some(&key), Some(json!({})))
            .await;
        if compat {
            reply.assert_compat_error(StatusCode::FORBIDDEN);
        } else {
            reply.assert_primary_error(StatusCode::FORBIDDEN, "forbidden");
        }
        assert!(
            reply.text.contains(&scope),
            "{method} {path} names the missing scope: {}",
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

    // ...and not on the primary surface, which says where its key goes.
    let primary = crate::support::Reply::from(
        server
            .client
            .get(server.url(&format!("/chains?apikey={key}")))
            .send()
            .await
            .unwrap(),
    )
    .await;
    primary.assert_primary_error(StatusCode::UNAUTHORIZED, "missing_api_key");

    // An Authorization header of another scheme, or a bare key, is no key at all, and the
    // answer says what the header needs.
    for value in [format!("Basic {key}"), key.clone(), format!("Token {key}")] {
        let refused = crate::support::Reply::from(
            server
                .client
                .get(server.url("/chains"))
                .header("Authorization", &value)
                .send()
                .await
                .unwrap(),
        )
        .await;
        refused.assert_primary_error(StatusCode::UNAUTHORIZED, "invalid_api_key");
        let message = refused.body["message"].as_str().unwrap();
        assert!(message.contains("Bearer"), "{value}: {message}");
    }
    // An empty bearer token is a key that does not work, as before.
    let empty = crate::support::Reply::from(
        server
            .client
            .get(server.url("/chains"))
            .header("Authorization", "Bearer ")
            .send()
            .await
            .unwrap(),
    )
    .await;
    empty.assert_primary_error(StatusCode::UNAUTHORIZED, "invalid_api_key");
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
