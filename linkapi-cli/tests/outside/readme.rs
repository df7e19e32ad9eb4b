//! The README's examples run in order on a fresh server, exactly as written: every ```sh block
//! that follows an `<!-- example` comment, in one bash session with `set -euo pipefail`, the
//! real `linkapi` binary on PATH, curl (failing on any HTTP error) and jq.
//!
//! Three things are put in place of what only a reader's machine has: the key the server
//! printed (`lk_2mXq...`), its address (`http://127.0.0.1:8080`), and `cargo run -q -p
//! linkapi-cli --` (the binary under test). bash, curl and jq are required when `CI` or
//! `LINKAPI_TEST_README` is set; otherwise the test is listed as ignored (`needs.rs`).

use std::path::Path;
use std::process::Command;

use crate::support::{ADMIN_KEY, Home, TestServer};

/// The example blocks of `readme`, in order.
fn examples(readme: &str) -> Vec<String> {
    let mut blocks = Vec::new();
    let mut lines = readme.lines();
    while let Some(line) = lines.next() {
        if !line.starts_with("<!-- example") {
            continue;
        }
        let fence = lines.next().unwrap_or_default();
        assert_eq!(
            fence, "```sh",
            "an example marker must stand right above a ```sh block"
        );
        let body: Vec<&str> = lines.by_ref().take_while(|l| *l != "```").collect();
        blocks.push(body.join("\n"));
    }
    blocks
}

pub(crate) fn the_readme_examples_run_in_order_on_a_fresh_server() {
    let readme =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../README.md"))
            .unwrap();
    let blocks = examples(&readme);
    assert!(
        blocks.len() >= 4,
        "the README lost its examples: {}",
        blocks.len()
    );

    let server = TestServer::start();
    let script = format!(
        "set -euo pipefail\n\
         curl() {{ command curl --fail-with-body --show-error \"$@\"; }}\n{}\n",
        blocks.join("\n")
    )
    .replace("lk_2mXq...", ADMIN_KEY)
    .replace("http://127.0.0.1:8080", &server.url)
    .replace("cargo run -q -p linkapi-cli --", "linkapi");

    let home = Home::new();
    let work = home.dir.path().join("work");
    std::fs::create_dir_all(&work).unwrap();
    let bin_dir = Path::new(env!("CARGO_BIN_EXE_linkapi")).parent().unwrap();
    let path = std::env::join_paths(std::iter::once(bin_dir.to_path_buf()).chain(
        std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()),
    ))
    .unwrap();
    let mut bash = Command::new("bash");
    for (key, value) in home.cmd().get_envs() {
        if let Some(value) = value {
            bash.env(key, value);
        }
    }
    bash.env("PATH", path)
        .env("LINKAPI_HOST", &server.url)
        .env("LINKAPI_API_KEY", ADMIN_KEY)
        .current_dir(&work);
    let run = home.run_with(bash, &["-c", &script], None);
    run.ok();

    // What the examples' comments say they show.
    let short = server.url.as_str();
    for shown in [
        "302 https://example.com/".to_owned(),
        "302 https://example.com/spring".to_owned(),
        "location: https://example.com/autumn".to_owned(),
        format!("{short}/spring-27"),
        format!("{short}/join-us"),
        format!("{short}/sales\thttps://work.example.com/u/43"),
        "\"duplicate\":false".to_owned(),
    ] {
        assert!(
            run.stdout.contains(&shown),
            "the examples did not show {shown:?}:\n{}",
            run.stdout
        );
    }
}
