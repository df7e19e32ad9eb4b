//! A short chain's options: the status its redirects answer with (its own, else the
//! deployment's; 302 for a rule's target), a start before which it answers 410, and a visit
//! limit exact across two instances that bots and `HEAD` do not use up.

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::instances::{backends, instances};
use crate::support::{Backend, Options, START, TestServer, race, within};
use linkapi_core::model::RedirectStatus;

const GOOGLEBOT: &str = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";

/// A visit of `code` on `server`'s default domain with `method` and `agent`.
async fn visit_as(server: &TestServer, method: Method, code: &str, agent: &str) -> StatusCode {
    server.visit_with(method, code, agent).await.status
}

fn chain_path(chain: &Value) -> String {
    format!("/chains/{}", chain["id"])
}

#[tokio::test]
async fn each_redirect_status_is_answered_and_a_rules_target_is_always_a_302() {
    let server = TestServer::start_with(Options {
        redirect_status: RedirectStatus::Temporary,
        ..Options::default()
    })
    .await;
    let (_, key) = server.full_user("statuses").await;
    for (code, status, answered) in [
        ("s301", json!(301), 301),
        ("s302", json!(302), 302),
        ("s307", json!(307), 307),
        ("s308", json!(308), 308),
        ("s0", json!(0), 307),
        ("sdefault", Value::Null, 307),
    ] {
        let mut body = json!({"target_url": format!("https://e.example/{code}"), "code": code});
        if !status.is_null() {
            body["redirect_status"] = status.clone();
        }
        let chain = server.create_chain(&key, body).await;
        let own = (answered != 307 || status == 307).then_some(answered);
        assert_eq!(chain["redirect_status"], json!(own), "{code}: {chain}");
        let visit = server.visit(code).await;
        assert_eq!(visit.status.as_u16(), answered, "{code}");
        assert_eq!(
            visit.header("location"),
            Some(format!("https://e.example/{code}").as_str())
        );
        // Never cached, a permanent status included: edits and limits take effect at once.
        assert_eq!(visit.header("cache-control"), Some("private, no-cache"));
        let head = visit_as(&server, Method::HEAD, code, "curl/8.5.0").await;
        assert_eq!(head.as_u16(), answered, "HEAD {code}");
    }

    // Where a rule sends a visitor depends on the visitor: a 302, whatever the chain's status.
    let ruled = server
        .create_chain(
            &key,
            json!({
                "target_url": "https://e.example/all",
                "code": "ruled",
                "redirect_status": 308,
                "rules": [{"query": {"ref": "tw"}, "target_url": "https://e.example/tw"}],
            }),
        )
        .await;
    assert_eq!(server.visit("ruled?ref=tw").await.status, StatusCode::FOUND);
    assert_eq!(
        server.visit("ruled").await.status,
        StatusCode::PERMANENT_REDIRECT
    );

    // An edit changes it at once; 0 gives the deployment's back.
    let edited = server
        .patch(&chain_path(&ruled), &key, json!({"redirect_status": 301}))
        .await;
    assert_eq!(edited.primary_data()["redirect_status"], 301);
    assert_eq!(
        server.visit("ruled").await.status,
        StatusCode::MOVED_PERMANENTLY
    );
    let reset = server
        .patch(&chain_path(&ruled), &key, json!({"redirect_status": 0}))
        .await;
    assert_eq!(reset.primary_data()["redirect_status"], Value::Null);
    assert_eq!(
        server.visit("ruled").await.status,
        StatusCode::TEMPORARY_REDIRECT
    );
    // The rules and target stayed as they were.
    assert_eq!(
        reset.primary_data()["rules"][0]["target_url"],
        "https://e.example/tw"
    );

    // Statuses that are no redirect's are refused, and change nothing.
    for bad in [303, 200, 300, 399] {
        server
            .post(
                "/chains",
                &key,
                json!({"target_url": "https://e.example/", "redirect_status": bad}),
            )
            .await
            .assert_primary_error(StatusCode::BAD_REQUEST, "invalid_redirect_status");
        server
            .patch(&chain_path(&ruled), &key, json!({"redirect_status": bad}))
            .await
            .assert_primary_error(StatusCode::BAD_REQUEST, "invalid_redirect_status");
    }
    assert_eq!(
        server.visit("ruled").await.status,
        StatusCode::TEMPORARY_REDIRECT
    );
    // A bulk create takes it per item.
    let bulk = server
        .post(
            "/chains/bulk",
            &key,
            json!({"chains": [
                {"target_url": "https://e.example/b1", "code": "b1", "redirect_status": 301},
                {"target_url": "https://e.example/b2", "code": "b2", "redirect_status": 304},
            ]}),
        )
        .await;
    let results = &bulk.primary_data()["results"];
    assert_eq!(results[0]["ok"], true, "{results}");
    assert_eq!(results[1]["error"]["code"], "invalid_redirect_status");
    assert_eq!(
        server.visit("b1").await.status,
        StatusCode::MOVED_PERMANENTLY
    );
}

#[tokio::test]
async fn a_chain_answers_410_before_its_start_and_redirects_from_it() {
    let server = TestServer::start().await;
    let (_, key) = server.full_user("starts").await;
    let chain = server
        .create_chain(
            &key,
            json!({"target_url": "https://e.example/launch", "code": "launch",
                   "valid_since": START + 600}),
        )
        .await;
    assert_eq!(chain["valid_since"], START + 600);
    assert_eq!(
        chain["status"], 2,
        "answers as expired, and shows so: {chain}"
    );
    assert_eq!(server.visit("launch").await.status, StatusCode::GONE);
    server.clock.advance(599);
    assert_eq!(server.visit("launch").await.status, StatusCode::GONE);
    server.clock.advance(1);
    assert_eq!(server.visit("launch").await.status, StatusCode::FOUND);
    let read = server.get(&chain_path(&chain), &key).await;
    assert_eq!(read.primary_data()["status"], 1);

    // Moved later, it stops again; 0 removes it.
    let path = chain_path(&chain);
    let later = server
        .patch(&path, &key, json!({"valid_since": START + 3600}))
        .await;
    assert_eq!(later.primary_data()["valid_since"], START + 3600);
    assert_eq!(server.visit("launch").await.status, StatusCode::GONE);
    // A start must come before the expiry, on a create and on an edit of either.
    server
        .post(
            "/chains",
            &key,
            json!({"target_url": "https://e.example/", "valid_since": START + 7200,
                   "valid_time": START + 7200}),
        )
        .await
        .assert_primary_error(StatusCode::UNPROCESSABLE_ENTITY, "invalid_valid_since");
    server
        .patch(&path, &key, json!({"valid_time": START + 1800}))
        .await
        .assert_primary_error(StatusCode::UNPROCESSABLE_ENTITY, "invalid_valid_since");
    server
        .patch(&path, &key, json!({"valid_since": -1}))
        .await
        .assert_primary_error(StatusCode::BAD_REQUEST, "invalid_valid_since");
    server
        .patch(&path, &key, json!({"valid_since": 0}))
        .await
        .primary_data();
    assert_eq!(server.visit("launch").await.status, StatusCode::FOUND);
}

#[tokio::test]
async fn racing_visitors_over_two_instances_get_exactly_max_visits_and_bots_take_none() {
    const LIMIT: usize = 7;
    const RACERS: usize = 50;
    for backend in backends() {
        let servers = instances(backend.clone(), Options::default).await;
        let (_, key) = servers[0].full_user("limited").await;
        let chain = servers[0]
            .create_chain(
                &key,
                json!({"target_url": "https://e.example/few", "code": "few",
                       "max_visits": LIMIT}),
            )
            .await;
        assert_eq!(chain["visits_left"], LIMIT, "{chain}");
        // Bots and HEAD requests pass and take nothing, on either instance.
        for server in &servers {
            for _ in 0..3 {
                assert_eq!(
                    visit_as(server, Method::GET, "few", GOOGLEBOT).await,
                    StatusCode::FOUND
                );
                assert_eq!(
                    visit_as(server, Method::HEAD, "few", "Mozilla/5.0 Firefox/128.0").await,
                    StatusCode::FOUND
                );
            }
        }
        let answers = race(&servers, RACERS, |server, _| {
            server
                .client
                .get(server.url("/few"))
                .header("host", &server.host)
        })
        .await;
        let served = answers
            .iter()
            .filter(|a| a.status == StatusCode::FOUND)
            .count();
        let gone = answers
            .iter()
            .filter(|a| a.status == StatusCode::GONE)
            .count();
        assert_eq!((served, gone), (LIMIT, RACERS - LIMIT), "{backend:?}");
        // Used up: people and bots alike get 410 from either instance.
        for server in &servers {
            assert_eq!(server.visit("few").await.status, StatusCode::GONE);
            assert_eq!(
                visit_as(server, Method::GET, "few", GOOGLEBOT).await,
                StatusCode::GONE
            );
        }
        let read = servers[servers.len() - 1]
            .get(&chain_path(&chain), &key)
            .await;
        assert_eq!(read.primary_data()["visits_left"], 0, "{backend:?}");
        assert_eq!(read.primary_data()["status"], 2, "{backend:?}");
        // Only the visits served are counted: the 410s are not.
        for server in &servers {
            server.flush_visits().await;
        }
        let stats = servers[0]
            .get(&format!("{}/stats", chain_path(&chain)), &key)
            .await;
        assert_eq!(stats.primary_data()["total_clicks"], LIMIT, "{backend:?}");

        // A higher limit serves the difference, on the other instance too once it hears.
        servers[0]
            .patch(&chain_path(&chain), &key, json!({"max_visits": LIMIT + 2}))
            .await
            .primary_data();
        let other = &servers[servers.len() - 1];
        assert!(
            within(std::time::Duration::from_secs(5), || async {
                other.visit("few").await.status == StatusCode::FOUND
            })
            .await,
            "{backend:?}: the raised limit was not heard of"
        );
        assert_eq!(servers[0].visit("few").await.status, StatusCode::FOUND);
        assert_eq!(servers[0].visit("few").await.status, StatusCode::GONE);
        assert_eq!(other.visit("few").await.status, StatusCode::GONE);
        // 0 lifts the limit.
        let lifted = servers[0]
            .patch(&chain_path(&chain), &key, json!({"max_visits": 0}))
            .await;
        assert_eq!(lifted.primary_data()["visits_left"], Value::Null);
        assert_eq!(servers[0].visit("few").await.status, StatusCode::FOUND);
        servers[0]
            .patch(&chain_path(&chain), &key, json!({"max_visits": -3}))
            .await
            .assert_primary_error(StatusCode::BAD_REQUEST, "invalid_max_visits");
    }
}

#[tokio::test]
async fn options_survive_a_restart_and_unset_chains_show_none() {
    let server = TestServer::start_on(Backend::from_env(), Options::default()).await;
    let (_, key) = server.full_user("kept").await;
    let chain = server
        .create_chain(
            &key,
            json!({"target_url": "https://e.example/k", "code": "kept",
                   "redirect_status": 308, "max_visits": 2, "valid_since": START - 10}),
        )
        .await;
    let plain = server
        .create_chain(
            &key,
            json!({"target_url": "https://e.example/p", "code": "plain"}),
        )
        .await;
    assert_eq!(plain["redirect_status"], Value::Null);
    assert_eq!(plain["valid_since"], 0);
    assert_eq!(plain["max_visits"], 0);
    assert_eq!(plain["visits_left"], Value::Null);
    assert_eq!(
        server.visit("kept").await.status,
        StatusCode::PERMANENT_REDIRECT
    );
    let host = server.host.clone();
    let server = server.restart().await;
    let visit = |code: &'static str| {
        let request = server
            .client
            .get(server.url(&format!("/{code}")))
            .header("host", &host);
        async move { request.send().await.expect("a visit").status() }
    };
    let read = server.get(&chain_path(&chain), &key).await;
    let read = read.primary_data();
    assert_eq!(
        (
            &read["redirect_status"],
            &read["max_visits"],
            &read["visits_left"]
        ),
        (&json!(308), &json!(2), &json!(1))
    );
    assert_eq!(visit("kept").await, StatusCode::PERMANENT_REDIRECT);
    assert_eq!(visit("kept").await, StatusCode::GONE);
    assert_eq!(visit("plain").await, StatusCode::FOUND);
}
