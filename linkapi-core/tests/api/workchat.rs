//! Work-chat chains and work-chat data: assembly lists administrators load, the chains that
//! lead to them (or to a work-chat URL), and transfer results paged to the end.

use std::collections::HashSet;

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::html::button_href;
use crate::support::{ADMIN_KEY, TestServer};
use crate::wx_support::WX_SCOPES;

pub async fn add_assembly(server: &TestServer, user: i64, link: &str, invalid: bool) -> Value {
    let reply = server
        .post(
            "/admin/workchat/assemblies",
            ADMIN_KEY,
            json!({"user_id": user, "link_id": link, "link_name": format!("Link {link}"),
                   "url": format!("https://work.example.com/ca/{link}"),
                   "auth_status": "authorized", "invalid": invalid}),
        )
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    reply.primary_data().clone()
}

#[tokio::test]
async fn work_chat_chains_lead_to_an_acquisition_link_or_a_url() {
    let server = TestServer::start().await;
    let (user, key) = server.user_with_key("wc", WX_SCOPES).await;
    let (other_user, other) = server.user_with_key("wc-other", WX_SCOPES).await;
    let link = add_assembly(&server, user, "L1", false).await;
    let broken = add_assembly(&server, user, "L2", true).await;
    let foreign = add_assembly(&server, other_user, "L9", false).await;
    assert_eq!(link["use_status"], 0);
    assert_eq!(broken["use_status"], 2);

    let created = server
        .post(
            "/openapi/v1/workchat/chain/create",
            &key,
            json!({"chain_title": "Sales", "chain_type": 3, "wxwork_type": 1,
                   "customer_id": link["id"], "domain": [], "group_id": [], "is_direct_jump": 1,
                   "jump_template_id": 0}),
        )
        .await;
    assert_eq!(created.status, StatusCode::OK, "{}", created.text);
    let code = created.compat_result()["chain"]
        .as_str()
        .unwrap()
        .to_owned();
    let visit = server.visit(&code).await;
    assert_eq!(visit.status, StatusCode::FOUND);
    assert_eq!(
        visit.header("location"),
        Some("https://work.example.com/ca/L1")
    );

    let info = server
        .call(
            Method::GET,
            &format!("/openapi/v1/workchat/chain/info?chain={code}&apikey={key}"),
            None,
            None,
        )
        .await
        .compat_result()
        .clone();
    for field in [
        "chain",
        "chain_title",
        "chain_type",
        "channel_list",
        "customer_id",
        "domain",
        "domain_url",
        "group_id",
        "is_direct_jump",
        "jump_template_id",
        "render_url",
        "status",
        "target_url",
    ] {
        assert!(info.get(field).is_some(), "{field} in {info}");
    }
    assert_eq!(info["chain_type"], 3);
    assert_eq!(info["customer_id"], link["id"]);
    assert_eq!(info["target_url"], "https://work.example.com/ca/L1");
    let channel_id = info["channel_list"][0]["id"].as_i64().unwrap();
    assert_eq!(
        info["channel_list"][0]["url"],
        "https://work.example.com/ca/L1"
    );

    // The assembly list shows the entry in use now, in the spec's shape.
    let list = server
        .post(
            "/openapi/v1/workchat/assembly/list",
            &key,
            json!({"page": 1, "page_size": 1}),
        )
        .await
        .compat_result()
        .clone();
    assert_eq!(
        (
            list["page"].clone(),
            list["pageCount"].clone(),
            list["total"].clone()
        ),
        (json!(1), json!(2), json!(2))
    );
    let item = &list["list"][0];
    for field in [
        "auth_status",
        "create_time",
        "id",
        "link_id",
        "link_name",
        "url",
        "use_status",
        "use_status_description",
    ] {
        assert!(item.get(field).is_some(), "{field} in {item}");
    }
    assert_eq!(item["use_status"], 1);
    assert_eq!(item["use_status_description"], "in use");

    // Edit to a custom work-chat URL, naming the channel; the page now leads there.
    let edited = server
        .post(
            "/openapi/v1/workchat/chain/edit",
            &key,
            json!({"chain": code, "channel_id": channel_id, "wxwork_type": 2,
                   "target_url": "https://work.example.com/u/42", "is_direct_jump": 0}),
        )
        .await;
    assert_eq!(edited.status, StatusCode::OK, "{}", edited.text);
    let page = server.visit(&code).await;
    assert_eq!(page.status, StatusCode::OK);
    assert_eq!(
        button_href(&page.text).as_deref(),
        Some("https://work.example.com/u/42")
    );
    let info = server
        .post(
            "/openapi/v1/workchat/chain/info",
            &key,
            json!({"chain": code}),
        )
        .await
        .compat_result()
        .clone();
    assert_eq!(info["customer_id"], 0);

    // The primary surface has the same power: back to the acquisition link.
    let id = info["chain_id"].as_i64().unwrap();
    let patched = server
        .patch(
            &format!("/wx-chains/{id}"),
            &key,
            json!({"wxwork_type": 1, "customer_id": link["id"]}),
        )
        .await;
    assert_eq!(patched.status, StatusCode::OK, "{}", patched.text);
    assert_eq!(patched.primary_data()["wxwork_type"], 1);
    assert_eq!(patched.primary_data()["customer_id"], link["id"]);
    let visit = server.visit(&code).await;
    assert_eq!(visit.status, StatusCode::OK);
    assert_eq!(
        button_href(&visit.text).as_deref(),
        Some("https://work.example.com/ca/L1")
    );
    // ... and to the URL again, as the compatibility edit left it for what follows.
    let back = server
        .patch(
            &format!("/wx-chains/{id}"),
            &key,
            json!({"wxwork_type": 2, "target_url": "https://work.example.com/u/42"}),
        )
        .await;
    assert_eq!(back.status, StatusCode::OK, "{}", back.text);
    assert_eq!(
        button_href(&server.visit(&code).await.text).as_deref(),
        Some("https://work.example.com/u/42")
    );
    // A messaging-app chain refuses a work-chat destination there, as on create.
    let messaging = crate::wx_support::create_wx(
        &server,
        &key,
        json!({"sub_type": 2, "wx_id": "acct", "avatar": "https://img.example/a.png"}),
    )
    .await;
    server
        .patch(
            &format!("/wx-chains/{}", messaging["id"]),
            &key,
            json!({"target_url": "https://work.example.com/u/42"}),
        )
        .await
        .assert_primary_error(StatusCode::UNPROCESSABLE_ENTITY, "field_not_allowed");
    assert_eq!(info["channel_list"][0]["id"], channel_id);
    assert_eq!(
        info["channel_list"][0]["url"],
        "https://work.example.com/u/42"
    );

    // Bad input changes nothing and says why.
    for (path, body, status, says) in [
        (
            "/openapi/v1/workchat/chain/create",
            json!({"wxwork_type": 1}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "customer_id",
        ),
        (
            "/openapi/v1/workchat/chain/create",
            json!({"wxwork_type": 2}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "target_url",
        ),
        (
            "/openapi/v1/workchat/chain/create",
            json!({"wxwork_type": 2, "target_url": "   "}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "target_url",
        ),
        (
            "/openapi/v1/workchat/chain/create",
            json!({}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "wxwork_type",
        ),
        (
            "/openapi/v1/workchat/chain/create",
            json!({"wxwork_type": 1, "customer_id": foreign["id"]}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "no entry",
        ),
        (
            "/openapi/v1/workchat/chain/create",
            json!({"wxwork_type": 1, "customer_id": broken["id"]}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "invalid",
        ),
        (
            "/openapi/v1/workchat/chain/create",
            json!({"wxwork_type": 2, "target_url": "javascript:alert(1)"}),
            StatusCode::BAD_REQUEST,
            "target_url",
        ),
        (
            "/openapi/v1/workchat/chain/create",
            json!({"wxwork_type": 2, "target_url": "https://w.example.com/", "customer_id": link["id"]}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "customer_id belongs",
        ),
        (
            "/openapi/v1/workchat/chain/create",
            json!({"wxwork_type": 3}),
            StatusCode::BAD_REQUEST,
            "wxwork_type",
        ),
        (
            "/openapi/v1/workchat/chain/create",
            json!({"chain_type": 2, "wxwork_type": 2, "target_url": "https://w.example.com/"}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "chain_type",
        ),
        (
            "/openapi/v1/workchat/chain/edit",
            json!({"chain": code, "channel_id": 999_999, "target_url": "https://w.example.com/"}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "channel",
        ),
    ] {
        let reply = server.post(path, &key, body.clone()).await;
        reply.assert_compat_error(status);
        assert!(
            reply.body["msg"].as_str().unwrap().contains(says),
            "{body}: {}",
            reply.text
        );
    }
    server
        .post(
            "/openapi/v1/workchat/chain/info",
            &other,
            json!({"chain": code}),
        )
        .await
        .assert_compat_error(StatusCode::NOT_FOUND);
    server
        .post(
            "/openapi/v1/workchat/chain/edit",
            &other,
            json!({"chain": code, "chain_title": "x"}),
        )
        .await
        .assert_compat_error(StatusCode::NOT_FOUND);
    // Work-chat chains are not external chains.
    server
        .post("/openapi/v1/wxchain/info", &key, json!({"chain": code}))
        .await
        .assert_compat_error(StatusCode::NOT_FOUND);
    // Admin input is checked too.
    server
        .post(
            "/admin/workchat/assemblies",
            ADMIN_KEY,
            json!({"user_id": user, "link_id": "x y", "link_name": "n", "url": "https://a.example.com/"}),
        )
        .await
        .assert_primary_error(StatusCode::BAD_REQUEST, "invalid_id");
    let listed = server
        .get(
            &format!("/admin/workchat/assemblies?user_id={user}"),
            ADMIN_KEY,
        )
        .await;
    assert_eq!(listed.primary_data()["total"], 2);
}

#[tokio::test]
async fn transfer_results_page_to_the_end() {
    let server = TestServer::start_with(crate::support::Options {
        max_body_bytes: 64 << 10,
        ..crate::support::Options::default()
    })
    .await;
    let (user, key) = server.user_with_key("hr", &["workchat:read"]).await;
    let (other_user, other) = server.user_with_key("hr-other", &["workchat:read"]).await;
    let records: Vec<Value> = (0..250)
        .map(|i| {
            json!({"external_userid": format!("wm{i:03}"), "name": format!("Customer {i}"),
                   "status": 1 + i % 5, "takeover_time": if i % 5 == 0 { 1_800_000_000 + i } else { 0 },
                   "errcode": if i % 5 == 2 { 40_096 } else { 0 },
                   "reason": if i % 5 == 2 { "customer refused" } else { "" }})
        })
        .collect();
    let loaded = server
        .post(
            "/admin/workchat/transfers",
            ADMIN_KEY,
            json!({"user_id": user, "corp_id": "corp1", "handover_userid": "alice",
                   "takeover_userid": "bob", "records": records}),
        )
        .await;
    assert_eq!(loaded.primary_data()["stored"], 250, "{}", loaded.text);
    server
        .post(
            "/admin/workchat/transfers",
            ADMIN_KEY,
            json!({"user_id": user, "corp_id": "corp1", "handover_userid": "carol",
                   "takeover_userid": "bob", "records": [{"external_userid": "wmX", "status": 2}]}),
        )
        .await;
    server
        .post(
            "/admin/workchat/transfers",
            ADMIN_KEY,
            json!({"user_id": other_user, "corp_id": "corp1", "handover_userid": "alice",
                   "takeover_userid": "bob", "records": [{"external_userid": "wmY", "status": 1}]}),
        )
        .await;

    let mut cursor = String::new();
    let mut seen = HashSet::new();
    let mut pages = 0;
    loop {
        let reply = server
            .call(
                Method::POST,
                &format!("/openapi/v1/workchat/transfer/result?corp_id=corp1&apikey={key}"),
                None,
                Some(
                    json!({"cursor": cursor, "handover_userid": "alice", "takeover_userid": "bob"}),
                ),
            )
            .await;
        assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
        assert_eq!(reply.body["status"], 1);
        let result = &reply.body["result"];
        for item in result["results"].as_array().unwrap() {
            for field in ["errcode", "external_userid", "status", "takeover_time"] {
                assert!(item.get(field).is_some(), "{field} in {item}");
            }
            let id = item["external_userid"].as_str().unwrap().to_owned();
            let n: i64 = id[2..].parse().unwrap();
            assert_eq!(item["status"], 1 + n % 5);
            assert_eq!(result["names"][&id], format!("Customer {n}"));
            if n % 5 == 2 {
                assert_eq!(result["reasons"][&id], "customer refused");
                assert_eq!(item["errcode"], 40_096);
            }
            assert!(seen.insert(id), "a customer appeared twice");
        }
        pages += 1;
        cursor = result["next_cursor"].as_str().unwrap().to_owned();
        if cursor.is_empty() {
            break;
        }
        assert!(pages < 10, "the cursor does not end");
    }
    assert_eq!(seen.len(), 250);
    assert_eq!(pages, 3);

    // Without the handover filter, carol's transfer shows too; another user sees only theirs.
    let all = server
        .post(
            "/openapi/v1/workchat/transfer/result?corp_id=corp1",
            &key,
            json!({}),
        )
        .await;
    assert!(all.body["result"]["next_cursor"].as_str().unwrap().len() > 1);
    let theirs = server
        .post(
            "/openapi/v1/workchat/transfer/result?corp_id=corp1",
            &other,
            json!({}),
        )
        .await;
    let results = theirs.body["result"]["results"].as_array().unwrap().clone();
    assert_eq!(results.len(), 1);
    assert_eq!(results[0]["external_userid"], "wmY");
    let none = server
        .post(
            "/openapi/v1/workchat/transfer/result?corp_id=corp2",
            &key,
            json!({}),
        )
        .await;
    assert_eq!(none.body["result"]["results"], json!([]));
    assert_eq!(none.body["result"]["next_cursor"], "");

    // Errors use the primary envelope.
    server
        .post("/openapi/v1/workchat/transfer/result", &key, json!({}))
        .await
        .assert_primary_error(StatusCode::BAD_REQUEST, "invalid_query");
    server
        .post(
            "/openapi/v1/workchat/transfer/result?corp_id=corp1",
            &key,
            json!({"cursor": "not-a-cursor"}),
        )
        .await
        .assert_primary_error(StatusCode::BAD_REQUEST, "invalid_cursor");
    server
        .post(
            "/admin/workchat/transfers",
            ADMIN_KEY,
            json!({"user_id": user, "corp_id": "corp1", "handover_userid": "alice",
                   "takeover_userid": "bob", "records": [{"external_userid": "wmZ", "status": 6}]}),
        )
        .await
        .assert_primary_error(StatusCode::BAD_REQUEST, "invalid_code");
}
