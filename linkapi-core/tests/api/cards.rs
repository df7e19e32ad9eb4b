//! Card chains: their own namespace on both surfaces, and the card list.

use crate::html::page_image;
use crate::support::TestServer;
use crate::wx_support::{WX_SCOPES, create_wx};
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

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
