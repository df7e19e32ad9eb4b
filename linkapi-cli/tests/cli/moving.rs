//! `linkapi import --from PEER`: the real exports and dumps of chhoto-url, Kutt and YOURLS
//! (`tests/fixtures/peers/`, made through the peers' own APIs and dump tools), and samples of
//! each format with the cases movers meet: case twins, an expired link, no visits, a title
//! with a quote and a newline, a percent-encoded space, a custom domain, a password link and a
//! unicode title.

use std::collections::BTreeMap;

use serde_json::Value;

use crate::support::{Home, Run, TestServer};

fn fixture(path: &str) -> String {
    format!("{}/tests/fixtures/peers/{path}", env!("CARGO_MANIFEST_DIR"))
}

/// `linkapi import --from PEER FILES... --json ARGS` as the admin: the run and each link's
/// result by `code@domain` (the domain left out for the default one).
fn import(
    home: &Home,
    server: &TestServer,
    peer: &str,
    files: &[&str],
    args: &[&str],
) -> (Run, BTreeMap<String, Value>) {
    let paths: Vec<String> = files.iter().map(|f| fixture(f)).collect();
    let mut command = vec!["import", "--from", peer, "--json"];
    command.extend(paths.iter().map(String::as_str));
    command.extend(args);
    let run = home.admin(server, &command);
    assert!(
        run.code == 0 || run.code == 1,
        "stdout: {}\nstderr: {}",
        run.stdout,
        run.stderr
    );
    let default_host = server.addr.to_string();
    let results = run
        .stdout
        .lines()
        .map(|line| {
            let result: Value = serde_json::from_str(line).expect("a JSON line");
            let code = result["code"].as_str().unwrap_or_default();
            let key = match result["domain"].as_str() {
                Some(host) if host != default_host => format!("{code}@{host}"),
                _ => code.to_owned(),
            };
            (key, result)
        })
        .collect();
    (run, results)
}

/// The admin's chains as an export gives them, by `code@domain`.
fn exported(home: &Home, server: &TestServer) -> BTreeMap<String, Value> {
    let default_host = server.addr.to_string();
    home.admin(server, &["chain", "export"])
        .ok()
        .lines()
        .map(|line| {
            let chain: Value = serde_json::from_str(line).expect("a JSON line");
            let code = chain["code"].as_str().unwrap_or_default();
            let host = chain["domain"].as_str().unwrap_or_default();
            let key = if host == default_host {
                code.to_owned()
            } else {
                format!("{code}@{host}")
            };
            (key, chain)
        })
        .collect()
}

fn result_of<'r>(results: &'r BTreeMap<String, Value>, key: &str) -> &'r str {
    results
        .get(key)
        .unwrap_or_else(|| panic!("no result for {key}: {results:#?}"))["result"]
        .as_str()
        .unwrap_or_default()
}

/// A server with the custom domain `go.import.test` for the admin.
fn server_with_domain(home: &Home) -> TestServer {
    let server = TestServer::start();
    home.admin(
        &server,
        &[
            "admin",
            "domain",
            "create",
            "go.import.test",
            "--scheme",
            "http",
        ],
    )
    .ok();
    server
}

/// What every peer's sample of the cases holds, once imported: each code with its target.
fn assert_cases(chains: &BTreeMap<String, Value>, peer: &str) {
    let promo = &chains["Promo"];
    assert_eq!(promo["target_url"], "https://93.184.215.14/Promo", "{peer}");
    assert_eq!(
        promo["pv_history"], 17,
        "{peer}: visits as imported history"
    );
    assert_eq!(chains["promo"]["pv_history"], 0, "{peer}");
    assert_eq!(
        chains["space"]["target_url"], "https://93.184.215.14/a%20b?q=1",
        "{peer}: byte for byte"
    );
}

#[test]
fn chhoto_links_come_over_with_their_visits_and_expiry() {
    let home = Home::new();
    let server = TestServer::start();
    let (run, results) = import(&home, &server, "chhoto", &["chhoto/cases.json"], &[]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stderr.contains("keeps no creation time"),
        "{}",
        run.stderr
    );
    assert!(
        results.values().all(|r| r["result"] == "imported"),
        "{results:#?}"
    );
    assert!(
        results["gone"]["notes"][0]
            .as_str()
            .unwrap()
            .contains("expired")
    );
    let chains = exported(&home, &server);
    assert_cases(&chains, "chhoto");
    assert_eq!(chains["Promo"]["chain_title"], "say \"hi\"");
    assert_eq!(chains["gone"]["valid_time"], 1_700_000_000);
    assert_eq!(chains["space"]["valid_time"], 4_102_444_800_i64);

    // The real /api/all: everything but the targets linkapi does not redirect to.
    let (run, results) = import(&home, &server, "chhoto", &["chhoto/api-all.json"], &[]);
    run.fails(1);
    let refused: Vec<&str> = results
        .iter()
        .filter(|(_, r)| r["result"] != "imported")
        .map(|(code, _)| code.as_str())
        .collect();
    assert_eq!(refused, ["ftp-link", "ipv6", "magnet"], "{results:#?}");
    assert_eq!(results.len(), 23);
    let chains = exported(&home, &server);
    assert_eq!(chains["hello"]["pv_history"], 40);
    assert_eq!(chains["UPPER"]["chain_title"], "edited via /api/edit");
    assert_eq!(
        chains["raw-unicode"]["target_url"],
        "https://93.184.215.14/wiki/%E7%9F%AD%E9%93%BE%E6%8E%A5?q=%F0%9F%98%80&x=%C3%A4"
    );
    assert!(chains.contains_key("MixedCase") && chains.contains_key("2026"));

    // Again: nothing twice.
    let (_, again) = import(&home, &server, "chhoto", &["chhoto/api-all.json"], &[]);
    assert_eq!(result_of(&again, "hello"), "exists");
    assert_eq!(
        again.values().filter(|r| r["result"] == "imported").count(),
        0
    );
    assert_eq!(exported(&home, &server).len(), 4 + 20);
}

#[test]
fn kutt_links_come_over_from_every_page_with_their_domains() {
    let home = Home::new();
    let server = server_with_domain(&home);
    let (run, results) = import(&home, &server, "kutt", &["kutt/cases.json"], &[]);
    run.fails(1);
    assert_eq!(result_of(&results, "locked"), "not carried");
    assert!(
        results["locked"]["error"]["message"]
            .as_str()
            .unwrap()
            .contains("password")
    );
    assert_eq!(result_of(&results, "promo@go.import.test"), "imported");
    assert_eq!(result_of(&results, "elsewhere@not-here.invalid"), "refused");
    assert_eq!(
        results["elsewhere@not-here.invalid"]["error"]["code"],
        "invalid_domain"
    );
    let chains = exported(&home, &server);
    assert_cases(&chains, "kutt");
    assert_eq!(chains["Promo"]["chain_title"], "say \"hi\" then go");
    assert_eq!(chains["Promo"]["created_at"], "2024-05-01T10:00:00Z");
    assert_eq!(chains["promo"]["chain_title"], "春季 ✨ 促销");
    assert_eq!(chains["gone"]["valid_time"], 1_717_200_000);
    assert_eq!(chains["space"]["valid_time"], 4_070_953_800_i64);
    assert_eq!(chains["promo@go.import.test"]["pv_history"], 9);
    assert!(
        !chains.contains_key("locked"),
        "a password link is not opened"
    );

    // The real listing, its three pages, and the admin listing's page of the same links.
    let pages = [
        "kutt/api-v2-links.page1.json",
        "kutt/api-v2-links.page2.json",
        "kutt/api-v2-links.page3.json",
    ];
    let other = TestServer::start();
    let (_, results) = import(&home, &other, "kutt", &pages, &[]);
    assert_eq!(results.len(), 24, "{results:#?}");
    assert_eq!(result_of(&results, "secret"), "not carried");
    assert_eq!(result_of(&results, "ftp-link"), "refused");
    assert_eq!(result_of(&results, "hello@go.kutt.invalid"), "refused");
    assert_eq!(result_of(&results, "zh-desc"), "imported");
    let chains = exported(&home, &other);
    assert_eq!(chains["hello"]["pv_history"], 40);
    assert_eq!(
        chains["zh-desc"]["chain_title"],
        "中文描述：短链接测试（简体）"
    );
    let (_, admin) = import(
        &home,
        &other,
        "kutt",
        &["kutt/api-v2-links-admin.page1.json"],
        &[],
    );
    assert!(
        admin
            .iter()
            .all(|(code, r)| results[code]["result"] == r["result"] || r["result"] == "exists"),
        "the admin listing reads as the same links: {admin:#?}"
    );
    assert!(!admin.is_empty());
}

#[test]
fn yourls_links_come_over_from_its_table_dump() {
    let home = Home::new();
    let server = TestServer::start();
    let (run, results) = import(&home, &server, "yourls", &["yourls/cases.sql"], &[]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(results.len(), 3);
    let chains = exported(&home, &server);
    assert_cases(&chains, "yourls");
    assert_eq!(chains["Promo"]["chain_title"], "say \"hi\" then go");
    assert_eq!(chains["promo"]["chain_title"], "春季 ✨ 促销");
    assert_eq!(chains["space"]["chain_title"], "It's 100% \\ done");
    assert_eq!(chains["space"]["created_at"], "2024-05-01T10:00:02Z");

    let (_, results) = import(&home, &server, "yourls", &["yourls/yourls_url.sql"], &[]);
    assert_eq!(results.len(), 26, "{results:#?}");
    for refused in ["ftplink", "mailto", "noscheme"] {
        assert_eq!(result_of(&results, refused), "refused", "{refused}");
    }
    let chains = exported(&home, &server);
    assert_eq!(chains["hello"]["pv_history"], 40);
    assert_eq!(
        chains["zhtitle"]["chain_title"],
        "中文标题：短链接测试（简体）"
    );
    assert_eq!(
        chains["quotetitle"]["chain_title"],
        "He said \"hi\" & bold \\ 100% 'single'"
    );
    assert_eq!(chains["MixedCase"]["pv_history"], 25);
}

#[test]
fn shlink_and_bitly_links_come_over_from_their_formats() {
    let home = Home::new();
    let server = server_with_domain(&home);
    let pages = [
        "shlink/short-urls.page1.json",
        "shlink/short-urls.page2.json",
    ];
    let (run, results) = import(&home, &server, "shlink", &pages, &[]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(results.len(), 5);
    let notes = results["Promo"]["notes"].to_string();
    assert!(notes.contains("tags not carried: spring, sale"), "{notes}");
    let chains = exported(&home, &server);
    // Shlink's visit limit and start come over; the visits it served count against the limit.
    assert_eq!(chains["promo"]["max_visits"], 100);
    assert_eq!(chains["promo"]["visits_left"], 100);
    assert_eq!(chains["gone"]["valid_since"], 1_714_557_600);
    assert_eq!(chains["space"]["max_visits"], 5);
    assert_eq!(chains["space"]["visits_left"], 3);
    assert!(chains["Promo"]["visits_left"].is_null());
    assert_cases(&chains, "shlink");
    assert_eq!(chains["Promo"]["created_at"], "2024-05-01T10:00:00Z");
    assert_eq!(
        chains["Promo"]["rules"][0]["target_url"],
        "https://93.184.215.14/Promo/android"
    );
    assert_eq!(chains["space"]["created_at"], "2024-05-01T15:00:03Z");
    assert_eq!(chains["gone"]["valid_time"], 1_717_200_000);
    assert_eq!(chains["promo@go.import.test"]["pv_history"], 9);

    // Bitly's links are on bit.ly, which is not this deployment's: reported, or moved.
    let other = server_with_domain(&home);
    let (run, results) = import(&home, &other, "bitly", &["bitly/links.csv"], &[]);
    run.fails(1);
    assert_eq!(result_of(&results, "custom@go.import.test"), "imported");
    assert_eq!(results["Promo@bit.ly"]["error"]["code"], "invalid_domain");
    let (run, results) = import(
        &home,
        &other,
        "bitly",
        &["bitly/links.csv"],
        &["--domain", &other.addr.to_string()],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(result_of(&results, "custom"), "imported");
    let chains = exported(&home, &other);
    assert_cases(&chains, "bitly");
    assert_eq!(chains["Promo"]["chain_title"], "say \"hi\" then go");
    assert_eq!(chains["space"]["pv_history"], 1204);
    assert!(chains["space"]["archived_at"].is_string());
}

#[test]
fn a_dry_run_imports_nothing_and_an_export_comes_back_equal() {
    let home = Home::new();
    let server = server_with_domain(&home);
    let (run, results) = import(&home, &server, "kutt", &["kutt/cases.json"], &["--dry-run"]);
    run.fails(1);
    assert!(run.stderr.contains("Would import 5 of 7"), "{}", run.stderr);
    assert_eq!(result_of(&results, "Promo"), "imported");
    assert!(exported(&home, &server).is_empty(), "nothing imported");

    import(&home, &server, "kutt", &["kutt/cases.json"], &[]);
    let before = exported(&home, &server);
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("chains.csv");
    home.admin(
        &server,
        &["chain", "export", "--output", file.to_str().unwrap()],
    )
    .ok();
    // Into another deployment with the custom domain: the same set, field by field, its
    // default domain's links moved to the other's default domain.
    let other = server_with_domain(&home);
    let map = format!("{}={}", server.addr, other.addr);
    let run = home.admin(
        &other,
        &[
            "import",
            "--from",
            "linkapi",
            file.to_str().unwrap(),
            "--map-domain",
            &map,
        ],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let without_host = |chains: BTreeMap<String, Value>| -> BTreeMap<String, Value> {
        chains
            .into_iter()
            .map(|(key, mut chain)| {
                chain.as_object_mut().unwrap().remove("domain");
                (key, chain)
            })
            .collect()
    };
    assert_eq!(
        without_host(exported(&home, &other)),
        without_host(before),
        "export, import, export: equal"
    );
}

#[test]
fn an_import_killed_halfway_and_run_again_imports_each_link_once() {
    let server = TestServer::start_with_config(Some("daily_create_quota = 1000000\n"));
    let home = Home::new();
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("api-all.json");
    let links = 10_000;
    let all: Vec<Value> = (0..links)
        .map(|i| {
            serde_json::json!({"shortlink": format!("link-{i}"),
                "longlink": format!("https://93.184.215.14/{i}"), "hits": i % 7,
                "expiry_time": 0, "notes": ""})
        })
        .collect();
    std::fs::write(&file, serde_json::to_vec(&all).unwrap()).unwrap();
    let import = || {
        let mut cmd = home.cmd();
        cmd.env("LINKAPI_HOST", &server.url)
            .env("LINKAPI_API_KEY", crate::support::ADMIN_KEY)
            .args(["import", "--from", "chhoto", file.to_str().unwrap()]);
        cmd
    };
    let chains = || {
        home.admin(&server, &["admin", "user", "show", "1", "--json"])
            .json()["usage"]["chains"]
            .as_i64()
            .unwrap()
    };

    // Killed (SIGKILL) once the server has answered one of its five requests.
    let mut first = import()
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let started = std::time::Instant::now();
    while crate::support::answers_counted(&server, "chains.import", 200) < 1.0 {
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
        (2_000..links).contains(&after_kill),
        "killed halfway: {after_kill} chains"
    );

    // Run again as it was: what came over is there already, the rest comes, none twice.
    let again = home.run_with(import(), &[], None);
    assert_eq!(again.code, 0, "{}", again.stderr);
    let summary = format!(
        "Imported {} of {links} links from chhoto-url; {after_kill} there already",
        links - after_kill
    );
    assert!(again.stderr.contains(&summary), "{}", again.stderr);
    assert_eq!(chains(), links);
}
