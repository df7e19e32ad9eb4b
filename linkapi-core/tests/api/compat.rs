//! Compatibility surface: `/openapi/v1/...` with its own envelope and lenient inputs.

use reqwest::StatusCode;
use serde_json::json;

use crate::support::{Reply, START, TestServer};

#[tokio::test]
async fn chain_create_info_list_edit_delete() {
    let server = TestServer::start().await;
    let (_, key) = server.full_user("compat").await;
    let group = server
        .post(
            "/openapi/v1/group/create",
            &key,
            json!({"name": "campaign", "chain_type": 0}),
        )
        .await;
    let group_id = group.compat_result()["group_id"]
        .as_str()
        .unwrap()
        .to_owned();

    let domains = server.get("/openapi/v1/domain/list", &key).await;
    let domain_id = domains.compat_result()["domain_list"][0]["id"]
        .as_i64()
        .unwrap();

    let created = server
        .post(
            "/openapi/v1/chain/create",
            &key,
            json!({
                "chain_title": "Spring",
                "target_url": "https://example.com/spring",
                "group_id": group_id,          // a string, as this surface hands it out
                "domain": [domain_id],
                "valid_time": "2027-02-01 00:00:00",
            }),
        )
        .await;
    let result = created.compat_result();
    assert_eq!(result["chain_title"], "Spring");
    assert_eq!(result["created_today"], 1);
    assert_eq!(result["group_id"].as_i64().unwrap().to_string(), group_id);
    let render_url = result["render_url"].as_str().unwrap().to_owned();
    let code = render_url.rsplit('/').next().unwrap().to_owned();
    assert_eq!(render_url, format!("http://{}/{code}", server.addr));

    let second = server
        .post(
            "/openapi/v1/chain/create",
            &key,
            json!({"target_url": "https://e.com", "valid_time": ""}),
        )
        .await;
    assert_eq!(second.compat_result()["created_today"], 2);

    let info = server
        .post("/openapi/v1/chain/info", &key, json!({"chain": code}))
        .await;
    let item = info.compat_result();
    assert_eq!(item["chain"], code.as_str());
    assert_eq!(item["chain_title"], "Spring");
    assert_eq!(item["status"], "normal");
    assert_eq!(item["type"], 1);
    assert_eq!(item["domain"], domain_id);
    assert_eq!(item["domain_status"], 1);
    assert_eq!(item["domain_url"], server.addr.to_string());
    assert_eq!(item["render_url"], render_url.as_str());
    assert_eq!(item["valid_time"], "2027-02-01 00:00:00");
    assert_eq!(item["create_time"], "2027-01-15 08:00:00");
    assert_eq!(item["pv_today"], 0);

    // GET with query parameters answers the same.
    let by_query = server
        .get(&format!("/openapi/v1/chain/info?chain={code}"), &key)
        .await;
    assert_eq!(by_query.compat_result(), item);

    let list = server
        .get("/openapi/v1/chain/list?page=1&page_size=1", &key)
        .await;
    let result = list.compat_result();
    assert_eq!(result["total"], 2);
    assert_eq!(result["list_num"], 1);
    let filtered = server
        .post(
            "/openapi/v1/chain/list",
            &key,
            json!({"group_id": group_id}),
        )
        .await;
    assert_eq!(filtered.compat_result()["total"], 1);
    let groups = server.post("/openapi/v1/group/list", &key, json!({})).await;
    let groups = groups.compat_result();
    assert_eq!(groups["list"][0]["group_name"], "campaign");
    assert_eq!(groups["list"][0]["chain_num"], 1);
    assert_eq!(groups["list"][0]["chain_type"], 1);

    let edited = server
        .post(
            "/openapi/v1/chain/edit",
            &key,
            json!({"chain": code, "target_url": "https://example.com/summer", "chain_title": "Summer"}),
        )
        .await;
    let result = edited.compat_result();
    assert_eq!(result["target_url"], "https://example.com/summer");
    assert_eq!(result["render_url"], render_url.as_str());

    let deleted = server
        .post("/openapi/v1/chain/delete", &key, json!({"chains": [code]}))
        .await;
    assert_eq!(deleted.compat_result(), &json!([]));
    server
        .post("/openapi/v1/chain/info", &key, json!({"chain": code}))
        .await
        .assert_compat_error(StatusCode::NOT_FOUND);
    assert_eq!(
        server
            .get("/openapi/v1/chain/list", &key)
            .await
            .compat_result()["total"],
        1
    );
}

#[tokio::test]
async fn valid_time_takes_every_documented_form() {
    let server = TestServer::start().await;
    let (_, key) = server.full_user("times").await;
    let later = START + 86_400;
    for (form, expected) in [
        (json!("2027-01-16 08:00:00"), later),
        (json!("2027-01-16T16:00:00+08:00"), later),
        (json!(later.to_string()), later),
        (json!(later), later),
        (json!("0"), 0),
        (json!(""), 0),
    ] {
        let created = server
            .post(
                "/openapi/v1/chain/create",
                &key,
                json!({"target_url": "https://e.com", "valid_time": form}),
            )
            .await;
        let url = created.compat_result()["render_url"]
            .as_str()
            .unwrap()
            .to_owned();
        let code = url.rsplit('/').next().unwrap();
        let info = server
            .get(&format!("/openapi/v1/chain/info?chain={code}"), &key)
            .await;
        let shown = info.compat_result()["valid_time"]
            .as_str()
            .unwrap()
            .to_owned();
        if expected == 0 {
            assert_eq!(shown, "", "{form}");
        } else {
            assert_eq!(shown, "2027-01-16 08:00:00", "{form}");
        }
    }
    for (bad, status) in [
        (json!("next week"), StatusCode::BAD_REQUEST),
        // Well formed, but in the past: a rule of the clock.
        (
            json!("2027-01-14 00:00:00"),
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
        (json!("2027-13-01 00:00:00"), StatusCode::BAD_REQUEST),
    ] {
        server
            .post(
                "/openapi/v1/chain/create",
                &key,
                json!({"target_url": "https://e.com", "valid_time": bad}),
            )
            .await
            .assert_compat_error(status);
    }
}

#[tokio::test]
async fn errors_use_the_compat_envelope_and_change_nothing() {
    let server = TestServer::start().await;
    let (_, key) = server.full_user("compat-errors").await;
    let bad = [
        (
            "/openapi/v1/chain/create",
            json!({"target_url": "gopher://x"}),
        ),
        (
            "/openapi/v1/chain/create",
            json!({"chain_title": "no target"}),
        ),
        (
            "/openapi/v1/chain/create",
            json!({"target_url": "https://e.com", "domain": [1, 2]}),
        ),
        (
            "/openapi/v1/chain/create",
            json!({"target_url": "https://e.com", "group_id": "abc"}),
        ),
        (
            "/openapi/v1/chain/create",
            json!({"target_url": "https://e.com", "code": "../x"}),
        ),
        (
            "/openapi/v1/chain/edit",
            json!({"chain": "nope", "chain_title": "x"}),
        ),
        ("/openapi/v1/chain/delete", json!({"chains": []})),
        ("/openapi/v1/chain/delete", json!({"chains": "abc"})),
        ("/openapi/v1/group/create", json!({"name": ""})),
        (
            "/openapi/v1/group/create",
            json!({"name": "g", "chain_type": 9}),
        ),
    ];
    for (path, body) in bad {
        let reply = server.post(path, &key, body.clone()).await;
        assert!(
            reply.status.is_client_error(),
            "{path} {body}: {}",
            reply.text
        );
        reply.assert_compat_error(reply.status);
    }
    assert_eq!(
        server
            .get("/openapi/v1/chain/list", &key)
            .await
            .compat_result()["total"],
        0
    );
    assert_eq!(
        server
            .get("/openapi/v1/group/list", &key)
            .await
            .compat_result()["total"],
        0
    );

    // Deleting a set with one unknown code deletes nothing.
    let created = server
        .post(
            "/openapi/v1/chain/create",
            &key,
            json!({"target_url": "https://e.com", "code": "keep"}),
        )
        .await;
    created.compat_result();
    server
        .post(
            "/openapi/v1/chain/delete",
            &key,
            json!({"chains": ["keep", "missing"]}),
        )
        .await
        .assert_compat_error(StatusCode::UNPROCESSABLE_ENTITY);
    server
        .post("/openapi/v1/chain/info", &key, json!({"chain": "keep"}))
        .await
        .compat_result();

    // Unknown actions and wrong methods answer in this surface's envelope too.
    server
        .get("/openapi/v1/chain/frobnicate", &key)
        .await
        .assert_compat_error(StatusCode::NOT_FOUND);
    let wrong = server.get("/openapi/v1/chain/create", &key).await;
    wrong.assert_compat_error(StatusCode::METHOD_NOT_ALLOWED);
    assert_eq!(wrong.header("allow"), Some("POST"));

    let raw = Reply::from(
        server
            .client
            .post(server.url("/openapi/v1/chain/create"))
            .bearer_auth(&key)
            .header("content-type", "application/json")
            .body("{broken")
            .send()
            .await
            .unwrap(),
    )
    .await;
    raw.assert_compat_error(StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn codes_on_two_domains_need_the_domain_named() {
    let server = TestServer::start().await;
    let (_, key) = server.full_user("twodomains").await;
    let second = server
        .post(
            "/admin/domains",
            crate::support::ADMIN_KEY,
            json!({"domain": "s2.example.com", "scheme": "https", "shared": true}),
        )
        .await;
    let second_id = second.primary_data()["id"].as_i64().unwrap();
    server
        .post(
            "/openapi/v1/chain/create",
            &key,
            json!({"target_url": "https://a.com", "code": "same"}),
        )
        .await
        .compat_result();
    let on_second = server
        .post(
            "/openapi/v1/chain/create",
            &key,
            json!({"target_url": "https://b.com", "code": "same", "domain": [second_id]}),
        )
        .await;
    assert_eq!(
        on_second.compat_result()["render_url"],
        "https://s2.example.com/same"
    );

    server
        .post("/openapi/v1/chain/info", &key, json!({"chain": "same"}))
        .await
        .assert_compat_error(StatusCode::UNPROCESSABLE_ENTITY);
    let named = server
        .post(
            "/openapi/v1/chain/info",
            &key,
            json!({"chain": "same", "domain": second_id}),
        )
        .await;
    assert_eq!(named.compat_result()["target_url"], "https://b.com/");
}
