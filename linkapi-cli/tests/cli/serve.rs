//! `linkapi serve` as a newcomer runs it: the real binary, a fresh data directory, the key it
//! prints, a chain created over HTTP and its redirect followed.

#![allow(clippy::unwrap_used)]

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use serde_json::{Value, json};

/// A reqwest client that does not follow redirects (with the crypto provider reqwest needs).
fn http_client() -> reqwest::Client {
    let _ = rustls::crypto::ring::default_provider().install_default();
    reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap()
}

/// Kills the server when the test ends, however it ends.
struct Running(Child);

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Starts `linkapi serve` and returns it with the stderr lines it printed up to "listening".
fn start(data_dir: &std::path::Path, initial_key: Option<&str>) -> (Running, Vec<String>) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_linkapi"));
    cmd.args(["serve", "--listen", "127.0.0.1:0", "--data-dir"])
        .arg(data_dir)
        .env_remove("LINKAPI_INITIAL_API_KEY")
        .env("LINKAPI_LOG", "warn")
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    if let Some(key) = initial_key {
        cmd.env("LINKAPI_INITIAL_API_KEY", key);
    }
    let mut child = cmd.spawn().unwrap();
    let stderr = child.stderr.take().unwrap();
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let mut lines = Vec::new();
    loop {
        let line = rx
            .recv_timeout(Duration::from_secs(30))
            .expect("server started");
        let done = line.contains("listening on");
        lines.push(line);
        if done {
            break;
        }
    }
    (Running(child), lines)
}

fn address(lines: &[String]) -> String {
    let line = lines.iter().find(|l| l.contains("listening on")).unwrap();
    let start = line.find("http://").unwrap() + "http://".len();
    line[start..].split_whitespace().next().unwrap().to_owned()
}

#[tokio::test]
async fn first_start_prints_a_key_that_creates_a_working_short_link() {
    let dir = tempfile::tempdir().unwrap();
    let (_server, lines) = start(dir.path(), None);
    let key = lines
        .iter()
        .map(|l| l.trim())
        .find(|l| l.starts_with("lk_"))
        .expect("the first start prints the admin key")
        .to_owned();
    let addr = address(&lines);
    let client = http_client();
    let created: Value = client
        .post(format!("http://{addr}/chains"))
        .bearer_auth(&key)
        .json(&json!({"target_url": "https://example.com/hello"}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let render_url = created["data"]["render_url"].as_str().unwrap();
    assert!(
        render_url.starts_with(&format!("http://{addr}/")),
        "{render_url}"
    );
    let visit = client.get(render_url).send().await.unwrap();
    assert_eq!(visit.status(), reqwest::StatusCode::FOUND);
    assert_eq!(visit.headers()["location"], "https://example.com/hello");
    assert!(dir.path().join("linkapi.db").exists());
}

#[tokio::test]
async fn the_initial_key_comes_from_the_environment_and_is_not_printed() {
    let dir = tempfile::tempdir().unwrap();
    let key = "lk_from_the_environment_0001";
    let (_server, lines) = start(dir.path(), Some(key));
    assert!(!lines.iter().any(|l| l.contains(key)), "{lines:?}");
    let addr = address(&lines);
    let reply = http_client()
        .get(format!("http://{addr}/admin/users"))
        .bearer_auth(key)
        .send()
        .await
        .unwrap();
    assert_eq!(reply.status(), reqwest::StatusCode::OK);
}

#[tokio::test]
async fn a_second_start_creates_no_new_key() {
    let dir = tempfile::tempdir().unwrap();
    drop(start(dir.path(), None));
    let (_server, lines) = start(dir.path(), None);
    assert!(
        !lines.iter().any(|l| l.trim().starts_with("lk_")),
        "{lines:?}"
    );
}
