//! A harness (libtest-mimic) for test binaries whose tests need something outside Rust: a
//! program (podman, Caddy, nginx, systemd-analyze) or a prepared environment (a throwaway
//! Secret Service). Each trial names what it needs. Where that is missing and nothing
//! requires it, the trial is listed as ignored in the summary, labelled `[needs ...]`, and the
//! harness says on stderr what is missing and how to install it; run anyway
//! (`--include-ignored`) it fails with that message, never passing without having run. With
//! `CI` or `LINKAPI_TEST_TOOLS` set, a missing need fails the trial.

#![allow(dead_code)] // each binary uses the needs it has

use std::future::Future;
use std::process::{Command, ExitCode, Stdio};

use libtest_mimic::{Arguments, Failed, Trial};

/// Something a test needs.
pub struct Need {
    /// What it is, as the summary labels it.
    pub name: &'static str,
    /// How to tell it is there.
    pub present: fn() -> bool,
    /// How to get it.
    pub install: &'static str,
    /// Whether `CI` makes it required. A need that a later step of `.ci/run` prepares for
    /// its trials alone (the throwaway Secret Service) is not.
    pub in_ci: bool,
}

/// A program that answers `program probe` with success.
pub fn runs(program: &str, probe: &str) -> bool {
    Command::new(program)
        .arg(probe)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

pub const PODMAN: Need = Need {
    name: "podman",
    present: || runs("podman", "--version"),
    install: "apt-get install podman",
    in_ci: true,
};

pub const CADDY: Need = Need {
    name: "caddy",
    present: || runs("caddy", "version"),
    install: "apt-get install caddy",
    in_ci: true,
};

pub const NGINX: Need = Need {
    name: "nginx",
    present: || runs("nginx", "-v"),
    install: "apt-get install nginx",
    in_ci: true,
};

pub const SYSTEMD_ANALYZE: Need = Need {
    name: "systemd-analyze",
    present: || runs("systemd-analyze", "--version"),
    install: "apt-get install systemd",
    in_ci: true,
};

/// PostgreSQL's programs, for the throwaway cluster (`pg_cluster.rs`, which every binary using
/// this harness includes).
pub const POSTGRESQL: Need = Need {
    name: "PostgreSQL",
    present: crate::pg_cluster::installed,
    install: crate::pg_cluster::INSTALL,
    in_ci: true,
};

pub const PYTHON_REQUESTS: Need = Need {
    name: "Python's requests",
    present: || python("requests"),
    install: "pip install requests",
    in_ci: true,
};

pub const FISH: Need = Need {
    name: "fish",
    present: || runs("fish", "--version"),
    install: "apt-get install fish",
    in_ci: true,
};

pub const BASH_CURL_JQ: Need = Need {
    name: "bash, curl and jq",
    present: || runs("bash", "--version") && runs("curl", "--version") && runs("jq", "--version"),
    install: "apt-get install bash curl jq",
    in_ci: true,
};

/// Whether Python can import `module`.
pub fn python(module: &str) -> bool {
    Command::new("python3")
        .args(["-c", &format!("import {module}")])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

pub const SECRET_SERVICE: Need = Need {
    name: "a throwaway Secret Service",
    present: || std::env::var_os("LINKAPI_TEST_SECRET_SERVICE").is_some(),
    install: "run inside a private D-Bus session with gnome-keyring unlocked and \
              LINKAPI_TEST_SECRET_SERVICE=1 set, as .ci/secret-service-test does; never against \
              your own keyring",
    in_ci: false,
};

/// Whether this run must not leave anything out (`CI`, `LINKAPI_TEST_TOOLS`).
pub fn required() -> bool {
    ["CI", "LINKAPI_TEST_TOOLS"]
        .iter()
        .any(|v| std::env::var_os(v).is_some_and(|v| !v.is_empty()))
}

/// A trial of `test` named `name` that needs `needs`.
pub fn trial(name: &str, needs: &[&Need], test: fn()) -> Trial {
    let missing: Vec<&&Need> = needs.iter().filter(|need| !(need.present)()).collect();
    if missing.is_empty() {
        return Trial::test(name, move || {
            test();
            Ok(())
        });
    }
    let names: Vec<&str> = missing.iter().map(|need| need.name).collect();
    let why = missing
        .iter()
        .map(|need| format!("{} is missing ({})", need.name, need.install))
        .collect::<Vec<_>>()
        .join("; ");
    let failing = {
        let why = why.clone();
        move || Err(Failed::from(format!("not run: {why}")))
    };
    if required() && missing.iter().any(|need| need.in_ci) {
        return Trial::test(name, failing);
    }
    #[allow(clippy::print_stderr)] // the reason a trial is ignored
    {
        eprintln!("ignored {name}: {why}");
    }
    Trial::test(name, failing)
        .with_kind(format!("needs {}", names.join(", ")))
        .with_ignored_flag(true)
}

/// Runs `test` to completion on a multi-threaded runtime of its own, as
/// `#[tokio::test(flavor = "multi_thread")]` does.
pub fn block_on<F: Future<Output = ()>>(test: F) {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a runtime")
        .block_on(test);
}

/// Runs `trials` with the command line's arguments.
pub fn run(trials: Vec<Trial>) -> ExitCode {
    libtest_mimic::run(&Arguments::from_args(), trials).exit_code()
}
