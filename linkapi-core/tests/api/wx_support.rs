//! Making messaging-app chains, for the tests of other things that need one (templates, the
//! pages in a browser).

use reqwest::StatusCode;
use serde_json::Value;

use crate::support::TestServer;

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
