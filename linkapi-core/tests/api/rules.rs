//! Redirect rules: visitors sent by device, country, language and query to the first rule they
//! match (HEAD requests too), counted per rule; rules refused with the rule named, replaced,
//! cleared, kept by a compatibility edit and over a restart, and an edit through one instance
//! routing visits on the other.

use std::time::Duration;

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::breakdowns::{
    ANDROID_TABLET, IPHONE, WINDOWS_FIREFOX, breakdown, expect, geo_options, items, server_on,
    two_instances,
};
use crate::support::{Backend, TestServer, within};

/// Where a visit of `path` from `client` with `agent` and `language` (empty: not sent) goes.
async fn location(
    server: &TestServer,
    host: &str,
    path: &str,
    client: &str,
    agent: &str,
    language: &str,
) -> String {
    let mut request = server
        .client
        .get(server.url(path))
        .header("host", host)
        .header("x-forwarded-for", client)
        .header("user-agent", agent);
    if !language.is_empty() {
        request = request.header("accept-language", language);
    }
    let response = request.send().await.expect("a visit");
    assert_eq!(response.status(), StatusCode::FOUND, "{path}");
    response
        .headers()
        .get("location")
        .and_then(|l| l.to_str().ok())
        .expect("a location")
        .to_owned()
}

fn app_rules() -> Value {
    json!([
        {"device": "ios", "target_url": "https://apps.example/ios"},
        {"device": "android", "target_url": "https://apps.example/android"},
        {"country": "de", "language": "DE", "target_url": "https://e.example/de"},
        {"query": {"ref": "tw"}, "target_url": "https://e.example/tw"},
    ])
}

#[tokio::test]
async fn each_visitor_goes_to_the_first_rule_they_match_and_is_counted_by_it() {
    let (server, _geo) = server_on(Backend::from_env()).await;
    let (_, key) = server.full_user("apps").await;
    let chain = server
        .create_chain(
            &key,
            json!({"target_url": "https://e.example/", "code": "app", "rules": app_rules()}),
        )
        .await;
    // Stored as checked: country upper case, language lower case.
    assert_eq!(chain["rules"][2]["country"], "DE");
    assert_eq!(chain["rules"][2]["language"], "de");
    let host = server.host.clone();
    let go = |path: &'static str, client: &'static str, agent: &'static str, lang: &'static str| {
        let (server, host) = (&server, &host);
        async move { location(server, host, path, client, agent, lang).await }
    };
    // (visits, path, client, agent, language, where they go)
    let cases: [(usize, &str, &str, &str, &str, &str); 7] = [
        (
            3,
            "/app",
            "192.0.2.1",
            IPHONE,
            "",
            "https://apps.example/ios",
        ),
        // The first match wins: an iPhone with ?ref=tw is still rule 1's.
        (
            1,
            "/app?ref=tw",
            "192.0.2.1",
            IPHONE,
            "",
            "https://apps.example/ios",
        ),
        (
            2,
            "/app",
            "192.0.2.1",
            ANDROID_TABLET,
            "",
            "https://apps.example/android",
        ),
        // Country and language both.
        (
            2,
            "/app",
            "198.51.100.4",
            WINDOWS_FIREFOX,
            "de-AT,de;q=0.9",
            "https://e.example/de",
        ),
        (
            1,
            "/app",
            "198.51.100.4",
            WINDOWS_FIREFOX,
            "en",
            "https://e.example/",
        ),
        (
            1,
            "/app?utm=x&ref=tw",
            "192.0.2.1",
            WINDOWS_FIREFOX,
            "",
            "https://e.example/tw",
        ),
        (
            1,
            "/app?ref=twitter",
            "192.0.2.1",
            WINDOWS_FIREFOX,
            "",
            "https://e.example/",
        ),
    ];
    for (times, path, client, agent, language, expected) in cases {
        for _ in 0..times {
            assert_eq!(go(path, client, agent, language).await, expected, "{path}");
        }
    }
    server.flush_visits().await;
    let figures = breakdown(&server, &key, &chain, "rules").await;
    assert_eq!(
        items(&figures),
        expect(&[("1", 4), ("2", 2), ("3", 2), ("4", 1), ("default", 2)])
    );
    // The chain's own figures count every visit, whichever rule served it.
    let stats = server
        .get(&format!("/chains/{}/stats", chain["id"]), &key)
        .await;
    assert_eq!(stats.primary_data()["total_clicks"], 11);
}

#[tokio::test]
async fn rules_are_replaced_cleared_and_refused_with_the_rule_named() {
    let (server, _geo) = server_on(Backend::from_env()).await;
    let (_, key) = server.full_user("editor").await;
    let chain = server
        .create_chain(
            &key,
            json!({"target_url": "https://e.example/", "code": "edit", "rules": app_rules()}),
        )
        .await;
    let path = format!("/chains/{}", chain["id"]);
    let too_many: Vec<Value> = (0..21)
        .map(|i| json!({"query": {"n": i.to_string()}, "target_url": "https://e.example/n"}))
        .collect();
    for (rules, code, named) in [
        (json!(too_many), "invalid_rules", "at most 20"),
        (
            json!([{"target_url": "https://e.example/x"}]),
            "invalid_rules",
            "rule 1",
        ),
        (
            json!([{"device": "ios", "target_url": "https://e.example/x"},
                   {"device": "phone", "target_url": "https://e.example/x"}]),
            "invalid_rules",
            "rule 2",
        ),
        (
            json!([{"country": "DEU", "target_url": "https://e.example/x"}]),
            "invalid_rules",
            "rule 1",
        ),
        (
            json!([{"language": "e1", "target_url": "https://e.example/x"}]),
            "invalid_rules",
            "rule 1",
        ),
        (
            json!([{"query": {"": "x"}, "target_url": "https://e.example/x"}]),
            "invalid_rules",
            "rule 1",
        ),
        (
            json!([{"device": "ios", "query": {}, "target_url": "https://e.example/x"}]),
            "invalid_rules",
            "rule 1",
        ),
        (
            json!([{"device": "IOS", "target_url": "https://e.example/x"}]),
            "invalid_rules",
            "rule 1",
        ),
        (
            json!([{"device": "ios", "target_url": "javascript:alert(1)"}]),
            "invalid_target_url",
            "rule 1",
        ),
    ] {
        for reply in [
            server.patch(&path, &key, json!({"rules": rules})).await,
            server
                .post(
                    "/chains",
                    &key,
                    json!({"target_url": "https://e.example/", "rules": rules}),
                )
                .await,
        ] {
            reply.assert_primary_error(StatusCode::BAD_REQUEST, code);
            let message = reply.body["message"].as_str().unwrap_or_default();
            assert!(message.contains(named), "{message}");
        }
    }
    // Nothing changed, nothing created.
    let now = server.get(&path, &key).await.primary_data().clone();
    assert_eq!(now["rules"], chain["rules"]);
    let listed = server.get("/chains", &key).await.primary_data().clone();
    assert_eq!(listed["total"], 1);

    // Replaced: only the new rule routes.
    let replaced = server
        .patch(
            &path,
            &key,
            json!({"rules": [{"device": "desktop", "target_url": "https://e.example/desk"}]}),
        )
        .await
        .primary_data()
        .clone();
    assert_eq!(replaced["rules"].as_array().map(Vec::len), Some(1));
    let host = server.host.clone();
    assert_eq!(
        location(&server, &host, "/edit", "192.0.2.1", IPHONE, "").await,
        "https://e.example/"
    );
    assert_eq!(
        location(&server, &host, "/edit", "192.0.2.1", WINDOWS_FIREFOX, "").await,
        "https://e.example/desk"
    );
    // Cleared.
    let cleared = server.patch(&path, &key, json!({"rules": []})).await;
    assert_eq!(cleared.primary_data()["rules"], json!([]));
    assert_eq!(
        location(&server, &host, "/edit", "192.0.2.1", WINDOWS_FIREFOX, "").await,
        "https://e.example/"
    );

    // In a bulk create, an item with bad rules fails alone.
    let bulk = server
        .post(
            "/chains/bulk",
            &key,
            json!({"chains": [
                {"target_url": "https://e.example/a", "rules": [{"device": "ios", "target_url": "https://e.example/i"}]},
                {"target_url": "https://e.example/b", "rules": [{"device": "watch", "target_url": "https://e.example/w"}]},
            ]}),
        )
        .await;
    let results = bulk.primary_data()["results"].clone();
    assert_eq!(results[0]["ok"], true);
    assert_eq!(results[0]["chain"]["rules"][0]["device"], "ios");
    assert_eq!(results[1]["error"]["code"], "invalid_rules");
}

#[tokio::test]
async fn head_requests_follow_rules_and_a_compatibility_edit_keeps_them() {
    let (server, _geo) = server_on(Backend::from_env()).await;
    let (_, key) = server.full_user("compat").await;
    let chain = server
        .create_chain(
            &key,
            json!({"target_url": "https://e.example/", "code": "kept", "rules": app_rules()}),
        )
        .await;
    let head = server
        .client
        .head(server.url("/kept"))
        .header("host", &server.host)
        .header("user-agent", IPHONE)
        .send()
        .await
        .expect("a HEAD visit");
    assert_eq!(head.status(), StatusCode::FOUND);
    assert_eq!(
        head.headers().get("location").and_then(|l| l.to_str().ok()),
        Some("https://apps.example/ios")
    );
    // The compatibility surface has no rules; its edit changes the target and keeps them.
    server
        .post(
            "/openapi/v1/chain/edit",
            &key,
            json!({"chain": "kept", "target_url": "https://e.example/new"}),
        )
        .await
        .compat_result();
    let read = server
        .get(&format!("/chains/{}", chain["id"]), &key)
        .await
        .primary_data()
        .clone();
    assert_eq!(read["target_url"], "https://e.example/new");
    assert_eq!(read["rules"], chain["rules"]);
    let host = server.host.clone();
    assert_eq!(
        location(&server, &host, "/kept", "192.0.2.1", WINDOWS_FIREFOX, "").await,
        "https://e.example/new"
    );
    assert_eq!(
        location(&server, &host, "/kept", "192.0.2.1", IPHONE, "").await,
        "https://apps.example/ios"
    );
}

#[tokio::test]
async fn rules_are_kept_over_a_restart() {
    let (server, geo) = server_on(Backend::from_env()).await;
    let (_, key) = server.full_user("kept").await;
    server
        .create_chain(
            &key,
            json!({"target_url": "https://e.example/", "code": "kept", "rules": app_rules()}),
        )
        .await;
    // The chain stays on the first server's default domain.
    let host = server.host.clone();
    let server = server.restart_with(geo_options(&geo)).await;
    assert_eq!(
        location(&server, &host, "/kept", "192.0.2.1", IPHONE, "").await,
        "https://apps.example/ios"
    );
    assert_eq!(
        location(
            &server,
            &host,
            "/kept",
            "198.51.100.9",
            WINDOWS_FIREFOX,
            "de"
        )
        .await,
        "https://e.example/de"
    );
}

#[tokio::test]
async fn rules_edited_through_one_instance_route_visits_on_the_other() {
    let Some((a, b, _geo)) = two_instances().await else {
        return;
    };
    let (_, key) = a.full_user("peers").await;
    let chain = a
        .create_chain(
            &key,
            json!({"target_url": "https://e.example/", "code": "peer"}),
        )
        .await;
    let host = a.host.clone();
    // B caches the chain without rules.
    assert_eq!(
        location(&b, &host, "/peer", "192.0.2.1", IPHONE, "").await,
        "https://e.example/"
    );
    a.patch(
        &format!("/chains/{}", chain["id"]),
        &key,
        json!({"rules": [{"device": "ios", "target_url": "https://apps.example/ios"}]}),
    )
    .await
    .primary_data();
    // Every visit counts: those B served before it heard of the edit went to the default.
    let stale = std::sync::atomic::AtomicI64::new(0);
    let seen = within(Duration::from_secs(1), || async {
        let routed = location(&b, &host, "/peer", "192.0.2.1", IPHONE, "").await
            == "https://apps.example/ios";
        if !routed {
            stale.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        }
        routed
    })
    .await;
    assert!(seen, "B still ignored the new rule after 1 s");
    b.flush_visits().await;
    let figures = breakdown(&a, &key, &chain, "rules").await;
    let counted = items(&figures);
    let stale = stale.load(std::sync::atomic::Ordering::SeqCst);
    assert_eq!(counted.get("1").copied(), Some(1), "{counted:?}");
    assert_eq!(
        counted.get("default").copied(),
        Some(1 + stale),
        "{counted:?}"
    );
}
