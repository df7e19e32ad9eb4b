//! What the server reads of a request (text, URLs, paths, headers, bodies, query strings, as a
//! client or an attacker sends them) and what it does with the bad: refuse it with a message
//! in the client's terms, and change nothing.

use std::num::NonZeroU32;

use reqwest::{Method, StatusCode};
use serde_json::json;

use crate::support::{ADMIN_KEY, Options, TestServer};
use linkapi_core::service::RateLimit;

#[tokio::test]
async fn decoding_errors_say_what_a_field_must_be_not_which_rust_type_failed() {
    let server = TestServer::start().await;
    let (_, key) = server.full_user("decoder").await;
    for (method, path, body, says) in [
        (
            Method::POST,
            "/chains",
            json!(["https://example.com/"]),
            "a JSON object",
        ),
        (
            Method::POST,
            "/chains",
            json!({"target_url": "https://e.com/", "domain_id": "x"}),
            "an integer",
        ),
        (
            Method::POST,
            "/openapi/v1/chain/create",
            json!({"target_url": "https://e.com/", "group_id": true}),
            "an integer, or a string of digits",
        ),
        (
            Method::POST,
            "/openapi/v1/chain/create",
            json!({"target_url": "https://e.com/", "domain": {"id": 1}}),
            "a domain id or host name, or a list of them",
        ),
        (
            Method::POST,
            "/openapi/v1/chain/create",
            json!({"target_url": "https://e.com/", "valid_time": [1]}),
            "a time",
        ),
        (
            Method::POST,
            "/openapi/v1/wxchain/create",
            json!({"channel_list": ["https://e.com/q.png"]}),
            "a JSON object",
        ),
    ] {
        let reply = server
            .call(method, path, Some(&key), Some(body.clone()))
            .await;
        assert_eq!(
            reply.status,
            StatusCode::BAD_REQUEST,
            "{body}: {}",
            reply.text
        );
        let message = reply.body["message"]
            .as_str()
            .or_else(|| reply.body["msg"].as_str())
            .unwrap()
            .to_owned();
        assert!(message.contains(says), "{body}: {message}");
        for rust in ["struct ", "enum ", "IntOrText", "Either", "i64", "elements"] {
            assert!(!message.contains(rust), "{body}: {message}");
        }
    }
}

#[tokio::test]
async fn rate_limited_answers_never_say_retry_after_zero() {
    let server = TestServer::start_with(Options {
        rate_limit: Some(RateLimit {
            per_second: NonZeroU32::new(20).unwrap(),
            burst: NonZeroU32::new(3).unwrap(),
        }),
        ..Options::default()
    })
    .await;
    let (_, key) = server.full_user("hurried").await;
    let mut limited = 0;
    for _ in 0..400 {
        let reply = server.get("/groups", &key).await;
        if reply.status == StatusCode::TOO_MANY_REQUESTS {
            limited += 1;
            let wait: u64 = reply.header("retry-after").unwrap().parse().unwrap();
            assert!(wait >= 1, "Retry-After: {wait}");
        }
    }
    assert!(limited > 0, "the limit was never met");
}

/// Sends raw bytes as one HTTP/1.1 request and returns the status line and headers.
pub(crate) async fn raw(server: &TestServer, request: &[u8]) -> String {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut stream = tokio::net::TcpStream::connect(server.addr).await.unwrap();
    stream.write_all(request).await.unwrap();
    let mut answer = Vec::new();
    let _ = tokio::time::timeout(
        std::time::Duration::from_secs(5),
        stream.read_to_end(&mut answer),
    )
    .await;
    String::from_utf8_lossy(&answer).into_owned()
}

#[tokio::test]
async fn deeply_nested_and_invalid_utf8_bodies_are_400_and_the_server_carries_on() {
    let server = TestServer::start().await;
    let (_, key) = server.full_user("nester").await;
    let deep = format!(
        "{{\"target_url\":{}1{}}}",
        "[".repeat(1500),
        "]".repeat(1500)
    );
    let reply = server
        .client
        .post(server.url("/chains"))
        .bearer_auth(&key)
        .header("content-type", "application/json")
        .body(deep)
        .send()
        .await
        .unwrap();
    assert_eq!(reply.status(), StatusCode::BAD_REQUEST);
    let invalid_utf8: &[u8] = b"{\"target_url\":\"https://e.com/\xff\xfe\"}";
    let reply = server
        .client
        .post(server.url("/chains"))
        .bearer_auth(&key)
        .header("content-type", "application/json")
        .body(invalid_utf8.to_vec())
        .send()
        .await
        .unwrap();
    assert_eq!(reply.status(), StatusCode::BAD_REQUEST);
    // A query that does not decode (escapes of bytes that are not UTF-8, or no escape at all)
    // is refused, on both surfaces, and a search is never run for a text the client never sent.
    for query in ["q=%FF%FE", "q=%ff", "q=%zz", "q=abc%"] {
        let reply = server.get(&format!("/chains?{query}"), &key).await;
        assert_eq!(
            reply.status,
            StatusCode::BAD_REQUEST,
            "{query}: {}",
            reply.text
        );
        assert_eq!(reply.body["code"], "invalid_query", "{query}");
        let reply = server
            .get(
                &format!("/openapi/v1/chain/list?keyword{}", &query[1..]),
                &key,
            )
            .await;
        assert_eq!(
            reply.status,
            StatusCode::BAD_REQUEST,
            "{query}: {}",
            reply.text
        );
        assert_eq!(reply.body["code"], 0, "{query}");
    }
    let reply = server.get("/chains?q=%C3%A9", &key).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    assert_eq!(server.get("/chains", &key).await.primary_data()["total"], 0);
}

/// The compatibility surface passes over fields it does not know, but what they hold must
/// still be JSON: one rule for JSON on both surfaces.
#[tokio::test]
async fn a_compat_body_is_json_to_its_last_field() {
    // The default body limit, which 100,000 levels of nesting fit in.
    let server = TestServer::start_with(Options {
        max_body_bytes: 1 << 20,
        ..Options::default()
    })
    .await;
    let (_, key) = server.full_user("strict-compat").await;
    let create = "/openapi/v1/chain/create";
    let target = r#""target_url":"https://example.com/compat""#;
    let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    let bodies: Vec<Vec<u8>> = vec![
        [
            format!("{{{target},\"ignored\":\"").as_bytes(),
            b"\xff\xfe\"}",
        ]
        .concat(),
        format!(r#"{{{target},"ignored":"\ud800"}}"#).into_bytes(),
        format!(r#"{{{target},"ignored":{deep}}}"#).into_bytes(),
    ];
    for body in bodies {
        let reply = server
            .post_bytes(create, &key, "application/json", body.clone())
            .await;
        reply.assert_compat_error(StatusCode::BAD_REQUEST);
    }
    // Nothing was made; a sound unknown field is still passed over.
    assert_eq!(server.get("/chains", &key).await.primary_data()["total"], 0);
    let body = format!(r#"{{{target},"ignored":{{"a":["\ud83d\ude00",1.5,null,true]}}}}"#);
    let reply = server
        .post_bytes(create, &key, "application/json", body)
        .await;
    assert_eq!(reply.compat_result()["created_today"], 1, "{}", reply.text);
}

/// RFC 9112, section 3.2: an HTTP/1.1 request has exactly one `Host`; HTTP/1.0 may have none.
#[tokio::test]
async fn a_request_names_its_host_once() {
    let server = TestServer::start().await;
    for (request, envelope) in [
        ("GET /chains HTTP/1.1\r\nHost: x\r\nHost: y\r\n", "primary"),
        ("GET /chains HTTP/1.1\r\n", "primary"),
        (
            "GET /openapi/v1/chain/list HTTP/1.1\r\nHost: a\r\nHost: b\r\n",
            "compat",
        ),
        ("GET /abc HTTP/1.1\r\nHost: x\r\nHost: y\r\n", "page"),
        ("GET /healthz HTTP/1.1\r\n", "primary"),
    ] {
        let answer = raw(
            &server,
            format!("{request}Connection: close\r\n\r\n").as_bytes(),
        )
        .await;
        assert!(answer.starts_with("HTTP/1.1 400"), "{request}: {answer}");
        assert!(
            answer.to_ascii_lowercase().contains("connection: close"),
            "{answer}"
        );
        match envelope {
            "primary" => assert!(answer.contains("\"invalid_host\""), "{answer}"),
            "compat" => assert!(answer.contains("\"code\":0"), "{answer}"),
            _ => assert!(answer.contains("text/html"), "{answer}"),
        }
    }
    let answer = raw(&server, b"GET /healthz HTTP/1.0\r\n\r\n").await;
    assert!(
        answer.starts_with("HTTP/1.1 200") || answer.starts_with("HTTP/1.0 200"),
        "{answer}"
    );
}

#[tokio::test]
async fn path_parameters_do_not_traverse() {
    let server = TestServer::start().await;
    let (_, key) = server.full_user("traveller").await;
    for path in [
        "/files/..%2F..%2Fetc%2Fpasswd",
        "/files/%2e%2e%2f%2e%2e%2flinkapi.db",
        "/files/../linkapi.db",
        "/files/objects%2F..%2F..%2Flinkapi.db",
    ] {
        let answer = raw(
            &server,
            format!("GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").as_bytes(),
        )
        .await;
        assert!(
            answer.starts_with("HTTP/1.1 404") || answer.starts_with("HTTP/1.1 400"),
            "{path}: {answer}"
        );
        assert!(!answer.contains("root:"), "{path}");
        assert!(!answer.contains("SQLite format"), "{path}");
    }
    for path in [
        "/chains/..%2F1",
        "/chains/1%00",
        "/wx-chains/%2e%2e",
        "/uploads/-1",
    ] {
        let (method, key) = if path.starts_with("/uploads") {
            ("DELETE", ADMIN_KEY)
        } else {
            ("GET", key.as_str())
        };
        // Raw bytes: an HTTP client would resolve `%2e%2e` as `..` and send another path.
        let answer = raw(
            &server,
            format!(
                "{method} {path} HTTP/1.1\r\nHost: x\r\nX-API-Key: {key}\r\n\
                 Connection: close\r\n\r\n"
            )
            .as_bytes(),
        )
        .await;
        assert!(
            answer.starts_with("HTTP/1.1 404") || answer.starts_with("HTTP/1.1 400"),
            "{path}: {answer}"
        );
    }
}

/// What schemathesis found: JSON Schema counts `1.0` as an integer, a query key may repeat,
/// and a credential that does not work must not be passed over for one that does.
#[tokio::test]
async fn generated_requests_are_read_as_their_schema_means_them() {
    let server = TestServer::start().await;
    let (_, key) = server.full_user("generated").await;
    // An integral number written as a float is that integer; a fraction is refused.
    let group = server
        .post(
            "/groups",
            &key,
            json!({"name": "floats", "chain_type": 1.0}),
        )
        .await;
    assert_eq!(group.status, StatusCode::CREATED, "{}", group.body);
    server
        .post(
            "/groups",
            &key,
            json!({"name": "fraction", "chain_type": 1.5}),
        )
        .await
        .assert_primary_error(StatusCode::BAD_REQUEST, "invalid_field");
    // A preview image takes what the URL rule takes (it percent-encodes a no-break space);
    // a work-chat id is printable ASCII, as its pattern says.
    let preview = server
        .get(
            "/admin/templates/0/preview?image=%20HTTPS%3A%2F%2Fcdn.example.com%2Fa%C2%A0b.png",
            ADMIN_KEY,
        )
        .await;
    assert_eq!(preview.status, StatusCode::OK, "{}", preview.text);
    let transfers = server
        .post(
            "/openapi/v1/workchat/transfer/result?corp_id=w%C3%B3",
            ADMIN_KEY,
            json!({}),
        )
        .await;
    assert_eq!(
        transfers.status,
        StatusCode::BAD_REQUEST,
        "{}",
        transfers.text
    );
    // Large integral floats too: parsed exactly, not one step off into a fraction.
    let wx = server
        .post_bytes(
            "/wx-chains",
            &key,
            "application/json",
            r#"{"scan_qr_url": "https://e.com/q.png", "channel_list": [{"url": "https://e.com/q.png", "qrcode_time": 2251799813685247.0}]}"#,
        )
        .await;
    assert_eq!(wx.status, StatusCode::CREATED, "{}", wx.text);
    server
        .post(
            "/openapi/v1/chain/list",
            &key,
            json!({"page": 1.0, "page_size": 2e1}),
        )
        .await
        .compat_result();
    // Integers given as text are digits, nothing else: no spaces, no sign, no exponent.
    for page in ["%202", "%2B2", "1e1", "0x1"] {
        server
            .get(&format!("/openapi/v1/chain/list?page={page}"), &key)
            .await
            .assert_compat_error(StatusCode::BAD_REQUEST);
    }
    server
        .get("/openapi/v1/chain/list?page=02", &key)
        .await
        .compat_result();
    // A repeated key is a list: `chain/info` then says it takes one domain, not that the
    // field was duplicated.
    server
        .create_chain(
            &key,
            json!({"target_url": "https://example.com/", "code": "rep-1"}),
        )
        .await;
    server
        .get("/openapi/v1/chain/info?chain=rep-1&domain=1", &key)
        .await
        .compat_result();
    let reply = server
        .get("/openapi/v1/chain/info?chain=rep-1&domain=1&domain=2", &key)
        .await;
    reply.assert_compat_error(StatusCode::BAD_REQUEST);
    assert!(
        reply.body.to_string().contains("one domain"),
        "{}",
        reply.body
    );
    // A good key beside a malformed or different credential is refused, never chosen.
    let client = reqwest::Client::new();
    for (query, header) in [
        (
            format!("apikey={key}"),
            ("authorization", "Basic Zm9vOmJhcg==".to_owned()),
        ),
        (
            format!("apikey={key}"),
            ("x-api-key", "lk_other".to_owned()),
        ),
        (
            "apikey=lk_other".to_owned(),
            ("authorization", format!("Bearer {key}")),
        ),
    ] {
        let status = client
            .get(server.url(&format!("/openapi/v1/group/list?{query}")))
            .header(header.0, &header.1)
            .send()
            .await
            .expect("request")
            .status();
        assert_eq!(status, StatusCode::UNAUTHORIZED, "{query} {}", header.0);
    }
    let both = client
        .get(server.url(&format!("/openapi/v1/group/list?apikey={key}")))
        .header("authorization", format!("Bearer {key}"))
        .send()
        .await
        .expect("request");
    assert_eq!(both.status(), StatusCode::OK);
}

#[tokio::test]
async fn query_integers_group_filters_and_part_names_read_as_documented() {
    let server = TestServer::start().await;
    let (_, key) = server
        .user_with_key(
            "documented",
            &["chains:read", "chains:write", "uploads:write"],
        )
        .await;
    for (title, code) in [("a1.0", "dot-title"), ("a1b", "plain-title")] {
        server
            .create_chain(
                &key,
                json!({"target_url": "https://example.com/", "code": code, "chain_title": title}),
            )
            .await;
    }
    // An integral decimal in an integer query field is that integer; text fields keep theirs:
    // `q=1.0` still finds only the title containing "1.0", not every "1".
    let found = server
        .get("/chains?q=1.0&page=1.0&page_size=10.00", &key)
        .await;
    assert_eq!(found.status, StatusCode::OK, "{}", found.body);
    assert_eq!(found.primary_data()["total"], 1, "{}", found.body);
    assert_eq!(found.primary_data()["page_size"], 10, "{}", found.body);
    server
        .get("/chains?page=2.5", &key)
        .await
        .assert_primary_error(StatusCode::BAD_REQUEST, "invalid_query");
    // The compatibility surface's GET actions read them the same way, lists and lenient
    // integers included.
    let listed = server
        .get(
            "/openapi/v1/chain/list?page=1.0&page_size=10.0&group_id=0.0",
            &key,
        )
        .await;
    assert_eq!(listed.compat_result()["total"], 2, "{}", listed.body);
    server
        .get("/openapi/v1/wxchain/list?group_id=2483.0&page=1.00", &key)
        .await
        .compat_result();
    server
        .get("/openapi/v1/chain/list?page=1.5", &key)
        .await
        .assert_compat_error(StatusCode::BAD_REQUEST);
    // A group filter is a group id, or 0 for every group; a negative one is refused.
    server
        .get("/chains?group_id=-1", &key)
        .await
        .assert_primary_error(StatusCode::BAD_REQUEST, "invalid_group");
    let every = server.get("/chains?group_id=0", &key).await;
    assert_eq!(every.primary_data()["total"], 2, "{}", every.body);
    // A part is only asked whether its name is `file`: one whose name holds C1 control or
    // bidirectional characters (form encoders pass them through) is read past and goes nowhere
    // else. (A C0 control character cannot stand in a header at all: that body is malformed.)
    let image = crate::images::png("part-names", 0);
    for odd in ["x\u{85}y", "\u{202e}file", "x\u{9f}", "x\ty", "x\\y"] {
        let mut body = format!(
            "--b\r\nContent-Disposition: form-data; name=\"{odd}\"\r\n\r\nhi\r\n\
             --b\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.png\"\r\n\
             Content-Type: image/png\r\n\r\n"
        )
        .into_bytes();
        body.extend_from_slice(&image);
        body.extend_from_slice(
            format!(
                "\r\n--b\r\nContent-Disposition: form-data; name=\"{odd}\"\r\n\r\nbye\r\n--b--\r\n"
            )
            .as_bytes(),
        );
        let reply = server
            .post_bytes("/uploads", &key, "multipart/form-data; boundary=b", body)
            .await;
        assert_eq!(reply.status, StatusCode::CREATED, "{odd:?}: {}", reply.body);
        assert_eq!(reply.primary_data()["file_name"], "a.png");
        assert!(!reply.text.contains(odd), "{}", reply.text);
    }
    for control in ["x\u{1}y", "x\u{7f}", "\u{1f}"] {
        let malformed = format!(
            "--b\r\nContent-Disposition: form-data; name=\"{control}\"\r\n\r\nhi\r\n--b--\r\n"
        );
        let reply = server
            .post_bytes(
                "/uploads",
                &key,
                "multipart/form-data; boundary=b",
                malformed,
            )
            .await;
        reply.assert_primary_error(StatusCode::BAD_REQUEST, "bad_multipart");
    }
}

#[tokio::test]
async fn times_past_the_year_9999_are_refused_not_shown_as_1970() {
    let server = TestServer::start().await;
    let (user_id, key) = server.full_user("far-future").await;
    let latest = 253_402_300_799_i64;
    for valid_time in [json!(latest + 1), json!(i64::MAX)] {
        server
            .post(
                "/chains",
                &key,
                json!({"target_url": "https://example.com/", "valid_time": valid_time}),
            )
            .await
            .assert_primary_error(StatusCode::BAD_REQUEST, "invalid_valid_time");
    }
    for valid_time in [
        json!(latest + 1),
        json!(u64::MAX),
        json!("99999999999999999999"),
        json!("9999-12-31T23:59:59-01:00"),
    ] {
        let reply = server
            .post(
                "/openapi/v1/chain/create",
                &key,
                json!({"target_url": "https://example.com/", "valid_time": valid_time}),
            )
            .await;
        reply.assert_compat_error(StatusCode::BAD_REQUEST);
        assert!(
            reply.body.to_string().contains("valid_time"),
            "{}",
            reply.body
        );
    }
    server
        .post(
            "/admin/keys",
            ADMIN_KEY,
            json!({"user_id": user_id, "scopes": ["chains:read"], "expires_at": latest + 1}),
        )
        .await
        .assert_primary_error(StatusCode::BAD_REQUEST, "invalid_expiry");
    // The last second both forms can write is a time like any other.
    let created = server
        .post(
            "/openapi/v1/chain/create",
            &key,
            json!({"target_url": "https://example.com/", "valid_time": "9999-12-31 23:59:59"}),
        )
        .await;
    let render_url = created.compat_result()["render_url"]
        .as_str()
        .unwrap()
        .to_owned();
    let code = render_url.rsplit('/').next().unwrap();
    let info = server
        .post("/openapi/v1/chain/info", &key, json!({"chain": code}))
        .await;
    assert_eq!(info.compat_result()["valid_time"], "9999-12-31 23:59:59");
}
