//! What the tests of the real `linkapi-server` binary share: running it, its servers, a
//! deployment's directory and configuration.

#![allow(dead_code)] // each test binary uses its part

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Output, Stdio};
use std::sync::{Arc, Mutex};
use std::time::Duration;

pub const KEY: &str = "lk_operate_test_key_000000001";

/// The binary under test: this build's, or the one `LINKAPI_SERVER_BIN` names (a benchmark
/// measuring another build).
pub fn binary() -> Command {
    let path = std::env::var_os("LINKAPI_SERVER_BIN")
        .unwrap_or_else(|| env!("CARGO_BIN_EXE_linkapi-server").into());
    let mut cmd = Command::new(path);
    cmd.env_remove("LINKAPI_DATABASE_URL")
        .env_remove("LINKAPI_CONFIG")
        .env_remove("LINKAPI_DATA_DIR")
        .env("LINKAPI_LOG", "warn");
    cmd
}

/// Runs a data command to completion.
pub fn command(args: &[&str]) -> Output {
    binary().args(args).output().unwrap()
}

pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Lines of a server's log kept for a failing test to show: the last this many.
const LOG_KEPT: usize = 2_000;

/// A server process; stopped with SIGTERM (graceful) by `stop`, killed if a test fails first.
pub struct Running {
    pub child: Child,
    pub url: String,
    /// The last [`LOG_KEPT`] lines it wrote to stderr (warnings and errors: `LINKAPI_LOG`
    /// is `warn`).
    log: Arc<Mutex<std::collections::VecDeque<String>>>,
}

impl Running {
    /// Starts the binary with `args` and waits for the address it announces.
    pub fn start(args: &[&str]) -> Running {
        let mut child = binary()
            .args(args)
            .env("LINKAPI_INITIAL_API_KEY", KEY)
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let stderr = child.stderr.take().unwrap();
        let (tx, rx) = std::sync::mpsc::channel();
        let log = Arc::new(Mutex::new(std::collections::VecDeque::new()));
        let kept = log.clone();
        // Reads stderr to its end, so the server never blocks on a full pipe.
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                {
                    let mut kept = kept.lock().unwrap();
                    if kept.len() == LOG_KEPT {
                        kept.pop_front();
                    }
                    kept.push_back(line.clone());
                }
                if let Some(rest) = line.split("listening on http://").nth(1) {
                    let addr = rest
                        .split_whitespace()
                        .next()
                        .unwrap_or_default()
                        .to_owned();
                    let _ = tx.send(addr);
                }
            }
        });
        let addr = rx
            .recv_timeout(Duration::from_secs(60))
            .expect("the server announces its address");
        Running {
            child,
            url: format!("http://{addr}"),
            log,
        }
    }

    /// What the server wrote to its log so far (the last [`LOG_KEPT`] lines).
    pub fn log(&self) -> Vec<String> {
        self.log.lock().unwrap().iter().cloned().collect()
    }

    /// SIGTERM, then waits: the server drains and writes what it holds.
    pub fn stop(mut self) {
        let pid = self.child.id().to_string();
        let status = Command::new("kill").args(["-TERM", &pid]).status().unwrap();
        assert!(status.success());
        let exit = self.child.wait().unwrap();
        assert!(exit.success(), "the server stopped cleanly: {exit:?}");
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

pub fn client() -> reqwest::Client {
    let _ = rustls::crypto::ring::default_provider().install_default();
    reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap()
}

/// A deployment's data directory and configuration file (rate limits off), in a temp dir.
pub struct Deployment {
    pub dir: tempfile::TempDir,
    pub data: String,
    pub config: String,
}

impl Deployment {
    pub fn new() -> Deployment {
        let dir = tempfile::tempdir().unwrap();
        let config = dir.path().join("linkapi.toml");
        std::fs::write(&config, "rate_limit_per_second = 0\n").unwrap();
        Deployment {
            data: path_arg(&dir.path().join("data")),
            config: path_arg(&config),
            dir,
        }
    }

    /// A server on this deployment, on a port of its own, with `extra` flags.
    pub fn serve(&self, extra: &[&str]) -> Running {
        let mut args = vec![
            "--listen",
            "127.0.0.1:0",
            "--data-dir",
            &self.data,
            "--config",
            &self.config,
        ];
        args.extend_from_slice(extra);
        Running::start(&args)
    }
}

pub fn path_arg(path: &Path) -> String {
    path.to_str().unwrap().to_owned()
}

/// A new user, made with the admin key from `user` (the body of `POST /admin/users`), and
/// `keys` keys of theirs with `scopes`.
pub async fn user_with_keys(
    http: &reqwest::Client,
    base: &str,
    user: &serde_json::Value,
    scopes: &[&str],
    keys: usize,
) -> Vec<String> {
    let made: serde_json::Value = http
        .post(format!("{base}/admin/users"))
        .bearer_auth(KEY)
        .json(user)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let mut issued = Vec::new();
    for _ in 0..keys {
        let key: serde_json::Value = http
            .post(format!("{base}/admin/keys"))
            .bearer_auth(KEY)
            .json(&serde_json::json!({"user_id": made["data"]["id"], "scopes": scopes}))
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        issued.push(key["data"]["api_key"].as_str().unwrap().to_owned());
    }
    issued
}
