//! Gives the binaries the commit they were built from, as `LINKAPI_COMMIT`, for `--version`:
//! `git rev-parse` of the workspace when it is a git checkout, else "unknown commit" (a
//! source archive, or no git installed).

use std::path::Path;
use std::process::Command;

fn main() {
    let manifest = std::env::var("CARGO_MANIFEST_DIR").unwrap_or_else(|_| ".".to_owned());
    let root = Path::new(&manifest).join("..");
    let git = root.join(".git");
    // Build again when HEAD moves: its file, the branch it names, the packed refs. Only files
    // that exist: cargo takes a missing one as changed, every build.
    let mut watched = vec![git.join("HEAD"), git.join("packed-refs")];
    if let Ok(head) = std::fs::read_to_string(git.join("HEAD"))
        && let Some(branch) = head.strip_prefix("ref: ")
    {
        watched.push(git.join(branch.trim()));
    }
    for file in watched.iter().filter(|f| f.is_file()) {
        println!("cargo:rerun-if-changed={}", file.display());
    }
    println!("cargo:rerun-if-changed=build.rs");
    let commit = Command::new("git")
        .args(["rev-parse", "--short=12", "HEAD"])
        .current_dir(&root)
        .output()
        .ok()
        .filter(|out| out.status.success())
        .and_then(|out| String::from_utf8(out.stdout).ok())
        .map(|text| text.trim().to_owned())
        .filter(|commit| !commit.is_empty())
        .unwrap_or_else(|| "unknown commit".to_owned());
    println!("cargo:rustc-env=LINKAPI_COMMIT={commit}");
}
