//! Archiving a chain: left out of `GET /chains` unless asked for, still redirecting, listed
//! on the compatibility surface as before, and only by its owner.

use reqwest::StatusCode;
use serde_json::json;

use crate::support::TestServer;

#[tokio::test]
async fn an_archived_chain_leaves_the_listing_and_keeps_redirecting() {
    let server = TestServer::start().await;
    let (_, key) = server.full_user("archivist").await;
    let kept = server
        .create_chain(
            &key,
            json!({"target_url": "https://e.com/kept", "code": "kept"}),
        )
        .await;
    let old = server
        .create_chain(
            &key,
            json!({"target_url": "https://e.com/old", "code": "old"}),
        )
        .await;
    let id = old["id"].as_i64().unwrap();
    assert_eq!(old["archived_at"], json!(null));

    let archived = server
        .post(&format!("/chains/{id}/archive"), &key, json!({}))
        .await;
    let first = archived.primary_data()["archived_at"].clone();
    assert!(first.is_string(), "{}", archived.text);
    let codes = |reply: &crate::support::Reply| -> Vec<String> {
        let data = reply.primary_data();
        data["list"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["code"].as_str().unwrap().to_owned())
            .collect()
    };
    let listed = server.get("/chains", &key).await;
    assert_eq!(codes(&listed), ["kept"]);
    assert_eq!(listed.primary_data()["total"], 1);
    let only = server.get("/chains?archived=only", &key).await;
    assert_eq!(codes(&only), ["old"]);
    let both = server.get("/chains?archived=include", &key).await;
    assert_eq!(codes(&both), ["old", "kept"]);
    assert_eq!(
        codes(&server.get("/chains?archived=exclude", &key).await),
        ["kept"]
    );
    // The chain itself, its redirect and the compatibility listing are unchanged.
    assert_eq!(
        server
            .get(&format!("/chains/{id}"), &key)
            .await
            .primary_data()["archived_at"],
        first
    );
    let visit = server.visit("old").await;
    assert_eq!(visit.status, StatusCode::FOUND);
    let compat = server.get("/openapi/v1/chain/list", &key).await;
    assert_eq!(compat.compat_result()["total"], 2);

    // Archiving again keeps the first time; unarchiving brings it back.
    let again = server
        .post(&format!("/chains/{id}/archive"), &key, json!({}))
        .await;
    assert_eq!(again.primary_data()["archived_at"], first);
    let back = server.delete(&format!("/chains/{id}/archive"), &key).await;
    assert_eq!(back.primary_data()["archived_at"], json!(null));
    assert_eq!(codes(&server.get("/chains", &key).await), ["old", "kept"]);
    assert_eq!(kept["archived_at"], json!(null));
}

#[tokio::test]
async fn only_the_owner_archives_and_bad_filters_change_nothing() {
    let server = TestServer::start().await;
    let (_, alice) = server.full_user("alice").await;
    let (_, bob) = server.full_user("bob").await;
    let chain = server
        .create_chain(&alice, json!({"target_url": "https://e.com/a"}))
        .await;
    let id = chain["id"].as_i64().unwrap();
    for reply in [
        server
            .post(&format!("/chains/{id}/archive"), &bob, json!({}))
            .await,
        server.delete(&format!("/chains/{id}/archive"), &bob).await,
        server
            .post("/chains/999999/archive", &alice, json!({}))
            .await,
    ] {
        reply.assert_primary_error(StatusCode::NOT_FOUND, "not_found");
    }
    let reply = server.get("/chains?archived=maybe", &alice).await;
    assert_eq!(reply.status, StatusCode::BAD_REQUEST, "{}", reply.text);
    assert_eq!(reply.body["status"], 400);
    let listed = server.get("/chains", &alice).await;
    assert_eq!(listed.primary_data()["total"], 1);
    assert_eq!(listed.primary_data()["list"][0]["archived_at"], json!(null));
}
