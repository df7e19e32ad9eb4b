//! `GET /openapi.json`: served without a key, OpenAPI 3.1, and true to the server: every
//! operation it lists is answered (401 without a key where it needs one), with the scope it
//! names.

use reqwest::{Method, StatusCode};
use serde_json::json;

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
            // A query parameter's type is one type, never a list of one: openapi-core's
            // request validation fails on `"type": ["integer"]`.
            for parameter in operation["parameters"].as_array().into_iter().flatten() {
                let kind = &parameter["schema"]["type"];
                assert!(
                    kind.as_array().is_none_or(|types| types.len() > 1),
                    "{method} {path} {}: {kind}",
                    parameter["name"]
                );
            }
            // Every operation says what it does (`@redocly/cli lint` requires a summary).
            assert!(
                operation["summary"].as_str().is_some_and(|s| !s.is_empty()),
                "{method} {path} has no summary"
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
    // Hosted files are the image types uploads take, never SVG; a QR code's SVG is bytes, as
    // validators and generated clients receive it.
    let files = &doc["paths"]["/files/{object_key}"]["get"]["responses"]["200"]["content"];
    let mut types: Vec<&String> = files.as_object().unwrap().keys().collect();
    types.sort();
    assert_eq!(
        types,
        ["image/gif", "image/jpeg", "image/png", "image/webp"],
        "{files}"
    );
    let qr = &doc["paths"]["/chains/{id}/qr"]["get"]["responses"]["200"]["content"];
    // Typeless with their media type, as OpenAPI 3.1 spells raw bytes (under `type: string`
    // openapi-core refuses them; `tests/outside` validates a real answer).
    for media in ["image/png", "image/svg+xml"] {
        assert_eq!(
            qr[media]["schema"],
            serde_json::json!({"contentMediaType": media}),
            "{qr}"
        );
    }
}

/// `chain/list`'s `q`, another name the server takes for `keyword`, is in the document with
/// `keyword`'s schema and "not both" (as a query only `keyword` is listed), and the server
/// answers as the document says: `q` alone filters like `keyword`, both together are refused.
#[tokio::test]
async fn an_alias_the_server_takes_is_documented_as_its_field() {
    let server = TestServer::start().await;
    let doc = server
        .call(Method::GET, "/openapi.json", None, None)
        .await
        .body;
    let mut schema = &doc["paths"]["/openapi/v1/chain/list"]["post"]["requestBody"]["content"]["application/json"]
        ["schema"];
    if let Some(reference) = schema["$ref"].as_str() {
        let name = reference.trim_start_matches("#/components/schemas/");
        schema = &doc["components"]["schemas"][name];
    }
    let properties = &schema["properties"];
    assert_eq!(properties["q"]["pattern"], properties["keyword"]["pattern"]);
    assert!(properties["q"]["pattern"].is_string(), "{schema}");
    assert_eq!(schema["not"], json!({"required": ["keyword", "q"]}));
    // As a query, only `keyword`: parameters cannot say "not both".
    let parameters: Vec<&str> = doc["paths"]["/openapi/v1/chain/list"]["get"]["parameters"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|p| p["name"].as_str())
        .collect();
    assert!(parameters.contains(&"keyword"), "{parameters:?}");
    assert!(!parameters.contains(&"q"), "{parameters:?}");

    let (_, key) = server.full_user("alias").await;
    for title in ["Spring sale", "Autumn"] {
        server
            .post(
                "/openapi/v1/chain/create",
                &key,
                json!({"chain_title": title, "target_url": "https://example.com/"}),
            )
            .await
            .compat_result();
    }
    let found = server
        .post("/openapi/v1/chain/list", &key, json!({"q": "Spring"}))
        .await;
    assert_eq!(found.compat_result()["total"], 1);
    server
        .post(
            "/openapi/v1/chain/list",
            &key,
            json!({"q": "Spring", "keyword": "Autumn"}),
        )
        .await
        .assert_compat_error(StatusCode::BAD_REQUEST);
}
