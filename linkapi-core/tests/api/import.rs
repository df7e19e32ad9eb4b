//! `POST /chains/import`: links from another shortener (or an export) with their own codes,
//! times and visit totals; idempotent by (domain, code), each item reported on its own.

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::instances::{backends, instances};
use crate::support::{ADMIN_KEY, Options, TestServer, race_posts};

/// The results of an import that must answer 200.
async fn import(server: &TestServer, key: &str, path: &str, chains: &[Value]) -> Value {
    let reply = server.post(path, key, json!({ "chains": chains })).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    reply.primary_data().clone()
}

fn outcomes(answer: &Value) -> Vec<String> {
    answer["results"]
        .as_array()
        .expect("results")
        .iter()
        .map(|r| r["result"].as_str().expect("a result").to_owned())
        .collect()
}

/// The peers' cases: case twins, an expired link, no visits, a title with a quote and a
/// newline, a percent-encoded space, a custom domain, a unicode title and target.
fn peer_links(long_code: &str) -> Vec<Value> {
    vec![
        json!({"code": "Promo", "target_url": "https://93.184.215.14/Promo", "pv_history": 17,
               "created_at": "2024-05-01 10:00:00", "chain_title": "say \"hi\"\nthen go"}),
        json!({"code": "promo", "target_url": "https://93.184.215.14/promo", "pv_history": 0,
               "created_at": "2024-05-01T12:00:00+02:00"}),
        json!({"code": "old", "target_url": "https://93.184.215.14/old", "valid_time": 1_600_000_000}),
        json!({"code": "space", "target_url": "https://93.184.215.14/a%20b?q=1#frag"}),
        json!({"code": "zh", "target_url": "https://93.184.215.14/路径?q=ä", "chain_title": "春季 ✨"}),
        json!({"code": "promo", "domain": "GO.Import.test", "target_url": "https://93.184.215.14/go"}),
        json!({"code": long_code, "target_url": "https://93.184.215.14/long"}),
        json!({"code": "g", "target_url": "https://93.184.215.14/g", "groups": ["moved", "kutt"],
               "status": 3, "archived_at": "2025-01-01T00:00:00Z"}),
    ]
}

#[tokio::test]
async fn an_import_keeps_codes_times_and_visits_and_a_second_run_imports_nothing() {
    let server = TestServer::start().await;
    let (user, key) = server.full_user("mover").await;
    let (_, other) = server.full_user("other").await;
    server
        .post(
            "/admin/domains",
            ADMIN_KEY,
            json!({"domain": "go.import.test", "scheme": "http", "user_id": user}),
        )
        .await
        .primary_data();
    server
        .create_chain(
            &other,
            json!({"target_url": "https://e.com/theirs", "code": "theirs"}),
        )
        .await;
    let long_code = "L".repeat(64);
    let mut links = peer_links(&long_code);
    let refused = [
        json!({"code": "L".repeat(65), "target_url": "https://93.184.215.14/x"}),
        json!({"code": "api", "target_url": "https://93.184.215.14/x"}),
        json!({"code": "with space", "target_url": "https://93.184.215.14/x"}),
        json!({"code": "ftp", "target_url": "ftp://93.184.215.14/x"}),
        json!({"code": "nodomain", "domain": "kutt.invalid", "target_url": "https://93.184.215.14/x"}),
        json!({"code": "later", "target_url": "https://93.184.215.14/x", "created_at": "2999-01-01T00:00:00Z"}),
        json!({"code": "when", "target_url": "https://93.184.215.14/x", "created_at": "yesterday"}),
        json!({"code": "minus", "target_url": "https://93.184.215.14/x", "pv_history": -1}),
        json!({"code": "Promo", "target_url": "https://93.184.215.14/again"}),
    ];
    let clash = json!({"code": "theirs", "target_url": "https://93.184.215.14/mine"});
    links.extend(refused.iter().cloned());
    links.push(clash);

    let first = import(&server, &key, "/chains/import", &links).await;
    let mut expected = vec!["imported"; 8];
    expected.extend(["refused"; 9]);
    expected.push("clash");
    assert_eq!(outcomes(&first), expected, "{first:#}");
    assert_eq!(
        (
            &first["imported"],
            &first["refused"],
            &first["clashes"],
            &first["dry_run"]
        ),
        (&json!(8), &json!(9), &json!(1), &json!(false))
    );
    let results = first["results"].as_array().unwrap();
    let codes: Vec<&str> = results[8..17]
        .iter()
        .map(|r| r["error"]["code"].as_str().unwrap())
        .collect();
    assert_eq!(
        codes,
        [
            "invalid_code",
            "invalid_code",
            "invalid_code",
            "invalid_target_url",
            "invalid_domain",
            "invalid_field",
            "invalid_field",
            "invalid_field",
            "duplicate_code"
        ]
    );
    assert_eq!(results[17]["error"]["code"], "code_taken");
    assert!(
        !results[17].to_string().contains("e.com/theirs"),
        "another account's chain is not shown"
    );
    assert_eq!(results[5]["domain"], "go.import.test");
    assert!(
        results[0]["notes"][0]
            .as_str()
            .unwrap()
            .contains("line breaks")
    );
    assert!(results[2]["notes"][0].as_str().unwrap().contains("expired"));
    assert!(
        results[4]["notes"][0]
            .as_str()
            .unwrap()
            .contains("percent-encoded")
    );

    // What came over, as the chain and its statistics show it.
    let chain = |at: usize| {
        let id = results[at]["chain_id"].as_i64().expect("an id");
        let server = &server;
        let key = &key;
        async move {
            server
                .get(&format!("/chains/{id}"), key)
                .await
                .primary_data()
                .clone()
        }
    };
    let promo = chain(0).await;
    assert_eq!(promo["code"], "Promo");
    assert_eq!(promo["created_at"], "2024-05-01T10:00:00Z");
    assert_eq!(promo["chain_title"], "say \"hi\" then go");
    assert_eq!(
        (&promo["imported_visits"], &promo["pv_history"]),
        (&json!(17), &json!(0))
    );
    assert_eq!(chain(1).await["created_at"], "2024-05-01T10:00:00Z");
    assert_eq!(chain(2).await["status_label"], "expired");
    assert_eq!(
        chain(3).await["target_url"],
        "https://93.184.215.14/a%20b?q=1#frag"
    );
    assert_eq!(
        chain(4).await["target_url"],
        "https://93.184.215.14/%E8%B7%AF%E5%BE%84?q=%C3%A4"
    );
    assert_eq!(chain(4).await["chain_title"], "春季 ✨");
    let g = chain(7).await;
    assert_eq!(
        (&g["status"], &g["archived_at"]),
        (&json!(3), &json!("2025-01-01T00:00:00Z"))
    );
    let groups = server.get("/groups", &key).await.primary_data().clone();
    let mut names: Vec<&str> = groups
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["name"].as_str().unwrap())
        .collect();
    names.sort_unstable();
    assert_eq!(names, ["kutt", "moved"], "the groups named were made");
    let stats = server
        .get(&format!("/chains/{}/stats", results[0]["chain_id"]), &key)
        .await;
    assert_eq!(stats.primary_data()["imported_visits"], 17);
    assert_eq!(stats.primary_data()["total_clicks"], 0);

    // The links answer as they did: case apart, the target byte for byte, the expired one not.
    let visit = server.visit("Promo").await;
    assert_eq!(visit.status, StatusCode::FOUND);
    assert_eq!(
        visit.header("location"),
        Some("https://93.184.215.14/Promo")
    );
    assert_eq!(
        server.visit("space").await.header("location"),
        Some("https://93.184.215.14/a%20b?q=1#frag")
    );
    assert_ne!(server.visit("old").await.status, StatusCode::FOUND);

    // Again: nothing twice, the rest as before.
    let again = import(&server, &key, "/chains/import", &links).await;
    let mut expected = vec!["exists"; 8];
    expected.extend(["refused"; 9]);
    expected.push("clash");
    assert_eq!(outcomes(&again), expected, "{again:#}");
    assert_eq!(again["results"][0]["chain_id"], results[0]["chain_id"]);
    let listed = server
        .get("/chains?archived=include&page_size=100", &key)
        .await;
    assert_eq!(listed.primary_data()["total"], 8);
    // The same code with another target is a clash with the caller's own chain, named.
    let changed = import(
        &server,
        &key,
        "/chains/import",
        &[json!({"code": "Promo", "target_url": "https://93.184.215.14/changed"})],
    )
    .await;
    assert_eq!(outcomes(&changed), ["clash"]);
    assert_eq!(changed["results"][0]["chain_id"], results[0]["chain_id"]);
}

#[tokio::test]
async fn a_dry_run_reports_what_an_import_would_do_and_imports_nothing() {
    let server = TestServer::start().await;
    let (_, key) = server.full_user("careful").await;
    server
        .create_chain(
            &key,
            json!({"target_url": "https://93.184.215.14/promo", "code": "promo"}),
        )
        .await;
    let links = [
        json!({"code": "promo", "target_url": "https://93.184.215.14/promo"}),
        json!({"code": "new", "target_url": "https://93.184.215.14/new", "groups": ["later"]}),
        json!({"code": "bad code", "target_url": "https://93.184.215.14/x"}),
    ];
    let dry = import(&server, &key, "/chains/import?dry_run=true", &links).await;
    assert_eq!(outcomes(&dry), ["exists", "imported", "refused"]);
    assert_eq!(dry["dry_run"], true);
    assert_eq!(dry["results"][1]["chain_id"], Value::Null);
    assert!(
        dry["results"][1]["notes"][0]
            .as_str()
            .unwrap()
            .contains("would be created")
    );
    let listed = server.get("/chains", &key).await;
    assert_eq!(listed.primary_data()["total"], 1, "nothing imported");
    let groups = server.get("/groups", &key).await;
    assert_eq!(groups.primary_data(), &json!([]), "no group made");

    let real = import(&server, &key, "/chains/import", &links).await;
    assert_eq!(
        outcomes(&real),
        outcomes(&dry),
        "the dry run said what happens"
    );
}

#[tokio::test]
async fn an_import_is_refused_whole_only_when_its_request_is_wrong() {
    let server = TestServer::start().await;
    let (_, key) = server.full_user("strict").await;
    server
        .post("/chains/import", &key, json!({"chains": []}))
        .await
        .assert_primary_error(StatusCode::BAD_REQUEST, "invalid_field");
    let many: Vec<Value> = (0..10_001)
        .map(|i| json!({"code": format!("c{i}"), "target_url": "https://e.com/"}))
        .collect();
    server
        .post("/chains/import", &key, json!({ "chains": many }))
        .await
        .assert_primary_error(StatusCode::BAD_REQUEST, "too_many_chains");
    server
        .post(
            "/chains/import",
            &key,
            json!({"chains": [{"code": "a", "target_url": "https://e.com/", "hits": 3}]}),
        )
        .await
        .assert_primary_error(StatusCode::BAD_REQUEST, "invalid_field");
    let listed = server.get("/chains", &key).await;
    assert_eq!(listed.primary_data()["total"], 0);
}

#[tokio::test]
async fn an_import_counts_against_the_daily_quota() {
    let server = TestServer::start().await;
    let (user, key) = server.full_user("limited").await;
    server
        .patch(
            &format!("/admin/users/{user}"),
            ADMIN_KEY,
            json!({"daily_quota": 3}),
        )
        .await
        .primary_data();
    let links: Vec<Value> = (0..5)
        .map(|i| json!({"code": format!("q{i}"), "target_url": "https://e.com/"}))
        .collect();
    let dry = import(&server, &key, "/chains/import?dry_run=true", &links).await;
    assert_eq!(
        outcomes(&dry),
        ["imported", "imported", "imported", "refused", "refused"]
    );
    let answer = import(&server, &key, "/chains/import", &links).await;
    assert_eq!(outcomes(&answer), outcomes(&dry));
    assert_eq!(answer["results"][4]["error"]["code"], "quota_exceeded");
}

#[tokio::test]
async fn racing_imports_of_the_same_links_import_each_exactly_once() {
    // On SQLite, and on two instances over one PostgreSQL database when it is installed; with
    // a quota of 250, so the racers also share what is left of it.
    for backend in backends() {
        let servers = instances(backend.clone(), || Options {
            daily_create_quota: 250,
            ..Options::default()
        })
        .await;
        let (_, key) = servers[0].full_user("racer").await;
        let links: Vec<Value> = (0..300)
            .map(|i| json!({"code": format!("r{i}"), "target_url": format!("https://e.com/{i}")}))
            .collect();
        let answers = race_posts(
            &servers,
            12,
            "/chains/import",
            &key,
            |_| json!({ "chains": links }),
        )
        .await;
        let mut imported = 0;
        for (status, body) in &answers {
            assert_eq!(*status, StatusCode::OK, "{backend:?}: {body}");
            let data = &body["data"];
            let (new, there, refused) = (
                data["imported"].as_u64().unwrap(),
                data["existing"].as_u64().unwrap(),
                data["refused"].as_u64().unwrap(),
            );
            assert_eq!(new + there + refused, 300, "{backend:?}: {data}");
            assert_eq!(data["clashes"], 0, "{backend:?}: {data}");
            imported += new;
        }
        assert_eq!(
            imported, 250,
            "{backend:?}: each link once, up to the quota"
        );
        let listed = servers[0].get("/chains?page_size=1", &key).await;
        assert_eq!(listed.primary_data()["total"], 250, "{backend:?}");
    }
}

/// The export of `key`'s chains, by code, without the domain's host (each test server's
/// default domain is its own address).
async fn exported(server: &TestServer, key: &str) -> Vec<Value> {
    let reply = server.get("/chains/export", key).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    let mut lines: Vec<Value> = reply
        .text
        .lines()
        .map(|line| serde_json::from_str(line).expect("a JSON line"))
        .collect();
    lines.sort_by_key(|line| line["code"].as_str().unwrap_or_default().to_owned());
    for line in &mut lines {
        line.as_object_mut().expect("an object").remove("domain");
    }
    lines
}

#[tokio::test]
async fn an_export_imported_elsewhere_exports_the_same() {
    let from = TestServer::start().await;
    let (_, key) = from.full_user("leaving").await;
    let group = from
        .post("/groups", &key, json!({"name": "spring", "chain_type": 1}))
        .await
        .primary_data()["id"]
        .clone();
    from.create_chain(
        &key,
        json!({"target_url": "https://e.com/a", "code": "Promo", "group_id": group,
               "chain_title": "say \"hi\"", "valid_time": 4_102_444_800_i64,
               "rules": [{"country": "DE", "target_url": "https://e.com/de"}]}),
    )
    .await;
    from.create_chain(
        &key,
        json!({"target_url": "https://e.com/b", "code": "promo", "redirect_status": 307,
               "valid_since": 1_000, "max_visits": 3}),
    )
    .await;
    let old = from
        .create_chain(
            &key,
            json!({"target_url": "https://e.com/c", "code": "old"}),
        )
        .await;
    from.post(&format!("/chains/{}/archive", old["id"]), &key, json!({}))
        .await
        .primary_data();
    from.visit("Promo").await;
    from.visit("Promo").await;
    from.visit("promo").await;
    from.visit("promo").await;
    from.flush_visits().await;
    let before = exported(&from, &key).await;
    assert_eq!(before.len(), 3);
    let promo = &before[2];
    assert_eq!(
        (
            &promo["redirect_status"],
            &promo["valid_since"],
            &promo["max_visits"],
            &promo["visits_left"]
        ),
        (&json!(307), &json!(1_000), &json!(3), &json!(1)),
        "{promo}"
    );

    let to = TestServer::start().await;
    let (_, arrived) = to.full_user("arriving").await;
    let answer = import(&to, &arrived, "/chains/import", &before).await;
    assert_eq!(outcomes(&answer), ["imported"; 3], "{answer:#}");
    assert_eq!(
        exported(&to, &arrived).await,
        before,
        "the same set, field by field"
    );
    // What was left of its visits is what it serves here, with its own status.
    assert_eq!(
        to.visit("promo").await.status,
        StatusCode::TEMPORARY_REDIRECT
    );
    assert_eq!(to.visit("promo").await.status, StatusCode::GONE);

    // A count of visits left that no limit has, or past the limit, refuses its item alone.
    let answer = import(
        &to,
        &arrived,
        "/chains/import",
        &[
            json!({"code": "left1", "target_url": "https://e.com/1", "visits_left": 2}),
            json!({"code": "left2", "target_url": "https://e.com/2", "visits_left": 4,
                   "max_visits": 3}),
            json!({"code": "left3", "target_url": "https://e.com/3", "redirect_status": 303}),
            json!({"code": "left4", "target_url": "https://e.com/4", "visits_left": 0,
                   "max_visits": 3}),
        ],
    )
    .await;
    assert_eq!(
        outcomes(&answer),
        ["refused", "refused", "refused", "imported"],
        "{answer:#}"
    );
    assert_eq!(
        answer["results"][2]["error"]["code"],
        "invalid_redirect_status"
    );
    assert_eq!(to.visit("left4").await.status, StatusCode::GONE);
}
