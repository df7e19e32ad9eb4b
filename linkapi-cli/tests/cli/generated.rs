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
