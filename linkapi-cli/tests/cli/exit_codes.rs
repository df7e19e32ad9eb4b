//! Exit codes: 2 usage, 4 authentication, 1 other failures; messages on stderr only.

use crate::support::{Home, TestServer, answers_counted};

#[test]
fn usage_errors_exit_2() {
    let home = Home::new();
    home.run(&["chain", "frobnicate"]).fails(2);
    home.run(&["chain", "create"]).fails(2);
    let server = TestServer::start();
    let bad_field = home.admin(&server, &["chain", "list", "--json=nope"]);
    assert!(
        bad_field.fails(2).contains("available fields"),
        "{}",
        bad_field.stderr
    );
    assert!(bad_field.stdout.is_empty());
    let bad_time = home.admin(
        &server,
        &["chain", "create", "https://e.com", "--expires", "soon"],
    );
    bad_time.fails(2);
}

#[test]
fn authentication_failures_exit_4() {
    let server = TestServer::start();
    let home = Home::new();
    // No stored key and none in the environment.
    let mut cmd = home.cmd();
    cmd.env("LINKAPI_HOST", &server.url);
    let missing = home.run_with(cmd, &["chain", "list"], None);
    assert!(
        missing.fails(4).contains("not logged in"),
        "{}",
        missing.stderr
    );
    assert!(missing.stderr.contains("linkapi auth login"));

    let refused = home.as_key(
        &server,
        "lk_this_key_does_not_exist_000",
        &["chain", "list"],
    );
    assert!(refused.fails(4).contains("HTTP 401"), "{}", refused.stderr);
}

#[test]
fn other_failures_exit_1_with_friendly_messages() {
    let server = TestServer::start();
    let home = Home::new();
    let missing = home.admin(&server, &["chain", "info", "999"]);
    assert!(
        missing.fails(1).contains("no chain has id 999"),
        "{}",
        missing.stderr
    );
    let missing = home.admin(&server, &["chain", "info", "no-such-code"]);
    assert!(missing.fails(1).contains("not found"), "{}", missing.stderr);

    let conflict = home.admin(
        &server,
        &["chain", "create", "https://e.com", "--code", "admin"],
    );
    assert!(
        conflict.fails(1).contains("reserved"),
        "{}",
        conflict.stderr
    );

    // Nothing listens on port 1.
    let mut cmd = home.cmd();
    cmd.env("LINKAPI_HOST", "http://127.0.0.1:1")
        .env("LINKAPI_API_KEY", crate::support::ADMIN_KEY);
    let down = home.run_with(cmd, &["chain", "list"], None);
    let stderr = down.fails(1);
    assert!(
        stderr.contains("could not connect to http://127.0.0.1:1"),
        "{stderr}"
    );
    assert!(stderr.contains("linkapi serve"), "{stderr}");

    // An upload says the same of each file, not the HTTP library's chain of causes.
    let image = home.dir.path().join("one.png");
    std::fs::write(&image, crate::images::png("down", 64)).unwrap();
    let mut cmd = home.cmd();
    cmd.env("LINKAPI_HOST", "http://127.0.0.1:1")
        .env("LINKAPI_API_KEY", crate::support::ADMIN_KEY);
    let upload = home.run_with(
        cmd,
        &["upload", image.to_str().unwrap(), "--tries", "1"],
        None,
    );
    upload.fails(1);
    let said = format!("{}{}", upload.stdout, upload.stderr);
    assert!(
        said.contains("could not connect to http://127.0.0.1:1"),
        "{said}"
    );
    assert!(said.contains("is the server running?"), "{said}");
    assert!(!said.contains("tcp connect error"), "{said}");
}

#[test]
fn rate_limits_are_waited_out_and_past_patience_say_how_long_to_wait() {
    // One request per second with no burst: back-to-back commands meet the limit.
    let server = TestServer::start_with_config(Some(
        "rate_limit_per_second = 1\nrate_limit_burst = 1\nrate_limit_admin_keys = true\n",
    ));
    let home = Home::new();
    // A script of commands: each waits its turn rather than failing.
    for _ in 0..4 {
        home.admin(&server, &["chain", "list"]).ok();
    }
    assert!(
        answers_counted(&server, "chains.list", 429) >= 1.0,
        "the commands met the limit and waited it out"
    );
    // Many at once, for longer than the CLI waits: those left over report the 429, with the
    // wait said once (the server's message carries it).
    let runs: Vec<_> = std::thread::scope(|scope| {
        let started: Vec<_> = (0..16)
            .map(|_| scope.spawn(|| home.admin(&server, &["chain", "list"])))
            .collect();
        started.into_iter().map(|t| t.join().unwrap()).collect()
    });
    assert!(runs.iter().any(|r| r.code == 0), "some got their turn");
    let limited = runs
        .iter()
        .find(|r| r.code != 0)
        .expect("sixteen commands in about five seconds cannot all pass one per second");
    let stderr = limited.fails(1);
    assert!(stderr.contains("rate limit exceeded"), "{stderr}");
    assert!(stderr.contains("retry in 1 s"), "{stderr}");
    assert!(!stderr.contains("try again in"), "{stderr}");
}
