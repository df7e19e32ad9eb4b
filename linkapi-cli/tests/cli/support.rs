//! A real server in this process (its own runtime on a thread) and the real `linkapi` binary,
//! run with a private config directory and home so no test touches the developer's keyring or
//! configuration.

use std::io::Write;
use std::net::SocketAddr;
use std::path::Path;
use std::process::{Command, Stdio};

use linkapi_server::{DeploymentArgs, ServeArgs, Server};
use tempfile::TempDir;

pub const ADMIN_KEY: &str = "lk_cli_test_admin_key_00000001";

/// A database of its own when the run tests PostgreSQL (`LINKAPI_TEST_BACKEND=postgres`);
/// `None` keeps the SQLite file in the data directory.
pub fn database_url() -> Option<String> {
    crate::pg_cluster::selected().then(|| {
        crate::pg_cluster::cluster()
            .expect("the PostgreSQL test cluster")
            .new_database()
    })
}

pub struct TestServer {
    pub addr: SocketAddr,
    pub url: String,
    /// The data directory; it holds the SQLite database unless the run tests PostgreSQL.
    pub data: TempDir,
    /// Whether the server keeps its data in PostgreSQL rather than the data directory.
    pub on_postgres: bool,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl TestServer {
    pub fn start() -> Self {
        Self::start_with_config(None)
    }

    /// A server reading `config` (TOML) as its configuration file.
    pub fn start_with_config(config: Option<&str>) -> Self {
        let data = TempDir::new().unwrap();
        let config = config.map(|text| {
            let path = data.path().join("linkapi.toml");
            std::fs::write(&path, text).unwrap();
            path
        });
        let database_url = database_url();
        let on_postgres = database_url.is_some();
        let args = ServeArgs {
            listen: Some("127.0.0.1:0".parse().unwrap()),
            deployment: DeploymentArgs {
                data_dir: Some(data.path().to_path_buf()),
                database_url,
                config,
            },
            public_url: None,
        };
        let (ready_tx, ready_rx) = std::sync::mpsc::channel();
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let thread = std::thread::spawn(move || {
            let runtime = tokio::runtime::Runtime::new().unwrap();
            runtime.block_on(async move {
                let server = Server::bind(&args, Some(ADMIN_KEY)).await.unwrap();
                ready_tx.send(server.local_addr).unwrap();
                server
                    .run(async {
                        let _ = stopped.await;
                    })
                    .await
                    .unwrap();
            });
        });
        let addr = ready_rx.recv().unwrap();
        TestServer {
            addr,
            url: format!("http://{addr}"),
            data,
            on_postgres,
            stop: Some(stop),
            thread: Some(thread),
        }
    }
}

impl Drop for TestServer {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// A blocking GET of a text page (the tests have no runtime of their own).
pub fn fetch_text(url: &str) -> String {
    let out = Command::new("curl")
        .args(["-sS", url])
        .output()
        .expect("curl runs");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The status of a GET that does not follow redirects.
pub fn fetch_status(url: &str) -> u16 {
    let out = Command::new("curl")
        .args(["-sS", "-o", "/dev/null", "-w", "%{http_code}", url])
        .output()
        .expect("curl runs");
    String::from_utf8_lossy(&out.stdout)
        .trim()
        .parse()
        .expect("a status")
}

/// How many answers of `operation` with `status` the server's metrics counted.
pub fn answers_counted(server: &TestServer, operation: &str, status: u16) -> f64 {
    let metrics = fetch_text(&format!("{}/metrics", server.url));
    metrics
        .lines()
        .find(|l| {
            l.starts_with("linkapi_requests_total")
                && l.contains(&format!("operation=\"{operation}\""))
                && l.contains(&format!("status=\"{status}\""))
        })
        .and_then(|l| l.rsplit(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or(0.0)
}

/// A private home for one test: config directory and HOME.
pub struct Home {
    pub dir: TempDir,
}

pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

impl Run {
    #[track_caller]
    pub fn ok(&self) -> &str {
        assert_eq!(
            self.code, 0,
            "stdout: {}\nstderr: {}",
            self.stdout, self.stderr
        );
        &self.stdout
    }

    #[track_caller]
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(self.ok()).unwrap_or_else(|e| panic!("{e}: {}", self.stdout))
    }

    #[track_caller]
    pub fn fails(&self, code: i32) -> &str {
        assert_eq!(
            self.code, code,
            "stdout: {}\nstderr: {}",
            self.stdout, self.stderr
        );
        &self.stderr
    }
}

impl Home {
    pub fn new() -> Self {
        Home {
            dir: TempDir::new().unwrap(),
        }
    }

    pub fn config_dir(&self) -> std::path::PathBuf {
        self.dir.path().join("config")
    }

    /// `linkapi` with this home; the keyring is off unless the test turns it back on. Started
    /// with SIGINT at its default (coreutils' `env --default-signal`): a test process that
    /// ignores it (started by a shell without job control, under nohup, by some CI runners)
    /// would pass that on, and Ctrl-C would interrupt nothing.
    pub fn cmd(&self) -> Command {
        let mut cmd = Command::new("env");
        cmd.args(["--default-signal=INT", env!("CARGO_BIN_EXE_linkapi")]);
        cmd.env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("HOME", self.dir.path())
            .env("LINKAPI_CONFIG_DIR", self.config_dir())
            .env("LINKAPI_KEYRING", "none")
            .env("NO_COLOR", "1")
            .env("LINKAPI_LOG", "warn");
        cmd
    }

    pub fn run_with(&self, mut cmd: Command, args: &[&str], stdin: Option<&str>) -> Run {
        cmd.args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let mut child = cmd.spawn().unwrap();
        {
            let mut input = child.stdin.take().unwrap();
            if let Some(text) = stdin {
                // The command may exit (correctly) before reading its input.
                let _ = input.write_all(text.as_bytes());
            }
        }
        let output = child.wait_with_output().unwrap();
        Run {
            code: output.status.code().unwrap_or(-1),
            stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
        }
    }

    pub fn run(&self, args: &[&str]) -> Run {
        self.run_with(self.cmd(), args, None)
    }

    /// `linkapi` against `server` with `key` from the environment.
    pub fn as_key(&self, server: &TestServer, key: &str, args: &[&str]) -> Run {
        let mut cmd = self.cmd();
        cmd.env("LINKAPI_HOST", &server.url)
            .env("LINKAPI_API_KEY", key);
        self.run_with(cmd, args, None)
    }

    /// `linkapi` against `server` as the admin.
    pub fn admin(&self, server: &TestServer, args: &[&str]) -> Run {
        self.as_key(server, ADMIN_KEY, args)
    }

    /// A new user `name` with a key of theirs holding `scopes`, made through `linkapi admin`:
    /// the user's id and the key.
    pub fn user_with_key(
        &self,
        server: &TestServer,
        name: &str,
        scopes: &[&str],
    ) -> (String, String) {
        let user = self
            .admin(server, &["admin", "user", "create", name, "--json=id"])
            .json()["id"]
            .to_string();
        let mut args = vec!["admin", "key", "create", "--user", &user, "--json=api_key"];
        for scope in scopes {
            args.extend(["--scope", scope]);
        }
        let key = self.admin(server, &args).json()["api_key"]
            .as_str()
            .unwrap()
            .to_owned();
        (user, key)
    }

    /// `linkapi ARGS` against `server` as the admin on a pseudo-terminal (through `script`),
    /// as a person at a shell would run it; output is what the terminal showed.
    pub fn admin_on_tty(&self, server: &TestServer, args: &str) -> Run {
        let command = format!("{} {args}", env!("CARGO_BIN_EXE_linkapi"));
        let mut cmd = self.terminal(server, Some(ADMIN_KEY), &command);
        cmd.env("COLUMNS", "200");
        self.run_with(cmd, &[], None)
    }

    /// `command` (a shell command line; `$LINKAPI` names the binary) on a pseudo-terminal,
    /// through `script`, with this home's environment, `server` and `key` if given.
    pub fn terminal(&self, server: &TestServer, key: Option<&str>, command: &str) -> Command {
        // SIGINT at its default, as for [`Home::cmd`]: a typed Ctrl-C must interrupt.
        let mut cmd = Command::new("env");
        cmd.args([
            "--default-signal=INT",
            "script",
            "-qec",
            command,
            "/dev/null",
        ]);
        for (name, value) in self.cmd().get_envs() {
            if let Some(value) = value {
                cmd.env(name, value);
            }
        }
        // `script` runs the command with `$SHELL -c`: the same shell for everyone who runs
        // the tests, whatever their login shell.
        cmd.env("LINKAPI_HOST", &server.url)
            .env("LINKAPI", env!("CARGO_BIN_EXE_linkapi"))
            .env("SHELL", "/bin/sh");
        if let Some(key) = key {
            cmd.env("LINKAPI_API_KEY", key);
        }
        cmd
    }

    /// `linkapi ARGS` on a pseudo-terminal of unknown size (through `script`, as under a
    /// serial console), against `server` with `key` from the environment, typing each
    /// `(wait_for, keys)` once the terminal shows `wait_for`. The terminal's line
    /// discipline turns a typed Ctrl-C (`\x03`) into SIGINT, as at a shell.
    pub fn on_terminal_typing(
        &self,
        server: &TestServer,
        key: Option<&str>,
        args: &str,
        typing: &[(&str, &str)],
    ) -> Run {
        let command = format!("{} {args}", env!("CARGO_BIN_EXE_linkapi"));
        self.in_terminal(server, key, &command, typing)
    }

    /// As [`Home::on_terminal_typing`], for a shell command line (`$LINKAPI` names the
    /// binary).
    pub fn in_terminal(
        &self,
        server: &TestServer,
        key: Option<&str>,
        command: &str,
        typing: &[(&str, &str)],
    ) -> Run {
        use std::io::Read;
        use std::sync::{Arc, Mutex};
        let mut child = self
            .terminal(server, key, command)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let shown = Arc::new(Mutex::new(Vec::new()));
        let reader = {
            let shown = shown.clone();
            let mut stdout = child.stdout.take().unwrap();
            std::thread::spawn(move || {
                let mut chunk = [0u8; 4096];
                while let Ok(n @ 1..) = stdout.read(&mut chunk) {
                    shown.lock().unwrap().extend_from_slice(&chunk[..n]);
                }
            })
        };
        let mut stdin = child.stdin.take().unwrap();
        for (wait_for, keys) in typing {
            let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
            while !String::from_utf8_lossy(&shown.lock().unwrap()).contains(wait_for) {
                assert!(
                    std::time::Instant::now() < deadline,
                    "the terminal never showed {wait_for:?}: {}",
                    String::from_utf8_lossy(&shown.lock().unwrap())
                );
                std::thread::sleep(std::time::Duration::from_millis(20));
            }
            stdin.write_all(keys.as_bytes()).unwrap();
            stdin.flush().unwrap();
        }
        // Bounded, so that a program that never ends fails the test rather than hanging the
        // suite.
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
        let status = loop {
            if let Some(status) = child.try_wait().unwrap() {
                break status;
            }
            if std::time::Instant::now() >= deadline {
                let _ = child.kill();
                panic!(
                    "{command:?} was still running a minute later: {}",
                    String::from_utf8_lossy(&shown.lock().unwrap())
                );
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
        };
        drop(stdin);
        reader.join().unwrap();
        let mut stderr = String::new();
        child
            .stderr
            .take()
            .unwrap()
            .read_to_string(&mut stderr)
            .unwrap();
        let stdout = String::from_utf8_lossy(&shown.lock().unwrap()).into_owned();
        Run {
            code: status.code().unwrap_or(-1),
            stdout,
            stderr,
        }
    }

    /// `command` (`chain qr` or `wx qr`) on `chain`, whose link is `link`, every way it
    /// answers: a PNG file of the side asked for, an SVG when piped, block characters and the
    /// link on a terminal.
    pub fn qr_every_way(&self, server: &TestServer, command: &[&str], chain: &str, link: &str) {
        let file = self.dir.path().join("code.png");
        let path = file.display().to_string();
        let mut args = command.to_vec();
        args.extend([chain, "--output", &path, "--size", "400"]);
        self.admin(server, &args).ok();
        let bytes = std::fs::read(&file).unwrap();
        assert!(bytes.starts_with(b"\x89PNG\r\n\x1a\n"), "a PNG file");
        // The size asked for, exactly: width and height of the PNG header (IHDR).
        let side = |at: usize| u32::from_be_bytes(bytes[at..at + 4].try_into().unwrap());
        assert_eq!((side(16), side(20)), (400, 400));

        let mut args = command.to_vec();
        args.extend([chain, "--format", "svg"]);
        assert!(
            self.admin(server, &args).ok().contains("<svg"),
            "piped: the image itself"
        );

        let screen = self.admin_on_tty(server, &format!("{} {chain}", command.join(" ")));
        assert_eq!(screen.code, 0, "{}", screen.stdout);
        assert!(
            screen.stdout.contains('▀') || screen.stdout.contains('▄'),
            "{}",
            screen.stdout
        );
        assert!(screen.stdout.contains(link), "{}", screen.stdout);
    }

    pub fn file_mode(path: &Path) -> u32 {
        use std::os::unix::fs::PermissionsExt;
        std::fs::metadata(path).unwrap().permissions().mode() & 0o777
    }
}
