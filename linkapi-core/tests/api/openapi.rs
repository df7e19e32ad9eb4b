//! `GET /openapi.json`: served without a key, OpenAPI 3.1, and true to the server: every
//! operation it lists is answered (401 without a key where it needs one), with the scope it
//! names.

use reqwest::{Method, StatusCode};

use crate::support::{TestServer, concrete_path};

#[tokio::test]
async fn the_document_describes_the_operations_the_server_answers() {
    let server = TestServer::start().await;
    let reply = server
        .client
        .get(server.url("/openapi.json"))
        .send()
        .await
        .unwrap();
    assert_eq!(reply.status(), StatusCode::OK);
    assert_eq!(
        reply.headers().get("content-type").unwrap(),
        "application/json"
    );
    let doc: serde_json::Value = reply.json().await.unwrap();
    assert_eq!(doc["openapi"], "3.1.0");
    let paths = doc["paths"].as_object().unwrap();
    assert!(paths.len() > 40, "{}", paths.len());
    let mut keyed = 0;
    for (path, operations) in paths {
        for (method, operation) in operations.as_object().unwrap() {
            let concrete = concrete_path(path);
            let method = Method::from_bytes(method.to_ascii_uppercase().as_bytes()).unwrap();
            let reply = server.call(method.clone(), &concrete, None, None).await;
            assert_ne!(
                reply.status,
                StatusCode::METHOD_NOT_ALLOWED,
                "{method} {path} is documented but not routed"
            );
            if operation["security"] != serde_json::json!([]) {
                keyed += 1;
                assert_eq!(reply.status, StatusCode::UNAUTHORIZED, "{method} {path}");
                assert!(operation["x-scope"].is_string(), "{method} {path}");
            }
        }
    }
    assert!(keyed > 40, "{keyed}");
    assert_eq!(
        doc["paths"]["/card/createWxChain"]["post"]["x-scope"],
        "card:write"
    );
}
