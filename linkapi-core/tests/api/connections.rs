//! Connections: sockets that connect and say nothing, headers and bodies that trickle in, a
//! flood of headers, idle HTTP/2 connections, the cap on open connections, bodies far over the
//! limit, a shutdown with connections idle, in flight, or that will not finish.

use std::time::{Duration, Instant};

use reqwest::StatusCode;
use serde_json::json;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use crate::input::raw;
use crate::support::{ADMIN_KEY, Options, TestServer};

/// How many hostile sockets the flood tests open: more than the old cap of 1,024.
const FLOOD: usize = 1_100;

/// Reads until the server closes the connection; `None` when it is still open after `wait`.
async fn closed_within(stream: &mut TcpStream, wait: Duration) -> Option<Vec<u8>> {
    let mut seen = Vec::new();
    tokio::time::timeout(wait, stream.read_to_end(&mut seen))
        .await
        .ok()
        .map(|_| seen)
}

/// One request on a new connection, timed from connecting to the status line.
async fn fresh_request(server: &TestServer, path: &str) -> (String, Duration) {
    let started = Instant::now();
    let mut stream = TcpStream::connect(server.addr).await.unwrap();
    let request = format!(
        "GET {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\r\n",
        server.host
    );
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut buf = vec![0; 256];
    let n = tokio::time::timeout(Duration::from_secs(5), stream.read(&mut buf))
        .await
        .expect("an answer within 5 s")
        .unwrap();
    let line = String::from_utf8_lossy(&buf[..n])
        .lines()
        .next()
        .unwrap_or_default()
        .to_owned();
    (line, started.elapsed())
}

fn allow_many_sockets() {
    // Each hostile socket costs this process two descriptors (client and server side).
    #[cfg(unix)]
    let _ = rlimit::increase_nofile_limit(8 * FLOOD as u64);
}

#[tokio::test]
async fn a_socket_that_sends_nothing_is_closed_at_the_header_timeout() {
    let server = TestServer::start_with(Options {
        header_read_timeout: Duration::from_millis(300),
        ..Options::default()
    })
    .await;
    let started = Instant::now();
    let mut silent = TcpStream::connect(server.addr).await.unwrap();
    let seen = closed_within(&mut silent, Duration::from_secs(5))
        .await
        .expect("the silent socket was closed");
    let took = started.elapsed();
    assert!(
        took >= Duration::from_millis(250),
        "closed too early: {took:?}"
    );
    assert!(
        seen.is_empty() || seen.starts_with(b"HTTP/1.1 408"),
        "{}",
        String::from_utf8_lossy(&seen)
    );
}

#[tokio::test]
async fn headers_trickled_in_are_cut_off_at_the_header_timeout() {
    let server = TestServer::start_with(Options {
        header_read_timeout: Duration::from_millis(500),
        ..Options::default()
    })
    .await;
    let mut trickler = TcpStream::connect(server.addr).await.unwrap();
    let started = Instant::now();
    let head =
        b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";
    for byte in head {
        if trickler.write_all(&[*byte]).await.is_err() {
            break; // the server hung up: what this test wants
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
        assert!(
            started.elapsed() < Duration::from_secs(5),
            "a trickling client was kept for 5 s"
        );
    }
    closed_within(&mut trickler, Duration::from_secs(3))
        .await
        .expect("the trickling socket was closed");
}

#[tokio::test]
async fn eleven_hundred_quiet_or_trickling_sockets_do_not_delay_new_clients() {
    allow_many_sockets();
    let server = TestServer::start().await;
    let (_, key) = server.full_user("flooded").await;
    server
        .create_chain(&key, json!({"target_url": "https://e.com/", "code": "up"}))
        .await;

    // Half the flood connects and says nothing; the other half sends a header byte a second.
    let mut silent = Vec::with_capacity(FLOOD / 2);
    for _ in 0..FLOOD / 2 {
        silent.push(TcpStream::connect(server.addr).await.unwrap());
    }
    let mut tricklers = Vec::with_capacity(FLOOD / 2);
    for _ in 0..FLOOD / 2 {
        let mut stream = TcpStream::connect(server.addr).await.unwrap();
        stream.write_all(b"G").await.unwrap();
        tricklers.push(stream);
    }
    let trickle = tokio::spawn(async move {
        for byte in b"ET /healthz HTTP/1.1\r\n" {
            tokio::time::sleep(Duration::from_secs(1)).await;
            for stream in &mut tricklers {
                let _ = stream.write_all(&[*byte]).await;
            }
        }
    });
    // Let the server take them all in.
    tokio::time::sleep(Duration::from_millis(300)).await;

    for _ in 0..5 {
        let (health, took) = fresh_request(&server, "/healthz").await;
        assert_eq!(health, "HTTP/1.1 200 OK");
        assert!(took < Duration::from_millis(100), "/healthz took {took:?}");
        let (redirect, took) = fresh_request(&server, "/up").await;
        assert_eq!(redirect, "HTTP/1.1 302 Found");
        assert!(
            took < Duration::from_millis(100),
            "a redirect took {took:?}"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    trickle.abort();
    drop(silent);
}

/// An HTTP/2 frame: 24-bit length, type, flags, stream id, payload.
fn frame(kind: u8, flags: u8, stream: u32, payload: &[u8]) -> Vec<u8> {
    let mut out = (payload.len() as u32).to_be_bytes()[1..].to_vec();
    out.extend([kind, flags]);
    out.extend(stream.to_be_bytes());
    out.extend(payload);
    out
}

/// The frame types in `bytes`, in order.
fn frame_types(mut bytes: &[u8]) -> Vec<u8> {
    let mut types = Vec::new();
    while bytes.len() >= 9 {
        let len = u32::from_be_bytes([0, bytes[0], bytes[1], bytes[2]]) as usize;
        types.push(bytes[3]);
        bytes = &bytes[(9 + len).min(bytes.len())..];
    }
    types
}

#[tokio::test]
async fn an_idle_http2_connection_is_closed_with_goaway() {
    const HEADERS: u8 = 0x1;
    const GOAWAY: u8 = 0x7;
    let server = TestServer::start_with(Options {
        idle_timeout: Duration::from_millis(400),
        ..Options::default()
    })
    .await;
    let mut stream = TcpStream::connect(server.addr).await.unwrap();
    let mut hello = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".to_vec();
    hello.extend(frame(0x4, 0, 0, &[])); // SETTINGS, empty
    // GET /healthz: HPACK static-table entries for :method GET and :scheme http, literal
    // :path and :authority.
    let mut block = vec![0x82, 0x86, 0x44, 8];
    block.extend(b"/healthz");
    block.extend([0x41, 9]);
    block.extend(b"localhost");
    hello.extend(frame(HEADERS, 0x5, 1, &block)); // END_STREAM | END_HEADERS
    stream.write_all(&hello).await.unwrap();
    let started = Instant::now();
    let seen = closed_within(&mut stream, Duration::from_secs(5))
        .await
        .expect("the idle HTTP/2 connection was closed");
    assert!(
        started.elapsed() >= Duration::from_millis(350),
        "closed before it was idle for the timeout"
    );
    let types = frame_types(&seen);
    let answered = types.iter().position(|t| *t == HEADERS);
    let goaway = types.iter().position(|t| *t == GOAWAY);
    assert!(
        answered.is_some() && goaway > answered,
        "expected the answer, then GOAWAY: {types:?}"
    );
}

/// Runs a Python script (Python's `http.client` writes a whole body before it reads the
/// answer, as many clients do); its stdout and stderr, or `None` where Python is missing and
/// the run does not require it.
pub(crate) async fn run_python(script: String) -> Option<(String, String)> {
    if std::process::Command::new("python3")
        .arg("--version")
        .output()
        .is_err()
    {
        assert!(
            std::env::var_os("CI").is_none(),
            "python3 is needed for this test in CI"
        );
        eprintln!("python3 not found: skipping");
        return None;
    }
    let out = tokio::task::spawn_blocking(move || {
        std::process::Command::new("python3")
            .arg("-c")
            .arg(script)
            .output()
    })
    .await
    .unwrap()
    .unwrap();
    Some((
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    ))
}

#[tokio::test]
async fn a_client_that_writes_its_whole_body_first_still_reads_the_413() {
    let server = TestServer::start_with(Options {
        max_body_bytes: 1 << 20,
        ..Options::default()
    })
    .await;
    // Python's http.client sends the whole body, then reads the answer.
    let script = format!(
        r#"
import http.client, json
conn = http.client.HTTPConnection("127.0.0.1", {port}, timeout=30)
body = json.dumps({{"target_url": "https://e.com/" + "x" * (8 << 20)}}).encode()
conn.request("POST", "/chains", body=body, headers={{
    "Authorization": "Bearer {key}", "Content-Type": "application/json"}})
reply = conn.getresponse()
print(reply.status, json.loads(reply.read())["code"])
"#,
        port = server.addr.port(),
        key = ADMIN_KEY
    );
    let Some((out, err)) = run_python(script).await else {
        return;
    };
    assert_eq!(out.trim(), "413 payload_too_large", "stderr: {err}");
    // And the server is none the worse for it.
    let listed = server.get("/chains", ADMIN_KEY).await;
    assert_eq!(listed.status, StatusCode::OK);
    assert_eq!(listed.primary_data()["total"], 0);
}

#[tokio::test]
async fn shutdown_closes_connections_still_open_after_the_grace_period() {
    let mut server = TestServer::start_with(Options {
        grace_period: Duration::from_millis(500),
        ..Options::default()
    })
    .await;
    // A request whose body never finishes keeps its connection busy past any grace period.
    let mut stuck = TcpStream::connect(server.addr).await.unwrap();
    let head = format!(
        "POST /chains HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {ADMIN_KEY}\r\n\
         Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{{"
    );
    stuck.write_all(head.as_bytes()).await.unwrap();
    tokio::time::sleep(Duration::from_millis(100)).await;

    let started = Instant::now();
    tokio::time::timeout(Duration::from_secs(5), server.stop())
        .await
        .expect("shutdown ends within the grace period, not when the client gives up");
    assert!(started.elapsed() >= Duration::from_millis(400));
    closed_within(&mut stuck, Duration::from_secs(2))
        .await
        .expect("the stuck connection was closed");
}

#[tokio::test]
async fn a_stopping_server_answers_what_is_in_flight_and_closes_idle_connections_at_once() {
    let mut server = TestServer::start_with(Options {
        grace_period: Duration::from_secs(10),
        ..Options::default()
    })
    .await;
    // A keep-alive connection that was answered once and is idle now.
    let mut idle = TcpStream::connect(server.addr).await.unwrap();
    let status = exchange(&mut idle, server.addr, Duration::from_secs(5)).await;
    assert!(status.is_some_and(|line| line.contains("200")));
    // A create whose body is still on its way when the server is asked to stop.
    let body = json!({"target_url": "https://example.com/late", "code": "late"}).to_string();
    let (first, rest) = body.split_at(body.len() / 2);
    let mut busy = TcpStream::connect(server.addr).await.unwrap();
    let head = format!(
        "POST /chains HTTP/1.1\r\nHost: {}\r\nAuthorization: Bearer {ADMIN_KEY}\r\n\
         Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{first}",
        server.host,
        body.len()
    );
    busy.write_all(head.as_bytes()).await.unwrap();
    tokio::time::sleep(Duration::from_millis(100)).await;

    let started = Instant::now();
    let stopping = tokio::spawn(async move {
        server.stop().await;
        server
    });
    closed_within(&mut idle, Duration::from_secs(2))
        .await
        .expect("the idle connection is closed at once, not at the grace period's end");
    tokio::time::sleep(Duration::from_millis(100)).await;
    busy.write_all(rest.as_bytes()).await.unwrap();
    let answer = closed_within(&mut busy, Duration::from_secs(5))
        .await
        .expect("the request in flight is answered, then its connection closed");
    let answer = String::from_utf8_lossy(&answer);
    assert!(answer.starts_with("HTTP/1.1 201"), "{answer}");
    assert!(answer.contains("\"code\":\"late\""), "{answer}");
    let server = stopping.await.unwrap();
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "the stop waited for what was in flight only"
    );
    // What it acknowledged was kept.
    let server = server.restart().await;
    let found = server.get("/chains?q=late", ADMIN_KEY).await;
    assert_eq!(found.status, StatusCode::OK);
    assert_eq!(found.primary_data()["total"], 1);
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

#[tokio::test]
async fn a_flood_of_headers_is_refused_and_the_next_client_is_served() {
    let server = TestServer::start().await;
    let mut request = String::from("GET /healthz HTTP/1.1\r\nHost: x\r\n");
    for i in 0..500 {
        request.push_str(&format!("X-Flood-{i}: {}\r\n", "v".repeat(100)));
    }
    request.push_str("Connection: close\r\n\r\n");
    let answer = raw(&server, request.as_bytes()).await;
    assert!(
        answer.is_empty() || answer.starts_with("HTTP/1.1 431"),
        "{answer}"
    );
    let answer = raw(
        &server,
        b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
    )
    .await;
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
}
