//! A short link's options set with `linkapi chain create|edit` against a server whose
//! configuration file sets the deployment's redirect status: each status answered, a start
//! and a visit limit that answer 410, a bot that uses up no visits, and a preview bots get.

use std::process::Command;

use crate::support::{Home, TestServer};

const BROWSER: &str = "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0";

/// The status and `Location` of a GET of `url` as `agent`, not following redirects.
fn visit(url: &str, agent: &str) -> (u16, String) {
    let out = Command::new("curl")
        .args(["-sS", "-o", "/dev/null", "-A", agent])
        .args(["-w", "%{http_code} %{redirect_url}", url])
        .output()
        .expect("curl runs");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let (status, location) = text.split_once(' ').unwrap_or((&text, ""));
    (status.parse().expect("a status"), location.to_owned())
}

#[test]
fn each_redirect_status_comes_from_the_link_or_the_configuration() {
    let server = TestServer::start_with_config(Some("redirect_status = 308\n"));
    let home = Home::new();
    let link = |code: &str| format!("{}/{code}", server.url);
    for (code, flag, answered) in [
        ("plain", None, 308),
        ("moved", Some("301"), 301),
        ("found", Some("302"), 302),
        ("temporary", Some("307"), 307),
        ("permanent", Some("308"), 308),
    ] {
        let target = format!("https://example.com/{code}");
        let mut args = vec!["chain", "create", &target, "--code", code, "--json"];
        if let Some(flag) = flag {
            args.extend(["--redirect-status", flag]);
        }
        let created = home.admin(&server, &args).json();
        let own = flag.map(|f| serde_json::json!(f.parse::<u16>().unwrap_or_default()));
        assert_eq!(
            created["redirect_status"],
            own.unwrap_or_default(),
            "{code}"
        );
        assert_eq!(visit(&link(code), BROWSER), (answered, target), "{code}");
    }

    // Set back to 0, a link answers with the deployment's status again, at once.
    home.admin(
        &server,
        &["chain", "edit", "moved", "--redirect-status", "0"],
    )
    .ok();
    assert_eq!(visit(&link("moved"), BROWSER).0, 308);
    let refused = home.admin(
        &server,
        &[
            "chain",
            "create",
            "https://example.com/",
            "--redirect-status",
            "303",
        ],
    );
    assert!(
        refused.stderr.contains("must be 301, 302, 307 or 308"),
        "{}",
        refused.stderr
    );
    assert_ne!(refused.code, 0);
    let listed = home
        .admin(&server, &["chain", "list", "--json=code"])
        .json();
    assert_eq!(listed.as_array().map(Vec::len), Some(5), "nothing was made");
}
#[test]
fn a_start_and_a_visit_limit_answer_410_and_bots_use_up_none() {
    let server = TestServer::start();
    let home = Home::new();
    let link = |code: &str| format!("{}/{code}", server.url);

    let args = [
        "chain",
        "create",
        "https://example.com/launch",
        "--code",
        "launch",
    ];
    let mut later = args.to_vec();
    later.extend(["--valid-since", "2099-01-01 00:00:00", "--json"]);
    let created = home.admin(&server, &later).json();
    assert_eq!(created["status"], 2, "shows as expired before its start");
    assert_eq!(visit(&link("launch"), BROWSER).0, 410);
    home.admin(&server, &["chain", "edit", "launch", "--valid-since", "0"])
        .ok();
    assert_eq!(visit(&link("launch"), BROWSER).0, 302);

    let created = home
        .admin(
            &server,
            &[
                "chain",
                "create",
                "https://example.com/two",
                "--code",
                "two",
            ]
            .into_iter()
            .chain(["--max-visits", "2", "--json"])
            .collect::<Vec<_>>(),
        )
        .json();
    assert_eq!(created["visits_left"], 2);
    // curl's own agent is a script, not a person: it is answered and uses up nothing.
    for _ in 0..3 {
        assert_eq!(visit(&link("two"), "curl/8.11.0").0, 302);
    }
    assert_eq!(visit(&link("two"), BROWSER).0, 302);
    assert_eq!(visit(&link("two"), BROWSER).0, 302);
    assert_eq!(visit(&link("two"), BROWSER).0, 410, "past its limit");
    let info = home
        .admin(&server, &["chain", "info", "two", "--json"])
        .json();
    assert_eq!(
        (info["visits_left"].clone(), info["status"].clone()),
        (0.into(), 2.into())
    );

    // Raising the limit lets visitors through again.
    home.admin(&server, &["chain", "edit", "two", "--max-visits", "3"])
        .ok();
    assert_eq!(visit(&link("two"), BROWSER).0, 302);
    assert_eq!(visit(&link("two"), BROWSER).0, 410);
}

#[test]
fn a_preview_set_with_the_cli_is_what_bots_get_and_people_are_redirected() {
    let server = TestServer::start();
    let home = Home::new();
    let link = format!("{}/spring", server.url);
    let created = home
        .admin(
            &server,
            &[
                "chain",
                "create",
                "https://example.com/spring",
                "--code",
                "spring",
                "--preview-title",
                "Spring <sale>",
                "--preview-description",
                "Half off",
                "--preview-image",
                "https://example.com/spring.png",
                "--json",
            ],
        )
        .json();
    assert_eq!(created["preview_title"], "Spring <sale>");
    let bot = "Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)";
    assert_eq!(visit(&link, bot).0, 200);
    let page = Command::new("curl")
        .args(["-sS", "-A", bot, &link])
        .output()
        .expect("curl runs");
    let page = String::from_utf8_lossy(&page.stdout);
    assert!(
        page.contains("og:title") && page.contains("&lt;sale&gt;") && !page.contains("<sale>"),
        "{page}"
    );
    assert!(!page.contains("example.com/spring\""), "no target: {page}");
    assert_eq!(
        visit(&link, BROWSER),
        (302, "https://example.com/spring".to_owned())
    );

    let edited = home
        .admin(
            &server,
            &["chain", "edit", "spring", "--preview-title", "", "--json"],
        )
        .json();
    assert_eq!(edited["preview_title"], serde_json::Value::Null);
    assert_eq!(edited["preview_image"], "https://example.com/spring.png");
    let refused = home.admin(
        &server,
        &["chain", "edit", "spring", "--preview-image", "javascript:x"],
    );
    assert_ne!(refused.code, 0);
    assert!(
        refused.stderr.contains("preview_image"),
        "{}",
        refused.stderr
    );
}
