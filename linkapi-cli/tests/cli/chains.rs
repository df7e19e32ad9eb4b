//! `linkapi chain ...`, `group ...`, `domain ...`: JSON, piped tables, bulk import.

use crate::support::{Home, TestServer};

#[test]
fn create_list_info_edit_delete() {
    let server = TestServer::start();
    let home = Home::new();

    let created = home
        .admin(
            &server,
            &[
                "chain",
                "create",
                "https://example.com/a",
                "--title",
                "Alpha",
                "--code",
                "alpha",
                "--json",
            ],
        )
        .json();
    assert_eq!(created["code"], "alpha");
    assert_eq!(created["chain_title"], "Alpha");
    assert_eq!(created["render_url"], format!("{}/alpha", server.url));
    let id = created["id"].as_i64().unwrap();

    home.admin(
        &server,
        &[
            "chain",
            "create",
            "https://example.com/b",
            "--expires",
            "2099-01-01 00:00:00",
        ],
    )
    .ok();

    // Piped: no header, tab-separated, one row per chain, newest first.
    let listed = home.admin(&server, &["chain", "list"]);
    let rows: Vec<Vec<&str>> = listed
        .ok()
        .lines()
        .map(|l| l.split('\t').collect())
        .collect();
    assert_eq!(rows.len(), 2);
    assert!(rows.iter().all(|r| r.len() == 10), "{rows:?}");
    assert_eq!(rows[1][8], "never", "expiry");
    assert_eq!(rows[1][0], id.to_string());
    assert_eq!(rows[1][1], "alpha");
    assert!(!listed.stdout.contains("CODE"), "no header when piped");

    let selected = home
        .admin(&server, &["chain", "list", "--json=code,target_url"])
        .json();
    let first = selected.as_array().unwrap()[1].as_object().unwrap().clone();
    assert_eq!(first.keys().collect::<Vec<_>>(), ["code", "target_url"]);
    assert_eq!(first["target_url"], "https://example.com/a");

    // By id and by code give the same chain.
    let by_id = home
        .admin(&server, &["chain", "info", &id.to_string(), "--json"])
        .json();
    let by_code = home
        .admin(&server, &["chain", "info", "alpha", "--json"])
        .json();
    assert_eq!(by_id, by_code);

    let edited = home
        .admin(
            &server,
            &[
                "chain",
                "edit",
                "alpha",
                "--target-url",
                "https://example.org/new",
                "--json=target_url",
            ],
        )
        .json();
    assert_eq!(edited["target_url"], "https://example.org/new");

    // Not interactive and no --yes: refuse, delete nothing.
    let refused = home.admin(&server, &["chain", "delete", "alpha"]);
    assert!(refused.fails(2).contains("--yes"));
    home.admin(&server, &["chain", "info", "alpha"]).ok();

    home.admin(&server, &["chain", "delete", "alpha", "--yes"])
        .ok();
    let gone = home.admin(&server, &["chain", "info", "alpha"]);
    assert!(gone.fails(1).contains("not found"), "{}", gone.stderr);
}

#[test]
fn redirect_rules_come_from_flags_or_a_file_and_are_replaced_or_cleared() {
    let server = TestServer::start();
    let home = Home::new();
    let created = home
        .admin(
            &server,
            &[
                "chain",
                "create",
                "https://example.com/app",
                "--code",
                "app",
                "--rule",
                "device=ios => https://apps.example/ios",
                "--rule",
                "country=de, language=de, query.ref=tw => https://example.com/de",
                "--json=rules",
            ],
        )
        .json();
    assert_eq!(
        created["rules"],
        serde_json::json!([
            {"device": "ios", "target_url": "https://apps.example/ios"},
            {"country": "DE", "language": "de", "query": {"ref": "tw"},
             "target_url": "https://example.com/de"},
        ])
    );
    let info = home.admin(&server, &["chain", "info", "app", "--json=rules"]);
    assert_eq!(info.json(), created);

    // A bad rule is named by the server; a malformed one is a usage error before any request.
    let refused = home.admin(
        &server,
        &[
            "chain",
            "edit",
            "app",
            "--rule",
            "device=watch => https://e.com",
        ],
    );
    assert!(refused.fails(1).contains("rule 1"), "{}", refused.stderr);
    let malformed = home.admin(&server, &["chain", "edit", "app", "--rule", "device=ios"]);
    assert!(malformed.fails(2).contains("=>"), "{}", malformed.stderr);

    // From a file (here standard input): replaces them all.
    let mut cmd = home.cmd();
    cmd.env("LINKAPI_HOST", &server.url)
        .env("LINKAPI_API_KEY", crate::support::ADMIN_KEY);
    let replaced = home.run_with(
        cmd,
        &["chain", "edit", "app", "--rules-file", "-", "--json=rules"],
        Some(r#"[{"device": "android", "target_url": "https://apps.example/android"}]"#),
    );
    assert_eq!(
        replaced.json()["rules"],
        serde_json::json!([{"device": "android", "target_url": "https://apps.example/android"}])
    );
    let mut cmd = home.cmd();
    cmd.env("LINKAPI_HOST", &server.url)
        .env("LINKAPI_API_KEY", crate::support::ADMIN_KEY);
    let not_json = home.run_with(
        cmd,
        &["chain", "edit", "app", "--rules-file", "-"],
        Some("device=ios"),
    );
    assert!(
        not_json.fails(2).contains("JSON array"),
        "{}",
        not_json.stderr
    );

    let cleared = home
        .admin(
            &server,
            &["chain", "edit", "app", "--clear-rules", "--json=rules"],
        )
        .json();
    assert_eq!(cleared["rules"], serde_json::json!([]));
}

#[test]
fn list_pages_and_all() {
    let server = TestServer::start();
    let home = Home::new();
    for i in 0..5 {
        home.admin(
            &server,
            &[
                "chain",
                "create",
                &format!("https://e.com/{i}"),
                "--title",
                // A hyphen, which random codes never have: the query below matches titles only.
                &format!("t-{i}"),
            ],
        )
        .ok();
    }
    // A page that leaves chains out says so on stderr, piped too; the last page does not.
    let first = home.admin(&server, &["chain", "list", "--limit", "2"]);
    assert_eq!(first.ok().lines().count(), 2);
    assert!(
        first.stderr.contains("3 more of 5") && first.stderr.contains("--all"),
        "{}",
        first.stderr
    );
    let page = home.admin(&server, &["chain", "list", "--limit", "2", "--page", "3"]);
    assert_eq!(page.ok().lines().count(), 1);
    assert!(!page.stderr.contains("more of"), "{}", page.stderr);
    let all = home
        .admin(
            &server,
            &["chain", "list", "--limit", "2", "--all", "--json=code"],
        )
        .json();
    assert_eq!(all.as_array().unwrap().len(), 5);
    let found = home.admin(&server, &["chain", "list", "--query", "t-3"]);
    assert_eq!(found.ok().lines().count(), 1);
}

#[test]
fn import_reports_each_line_and_fails_when_one_does() {
    let server = TestServer::start();
    let home = Home::new();
    let csv = "target_url,title,code\nhttps://a.example/,A,imp-a\nftp://bad.example/,B,\n\nhttps://c.example/,C,imp-c\nexample.com/x,D,\n";
    let mut cmd = home.cmd();
    cmd.env("LINKAPI_HOST", &server.url)
        .env("LINKAPI_API_KEY", crate::support::ADMIN_KEY);
    let run = home.run_with(cmd, &["chain", "import"], Some(csv));
    assert_eq!(run.code, 1, "{}", run.stderr);
    let lines: Vec<Vec<&str>> = run
        .stdout
        .lines()
        .map(|l| l.split('\t').collect())
        .collect();
    assert_eq!(lines.len(), 4);
    assert_eq!(lines[0][..3], ["2", "ok", "imp-a"]);
    assert_eq!(lines[1][..2], ["3", "error"]);
    assert!(lines[1][2].contains("http or https"), "{:?}", lines[1]);
    assert_eq!(lines[2][..3], ["5", "ok", "imp-c"]);
    // A host without its scheme is told so, not "relative URL without a base".
    assert_eq!(lines[3][..2], ["6", "error"]);
    assert!(lines[3][2].contains("no scheme"), "{:?}", lines[3]);
    assert!(
        run.stderr.contains("Created 2 chains; 2 failed."),
        "{}",
        run.stderr
    );
    // The good lines were created.
    home.admin(&server, &["chain", "info", "imp-c"]).ok();

    // JSON lines in, JSON lines out; all good exits 0.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("links.jsonl");
    std::fs::write(
        &file,
        "{\"target_url\":\"https://d.example/\",\"code\":\"imp-d\"}\n{\"target_url\":\"https://e.example/\",\"chain_title\":\"E\"}\n",
    )
    .unwrap();
    let run = home.admin(
        &server,
        &["chain", "import", file.to_str().unwrap(), "--json"],
    );
    let results: Vec<serde_json::Value> = run
        .ok()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(results.len(), 2);
    assert_eq!(results[0]["ok"], true);
    assert_eq!(results[0]["chain"]["code"], "imp-d");
    assert_eq!(results[1]["line"], 2);
}

#[test]
fn a_large_import_goes_in_a_few_bulk_requests() {
    let server = TestServer::start();
    let home = Home::new();
    let mut csv = String::from("target_url,title\n");
    for i in 0..4_500 {
        csv.push_str(&format!("https://bulk.example/{i},Item {i}\n"));
    }
    let mut cmd = home.cmd();
    cmd.env("LINKAPI_HOST", &server.url)
        .env("LINKAPI_API_KEY", crate::support::ADMIN_KEY);
    let run = home.run_with(cmd, &["chain", "import", "--format", "csv"], Some(&csv));
    assert_eq!(run.code, 0, "{}", run.stderr);
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(lines.len(), 4_500);
    assert!(lines[4_499].starts_with("4501\tok\t"), "{}", lines[4_499]);
    assert!(
        run.stderr.contains("Created 4500 chains; 0 failed."),
        "{}",
        run.stderr
    );
    assert_eq!(
        crate::support::answers_counted(&server, "chains.create_bulk", 200),
        3.0,
        "2,000 lines a request"
    );
}

#[test]
fn an_import_killed_halfway_and_run_again_creates_each_line_once() {
    let server = TestServer::start_with_config(Some("daily_create_quota = 1000000\n"));
    let home = Home::new();
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("links.csv");
    let lines = 10_000;
    let mut csv = String::from("target_url,title\n");
    for i in 0..lines {
        csv.push_str(&format!("https://resume.example/{i},Item {i}\n"));
    }
    std::fs::write(&file, csv).unwrap();
    let import = || {
        let mut cmd = home.cmd();
        cmd.env("LINKAPI_HOST", &server.url)
            .env("LINKAPI_API_KEY", crate::support::ADMIN_KEY)
            .args(["chain", "import", file.to_str().unwrap()]);
        cmd
    };
    let chains = || {
        home.admin(&server, &["admin", "user", "show", "1", "--json"])
            .json()["usage"]["chains"]
            .as_i64()
            .unwrap()
    };

    // Killed (SIGKILL: no chance to tidy up) once the server has answered one of its five
    // batches.
    let mut first = import()
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let started = std::time::Instant::now();
    while crate::support::answers_counted(&server, "chains.create_bulk", 200) < 1.0 {
        assert!(
            started.elapsed().as_secs() < 120,
            "the import made no progress"
        );
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    first.kill().unwrap();
    first.wait().unwrap();
    let after_kill = chains();
    assert!(
        (2_000..lines).contains(&after_kill),
        "killed halfway: {after_kill} chains"
    );

    // Run again as it was: what the server took is answered from the first run, the rest is
    // created, and no line is created twice.
    let again = home.run_with(import(), &[], None);
    assert_eq!(again.code, 0, "{}", again.stderr);
    assert_eq!(again.stdout.lines().count(), lines as usize);
    assert!(
        again
            .stderr
            .contains("had been created by an earlier run of this import"),
        "{}",
        again.stderr
    );
    assert_eq!(chains(), lines);

    // A third run with a new key imports the lines anew, on purpose.
    let fresh = home.run_with(import(), &["--idempotency-key", "second-import"], None);
    assert_eq!(fresh.code, 0, "{}", fresh.stderr);
    assert!(
        fresh
            .stderr
            .contains(&format!("Created {lines} chains; 0 failed.")),
        "{}",
        fresh.stderr
    );
    assert_eq!(chains(), 2 * lines);
}

#[test]
fn a_create_repeated_with_its_idempotency_key_creates_once() {
    let server = TestServer::start();
    let home = Home::new();
    let create = || {
        home.admin(
            &server,
            &[
                "chain",
                "create",
                "https://example.com/once",
                "--idempotency-key",
                "ticket-77",
                "--json",
            ],
        )
    };
    let first = create();
    let created = first.json();
    let again = create();
    assert_eq!(again.json(), created);
    assert!(
        again.stderr.contains("created by an earlier request"),
        "{}",
        again.stderr
    );
    let other = home.admin(
        &server,
        &[
            "chain",
            "create",
            "https://example.com/other",
            "--idempotency-key",
            "ticket-77",
        ],
    );
    assert!(
        other.fails(1).contains("used for a different request"),
        "{}",
        other.stderr
    );
}

#[test]
fn groups_and_domains() {
    let server = TestServer::start();
    let home = Home::new();
    let group = home
        .admin(&server, &["group", "create", "Spring", "--json"])
        .json();
    assert_eq!(group["name"], "Spring");
    let group_id = group["id"].as_i64().unwrap().to_string();
    home.admin(
        &server,
        &["chain", "create", "https://e.com", "--group", &group_id],
    )
    .ok();
    let groups = home.admin(&server, &["group", "list", "--json"]).json();
    assert_eq!(groups[0]["chain_count"], 1);
    let listed = home.admin(&server, &["group", "list"]);
    assert_eq!(
        listed.ok().trim(),
        format!(
            "{group_id}\tSpring\t1\t1\t{}",
            groups[0]["created_at"].as_str().unwrap()
        )
    );
    let one = home
        .admin(&server, &["group", "info", &group_id, "--json"])
        .json();
    assert_eq!(one, groups[0]);
    let missing = home.admin(&server, &["group", "info", "999"]);
    assert!(missing.fails(1).contains("not found"), "{}", missing.stderr);

    let domains = home.admin(&server, &["domain", "list", "--json"]).json();
    assert_eq!(domains[0]["domain"], server.addr.to_string());
    let row = home.admin(&server, &["domain", "list"]);
    assert!(row.ok().contains("\teffective\t"), "{}", row.stdout);

    // `--domain` takes a host name as well as an id, as the compatibility API does.
    let brand = home
        .admin(
            &server,
            &[
                "admin",
                "domain",
                "create",
                "brand.test",
                "--shared",
                "--json=id",
            ],
        )
        .json();
    let made = home
        .admin(
            &server,
            &[
                "chain",
                "create",
                "https://e.com/brand",
                "--code",
                "on-brand",
                "--domain",
                "Brand.Test",
                "--json=render_url,domain_id",
            ],
        )
        .json();
    assert_eq!(made["domain_id"], brand["id"], "{made}");
    assert!(
        made["render_url"]
            .as_str()
            .unwrap()
            .contains("brand.test/on-brand"),
        "{made}"
    );
    let found = home
        .admin(
            &server,
            &[
                "chain",
                "info",
                "on-brand",
                "--domain",
                "brand.test",
                "--json=target_url",
            ],
        )
        .json();
    assert_eq!(found["target_url"], "https://e.com/brand");
    let unknown = home.admin(
        &server,
        &[
            "chain",
            "create",
            "https://e.com",
            "--domain",
            "elsewhere.test",
        ],
    );
    assert!(
        unknown.fails(2).contains("no domain elsewhere.test"),
        "{}",
        unknown.stderr
    );
}

#[test]
fn a_terminal_gets_a_table_with_headers() {
    let server = TestServer::start();
    let home = Home::new();
    home.admin(
        &server,
        &[
            "chain",
            "create",
            "https://example.com/tty",
            "--code",
            "tty",
        ],
    )
    .ok();
    let run = home.admin_on_tty(&server, "chain list");
    let out = run.ok();
    for header in ["ID", "CODE", "URL", "TARGET", "STATUS"] {
        assert!(out.contains(header), "{out}");
    }
    assert!(out.contains('│') && out.contains("tty"), "{out}");
    assert!(!out.contains('\t'), "{out}");
}

#[test]
fn conversions_are_reported_once_and_listed() {
    let server = TestServer::start();
    let home = Home::new();
    home.admin(
        &server,
        &["chain", "create", "https://shop.example/", "--code", "sale"],
    )
    .ok();
    let report = [
        "conversion",
        "report",
        "sale",
        "--type",
        "purchase",
        "--out-id",
        "order-17",
        "--value-cents",
        "4990",
        "--ad-platform",
        "meta",
        "--json",
    ];
    let first = home.admin(&server, &report);
    assert_eq!(first.json()["duplicate"], false);
    // Piped, a new event gets no confirmation (that is for terminals) ...
    assert!(!first.stderr.contains("duplicate"), "{}", first.stderr);
    let event_id = first.json()["event_id"].as_str().unwrap().to_owned();

    let again = home.admin(&server, &report);
    assert_eq!(again.json()["duplicate"], true);
    assert_eq!(again.json()["event_id"], event_id.as_str());
    // ... but a duplicate is always said, since nothing was recorded.
    assert!(again.stderr.contains("duplicate"), "{}", again.stderr);

    // A purchase without its idempotency token is the server's 400, exit status 1.
    let refused = home.admin(
        &server,
        &["conversion", "report", "sale", "--type", "purchase"],
    );
    assert!(
        refused.fails(1).contains("requires out_id"),
        "{}",
        refused.stderr
    );

    // Piped, the list is tab-separated rows: one event, the value in cents.
    let listed = home.admin(&server, &["conversion", "list", "sale"]);
    let rows: Vec<&str> = listed.ok().lines().collect();
    assert_eq!(rows.len(), 1, "{rows:?}");
    assert!(rows[0].starts_with(&event_id), "{rows:?}");
    assert!(rows[0].contains("\t4990\t"), "{rows:?}");
}

/// A visit to `code` as a browser would send it, straight over TCP.
fn visit(server: &TestServer, code: &str) {
    use std::io::{Read, Write};
    let mut stream = std::net::TcpStream::connect(server.addr).unwrap();
    write!(
        stream,
        "GET /{code} HTTP/1.1\r\nHost: {}\r\nUser-Agent: Mozilla/5.0 (X11; Linux x86_64) \
         Firefox/128.0\r\nConnection: close\r\n\r\n",
        server.addr
    )
    .unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    assert!(answer.starts_with("HTTP/1.1 302"), "{answer}");
}

#[test]
fn stats_show_totals_and_a_daily_trend() {
    let server = TestServer::start();
    let home = Home::new();
    home.admin(
        &server,
        &["chain", "create", "https://example.com/s", "--code", "seen"],
    )
    .ok();
    visit(&server, "seen");
    visit(&server, "seen");
    // A plain curl, as a newcomer tries a link: a bot visit, counted apart.
    assert_eq!(
        crate::support::fetch_status(&format!("{}/seen", server.url)),
        302
    );
    // Counts are written within about a second.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    let stats = loop {
        let stats = home
            .admin(&server, &["stats", "seen", "--days", "3", "--json"])
            .json();
        if (stats["total_clicks"] == 2 && stats["bot_clicks"] == 1)
            || std::time::Instant::now() > deadline
        {
            break stats;
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    };
    assert_eq!(stats["total_clicks"], 2);
    assert_eq!(stats["bot_clicks"], 1);
    assert_eq!(stats["unique_visitors"], 1);
    assert_eq!(stats["trend_days"], 3);
    // Every field of the JSON may be asked for alone (`bot_clicks` once was not).
    let bots = home
        .admin(
            &server,
            &["stats", "seen", "--days", "3", "--json=bot_clicks"],
        )
        .json();
    assert_eq!(bots, serde_json::json!({"bot_clicks": 1}));
    let trend = stats["daily_trend"].as_array().unwrap();
    assert_eq!(trend.len(), 3);
    assert_eq!(trend[2]["clicks"], 2);
    assert_eq!(trend[0]["clicks"], 0);

    // Piped: one line per day, date, visits and bot visits.
    let piped = home.admin(&server, &["stats", "seen", "--days", "2"]);
    let rows: Vec<&str> = piped.ok().lines().collect();
    assert_eq!(rows.len(), 2, "{rows:?}");
    assert!(rows[1].ends_with("\t2\t1"), "{rows:?}");
    assert!(rows[0].ends_with("\t0\t0"), "{rows:?}");

    // On a terminal: the totals and a bar chart.
    let tty = home.admin_on_tty(&server, "stats seen --days 2");
    let out = tty.ok();
    assert!(
        out.contains("2 visits, 1 unique visitors; 1 by bots, counted apart"),
        "{out}"
    );
    assert!(out.contains("DAY") && out.contains('█'), "{out}");
    assert!(out.contains("Last 2 days: ▁█ 2 visits, busiest"), "{out}");

    // Fitted to the terminal: every line of a 90-day chart within 60 columns, the bar of the
    // busiest day filling what the other columns leave.
    let mut narrow = home.terminal(
        &server,
        Some(crate::support::ADMIN_KEY),
        "stty cols 60 rows 40; \"$LINKAPI\" stats seen --days 90",
    );
    narrow.env_remove("COLUMNS");
    let run = home.run_with(narrow, &[], None);
    let out = run.ok();
    let charts: Vec<usize> = out
        .lines()
        .skip(1)
        .map(|l| l.trim_end().chars().count())
        .collect();
    assert!(charts.iter().all(|&w| w <= 60), "{out}");
    assert_eq!(
        charts.first(),
        Some(&60),
        "the sparkline's line fills the width: {out}"
    );
    let today = out
        .lines()
        .rev()
        .find(|l| l.contains('█'))
        .unwrap_or_default();
    assert!(today.chars().filter(|&c| c == '█').count() >= 20, "{out}");

    // By a dimension: ranked values with their share and a bar; piped, VALUE and VISITS.
    let by = home.admin(&server, &["stats", "seen", "--by", "devices"]);
    let rows: Vec<&str> = by.ok().lines().collect();
    assert_eq!(rows, ["desktop\t2", "bot\t1"], "{}", by.stdout);
    let tty = home.admin_on_tty(&server, "stats seen --by devices");
    let out = tty.ok();
    assert!(out.contains("by devices, last 7 days: 3 visits"), "{out}");
    assert!(out.contains("66.7%") && out.contains("33.3%"), "{out}");
    let json = home
        .admin(&server, &["stats", "seen", "--by", "os", "--json"])
        .json();
    assert_eq!(json["dimension"], "os");
    assert_eq!(json["items"][0]["value"], "Linux");
    let unknown = home.run(&["stats", "seen", "--by", "planets"]);
    assert!(unknown.fails(2).contains("referrers"), "{}", unknown.stderr);

    // Without a chain: the caller's visits across their chains, most visited first.
    let summary = home.admin(&server, &["stats"]);
    let rows: Vec<&str> = summary.ok().lines().collect();
    assert_eq!(
        rows,
        [format!("seen\t2\t{}/seen", server.url)],
        "{}",
        summary.stdout
    );
    let tty = home.admin_on_tty(&server, "stats --days 3");
    let out = tty.ok();
    assert!(
        out.contains("Last 3 days: 2 visits across your chains"),
        "{out}"
    );
    assert!(out.contains("CODE") && out.contains("seen"), "{out}");

    // Out of range is a usage error, found before any request.
    let refused = home.run(&["stats", "seen", "--days", "366"]);
    assert!(refused.fails(2).contains("366"), "{}", refused.stderr);
}

#[test]
fn a_qr_code_is_drawn_on_a_terminal_and_written_as_an_image_elsewhere() {
    let server = TestServer::start();
    let home = Home::new();
    let created = home
        .admin(
            &server,
            &[
                "chain",
                "create",
                "https://example.com/qr",
                "--code",
                "qr-cli",
                "--json",
            ],
        )
        .json();
    let link = created["render_url"].as_str().unwrap().to_owned();

    home.qr_every_way(&server, &["chain", "qr"], "qr-cli", &link);

    home.admin(&server, &["chain", "qr", "qr-cli", "--size", "10"])
        .fails(2);
    home.admin(&server, &["chain", "qr", "no-such-code"])
        .fails(1);
}

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
    // What is no host name gets no made-up fix.
    let run = home.run(&["--host", NOWHERE, "chain", "create", "not-a-url"]);
    let stderr = run.fails(2);
    assert!(stderr.contains("is not a URL"), "{stderr}");
    assert!(!stderr.contains("https://not-a-url"), "{stderr}");
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
    let mut cmd = home.terminal(
        &server,
        Some(crate::support::ADMIN_KEY),
        "stty cols 0 rows 0; \"$LINKAPI\" chain list",
    );
    // In colour too: NO_COLOR used to leave tables unconstrained, which hid the collapse.
    cmd.env_remove("COLUMNS").env_remove("NO_COLOR");
    let run = home.run_with(cmd, &[], None);
    let out = run.ok();
    // Laid out for 80 columns: every header whole (at 0 columns "CODE" came a letter a line).
    for header in ["ID", "CODE", "URL", "TITLE"] {
        assert!(out.contains(header), "{out}");
    }
    let widest = out
        .lines()
        .map(|l| l.trim_end().chars().count())
        .max()
        .unwrap_or(0);
    assert!((60..=80).contains(&widest), "{widest} columns: {out}");
    assert!(out.contains("spring"), "{out}");
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

/// At every width a listing leaves whole columns out rather than squeeze them: the header
/// stays on one line with every name whole, and short values (codes, states, times) are never
/// cut; only long text is.
#[test]
fn narrow_terminals_leave_columns_out_and_never_squeeze_them() {
    let server = TestServer::start();
    let home = Home::new();
    home.admin(
        &server,
        &[
            "chain",
            "create",
            "https://example.com/a/very/long/path/that/goes/on/and/on?utm_source=newsletter",
            "--title",
            "A rather long title for a link, with words enough",
            "--code",
            "squeeze",
        ],
    )
    .ok();
    let headers = [
        "ID", "CODE", "URL", "TARGET", "TITLE", "STATUS", "VISITS", "CREATED", "EXPIRES", "GROUP",
    ];
    let mut shown = Vec::new();
    for width in [80, 100, 120, 160, 200] {
        let mut cmd = home.terminal(
            &server,
            Some(crate::support::ADMIN_KEY),
            &format!("stty cols {width} rows 40; \"$LINKAPI\" chain list"),
        );
        cmd.env_remove("COLUMNS").env("NO_COLOR", "1");
        let out = home.run_with(cmd, &[], None).ok().to_owned();
        let lines: Vec<&str> = out.lines().collect();
        let at = lines.iter().position(|l| l.contains("CODE")).unwrap();
        assert!(
            lines[at + 1].starts_with('╞'),
            "{width}: the header on one line: {out}"
        );
        let names: Vec<&str> = lines[at]
            .split(['│', '┆'])
            .map(str::trim)
            .filter(|n| !n.is_empty())
            .collect();
        assert!(names.iter().all(|n| headers.contains(n)), "{width}: {out}");
        assert!(
            lines.iter().all(|l| l.chars().count() <= width),
            "{width}: {out}"
        );
        let row = lines[at + 2];
        assert!(row.contains("squeeze") && row.contains("normal") || !names.contains(&"STATUS"));
        if let Some(at) = names.iter().position(|n| *n == "CREATED") {
            let cells: Vec<&str> = row.split(['│', '┆']).skip(1).map(str::trim).collect();
            let created = cells[at];
            assert!(
                created.len() == 20 && created.ends_with('Z'),
                "{width}: the time whole: {out}"
            );
        }
        shown.push(names.len());
    }
    // Wider terminals show more columns, and the widest every one.
    assert!(shown.windows(2).all(|w| w[0] <= w[1]), "{shown:?}");
    assert!(
        shown[0] < shown[4] && shown[4] == headers.len(),
        "{shown:?}"
    );
}

/// At 100 columns a listing's short URL, the value people copy, is never wrapped or cut: a
/// long title gives way and is cut with "…", a row a line, and the columns that do not fit
/// with their headers whole are left out; one chain is shown a field a line, every value
/// whole.
#[test]
fn short_urls_stay_whole_and_long_titles_give_way() {
    let server = TestServer::start();
    let home = Home::new();
    let title =
        "A title long enough to fill most of a terminal on its own, and then some more words";
    home.admin(
        &server,
        &[
            "chain",
            "create",
            "https://example.com/a/rather/long/path/to/somewhere/else/entirely?utm_source=x",
            "--title",
            title,
            "--code",
            "whole-url",
        ],
    )
    .ok();
    let url = format!("{}/whole-url", server.url);
    for (command, whole_title) in [("chain list", false), ("chain info whole-url", true)] {
        let mut cmd = home.terminal(
            &server,
            Some(crate::support::ADMIN_KEY),
            &format!("stty cols 100 rows 40; \"$LINKAPI\" {command}"),
        );
        cmd.env_remove("COLUMNS").env("NO_COLOR", "1");
        let out = home.run_with(cmd, &[], None).ok().to_owned();
        assert!(
            out.lines().any(|l| l.contains(&url)),
            "{command}: the short URL on one line: {out}"
        );
        let widest = out.lines().map(|l| l.trim_end().chars().count()).max();
        assert!(widest.is_some_and(|w| w <= 100), "{command}: {out}");
        if whole_title {
            // One chain: a field a line, every value whole.
            assert!(out.contains(title), "{command}: {out}");
        } else {
            // Headers whole, on one line: what did not fit is left out, not split.
            let header = out.lines().find(|l| l.contains("ID")).unwrap_or_default();
            for name in ["ID", "CODE", "URL", "TITLE"] {
                assert!(header.contains(name), "{command}: {out}");
            }
        }
        if !whole_title {
            assert!(out.contains('…'), "{command}: the title is cut: {out}");
            assert!(!out.contains("then some more words"), "{out}");
        }
    }
}

/// `stats --by rules` names each rule as it was written, not by its position alone.
#[test]
fn the_rules_breakdown_shows_each_rule_as_written() {
    let server = TestServer::start();
    let home = Home::new();
    home.admin(
        &server,
        &[
            "chain",
            "create",
            "https://example.com/r",
            "--code",
            "ruled",
            "--rule",
            "device=ios => https://apps.example/ios",
            "--rule",
            "device=desktop => https://desk.example/",
        ],
    )
    .ok();
    visit(&server, "ruled");
    visit(&server, "ruled");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while home
        .admin(&server, &["stats", "ruled", "--by", "rules", "--json"])
        .json()["items"][0]["clicks"]
        != 2
    {
        assert!(
            std::time::Instant::now() < deadline,
            "the visits were counted"
        );
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    let tty = home.admin_on_tty(&server, "stats ruled --by rules");
    let out = tty.ok();
    assert!(
        out.contains("2: device=desktop => https://desk.example/"),
        "{out}"
    );
    // Piped, the value as the API gives it.
    let piped = home.admin(&server, &["stats", "ruled", "--by", "rules"]);
    assert_eq!(piped.ok().lines().collect::<Vec<_>>(), ["2\t2"]);
}
