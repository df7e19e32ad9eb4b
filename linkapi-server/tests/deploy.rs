//! Running `linkapi-server` as people deploy it, through the real binary: what `--version`
//! says, the systemd unit in `deploy/`, a new admin key when every other is lost, and the
//! health check the container image runs (the image itself: `image.rs`).

#![allow(clippy::unwrap_used)]

use std::path::Path;
use std::process::Command;
use std::time::Duration;

#[path = "../../linkapi-core/tests/needs.rs"]
mod needs;
#[path = "../../linkapi-core/tests/pg_cluster.rs"]
mod pg_cluster;
mod support;

use needs::{POSTGRESQL, SYSTEMD_ANALYZE, trial};
use support::{Deployment, KEY, Running, command, text};

fn main() -> std::process::ExitCode {
    needs::run(vec![
        trial(
            "version_names_the_release_and_the_commit_it_was_built_from",
            &[],
            version_names_the_release_and_the_commit_it_was_built_from,
        ),
        trial(
            "systemd_accepts_the_unit",
            &[&SYSTEMD_ANALYZE],
            systemd_accepts_the_unit,
        ),
        trial(
            "the_unit_sandboxes_and_the_configuration_it_names_serves",
            &[],
            the_unit_sandboxes_and_the_configuration_it_names_serves,
        ),
        trial(
            "a_lost_admin_key_is_made_again_from_the_data_directory",
            &[],
            || needs::block_on(a_lost_admin_key_is_made_again_from_the_data_directory()),
        ),
        trial(
            "on_postgresql_a_key_is_made_while_the_servers_run",
            &[&POSTGRESQL],
            || needs::block_on(on_postgresql_a_key_is_made_while_the_servers_run()),
        ),
        trial(
            "healthcheck_exits_0_for_a_server_that_answers_and_1_for_none",
            &[],
            healthcheck_exits_0_for_a_server_that_answers_and_1_for_none,
        ),
        trial(
            "links_made_at_an_address_follow_the_server_to_its_next_address_and_public_url",
            &[],
            || {
                needs::block_on(
                    links_made_at_an_address_follow_the_server_to_its_next_address_and_public_url(),
                );
            },
        ),
        trial(
            "on_postgresql_each_address_keeps_its_links",
            &[&POSTGRESQL],
            || needs::block_on(on_postgresql_each_address_keeps_its_links()),
        ),
    ])
}

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

/// The systemd unit in `deploy/`, as `deploy/` holds it.
fn unit() -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    std::fs::read_to_string(root.join("deploy/linkapi-server.service")).unwrap()
}

/// systemd accepts the unit (`systemd-analyze verify`, its `ExecStart` pointed at this build)
/// with nothing to say.
fn systemd_accepts_the_unit() {
    let unit = unit();
    let dir = tempfile::tempdir().unwrap();
    let installed = unit.replace(
        "/usr/local/bin/linkapi-server",
        env!("CARGO_BIN_EXE_linkapi-server"),
    );
    assert_ne!(installed, unit, "ExecStart names the installed binary");
    let path = dir.path().join("linkapi-server.service");
    std::fs::write(&path, installed).unwrap();
    let out = Command::new("systemd-analyze")
        .arg("verify")
        .arg(&path)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stderr), "", "systemd-analyze has nothing to say");
}

/// The unit sandboxes as the README says and gives the graceful stop its time; the
/// configuration it names serves, and SIGTERM stops the server well within
/// `TimeoutStopSec`. What runs only under a booted systemd (the dynamic user, the sandbox in
/// force) is not exercised here.
fn the_unit_sandboxes_and_the_configuration_it_names_serves() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let unit = unit();
    for directive in [
        "DynamicUser=yes",
        "StateDirectory=linkapi",
        "ProtectSystem=strict",
        "ProtectHome=yes",
        "NoNewPrivileges=yes",
        "PrivateTmp=yes",
        "KillSignal=SIGTERM",
        // The dynamic user reads the configuration as a credential, not from root's file.
        "LoadCredential=config.toml:/etc/linkapi/config.toml",
    ] {
        assert!(
            unit.lines().any(|l| l == directive),
            "the unit says {directive}"
        );
    }
    let exec = unit.lines().find(|l| l.starts_with("ExecStart=")).unwrap();
    assert!(exec.contains(" --config %d/config.toml "), "{exec}");
    let stop_secs: u64 = unit
        .lines()
        .find_map(|l| l.strip_prefix("TimeoutStopSec="))
        .unwrap()
        .parse()
        .unwrap();
    let dir = tempfile::tempdir().unwrap();

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

/// What `admin-key` printed: the key alone on stdout, checked for shape.
fn made_key(out: &std::process::Output) -> String {
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert_eq!(stdout.lines().count(), 1, "the key alone: {stdout:?}");
    let key = stdout.trim_end().to_owned();
    assert!(key.starts_with("lk_") && key.len() > 40, "{key}");
    assert!(
        text(&out.stderr).contains("for user 1 (admin)"),
        "{}",
        text(&out.stderr)
    );
    key
}

async fn status(url: &str, path: &str, key: &str) -> u16 {
    support::client()
        .get(format!("{url}{path}"))
        .bearer_auth(key)
        .send()
        .await
        .unwrap()
        .status()
        .as_u16()
}

/// On SQLite: refused while a server holds the data directory, with nothing printed on stdout;
/// once it is stopped, a key of scope `*` for the first user, which the server started again
/// takes, beside the key the deployment had, which still works.
async fn a_lost_admin_key_is_made_again_from_the_data_directory() {
    let deployment = Deployment::new();
    let server = deployment.serve(&[]);
    let args = [
        "admin-key",
        "--data-dir",
        &deployment.data,
        "--config",
        &deployment.config,
    ];
    let refused = command(&args);
    assert_eq!(refused.status.code(), Some(1));
    assert!(
        text(&refused.stderr).contains("stop it first"),
        "{}",
        text(&refused.stderr)
    );
    assert_eq!(text(&refused.stdout), "");
    server.stop();

    let key = made_key(&command(&args));
    let server = deployment.serve(&[]);
    assert_eq!(status(&server.url, "/admin/users", &key).await, 200);
    assert_eq!(status(&server.url, "/admin/users", KEY).await, 200);
    let keys: serde_json::Value = support::client()
        .get(format!("{}/admin/keys", server.url))
        .bearer_auth(&key)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let names: Vec<&str> = keys["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|k| k["name"].as_str().unwrap())
        .collect();
    assert_eq!(names.len(), 2, "{keys}");
    assert!(
        names.contains(&"bootstrap") && names.contains(&"recovery"),
        "{names:?}"
    );
    server.stop();

    let empty = tempfile::tempdir().unwrap();
    let none = command(&["admin-key", "--data-dir", empty.path().to_str().unwrap()]);
    assert_eq!(none.status.code(), Some(1));
    assert!(
        text(&none.stderr).contains("no database"),
        "{}",
        text(&none.stderr)
    );
}

/// On PostgreSQL the key is made while a server runs, and that server takes it at once.
async fn on_postgresql_a_key_is_made_while_the_servers_run() {
    let cluster = pg_cluster::cluster().expect("PostgreSQL, checked before the trial");
    let url = cluster.new_database();
    let deployment = Deployment::new();
    let server = deployment.serve(&["--database-url", &url]);
    let key = made_key(&command(&["admin-key", "--database-url", &url]));
    assert_eq!(status(&server.url, "/admin/users", &key).await, 200);
    assert_eq!(status(&server.url, "/admin/users", KEY).await, 200);
    server.stop();
}

/// `healthcheck`, the image's probe: 0 and the address asked when the server answers, found
/// from the address it listens on (an unspecified one asked on loopback); 1 and the reason
/// when nothing answers there.
fn healthcheck_exits_0_for_a_server_that_answers_and_1_for_none() {
    let deployment = Deployment::new();
    let running = deployment.serve(&[]);
    let port = running.url.rsplit(':').next().unwrap().to_owned();
    let listen = format!("0.0.0.0:{port}");
    let ok = command(&["healthcheck", "--listen", &listen]);
    assert!(ok.status.success(), "{}", text(&ok.stderr));
    assert_eq!(
        text(&ok.stdout),
        format!("http://127.0.0.1:{port}/healthz: 200\n")
    );
    running.stop();
    let down = command(&["healthcheck", "--listen", &listen]);
    assert_eq!(down.status.code(), Some(1));
    assert!(
        text(&down.stderr).contains(&format!("http://127.0.0.1:{port}/healthz"))
            && text(&down.stderr).contains("refused"),
        "{}",
        text(&down.stderr)
    );
}

async fn chain(url: &str, id: i64) -> serde_json::Value {
    let answer: serde_json::Value = support::client()
        .get(format!("{url}/chains/{id}"))
        .bearer_auth(KEY)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    answer["data"].clone()
}

async fn create(url: &str, code: &str) -> serde_json::Value {
    let answer: serde_json::Value = support::client()
        .post(format!("{url}/chains"))
        .bearer_auth(KEY)
        .json(&serde_json::json!({"target_url": "https://example.com/", "code": code}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    answer["data"].clone()
}

/// Without a public URL on SQLite, short links name the address the server listens on and
/// follow it: started on another port, the links made before name the new one and are served
/// there; given a public URL, they name it. A public URL is never renamed after.
async fn links_made_at_an_address_follow_the_server_to_its_next_address_and_public_url() {
    let deployment = Deployment::new();
    let first = deployment.serve(&[]);
    let made = create(&first.url, "moved").await;
    assert_eq!(made["render_url"], format!("{}/moved", first.url));
    first.stop();

    let second = deployment.serve(&[]);
    assert_ne!(second.url, made["render_url"].as_str().unwrap());
    let id = made["id"].as_i64().unwrap();
    assert_eq!(
        chain(&second.url, id).await["render_url"],
        format!("{}/moved", second.url)
    );
    assert_eq!(status(&second.url, "/moved", KEY).await, 302);
    second.stop();

    let public = deployment.serve(&["--public-url", "https://s.example.com"]);
    assert_eq!(
        chain(&public.url, id).await["render_url"],
        "https://s.example.com/moved"
    );
    public.stop();
    let again = deployment.serve(&[]);
    assert_eq!(
        chain(&again.url, id).await["render_url"],
        "https://s.example.com/moved",
        "a public URL, once links name it, stays"
    );
    let new = create(&again.url, "later").await;
    assert_eq!(new["render_url"], format!("{}/later", again.url));
    again.stop();
}

/// Instances sharing PostgreSQL each have an address of their own: one started on another
/// address does not take the first one's links.
async fn on_postgresql_each_address_keeps_its_links() {
    let cluster = pg_cluster::cluster().expect("PostgreSQL, checked before the trial");
    let url = cluster.new_database();
    let deployment = Deployment::new();
    let first = deployment.serve(&["--database-url", &url]);
    let made = create(&first.url, "stays").await;
    let second = deployment.serve(&["--database-url", &url]);
    let id = made["id"].as_i64().unwrap();
    assert_eq!(
        chain(&second.url, id).await["render_url"],
        format!("{}/stays", first.url)
    );
    assert_eq!(
        create(&second.url, "other").await["render_url"],
        format!("{}/other", second.url)
    );
    first.stop();
    second.stop();
}
