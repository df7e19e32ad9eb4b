//! What a new user asked of the CLI (issue #10, point 5), through the real binary.

use crate::support::{Home, TestServer};

/// An address nothing listens on: a command that sends a request fails to connect (exit 1),
/// so exit 2 shows the mistake was caught before any request.
const NOWHERE: &str = "http://127.0.0.1:1";

#[test]
fn an_all_digit_chain_is_an_id_and_the_error_says_how_to_mean_a_code() {
    let server = TestServer::start();
    let home = Home::new();
    let missing = home.admin(&server, &["chain", "info", "2027"]);
    let stderr = missing.fails(1);
    assert!(stderr.contains("no chain has id 2027"), "{stderr}");
    assert!(stderr.contains("add --code"), "{stderr}");
    home.admin(
        &server,
        &["chain", "create", "https://example.com/", "--code", "2027"],
    )
    .ok();
    let found = home
        .admin(&server, &["chain", "info", "2027", "--code", "--json"])
        .json();
    assert_eq!(found["code"], "2027");
    let stats = home.admin(&server, &["stats", "99999"]);
    assert!(stats.fails(1).contains("add --code"), "{}", stats.stderr);
}

#[test]
fn out_of_range_limits_and_schemeless_targets_are_usage_errors_before_any_request() {
    let home = Home::new();
    for limit in ["0", "101", "1000"] {
        let run = home.run(&["--host", NOWHERE, "chain", "list", "--limit", limit]);
        assert!(run.fails(2).contains("--limit"), "{}", run.stderr);
    }
    let run = home.run(&[
        "--host",
        NOWHERE,
        "conversion",
        "list",
        "x",
        "--limit",
        "500",
    ]);
    run.fails(2);
    let run = home.run(&["--host", NOWHERE, "chain", "create", "example.com/spring"]);
    let stderr = run.fails(2);
    assert!(stderr.contains("add https://"), "{stderr}");
    assert!(stderr.contains("https://example.com/spring"), "{stderr}");
    let run = home.run(&[
        "--host",
        NOWHERE,
        "chain",
        "edit",
        "7",
        "--target-url",
        "example.com",
    ]);
    assert!(run.fails(2).contains("add https://"), "{}", run.stderr);
}

#[test]
fn help_shows_environment_variables_without_empty_values() {
    let home = Home::new();
    for args in [&["serve", "--help"][..], &["chain", "list", "--help"][..]] {
        let help = home.run(args);
        let out = help.ok();
        assert!(out.contains("[env: LINKAPI_"), "{out}");
        assert!(!out.contains("=]"), "{out}");
    }
}

#[test]
fn a_bad_host_is_a_usage_error_whatever_the_key_source() {
    let home = Home::new();
    for host in [
        "ftp://example.com",
        "http://",
        "http://exa mple.com",
        "https://x.com/?a=1",
    ] {
        // A key from the environment ...
        let run = home.run_with(
            {
                let mut cmd = home.cmd();
                cmd.env("LINKAPI_API_KEY", "lk_some_key_0000000000000000");
                cmd
            },
            &["--host", host, "chain", "list"],
            None,
        );
        assert!(
            run.fails(2).contains("not a server URL"),
            "{host}: {}",
            run.stderr
        );
        // ... or none at all: the host is checked first.
        let run = home.run(&["--host", host, "chain", "list"]);
        assert!(
            run.fails(2).contains("not a server URL"),
            "{host}: {}",
            run.stderr
        );
    }
}

#[test]
fn a_profile_that_does_not_exist_is_named_as_such() {
    let server = TestServer::start();
    let home = Home::new();
    let run = home.run(&[
        "--host",
        &server.url,
        "--profile",
        "stagin",
        "chain",
        "list",
    ]);
    let stderr = run.fails(2);
    assert!(
        stderr.contains("there is no profile \"stagin\""),
        "{stderr}"
    );
    assert!(stderr.contains("auth login --profile stagin"), "{stderr}");
}

#[test]
fn tables_keep_a_sane_width_when_the_terminal_reports_none() {
    let server = TestServer::start();
    let home = Home::new();
    home.admin(
        &server,
        &[
            "chain",
            "create",
            "https://example.com/a/rather/long/path/to/somewhere",
            "--title",
            "Spring sale",
            "--code",
            "spring-27",
        ],
    )
    .ok();
    // A pseudo-terminal of 0 columns (as some CI runners and `docker exec` report), no COLUMNS.
    let mut cmd = std::process::Command::new("script");
    cmd.args([
        "-qec",
        &format!(
            "stty cols 0 rows 0; {} chain list",
            env!("CARGO_BIN_EXE_linkapi")
        ),
        "/dev/null",
    ]);
    for (key, value) in home.cmd().get_envs() {
        if let Some(value) = value {
            cmd.env(key, value);
        }
    }
    cmd.env("LINKAPI_HOST", &server.url)
        .env("LINKAPI_API_KEY", crate::support::ADMIN_KEY)
        .env_remove("COLUMNS");
    let run = home.run_with(cmd, &[], None);
    let out = run.ok();
    assert!(out.contains("spring-27"), "{out}");
    assert!(out.contains("Spring sale"), "{out}");
    assert!(out.contains("CREATED"), "{out}");
}

#[test]
fn chain_tables_show_expiry_and_group() {
    let server = TestServer::start();
    let home = Home::new();
    let group = home
        .admin(&server, &["group", "create", "Launch", "--json=id"])
        .json()["id"]
        .as_i64()
        .unwrap()
        .to_string();
    home.admin(
        &server,
        &[
            "chain",
            "create",
            "https://example.com/",
            "--code",
            "expiring",
            "--group",
            &group,
            "--expires",
            "2030-06-01 00:00:00",
        ],
    )
    .ok();
    for command in ["chain list", "chain info expiring"] {
        let shown = home.admin_on_tty(&server, command);
        let out = shown.ok();
        assert!(out.contains("EXPIRES"), "{command}: {out}");
        assert!(out.contains("2030-06-01T00:00:00Z"), "{command}: {out}");
        assert!(out.contains("GROUP"), "{command}: {out}");
    }
}

#[test]
fn json_lines_import_errors_name_the_files_line() {
    let server = TestServer::start();
    let home = Home::new();
    let file = home.dir.path().join("links.jsonl");
    std::fs::write(
        &file,
        "{\"target_url\":\"https://a.example/\"}\n\n{\"target_url\": \"https://b.example/\",}\n",
    )
    .unwrap();
    let run = home.admin(&server, &["chain", "import", &file.display().to_string()]);
    run.fails(1);
    let failed = run
        .stdout
        .lines()
        .find(|l| l.contains("\terror\t"))
        .unwrap_or_default()
        .to_owned();
    assert!(failed.starts_with("3\terror\t"), "{}", run.stdout);
    assert!(failed.contains("(line 3, column"), "{failed}");
    assert!(!failed.contains("at line 1"), "{failed}");
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
