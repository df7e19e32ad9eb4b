//! Messaging-app chains on the primary surface: the destination rule per sub_type, channel
//! lists in and out, reading, editing, listing and deleting as their owner, and the pages (or
//! direct jumps) their visitors get. The compatibility surface is `page_chains_compat`, card
//! chains `cards`.

use reqwest::StatusCode;
use serde_json::json;

use crate::html::{button_href, page_image, unescape};
use crate::support::{TestServer, refusal};
use crate::wx_support::{WX_SCOPES, create_wx};

#[tokio::test]
async fn each_sub_type_takes_its_destination_and_refuses_the_others() {
    let server = TestServer::start().await;
    let (_, key) = server.user_with_key("maker", WX_SCOPES).await;

    // 1: a QR image, or channels.
    let scan = create_wx(
        &server,
        &key,
        json!({"chain_title": "Join us", "scan_qr_url": "https://cdn.example.com/qr.png",
               "sub_title": "Twenty characters ok", "show_type": 1}),
    )
    .await;
    assert_eq!(scan["sub_type"], 1);
    assert_eq!(scan["type"], 2);
    assert_eq!(scan["status"], 1);
    for field in ["code", "domain_id", "id", "render_url"] {
        assert!(scan.get(field).is_some(), "{field} in {scan}");
    }
    // 2: an account ID.
    let account = create_wx(
        &server,
        &key,
        json!({"sub_type": 2, "wx_id": "shop_helper-01"}),
    )
    .await;
    assert_eq!(account["sub_type"], 2);
    // 3 and 4: mini-program and shop.
    let mini = create_wx(
        &server,
        &key,
        json!({"sub_type": 3, "mini_appid": "wx0123456789abcdef", "mini_path": "pages/index?x=1",
               "is_direct_jump": 1}),
    )
    .await;
    let shop = create_wx(
        &server,
        &key,
        json!({"sub_type": 4, "shop_appid": "wxshop", "shop_path": "item/9"}),
    )
    .await;
    // 5: a work-chat acquisition URL.
    let qwhk = create_wx(
        &server,
        &key,
        json!({"sub_type": 5, "qwhk_url": "https://work.example.com/ca/xyz", "is_direct_jump": 1}),
    )
    .await;

    let got = server
        .get(&format!("/wx-chains/{}", mini["id"]), &key)
        .await
        .primary_data()
        .clone();
    assert_eq!(got["mini_appid"], "wx0123456789abcdef");
    assert_eq!(
        got["target_url"],
        "weixin://dl/business/?appid=wx0123456789abcdef&path=pages%2Findex%3Fx%3D1"
    );
    assert_eq!(got["channel_list"], json!([]));

    // Bad values and codes: 400; missing destinations and fields of another sub_type (rules
    // that tie fields together): 422; each with a clear message.
    for (body, code, says) in [
        (json!({}), "missing_destination", "scan_qr_url"),
        (json!({"sub_type": 2}), "missing_destination", "wx_id"),
        (
            json!({"sub_type": 3, "mini_appid": "wx1"}),
            "missing_destination",
            "mini_path",
        ),
        (
            json!({"sub_type": 2, "wx_id": "not an id"}),
            "invalid_destination",
            "wx_id",
        ),
        (json!({"sub_type": 5}), "missing_destination", "qwhk_url"),
        (
            json!({"sub_type": 2, "wx_id": "a", "scan_qr_url": "https://cdn.example.com/q.png"}),
            "field_not_allowed",
            "scan_qr_url belongs to sub_type 1",
        ),
        (
            json!({"sub_type": 4, "shop_appid": "s", "shop_path": "p", "mini_appid": "m"}),
            "field_not_allowed",
            "mini_appid belongs to sub_type 3",
        ),
        (
            json!({"sub_type": 2, "wx_id": "a", "channel_list": [{"url": "https://c.example.com/1.png"}]}),
            "field_not_allowed",
            "channel_list",
        ),
        (json!({"sub_type": 6}), "invalid_code", "sub_type"),
        (
            json!({"sub_type": 2, "wx_id": "a", "is_direct_jump": 1}),
            "invalid_direct_jump",
            "cannot jump directly",
        ),
        (
            json!({"scan_qr_url": "javascript:alert(1)"}),
            "invalid_url",
            "scan_qr_url",
        ),
        (
            json!({"scan_qr_url": "https://cdn.example.com/q.png", "avatar": "data:image/png;base64,AA"}),
            "invalid_url",
            "avatar",
        ),
        (
            json!({"scan_qr_url": "https://cdn.example.com/q.png", "sub_title": "a".repeat(21)}),
            "invalid_text",
            "sub_title",
        ),
        (
            json!({"scan_qr_url": "https://cdn.example.com/q.png", "show_type": 3}),
            "invalid_code",
            "show_type",
        ),
        (
            json!({"scan_qr_url": "https://cdn.example.com/q.png", "visit_type": 2}),
            "invalid_code",
            "visit_type",
        ),
        (
            json!({"scan_qr_url": "https://cdn.example.com/q.png", "jump_template_id": 999}),
            "invalid_template",
            "999",
        ),
        (
            json!({"scan_qr_url": "https://cdn.example.com/q.png", "target_url": "https://x.example.com/"}),
            "invalid_field",
            "target_url",
        ),
    ] {
        let reply = server.post("/wx-chains", &key, body.clone()).await;
        reply.assert_primary_error(
            refusal(
                code,
                &[
                    "invalid_template",
                    "missing_destination",
                    "field_not_allowed",
                    "invalid_direct_jump",
                ],
            ),
            code,
        );
        assert!(
            reply.body["message"].as_str().unwrap().contains(says),
            "{body}: {}",
            reply.text
        );
    }

    // Visitors: the mini-program and the acquisition URL jump directly; the shop shows its
    // page with a button into the app; the account ID page shows the ID.
    let visit = server.visit(mini["code"].as_str().unwrap()).await;
    assert_eq!(visit.status, StatusCode::FOUND);
    assert_eq!(
        visit.header("location"),
        Some("weixin://dl/business/?appid=wx0123456789abcdef&path=pages%2Findex%3Fx%3D1")
    );
    let visit = server.visit(qwhk["code"].as_str().unwrap()).await;
    assert_eq!(
        visit.header("location"),
        Some("https://work.example.com/ca/xyz")
    );
    let page = server.visit(shop["code"].as_str().unwrap()).await;
    assert_eq!(page.status, StatusCode::OK);
    assert!(
        page.header("content-security-policy")
            .unwrap()
            .contains("default-src 'none'")
    );
    assert_eq!(
        button_href(&page.text).as_deref(),
        Some("weixin://dl/business/?appid=wxshop&path=item%2F9")
    );
    let page = server.visit(account["code"].as_str().unwrap()).await;
    assert!(
        unescape(&page.text).contains("shop_helper-01"),
        "{}",
        page.text
    );
    let page = server.visit(scan["code"].as_str().unwrap()).await;
    assert_eq!(
        page_image(&page.text).as_deref(),
        Some("https://cdn.example.com/qr.png")
    );
    assert!(unescape(&page.text).contains("Twenty characters ok"));
    assert!(unescape(&page.text).contains("Join us"));
}

#[tokio::test]
async fn primary_read_edit_list_and_delete_stay_with_the_owner() {
    let server = TestServer::start().await;
    let (_, key) = server.user_with_key("owner", WX_SCOPES).await;
    let (_, other) = server.user_with_key("other", WX_SCOPES).await;
    let group = server
        .post("/groups", &key, json!({"name": "wx", "chain_type": 2}))
        .await
        .primary_data()["id"]
        .clone();
    let created = create_wx(
        &server,
        &key,
        json!({"chain_title": "Spring", "group_id": group, "code": "spring-wx",
        "channel_list": [
            {"url": "https://cdn.example.com/a.png", "qrcode_name": "A", "sort": 2},
            {"url": "https://cdn.example.com/b.png", "qrcode_name": "B", "sort": 1,
             "visit_limit": 5, "ratio": 3}
        ]}),
    )
    .await;
    let id = created["id"].as_i64().unwrap();
    let got = server.get(&format!("/wx-chains/{id}"), &key).await;
    let data = got.primary_data();
    assert_eq!(data["code"], "spring-wx");
    assert_eq!(data["group_id"], group);
    let names: Vec<&str> = data["channel_list"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["qrcode_name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["B", "A"], "sort order");
    let b = &data["channel_list"][0];
    assert_eq!(
        (
            b["visit_limit"].clone(),
            b["ratio"].clone(),
            b["status"].clone(),
            b["visit_count"].clone()
        ),
        (json!(5), json!(3), json!(1), json!(0))
    );
    let a_id = data["channel_list"][1]["id"].as_i64().unwrap();
    let b_id = b["id"].as_i64().unwrap();

    // Another user sees nothing of it.
    for reply in [
        server.get(&format!("/wx-chains/{id}"), &other).await,
        server
            .patch(
                &format!("/wx-chains/{id}"),
                &other,
                json!({"chain_title": "x"}),
            )
            .await,
        server.delete(&format!("/wx-chains/{id}"), &other).await,
        server.get(&format!("/wx-chains/{id}/qr"), &other).await,
    ] {
        reply.assert_primary_error(StatusCode::NOT_FOUND, "not_found");
    }
    // Nor do the short-chain endpoints treat it as theirs.
    server
        .get(&format!("/chains/{id}"), &key)
        .await
        .assert_primary_error(StatusCode::NOT_FOUND, "not_found");

    // Edit: change B, remove A, add C; the page fields change too.
    let edited = server
        .patch(
            &format!("/wx-chains/{id}"),
            &key,
            json!({"sub_title": "New line", "show_type": 2, "visit_type": 4,
            "channel_list": [
                {"id": b_id, "visit_limit": 7},
                {"id": a_id, "is_delete": 1},
                {"url": "https://cdn.example.com/c.png", "qrcode_name": "C", "sort": 9}
            ]}),
        )
        .await;
    assert_eq!(edited.status, StatusCode::OK, "{}", edited.text);
    let data = edited.primary_data();
    assert_eq!(data["sub_title"], "New line");
    assert_eq!(data["show_type"], 2);
    assert_eq!(data["visit_type"], 4);
    let channels = data["channel_list"].as_array().unwrap();
    assert_eq!(channels.len(), 2);
    assert_eq!(channels[0]["id"], b_id);
    assert_eq!(channels[0]["visit_limit"], 7);
    assert_eq!(channels[0]["url"], "https://cdn.example.com/b.png", "kept");
    assert_eq!(channels[1]["qrcode_name"], "C");

    // Bad edits change nothing.
    for (body, code) in [
        (
            json!({"channel_list": [{"id": a_id, "ratio": 2}]}),
            "unknown_channel",
        ),
        (
            json!({"channel_list": [{"id": b_id, "is_delete": 1}, {"id": channels[1]["id"], "is_delete": 1}]}),
            "missing_destination",
        ),
        (
            json!({"sub_type": 2, "wx_id": "someone"}),
            "field_not_allowed",
        ),
        (json!({"code": "other"}), "immutable_field"),
        (json!({}), "empty_update"),
        (
            json!({"channel_list": [{"url": "ftp://cdn.example.com/x.png"}]}),
            "invalid_url",
        ),
    ] {
        server
            .patch(&format!("/wx-chains/{id}"), &key, body)
            .await
            .assert_primary_error(
                refusal(
                    code,
                    &[
                        "field_not_allowed",
                        "immutable_field",
                        "empty_update",
                        "unknown_channel",
                        "missing_destination",
                    ],
                ),
                code,
            );
    }
    let unchanged = server.get(&format!("/wx-chains/{id}"), &key).await;
    assert_eq!(
        unchanged.primary_data()["channel_list"]
            .as_array()
            .unwrap()
            .len(),
        2
    );

    // Switching the destination kind clears the old destination's fields.
    let switched = server
        .patch(
            &format!("/wx-chains/{id}"),
            &key,
            json!({"sub_type": 5, "qwhk_url": "https://work.example.com/x",
                   "channel_list": [{"id": b_id, "is_delete": 1}, {"id": channels[1]["id"], "is_delete": 1}]}),
        )
        .await;
    assert_eq!(switched.status, StatusCode::OK, "{}", switched.text);
    assert_eq!(switched.primary_data()["sub_type"], 5);
    assert_eq!(
        switched.primary_data()["target_url"],
        "https://work.example.com/x"
    );

    let list = server.get("/wx-chains?page_size=10", &key).await;
    let data = list.primary_data();
    assert_eq!(data["total"], 1);
    assert_eq!(data["list"][0]["id"], id);
    assert!(data["list"][0].get("channel_list").is_none());
    assert_eq!(
        server.get("/wx-chains", &other).await.primary_data()["total"],
        0
    );
    // Short-chain listings do not show it.
    assert_eq!(server.get("/chains", &key).await.primary_data()["total"], 0);

    let qr = server.get(&format!("/wx-chains/{id}/qr"), &key).await;
    assert_eq!(qr.status, StatusCode::OK);
    assert_eq!(qr.header("content-type"), Some("image/png"));

    let deleted = server.delete(&format!("/wx-chains/{id}"), &key).await;
    assert_eq!(deleted.status, StatusCode::OK);
    server
        .get(&format!("/wx-chains/{id}"), &key)
        .await
        .assert_primary_error(StatusCode::NOT_FOUND, "not_found");
    assert_eq!(
        server.visit("spring-wx").await.status,
        StatusCode::NOT_FOUND
    );
}

#[tokio::test]
async fn direct_jumps_and_hostile_values_stay_inert() {
    let server = TestServer::start().await;
    let (_, key) = server.user_with_key("jumper", WX_SCOPES).await;
    let direct = create_wx(
        &server,
        &key,
        json!({"is_direct_jump": 1, "channel_list": [
            {"url": "https://cdn.example.com/1.png", "url2": "https://group.example.com/join/1"}]}),
    )
    .await;
    let visit = server.visit(direct["code"].as_str().unwrap()).await;
    assert_eq!(visit.status, StatusCode::FOUND);
    assert_eq!(
        visit.header("location"),
        Some("https://group.example.com/join/1")
    );
    assert_eq!(visit.header("cache-control"), Some("private, no-cache"));

    let hostile = create_wx(
        &server,
        &key,
        json!({"chain_title": "\"><script>alert(1)</script>", "guide_text": "<img src=x onerror=alert(2)>",
               "promo_desc": "{{ 7*7 }}{% raw %}", "sub_title": "'><svg onload=x>",
               "channel_list": [{"url": "https://cdn.example.com/1.png?a=\"><script>",
                                 "url2": "https://x.example.com/\"onclick=\"alert(3)"}]}),
    )
    .await;
    let page = server.visit(hostile["code"].as_str().unwrap()).await;
    assert_eq!(page.status, StatusCode::OK);
    for bad in ["<script>", "<img src=x", "<svg", "onclick=\""] {
        assert!(!page.text.contains(bad), "{bad} in {}", page.text);
    }
    assert!(
        unescape(&page.text).contains("{{ 7*7 }}"),
        "template syntax in values is text"
    );
}
