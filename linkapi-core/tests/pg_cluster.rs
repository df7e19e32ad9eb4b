//! A throwaway PostgreSQL cluster for tests, shared by the test binaries of every crate
//! (included with `#[path]`).
//!
//! The first test that asks starts one cluster for the whole test process: `initdb` into a
//! temporary directory and `pg_ctl start` on a free port, as the `postgres` user when the tests
//! run as root (PostgreSQL refuses to run as root). Each test then gets a database of its own.
//! A watchdog shell holds a pipe from this process; when the process exits, however it exits,
//! the pipe closes and the watchdog stops the cluster and removes its directory.
//!
//! Where PostgreSQL is not installed, [`cluster`] returns `None` and PostgreSQL tests skip with
//! a message, unless the run requires it (`CI` set, or `LINKAPI_TEST_BACKEND=postgres`), when it
//! panics instead: a CI run must never pass by skipping.

#![allow(dead_code, clippy::print_stderr)]

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicUsize, Ordering};

/// A running cluster.
pub struct Cluster {
    bin: PathBuf,
    data: PathBuf,
    port: u16,
    as_postgres: bool,
    /// Holds the watchdog's stdin open for the life of the process.
    _watchdog: std::sync::Mutex<Child>,
}

static CLUSTER: OnceLock<Option<Cluster>> = OnceLock::new();
static DATABASES: AtomicUsize = AtomicUsize::new(0);

/// Whether this run must test on PostgreSQL: then a missing PostgreSQL is a failure.
pub fn required() -> bool {
    std::env::var_os("CI").is_some_and(|v| !v.is_empty())
        || std::env::var("LINKAPI_TEST_BACKEND").is_ok_and(|v| v == "postgres")
}

/// Whether the whole suite runs on PostgreSQL (`LINKAPI_TEST_BACKEND=postgres`).
pub fn selected() -> bool {
    std::env::var("LINKAPI_TEST_BACKEND").is_ok_and(|v| v == "postgres")
}

/// The process's cluster, started on first use; `None` when PostgreSQL is not installed and
/// not required.
pub fn cluster() -> Option<&'static Cluster> {
    CLUSTER
        .get_or_init(|| match find_bin() {
            Some(bin) => Some(Cluster::start(bin)),
            None if required() => {
                panic!("PostgreSQL is required for this run but initdb was not found ({INSTALL})")
            }
            None => {
                eprintln!("PostgreSQL not found: skipping its tests (set LINKAPI_PG_BINDIR)");
                None
            }
        })
        .as_ref()
}

/// How to get PostgreSQL for the tests.
pub const INSTALL: &str = "install Debian's postgresql package, or set LINKAPI_PG_BINDIR";

/// Whether PostgreSQL's programs are found.
pub fn installed() -> bool {
    find_bin().is_some()
}

/// `LINKAPI_PG_BINDIR`, the newest `/usr/lib/postgresql/*/bin`, or `initdb` on the PATH.
fn find_bin() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os("LINKAPI_PG_BINDIR") {
        return Some(PathBuf::from(dir));
    }
    let mut versions: Vec<(u32, PathBuf)> = std::fs::read_dir("/usr/lib/postgresql")
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| {
            let version = e.file_name().to_str()?.parse().ok()?;
            let bin = e.path().join("bin");
            bin.join("initdb").exists().then_some((version, bin))
        })
        .collect();
    versions.sort();
    if let Some((_, bin)) = versions.pop() {
        return Some(bin);
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path).find(|dir| dir.join("initdb").exists())
}

fn running_as_root() -> bool {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("Uid:"))
                .map(|l| l.split_whitespace().nth(1) == Some("0"))
        })
        .unwrap_or(false)
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

impl Cluster {
    fn start(bin: PathBuf) -> Cluster {
        let as_postgres = running_as_root();
        let dir = std::env::temp_dir().join(format!(
            "linkapi-pg-{}-{}",
            std::process::id(),
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map(|d| d.as_nanos())
                .unwrap_or_default()
        ));
        std::fs::create_dir_all(&dir).expect("cluster directory");
        if as_postgres {
            run(Command::new("chown").args(["postgres:postgres"]).arg(&dir));
        }
        let data = dir.join("data");
        let port = free_port();
        let cluster = Cluster {
            _watchdog: std::sync::Mutex::new(watchdog(&bin, &dir, &data)),
            bin,
            data: data.clone(),
            port,
            as_postgres,
        };
        run(cluster
            .command("initdb")
            .arg("-D")
            .arg(&data)
            .args(["-A", "trust", "-U", "postgres", "--no-sync", "-E", "UTF8"])
            .arg("--locale=C"));
        cluster.start_again();
        cluster
    }

    /// Starts the cluster (again, after [`Cluster::stop`]) and waits until it accepts.
    pub fn start_again(&self) {
        let dir = self.data.parent().unwrap_or(&self.data);
        let options = format!(
            "-p {} -k {} -c listen_addresses=127.0.0.1 -c max_connections=400 \
             -c fsync=off -c synchronous_commit=off -c full_page_writes=off",
            self.port,
            dir.display()
        );
        run(self
            .command("pg_ctl")
            .arg("-D")
            .arg(&self.data)
            .arg("-l")
            .arg(dir.join("log"))
            .args(["-w", "-t", "60", "-o", &options, "start"]));
    }

    /// A command from the cluster's bin directory, run as `postgres` when this process is root.
    pub fn command(&self, program: &str) -> Command {
        let path = self.bin.join(program);
        if self.as_postgres {
            let mut cmd = Command::new("runuser");
            cmd.args(["-u", "postgres", "--"]).arg(path);
            cmd
        } else {
            Command::new(path)
        }
    }

    /// The port the cluster listens on.
    pub fn port(&self) -> u16 {
        self.port
    }

    /// Creates a new, empty database and returns its URL.
    pub fn new_database(&self) -> String {
        let name = format!("t{}", DATABASES.fetch_add(1, Ordering::Relaxed));
        run(self
            .command("createdb")
            .args([
                "-h",
                "127.0.0.1",
                "-p",
                &self.port.to_string(),
                "-U",
                "postgres",
            ])
            .arg(&name));
        self.url(&name)
    }

    /// The URL of database `name`.
    pub fn url(&self, name: &str) -> String {
        format!("postgres://postgres@127.0.0.1:{}/{name}", self.port)
    }

    /// Runs SQL on the database at `url` with psql; returns what it printed (unaligned, no
    /// headers).
    pub fn psql(&self, url: &str, sql: &str) -> String {
        let out = self
            .command("psql")
            .args([
                "-X",
                "-A",
                "-t",
                "-v",
                "ON_ERROR_STOP=1",
                "-d",
                url,
                "-c",
                sql,
            ])
            .output()
            .expect("psql runs");
        assert!(
            out.status.success(),
            "psql failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// Everything the database at `url` stores, as `pg_dump` prints it.
    pub fn dump(&self, url: &str) -> Vec<u8> {
        let out = self
            .command("pg_dump")
            .args(["-d", url])
            .output()
            .expect("pg_dump runs");
        assert!(
            out.status.success(),
            "pg_dump failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        out.stdout
    }

    /// Stops the cluster fast (connections are cut, as in a crash or a failover) and waits.
    /// Every test of the process shares the cluster: only a test that has it to itself (its
    /// own test binary) may stop it.
    pub fn stop(&self) {
        run(self
            .command("pg_ctl")
            .arg("-D")
            .arg(&self.data)
            .args(["-m", "fast", "-w", "stop"]));
    }
}

/// A shell that waits for its stdin to close, then stops the cluster and removes its files.
fn watchdog(bin: &Path, dir: &Path, data: &Path) -> Child {
    let stop = format!(
        "read _; {} '{}' -D '{}' -m immediate stop >/dev/null 2>&1; rm -rf '{}'",
        if running_as_root() {
            "runuser -u postgres --"
        } else {
            ""
        },
        bin.join("pg_ctl").display(),
        data.display(),
        dir.display()
    );
    Command::new("sh")
        .arg("-c")
        .arg(stop)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("watchdog starts")
}

fn run(cmd: &mut Command) {
    let out = cmd.output().expect("command runs");
    assert!(
        out.status.success(),
        "{cmd:?} failed: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}
