//! What a new operator meets in their first hour: prompts, a wrong port, paging, and what
//! commands say when piped.

use crate::support::{ADMIN_KEY, Home, TestServer, answers_counted};

/// The `\x1b[?25l` (hide) and `\x1b[?25h` (show) cursor escapes: after a run, the cursor is
/// shown unless the last of them hid it.
fn cursor_left_hidden(screen: &str) -> bool {
    match (screen.rfind("\x1b[?25l"), screen.rfind("\x1b[?25h")) {
        (Some(hidden), Some(shown)) => hidden > shown,
        (hidden, _) => hidden.is_some(),
    }
}

#[test]
fn ctrl_c_at_a_confirmation_leaves_the_terminal_as_it_was() {
    let server = TestServer::start();
    let home = Home::new();
    for code in ["keep-a", "keep-b"] {
        home.admin(
            &server,
            &["chain", "create", "https://e.com", "--code", code],
        )
        .ok();
    }
    let run = home.on_terminal_typing(
        &server,
        Some(ADMIN_KEY),
        "chain delete keep-a keep-b",
        &[("[y/N]", "\x03")],
    );
    assert!(
        !cursor_left_hidden(&run.stdout),
        "the cursor stayed hidden: {:?}",
        run.stdout
    );
    // Interrupted as by SIGINT at a shell (128 + 2), and nothing was deleted.
    assert_eq!(run.code, 130, "{:?} {}", run.stdout, run.stderr);
    home.admin(&server, &["chain", "info", "keep-a"]).ok();
    home.admin(&server, &["chain", "info", "keep-b"]).ok();
}

#[test]
fn ctrl_c_at_the_hidden_key_prompt_turns_echo_back_on() {
    let server = TestServer::start();
    let home = Home::new();
    // The shell survives the Ctrl-C (a trap, which its children do not inherit) to report the
    // terminal's echo flag afterwards; it replaces `script`'s own shell, which would otherwise
    // take the SIGINT too and exit 130.
    let run = home.in_terminal(
        &server,
        None,
        "exec bash -c 'trap : INT; \"$LINKAPI\" auth login; echo \"rc=$?\"; stty -a'",
        &[("API key for", "\x03")],
    );
    let screen = run.ok();
    assert!(screen.contains("rc=130"), "{screen:?}");
    let flags: Vec<&str> = screen.split_whitespace().collect();
    assert!(flags.contains(&"echo"), "echo is off: {screen:?}");
    assert!(!flags.contains(&"-echo"), "echo is off: {screen:?}");
}

#[test]
fn declining_a_delete_says_so_and_succeeds() {
    let server = TestServer::start();
    let home = Home::new();
    home.admin(
        &server,
        &["chain", "create", "https://e.com", "--code", "kept"],
    )
    .ok();
    let run = home.on_terminal_typing(
        &server,
        Some(ADMIN_KEY),
        "chain delete kept",
        &[("[y/N]", "n\n")],
    );
    assert_eq!(run.code, 0, "{:?}", run.stdout);
    // One chain: the question speaks of one code.
    assert!(
        run.stdout.contains("Its code can never be used again"),
        "{:?}",
        run.stdout
    );
    assert!(!run.stdout.contains("Their"), "{:?}", run.stdout);
    assert!(run.stdout.contains("Nothing deleted."), "{:?}", run.stdout);
    assert!(!run.stdout.contains("error"), "{:?}", run.stdout);
    home.admin(&server, &["chain", "info", "kept"]).ok();
}

#[test]
fn commands_that_print_no_data_still_say_what_they_did_when_piped() {
    let server = TestServer::start();
    let home = Home::new();
    home.admin(
        &server,
        &["chain", "create", "https://e.com", "--code", "gone-soon"],
    )
    .ok();
    let deleted = home.admin(&server, &["chain", "delete", "gone-soon", "--yes"]);
    deleted.ok();
    assert!(
        deleted.stderr.starts_with("Deleted http://"),
        "{}",
        deleted.stderr
    );
    assert!(deleted.stderr.contains("/gone-soon"), "{}", deleted.stderr);
    let rotated = home.admin(&server, &["admin", "rotate-visitor-secret"]);
    rotated.ok();
    assert!(
        rotated
            .stderr
            .starts_with("Visitors are counted with a new secret since"),
        "{}",
        rotated.stderr
    );
}

#[test]
fn a_wrong_port_says_it_cannot_connect_whether_or_not_a_key_is_stored() {
    let server = TestServer::start();
    let home = Home::new();
    let unused = {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        listener.local_addr().unwrap()
    };
    let run = home.run(&["--host", &format!("http://{unused}"), "chain", "list"]);
    let stderr = run.fails(1);
    assert!(
        stderr.contains(&format!("could not connect to http://{unused}")),
        "{stderr}"
    );
    assert!(!stderr.contains("not logged in"), "{stderr}");
    // A server that answers, with no key: then the key is the reason.
    let run = home.run(&["--host", &server.url, "chain", "list"]);
    assert!(run.fails(4).contains("not logged in"), "{}", run.stderr);
}

#[test]
fn options_that_name_a_server_are_hidden_where_no_server_is_called() {
    let home = Home::new();
    for command in [
        &["serve", "--help"][..],
        &["completions", "--help"],
        &["man", "--help"],
        &["data", "backup", "--help"],
    ] {
        let help = home.run(command);
        let help = help.ok();
        for option in ["--host", "--profile", "--no-input"] {
            assert!(!help.contains(option), "{command:?} shows {option}: {help}");
        }
    }
    let help = home.run(&["chain", "list", "--help"]);
    for option in ["--host", "--profile", "--no-input"] {
        assert!(help.ok().contains(option), "chain list hides {option}");
    }
    // Still accepted, so a global flag in an alias never breaks a local command.
    home.run(&["--host", "http://127.0.0.1:1", "completions", "bash"])
        .ok();
    let man = home.run(&["man", "--help"]);
    assert!(
        man.ok().contains("--out-dir ~/.local/share/man/man1"),
        "{}",
        man.stdout
    );
}

#[test]
fn listing_every_chain_fetches_the_largest_pages() {
    let server = TestServer::start();
    let home = Home::new();
    let lines: String = std::iter::once("target_url\n".to_owned())
        .chain((0..230).map(|i| format!("https://e.com/{i}\n")))
        .collect();
    let mut cmd = home.cmd();
    cmd.env("LINKAPI_HOST", &server.url)
        .env("LINKAPI_API_KEY", ADMIN_KEY);
    home.run_with(cmd, &["chain", "import", "-"], Some(&lines))
        .ok();
    let before = answers_counted(&server, "chains.list", 200);
    let all = home
        .admin(&server, &["chain", "list", "--all", "--json=code"])
        .json();
    assert_eq!(all.as_array().unwrap().len(), 230);
    let requests = answers_counted(&server, "chains.list", 200) - before;
    assert_eq!(requests, 3.0, "230 chains at 100 a page");
}

#[test]
fn an_import_that_waits_for_the_rate_limit_says_so() {
    let server =
        TestServer::start_with_config(Some("rate_limit_per_second = 1\nrate_limit_burst = 1\n"));
    let home = Home::new();
    // The admin key is not limited; a script's own key is.
    let (_, key) = home.user_with_key(&server, "importer", &["chains:write"]);
    // Three batches of at most 2,000 lines: three requests a second apart at least.
    let lines: String = std::iter::once("target_url\n".to_owned())
        .chain((0..4001).map(|i| format!("https://e.com/{i}\n")))
        .collect();
    let mut cmd = home.cmd();
    cmd.env("LINKAPI_HOST", &server.url)
        .env("LINKAPI_API_KEY", &key);
    let run = home.run_with(cmd, &["chain", "import", "-"], Some(&lines));
    run.ok();
    assert!(
        run.stderr.contains("Created 4001 chains; 0 failed."),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr.contains("for the key's rate limit"),
        "the wait is not silent: {}",
        run.stderr
    );
    assert!(answers_counted(&server, "chains.create_bulk", 429) >= 1.0);
}

#[test]
fn linkapi_no_input_takes_the_values_people_write() {
    let server = TestServer::start();
    let home = Home::new();
    home.admin(
        &server,
        &["chain", "create", "https://e.com/ni", "--code", "noinput"],
    )
    .ok();
    for value in ["1", "true", "yes", "TRUE", "0", "false", "no", ""] {
        let mut cmd = home.cmd();
        cmd.env("LINKAPI_HOST", &server.url)
            .env("LINKAPI_API_KEY", ADMIN_KEY)
            .env("LINKAPI_NO_INPUT", value);
        home.run_with(cmd, &["chain", "list"], None).ok();
    }
    // On a terminal, a true value refuses to ask and a false one asks (and is answered no).
    for (value, prompts) in [
        ("1", false),
        ("yes", false),
        ("true", false),
        ("0", true),
        ("no", true),
    ] {
        let command = format!("LINKAPI_NO_INPUT={value} $LINKAPI chain delete noinput");
        let run = home.in_terminal(
            &server,
            Some(ADMIN_KEY),
            &command,
            &[("[y/N]", "n\r")][..(prompts as usize)],
        );
        let shown = format!("{}{}", run.stdout, run.stderr);
        assert_eq!(shown.contains("[y/N]"), prompts, "{value}: {shown}");
        if !prompts {
            assert!(shown.contains("pass --yes"), "{value}: {shown}");
        }
    }
    home.run_with(
        {
            let mut cmd = home.cmd();
            cmd.env("LINKAPI_NO_INPUT", "perhaps");
            cmd
        },
        &["chain", "list"],
        None,
    )
    .fails(2);
}
