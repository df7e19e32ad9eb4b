//! The outside tools some tests check the server's output with, as their users run them:
//! `promtool` (Debian's `prometheus`), `zbarimg` (Debian's `zbar-tools`) and Python packages
//! (`prometheus_client`, `openapi-python-client`). When `CI` or `LINKAPI_TEST_TOOLS` is set a
//! missing tool fails the test (`.ci/run` installs them); otherwise the test is skipped with
//! a note.

use std::io::Write;
use std::process::{Command, Output, Stdio};

fn required() -> bool {
    ["CI", "LINKAPI_TEST_TOOLS"]
        .iter()
        .any(|v| std::env::var_os(v).is_some_and(|v| !v.is_empty()))
}

/// Whether `probe` (a command and its arguments) runs and succeeds; when it does not, panics
/// if tools are required, else says the test is skipped.
pub fn available(what: &str, probe: &[&str]) -> bool {
    let ran = Command::new(probe[0])
        .args(&probe[1..])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !ran {
        assert!(
            !required(),
            "{what} is required here (CI) but `{}` fails",
            probe.join(" ")
        );
        eprintln!("skipped: {what} is not installed");
    }
    ran
}

/// Runs `command` with `input` on its standard input.
pub fn run_with_input(command: &mut Command, input: &[u8]) -> Output {
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input)
        .expect("write stdin");
    child.wait_with_output().expect("wait")
}

/// Whether Python can import `module`.
pub fn python_module(module: &str) -> bool {
    available(
        &format!("Python's {module}"),
        &["python3", "-c", &format!("import {module}")],
    )
}
