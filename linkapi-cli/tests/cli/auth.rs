//! `linkapi auth ...` with the file store and with a keyring that does not work.

use crate::support::{ADMIN_KEY, Home, TestServer};

fn login(home: &Home, server: &TestServer, extra: &[&str], key: &str) -> crate::support::Run {
    let mut args = vec!["auth", "login", "--host", &server.url, "--with-key"];
    args.extend_from_slice(extra);
    home.run_with(home.cmd(), &args, Some(&format!("{key}\n")))
}

#[test]
fn login_status_token_logout_with_the_file_store() {
    let server = TestServer::start();
    let home = Home::new();
    let run = login(&home, &server, &["--insecure-storage"], ADMIN_KEY);
    run.ok();
    assert!(run.stderr.contains("Logged in to"), "{}", run.stderr);
    assert!(
        !run.stderr.contains("warning"),
        "asked for the file: no warning"
    );
    let creds = home.config_dir().join("credentials.toml");
    assert_eq!(Home::file_mode(&creds), 0o600);
    let config = std::fs::read_to_string(home.config_dir().join("config.toml")).unwrap();
    assert!(config.contains("default_profile = \"default\""), "{config}");
    assert!(config.contains(&server.url), "{config}");

    // Commands now work with no flags and no environment.
    home.run(&["chain", "create", "https://e.com", "--code", "after-login"])
        .ok();

    let status = home.run(&["auth", "status"]);
    let out = status.ok();
    assert!(out.contains("default (current)"), "{out}");
    assert!(
        out.contains("lk_cli_****") && out.contains("credentials.toml"),
        "{out}"
    );
    assert!(out.contains("status: valid"), "{out}");
    assert!(!out.contains(ADMIN_KEY), "masked by default");
    assert!(
        home.run(&["auth", "status", "--show-key"])
            .ok()
            .contains(ADMIN_KEY)
    );

    assert_eq!(home.run(&["auth", "token"]).ok().trim(), ADMIN_KEY);

    let out = home.run(&["auth", "logout"]);
    assert!(out.ok().is_empty());
    assert!(
        out.stderr.contains("still works on the server"),
        "{}",
        out.stderr
    );
    assert!(!std::fs::read_to_string(&creds).unwrap().contains(ADMIN_KEY));
    home.run(&["auth", "status"]).fails(4);
    home.run(&["auth", "token"]).fails(4);
    home.run(&["auth", "logout"]).fails(4);
}

#[test]
fn a_failing_keyring_falls_back_to_the_file_with_a_warning() {
    let server = TestServer::start();
    let home = Home::new();
    // The support module runs every command with LINKAPI_KEYRING=none: auto mode must fall back.
    let run = login(&home, &server, &[], ADMIN_KEY);
    run.ok();
    assert!(
        run.stderr
            .contains("warning: the OS keyring is not available"),
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("credentials.toml"), "{}", run.stderr);
    let status = home.run(&["auth", "status"]);
    assert!(
        status.ok().contains("from credentials.toml"),
        "{}",
        status.stdout
    );
    home.run(&["auth", "logout"]).ok();

    // A profile that demands the keyring refuses instead, and stores nothing.
    std::fs::write(
        home.config_dir().join("config.toml"),
        "[profiles.default]\ncredential_store = \"keyring\"\n",
    )
    .unwrap();
    let refused = login(&home, &server, &[], ADMIN_KEY);
    assert!(
        refused.fails(1).contains("OS keyring"),
        "{}",
        refused.stderr
    );
    let file =
        std::fs::read_to_string(home.config_dir().join("credentials.toml")).unwrap_or_default();
    assert!(!file.contains(ADMIN_KEY));
    let insecure = login(&home, &server, &["--insecure-storage"], ADMIN_KEY);
    insecure.fails(2);
}

#[test]
fn login_checks_the_key_and_never_reads_it_from_arguments_or_a_missing_terminal() {
    let server = TestServer::start();
    let home = Home::new();
    let bad = login(&home, &server, &[], "lk_wrong_key_0000000000000000");
    assert!(bad.fails(4).contains("refused the key"), "{}", bad.stderr);
    assert!(
        !home.config_dir().join("credentials.toml").exists(),
        "nothing stored"
    );

    // No --with-key and no terminal: cannot prompt.
    let no_tty = home.run_with(
        home.cmd(),
        &["auth", "login", "--host", &server.url],
        Some(ADMIN_KEY),
    );
    assert!(no_tty.fails(2).contains("--with-key"), "{}", no_tty.stderr);

    // With LINKAPI_API_KEY set, storing a key would be shadowed: refuse.
    let mut cmd = home.cmd();
    cmd.env("LINKAPI_API_KEY", ADMIN_KEY);
    let shadowed = home.run_with(
        cmd,
        &["auth", "login", "--host", &server.url, "--with-key"],
        Some(ADMIN_KEY),
    );
    assert!(
        shadowed.fails(1).contains("LINKAPI_API_KEY"),
        "{}",
        shadowed.stderr
    );

    // A key that works but lacks scopes is still a valid key to store.
    let key = home
        .admin(
            &server,
            &[
                "admin",
                "key",
                "create",
                "--user",
                "1",
                "--scope",
                "groups:read",
                "--json=api_key",
            ],
        )
        .json()["api_key"]
        .as_str()
        .unwrap()
        .to_owned();
    login(&home, &server, &["--insecure-storage"], &key).ok();
}

#[test]
fn environment_overrides_and_profiles() {
    let server = TestServer::start();
    let other = TestServer::start();
    let home = Home::new();
    login(&home, &server, &["--insecure-storage"], ADMIN_KEY).ok();

    // LINKAPI_API_KEY wins over the stored key.
    let mut cmd = home.cmd();
    cmd.env("LINKAPI_API_KEY", "lk_env_key_that_is_wrong_00000");
    let env_key = home.run_with(cmd, &["chain", "list"], None);
    // Storing another key would not help: the hint names the variable instead.
    assert!(
        env_key.fails(4).contains("LINKAPI_API_KEY is set"),
        "{}",
        env_key.stderr
    );
    assert!(!env_key.stderr.contains("auth login"), "{}", env_key.stderr);
    let mut cmd = home.cmd();
    cmd.env("LINKAPI_API_KEY", ADMIN_KEY);
    let status = home.run_with(cmd, &["auth", "status"], None);
    assert!(
        status.ok().contains("from LINKAPI_API_KEY"),
        "{}",
        status.stdout
    );

    // LINKAPI_HOST points elsewhere: the stored key belongs to the first server and is not sent.
    let mut cmd = home.cmd();
    cmd.env("LINKAPI_HOST", &other.url);
    let elsewhere = home.run_with(cmd, &["chain", "list"], None);
    assert!(
        elsewhere.fails(4).contains(&other.url),
        "{}",
        elsewhere.stderr
    );

    // A second profile for the other server.
    let staging = home.run_with(
        home.cmd(),
        &[
            "--profile",
            "staging",
            "auth",
            "login",
            "--host",
            &other.url,
            "--with-key",
            "--insecure-storage",
        ],
        Some(ADMIN_KEY),
    );
    staging.ok();
    home.run(&[
        "--profile",
        "staging",
        "chain",
        "create",
        "https://e.com",
        "--code",
        "on-staging",
    ])
    .ok();
    home.run(&["--profile", "staging", "chain", "info", "on-staging"])
        .ok();
    // The default profile is unchanged and talks to the first server.
    home.run(&["chain", "info", "on-staging"]).fails(1);
    let status = home.run(&["auth", "status"]);
    let out = status.ok();
    assert!(
        out.contains("default (current)") && out.contains("staging"),
        "{out}"
    );
    assert!(
        out.contains(&other.url) && out.contains(&server.url),
        "{out}"
    );
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

/// A server moved to another address: the CLI names the key it has and the line that takes
/// it there, and that line, run as given, works; a server gone says how to follow it.
#[test]
fn a_moved_server_is_offered_the_key_the_profile_has() {
    let old = TestServer::start();
    let new = TestServer::start();
    let home = Home::new();
    login(&home, &old, &["--insecure-storage"], ADMIN_KEY).ok();

    let moved = home.run(&["chain", "list", "--host", &new.url]);
    let stderr = moved.fails(4);
    assert!(
        stderr.contains(&format!("not logged in to {}", new.url)),
        "{stderr}"
    );
    let line = format!(
        "linkapi auth token --host {} | linkapi auth login --host {} --with-key",
        old.url, new.url
    );
    assert!(
        stderr.contains(&format!("has a key for {}", old.url)) && stderr.contains(&line),
        "{stderr}"
    );
    // The line, as a shell runs it.
    let (token, login_args) = line.split_once(" | ").unwrap();
    let key = home.run(&token.split(' ').skip(1).collect::<Vec<_>>());
    let login_args: Vec<&str> = login_args.split(' ').skip(1).collect();
    home.run_with(home.cmd(), &login_args, Some(key.ok())).ok();
    home.run(&["chain", "create", "https://e.com", "--code", "moved"])
        .ok();
    assert!(
        home.admin(&new, &["chain", "info", "moved"])
            .ok()
            .contains("moved"),
        "the profile now works against the new address"
    );

    // Nothing there any more: the connection failure says how to follow a server.
    let gone = home.run(&["chain", "list", "--host", "http://127.0.0.1:1"]);
    let stderr = gone.fails(1);
    assert!(stderr.contains("could not connect"), "{stderr}");
    assert!(
        stderr.contains("linkapi auth token | linkapi auth login --host NEW_URL --with-key"),
        "{stderr}"
    );
}
