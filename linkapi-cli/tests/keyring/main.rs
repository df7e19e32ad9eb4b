//! The real OS keyring (Secret Service on Linux). The round trip runs only where
//! `.ci/secret-service-test` has started a throwaway gnome-keyring in a private D-Bus session
//! and set LINKAPI_TEST_SECRET_SERVICE=1; anywhere else it would touch the keyring of whoever
//! runs the tests, so it is listed as ignored (a harness of its own, `needs.rs`).

#![allow(clippy::unwrap_used, clippy::print_stderr)]

#[path = "../../../linkapi-core/tests/needs.rs"]
mod needs;
#[path = "../../../linkapi-core/tests/pg_cluster.rs"]
mod pg_cluster;
#[allow(dead_code)] // the CLI tests' support; these use a part
#[path = "../cli/support.rs"]
mod support;

use support::{ADMIN_KEY, Home, TestServer};

fn main() -> std::process::ExitCode {
    needs::run(vec![
        needs::trial(
            "login_status_logout_through_the_secret_service",
            &[&needs::SECRET_SERVICE],
            login_status_logout_through_the_secret_service,
        ),
        needs::trial(
            "a_headless_keyring_is_explained_in_plain_words",
            &[],
            a_headless_keyring_is_explained_in_plain_words,
        ),
    ])
}

fn login_status_logout_through_the_secret_service() {
    let server = TestServer::start();
    let home = Home::new();
    let keyring = |cmd: &mut std::process::Command| {
        cmd.env_remove("LINKAPI_KEYRING");
        for var in ["DBUS_SESSION_BUS_ADDRESS", "XDG_RUNTIME_DIR"] {
            if let Some(value) = std::env::var_os(var) {
                cmd.env(var, value);
            }
        }
    };
    let mut cmd = home.cmd();
    keyring(&mut cmd);
    let run = home.run_with(
        cmd,
        &["auth", "login", "--host", &server.url, "--with-key"],
        Some(ADMIN_KEY),
    );
    run.ok();
    assert!(
        run.stderr.contains("the key is in the OS keyring"),
        "{}",
        run.stderr
    );
    assert!(
        !home.config_dir().join("credentials.toml").exists(),
        "no plain-text copy"
    );

    let mut cmd = home.cmd();
    keyring(&mut cmd);
    let status = home.run_with(cmd, &["auth", "status"], None);
    assert!(status.ok().contains("(from keyring)"), "{}", status.stdout);

    let mut cmd = home.cmd();
    keyring(&mut cmd);
    home.run_with(cmd, &["chain", "create", "https://e.com"], None)
        .ok();

    let mut cmd = home.cmd();
    keyring(&mut cmd);
    home.run_with(cmd, &["auth", "logout"], None).ok();
    let mut cmd = home.cmd();
    keyring(&mut cmd);
    home.run_with(cmd, &["auth", "token"], None).fails(4);
}

fn a_headless_keyring_is_explained_in_plain_words() {
    let server = TestServer::start();
    let home = Home::new();
    let mut cmd = home.cmd();
    // The keyring on, but no session bus to reach it: a server or container.
    cmd.env("LINKAPI_KEYRING", "auto")
        .env("DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent/bus");
    let run = home.run_with(
        cmd,
        &["auth", "login", "--host", &server.url, "--with-key"],
        Some(ADMIN_KEY),
    );
    run.ok();
    assert!(
        run.stderr.contains("no keyring service is running"),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr.contains("LINKAPI_KEYRING=none"),
        "{}",
        run.stderr
    );
    assert!(!run.stderr.contains("zbus"), "{}", run.stderr);
}
