//! The real OS keyring (Secret Service on Linux). Only runs where `.ci/run` has started a
//! throwaway gnome-keyring in a private D-Bus session and set LINKAPI_TEST_SECRET_SERVICE=1;
//! anywhere else it would touch the keyring of whoever runs the tests, so it returns early.

use crate::support::{ADMIN_KEY, Home, TestServer};

#[test]
fn login_status_logout_through_the_secret_service() {
    if std::env::var_os("LINKAPI_TEST_SECRET_SERVICE").is_none() {
        eprintln!(
            "skipped: set LINKAPI_TEST_SECRET_SERVICE=1 inside a throwaway keyring session (see .ci/run)"
        );
        return;
    }
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

#[test]
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
        Some(crate::support::ADMIN_KEY),
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
