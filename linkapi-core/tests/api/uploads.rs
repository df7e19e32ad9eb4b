//! Uploads: types decided by bytes, refusals, dedupe, quota, serving (ETag, 304, Range),
//! listing and ownership. How bodies are read is `upload_bodies`; S3 and two instances are
//! `uploads_shared`.

use std::path::Path;

use reqwest::StatusCode;
use reqwest::multipart::{Form, Part};

use crate::support::{Options, TestServer};

use crate::images::{GIF, JPEG, png, webp};

pub(crate) const UPLOAD_SCOPES: &[&str] = &["uploads:read", "uploads:write"];

pub(crate) async fn upload(
    server: &TestServer,
    key: &str,
    name: &str,
    bytes: Vec<u8>,
    declared: &str,
) -> crate::support::Reply {
    let part = Part::bytes(bytes)
        .file_name(name.to_owned())
        .mime_str(declared)
        .unwrap();
    let resp = server
        .client
        .post(server.url("/uploads"))
        .bearer_auth(key)
        .multipart(Form::new().part("file", part))
        .send()
        .await
        .expect("upload");
    crate::support::Reply::from(resp).await
}

pub(crate) async fn compat_upload(
    server: &TestServer,
    key: &str,
    files: Vec<(&str, Vec<u8>)>,
) -> crate::support::Reply {
    let mut form = Form::new();
    for (name, bytes) in files {
        form = form.part("file", Part::bytes(bytes).file_name(name.to_owned()));
    }
    let resp = server
        .client
        .post(server.url(&format!("/openapi/v1/upload/image?apikey={key}")))
        .multipart(form)
        .send()
        .await
        .expect("upload");
    crate::support::Reply::from(resp).await
}

/// GETs a file URL (absolute, as the API gives it) with extra headers.
pub(crate) async fn fetch(
    server: &TestServer,
    url: &str,
    headers: &[(&str, &str)],
) -> reqwest::Response {
    let mut req = server.client.get(url);
    for (name, value) in headers {
        req = req.header(*name, *value);
    }
    req.send().await.expect("fetch")
}

/// Every file under `dir`, recursively.
pub(crate) fn files_under(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut found = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return found;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            found.extend(files_under(&path));
        } else {
            found.push(path);
        }
    }
    found
}

pub(crate) fn stored_files(server: &TestServer) -> Vec<std::path::PathBuf> {
    files_under(&server.dir.path().join("uploads"))
}

#[tokio::test]
async fn each_accepted_type_is_decided_by_its_bytes_and_served_back() {
    let server = TestServer::start().await;
    let (_, key) = server.user_with_key("types", UPLOAD_SCOPES).await;
    let cases: Vec<(&str, Vec<u8>, &str, &str)> = vec![
        ("notes.txt", png("types", 0), "text/plain", "image/png"),
        ("photo.gif", JPEG.to_vec(), "image/gif", "image/jpeg"),
        (
            "anim",
            GIF.to_vec(),
            "application/octet-stream",
            "image/gif",
        ),
        ("pic.png", webp(), "image/png", "image/webp"),
    ];
    for (name, bytes, declared, expected) in cases {
        let reply = upload(&server, &key, name, bytes.clone(), declared).await;
        assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.text);
        let data = reply.primary_data();
        assert_eq!(data["content_type"], expected);
        assert_eq!(data["size_bytes"], bytes.len());
        assert_eq!(data["file_name"], name);
        let object_key = data["object_key"].as_str().unwrap();
        assert_eq!(object_key.split_once('.').unwrap().0.len(), 64);
        let url = data["url"].as_str().unwrap();
        assert!(url.ends_with(&format!("/files/{object_key}")), "{url}");
        let served = fetch(&server, url, &[]).await;
        assert_eq!(served.status(), StatusCode::OK);
        let headers = served.headers().clone();
        assert_eq!(headers["content-type"], expected);
        assert_eq!(headers["content-length"], bytes.len().to_string().as_str());
        assert_eq!(headers["x-content-type-options"], "nosniff");
        assert!(
            headers["content-security-policy"]
                .to_str()
                .unwrap()
                .contains("default-src 'none'")
        );
        assert!(
            headers["cache-control"]
                .to_str()
                .unwrap()
                .contains("immutable")
        );
        assert_eq!(served.bytes().await.unwrap().as_ref(), bytes.as_slice());
    }
    let listed = server.get("/uploads", &key).await;
    assert_eq!(listed.primary_data()["total"], 4);
}

#[tokio::test]
async fn refused_files_say_why_and_leave_nothing_behind() {
    let server = TestServer::start().await;
    let (_, key) = server.user_with_key("refused", UPLOAD_SCOPES).await;
    let full = png("cut", 0);
    let svg = b"<?xml version=\"1.0\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\"><script>alert(1)</script></svg>".to_vec();
    // A small PNG that declares 100,000 x 100,000 pixels, and a GIF of 1,001 frames.
    let mut bomb = png("bomb", 0);
    bomb[16..20].copy_from_slice(&100_000u32.to_be_bytes());
    bomb[20..24].copy_from_slice(&100_000u32.to_be_bytes());
    let mut flipbook = b"GIF89a\x01\x00\x01\x00\x80\x00\x00\x00\x00\x00\xFF\xFF\xFF".to_vec();
    for _ in 0..1_001 {
        flipbook.extend_from_slice(b"\x2C\x00\x00\x00\x00\x01\x00\x01\x00\x00\x02\x02\x4C\x01\x00");
    }
    flipbook.push(0x3B);
    let cases: Vec<(&str, Vec<u8>, StatusCode, &str, &str)> = vec![
        (
            "bomb.png",
            bomb,
            StatusCode::UNPROCESSABLE_ENTITY,
            "image_too_large",
            "100000 x 100000 pixels",
        ),
        (
            "flipbook.gif",
            flipbook,
            StatusCode::UNPROCESSABLE_ENTITY,
            "image_too_large",
            "more than 1000 frames",
        ),
        (
            "readme.png",
            b"# not an image, only text\n".to_vec(),
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "unsupported_file_type",
            "not a PNG",
        ),
        (
            "cut.png",
            full[..full.len() - 10].to_vec(),
            StatusCode::UNPROCESSABLE_ENTITY,
            "invalid_image",
            "truncated",
        ),
        (
            "empty.png",
            Vec::new(),
            StatusCode::UNPROCESSABLE_ENTITY,
            "invalid_image",
            "empty",
        ),
        (
            "logo.svg",
            svg,
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "unsupported_file_type",
            "SVG",
        ),
    ];
    for (name, bytes, status, code, says) in cases {
        let reply = upload(&server, &key, name, bytes, "image/png").await;
        reply.assert_primary_error(status, code);
        assert!(
            reply.body["message"].as_str().unwrap().contains(says),
            "{}",
            reply.text
        );
    }
    let listed = server.get("/uploads", &key).await;
    assert_eq!(listed.primary_data()["total"], 0);
    assert_eq!(stored_files(&server), Vec::<std::path::PathBuf>::new());
    // A request without a file part, or not multipart at all.
    let none = server
        .client
        .post(server.url("/uploads"))
        .bearer_auth(&key)
        .multipart(Form::new().text("other", "x"))
        .send()
        .await
        .unwrap();
    crate::support::Reply::from(none)
        .await
        .assert_primary_error(StatusCode::BAD_REQUEST, "missing_file");
    server
        .post("/uploads", &key, serde_json::json!({}))
        .await
        .assert_primary_error(StatusCode::UNSUPPORTED_MEDIA_TYPE, "unsupported_media_type");
}

#[tokio::test]
async fn a_compatibility_upload_stores_the_good_files_and_names_the_bad() {
    let server = TestServer::start_with(Options {
        max_file_bytes: 8 << 10,
        ..Options::default()
    })
    .await;
    let (_, key) = server.user_with_key("mixed", UPLOAD_SCOPES).await;
    let reply = compat_upload(
        &server,
        &key,
        vec![
            ("one.png", png("one", 0)),
            ("fake.jpg", b"hello, I am text".to_vec()),
            ("huge.png", png("huge", 20 << 10)),
            ("two.gif", GIF.to_vec()),
            ("../../etc/passwd", webp()),
        ],
    )
    .await;
    let result = reply.compat_result();
    let stored = result["upload_success_data"].as_array().unwrap();
    let names: Vec<&str> = stored
        .iter()
        .map(|s| s["file_name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["one.png", "two.gif", "passwd"]);
    for item in stored {
        let served = fetch(&server, item["img_url"].as_str().unwrap(), &[]).await;
        assert_eq!(served.status(), StatusCode::OK);
    }
    let failed: Vec<&str> = result["upload_fail_data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f.as_str().unwrap())
        .collect();
    assert_eq!(failed.len(), 2, "{failed:?}");
    assert!(
        failed[0].starts_with("fake.jpg: ") && failed[0].contains("not a PNG"),
        "{failed:?}"
    );
    assert!(
        failed[1].starts_with("huge.png: ") && failed[1].contains("larger than"),
        "{failed:?}"
    );
    // No file part at all is an error in the compatibility envelope.
    compat_upload(&server, &key, vec![])
        .await
        .assert_compat_error(StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn the_same_bytes_are_stored_once_and_go_with_their_last_upload() {
    let server = TestServer::start().await;
    let (_, alice) = server.user_with_key("alice", UPLOAD_SCOPES).await;
    let (_, bob) = server.user_with_key("bob", UPLOAD_SCOPES).await;
    let bytes = png("shared", 10);
    let first = upload(&server, &alice, "a.png", bytes.clone(), "image/png").await;
    let first = first.primary_data().clone();
    let again = upload(&server, &alice, "again.png", bytes.clone(), "image/png").await;
    assert_eq!(
        again.primary_data()["file_id"],
        first["file_id"],
        "a repeat answers the first upload"
    );
    let bobs = upload(&server, &bob, "b.png", bytes.clone(), "image/png").await;
    let bobs = bobs.primary_data().clone();
    assert_ne!(bobs["file_id"], first["file_id"]);
    assert_eq!(bobs["object_key"], first["object_key"]);
    assert_eq!(
        stored_files(&server).len(),
        1,
        "one object for the same bytes"
    );
    let url = first["url"].as_str().unwrap().to_owned();
    // Bob cannot delete Alice's upload.
    server
        .delete(&format!("/uploads/{}", first["file_id"]), &bob)
        .await
        .assert_primary_error(StatusCode::NOT_FOUND, "not_found");
    server
        .delete(&format!("/uploads/{}", first["file_id"]), &alice)
        .await
        .primary_data();
    assert_eq!(
        fetch(&server, &url, &[]).await.status(),
        StatusCode::OK,
        "Bob's upload keeps it"
    );
    assert_eq!(stored_files(&server).len(), 1);
    server
        .delete(&format!("/uploads/{}", bobs["file_id"]), &bob)
        .await
        .primary_data();
    assert_eq!(
        fetch(&server, &url, &[]).await.status(),
        StatusCode::NOT_FOUND
    );
    assert_eq!(stored_files(&server), Vec::<std::path::PathBuf>::new());
    server
        .delete(&format!("/uploads/{}", bobs["file_id"]), &bob)
        .await
        .assert_primary_error(StatusCode::NOT_FOUND, "not_found");
}

/// Uploads `count` distinct images of the same size at once, spread over `servers` in turn.
pub(crate) async fn race_uploads(
    servers: &[&TestServer],
    key: &str,
    count: usize,
    tag: &str,
) -> Vec<crate::support::Reply> {
    let racers = (0..count).map(|i| {
        let server = servers[i % servers.len()];
        let bytes = png(&format!("{tag}{i:02}"), 900);
        async move { upload(server, key, "race.png", bytes, "image/png").await }
    });
    futures_util::future::join_all(racers).await
}

#[tokio::test]
async fn the_storage_quota_admits_exactly_what_fits_under_concurrency() {
    let sample = png("q00", 900).len() as i64;
    let server = TestServer::start_with(Options {
        upload_quota_bytes: sample * 5,
        ..Options::default()
    })
    .await;
    let (_, key) = server.user_with_key("quota", UPLOAD_SCOPES).await;
    let replies = race_uploads(&[&server], &key, 24, "q").await;
    let stored = replies
        .iter()
        .filter(|r| r.status == StatusCode::CREATED)
        .count();
    assert_eq!(stored, 5, "exactly five fit");
    for refused in replies.iter().filter(|r| r.status != StatusCode::CREATED) {
        refused.assert_primary_error(StatusCode::PAYLOAD_TOO_LARGE, "storage_quota_exceeded");
    }
    // Deleting one frees its room.
    let listed = server.get("/uploads?page_size=1", &key).await;
    let id = listed.primary_data()["list"][0]["file_id"].clone();
    assert_eq!(listed.primary_data()["total"], 5);
    server
        .delete(&format!("/uploads/{id}"), &key)
        .await
        .primary_data();
    let again = upload(&server, &key, "q.png", png("q99", 900), "image/png").await;
    assert_eq!(again.status, StatusCode::CREATED, "{}", again.text);
}

#[tokio::test]
async fn files_are_served_with_etags_conditional_and_range_requests() {
    let server = TestServer::start().await;
    let (_, key) = server.user_with_key("serving", UPLOAD_SCOPES).await;
    let bytes = png("serve", 200);
    let data = upload(&server, &key, "s.png", bytes.clone(), "image/png").await;
    let url = data.primary_data()["url"].as_str().unwrap().to_owned();
    let full = fetch(&server, &url, &[]).await;
    let etag = full.headers()["etag"].to_str().unwrap().to_owned();
    assert!(
        etag.starts_with('"') && !etag.starts_with("W/"),
        "strong: {etag}"
    );
    let not_modified = fetch(&server, &url, &[("if-none-match", &etag)]).await;
    assert_eq!(not_modified.status(), StatusCode::NOT_MODIFIED);
    assert_eq!(not_modified.headers()["etag"], etag.as_str());
    assert!(not_modified.bytes().await.unwrap().is_empty());
    let other = fetch(&server, &url, &[("if-none-match", "\"something-else\"")]).await;
    assert_eq!(other.status(), StatusCode::OK);

    let part = fetch(&server, &url, &[("range", "bytes=8-23")]).await;
    assert_eq!(part.status(), StatusCode::PARTIAL_CONTENT);
    assert_eq!(
        part.headers()["content-range"],
        format!("bytes 8-23/{}", bytes.len()).as_str()
    );
    assert_eq!(part.headers()["content-length"], "16");
    assert_eq!(part.bytes().await.unwrap().as_ref(), &bytes[8..24]);
    let tail = fetch(&server, &url, &[("range", "bytes=-4")]).await;
    assert_eq!(tail.status(), StatusCode::PARTIAL_CONTENT);
    assert_eq!(
        tail.bytes().await.unwrap().as_ref(),
        &bytes[bytes.len() - 4..]
    );
    let beyond = fetch(&server, &url, &[("range", "bytes=99999-")]).await;
    assert_eq!(beyond.status(), StatusCode::RANGE_NOT_SATISFIABLE);
    assert_eq!(
        beyond.headers()["content-range"],
        format!("bytes */{}", bytes.len()).as_str()
    );
    let stale = fetch(
        &server,
        &url,
        &[("range", "bytes=0-3"), ("if-range", "\"old\"")],
    )
    .await;
    assert_eq!(
        stale.status(),
        StatusCode::OK,
        "If-Range naming other bytes sends them all"
    );

    let head = server.client.head(&url).send().await.unwrap();
    assert_eq!(head.status(), StatusCode::OK);
    assert_eq!(
        head.headers()["content-length"],
        bytes.len().to_string().as_str()
    );
    for missing in [
        format!("/files/{}.png", "0".repeat(64)),
        "/files/..%2F..%2Fetc%2Fpasswd".to_owned(),
        "/files/linkapi.db".to_owned(),
    ] {
        let gone = fetch(&server, &server.url(&missing), &[]).await;
        assert_eq!(gone.status(), StatusCode::NOT_FOUND, "{missing}");
    }
}

#[tokio::test]
async fn uploads_are_listed_newest_first_in_pages_of_their_owner_only() {
    let server = TestServer::start().await;
    let (_, key) = server.user_with_key("lister", UPLOAD_SCOPES).await;
    let (_, other) = server.user_with_key("other", UPLOAD_SCOPES).await;
    for i in 0..3 {
        upload(
            &server,
            &key,
            &format!("{i}.png"),
            png(&format!("l{i}"), 0),
            "image/png",
        )
        .await
        .primary_data();
    }
    upload(&server, &other, "x.png", png("other", 0), "image/png")
        .await
        .primary_data();
    let page = server.get("/uploads?page=1&page_size=2", &key).await;
    let data = page.primary_data();
    assert_eq!(data["total"], 3);
    let names: Vec<&str> = data["list"]
        .as_array()
        .unwrap()
        .iter()
        .map(|u| u["file_name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["2.png", "1.png"]);
    server
        .get("/uploads?page_size=1000", &key)
        .await
        .assert_primary_error(StatusCode::BAD_REQUEST, "invalid_page_size");
    // Read scope alone cannot upload.
    let (_, reader) = server.user_with_key("reader", &["uploads:read"]).await;
    upload(&server, &reader, "r.png", png("r", 0), "image/png")
        .await
        .assert_primary_error(StatusCode::FORBIDDEN, "forbidden");
}
