//! Primary surface: chains, groups, domains, and bad input.

use reqwest::StatusCode;
use serde_json::json;

use crate::support::{START, TestServer, refusal};

#[tokio::test]
async fn chain_lifecycle_create_get_list_patch_delete() {
    let server = TestServer::start().await;
    let (_, key) = server.full_user("alice").await;

    let created = server
        .create_chain(
            &key,
            json!({"target_url": "https://example.com/a", "chain_title": "A", "code": "promo-1"}),
        )
        .await;
    assert_eq!(created["code"], "promo-1");
    assert_eq!(created["status"], 1);
    assert_eq!(created["type"], 1);
    assert_eq!(created["target_url"], "https://example.com/a");
    assert_eq!(created["chain_title"], "A");
    assert_eq!(created["valid_time"], 0);
    assert_eq!(
        created["render_url"],
        format!("http://{}/promo-1", server.addr)
    );
    let id = created["id"].as_i64().unwrap();
    assert!(created["domain_id"].as_i64().unwrap() > 0);

    let got = server.get(&format!("/chains/{id}"), &key).await;
    assert_eq!(got.primary_data()["code"], "promo-1");

    let generated = server
        .create_chain(&key, json!({"target_url": "https://example.com/b"}))
        .await;
    let code = generated["code"].as_str().unwrap();
    assert_eq!(code.len(), 6);
    assert!(code.bytes().all(|b| b.is_ascii_alphanumeric()));

    let list = server.get("/chains", &key).await;
    let data = list.primary_data();
    assert_eq!(data["total"], 2);
    assert_eq!(data["page"], 1);
    assert_eq!(data["list"][0]["id"], generated["id"], "newest first");

    let patched = server
        .patch(
            &format!("/chains/{id}"),
            &key,
            json!({"target_url": "https://example.org/new", "chain_title": "A2", "valid_time": START + 3600}),
        )
        .await;
    let data = patched.primary_data();
    assert_eq!(data["target_url"], "https://example.org/new");
    assert_eq!(data["chain_title"], "A2");
    assert_eq!(data["valid_time"], START + 3600);
    assert_eq!(data["code"], "promo-1", "the code never changes");

    let deleted = server.delete(&format!("/chains/{id}"), &key).await;
    assert_eq!(deleted.primary_data()["deleted"], true);
    server
        .get(&format!("/chains/{id}"), &key)
        .await
        .assert_primary_error(StatusCode::NOT_FOUND, "not_found");
    server
        .delete(&format!("/chains/{id}"), &key)
        .await
        .assert_primary_error(StatusCode::NOT_FOUND, "not_found");
    assert_eq!(server.get("/chains", &key).await.primary_data()["total"], 1);

    // A deleted chain's code is never handed out again.
    server
        .post(
            "/chains",
            &key,
            json!({"target_url": "https://x.com", "code": "promo-1"}),
        )
        .await
        .assert_primary_error(StatusCode::CONFLICT, "code_taken");
}

#[tokio::test]
async fn listing_pages_and_filters() {
    let server = TestServer::start().await;
    let (_, key) = server.full_user("lister").await;
    let group = server.post("/groups", &key, json!({"name": "g"})).await;
    let group_id = group.primary_data()["id"].as_i64().unwrap();
    for i in 0..5 {
        let mut body = json!({"target_url": format!("https://e.com/{i}"), "chain_title": format!("spring {i}")});
        if i % 2 == 0 {
            body["group_id"] = json!(group_id);
        }
        server.create_chain(&key, body).await;
    }
    server
        .create_chain(
            &key,
            json!({"target_url": "https://e.com/x", "chain_title": "autumn 50%"}),
        )
        .await;

    let page = server.get("/chains?page=2&page_size=2", &key).await;
    let data = page.primary_data();
    assert_eq!(data["total"], 6);
    assert_eq!(data["page_size"], 2);
    assert_eq!(data["list"].as_array().unwrap().len(), 2);

    let grouped = server
        .get(&format!("/chains?group_id={group_id}"), &key)
        .await;
    let data = grouped.primary_data();
    assert_eq!(data["total"], 3);
    assert!(
        data["list"]
            .as_array()
            .unwrap()
            .iter()
            .all(|c| c["group_id"] == group_id)
    );

    let text = server.get("/chains?q=spring%203", &key).await;
    assert_eq!(text.primary_data()["total"], 1);
    // LIKE wildcards in the query are literal: '%' matches only the title that has one.
    assert_eq!(
        server.get("/chains?q=%25", &key).await.primary_data()["total"],
        1
    );

    let groups = server.get("/groups", &key).await;
    assert_eq!(groups.primary_data()[0]["chain_count"], 3);

    for bad in ["page=0", "page_size=101", "page_size=0", "page=x", "nope=1"] {
        let reply = server.get(&format!("/chains?{bad}"), &key).await;
        assert_eq!(
            reply.status,
            StatusCode::BAD_REQUEST,
            "{bad}: {}",
            reply.text
        );
        assert_eq!(reply.body["status"], 400);
    }
}

#[tokio::test]
async fn the_fail_fast_create_rules() {
    let server = TestServer::start().await;
    let (_, key) = server.full_user("rules").await;
    let cases = [
        (
            json!({"target_url": "ftp://example.com"}),
            "invalid_target_url",
        ),
        (
            json!({"target_url": "javascript:alert(1)"}),
            "invalid_target_url",
        ),
        (json!({"target_url": "not a url"}), "invalid_target_url"),
        (
            json!({"target_url": "https://u:p@example.com"}),
            "invalid_target_url",
        ),
        (
            json!({"target_url": format!("https://e.com/{}", "a".repeat(2100))}),
            "invalid_target_url",
        ),
        (
            json!({"target_url": "https://e.com", "code": "a b"}),
            "invalid_code",
        ),
        (
            json!({"target_url": "https://e.com", "code": "x".repeat(65)}),
            "invalid_code",
        ),
        (
            json!({"target_url": "https://e.com", "code": ""}),
            "invalid_code",
        ),
        (
            json!({"target_url": "https://e.com", "code": "chains"}),
            "invalid_code",
        ),
        (
            json!({"target_url": "https://e.com", "code": "Admin"}),
            "invalid_code",
        ),
        (
            json!({"target_url": "https://e.com", "code": "openapi"}),
            "invalid_code",
        ),
        (
            json!({"target_url": "https://e.com", "valid_time": START - 1}),
            "invalid_valid_time",
        ),
        (
            json!({"target_url": "https://e.com", "valid_time": -5}),
            "invalid_valid_time",
        ),
        (
            json!({"target_url": "https://e.com", "domain_id": 999}),
            "invalid_domain",
        ),
        (
            json!({"target_url": "https://e.com", "group_id": 999}),
            "invalid_group",
        ),
        (
            json!({"target_url": "https://e.com", "chain_title": "t".repeat(256)}),
            "invalid_title",
        ),
        (json!({"target_url": 5}), "invalid_field"),
        (json!({"chain_title": "no target"}), "invalid_field"),
        (
            json!({"target_url": "https://e.com", "colour": "red"}),
            "invalid_field",
        ),
    ];
    for (body, code) in cases {
        let reply = server.post("/chains", &key, body.clone()).await;
        reply.assert_primary_error(
            refusal(
                code,
                &[
                    "invalid_valid_time",
                    "invalid_domain",
                    "invalid_group",
                    "domain_not_effective",
                ],
            ),
            code,
        );
    }
    // Nothing was created by any of them.
    assert_eq!(server.get("/chains", &key).await.primary_data()["total"], 0);

    server
        .create_chain(&key, json!({"target_url": "https://e.com", "code": "dup"}))
        .await;
    server
        .post(
            "/chains",
            &key,
            json!({"target_url": "https://e.com", "code": "dup"}),
        )
        .await
        .assert_primary_error(StatusCode::CONFLICT, "code_taken");
    // Codes are case-sensitive.
    server
        .create_chain(&key, json!({"target_url": "https://e.com", "code": "DUP"}))
        .await;
}

#[tokio::test]
async fn patch_rules() {
    let server = TestServer::start().await;
    let (_, key) = server.full_user("patcher").await;
    let chain = server
        .create_chain(&key, json!({"target_url": "https://e.com"}))
        .await;
    let path = format!("/chains/{}", chain["id"]);
    server
        .patch(&path, &key, json!({}))
        .await
        .assert_primary_error(StatusCode::BAD_REQUEST, "empty_update");
    server
        .patch(&path, &key, json!({"target_url": "mailto:x@y.z"}))
        .await
        .assert_primary_error(StatusCode::BAD_REQUEST, "invalid_target_url");
    server
        .patch(&path, &key, json!({"code": "new"}))
        .await
        .assert_primary_error(StatusCode::BAD_REQUEST, "invalid_field");
    server
        .patch("/chains/abc", &key, json!({"chain_title": "x"}))
        .await
        .assert_primary_error(StatusCode::NOT_FOUND, "not_found");
    let unchanged = server.get(&path, &key).await;
    assert_eq!(unchanged.primary_data()["target_url"], "https://e.com/");
}

#[tokio::test]
async fn malformed_bodies_and_content_types() {
    let server = TestServer::start().await;
    let (_, key) = server.full_user("malformed").await;
    let send = |body: &'static str, content_type: Option<&'static str>| {
        let mut req = server
            .client
            .post(server.url("/chains"))
            .bearer_auth(&key)
            .body(body);
        if let Some(ct) = content_type {
            req = req.header("content-type", ct);
        }
        async move { crate::support::Reply::from(req.send().await.unwrap()).await }
    };
    send("{not json", Some("application/json"))
        .await
        .assert_primary_error(StatusCode::BAD_REQUEST, "invalid_json");
    send("[1,2]", Some("application/json"))
        .await
        .assert_primary_error(StatusCode::BAD_REQUEST, "invalid_field");
    send(r#"{"target_url":"https://e.com"}"#, Some("text/plain"))
        .await
        .assert_primary_error(StatusCode::UNSUPPORTED_MEDIA_TYPE, "unsupported_media_type");
    send(r#"{"target_url":"https://e.com"}"#, None)
        .await
        .assert_primary_error(StatusCode::UNSUPPORTED_MEDIA_TYPE, "unsupported_media_type");
    send(
        r#"{"target_url":"https://e.com"}"#,
        Some("application/json; charset=utf-8"),
    )
    .await
    .primary_data();

    // The test server accepts 4 KiB bodies.
    let big = json!({"target_url": "https://e.com", "chain_title": "x".repeat(5000)});
    server
        .post("/chains", &key, big)
        .await
        .assert_primary_error(StatusCode::PAYLOAD_TOO_LARGE, "payload_too_large");
    // Without a Content-Length (chunked), the limit still holds.
    let status_line = chunked_post(&server, &key, 8000).await;
    assert!(status_line.contains("413"), "{status_line}");
    assert_eq!(server.get("/chains", &key).await.primary_data()["total"], 1);
}

/// Sends a chunked request (no Content-Length) over a raw connection; returns the status line.
async fn chunked_post(server: &TestServer, key: &str, size: usize) -> String {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut stream = tokio::net::TcpStream::connect(server.addr).await.unwrap();
    let head = format!(
        "POST /chains HTTP/1.1\r\nHost: {}\r\nAuthorization: Bearer {key}\r\n\
         Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n",
        server.addr
    );
    stream.write_all(head.as_bytes()).await.unwrap();
    let chunk = "x".repeat(1000);
    for _ in 0..size / 1000 {
        let framed = format!("{:x}\r\n{chunk}\r\n", chunk.len());
        if stream.write_all(framed.as_bytes()).await.is_err() {
            break; // the server may answer and close before reading everything
        }
    }
    let _ = stream.write_all(b"0\r\n\r\n").await;
    let mut response = vec![0; 512];
    let n = stream.read(&mut response).await.unwrap();
    String::from_utf8_lossy(&response[..n])
        .lines()
        .next()
        .unwrap_or_default()
        .to_owned()
}
