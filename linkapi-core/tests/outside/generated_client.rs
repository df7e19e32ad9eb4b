//! A client generated from the API document by openapi-python-client, with the configuration
//! the README gives, built and run through a session against a real server.

use crate::support::TestServer;

/// The configuration a user gives openapi-python-client for this document: the images the
/// QR and file operations answer are bytes (it reads only JSON, text and octet-stream bodies).
const GENERATOR_CONFIG: &str = "content_type_overrides:\n  image/png: application/octet-stream\n  \
     image/*: application/octet-stream\n  image/svg+xml: application/octet-stream\n";

pub(crate) async fn a_client_generated_from_the_document_builds_and_runs_a_session() {
    let server = TestServer::start().await;
    let (_, key) = server.full_user("generated").await;
    let document = server
        .client
        .get(server.url("/openapi.json"))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    let dir = tempfile::TempDir::new().unwrap();
    std::fs::write(dir.path().join("openapi.json"), document).unwrap();
    std::fs::write(dir.path().join("config.yaml"), GENERATOR_CONFIG).unwrap();
    let generated = tokio::process::Command::new("openapi-python-client")
        .args([
            "generate",
            "--path",
            "openapi.json",
            "--config",
            "config.yaml",
            "--meta",
            "none",
        ])
        .current_dir(dir.path())
        .output()
        .await
        .unwrap();
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&generated.stdout),
        String::from_utf8_lossy(&generated.stderr)
    );
    assert!(generated.status.success(), "{said}");
    // Nothing skipped: no operation, response or model is left out with a warning.
    for word in ["WARNING", "Error", "skipp", "omitted"] {
        assert!(!said.contains(word), "{said}");
    }
    let package = dir.path().join("linkapi_client");
    let api = std::fs::read_dir(package.join("api"))
        .unwrap()
        .filter_map(|area| std::fs::read_dir(area.ok()?.path()).ok())
        .flatten()
        .filter(|f| {
            f.as_ref().is_ok_and(|f| {
                let name = f.file_name().to_string_lossy().into_owned();
                ["_get.py", "_post.py", "_patch.py", "_delete.py", "_put.py"]
                    .iter()
                    .any(|end| name.ends_with(end))
            })
        })
        .count();
    let doc: serde_json::Value = server
        .client
        .get(server.url("/openapi.json"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let operations: usize = doc["paths"]
        .as_object()
        .unwrap()
        .values()
        .map(|methods| methods.as_object().unwrap().len())
        .sum();
    assert_eq!(api, operations, "a module per operation");
    let script = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/outside/generated_client_session.py");
    let session = tokio::process::Command::new("python3")
        .arg(script)
        .arg(format!("http://{}", server.addr))
        .arg(&key)
        .env("PYTHONPATH", dir.path())
        .output()
        .await
        .unwrap();
    assert!(
        session.status.success(),
        "{}{}",
        String::from_utf8_lossy(&session.stdout),
        String::from_utf8_lossy(&session.stderr)
    );
    assert!(String::from_utf8_lossy(&session.stdout).contains("session ok"));
}
