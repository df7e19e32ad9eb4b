//! Jump-page templates: the built-in ones, listings on both surfaces, what a user's chains use,
//! and the administration of custom templates.

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::html::unescape;
use crate::support::{ADMIN_KEY, TestServer, refusal};
use crate::wx_support::{WX_SCOPES, create_wx};

const TEMPLATE_SCOPES: &[&str] = &["templates:read", "chains:read", "chains:write"];

fn ids(list: &Value) -> Vec<i64> {
    list.as_array()
        .unwrap()
        .iter()
        .map(|t| t["id"].as_i64().unwrap())
        .collect()
}

#[tokio::test]
async fn every_user_sees_the_built_in_templates_on_both_surfaces() {
    let server = TestServer::start().await;
    let (_, key) = server.user_with_key("viewer", TEMPLATE_SCOPES).await;
    let page = server.get("/templates", &key).await;
    let data = page.primary_data();
    assert_eq!(ids(&data["list"]), [0, 1, 2]);
    assert_eq!(data["total"], 3);
    assert_eq!(data["used_num"], 0);
    assert_eq!(data["template_limit"], 10);
    let generic = &data["list"][0];
    assert_eq!(generic["name"], "Generic");
    assert_eq!(generic["style"], "generic");
    assert_eq!(generic["type"], 1);
    assert_eq!(generic["is_use"], 0);

    let compat = server
        .call(
            reqwest::Method::POST,
            &format!("/openapi/v1/template/list?apikey={key}"),
            None,
            Some(json!({"page": "1", "page_size": "2"})),
        )
        .await;
    let result = compat.compat_result();
    assert_eq!(ids(&result["list"]), [0, 1]);
    assert_eq!(result["page"], "1");
    assert_eq!(result["pageCount"], "2");
    assert_eq!(result["total"], 3);
    assert_eq!(result["template_limit"], 10);
    assert_eq!(result["used_num"], 0);
    let item = &result["list"][1];
    for field in ["id", "is_use", "name", "thumb", "type", "update_time"] {
        assert!(item.get(field).is_some(), "{field} in {item}");
    }
    server
        .get("/templates?page_size=0", &key)
        .await
        .assert_primary_error(StatusCode::BAD_REQUEST, "invalid_page_size");
}

#[tokio::test]
async fn templates_in_use_are_marked_and_counted_without_the_generic_one() {
    let server = TestServer::start().await;
    let (_, key) = server.user_with_key("user", TEMPLATE_SCOPES).await;
    for template in [0, 2, 2] {
        create_wx(
            &server,
            &key,
            json!({"scan_qr_url": "https://cdn.example.com/q.png", "jump_template_id": template}),
        )
        .await;
    }
    // A deleted chain's template no longer counts.
    let gone = create_wx(
        &server,
        &key,
        json!({"scan_qr_url": "https://cdn.example.com/q.png", "jump_template_id": 1}),
    )
    .await;
    server
        .delete(&format!("/wx-chains/{}", gone["id"]), &key)
        .await;
    let data = server.get("/templates", &key).await.primary_data().clone();
    let in_use: Vec<i64> = data["list"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["is_use"].as_i64().unwrap())
        .collect();
    assert_eq!(in_use, [1, 0, 1]);
    assert_eq!(data["used_num"], 1, "the generic template does not count");
}

#[tokio::test]
async fn administrators_add_edit_and_retire_custom_templates() {
    let server = TestServer::start().await;
    let (alice_id, alice) = server.user_with_key("alice", TEMPLATE_SCOPES).await;
    let (_, bob) = server.user_with_key("bob", TEMPLATE_SCOPES).await;

    let shared = server
        .post(
            "/admin/templates",
            ADMIN_KEY,
            json!({"name": "Spring", "style": "card", "thumb": "https://cdn.example.com/s.png",
                   "body": "<h1>{{ title }}</h1>"}),
        )
        .await;
    assert_eq!(shared.status, StatusCode::CREATED, "{}", shared.text);
    let shared = shared.primary_data().clone();
    assert_eq!(shared["type"], 2);
    let shared_id = shared["id"].as_i64().unwrap();
    let private = server
        .post(
            "/admin/templates",
            ADMIN_KEY,
            json!({"name": "Alice only", "user_id": alice_id}),
        )
        .await
        .primary_data()
        .clone();
    let private_id = private["id"].as_i64().unwrap();
    assert_eq!(private["style"], "generic");

    let for_alice = server.get("/templates", &alice).await;
    assert_eq!(
        ids(&for_alice.primary_data()["list"]),
        [0, 1, 2, shared_id, private_id]
    );
    let for_bob = server.get("/templates", &bob).await;
    assert_eq!(ids(&for_bob.primary_data()["list"]), [0, 1, 2, shared_id]);

    let renamed = server
        .patch(
            &format!("/admin/templates/{shared_id}"),
            ADMIN_KEY,
            json!({"name": "Summer"}),
        )
        .await;
    assert_eq!(renamed.primary_data()["name"], "Summer");
    assert_eq!(renamed.primary_data()["body"], "<h1>{{ title }}</h1>");

    let retired = server
        .delete(&format!("/admin/templates/{shared_id}"), ADMIN_KEY)
        .await;
    assert!(retired.primary_data()["retired_at"].is_string());
    let for_bob = server.get("/templates", &bob).await;
    assert_eq!(ids(&for_bob.primary_data()["list"]), [0, 1, 2]);
    let everything = server.get("/admin/templates", ADMIN_KEY).await;
    assert_eq!(everything.primary_data().as_array().unwrap().len(), 5);
    server
        .delete(&format!("/admin/templates/{shared_id}"), ADMIN_KEY)
        .await
        .assert_primary_error(StatusCode::NOT_FOUND, "not_found");
    // Retired, it is gone from administration: no preview either, and no edit, which changes
    // nothing.
    server
        .get(&format!("/admin/templates/{shared_id}/preview"), ADMIN_KEY)
        .await
        .assert_primary_error(StatusCode::NOT_FOUND, "not_found");
    server
        .patch(
            &format!("/admin/templates/{shared_id}"),
            ADMIN_KEY,
            json!({"name": "Autumn"}),
        )
        .await
        .assert_primary_error(StatusCode::NOT_FOUND, "not_found");
    let everything = server.get("/admin/templates", ADMIN_KEY).await;
    let kept = everything
        .primary_data()
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["id"] == shared_id)
        .cloned()
        .unwrap();
    assert_eq!(kept["name"], "Summer", "{kept}");
}

#[tokio::test]
async fn bad_templates_are_refused_with_a_reason() {
    // Room for a page source of the longest length.
    let server = TestServer::start_with(crate::support::Options {
        max_body_bytes: 1 << 20,
        ..Default::default()
    })
    .await;
    let cases = [
        (json!({"name": ""}), "invalid_name"),
        (json!({"name": "x", "style": "fancy"}), "invalid_style"),
        (
            json!({"name": "x", "thumb": "javascript:alert(1)"}),
            "invalid_thumb",
        ),
        (json!({"name": "x", "body": "{% if %}"}), "invalid_body"),
        // Runs out of the engine's fuel instead of holding a worker for hours.
        (
            json!({"name": "x", "body": "{% for i in range(99999) %}{% for j in range(99999) %}.{% endfor %}{% endfor %}"}),
            "invalid_body",
        ),
        (json!({"name": "x", "user_id": 999}), "invalid_user"),
        (json!({"name": "x", "colour": "red"}), "invalid_field"),
    ];
    for (body, code) in cases {
        server
            .post("/admin/templates", ADMIN_KEY, body.clone())
            .await
            .assert_primary_error(refusal(code, &["invalid_user", "invalid_body"]), code);
    }
    server
        .post(
            "/admin/templates",
            ADMIN_KEY,
            json!({"name": "long", "body": "x".repeat(65_537)}),
        )
        .await
        .assert_primary_error(StatusCode::BAD_REQUEST, "invalid_body");
    for built_in in [0, 1, 2] {
        server
            .patch(
                &format!("/admin/templates/{built_in}"),
                ADMIN_KEY,
                json!({"name": "Mine now"}),
            )
            .await
            .assert_primary_error(StatusCode::CONFLICT, "built_in_template");
        server
            .delete(&format!("/admin/templates/{built_in}"), ADMIN_KEY)
            .await
            .assert_primary_error(StatusCode::CONFLICT, "built_in_template");
    }
    server
        .patch("/admin/templates/4242", ADMIN_KEY, json!({"name": "x"}))
        .await
        .assert_primary_error(StatusCode::NOT_FOUND, "not_found");
    server
        .get("/admin/templates", ADMIN_KEY)
        .await
        .primary_data();
    let empty = server.get("/admin/templates", ADMIN_KEY).await;
    assert_eq!(
        empty.primary_data().as_array().unwrap().len(),
        3,
        "nothing bad was added"
    );
    // Length counts characters, as the schema's maxLength does: 65,536 two-byte ones fit.
    let wide = server
        .post(
            "/admin/templates",
            ADMIN_KEY,
            json!({"name": "wide", "body": "é".repeat(65_536)}),
        )
        .await;
    assert_eq!(wide.status, StatusCode::CREATED, "{}", wide.text);
}

#[tokio::test]
async fn a_template_added_by_an_administrator_renders_in_a_preview() {
    let server = TestServer::start().await;
    let added = server
        .post(
            "/admin/templates",
            ADMIN_KEY,
            json!({"name": "Own page", "body": "<main><h1>{{ title }}</h1><img src=\"{{ image }}\"><a href=\"{{ button_url }}\">{{ button_label }}</a></main>"}),
        )
        .await
        .primary_data()
        .clone();
    let id = added["id"].as_i64().unwrap();
    let preview = server
        .client
        .get(server.url(&format!(
            "/admin/templates/{id}/preview?image=https://cdn.example.com/qr.png"
        )))
        .bearer_auth(ADMIN_KEY)
        .send()
        .await
        .unwrap();
    assert_eq!(preview.status(), StatusCode::OK);
    assert_eq!(
        preview.headers()["content-type"],
        "text/html; charset=utf-8"
    );
    let csp = preview.headers()["content-security-policy"]
        .to_str()
        .unwrap()
        .to_owned();
    assert!(
        csp.contains("default-src 'none'") && !csp.contains("script-src"),
        "{csp}"
    );
    let html = unescape(&preview.text().await.unwrap());
    assert!(html.starts_with("<main><h1>Spring sale</h1>"), "{html}");
    assert!(html.contains("cdn.example.com"), "{html}");
    assert!(html.contains("weixin:"), "{html}");

    for (built_in, marker) in [
        (0, "class=\"card\""),
        (1, "class=\"head\""),
        (2, "class=\"bar\""),
    ] {
        let page = server
            .client
            .get(server.url(&format!("/admin/templates/{built_in}/preview?show_type=2")))
            .bearer_auth(ADMIN_KEY)
            .send()
            .await
            .unwrap()
            .text()
            .await
            .unwrap();
        assert!(page.contains(marker), "template {built_in}: {page}");
    }
    for bad in [
        "image=javascript:alert(1)",
        "image=data:image/png;base64,AAAA",
        "show_type=3",
    ] {
        server
            .get(&format!("/admin/templates/0/preview?{bad}"), ADMIN_KEY)
            .await
            .assert_primary_error(
                StatusCode::BAD_REQUEST,
                if bad.starts_with("show") {
                    "invalid_show_type"
                } else {
                    "invalid_image_url"
                },
            );
    }
    server
        .get("/admin/templates/4242/preview", ADMIN_KEY)
        .await
        .assert_primary_error(StatusCode::NOT_FOUND, "not_found");
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
