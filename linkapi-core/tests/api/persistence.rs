//! Everything acknowledged survives a restart on the same data directory.

use reqwest::StatusCode;
use serde_json::json;

use crate::support::{ADMIN_KEY, TestServer};

#[tokio::test]
async fn chains_keys_groups_domains_and_visits_survive_a_restart() {
    let server = TestServer::start().await;
    let (_, key) = server.full_user("durable").await;
    let group = server.post("/groups", &key, json!({"name": "kept"})).await;
    let group_id = group.primary_data()["id"].as_i64().unwrap();
    let chain = server
        .create_chain(
            &key,
            json!({"target_url": "https://e.com/kept", "code": "kept", "group_id": group_id}),
        )
        .await;
    let deleted = server
        .create_chain(
            &key,
            json!({"target_url": "https://e.com/gone", "code": "gone"}),
        )
        .await;
    server
        .delete(&format!("/chains/{}", deleted["id"]), &key)
        .await
        .primary_data();
    server
        .post(
            "/admin/domains",
            ADMIN_KEY,
            json!({"domain": "kept.test", "scheme": "https", "shared": true}),
        )
        .await
        .primary_data();
    // Visits still buffered at shutdown must be written before the server stops.
    for _ in 0..2 {
        server.visit("kept").await;
    }
    let old_addr = server.addr;

    let server = server.restart().await;
    let read = server.get(&format!("/chains/{}", chain["id"]), &key).await;
    let data = read.primary_data();
    assert_eq!(data["code"], "kept");
    assert_eq!(data["group_id"], group_id);
    assert_eq!(data["pv_history"], 2);
    assert_eq!(data["render_url"], format!("http://{old_addr}/kept"));
    assert_eq!(server.get("/chains", &key).await.primary_data()["total"], 1);
    let domains = server.get("/admin/domains", ADMIN_KEY).await;
    let hosts: Vec<String> = domains
        .primary_data()
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["domain"].as_str().unwrap().to_owned())
        .collect();
    assert!(hosts.contains(&"kept.test".to_owned()));
    assert!(
        hosts.contains(&old_addr.to_string()),
        "the old default domain stays"
    );
    assert!(
        hosts.contains(&server.addr.to_string()),
        "the new address is registered"
    );

    // The old domain still serves its chains when asked by its host.
    let hit = server
        .client
        .get(server.url("/kept"))
        .header("host", old_addr.to_string())
        .send()
        .await
        .unwrap();
    assert_eq!(hit.status(), StatusCode::FOUND);
    server
        .post(
            "/chains",
            &key,
            json!({"target_url": "https://e.com", "code": "gone", "domain_id": data["domain_id"]}),
        )
        .await
        .assert_primary_error(StatusCode::CONFLICT, "code_taken");
}
