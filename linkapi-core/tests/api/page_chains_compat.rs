//! Messaging-app chains on the compatibility surface (`wxchain/*`): the specification's shapes
//! in and out.

use crate::support::TestServer;
use crate::wx_support::WX_SCOPES;
use reqwest::{Method, StatusCode};
use serde_json::json;

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
