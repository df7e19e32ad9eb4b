//! `linkapi serve` as a newcomer runs it: the real binary, a fresh data directory, the key it
//! prints and stores in profile `local`, a chain created and its redirect followed.

use std::io::{BufRead, BufReader};
use std::process::{Child, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use serde_json::{Value, json};

use crate::support::{Home, database_url};

/// Where a test's server keeps its data: a data directory, and a PostgreSQL database of its own
/// when the run tests PostgreSQL.
pub(crate) struct Data {
    pub(crate) dir: tempfile::TempDir,
    url: Option<String>,
}

impl Data {
    pub(crate) fn new() -> Data {
        Data {
            dir: tempfile::tempdir().unwrap(),
            url: database_url(),
        }
    }
}

/// Kills the server when the test ends, however it ends.
pub(crate) struct Running(pub(crate) Child);

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// A reqwest client that does not follow redirects (with the crypto provider reqwest needs).
fn http_client() -> reqwest::Client {
    let _ = rustls::crypto::ring::default_provider().install_default();
    reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap()
}

/// Starts `linkapi serve` in `home` and returns it with the stderr lines it printed up to
/// "listening".
fn start(home: &Home, data: &Data, initial_key: Option<&str>) -> (Running, Vec<String>) {
    let (running, lines, _) = start_logging(
        home,
        data,
        initial_key,
        "warn",
        &["--listen", "127.0.0.1:0"],
    );
    (running, lines)
}

/// As [`start`], logging at `level`, with `serve_args`; also returns the stderr lines still to
/// come.
pub(crate) fn start_logging(
    home: &Home,
    data: &Data,
    initial_key: Option<&str>,
    level: &str,
    serve_args: &[&str],
) -> (Running, Vec<String>, mpsc::Receiver<String>) {
    let mut cmd = home.cmd();
    cmd.env("LINKAPI_LOG", level);
    cmd.arg("serve")
        .args(serve_args)
        .arg("--data-dir")
        .arg(data.dir.path())
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    if let Some(key) = initial_key {
        cmd.env("LINKAPI_INITIAL_API_KEY", key);
    }
    if let Some(url) = &data.url {
        cmd.env("LINKAPI_DATABASE_URL", url);
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
    (Running(child), lines, rx)
}

pub(crate) fn address(lines: &[String]) -> String {
    let line = lines.iter().find(|l| l.contains("listening on")).unwrap();
    let start = line.find("http://").unwrap() + "http://".len();
    line[start..].split_whitespace().next().unwrap().to_owned()
}

#[tokio::test]
async fn first_start_prints_a_key_that_creates_a_working_short_link() {
    let home = Home::new();
    let data = Data::new();
    let (_server, lines) = start(&home, &data, None);
    let key = printed_key(&lines);
    // The tests turn the keyring off (LINKAPI_KEYRING=none): the key goes to the file, and
    // the user is not told to set what is set.
    assert!(
        lines.iter().any(|l| l.contains("credentials.toml")),
        "{lines:?}"
    );
    assert!(
        !lines.iter().any(|l| l.contains("set LINKAPI_KEYRING=none")),
        "{lines:?}"
    );
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
    assert_eq!(
        data.dir.path().join("linkapi.db").exists(),
        data.url.is_none(),
        "the SQLite file is made only when no database URL is given"
    );
}

#[test]
fn the_next_command_in_another_terminal_just_works() {
    let home = Home::new();
    let data = Data::new();
    let (_server, lines) = start(&home, &data, None);
    assert!(
        lines
            .iter()
            .any(|l| l.contains("Stored it in profile \"local\"")),
        "{lines:?}"
    );
    // No host, no key, no profile given: the config written by serve names them all.
    let created = home.run(&[
        "chain",
        "create",
        "https://example.com/next",
        "--json=render_url",
    ]);
    let url = created.json()["render_url"].as_str().unwrap().to_owned();
    assert!(
        url.starts_with(&format!("http://{}/", address(&lines))),
        "{url}"
    );
    let status = home.run(&["auth", "status"]);
    assert!(status.ok().contains("local (current)"), "{}", status.stdout);
}

#[tokio::test]
async fn the_initial_key_comes_from_the_environment_and_is_not_printed() {
    let home = Home::new();
    let data = Data::new();
    let key = "lk_from_the_environment_0001";
    let (_server, lines) = start(&home, &data, Some(key));
    assert!(!lines.iter().any(|l| l.contains(key)), "{lines:?}");
    assert!(
        !home.config_dir().join("credentials.toml").exists(),
        "a key the user chose is not stored"
    );
    let addr = address(&lines);
    let reply = http_client()
        .get(format!("http://{addr}/admin/users"))
        .bearer_auth(key)
        .send()
        .await
        .unwrap();
    assert_eq!(reply.status(), reqwest::StatusCode::OK);
}

#[test]
fn a_second_start_creates_no_new_key() {
    let home = Home::new();
    let data = Data::new();
    drop(start(&home, &data, None));
    let (_server, lines) = start(&home, &data, None);
    assert!(
        !lines.iter().any(|l| l.trim().starts_with("lk_")),
        "{lines:?}"
    );
}

#[test]
fn a_second_server_on_other_data_never_overwrites_the_stored_key() {
    let home = Home::new();
    let first_data = Data::new();
    let (first, lines) = start(&home, &first_data, None);
    let first_key = printed_key(&lines);
    drop(first);

    let second_data = Data::new();
    let (_second, lines) = start(&home, &second_data, None);
    let second_key = printed_key(&lines);
    assert_ne!(first_key, second_key);
    assert!(
        lines
            .iter()
            .any(|l| l.contains("already holds a key") && l.contains("\"local-2\"")),
        "{lines:?}"
    );
    // Both keys are where the messages said: the first in "local", the second in "local-2".
    assert_eq!(home.run(&["auth", "token"]).ok().trim(), first_key);
    assert_eq!(
        home.run(&["--profile", "local-2", "auth", "token"])
            .ok()
            .trim(),
        second_key
    );
    // And "local-2" works against the running second server.
    let created = home.run(&[
        "--profile",
        "local-2",
        "chain",
        "create",
        "https://example.com/second",
        "--json=render_url",
    ]);
    assert!(
        created.json()["render_url"]
            .as_str()
            .unwrap()
            .starts_with(&format!("http://{}/", address(&lines)))
    );
}

#[test]
fn the_local_profile_follows_its_server_to_a_new_address() {
    let home = Home::new();
    let data = Data::new();
    let (first, lines) = start(&home, &data, None);
    let key = printed_key(&lines);
    let old = address(&lines);
    drop(first);
    // Started again on another port (port 0 gives another one), the same data directory: the
    // profile that holds its key moves, and says so.
    let (_second, lines) = start(&home, &data, None);
    let new = address(&lines);
    assert_ne!(old, new);
    assert!(
        lines
            .iter()
            .any(|l| l.contains("Profile \"local\" now points at")
                && l.contains(&new)
                && l.contains(&old)),
        "{lines:?}"
    );
    assert_eq!(home.run(&["auth", "token"]).ok().trim(), key);
    let status = home.run(&["auth", "status"]);
    let out = status.ok();
    assert!(out.contains(&new) && out.contains("status: valid"), "{out}");
    let created = home.run(&[
        "chain",
        "create",
        "https://example.com/moved",
        "--json=render_url",
    ]);
    assert!(
        created.json()["render_url"]
            .as_str()
            .unwrap()
            .starts_with(&format!("http://{new}/"))
    );
}

#[test]
fn status_tells_a_stopped_server_from_a_refused_key() {
    let home = Home::new();
    let data = Data::new();
    let (server, _lines) = start(&home, &data, None);
    drop(server);
    let status = home.run(&["auth", "status"]);
    let err = status.fails(1);
    assert!(
        status.stdout.contains("status: unreachable"),
        "{}",
        status.stdout
    );
    assert!(
        err.contains("1 profile(s) have a server that did not answer")
            && !err.contains("key that does not work"),
        "{err}"
    );
}

fn printed_key(lines: &[String]) -> String {
    lines
        .iter()
        .map(|l| l.trim())
        .find(|l| l.starts_with("lk_"))
        .expect("the start printed a key")
        .to_owned()
}

/// At debug a visitor's request is logged, and the id its response names is on its lines; at
/// the default level nothing logs it, and it is given no id.
#[tokio::test]
async fn a_redirects_request_id_names_its_log_lines_when_they_are_logged() {
    let admin = "lk_request_id_admin_key_0001";
    for level in ["debug", "info"] {
        let home = Home::new();
        let data = Data::new();
        let (server, lines, rest) = start_logging(
            &home,
            &data,
            Some(admin),
            level,
            &["--listen", "127.0.0.1:0"],
        );
        let addr = address(&lines);
        let client = http_client();
        let created = client
            .post(format!("http://{addr}/chains"))
            .bearer_auth(admin)
            .json(&json!({"target_url": "https://example.com/traced", "code": "traced"}))
            .send()
            .await
            .unwrap();
        assert_eq!(created.status(), reqwest::StatusCode::CREATED);
        let visit = client
            .get(format!("http://{addr}/traced"))
            .send()
            .await
            .unwrap();
        assert_eq!(visit.status(), reqwest::StatusCode::FOUND);
        let id = visit
            .headers()
            .get("x-request-id")
            .map(|id| id.to_str().unwrap().to_owned());
        drop(server);
        let logged: Vec<String> = rest.iter().collect();
        let redirect_lines = || {
            logged
                .iter()
                .filter(|l| l.contains("route=\"redirect\"") && l.contains("handled"))
        };
        if level == "debug" {
            let id = id.expect("a redirect logged at debug has an id");
            assert_eq!(id.len(), 16, "{id}");
            assert!(
                redirect_lines().any(|l| l.contains(&format!("request_id=\"{id}\""))),
                "{id} on no redirect line: {logged:?}"
            );
        } else {
            assert_eq!(id, None, "no line names it");
            assert_eq!(redirect_lines().count(), 0, "{logged:?}");
        }
    }
}

/// Keys appear in no log line (at debug level) and in no error message, whichever way they
/// were sent and whether or not they were valid.
#[tokio::test]
async fn keys_never_reach_logs_or_error_messages() {
    let home = Home::new();
    let data = Data::new();
    let admin = "lk_secret_admin_key_never_logged_0001";
    let (server, mut lines, rest) = start_logging(
        &home,
        &data,
        Some(admin),
        "debug",
        &["--listen", "127.0.0.1:0"],
    );
    let addr = address(&lines);
    let client = http_client();
    let wrong = "lk_wrong_key_that_must_not_echo_0002";
    let mut bodies = Vec::new();
    for (path, bearer, header) in [
        ("/chains", Some(admin), None),
        ("/chains", Some(wrong), None),
        ("/chains", None, Some(wrong)),
        (
            &*format!("/openapi/v1/chain/list?apikey={wrong}"),
            None,
            None,
        ),
        (
            &*format!("/openapi/v1/chain/list?apikey={admin}"),
            None,
            None,
        ),
        ("/admin/users", Some("not-even-a-key"), None),
    ] {
        let mut request = client.get(format!("http://{addr}{path}"));
        if let Some(key) = bearer {
            request = request.bearer_auth(key);
        }
        if let Some(key) = header {
            request = request.header("x-api-key", key);
        }
        let reply = request.send().await.unwrap();
        bodies.push(reply.text().await.unwrap());
    }
    // A chain whose creation fails, with the key in the body for good measure.
    let reply = client
        .post(format!("http://{addr}/chains"))
        .bearer_auth(admin)
        .json(&json!({"target_url": admin}))
        .send()
        .await
        .unwrap();
    let refused = reply.text().await.unwrap();
    drop(server);
    lines.extend(rest.iter());
    assert!(lines.len() > 5, "debug logging was on: {lines:?}");
    for key in [admin, wrong, "not-even-a-key"] {
        assert!(
            !lines.iter().any(|l| l.contains(key)),
            "{key} logged: {lines:?}"
        );
        assert!(
            !bodies.iter().any(|b| b.contains(key)),
            "{key} echoed: {bodies:?}"
        );
    }
    assert!(refused.contains("invalid_target_url"), "{refused}");
    assert!(!refused.contains(admin), "{refused}");
}

#[test]
fn a_start_warns_of_links_only_this_machine_can_open_and_uploads_other_instances_cannot_serve() {
    let home = Home::new();
    let data = Data::new();
    let (_server, lines, _) = start_logging(&home, &data, None, "warn", &["--listen", "0.0.0.0:0"]);
    let start = lines.join("\n");
    assert!(start.contains("WARN"), "{start}");
    assert!(
        start.contains("bound to every interface") && start.contains("--public-url"),
        "{start}"
    );
    // Uploads on local disk are a problem only when other instances share the database.
    let uploads_warned = start.contains("uploads are kept on this machine's disk");
    assert_eq!(uploads_warned, data.url.is_some(), "{start}");

    // With a public URL, nothing to warn of.
    let home = Home::new();
    let data = Data::new();
    let (_server, lines, _) = start_logging(
        &home,
        &data,
        None,
        "warn",
        &[
            "--listen",
            "0.0.0.0:0",
            "--public-url",
            "https://go.example.com",
        ],
    );
    let start = lines.join("\n");
    assert!(!start.contains("bound to every interface"), "{start}");
}

/// A server on loopback logging at `info`, with a short chain `code` created through the API by
/// the initial admin key: the server, its address, its log so far and the lines still to come.
async fn logging_with_chain(
    home: &Home,
    data: &Data,
    code: &str,
) -> (Running, String, Vec<String>, mpsc::Receiver<String>) {
    let admin = "lk_logging_admin_key_000000001";
    let (server, lines, rest) = start_logging(
        home,
        data,
        Some(admin),
        "info",
        &["--listen", "127.0.0.1:0"],
    );
    let addr = address(&lines);
    let created = http_client()
        .post(format!("http://{addr}/chains"))
        .bearer_auth(admin)
        .json(&json!({"target_url": format!("https://example.com/{code}"), "code": code}))
        .send()
        .await
        .unwrap();
    assert_eq!(created.status(), reqwest::StatusCode::CREATED);
    (server, addr, lines, rest)
}

/// At the default log level an API call is logged and a redirect is not: visitors' traffic is
/// nearly all of it, and a line per redirect cost a third of the redirect rate.
#[tokio::test]
async fn the_default_log_has_api_calls_and_no_line_per_redirect() {
    let home = Home::new();
    let data = Data::new();
    let (server, addr, mut lines, rest) = logging_with_chain(&home, &data, "quiet").await;
    let client = http_client();
    for _ in 0..3 {
        let visit = client
            .get(format!("http://{addr}/quiet"))
            .header(
                "user-agent",
                "Mozilla/5.0 (X11; Linux x86_64) Firefox/128.0",
            )
            .send()
            .await
            .unwrap();
        assert_eq!(visit.status(), reqwest::StatusCode::FOUND);
    }
    drop(server);
    lines.extend(rest.iter());
    let handled: Vec<&String> = lines.iter().filter(|l| l.contains("handled")).collect();
    assert!(
        handled.iter().any(|l| l.contains("chains.create")),
        "the API call is logged: {lines:#?}"
    );
    assert!(
        !handled.iter().any(|l| l.contains("redirect")),
        "no line per redirect: {lines:#?}"
    );
}

/// An instance asked by an address that names no domain serves the default domain's links,
/// and says so in its log once per such host.
#[tokio::test]
async fn an_unknown_host_is_served_as_the_default_domain_and_logged_once() {
    let home = Home::new();
    let data = Data::new();
    let (server, addr, mut lines, rest) = logging_with_chain(&home, &data, "any-host").await;
    let client = http_client();
    for host in [
        "10.1.2.3:8080",
        "10.1.2.3:8080",
        "10.1.2.3:8080",
        "other.invalid",
    ] {
        let visit = client
            .get(format!("http://{addr}/any-host"))
            .header("host", host)
            .send()
            .await
            .unwrap();
        assert_eq!(visit.status(), reqwest::StatusCode::FOUND, "{host}");
    }
    drop(server);
    lines.extend(rest.iter());
    let logged = |host: &str| {
        lines
            .iter()
            .filter(|l| l.contains("host that is no domain") && l.contains(host))
            .count()
    };
    assert_eq!(logged("10.1.2.3:8080"), 1, "{lines:#?}");
    assert_eq!(logged("other.invalid"), 1, "{lines:#?}");
}
