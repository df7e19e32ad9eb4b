//! A short chain's social preview: link-preview agents get a page of Open Graph and Twitter
//! card tags (read back by Python's HTML parser as preview fetchers read it), never counted;
//! people get the redirect. Set, listed, edited away, exported and refused when bad.

use std::collections::BTreeMap;
use std::process::Command;

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::support::{BROWSER, TestServer};
use crate::tools;

const FACEBOOK: &str = "facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)";
const SLACK: &str = "Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)";

const TITLE: &str = "Spring \"sale\" <b>50%</b> & more";
const DESCRIPTION: &str = "Everything' onmouseover='alert(1) must go — Ünïcode too";
const IMAGE: &str = "https://img.example/spring.png?w=1200&h=630";

/// The `<meta>` tags of `html` by `property` or `name`, as Python's `html.parser` reads them
/// (character references decoded); `None` when Python is not here.
fn meta_tags(html: &str) -> Option<BTreeMap<String, String>> {
    if !tools::available("Python", &["python3", "--version"]) {
        return None;
    }
    let read = tools::run_with_input(
        Command::new("python3").args([
            "-c",
            "import json, sys\n\
             from html.parser import HTMLParser\n\
             tags = {}\n\
             class Meta(HTMLParser):\n\
             \x20   def handle_starttag(self, tag, attrs):\n\
             \x20       attrs = dict(attrs)\n\
             \x20       key = attrs.get('property') or attrs.get('name')\n\
             \x20       if tag == 'meta' and key:\n\
             \x20           tags[key] = attrs.get('content')\n\
             Meta().feed(sys.stdin.read())\n\
             print(json.dumps(tags))",
        ]),
        html.as_bytes(),
    );
    assert!(
        read.status.success(),
        "{}",
        String::from_utf8_lossy(&read.stderr)
    );
    Some(serde_json::from_slice(&read.stdout).expect("JSON"))
}

#[tokio::test]
async fn a_bot_gets_the_preview_and_a_person_the_redirect() {
    let server = TestServer::start().await;
    let (_, key) = server.full_user("previews").await;
    let chain = server
        .create_chain(
            &key,
            json!({"target_url": "https://shop.example/spring", "code": "spring",
                   "preview_title": TITLE, "preview_description": DESCRIPTION,
                   "preview_image": IMAGE}),
        )
        .await;
    assert_eq!(chain["preview_title"], TITLE);
    assert_eq!(chain["preview_description"], DESCRIPTION);
    assert_eq!(chain["preview_image"], IMAGE);

    for agent in [FACEBOOK, SLACK, ""] {
        let page = server.visit_with(Method::GET, "spring", agent).await;
        assert_eq!(page.status, StatusCode::OK, "{agent:?}");
        assert_eq!(
            page.header("content-type"),
            Some("text/html; charset=utf-8")
        );
        assert!(page.header("location").is_none());
        assert!(
            !page.text.contains("shop.example"),
            "the target is not on the page: {}",
            page.text
        );
        assert!(!page.text.contains("<b>") && !page.text.contains("onmouseover='"));
        let Some(tags) = meta_tags(&page.text) else {
            continue;
        };
        assert_eq!(tags["og:title"], TITLE, "{tags:?}");
        assert_eq!(tags["og:description"], DESCRIPTION);
        assert_eq!(tags["og:image"], IMAGE);
        assert_eq!(tags["twitter:card"], "summary_large_image");
        assert_eq!(tags["twitter:title"], TITLE);
    }
    let person = server.visit_with(Method::GET, "spring", BROWSER).await;
    assert_eq!(person.status, StatusCode::FOUND);
    assert_eq!(
        person.header("location"),
        Some("https://shop.example/spring")
    );

    // Previews are not visits: only the person's is counted.
    server.flush_visits().await;
    let path = format!("/chains/{}", chain["id"]);
    let stats = server.get(&format!("{path}/stats"), &key).await;
    assert_eq!(stats.primary_data()["total_clicks"], 1, "{}", stats.text);
    let listed = server.get("/chains", &key).await;
    assert_eq!(listed.primary_data()["list"][0]["preview_title"], TITLE);

    // An edit changes one part and keeps the rest; "" removes each.
    let edited = server
        .patch(&path, &key, json!({"preview_image": ""}))
        .await;
    let edited = edited.primary_data();
    assert_eq!(
        (&edited["preview_image"], &edited["preview_title"]),
        (&Value::Null, &json!(TITLE))
    );
    let page = server.visit_with(Method::GET, "spring", FACEBOOK).await;
    if let Some(tags) = meta_tags(&page.text) {
        assert_eq!(tags["twitter:card"], "summary", "no image, a small card");
        assert!(!tags.contains_key("og:image"));
    }
    let cleared = server
        .patch(
            &path,
            &key,
            json!({"preview_title": "", "preview_description": " "}),
        )
        .await;
    assert_eq!(cleared.primary_data()["preview_title"], Value::Null);
    let bot = server.visit_with(Method::GET, "spring", FACEBOOK).await;
    assert_eq!(
        bot.status,
        StatusCode::FOUND,
        "no preview: bots are redirected too"
    );
}

#[tokio::test]
async fn bad_previews_are_refused_and_change_nothing() {
    let server = TestServer::start().await;
    let (_, key) = server.full_user("refused").await;
    for body in [
        json!({"preview_image": "javascript:alert(1)"}),
        json!({"preview_image": "/relative.png"}),
        json!({"preview_title": "two\nlines"}),
        json!({"preview_description": "x".repeat(1001)}),
    ] {
        let mut create = body.clone();
        create["target_url"] = json!("https://e.example/");
        server
            .post("/chains", &key, create)
            .await
            .assert_primary_error(StatusCode::BAD_REQUEST, "invalid_preview");
    }
    let chain = server
        .create_chain(
            &key,
            json!({"target_url": "https://e.example/", "code": "kept", "preview_title": "Kept"}),
        )
        .await;
    let path = format!("/chains/{}", chain["id"]);
    server
        .patch(
            &path,
            &key,
            json!({"preview_image": "ftp://e.example/a.png"}),
        )
        .await
        .assert_primary_error(StatusCode::BAD_REQUEST, "invalid_preview");
    let read = server.get(&path, &key).await;
    assert_eq!(read.primary_data()["preview_title"], "Kept");
    assert_eq!(read.primary_data()["preview_image"], Value::Null);
    assert_eq!(server.get("/chains", &key).await.primary_data()["total"], 1);
}

#[tokio::test]
async fn previews_come_through_bulk_export_and_import() {
    let server = TestServer::start().await;
    let (_, key) = server.full_user("moves").await;
    let bulk = server
        .post(
            "/chains/bulk",
            &key,
            json!({"chains": [{"target_url": "https://e.example/a", "code": "a",
                               "preview_title": TITLE, "preview_image": IMAGE}]}),
        )
        .await;
    assert_eq!(bulk.primary_data()["created"], 1, "{}", bulk.text);
    let export = server.get("/chains/export", &key).await;
    let mut line: Value = serde_json::from_str(export.text.trim()).expect("one line");
    assert_eq!(
        (
            &line["preview_title"],
            &line["preview_description"],
            &line["preview_image"]
        ),
        (&json!(TITLE), &Value::Null, &json!(IMAGE))
    );

    // Into another deployment, on its default domain.
    line.as_object_mut().expect("an object").remove("domain");
    let other = TestServer::start().await;
    let (_, key) = other.full_user("moves").await;
    let imported = other
        .post("/chains/import", &key, json!({"chains": [line]}))
        .await;
    assert_eq!(imported.primary_data()["imported"], 1, "{}", imported.text);
    let page = other.visit_with(Method::GET, "a", SLACK).await;
    assert_eq!(page.status, StatusCode::OK);
    if let Some(tags) = meta_tags(&page.text) {
        assert_eq!(tags["og:title"], TITLE);
    }
}
