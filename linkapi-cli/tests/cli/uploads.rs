//! `linkapi upload`: batches with a bad file, retries on 429, progress bars on a terminal and
//! none elsewhere, Ctrl-C, list and delete.

use std::path::Path;
use std::process::Stdio;
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::images::png;
use crate::support::{Home, TestServer};

/// Writes `count` distinct valid PNGs named `img00.png`, ... into `dir`.
fn write_images(dir: &Path, count: usize) {
    std::fs::create_dir_all(dir).unwrap();
    for i in 0..count {
        std::fs::write(
            dir.join(format!("img{i:02}.png")),
            png(&format!("{}-{i}", dir.display()), 300),
        )
        .unwrap();
    }
}

fn json_lines(text: &str) -> Vec<Value> {
    text.lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

#[test]
fn fifty_files_with_one_bad_upload_the_rest_and_exit_non_zero() {
    let server = TestServer::start();
    let home = Home::new();
    let dir = home.dir.path().join("images");
    write_images(&dir, 49);
    std::fs::write(dir.join("broken.png"), "this is text, not a PNG").unwrap();
    let dir_arg = dir.display().to_string();
    let run = home.admin(
        &server,
        &["upload", "--dir", &dir_arg, "--json", "--jobs", "6"],
    );
    assert_eq!(run.code, 1, "stderr: {}", run.stderr);
    let results = json_lines(&run.stdout);
    assert_eq!(results.len(), 50, "{}", run.stdout);
    let (ok, failed): (Vec<&Value>, Vec<&Value>) = results.iter().partition(|r| r["ok"] == true);
    assert_eq!(ok.len(), 49);
    assert_eq!(failed.len(), 1);
    assert!(failed[0]["file"].as_str().unwrap().ends_with("broken.png"));
    assert!(
        failed[0]["error"].as_str().unwrap().contains("not a PNG"),
        "{}",
        failed[0]
    );
    for result in &ok {
        let url = result["url"].as_str().unwrap();
        assert!(url.starts_with(&server.url), "{url}");
    }
    assert!(
        run.stderr.contains("Uploaded 49 of 50 files"),
        "{}",
        run.stderr
    );
    // The summary names the failure again, however far its line scrolled.
    let named = format!("Failed:\n  {}: ", dir.join("broken.png").display());
    assert!(run.stderr.contains(&named), "{}", run.stderr);
    // No bars and no terminal codes when stderr is not a terminal.
    assert!(!run.stderr.contains('\u{1b}'), "{:?}", run.stderr);
    assert!(!run.stderr.contains("files ["), "{}", run.stderr);
    // Plain output: FILE<TAB>URL per line.
    let again = home.admin(&server, &["upload", &format!("{dir_arg}/img00.png")]);
    let line = again.ok().trim();
    let (file, url) = line.split_once('\t').unwrap();
    assert!(file.ends_with("img00.png"), "{line}");
    assert_eq!(
        url,
        ok.iter()
            .find(|r| r["file"].as_str().unwrap().ends_with("img00.png"))
            .unwrap()["url"]
    );
    let listed = home.admin(&server, &["upload", "list", "--limit", "100", "--json"]);
    assert_eq!(listed.json().as_array().unwrap().len(), 49);
}

#[test]
fn uploads_that_meet_a_rate_limit_are_retried_until_they_pass() {
    let server = TestServer::start_with_config(Some(
        "rate_limit_per_second = 2\nrate_limit_burst = 2\nrate_limit_admin_keys = true\n",
    ));
    let home = Home::new();
    let dir = home.dir.path().join("limited");
    write_images(&dir, 8);
    let run = home.admin(
        &server,
        &[
            "upload",
            "--dir",
            &dir.display().to_string(),
            "--jobs",
            "8",
            "--json",
        ],
    );
    assert_eq!(
        run.code, 0,
        "stdout: {}\nstderr: {}",
        run.stdout, run.stderr
    );
    let results = json_lines(&run.stdout);
    assert_eq!(results.len(), 8);
    assert!(results.iter().all(|r| r["ok"] == true), "{}", run.stdout);
    // The server did refuse some at first.
    let refused = crate::support::answers_counted(&server, "uploads.create", 429);
    assert!(refused >= 1.0, "no 429 was counted");
}

#[test]
fn a_terminal_shows_an_overall_bar_and_a_bar_per_file() {
    let server = TestServer::start();
    let home = Home::new();
    let dir = home.dir.path().join("tty");
    write_images(&dir, 12);
    std::fs::write(dir.join("notes.png"), "this is text, not a PNG").unwrap();
    let run = home.admin_on_tty(&server, &format!("upload --dir {} --jobs 2", dir.display()));
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    let screen = &run.stdout;
    // The total counts every file named from the first frame: the refused one is done.
    assert!(screen.contains("1/13 files ["), "no overall bar: {screen}");
    assert!(!screen.contains("/12 files"), "the total changed: {screen}");
    assert!(screen.contains("↑ img"), "no per-file bar: {screen}");
    // The last frame is the whole batch.
    assert!(
        screen.contains("13/13 files ["),
        "the bar ended short: {screen}"
    );
    assert!(screen.contains("Uploaded 12 of 13 files"), "{screen}");
    assert!(
        screen.contains("notes.png: the file is not a PNG"),
        "{screen}"
    );
}

#[test]
fn ctrl_c_stops_and_says_what_was_uploaded() {
    // One request per second: the batch takes many seconds, and is interrupted within it.
    let server = TestServer::start_with_config(Some(
        "rate_limit_per_second = 1\nrate_limit_burst = 1\nrate_limit_admin_keys = true\n",
    ));
    let home = Home::new();
    let dir = home.dir.path().join("interrupted");
    write_images(&dir, 20);
    let mut cmd = home.cmd();
    cmd.env("LINKAPI_HOST", &server.url)
        .env("LINKAPI_API_KEY", crate::support::ADMIN_KEY)
        .args(["upload", "--dir", &dir.display().to_string(), "--jobs", "1"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let child = cmd.spawn().unwrap();
    std::thread::sleep(Duration::from_millis(2500));
    let killed = std::process::Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let started = Instant::now();
    let out = child.wait_with_output().unwrap();
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "it stopped at once"
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "{stderr}");
    let uploaded = stdout.lines().filter(|l| l.contains("/files/")).count();
    assert!((1..20).contains(&uploaded), "{stdout}");
    assert!(
        stderr.contains(&format!("interrupted: Uploaded {uploaded} of 20 files")),
        "{stderr}"
    );
    assert!(stderr.contains("went to standard output"), "{stderr}");
}

/// Ctrl-C typed at a terminal while the results go to a file: the bars are gone and stay
/// gone, the summary is the last thing shown and says where the results went, and the exit
/// is 130 as a shell reports SIGINT.
#[test]
fn ctrl_c_at_a_terminal_leaves_the_summary_last_and_exits_130() {
    let server = TestServer::start_with_config(Some(
        "rate_limit_per_second = 1\nrate_limit_burst = 1\nrate_limit_admin_keys = true\n",
    ));
    let home = Home::new();
    let dir = home.dir.path().join("typed");
    write_images(&dir, 20);
    let results = home.dir.path().join("results.tsv");
    let run = home.in_terminal(
        &server,
        Some(crate::support::ADMIN_KEY),
        &format!(
            "stty cols 100 rows 40; \"$LINKAPI\" upload --dir {} --jobs 1 > {}",
            dir.display(),
            results.display()
        ),
        // Once the first file is done (the bar counts it), Ctrl-C.
        &[("1/20 files", "\x03")],
    );
    let screen = &run.stdout;
    assert_eq!(run.code, 130, "{screen:?}");
    let at = screen.find("interrupted: ").expect("a summary");
    let after = &screen[at..];
    assert!(!after.contains("listed above"), "{after:?}");
    assert!(after.contains("went to standard output"), "{after:?}");
    assert!(
        !after.contains(" files [") && !after.contains('█'),
        "a bar was drawn after the summary: {after:?}"
    );
    let listed = std::fs::read_to_string(&results).unwrap();
    let uploaded = listed.lines().filter(|l| l.contains("/files/")).count();
    assert!(uploaded >= 1, "{listed}");
    assert!(
        after.contains(&format!("Uploaded {uploaded} of 20 files")),
        "{after:?} {listed}"
    );
}

#[test]
fn uploads_are_listed_and_deleted_by_id() {
    let server = TestServer::start();
    let home = Home::new();
    let dir = home.dir.path().join("some");
    write_images(&dir, 2);
    let run = home.admin(
        &server,
        &["upload", "--dir", &dir.display().to_string(), "--json"],
    );
    let results = json_lines(run.ok());
    let id = results[0]["file_id"].as_i64().unwrap().to_string();
    let table = home.admin(&server, &["upload", "list"]);
    assert_eq!(table.ok().lines().count(), 2);
    home.admin(&server, &["upload", "delete", &id]).fails(2);
    home.admin(&server, &["upload", "delete", &id, "--yes"])
        .ok();
    let left = home.admin(&server, &["upload", "list", "--json"]).json();
    assert_eq!(left.as_array().unwrap().len(), 1);
    home.admin(&server, &["upload", "delete", &id, "--yes"])
        .fails(1);
    // A file too large for --max-size is refused before anything is sent.
    let big = home.admin(
        &server,
        &[
            "upload",
            &format!("{}/img00.png", dir.display()),
            "--max-size",
            "10",
        ],
    );
    // In sizes a person reads, not raw byte counts.
    assert!(
        big.fails(1).contains(" is larger than the 10 B limit")
            || big.stdout.contains(" is larger than the 10 B limit"),
        "{}{}",
        big.stdout,
        big.stderr
    );
    // Nothing named is a usage error.
    home.admin(&server, &["upload"]).fails(2);
}
