//! The server tried as an attacker would: sockets that connect and say nothing, headers that
//! trickle in, idle HTTP/2 connections, bodies far over the limit, a shutdown with connections
//! that will not finish.

use std::time::{Duration, Instant};

use reqwest::StatusCode;
use serde_json::json;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

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

#[tokio::test]
async fn a_client_that_writes_its_whole_body_first_still_reads_the_413() {
    let python = std::process::Command::new("python3")
        .arg("--version")
        .output();
    if python.is_err() {
        assert!(
            std::env::var_os("CI").is_none(),
            "python3 is needed for this test in CI"
        );
        eprintln!("python3 not found: skipping");
        return;
    }
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
    let out = tokio::task::spawn_blocking(move || {
        std::process::Command::new("python3")
            .arg("-c")
            .arg(script)
            .output()
    })
    .await
    .unwrap()
    .unwrap();
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim(),
        "413 payload_too_large",
        "stderr: {}",
        String::from_utf8_lossy(&out.stderr)
    );
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
