//! Uploads: types decided by bytes, refusals, the size cap while streaming, dedupe, quota,
//! serving (ETag, 304, Range), ownership, both blob backends and two instances.

use std::io::{Read, Write};
use std::path::Path;
use std::time::Duration;

#[cfg(feature = "s3")]
use linkapi_core::blob::{BlobBackend, S3Settings};
use reqwest::StatusCode;
use reqwest::multipart::{Form, Part};

#[cfg(feature = "s3")]
use crate::s3_server;
#[cfg(feature = "s3")]
use crate::support::Backend;
use crate::support::{Options, TestServer};

use crate::images::{GIF, JPEG, png, webp};

const UPLOAD_SCOPES: &[&str] = &["uploads:read", "uploads:write"];

async fn upload(
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

async fn compat_upload(
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
async fn fetch(server: &TestServer, url: &str, headers: &[(&str, &str)]) -> reqwest::Response {
    let mut req = server.client.get(url);
    for (name, value) in headers {
        req = req.header(*name, *value);
    }
    req.send().await.expect("fetch")
}

/// Every file under `dir`, recursively.
fn files_under(dir: &Path) -> Vec<std::path::PathBuf> {
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

fn stored_files(server: &TestServer) -> Vec<std::path::PathBuf> {
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

/// Sends a multipart request by hand: headers, then `sent` bytes of a file part announced as
/// `total` bytes (chunked, or with a Content-Length when `declare`), without the rest; returns
/// the status line the server answers with while the rest is still unsent.
fn partial_upload(
    addr: std::net::SocketAddr,
    key: &str,
    sent: usize,
    total: usize,
    declare: bool,
) -> String {
    let mut stream = std::net::TcpStream::connect(addr).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    let boundary = "XyZzYboundary";
    let head = format!(
        "--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"big.png\"\r\n\
         Content-Type: image/png\r\n\r\n"
    );
    let length = if declare {
        format!(
            "Content-Length: {}\r\n",
            head.len() + total + boundary.len() + 8
        )
    } else {
        "Transfer-Encoding: chunked\r\n".to_owned()
    };
    let request = format!(
        "POST /uploads HTTP/1.1\r\nHost: {}\r\nAuthorization: Bearer {key}\r\n\
         Content-Type: multipart/form-data; boundary={boundary}\r\n{length}\r\n",
        addr
    );
    stream.write_all(request.as_bytes()).unwrap();
    let mut body = head.into_bytes();
    let image = png("big", sent);
    body.extend_from_slice(&image[..sent.min(image.len())]);
    if declare {
        // The server answers from the headers alone; what follows may meet a closed socket.
        let _ = stream.write_all(&body[..body.len().min(1024)]);
    } else {
        for piece in body.chunks(16 * 1024) {
            if stream
                .write_all(format!("{:x}\r\n", piece.len()).as_bytes())
                .and_then(|()| stream.write_all(piece))
                .and_then(|()| stream.write_all(b"\r\n"))
                .is_err()
            {
                break;
            }
        }
    }
    let mut answer = [0u8; 512];
    let n = stream
        .read(&mut answer)
        .expect("an answer before the body ended");
    String::from_utf8_lossy(&answer[..n])
        .lines()
        .next()
        .unwrap_or_default()
        .to_owned()
}

#[tokio::test]
async fn the_size_cap_holds_while_streaming_and_keeps_nothing() {
    let server = TestServer::start_with(Options {
        max_file_bytes: 64 << 10,
        ..Options::default()
    })
    .await;
    let (_, key) = server.user_with_key("capped", UPLOAD_SCOPES).await;
    // 300 KiB sent of a 50 MiB file: the answer comes before the rest is sent.
    for (sent, declare) in [(300 << 10, false), (1024, true)] {
        let (addr, key) = (server.addr, key.clone());
        let line = tokio::task::spawn_blocking(move || {
            partial_upload(addr, &key, sent, 50 << 20, declare)
        })
        .await
        .unwrap();
        assert!(line.contains("413"), "declared length {declare}: {line}");
    }
    // Through an ordinary client too, with the error envelope.
    let reply = upload(&server, &key, "big.png", png("big", 100 << 10), "image/png").await;
    reply.assert_primary_error(StatusCode::PAYLOAD_TOO_LARGE, "payload_too_large");
    // Just under the cap is fine.
    let fits = upload(
        &server,
        &key,
        "fits.png",
        png("fits", 60 << 10),
        "image/png",
    )
    .await;
    assert_eq!(fits.status, StatusCode::CREATED, "{}", fits.text);
    let files = stored_files(&server);
    assert_eq!(files.len(), 1, "only the accepted file is kept: {files:?}");
    assert!(files[0].to_string_lossy().contains("objects"), "{files:?}");
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
async fn race_uploads(
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

#[cfg(feature = "s3")]
/// The S3 backend on a bucket of its own, or `None` where no S3 server is available.
async fn s3_backend(presign: Option<Duration>) -> Option<(BlobBackend, String)> {
    let s3 = s3_server::server()?;
    let bucket = s3.new_bucket().await;
    Some((
        BlobBackend::S3(S3Settings {
            bucket: bucket.clone(),
            endpoint: Some(s3.endpoint.clone()),
            region: Some(s3_server::REGION.into()),
            access_key_id: Some(s3_server::ACCESS_KEY_ID.into()),
            secret_access_key: Some(s3_server::SECRET_ACCESS_KEY.into()),
            presign,
        }),
        bucket,
    ))
}

#[cfg(feature = "s3")]
#[tokio::test]
async fn the_s3_backend_stores_serves_dedupes_and_removes() {
    let Some((backend, bucket)) = s3_backend(None).await else {
        return;
    };
    let s3 = s3_server::server().unwrap();
    let server = TestServer::start_with(Options {
        blobs: Some(backend),
        max_file_bytes: 64 << 10,
        ..Options::default()
    })
    .await;
    let (_, key) = server.user_with_key("s3user", UPLOAD_SCOPES).await;
    let bytes = png("s3", 500);
    let first = upload(&server, &key, "s3.png", bytes.clone(), "image/png").await;
    let first = first.primary_data().clone();
    let keys = s3.keys(&bucket).await;
    assert_eq!(
        keys,
        [format!(
            "objects/{}/{}",
            &first["object_key"].as_str().unwrap()[..2],
            first["object_key"].as_str().unwrap()
        )]
    );
    let url = first["url"].as_str().unwrap();
    let served = fetch(&server, url, &[("range", "bytes=0-7")]).await;
    assert_eq!(served.status(), StatusCode::PARTIAL_CONTENT);
    assert_eq!(served.bytes().await.unwrap().as_ref(), &bytes[..8]);
    assert_eq!(
        fetch(&server, url, &[])
            .await
            .bytes()
            .await
            .unwrap()
            .as_ref(),
        bytes.as_slice()
    );
    // Refused and oversize files leave nothing in the bucket.
    upload(&server, &key, "t.png", b"text".to_vec(), "image/png")
        .await
        .assert_primary_error(StatusCode::UNSUPPORTED_MEDIA_TYPE, "unsupported_file_type");
    upload(&server, &key, "big.png", png("big", 200 << 10), "image/png")
        .await
        .assert_primary_error(StatusCode::PAYLOAD_TOO_LARGE, "payload_too_large");
    assert_eq!(s3.keys(&bucket).await.len(), 1);
    server
        .delete(&format!("/uploads/{}", first["file_id"]), &key)
        .await
        .primary_data();
    assert_eq!(s3.keys(&bucket).await, Vec::<String>::new());
    assert_eq!(
        fetch(&server, url, &[]).await.status(),
        StatusCode::NOT_FOUND
    );
}

#[cfg(feature = "s3")]
#[tokio::test]
async fn presigned_serving_redirects_to_the_bucket() {
    let Some((backend, _bucket)) = s3_backend(Some(Duration::from_secs(600))).await else {
        return;
    };
    let server = TestServer::start_with(Options {
        blobs: Some(backend),
        ..Options::default()
    })
    .await;
    let (_, key) = server.user_with_key("presign", UPLOAD_SCOPES).await;
    let bytes = png("presigned", 50);
    let data = upload(&server, &key, "p.png", bytes.clone(), "image/png").await;
    let url = data.primary_data()["url"].as_str().unwrap().to_owned();
    let redirect = fetch(&server, &url, &[]).await;
    assert_eq!(redirect.status(), StatusCode::FOUND);
    let location = redirect.headers()["location"].to_str().unwrap().to_owned();
    assert!(location.contains("X-Amz-Signature="), "{location}");
    let from_bucket = reqwest::get(&location).await.unwrap();
    assert_eq!(from_bucket.status(), StatusCode::OK);
    assert_eq!(
        from_bucket.bytes().await.unwrap().as_ref(),
        bytes.as_slice()
    );
}

#[cfg(feature = "s3")]
#[tokio::test]
async fn two_instances_on_one_bucket_serve_and_remove_one_upload() {
    let Some(db) = Backend::postgres() else {
        return;
    };
    let Some((backend, bucket)) = s3_backend(None).await else {
        return;
    };
    let s3 = s3_server::server().unwrap();
    let options = || Options {
        blobs: Some(backend.clone()),
        ..Options::default()
    };
    let a = TestServer::start_on(db, options()).await;
    let b = a.start_peer(options()).await;
    let (_, key) = a.user_with_key("shared", UPLOAD_SCOPES).await;
    let bytes = png("two", 64);
    let data = upload(&a, &key, "two.png", bytes.clone(), "image/png").await;
    let data: serde_json::Value = data.primary_data().clone();
    let on_b = b.url(&format!("/files/{}", data["object_key"].as_str().unwrap()));
    let served = fetch(&b, &on_b, &[]).await;
    assert_eq!(served.status(), StatusCode::OK);
    assert_eq!(served.bytes().await.unwrap().as_ref(), bytes.as_slice());
    // The same bytes uploaded through B are the same object; removing both through B empties
    // the bucket.
    let again = upload(&b, &key, "again.png", bytes, "image/png").await;
    assert_eq!(again.primary_data()["file_id"], data["file_id"]);
    b.delete(&format!("/uploads/{}", data["file_id"]), &key)
        .await
        .primary_data();
    assert_eq!(s3.keys(&bucket).await, Vec::<String>::new());
    assert_eq!(
        fetch(
            &a,
            &a.url(&format!("/files/{}", data["object_key"].as_str().unwrap())),
            &[]
        )
        .await
        .status(),
        StatusCode::NOT_FOUND
    );
}

/// Two instances over one PostgreSQL database and one storage directory, or `None` where
/// PostgreSQL is not available.
async fn two_instances(options: impl Fn() -> Options) -> Option<(TestServer, TestServer)> {
    let db = crate::support::Backend::postgres()?;
    let a = TestServer::start_on(db, options()).await;
    let b = a.start_peer(options()).await;
    Some((a, b))
}

#[tokio::test]
async fn the_quota_is_exact_across_two_instances() {
    let sample = png("x00", 900).len() as i64;
    let Some((a, b)) = two_instances(|| Options {
        upload_quota_bytes: sample * 4,
        ..Options::default()
    })
    .await
    else {
        return;
    };
    let (_, key) = a.user_with_key("twoquota", UPLOAD_SCOPES).await;
    let replies = race_uploads(&[&a, &b], &key, 20, "x").await;
    let stored = replies
        .iter()
        .filter(|r| r.status == StatusCode::CREATED)
        .count();
    assert_eq!(stored, 4, "exactly four fit, whichever instance took them");
}

#[tokio::test]
async fn a_removal_racing_an_upload_of_the_same_bytes_never_loses_them() {
    let Some((a, b)) = two_instances(Options::default).await else {
        return;
    };
    let (_, first) = a.user_with_key("remover", UPLOAD_SCOPES).await;
    let (_, second) = a.user_with_key("uploader", UPLOAD_SCOPES).await;
    for round in 0..15 {
        let bytes = png(&format!("race{round}"), 2000);
        let mine = upload(&a, &first, "r.png", bytes.clone(), "image/png").await;
        let id = mine.primary_data()["file_id"].clone();
        // A removes the only upload of these bytes while B uploads them again for another user.
        let path = format!("/uploads/{id}");
        let (removed, theirs) = tokio::join!(
            a.delete(&path, &first),
            upload(&b, &second, "r.png", bytes.clone(), "image/png"),
        );
        removed.primary_data();
        assert_eq!(theirs.status, StatusCode::CREATED, "{}", theirs.text);
        let url = b.url(&format!(
            "/files/{}",
            theirs.body["data"]["object_key"].as_str().unwrap()
        ));
        let served = fetch(&b, &url, &[]).await;
        assert_eq!(
            served.status(),
            StatusCode::OK,
            "round {round}: the bytes are gone"
        );
        assert_eq!(served.bytes().await.unwrap().as_ref(), bytes.as_slice());
    }
}

#[tokio::test]
async fn a_body_malformed_after_its_files_records_nothing() {
    let server = TestServer::start().await;
    let (_, key) = server
        .user_with_key("trailer", &["uploads:write", "uploads:read"])
        .await;
    let image = png("trailer", 0);
    let file_part = |name: &str| {
        let mut part = format!(
            "--b\r\nContent-Disposition: form-data; name=\"file\"; filename=\"{name}\"\r\n\
             Content-Type: image/png\r\n\r\n"
        )
        .into_bytes();
        part.extend_from_slice(&image);
        part.extend_from_slice(b"\r\n");
        part
    };
    // A part header no HTTP parser reads (a control character in it), after the files.
    let trailer = b"--b\r\nContent-Disposition: form-data; name=\"x\x01\"\r\n\r\nhi\r\n--b--\r\n";
    for (path, files) in [("/uploads", 1), ("/openapi/v1/upload/image", 2)] {
        let mut body = Vec::new();
        for n in 0..files {
            body.extend(file_part(&format!("{n}.png")));
        }
        body.extend_from_slice(trailer);
        let reply = server
            .post_bytes(path, &key, "multipart/form-data; boundary=b", body)
            .await;
        assert_eq!(
            reply.status,
            StatusCode::BAD_REQUEST,
            "{path}: {}",
            reply.text
        );
        assert!(reply.text.contains("multipart"), "{path}: {}", reply.text);
    }
    let listed = server.get("/uploads", &key).await;
    assert_eq!(listed.primary_data()["total"], 0, "{}", listed.text);
    // The same files with a well-formed end are recorded.
    let mut body = file_part("ok.png");
    body.extend_from_slice(b"--b--\r\n");
    let reply = server
        .post_bytes("/uploads", &key, "multipart/form-data; boundary=b", body)
        .await;
    assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.text);
}

#[tokio::test]
async fn multipart_boundaries_are_held_to_rfc_2046() {
    let server = TestServer::start().await;
    let (_, key) = server
        .user_with_key("boundaries", &["uploads:write", "uploads:read"])
        .await;
    let image = png("boundary", 0);
    let body = |boundary: &str| {
        let mut body = format!(
            "--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"b.png\"\r\n\
             Content-Type: image/png\r\n\r\n"
        )
        .into_bytes();
        body.extend_from_slice(&image);
        body.extend_from_slice(format!("\r\n--{boundary}--\r\n").as_bytes());
        body
    };
    let long = "b".repeat(200);
    for (boundary, content_type) in [
        ("", "multipart/form-data; boundary=".to_owned()),
        (
            long.as_str(),
            format!("multipart/form-data; boundary={long}"),
        ),
        (
            "a{b}c",
            "multipart/form-data; boundary=\"a{b}c\"".to_owned(),
        ),
    ] {
        for path in ["/uploads", "/openapi/v1/upload/image"] {
            let reply = server
                .post_bytes(path, &key, &content_type, body(boundary))
                .await;
            assert_eq!(
                reply.status,
                StatusCode::BAD_REQUEST,
                "{path} {content_type}: {}",
                reply.text
            );
            assert!(reply.text.contains("boundary"), "{}", reply.text);
        }
    }
    let listed = server.get("/uploads", &key).await;
    assert_eq!(listed.primary_data()["total"], 0, "{}", listed.text);
    // Seventy characters, spaces and RFC 2046's punctuation included, are fine.
    let longest = format!("'()+_,-./:=? {}", "x".repeat(57));
    assert_eq!(longest.len(), 70);
    let reply = server
        .post_bytes(
            "/uploads",
            &key,
            &format!("multipart/form-data; boundary=\"{longest}\""),
            body(&longest),
        )
        .await;
    assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.text);
}
