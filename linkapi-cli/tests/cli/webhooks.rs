//! `linkapi webhook ...` through the real binary, `listen` as the receiving process.

use std::io::BufRead;
use std::process::Stdio;
use std::time::Duration;

use crate::support::{Home, TestServer};

/// A free port on loopback (bound, then released for the receiver to take).
fn free_port() -> u16 {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    listener.local_addr().unwrap().port()
}

/// Kills the receiver however the test ends.
struct Receiver(std::process::Child);

impl Drop for Receiver {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Starts `linkapi webhook listen --json` on `port` checking signatures with `secret`, and
/// waits until it accepts connections; the lines it prints come on the channel.
fn listen(home: &Home, port: u16, secret: &str) -> (Receiver, std::sync::mpsc::Receiver<String>) {
    let mut cmd = home.cmd();
    cmd.args(["webhook", "listen", "--port", &port.to_string(), "--json"])
        .env("LINKAPI_WEBHOOK_SECRET", secret)
        .stdout(Stdio::piped())
        .stderr(Stdio::null());
    let mut receiver = Receiver(cmd.spawn().unwrap());
    let stdout = receiver.0.stdout.take().unwrap();
    let (lines_tx, lines) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in std::io::BufReader::new(stdout)
            .lines()
            .map_while(Result::ok)
        {
            if lines_tx.send(line).is_err() {
                return;
            }
        }
    });
    let started = std::time::Instant::now();
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "the receiver listens"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    (receiver, lines)
}

#[test]
fn endpoints_are_managed_and_events_reach_a_listening_receiver() {
    let server = TestServer::start_with_config(Some("webhook_allow_private = true\n"));
    let home = Home::new();
    let port = free_port();
    let url = format!("http://127.0.0.1:{port}/");
    let added = home
        .admin(
            &server,
            &[
                "webhook",
                "add",
                &url,
                "--events",
                "chain.created,chain.deleted",
                "--json",
            ],
        )
        .json();
    let id = added["id"].to_string();
    let secret = added["secret"].as_str().unwrap().to_owned();
    assert!(secret.starts_with("whsec_"));
    assert_eq!(
        added["events"],
        serde_json::json!(["chain.created", "chain.deleted"])
    );
    let listed = home.admin(&server, &["webhook", "list", "--json"]).json();
    assert_eq!(listed[0]["url"], url);
    assert!(listed[0].get("secret").is_none());

    // The receiver: `linkapi webhook listen`, checking signatures with the secret.
    let (_receiver, lines) = listen(&home, port, &secret);

    let chain = home
        .admin(
            &server,
            &["chain", "create", "https://example.com/hooked", "--json"],
        )
        .json();
    let line = lines
        .recv_timeout(Duration::from_secs(10))
        .expect("an event");
    let event: serde_json::Value = serde_json::from_str(&line).unwrap();
    assert_eq!(event["type"], "chain.created");
    assert_eq!(event["data"]["code"], chain["code"]);
    // The receiver verified it (a refused signature answers 400, listed as a failure).
    let deliveries = home
        .admin(&server, &["webhook", "deliveries", &id, "--json"])
        .json();
    assert_eq!(deliveries[0]["ok"], true, "{deliveries}");
    assert_eq!(deliveries[0]["status"], 204);

    // A rotated secret the receiver does not know: still verified, by the old one (a day).
    home.admin(&server, &["webhook", "rotate-secret", &id, "--json"])
        .json();
    let test_id = home
        .admin(&server, &["webhook", "test", &id])
        .ok()
        .trim()
        .to_owned();
    let line = lines
        .recv_timeout(Duration::from_secs(10))
        .expect("the test event");
    assert!(line.contains("webhook.test"), "{line}");
    let failed = home
        .admin(
            &server,
            &["webhook", "deliveries", &id, "--failed", "--json"],
        )
        .json();
    assert_eq!(failed, serde_json::json!([]), "test {test_id}");

    // Disabled, nothing is sent; deleted, it is gone.
    let edited = home
        .admin(&server, &["webhook", "edit", &id, "--disable", "--json"])
        .json();
    assert_eq!(edited["enabled"], false);
    home.admin(
        &server,
        &["chain", "create", "https://example.com/quiet", "--json"],
    )
    .ok();
    assert!(lines.recv_timeout(Duration::from_millis(500)).is_err());
    home.admin(&server, &["webhook", "delete", &id, "--yes"])
        .ok();
    let stderr = home
        .admin(&server, &["webhook", "info", &id])
        .fails(1)
        .to_owned();
    assert!(stderr.contains("not found"), "{stderr}");
}

/// `linkapi` against the server at `address` with `key`.
fn against(home: &Home, address: &str, key: &str, args: &[&str]) -> crate::support::Run {
    let mut cmd = home.cmd();
    cmd.env("LINKAPI_HOST", format!("http://{address}"))
        .env("LINKAPI_API_KEY", key);
    home.run_with(cmd, args, None)
}

#[test]
fn an_event_committed_before_the_server_is_killed_is_delivered_after_it_restarts() {
    use crate::serve::{Data, address, start_logging};
    const KEY: &str = "lk_webhook_crash_test_key_0000000001";
    let home = Home::new();
    let data = Data::new();
    let config = data.dir.path().join("linkapi.toml");
    std::fs::write(&config, "webhook_allow_private = true\n").unwrap();
    let config = config.to_string_lossy().into_owned();
    let serve_args = ["--listen", "127.0.0.1:0", "--config", &config];
    let (mut first, lines, _) = start_logging(&home, &data, Some(KEY), "warn", &serve_args);
    let first_address = address(&lines);

    // The receiver is not there yet: the event is committed, its first attempt refused.
    let port = free_port();
    let url = format!("http://127.0.0.1:{port}/");
    let added = against(
        &home,
        &first_address,
        KEY,
        &[
            "webhook",
            "add",
            &url,
            "--events",
            "chain.created",
            "--json",
        ],
    )
    .json();
    let (id, secret) = (
        added["id"].to_string(),
        added["secret"].as_str().unwrap().to_owned(),
    );
    let chain = against(
        &home,
        &first_address,
        KEY,
        &["chain", "create", "https://example.com/survives", "--json"],
    )
    .json();
    let started = std::time::Instant::now();
    loop {
        let attempts = against(
            &home,
            &first_address,
            KEY,
            &["webhook", "deliveries", &id, "--json"],
        )
        .json();
        if attempts.as_array().is_some_and(|a| !a.is_empty()) {
            assert_eq!(attempts[0]["ok"], false, "{attempts}");
            break;
        }
        assert!(started.elapsed() < Duration::from_secs(10), "an attempt");
        std::thread::sleep(Duration::from_millis(50));
    }
    // kill -9: no shutdown, nothing flushed or finished.
    first.0.kill().unwrap();
    first.0.wait().unwrap();

    let (_receiver, received) = listen(&home, port, &secret);
    let (_second, _, _) = start_logging(&home, &data, None, "warn", &serve_args);
    // The retry falls due about 5 s after the refused attempt; the restarted server sends it.
    let line = received
        .recv_timeout(Duration::from_secs(20))
        .expect("the event, after the restart");
    let event: serde_json::Value = serde_json::from_str(&line).unwrap();
    assert_eq!(event["type"], "chain.created");
    assert_eq!(event["data"]["code"], chain["code"]);
}
