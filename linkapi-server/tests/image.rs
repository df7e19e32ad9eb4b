//! The container image of `deploy/Containerfile`, built by `deploy/build-image.sh` from this
//! build's `linkapi-server` with Debian's podman, then taken apart and run: what it holds, who
//! it runs as, its health check, a graceful stop and data kept in its volume.
//!
//! Needs `podman` (and, on a machine whose hybrid cgroups crun refuses, `runc`); without it the
//! test is listed as ignored, unless `CI` is set, when it fails (see `needs.rs`).

#![allow(clippy::unwrap_used)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

#[path = "../../linkapi-core/tests/needs.rs"]
mod needs;
#[path = "../../linkapi-core/tests/pg_cluster.rs"]
mod pg_cluster;
mod support;

use support::text;

const KEY: &str = "lk_container_image_test_key_0001";

/// The containers this test made, removed when it ends however it ends.
struct Podman {
    image: String,
    volume: String,
    containers: Vec<String>,
    /// A containers.conf of this test's: no default ulimits (a container may not raise them
    /// here) and runc when installed (crun refuses this machine's hybrid cgroups).
    conf: PathBuf,
    _dir: tempfile::TempDir,
}

impl Podman {
    fn new() -> Podman {
        let dir = tempfile::tempdir().unwrap();
        let runc = Command::new("runc").arg("--version").output().is_ok();
        let mut conf = String::from("[containers]\ndefault_ulimits = []\n");
        if runc {
            conf.push_str("[engine]\nruntime = \"runc\"\n");
        }
        let path = dir.path().join("containers.conf");
        std::fs::write(&path, conf).unwrap();
        let id = std::process::id();
        Podman {
            image: format!("localhost/linkapi-image-test:{id}"),
            volume: format!("linkapi-image-test-{id}"),
            containers: Vec::new(),
            conf: path,
            _dir: dir,
        }
    }

    fn command(&self) -> Command {
        let mut cmd = Command::new("podman");
        cmd.env("CONTAINERS_CONF", &self.conf);
        cmd
    }

    /// `podman args`, which must succeed; its output.
    fn run(&self, args: &[&str]) -> Output {
        let out = self.command().args(args).output().unwrap();
        assert!(
            out.status.success(),
            "podman {args:?}: {}",
            text(&out.stderr)
        );
        out
    }

    /// Starts the server's container as the README runs it: its port 8080 published on
    /// loopback's `port`, data in the test's volume.
    fn start(&mut self, name: &str, port: u16) -> String {
        let name = format!("{name}-{}", std::process::id());
        let publish = format!("127.0.0.1:{port}:8080");
        let public = format!("LINKAPI_PUBLIC_URL=http://127.0.0.1:{port}");
        let initial = format!("LINKAPI_INITIAL_API_KEY={KEY}");
        let volume = format!("{}:/data", self.volume);
        self.containers.push(name.clone());
        #[rustfmt::skip]
        self.run(&[
            "run", "-d", "--name", &name, "-p", &publish, "-e", &public, "-e", &initial,
            "-v", &volume, &self.image,
        ]);
        wait_healthy(port);
        name
    }
}

impl Drop for Podman {
    fn drop(&mut self) {
        for name in &self.containers {
            let _ = self.command().args(["rm", "-f", "-v", name]).output();
        }
        let _ = self
            .command()
            .args(["volume", "rm", "-f", &self.volume])
            .output();
        let _ = self.command().args(["rmi", "-f", &self.image]).output();
    }
}

fn free_port() -> u16 {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    listener.local_addr().unwrap().port()
}

/// A raw HTTP/1.1 exchange: the whole answer.
fn http(port: u16, request: &str) -> String {
    exchange(port, request).unwrap()
}

fn exchange(port: u16, request: &str) -> std::io::Result<String> {
    let mut stream = std::net::TcpStream::connect(("127.0.0.1", port))?;
    std::io::Write::write_all(&mut stream, request.as_bytes())?;
    let mut answer = String::new();
    std::io::Read::read_to_string(&mut stream, &mut answer)?;
    Ok(answer)
}

/// Waits for `/healthz` to answer 200 through the published port (the port is open before
/// the server in the container listens).
fn wait_healthy(port: u16) {
    let deadline = Instant::now() + Duration::from_secs(60);
    let request = "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n";
    while !exchange(port, request).is_ok_and(|a| a.starts_with("HTTP/1.1 200")) {
        assert!(Instant::now() < deadline, "the container's server answers");
        std::thread::sleep(Duration::from_millis(100));
    }
}

fn chain_request(method: &str, path: &str, body: &str) -> String {
    format!(
        "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {KEY}\r\n\
         Content-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn main() -> std::process::ExitCode {
    needs::run(vec![needs::trial(
        "the_image_serves_as_an_unprivileged_user_with_its_data_in_a_volume",
        &[&needs::PODMAN],
        the_image_serves_as_an_unprivileged_user_with_its_data_in_a_volume,
    )])
}

fn the_image_serves_as_an_unprivileged_user_with_its_data_in_a_volume() {
    let mut podman = Podman::new();
    // Built as the README says, from this build's binary.
    let built = Command::new(root().join("deploy/build-image.sh"))
        .env("LINKAPI_BIN", env!("CARGO_BIN_EXE_linkapi-server"))
        .env("LINKAPI_IMAGE", &podman.image)
        .env("CONTAINERS_CONF", &podman.conf)
        .output()
        .unwrap();
    assert!(built.status.success(), "{}", text(&built.stderr));
    assert_eq!(text(&built.stdout).trim(), podman.image);

    // Its configuration.
    let inspect = podman.run(&["image", "inspect", &podman.image]);
    let inspect: serde_json::Value = serde_json::from_slice(&inspect.stdout).unwrap();
    let config = &inspect[0]["Config"];
    assert_eq!(config["User"], "65532:65532", "{config}");
    assert!(config["Volumes"].get("/data").is_some(), "{config}");
    assert!(config["ExposedPorts"].get("8080/tcp").is_some(), "{config}");
    assert_eq!(
        config["Labels"]["org.opencontainers.image.version"],
        env!("CARGO_PKG_VERSION")
    );
    let health = inspect[0]["Healthcheck"]["Test"].to_string();
    assert!(
        health.contains("linkapi-server") && health.contains("healthcheck"),
        "{health}"
    );
    let env = config["Env"].to_string();
    assert!(env.contains("LINKAPI_DATA_DIR=/data") && env.contains("LINKAPI_LISTEN=0.0.0.0:8080"));

    // Its files: the binary and what it loads, no shell; the binary runs in them alone.
    let created = podman.run(&["create", &podman.image]);
    let id = text(&created.stdout).trim().to_owned();
    podman.containers.push(id.clone());
    let files = tempfile::tempdir().unwrap();
    let tar = files.path().join("image.tar");
    podman.run(&["export", "-o", tar.to_str().unwrap(), &id]);
    let listing = Command::new("tar").arg("-tf").arg(&tar).output().unwrap();
    let listing = text(&listing.stdout);
    for file in [
        "usr/local/bin/linkapi-server",
        "etc/passwd",
        "usr/share/doc/linkapi/LICENSE-MIT",
    ] {
        assert!(listing.lines().any(|l| l == file), "{file} in {listing}");
    }
    assert!(
        !listing.lines().any(|l| l == "bin/sh" || l == "usr/bin/sh"),
        "{listing}"
    );
    let rootfs = files.path().join("root");
    std::fs::create_dir(&rootfs).unwrap();
    let unpacked = Command::new("tar")
        .arg("-xf")
        .arg(&tar)
        .arg("-C")
        .arg(&rootfs)
        .status()
        .unwrap();
    assert!(unpacked.success());
    let version = Command::new("chroot")
        .arg(&rootfs)
        .arg("/usr/local/bin/linkapi-server")
        .arg("--version")
        .output()
        .unwrap();
    assert!(version.status.success(), "{}", text(&version.stderr));
    assert!(
        text(&version.stdout)
            .starts_with(&format!("linkapi-server {} (", env!("CARGO_PKG_VERSION"))),
        "{}",
        text(&version.stdout)
    );

    // Running: as 65532, healthy by its own check, a chain made and kept in the volume.
    let port = free_port();
    let first = podman.start("linkapi-first", port);
    let pid = text(
        &podman
            .run(&["inspect", "--format", "{{.State.Pid}}", &first])
            .stdout,
    );
    let status = std::fs::read_to_string(format!("/proc/{}/status", pid.trim())).unwrap();
    let uid = status.lines().find(|l| l.starts_with("Uid:")).unwrap();
    assert_eq!(uid.split_whitespace().nth(1), Some("65532"), "{uid}");
    podman.run(&["healthcheck", "run", &first]);
    let made = http(
        port,
        &chain_request(
            "POST",
            "/chains",
            r#"{"target_url":"https://example.com/kept"}"#,
        ),
    );
    assert!(made.starts_with("HTTP/1.1 201"), "{made}");
    let asked = Instant::now();
    podman.run(&["stop", "-t", "30", &first]);
    assert!(asked.elapsed() < Duration::from_secs(30));
    let code = podman.run(&["inspect", "--format", "{{.State.ExitCode}}", &first]);
    assert_eq!(text(&code.stdout).trim(), "0", "a graceful stop exits 0");

    // A new container on the same volume has the chain; a stopped one's volume yields a key.
    let second = podman.start("linkapi-second", port);
    let kept = http(port, &chain_request("GET", "/chains/1", ""));
    assert!(kept.contains("https://example.com/kept"), "{kept}");
    podman.run(&["stop", "-t", "30", &second]);
    let volume = format!("{}:/data", podman.volume);
    let key = podman.run(&["run", "--rm", "-v", &volume, &podman.image, "admin-key"]);
    let key = text(&key.stdout);
    assert!(key.starts_with("lk_") && key.lines().count() == 1, "{key}");
}
