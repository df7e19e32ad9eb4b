//! `linkapi chain export`: every short link streamed to a file (written whole or not at all)
//! or to standard output, in the format the file's name or `--format` asks for.

use crate::support::{Home, TestServer};

#[test]
fn an_export_is_written_whole_to_a_file_or_to_stdout() {
    let server = TestServer::start();
    let home = Home::new();
    let csv = "target_url,title,code\n\
               https://example.com/a,\"Alpha, \"\"first\"\"\",Alpha\n\
               https://example.com/b,Beta,alpha\n\
               https://example.com/c,春季,third\n";
    let mut cmd = home.cmd();
    cmd.env("LINKAPI_HOST", &server.url)
        .env("LINKAPI_API_KEY", crate::support::ADMIN_KEY);
    let import = home.run_with(cmd, &["chain", "import", "--format", "csv"], Some(csv));
    assert_eq!(import.code, 0, "{}", import.stderr);

    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("links.csv");
    let file_arg = file.to_str().unwrap();
    let wrote = home.admin(&server, &["chain", "export", "--output", file_arg]);
    wrote.ok();
    assert!(wrote.stderr.contains("Wrote"), "{}", wrote.stderr);
    assert!(!dir.path().join("links.csv.partial").exists());
    let mut reader = csv::Reader::from_path(&file).unwrap();
    let header: Vec<String> = reader
        .headers()
        .unwrap()
        .iter()
        .map(str::to_owned)
        .collect();
    assert_eq!(header[..4], ["code", "domain", "target_url", "chain_title"]);
    let rows: Vec<(String, String)> = reader
        .records()
        .map(|r| {
            let r = r.unwrap();
            (r[0].to_owned(), r[3].to_owned())
        })
        .collect();
    assert_eq!(
        rows,
        [
            ("Alpha".to_owned(), "Alpha, \"first\"".to_owned()),
            ("alpha".to_owned(), "Beta".to_owned()),
            ("third".to_owned(), "春季".to_owned()),
        ],
        "every line, case twins apart, in creation order"
    );

    let stdout = home.admin(&server, &["chain", "export"]);
    let lines: Vec<serde_json::Value> = stdout
        .ok()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 3, "JSON lines by default");
    assert_eq!(lines[2]["chain_title"], "春季");
    let as_csv = home.admin(&server, &["chain", "export", "--format", "csv"]);
    assert!(as_csv.ok().starts_with("code,domain,"), "{}", as_csv.stdout);
}

#[test]
fn an_export_that_fails_leaves_no_file() {
    let home = Home::new();
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("links.jsonl");
    let mut cmd = home.cmd();
    // Nothing listens on port 9 of the loopback.
    cmd.env("LINKAPI_HOST", "http://127.0.0.1:9")
        .env("LINKAPI_API_KEY", crate::support::ADMIN_KEY);
    let run = home.run_with(
        cmd,
        &["chain", "export", "--output", file.to_str().unwrap()],
        None,
    );
    run.fails(1);
    assert!(!file.exists());
    assert!(!dir.path().join("links.jsonl.partial").exists());
}
