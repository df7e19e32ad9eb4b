//! The committed fish completions as fish itself offers them: subcommands, positional values
//! and options at every depth.

use std::path::Path;

/// The workspace root.
fn repo_root() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
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

pub(crate) fn fish_offers_subcommands_positional_values_and_options_at_every_depth() {
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
