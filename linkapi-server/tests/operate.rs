//! The operator's commands through the real `linkapi-server` binary: an online backup taken
//! while the server writes, restored into a stopped deployment; and a SQLite deployment moved
//! to PostgreSQL and served from there.

#![allow(clippy::unwrap_used)]

use std::collections::HashSet;
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Output, Stdio};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{Value, json};

#[path = "../../linkapi-core/tests/pg_cluster.rs"]
mod pg_cluster;

const KEY: &str = "lk_operate_test_key_000000001";

fn binary() -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_linkapi-server"));
    cmd.env_remove("LINKAPI_DATABASE_URL")
        .env_remove("LINKAPI_CONFIG")
        .env_remove("LINKAPI_DATA_DIR")
        .env("LINKAPI_LOG", "warn");
    cmd
}

/// Runs a data command to completion.
fn command(args: &[&str]) -> Output {
    binary().args(args).output().unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A server process; stopped with SIGTERM (graceful) by `stop`, killed if a test fails first.
struct Running {
    child: Child,
    url: String,
}

impl Running {
    /// Starts the binary with `args` and waits for the address it announces.
    fn start(args: &[&str]) -> Running {
        let mut child = binary()
            .args(args)
            .env("LINKAPI_INITIAL_API_KEY", KEY)
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let stderr = child.stderr.take().unwrap();
        let (tx, rx) = std::sync::mpsc::channel();
        // Reads stderr to its end, so the server never blocks on a full pipe.
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
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
        }
    }

    /// SIGTERM, then waits: the server drains and writes what it holds.
    fn stop(mut self) {
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

fn client() -> reqwest::Client {
    let _ = rustls::crypto::ring::default_provider().install_default();
    reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap()
}

async fn create(client: &reqwest::Client, url: &str, target: &str) -> Value {
    let reply = client
        .post(format!("{url}/chains"))
        .bearer_auth(KEY)
        .json(&json!({ "target_url": target }))
        .send()
        .await
        .unwrap();
    assert_eq!(reply.status(), 201);
    reply.json::<Value>().await.unwrap()["data"].clone()
}

/// The target URLs of every chain the server lists.
async fn targets(client: &reqwest::Client, url: &str) -> HashSet<String> {
    let mut found = HashSet::new();
    for page in 1.. {
        let body: Value = client
            .get(format!("{url}/chains?page={page}&page_size=100"))
            .bearer_auth(KEY)
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        let items = body["data"]["list"].as_array().unwrap().clone();
        for item in &items {
            found.insert(item["target_url"].as_str().unwrap().to_owned());
        }
        if items.len() < 100 {
            break;
        }
    }
    found
}

/// A deployment's data directory and configuration file (rate limits off), in a temp dir.
struct Deployment {
    dir: tempfile::TempDir,
    data: String,
    config: String,
}

impl Deployment {
    fn new() -> Deployment {
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
    fn serve(&self, extra: &[&str]) -> Running {
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

fn path_arg(path: &Path) -> String {
    path.to_str().unwrap().to_owned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_online_backup_holds_every_acknowledged_write_and_restores() {
    let deployment = Deployment::new();
    let data_arg = deployment.data.clone();
    let server = deployment.serve(&[]);
    let http = client();
    for i in 0..40 {
        create(&http, &server.url, &format!("https://before.example/{i}")).await;
    }

    // Writers keep creating while the backup runs; each records what it was told.
    let acknowledged = Arc::new(Mutex::new(Vec::<String>::new()));
    let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let writers: Vec<_> = (0..8)
        .map(|w| {
            let (http, url) = (http.clone(), server.url.clone());
            let (acknowledged, stop) = (acknowledged.clone(), stop.clone());
            tokio::spawn(async move {
                let mut n = 0;
                while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                    let target = format!("https://during.example/{w}/{n}");
                    create(&http, &url, &target).await;
                    acknowledged.lock().unwrap().push(target);
                    n += 1;
                }
            })
        })
        .collect();
    tokio::time::sleep(Duration::from_millis(300)).await;
    let backup_arg = path_arg(&deployment.dir.path().join("backup.db"));
    let before_backup: Vec<String> = acknowledged.lock().unwrap().clone();
    let out = tokio::task::spawn_blocking({
        let (data_arg, backup_arg) = (data_arg.clone(), backup_arg.clone());
        move || command(&["backup", "--data-dir", &data_arg, "--to", &backup_arg])
    })
    .await
    .unwrap();
    let after_backup: Vec<String> = acknowledged.lock().unwrap().clone();
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    for writer in writers {
        writer.await.unwrap();
    }
    assert!(out.status.success(), "{}", text(&out.stderr));
    let report = text(&out.stdout);
    assert!(report.contains("integrity ok"), "{report}");
    assert!(
        !before_backup.is_empty(),
        "writes were under way when the backup began"
    );
    create(&http, &server.url, "https://after.example/").await;

    // The same name again is refused, and nothing is overwritten.
    let again = command(&["backup", "--data-dir", &data_arg, "--to", &backup_arg]);
    assert_eq!(again.status.code(), Some(1));
    assert!(text(&again.stderr).contains("already exists"));

    // A restore under a running server is refused.
    let refused = command(&["restore", "--data-dir", &data_arg, "--from", &backup_arg]);
    assert_eq!(refused.status.code(), Some(1));
    assert!(
        text(&refused.stderr).contains("stop it first"),
        "{}",
        text(&refused.stderr)
    );
    // So is a second server on the same data.
    let second = binary()
        .args(["--listen", "127.0.0.1:0", "--data-dir", &data_arg])
        .output()
        .unwrap();
    assert_eq!(second.status.code(), Some(1));
    assert!(text(&second.stderr).contains("stop it first"));

    server.stop();
    let restored = command(&["restore", "--data-dir", &data_arg, "--from", &backup_arg]);
    assert!(restored.status.success(), "{}", text(&restored.stderr));
    assert!(text(&restored.stdout).contains("kept as"));

    let server = deployment.serve(&[]);
    let found = targets(&http, &server.url).await;
    for i in 0..40 {
        assert!(found.contains(&format!("https://before.example/{i}")));
    }
    for target in &before_backup {
        assert!(
            found.contains(target),
            "{target} was acknowledged before the backup"
        );
    }
    let during: HashSet<&String> = found.iter().filter(|t| t.contains("during")).collect();
    assert!(during.len() <= after_backup.len());
    for target in &during {
        assert!(after_backup.contains(target), "only acknowledged writes");
    }
    assert!(
        !found.contains("https://after.example/"),
        "a write after the snapshot"
    );
    // The restored deployment serves: its key works and its links redirect.
    let chain = create(&http, &server.url, "https://restored.example/").await;
    let code = chain["render_url"]
        .as_str()
        .unwrap()
        .rsplit('/')
        .next()
        .unwrap()
        .to_owned();
    let visit = http
        .get(format!("{}/{code}", server.url))
        .send()
        .await
        .unwrap();
    assert_eq!(visit.status(), 302);
    server.stop();
}

#[test]
fn a_postgresql_deployment_is_pointed_to_its_own_tools() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("linkapi.toml");
    std::fs::write(
        &config,
        "database_url = \"postgres://app:s3cret@db.internal/links\"\n",
    )
    .unwrap();
    let out = command(&[
        "backup",
        "--config",
        config.to_str().unwrap(),
        "--to",
        dir.path().join("b.db").to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(err.contains("pg_dump"), "{err}");
    assert!(!err.contains("s3cret"), "{err}");
    let missing = command(&[
        "restore",
        "--data-dir",
        dir.path().to_str().unwrap(),
        "--from",
        dir.path().join("nothing.db").to_str().unwrap(),
    ]);
    assert_eq!(missing.status.code(), Some(1));
    assert!(text(&missing.stderr).contains("does not exist"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_sqlite_deployment_moves_to_postgresql_and_serves_from_there() {
    let Some(cluster) = pg_cluster::cluster() else {
        return; // PostgreSQL is not installed and not required here.
    };
    let target = cluster.new_database();
    let deployment = Deployment::new();
    let server = deployment.serve(&["--public-url", "https://go.example.com"]);
    let http = client();
    let mut codes = Vec::new();
    for i in 0..30 {
        let chain = create(&http, &server.url, &format!("https://moved.example/{i}")).await;
        codes.push(chain["render_url"].as_str().unwrap().to_owned());
    }
    let from = format!("sqlite:{}", deployment.data);
    let refused = command(&["migrate", "--from", &from, "--to", &target]);
    assert_eq!(refused.status.code(), Some(1));
    assert!(text(&refused.stderr).contains("stop it first"));
    server.stop();

    let out = command(&["migrate", "--from", &from, "--to", &target]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let report = text(&out.stdout);
    assert!(
        report.contains("row counts and checksums match"),
        "{report}"
    );
    assert!(
        report
            .lines()
            .any(|l| l.trim_start().starts_with("chains") && l.contains(" 30 rows")),
        "{report}"
    );
    assert!(
        text(&out.stderr).contains("chains: 30"),
        "progress: {}",
        text(&out.stderr)
    );

    // Into a target that now has data only when told to replace it.
    let again = command(&["migrate", "--from", &from, "--to", &target]);
    assert_eq!(again.status.code(), Some(1));
    assert!(
        text(&again.stderr).contains("--replace"),
        "{}",
        text(&again.stderr)
    );
    let replaced = command(&["migrate", "--from", &from, "--to", &target, "--replace"]);
    assert!(replaced.status.success(), "{}", text(&replaced.stderr));

    let server = deployment.serve(&[
        "--public-url",
        "https://go.example.com",
        "--database-url",
        &target,
    ]);
    // Instances serving the target refuse a copy into it, even with --replace.
    let serving = command(&["migrate", "--from", &from, "--to", &target, "--replace"]);
    assert_eq!(serving.status.code(), Some(1));
    assert!(text(&serving.stderr).contains("serving the target"));

    let found = targets(&http, &server.url).await;
    assert_eq!(found.len(), 30);
    let code = codes[7].rsplit('/').next().unwrap();
    let visit = http
        .get(format!("{}/{code}", server.url))
        .header("host", "go.example.com")
        .send()
        .await
        .unwrap();
    assert_eq!(visit.status(), 302);
    assert_eq!(visit.headers()["location"], "https://moved.example/7");
    // New chains take ids after the copied ones.
    let fresh = create(&http, &server.url, "https://fresh.example/").await;
    assert!(fresh["id"].as_i64().unwrap() > 30, "{fresh}");
    server.stop();
}

/// A server killed (SIGKILL) while bulk requests are under way: after a restart every bulk it
/// acknowledged is there whole, and the one it was working on is there whole or not at all.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_killed_server_keeps_every_bulk_it_acknowledged_and_no_half_of_one() {
    // On SQLite, and on PostgreSQL where it is installed.
    let databases =
        std::iter::once(None).chain(pg_cluster::cluster().map(|c| Some(c.new_database())));
    for database in databases {
        killed_during_bulk(database.as_deref()).await;
    }
}

async fn killed_during_bulk(database: Option<&str>) {
    let deployment = Deployment::new();
    let extra: Vec<&str> = match database {
        Some(url) => vec!["--database-url", url],
        None => Vec::new(),
    };
    let mut server = deployment.serve(&extra);
    let http = client();
    let acknowledged = Arc::new(Mutex::new(Vec::<usize>::new()));
    let sender = {
        let (http, url, acknowledged) = (http.clone(), server.url.clone(), acknowledged.clone());
        tokio::spawn(async move {
            for batch in 0.. {
                let chains: Vec<Value> = (0..500)
                    .map(|i| json!({"target_url": format!("https://killed.example/{batch}/{i}")}))
                    .collect();
                let sent = http
                    .post(format!("{url}/chains/bulk"))
                    .bearer_auth(KEY)
                    .json(&json!({ "chains": chains }))
                    .send()
                    .await;
                match sent {
                    Ok(reply) if reply.status() == 200 => {
                        let body: Value = reply.json().await.unwrap_or(Value::Null);
                        if body["data"]["created"] == 500 {
                            acknowledged.lock().unwrap().push(batch);
                        }
                    }
                    _ => return batch,
                }
            }
            unreachable!("the loop ends when the server is gone")
        })
    };
    // Kill it once a few bulks went through, with the next one under way.
    while acknowledged.lock().unwrap().len() < 3 {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    server.child.kill().unwrap();
    server.child.wait().unwrap();
    let in_flight = sender.await.unwrap();
    let acknowledged = acknowledged.lock().unwrap().clone();
    drop(server);

    let server = deployment.serve(&extra);
    let found = targets(&http, &server.url).await;
    let stored = |batch: usize| {
        (0..500)
            .filter(|i| found.contains(&format!("https://killed.example/{batch}/{i}")))
            .count()
    };
    for batch in &acknowledged {
        assert_eq!(
            stored(*batch),
            500,
            "{database:?}: bulk {batch} was acknowledged"
        );
    }
    let unfinished = stored(in_flight);
    assert!(
        unfinished == 0 || unfinished == 500,
        "{database:?}: the bulk under way is whole or absent: {unfinished} of 500"
    );
    let expected = acknowledged.len() * 500 + unfinished;
    assert_eq!(found.len(), expected, "{database:?}: nothing else, no half");
    server.stop();
}

#[test]
fn version_names_the_release_and_the_commit_it_was_built_from() {
    let out = command(&["--version"]);
    assert!(out.status.success());
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let head = Command::new("git")
        .args(["rev-parse", "--short=12", "HEAD"])
        .current_dir(&root)
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| text(&o.stdout).trim().to_owned());
    let commit = head.unwrap_or_else(|| "unknown commit".to_owned());
    assert_eq!(
        text(&out.stdout),
        format!("linkapi-server {} ({commit})\n", env!("CARGO_PKG_VERSION"))
    );
    assert_eq!(
        linkapi_server::VERSION,
        format!("{} ({commit})", env!("CARGO_PKG_VERSION"))
    );
}

/// The systemd unit in `deploy/`: systemd accepts it (`systemd-analyze verify`, its
/// `ExecStart` pointed at this build), it sandboxes as the README says and gives the graceful
/// stop its time; the configuration it names serves, and SIGTERM stops the server well within
/// `TimeoutStopSec`. What runs only under a booted systemd (the dynamic user, the sandbox in
/// force) is not exercised here.
#[test]
#[allow(clippy::print_stderr)] // a skipped check says so
fn the_systemd_unit_verifies_and_the_configuration_it_names_serves() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let unit = std::fs::read_to_string(root.join("deploy/linkapi-server.service")).unwrap();
    for directive in [
        "DynamicUser=yes",
        "StateDirectory=linkapi",
        "ProtectSystem=strict",
        "ProtectHome=yes",
        "NoNewPrivileges=yes",
        "PrivateTmp=yes",
        "KillSignal=SIGTERM",
    ] {
        assert!(
            unit.lines().any(|l| l == directive),
            "the unit says {directive}"
        );
    }
    let stop_secs: u64 = unit
        .lines()
        .find_map(|l| l.strip_prefix("TimeoutStopSec="))
        .unwrap()
        .parse()
        .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let installed = unit.replace(
        "/usr/local/bin/linkapi-server",
        env!("CARGO_BIN_EXE_linkapi-server"),
    );
    assert_ne!(installed, unit, "ExecStart names the installed binary");
    let path = dir.path().join("linkapi-server.service");
    std::fs::write(&path, installed).unwrap();
    match Command::new("systemd-analyze")
        .arg("verify")
        .arg(&path)
        .output()
    {
        Ok(out) => {
            assert!(out.status.success(), "{}", text(&out.stderr));
            assert_eq!(text(&out.stderr), "", "systemd-analyze has nothing to say");
        }
        Err(_) if std::env::var_os("CI").is_none() => {
            eprintln!("skipped: systemd-analyze is not installed (Debian's systemd)");
        }
        Err(err) => panic!("systemd-analyze: {err}"),
    }

    // The unit's arguments with the configuration it installs, here on a free port.
    let data = dir.path().join("data");
    let config = root.join("deploy/config.toml");
    let running = Running::start(&[
        "--config",
        config.to_str().unwrap(),
        "--data-dir",
        data.to_str().unwrap(),
        "--listen",
        "127.0.0.1:0",
    ]);
    let addr = running.url.trim_start_matches("http://").to_owned();
    let mut stream = std::net::TcpStream::connect(&addr).unwrap();
    std::io::Write::write_all(
        &mut stream,
        b"GET /healthz HTTP/1.1\r\nHost: s.example.com\r\nConnection: close\r\n\r\n",
    )
    .unwrap();
    let mut answer = String::new();
    std::io::Read::read_to_string(&mut stream, &mut answer).unwrap();
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    let asked = std::time::Instant::now();
    running.stop();
    assert!(asked.elapsed() < Duration::from_secs(stop_secs));
}
