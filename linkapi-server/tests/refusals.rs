//! Every refusal is read: clients that write their whole body before reading the answer
//! (Python's `http.client`, `requests`) get the status and `Retry-After` of an answer the
//! server made before reading their body (429 for a user's share taken, 401, 404, 413), not a
//! broken pipe. `refusals.py` is the client; this runs it against the real binary.
//!
//! Needs Python's `requests`; without it the test says it skipped, unless `CI` is set.

#![allow(clippy::unwrap_used, clippy::print_stderr)]

mod support;
#[path = "../../linkapi-core/tests/tools.rs"]
#[allow(dead_code)] // this test uses its Python part
mod tools;

use serde_json::json;
use support::Deployment;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn clients_that_write_their_whole_body_first_read_every_refusal() {
    if !tools::python_module("requests") {
        return;
    }
    let deployment = Deployment::new();
    let server = deployment.serve(&[]);
    let http = support::client();
    let user = json!({"name": "writes-first"});
    let key = support::user_with_keys(&http, &server.url, &user, &["chains:write"], 1)
        .await
        .remove(0);
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/refusals.py");
    // The server is a process of its own: this thread may wait for the client.
    let ran = std::process::Command::new("python3")
        .args([script, &server.url, &key])
        .output()
        .unwrap();
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&ran.stdout),
        String::from_utf8_lossy(&ran.stderr)
    );
    assert!(ran.status.success(), "{said}");
    eprintln!("{said}");
}
