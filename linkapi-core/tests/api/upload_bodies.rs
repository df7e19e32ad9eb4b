//! How upload bodies are read: the size cap while streaming, a body cut short or malformed
//! after its files (nothing recorded), and multipart boundaries held to RFC 2046.

use std::io::{Read, Write};
use std::time::Duration;

use reqwest::StatusCode;

use crate::images::png;
use crate::support::{Options, TestServer};
use crate::uploads::{UPLOAD_SCOPES, stored_files, upload};

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

#[tokio::test]
async fn a_client_that_writes_a_whole_oversized_upload_first_still_reads_the_413() {
    let server = TestServer::start_with(Options {
        max_file_bytes: 1 << 20,
        ..Options::default()
    })
    .await;
    let (_, key) = server.user_with_key("writer", UPLOAD_SCOPES).await;
    // A multipart body of `size` bytes of image, sent whole before the answer is read.
    let script = format!(
        r#"
import http.client, json
def send(path, size):
    boundary = "linkapi-test-boundary"
    head = ("--" + boundary + "\r\n"
            "Content-Disposition: form-data; name=\"file\"; filename=\"big.png\"\r\n"
            "Content-Type: image/png\r\n\r\n").encode()
    tail = ("\r\n--" + boundary + "--\r\n").encode()
    body = head + b"\x89PNG" + b"x" * size + tail
    conn = http.client.HTTPConnection("127.0.0.1", {port}, timeout=30)
    conn.request("POST", path, body=body, headers={{
        "Authorization": "Bearer {key}",
        "Content-Type": "multipart/form-data; boundary=" + boundary}})
    reply = conn.getresponse()
    data = reply.read()
    try:
        code = json.loads(data).get("code", "")
    except ValueError:
        code = ""
    print(reply.status, code)
send("/uploads", 2 << 20)
send("/openapi/v1/upload/image", 24 << 20)
"#,
        port = server.addr.port(),
    );
    let Some((out, err)) = crate::connections::run_python(script).await else {
        return;
    };
    let answers: Vec<&str> = out.lines().collect();
    assert_eq!(answers.len(), 2, "stdout: {out}\nstderr: {err}");
    assert_eq!(answers[0], "413 payload_too_large", "stderr: {err}");
    // The compatibility surface's errors carry no short name; the status is what counts.
    assert!(
        answers[1].starts_with("413"),
        "{}; stderr: {err}",
        answers[1]
    );
    assert!(stored_files(&server).is_empty());
}
