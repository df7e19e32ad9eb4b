//! Messaging-app external chains and card chains on both surfaces: the destination rule per
//! sub_type, channel lists in and out, listings that keep the two namespaces apart, and the
//! pages (or direct jumps) their visitors get.

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::support::{ADMIN_KEY, TestServer, refusal};

pub const WX_SCOPES: &[&str] = &[
    "chains:read",
    "chains:write",
    "groups:read",
    "groups:write",
    "card:read",
    "card:write",
    "templates:read",
    "workchat:read",
    "stats:read",
];

/// Creates an external chain on the primary surface; returns its `data`.
pub async fn create_wx(server: &TestServer, key: &str, body: Value) -> Value {
    let reply = server.post("/wx-chains", key, body).await;
    assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.text);
    reply.primary_data().clone()
}

/// What a browser reads from HTML text or an attribute: character references decoded (the
/// named ones pages use, and every numeric one).
pub fn unescape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find('&') {
        out.push_str(&rest[..at]);
        rest = &rest[at..];
        let decoded = rest.find(';').and_then(|end| {
            let name = &rest[1..end];
            let c = match name {
                "amp" => Some('&'),
                "lt" => Some('<'),
                "gt" => Some('>'),
                "quot" => Some('"'),
                _ => {
                    let code = match name.strip_prefix("#x").or(name.strip_prefix("#X")) {
                        Some(hex) => u32::from_str_radix(hex, 16).ok(),
                        None => name.strip_prefix('#').and_then(|d| d.parse().ok()),
                    };
                    code.and_then(char::from_u32)
                }
            };
            c.map(|c| (c, end))
        });
        match decoded {
            Some((c, end)) => {
                out.push(c);
                rest = &rest[end + 1..];
            }
            None => {
                out.push('&');
                rest = &rest[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// The `src` of the page's QR image, if it shows one.
pub fn page_image(html: &str) -> Option<String> {
    let end = html.find("alt=\"QR code\"")?;
    let start = html[..end].rfind("src=\"")? + 5;
    let src = &html[start..end];
    Some(unescape(src.trim_end().trim_end_matches('"')))
}

/// The `href` of the page's button, if it has one.
pub fn button_href(html: &str) -> Option<String> {
    let at = html.find("class=\"button\" href=\"")? + "class=\"button\" href=\"".len();
    let end = html[at..].find('"')? + at;
    Some(unescape(&html[at..end]))
}

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
async fn the_compatibility_surface_speaks_spec_shapes() {
    let server = TestServer::start().await;
    let (_, key) = server.user_with_key("compat", WX_SCOPES).await;
    let (_, other) = server.user_with_key("someone", WX_SCOPES).await;
    let group = server
        .post(
            "/openapi/v1/group/create",
            &key,
            json!({"name": "g", "chain_type": "2"}),
        )
        .await
        .compat_result()["group_id"]
        .as_str()
        .unwrap()
        .parse::<i64>()
        .unwrap();
    let created = server
        .call(
            Method::POST,
            &format!("/openapi/v1/wxchain/create?apikey={key}"),
            None,
            Some(json!({
                "chain_title": "Compat", "chain_type": 2, "domain": [], "group_id": [group],
                "wx_id": "", "scan_qr_url": "", "avatar": "https://cdn.example.com/av.png",
                "desc": "Line one\nLine two", "sub_title": "Sub", "is_direct_jump": "0",
                "jump_template_id": 0, "qrcode_vc_type": 2, "scan_tips": 1, "show_type": 1,
                "visit_type": 1,
                "channel_list": [{"qrcode_name": "first", "url": "https://cdn.example.com/1.png",
                                  "url2": "https://join.example.com/1", "sort": "1",
                                  "visit_limit": "10", "status": 1, "ratio": 1, "qrcode_time": 0}]
            })),
        )
        .await;
    assert_eq!(created.status, StatusCode::OK, "{}", created.text);
    assert_eq!(created.body["code"], 1);
    let result = created.compat_result().clone();
    let code = result["chain"].as_str().unwrap().to_owned();
    assert!(result["render_url"].as_str().unwrap().ends_with(&code));

    let info = server
        .call(
            Method::GET,
            &format!("/openapi/v1/wxchain/info?chain={code}&apikey={key}"),
            None,
            None,
        )
        .await;
    let info = info.compat_result().clone();
    for field in [
        "avatar",
        "chain",
        "chain_title",
        "chain_type",
        "channel_list",
        "desc",
        "domain",
        "domain_url",
        "group_id",
        "is_del",
        "is_direct_jump",
        "jump_template_id",
        "qrcode_vc_type",
        "render_url",
        "scan_qr_url",
        "scan_tips",
        "show_type",
        "status",
        "sub_title",
        "target_url",
        "visit_type",
        "wx_id",
    ] {
        assert!(info.get(field).is_some(), "{field} in {info}");
    }
    assert_eq!(info["chain_type"], 2);
    assert_eq!(info["group_id"], group);
    assert_eq!(info["desc"], "Line one\nLine two");
    assert_eq!(info["qrcode_vc_type"], 2);
    assert_eq!(info["status"], 1);
    assert_eq!(info["is_del"], 0);
    let channel = &info["channel_list"][0];
    for field in [
        "id",
        "qrcode_time",
        "ratio",
        "sort",
        "status",
        "visit_limit",
        "qrcode_name",
        "url",
        "url2",
        "visit_count",
    ] {
        assert!(channel.get(field).is_some(), "{field} in {channel}");
    }
    assert!(channel.get("is_delete").is_none());
    let channel_id = channel["id"].as_i64().unwrap();

    let edited = server
        .post(
            "/openapi/v1/wxchain/edit",
            &key,
            json!({"chain": code, "chain_title": "Renamed",
                   "channel_list": [{"id": channel_id, "status": 0},
                                    {"url": "https://cdn.example.com/2.png", "sort": 2}]}),
        )
        .await;
    assert_eq!(edited.compat_result()["chain"], code);
    let info = server
        .post("/openapi/v1/wxchain/info", &key, json!({"chain": code}))
        .await
        .compat_result()
        .clone();
    assert_eq!(info["chain_title"], "Renamed");
    assert_eq!(info["channel_list"][0]["status"], 0);
    assert_eq!(info["channel_list"].as_array().unwrap().len(), 2);

    let list = server
        .post(
            "/openapi/v1/wxchain/list",
            &key,
            json!({"page": "1", "page_size": "5"}),
        )
        .await
        .compat_result()
        .clone();
    assert_eq!(list["page"], "1");
    assert_eq!(list["pageCount"], "1");
    assert_eq!(list["total"], 1);
    let item = &list["list"][0];
    for field in [
        "chain",
        "chain_id",
        "chain_title",
        "chain_type",
        "create_time",
        "customer_id",
        "domain",
        "domain_status",
        "domain_url",
        "group_id",
        "group_name",
        "pv_history",
        "pv_today",
        "render_url",
        "show_type",
        "status",
        "target_url",
        "template_id",
    ] {
        assert!(item.get(field).is_some(), "{field} in {item}");
    }
    assert_eq!(item["group_name"], "g");
    assert_eq!(item["status"], "normal");

    // Errors in the compatibility envelope; another user's chain is not found.
    for (path, body, status) in [
        (
            "/openapi/v1/wxchain/info",
            json!({"chain": code}),
            StatusCode::NOT_FOUND,
        ),
        (
            "/openapi/v1/wxchain/edit",
            json!({"chain": code, "chain_title": "x"}),
            StatusCode::NOT_FOUND,
        ),
    ] {
        server
            .post(path, &other, body)
            .await
            .assert_compat_error(status);
    }
    let unprocessable = StatusCode::UNPROCESSABLE_ENTITY;
    for (body, status) in [
        (
            json!({"chain_type": 3, "scan_qr_url": "https://cdn.example.com/q.png"}),
            unprocessable,
        ),
        (
            json!({"chain_type": 4, "scan_qr_url": "https://cdn.example.com/q.png"}),
            unprocessable,
        ),
        (
            json!({"scan_qr_url": "https://cdn.example.com/q.png", "group_id": [999]}),
            unprocessable,
        ),
        (
            json!({"scan_qr_url": "https://cdn.example.com/q.png", "channel_list": [{"id": "x"}]}),
            StatusCode::BAD_REQUEST,
        ),
    ] {
        let reply = server
            .post("/openapi/v1/wxchain/create", &key, body.clone())
            .await;
        reply.assert_compat_error(status);
        assert!(!reply.body["msg"].as_str().unwrap().is_empty(), "{body}");
    }
    server
        .post(
            "/openapi/v1/wxchain/edit",
            &key,
            json!({"chain_title": "x"}),
        )
        .await
        .assert_compat_error(StatusCode::UNPROCESSABLE_ENTITY);
}

#[tokio::test]
async fn card_chains_live_in_their_own_namespace() {
    let server = TestServer::start().await;
    let (_, key) = server.user_with_key("carder", WX_SCOPES).await;
    let (_, only_card) = server.user_with_key("card-only", &["card:write"]).await;
    let external = create_wx(
        &server,
        &key,
        json!({"scan_qr_url": "https://cdn.example.com/e.png"}),
    )
    .await;
    let mut codes = Vec::new();
    for i in 0..3 {
        let reply = server
            .call(
                Method::POST,
                &format!("/card/createWxChain?apikey={key}"),
                None,
                Some(json!({"chain_title": format!("card {i}"), "chain_type": 4,
                            "scan_qr_url": "https://cdn.example.com/card.png",
                            "jump_template_id": 0})),
            )
            .await;
        assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
        assert_eq!(reply.body["code"], 1);
        codes.push(reply.compat_result()["chain"].as_str().unwrap().to_owned());
        server.clock.advance(1);
    }
    // A template on a card chain, a wrong chain_type, a missing scope: refused.
    let refused = server
        .post(
            "/card/createWxChain",
            &key,
            json!({"scan_qr_url": "https://cdn.example.com/card.png", "jump_template_id": 1}),
        )
        .await;
    refused.assert_compat_error(StatusCode::BAD_REQUEST);
    assert!(
        refused.body["msg"]
            .as_str()
            .unwrap()
            .contains("jump_template_id")
    );
    server
        .post(
            "/card/createWxChain",
            &key,
            json!({"scan_qr_url": "https://cdn.example.com/card.png", "chain_type": 2}),
        )
        .await
        .assert_compat_error(StatusCode::UNPROCESSABLE_ENTITY);
    server
        .get("/card", &only_card)
        .await
        .assert_primary_error(StatusCode::FORBIDDEN, "forbidden");

    let cards = server.get("/card", &key).await;
    assert_eq!(cards.body["code"], 1);
    let list = cards.primary_data()["list"].as_array().unwrap().clone();
    let listed: Vec<&str> = list.iter().map(|c| c["code"].as_str().unwrap()).collect();
    assert_eq!(
        listed,
        [codes[2].as_str(), codes[1].as_str(), codes[0].as_str()],
        "newest first"
    );
    assert!(list.iter().all(|c| c["type"] == 4));
    let wx: Vec<Value> = server.get("/wx-chains", &key).await.primary_data()["list"]
        .as_array()
        .unwrap()
        .clone();
    assert_eq!(wx.len(), 1);
    assert_eq!(wx[0]["id"], external["id"]);
    let compat = server
        .post("/openapi/v1/wxchain/list", &key, json!({}))
        .await
        .compat_result()
        .clone();
    assert_eq!(compat["total"], 1);
    // A card chain still serves its page and is found by info.
    let page = server.visit(&codes[0]).await;
    assert_eq!(page.status, StatusCode::OK);
    assert_eq!(
        page_image(&page.text).as_deref(),
        Some("https://cdn.example.com/card.png")
    );
    let info = server
        .post("/openapi/v1/wxchain/info", &key, json!({"chain": codes[0]}))
        .await;
    assert_eq!(info.compat_result()["chain_type"], 4);
    // Card chains cannot take a template by edit either.
    server
        .post(
            "/openapi/v1/wxchain/edit",
            &key,
            json!({"chain": codes[0], "jump_template_id": 2}),
        )
        .await
        .assert_compat_error(StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn get_card_lists_at_most_one_hundred() {
    let server = TestServer::start().await;
    let (_, key) = server.user_with_key("many", WX_SCOPES).await;
    for _ in 0..101 {
        let reply = server
            .post(
                "/card/createWxChain",
                &key,
                json!({"scan_qr_url": "https://cdn.example.com/card.png"}),
            )
            .await;
        assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    }
    let cards = server.get("/card", &key).await;
    assert_eq!(cards.primary_data()["list"].as_array().unwrap().len(), 100);
    assert_eq!(cards.primary_data()["total"], 101);
}

#[tokio::test]
async fn a_custom_page_that_fails_on_a_chains_text_shows_its_layout() {
    let server = TestServer::start_with(crate::support::Options::default()).await;
    let (user_id, key) = server.user_with_key("looper", WX_SCOPES).await;
    // Cheap on the empty page it is checked with; out of fuel on a long title.
    let body = "<main class=\"custom\">{% for c in title %}{% for i in range(2000) %}.{% endfor %}{% endfor %}</main>";
    let template = server
        .post(
            "/admin/templates",
            ADMIN_KEY,
            json!({"name": "Looper", "user_id": user_id, "style": "card", "body": body}),
        )
        .await
        .primary_data()["id"]
        .as_i64()
        .unwrap();
    let short = create_wx(
        &server,
        &key,
        json!({"chain_title": "ok", "scan_qr_url": "https://cdn.example.com/q.png",
               "jump_template_id": template}),
    )
    .await;
    let page = server.visit(short["code"].as_str().unwrap()).await;
    assert!(
        page.text.starts_with("<main class=\"custom\">"),
        "{}",
        page.text
    );
    let long = create_wx(
        &server,
        &key,
        json!({"chain_title": "x".repeat(200), "scan_qr_url": "https://cdn.example.com/q.png",
               "jump_template_id": template}),
    )
    .await;
    let page = server.visit(long["code"].as_str().unwrap()).await;
    assert_eq!(page.status, StatusCode::OK, "{}", page.text);
    assert!(!page.text.contains("class=\"custom\""), "{}", page.text);
    assert!(
        unescape(&page.text).contains(&"x".repeat(200)),
        "the card layout shows the title"
    );
}

#[tokio::test]
async fn templates_are_checked_counted_and_rendered() {
    let server = TestServer::start_with(crate::support::Options::default()).await;
    let (user_id, key) = server.user_with_key("styler", WX_SCOPES).await;
    let (_, other) = server.user_with_key("stranger", WX_SCOPES).await;
    let mine = server
        .post(
            "/admin/templates",
            ADMIN_KEY,
            json!({"name": "Mine", "user_id": user_id,
                   "body": "<main class=\"custom\">{{ title }}|{{ desc }}</main>"}),
        )
        .await
        .primary_data()["id"]
        .as_i64()
        .unwrap();
    let created = create_wx(
        &server,
        &key,
        json!({"chain_title": "<script>alert(1)</script>", "promo_desc": "\"><b>x</b>",
               "scan_qr_url": "https://cdn.example.com/q.png", "jump_template_id": mine}),
    )
    .await;
    let page = server.visit(created["code"].as_str().unwrap()).await;
    assert_eq!(page.status, StatusCode::OK);
    assert!(
        page.text.starts_with("<main class=\"custom\">"),
        "{}",
        page.text
    );
    assert!(!page.text.contains("<script>"));
    assert!(!page.text.contains("<b>"));
    // The template is used: listings count it.
    let listing = server.get("/templates", &key).await.primary_data().clone();
    assert_eq!(listing["used_num"], 1);
    // Another user may not use a template offered only to this one.
    server
        .post(
            "/wx-chains",
            &other,
            json!({"scan_qr_url": "https://cdn.example.com/q.png", "jump_template_id": mine}),
        )
        .await
        .assert_primary_error(StatusCode::UNPROCESSABLE_ENTITY, "invalid_template");
    // An edit of the template shows on the next visit (the template cache hears of it).
    server
        .patch(
            &format!("/admin/templates/{mine}"),
            ADMIN_KEY,
            json!({"body": "<p class=\"v2\">{{ title }}</p>"}),
        )
        .await;
    let page = server.visit(created["code"].as_str().unwrap()).await;
    assert!(page.text.starts_with("<p class=\"v2\">"), "{}", page.text);
    // Retired: no longer offered, still rendered for the chain that uses it.
    server
        .delete(&format!("/admin/templates/{mine}"), ADMIN_KEY)
        .await;
    let page = server.visit(created["code"].as_str().unwrap()).await;
    assert!(page.text.starts_with("<p class=\"v2\">"));
    server
        .post(
            "/wx-chains",
            &key,
            json!({"scan_qr_url": "https://cdn.example.com/q.png", "jump_template_id": mine}),
        )
        .await
        .assert_primary_error(StatusCode::UNPROCESSABLE_ENTITY, "invalid_template");
    // Built-in styles render their own layout.
    for template in [1, 2] {
        let chain = create_wx(
            &server,
            &key,
            json!({"scan_qr_url": "https://cdn.example.com/q.png", "jump_template_id": template,
                   "show_type": 2}),
        )
        .await;
        let page = server.visit(chain["code"].as_str().unwrap()).await;
        assert_eq!(page.status, StatusCode::OK);
        assert!(
            page.text.contains("class=\"long\""),
            "template {template}: {}",
            page.text
        );
    }
}

#[tokio::test]
async fn the_template_limit_holds() {
    let server = TestServer::start_with(crate::support::Options {
        template_limit: 1,
        ..crate::support::Options::default()
    })
    .await;
    let (_, key) = server.user_with_key("limited", WX_SCOPES).await;
    let qr = "https://cdn.example.com/q.png";
    create_wx(
        &server,
        &key,
        json!({"scan_qr_url": qr, "jump_template_id": 1}),
    )
    .await;
    // The same template again, and the generic one, do not count further.
    create_wx(
        &server,
        &key,
        json!({"scan_qr_url": qr, "jump_template_id": 1}),
    )
    .await;
    create_wx(&server, &key, json!({"scan_qr_url": qr})).await;
    server
        .post(
            "/wx-chains",
            &key,
            json!({"scan_qr_url": qr, "jump_template_id": 2}),
        )
        .await
        .assert_primary_error(StatusCode::UNPROCESSABLE_ENTITY, "template_limit_reached");
    let listing = server
        .post("/openapi/v1/template/list", &key, json!({}))
        .await
        .compat_result()
        .clone();
    assert_eq!(listing["used_num"], 1);
    assert_eq!(listing["template_limit"], 1);
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
