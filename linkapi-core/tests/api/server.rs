//! Server plumbing: health, unknown routes, methods, request ids, HTTP/2.

use reqwest::StatusCode;

use crate::support::{ADMIN_KEY, Reply, TestServer};

#[tokio::test]
async fn health_and_readiness() {
    let server = TestServer::start().await;
    let health = Reply::from(
        server
            .client
            .get(server.url("/healthz"))
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(health.primary_data()["status"], "ok");
    let ready = Reply::from(
        server
            .client
            .get(server.url("/readyz"))
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(ready.primary_data()["status"], "ready");
}

#[tokio::test]
async fn unknown_paths_and_wrong_methods() {
    let server = TestServer::start().await;
    let unknown = server.get("/no/such/path", ADMIN_KEY).await;
    unknown.assert_primary_error(StatusCode::NOT_FOUND, "not_found");
    // API prefixes are never treated as codes.
    server
        .get("/admin", ADMIN_KEY)
        .await
        .assert_primary_error(StatusCode::NOT_FOUND, "not_found");

    let wrong = server.delete("/groups", ADMIN_KEY).await;
    wrong.assert_primary_error(StatusCode::METHOD_NOT_ALLOWED, "method_not_allowed");
    assert_eq!(wrong.header("allow"), Some("GET, POST, HEAD"));
    let wrong = server.get("/admin/keys/3", ADMIN_KEY).await;
    assert_eq!(wrong.header("allow"), Some("DELETE"));
}

#[tokio::test]
async fn request_ids_are_echoed_or_made() {
    let server = TestServer::start().await;
    let made = server
        .client
        .get(server.url("/healthz"))
        .send()
        .await
        .unwrap();
    let id = made.headers()["x-request-id"].to_str().unwrap().to_owned();
    assert_eq!(id.len(), 16);
    let echoed = server
        .client
        .get(server.url("/healthz"))
        .header("x-request-id", "trace-abc-123")
        .send()
        .await
        .unwrap();
    assert_eq!(echoed.headers()["x-request-id"], "trace-abc-123");
}

#[tokio::test]
async fn http2_without_tls_is_served() {
    let server = TestServer::start().await;
    let client = crate::support::http_client(reqwest::Client::builder().http2_prior_knowledge());
    let reply = client
        .get(server.url("/chains"))
        .bearer_auth(ADMIN_KEY)
        .send()
        .await
        .unwrap();
    assert_eq!(reply.version(), reqwest::Version::HTTP_2);
    assert_eq!(reply.status(), StatusCode::OK);
}

#[tokio::test]
async fn a_body_that_trickles_in_gets_408_and_frees_the_connection() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let server = TestServer::start_with(crate::support::Options {
        body_read_timeout: std::time::Duration::from_millis(300),
        ..crate::support::Options::default()
    })
    .await;
    let mut stream = tokio::net::TcpStream::connect(server.addr).await.unwrap();
    let head = format!(
        "POST /chains HTTP/1.1\r\nHost: {}\r\nAuthorization: Bearer {ADMIN_KEY}\r\n\
         Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{{\"target_url\"",
        server.addr
    );
    stream.write_all(head.as_bytes()).await.unwrap();
    // ...and the rest of the promised 100 bytes never comes.
    let mut response = vec![0; 1024];
    let n = tokio::time::timeout(
        std::time::Duration::from_secs(5),
        stream.read(&mut response),
    )
    .await
    .expect("the server answers instead of waiting forever")
    .unwrap();
    let text = String::from_utf8_lossy(&response[..n]);
    assert!(text.starts_with("HTTP/1.1 408"), "{text}");
    assert!(text.contains("request_timeout"), "{text}");
}

/// Sends one keep-alive request on `stream` and returns the status line of the answer, or
/// `None` when nothing arrives within `wait`.
async fn exchange(
    stream: &mut tokio::net::TcpStream,
    host: std::net::SocketAddr,
    wait: std::time::Duration,
) -> Option<String> {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let request = format!("GET /healthz HTTP/1.1\r\nHost: {host}\r\n\r\n");
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut buf = vec![0; 1024];
    let n = tokio::time::timeout(wait, stream.read(&mut buf))
        .await
        .ok()?
        .unwrap();
    String::from_utf8_lossy(&buf[..n])
        .lines()
        .next()
        .map(str::to_owned)
}

#[tokio::test]
async fn connections_beyond_the_cap_wait_while_every_open_one_is_busy() {
    use std::time::Duration;
    use tokio::io::AsyncWriteExt;
    let server = TestServer::start_with(crate::support::Options {
        max_connections: 1,
        ..crate::support::Options::default()
    })
    .await;
    // The first connection is busy: its request's body is still coming.
    let mut first = tokio::net::TcpStream::connect(server.addr).await.unwrap();
    let body = b"{\"target_url\": \"https://e.com/\"}";
    let head = format!(
        "POST /chains HTTP/1.1\r\nHost: {}\r\nAuthorization: Bearer {ADMIN_KEY}\r\n\
         Content-Type: application/json\r\nContent-Length: {}\r\n\r\n",
        server.addr,
        body.len()
    );
    first.write_all(head.as_bytes()).await.unwrap();
    first.write_all(&body[..5]).await.unwrap();
    tokio::time::sleep(Duration::from_millis(100)).await;

    // So the second is not served...
    let mut second = tokio::net::TcpStream::connect(server.addr).await.unwrap();
    let waiting = exchange(&mut second, server.addr, Duration::from_millis(300)).await;
    assert_eq!(waiting, None, "served beyond the cap");

    // ...until the first's request is done: then the first, quiet, makes room.
    first.write_all(&body[5..]).await.unwrap();
    let mut buf = vec![0; 4096];
    let n = tokio::time::timeout(
        Duration::from_secs(5),
        tokio::io::AsyncReadExt::read(&mut first, &mut buf),
    )
    .await
    .expect("the busy request is answered")
    .unwrap();
    assert!(
        String::from_utf8_lossy(&buf[..n]).starts_with("HTTP/1.1 201"),
        "{}",
        String::from_utf8_lossy(&buf[..n])
    );
    let n = tokio::time::timeout(
        Duration::from_secs(5),
        tokio::io::AsyncReadExt::read(&mut second, &mut buf),
    )
    .await
    .expect("served once a slot is free")
    .unwrap();
    assert!(String::from_utf8_lossy(&buf[..n]).starts_with("HTTP/1.1 200 OK"));
}

#[tokio::test]
async fn idle_sockets_at_the_cap_make_room_for_new_clients() {
    use std::time::Duration;
    let server = TestServer::start_with(crate::support::Options {
        max_connections: 20,
        // Long enough that only displacing them can let a client in soon.
        header_read_timeout: Duration::from_secs(30),
        idle_timeout: Duration::from_secs(30),
        ..crate::support::Options::default()
    })
    .await;
    // A keep-alive client that made a request, then twice the cap of sockets that never send
    // a byte.
    let mut served_before = tokio::net::TcpStream::connect(server.addr).await.unwrap();
    let line = exchange(&mut served_before, server.addr, Duration::from_secs(5)).await;
    assert_eq!(line.as_deref(), Some("HTTP/1.1 200 OK"));
    let mut silent = Vec::new();
    for _ in 0..40 {
        silent.push(tokio::net::TcpStream::connect(server.addr).await.unwrap());
    }
    // Real clients still get in, one after another, each at once.
    for i in 0..5 {
        let mut client = tokio::net::TcpStream::connect(server.addr).await.unwrap();
        let line = exchange(&mut client, server.addr, Duration::from_secs(3)).await;
        assert_eq!(line.as_deref(), Some("HTTP/1.1 200 OK"), "client {i}");
    }
    // Those closed to make room were the silent ones: the keep-alive client is still served.
    let line = exchange(&mut served_before, server.addr, Duration::from_secs(3)).await;
    assert_eq!(line.as_deref(), Some("HTTP/1.1 200 OK"));
    // And the cap held: never more open than allowed (one more may wait at the door).
    let text = crate::metrics::scrape(&server, None).await;
    let open: i64 = text
        .lines()
        .find_map(|l| l.strip_prefix("linkapi_open_connections "))
        .and_then(|v| v.trim().parse().ok())
        .expect("the open-connections gauge");
    assert!(open <= 20, "{open} connections open with a cap of 20");
}

#[tokio::test]
async fn a_client_that_never_finishes_its_headers_is_cut_off() {
    use std::time::Duration;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let server = TestServer::start_with(crate::support::Options {
        header_read_timeout: Duration::from_millis(300),
        ..crate::support::Options::default()
    })
    .await;
    let mut stream = tokio::net::TcpStream::connect(server.addr).await.unwrap();
    stream
        .write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")
        .await
        .unwrap();
    // No blank line ever comes. The server must close (perhaps after a 408) rather than wait.
    let mut buf = Vec::new();
    let closed = tokio::time::timeout(Duration::from_secs(5), stream.read_to_end(&mut buf)).await;
    assert!(closed.is_ok(), "the connection was still open after 5 s");
    let text = String::from_utf8_lossy(&buf);
    assert!(
        text.is_empty() || text.starts_with("HTTP/1.1 408"),
        "{text}"
    );
}
