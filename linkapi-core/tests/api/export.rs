//! `GET /chains/export`: every live short chain of the caller with what a re-import needs, as
//! JSON lines or as CSV that Python's `csv` module reads back, streamed page by page.

use std::collections::BTreeMap;
use std::process::Command;

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::support::TestServer;
use crate::tools;

/// The export's lines as JSON objects, by code.
fn by_code(lines: Vec<Value>) -> BTreeMap<String, Value> {
    lines
        .into_iter()
        .map(|line| (line["code"].as_str().unwrap().to_owned(), line))
        .collect()
}

fn jsonl(text: &str) -> Vec<Value> {
    assert!(text.is_empty() || text.ends_with('\n'), "every line ends");
    text.lines()
        .map(|line| serde_json::from_str(line).expect("a JSON line"))
        .collect()
}

#[tokio::test]
async fn an_export_holds_what_a_reimport_needs_in_json_lines_and_csv() {
    let server = TestServer::start().await;
    let (_, key) = server.full_user("exporter").await;
    let (_, other) = server.full_user("other").await;
    let group = server
        .post(
            "/groups",
            &key,
            json!({"name": "spring, \"27\"", "chain_type": 1}),
        )
        .await
        .primary_data()["id"]
        .clone();
    let rules = json!([{"country": "DE", "target_url": "https://e.com/de"}]);
    let twin = server
        .create_chain(
            &key,
            json!({"target_url": "https://e.com/a?x=1&y=%20z", "code": "Promo",
                   "chain_title": "say \"hi\", then leave", "group_id": group,
                   "rules": rules, "valid_time": 4_102_444_800_i64}),
        )
        .await;
    server
        .create_chain(
            &key,
            json!({"target_url": "https://e.com/b", "code": "promo", "chain_title": "春季 ✨",
                   "redirect_status": 308, "max_visits": 10,
                   "preview_title": "Sale, \"now\"", "preview_image": "https://e.com/i.png"}),
        )
        .await;
    let archived = server
        .create_chain(
            &key,
            json!({"target_url": "https://e.com/c", "code": "old"}),
        )
        .await;
    let archived_id = archived["id"].as_i64().unwrap();
    server
        .post(&format!("/chains/{archived_id}/archive"), &key, json!({}))
        .await
        .primary_data();
    let gone = server
        .create_chain(
            &key,
            json!({"target_url": "https://e.com/d", "code": "gone"}),
        )
        .await;
    server
        .delete(&format!("/chains/{}", gone["id"]), &key)
        .await
        .primary_data();
    server
        .create_chain(
            &other,
            json!({"target_url": "https://e.com/o", "code": "theirs"}),
        )
        .await;
    server.visit("Promo").await;
    server.visit("Promo").await;
    server.flush_visits().await;

    let reply = server.get("/chains/export", &key).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    assert_eq!(reply.header("content-type"), Some("application/x-ndjson"));
    assert_eq!(
        reply.header("content-disposition"),
        Some("attachment; filename=\"chains.jsonl\"")
    );
    assert_eq!(reply.header("cache-control"), Some("no-store"));
    let exported = by_code(jsonl(&reply.text));
    assert_eq!(
        exported.keys().collect::<Vec<_>>(),
        ["Promo", "old", "promo"],
        "the caller's live short chains, archived ones too, case twins apart"
    );
    let promo = &exported["Promo"];
    let shown = server
        .get(&format!("/chains/{}", twin["id"]), &key)
        .await
        .primary_data()
        .clone();
    for field in [
        "target_url",
        "chain_title",
        "valid_time",
        "created_at",
        "rules",
        "pv_history",
    ] {
        assert_eq!(promo[field], shown[field], "{field}");
    }
    assert_eq!(promo["pv_history"], 2);
    assert_eq!(promo["groups"], json!(["spring, \"27\""]));
    assert_eq!(promo["status"], 1);
    assert_eq!(promo["archived_at"], json!(null));
    assert!(promo["domain"].as_str().is_some_and(|d| !d.is_empty()));
    assert_eq!(exported["promo"]["chain_title"], "春季 ✨");
    assert_eq!(exported["promo"]["groups"], json!([]));
    assert_eq!(exported["promo"]["redirect_status"], 308);
    assert_eq!(exported["promo"]["preview_title"], "Sale, \"now\"");
    assert_eq!(exported["Promo"]["preview_title"], Value::Null);
    assert_eq!(exported["promo"]["visits_left"], 10);
    assert_eq!(promo["redirect_status"], 0, "the deployment's");
    assert_eq!(promo["visits_left"], json!(null), "unlimited");
    assert!(exported["old"]["archived_at"].is_string());

    let csv = server.get("/chains/export?format=csv", &key).await;
    assert_eq!(csv.status, StatusCode::OK, "{}", csv.text);
    assert_eq!(csv.header("content-type"), Some("text/csv; charset=utf-8"));
    if !tools::available("Python", &["python3", "--version"]) {
        return;
    }
    // Read as scripts read CSV: Python's csv module, the JSON cells decoded.
    let read = tools::run_with_input(
        Command::new("python3").args([
            "-c",
            "import csv, json, sys\n\
             rows = list(csv.DictReader(sys.stdin, strict=True))\n\
             for row in rows:\n\
             \x20   for name in ('status', 'valid_time', 'pv_history', 'redirect_status',\n\
             \x20                'valid_since', 'max_visits'):\n\
             \x20       row[name] = int(row[name])\n\
             \x20   row['visits_left'] = int(row['visits_left']) if row['visits_left'] else None\n\
             \x20   for name in ('groups', 'rules'):\n\
             \x20       row[name] = json.loads(row[name])\n\
             \x20   for name in ('archived_at', 'preview_title', 'preview_description',\n\
             \x20                'preview_image'):\n\
             \x20       row[name] = row[name] or None\n\
             print(json.dumps(rows))",
        ]),
        csv.text.as_bytes(),
    );
    assert!(
        read.status.success(),
        "{}",
        String::from_utf8_lossy(&read.stderr)
    );
    let rows: Vec<Value> = serde_json::from_slice(&read.stdout).expect("JSON");
    assert_eq!(
        by_code(rows),
        exported,
        "the CSV says what the JSON lines say"
    );
}

#[tokio::test]
async fn an_export_past_a_page_has_every_chain_once_in_id_order() {
    let server = TestServer::start().await;
    let (_, key) = server.full_user("many").await;
    let count = linkapi_core::service::EXPORT_PAGE as usize * 2 + 37;
    let chains: Vec<Value> = (0..count)
        .map(|i| json!({"target_url": format!("https://e.com/{i}"), "code": format!("m{i}")}))
        .collect();
    let bulk = server
        .post("/chains/bulk", &key, json!({ "chains": chains }))
        .await;
    let mut made: Vec<(i64, String)> = bulk.primary_data()["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            let chain = &r["chain"];
            (
                chain["id"].as_i64().unwrap(),
                chain["code"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    assert_eq!(made.len(), count);
    made.sort();

    let response = crate::support::http_client(reqwest::Client::builder())
        .get(server.url("/chains/export"))
        .bearer_auth(&key)
        .send()
        .await
        .expect("an answer");
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(
        response.content_length(),
        None,
        "streamed, not sized up front"
    );
    let text = response.text().await.expect("the body");
    let codes: Vec<String> = jsonl(&text)
        .iter()
        .map(|line| line["code"].as_str().unwrap().to_owned())
        .collect();
    let expected: Vec<String> = made.into_iter().map(|(_, code)| code).collect();
    assert_eq!(codes, expected, "each chain once, in id order");
}

#[tokio::test]
async fn an_export_of_nothing_is_empty_and_a_bad_format_is_refused() {
    let server = TestServer::start().await;
    let (_, key) = server.full_user("empty").await;
    let reply = server.get("/chains/export", &key).await;
    assert_eq!(reply.status, StatusCode::OK);
    assert_eq!(reply.text, "");
    let csv = server.get("/chains/export?format=csv", &key).await;
    assert_eq!(
        csv.text,
        "code,domain,target_url,chain_title,status,valid_time,created_at,archived_at,groups,rules,pv_history,\
         redirect_status,valid_since,max_visits,visits_left,preview_title,preview_description,\
         preview_image\r\n"
    );
    let bad = server.get("/chains/export?format=xml", &key).await;
    assert_eq!(bad.status, StatusCode::BAD_REQUEST, "{}", bad.text);
    assert_eq!(bad.header("content-type"), Some("application/json"));
    assert_eq!(bad.body["status"], 400);
}
