//! A real S3-compatible server for tests: `moto_server` (PyPI `moto[server]`) as a process of
//! its own on a free port, started by the first test that asks and shared by the test process;
//! each test gets a bucket of its own. A watchdog shell holds a pipe from this process and
//! stops the server when the pipe closes, however the process exits.
//!
//! Where moto is not installed, [`server`] returns `None` and S3 tests skip with a message,
//! unless the run requires it (`CI` or `LINKAPI_TEST_S3` set), when it panics: a CI run must
//! never pass by skipping. `.ci/run` installs it.

#![allow(dead_code, clippy::print_stderr)]

use std::process::{Child, Command, Stdio};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// The running server.
pub struct S3Server {
    /// `http://127.0.0.1:PORT`.
    pub endpoint: String,
    _watchdog: std::sync::Mutex<Child>,
}

static SERVER: OnceLock<Option<S3Server>> = OnceLock::new();
static BUCKETS: AtomicUsize = AtomicUsize::new(0);

/// Credentials moto accepts (any); set so the client signs requests as it would for AWS.
pub const ACCESS_KEY_ID: &str = "testing";
pub const SECRET_ACCESS_KEY: &str = "testing";
pub const REGION: &str = "us-east-1";

fn required() -> bool {
    ["CI", "LINKAPI_TEST_S3"]
        .iter()
        .any(|v| std::env::var_os(v).is_some_and(|v| !v.is_empty()))
}

/// How to get moto's server for the tests.
pub const INSTALL: &str = "pip install 'moto[server]'";

/// Whether moto's server is found.
pub fn installed() -> bool {
    find_moto().is_some()
}

/// The command that starts moto's server: its script, or its module where the script is not on
/// `PATH` (a fresh `pip install` under pyenv before a rehash).
fn find_moto() -> Option<String> {
    let found = Command::new("sh")
        .arg("-c")
        .arg("command -v moto_server")
        .output()
        .ok()?;
    let path = String::from_utf8_lossy(&found.stdout).trim().to_owned();
    if found.status.success() && !path.is_empty() {
        return Some(format!("'{path}'"));
    }
    let importable = Command::new("python3")
        .args(["-c", "import moto.server"])
        .status()
        .ok()?
        .success();
    importable.then(|| "python3 -m moto.server".to_owned())
}

/// The process's server, started on first use; `None` when moto is not installed and not
/// required.
pub fn server() -> Option<&'static S3Server> {
    SERVER
        .get_or_init(|| match find_moto() {
            Some(command) => Some(S3Server::start(&command)),
            None if required() => panic!(
                "an S3-compatible server is required for this run but moto_server was not \
                 found (pip install 'moto[server]')"
            ),
            None => {
                eprintln!("moto_server not found: skipping S3 tests (pip install 'moto[server]')");
                None
            }
        })
        .as_ref()
}

impl S3Server {
    fn start(command: &str) -> S3Server {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .map(|a| a.port())
            .expect("a free port");
        let script =
            format!("{command} -H 127.0.0.1 -p {port} >/dev/null 2>&1 & pid=$!; read _; kill $pid");
        let watchdog = Command::new("sh")
            .arg("-c")
            .arg(script)
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("moto_server starts");
        let endpoint = format!("http://127.0.0.1:{port}");
        let deadline = Instant::now() + Duration::from_secs(30);
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(
                Instant::now() < deadline,
                "moto_server did not start in 30 s"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
        S3Server {
            endpoint,
            _watchdog: std::sync::Mutex::new(watchdog),
        }
    }

    /// A new, empty bucket.
    pub async fn new_bucket(&self) -> String {
        let name = format!(
            "linkapi-test-{}-{}",
            std::process::id(),
            BUCKETS.fetch_add(1, Ordering::SeqCst)
        );
        let created = reqwest::Client::new()
            .put(format!("{}/{name}", self.endpoint))
            .send()
            .await
            .expect("create bucket");
        assert!(created.status().is_success(), "create bucket: {created:?}");
        name
    }

    /// The keys in `bucket` (moto answers unsigned requests).
    pub async fn keys(&self, bucket: &str) -> Vec<String> {
        let listing = reqwest::Client::new()
            .get(format!("{}/{bucket}?list-type=2", self.endpoint))
            .send()
            .await
            .expect("list bucket")
            .text()
            .await
            .expect("listing");
        listing
            .split("<Key>")
            .skip(1)
            .filter_map(|rest| rest.split_once("</Key>").map(|(key, _)| key.to_owned()))
            .collect()
    }
}
