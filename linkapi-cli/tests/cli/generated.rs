//! The committed completions and man pages match what the CLI definitions render. Run with
//! LINKAPI_UPDATE_GENERATED=1 to rewrite them.

use std::path::{Path, PathBuf};

use linkapi_cli::cli::Shell;
use linkapi_cli::generate::{completion_file, render_completion, render_man_pages};

use crate::support::Home;

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

fn ensure(path: &Path, contents: &[u8], update: bool, stale: &mut Vec<String>) {
    let current = std::fs::read(path).unwrap_or_default();
    let normalise = |b: &[u8]| String::from_utf8_lossy(b).replace("\r\n", "\n");
    if normalise(&current) == normalise(contents) {
        return;
    }
    if update {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, contents).unwrap();
    } else {
        stale.push(path.display().to_string());
    }
}

#[test]
fn completions_and_man_pages_are_fresh() {
    let update = std::env::var_os("LINKAPI_UPDATE_GENERATED").is_some();
    let root = repo_root();
    let mut stale = Vec::new();
    for shell in [
        Shell::Bash,
        Shell::Zsh,
        Shell::Fish,
        Shell::Powershell,
        Shell::Elvish,
    ] {
        let path = root.join("completions").join(completion_file(shell));
        ensure(&path, &render_completion(shell), update, &mut stale);
    }
    let pages = render_man_pages().unwrap();
    let man = root.join("man/man1");
    for (name, page) in &pages {
        ensure(&man.join(name), page, update, &mut stale);
    }
    // A page for a command that no longer exists is stale too.
    let expected: Vec<&str> = pages.iter().map(|(n, _)| n.as_str()).collect();
    for entry in std::fs::read_dir(&man).into_iter().flatten().flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if !expected.contains(&name.as_str()) {
            if update {
                std::fs::remove_file(entry.path()).unwrap();
            } else {
                stale.push(entry.path().display().to_string());
            }
        }
    }
    assert!(
        stale.is_empty(),
        "out of date: {stale:?}\nrun `LINKAPI_UPDATE_GENERATED=1 cargo test -p linkapi-cli --test cli generated` and commit"
    );
}

#[test]
fn the_commands_print_what_is_committed() {
    let home = crate::support::Home::new();
    let bash = home.run(&["completions", "bash"]);
    assert_eq!(bash.ok().as_bytes(), render_completion(Shell::Bash));
    let man = home.run(&["man"]);
    assert!(
        man.ok().starts_with(".ie"),
        "{}",
        &man.stdout[..40.min(man.stdout.len())]
    );
    let dir = tempfile::tempdir().unwrap();
    home.run(&["man", "--out-dir", dir.path().to_str().unwrap()])
        .ok();
    assert!(dir.path().join("linkapi-chain-create.1").exists());
    assert!(dir.path().join("linkapi-admin-key-revoke.1").exists());
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
fn version_is_the_servers_release_and_commit_and_pages_name_the_release_alone() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_linkapi"))
        .arg("--version")
        .output()
        .unwrap();
    assert!(out.status.success());
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        format!("linkapi {}\n", linkapi_server::VERSION)
    );
    let pages = render_man_pages().unwrap();
    let (_, root) = pages.first().unwrap();
    let root = String::from_utf8_lossy(root);
    assert!(root.contains(&format!("\"linkapi {}\"", env!("CARGO_PKG_VERSION"))));
    assert!(
        !root.contains(linkapi_server::VERSION),
        "a page names no commit"
    );
}

/// What fish offers for `line` with the committed script loaded: the first word of each
/// candidate.
fn fish_offers(line: &str) -> Vec<String> {
    let script = repo_root().join("completions/linkapi.fish");
    let out = std::process::Command::new("fish")
        .args(["--no-config", "-c"])
        .arg(format!(
            "source {}; complete -C {}",
            script.display(),
            fish_quoted(line)
        ))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| l.split('\t').next().unwrap_or_default().to_owned())
        .collect()
}

fn fish_quoted(text: &str) -> String {
    format!("'{}'", text.replace('\\', "\\\\").replace('\'', "\\'"))
}

#[test]
fn fish_offers_subcommands_positional_values_and_options_at_every_depth() {
    if !crate::tools::available("fish (Debian's fish)", &["fish", "--version"]) {
        return;
    }
    let has =
        |offered: &[String], words: &[&str]| words.iter().all(|w| offered.iter().any(|o| o == w));
    let top = fish_offers("linkapi ch");
    assert!(has(&top, &["chain"]), "{top:?}");
    // A positional argument's values, not file names.
    let shells = fish_offers("linkapi completions ");
    assert!(has(&shells, &["bash", "zsh", "fish"]), "{shells:?}");
    assert!(!shells.iter().any(|s| s == "Cargo.toml"), "{shells:?}");
    // Three levels down, the second positional: its values, not the sibling subcommands.
    let status = fish_offers("linkapi admin domain set-status 1 ");
    assert_eq!(status, ["effective", "not-effective"], "{status:?}");
    let subcommands = fish_offers("linkapi admin domain ");
    assert!(
        has(&subcommands, &["create", "list", "set-status"]),
        "{subcommands:?}"
    );
    // Options of the command at hand, global ones included, and an option's values.
    let options = fish_offers("linkapi chain create https://e.com --");
    assert!(
        has(&options, &["--title", "--domain", "--host", "--help"]),
        "{options:?}"
    );
    assert!(!options.iter().any(|o| o == "--dir"), "{options:?}");
    let by = fish_offers("linkapi stats x --by ");
    assert!(has(&by, &["referrers", "devices"]), "{by:?}");
    // The word after an option that takes a value is not taken for a subcommand.
    let after = fish_offers("linkapi --profile chain ");
    assert!(has(&after, &["chain", "auth"]), "{after:?}");
}
