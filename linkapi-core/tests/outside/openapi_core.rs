//! openapi-core, as Python services validate what they send to and get from an API: every
//! request and response of a real session (`openapi_core_session.py`) against the server's own
//! `/openapi.json`.

use crate::support::TestServer;

pub(crate) async fn every_request_and_response_of_a_session_validates() {
    let server = TestServer::start().await;
    let scopes = [
        "chains:read",
        "chains:write",
        "groups:read",
        "groups:write",
        "domains:read",
        "stats:read",
        "uploads:read",
        "uploads:write",
    ];
    let (_, key) = server.user_with_key("validated", &scopes).await;
    let script = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/outside/openapi_core_session.py");
    let session = tokio::process::Command::new("python3")
        .arg(script)
        .arg(format!("http://{}", server.addr))
        .arg(&key)
        .output()
        .await
        .unwrap();
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&session.stdout),
        String::from_utf8_lossy(&session.stderr)
    );
    assert!(session.status.success(), "{said}");
    let count: usize = said
        .lines()
        .find_map(|l| {
            l.strip_prefix("validated ")?
                .strip_suffix(" exchanges")?
                .parse()
                .ok()
        })
        .unwrap_or(0);
    assert!(count >= 40, "{said}");
}
