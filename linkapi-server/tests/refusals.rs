//! Every refusal is read: clients that write their whole body before reading the answer
//! (Python's `http.client`, `requests`) get the status and `Retry-After` of an answer the
//! server made before reading their body (429 for a user's share taken, 401, 404, 413), not a
//! broken pipe. `refusals.py` is the client; this runs it against the real binary.
//!
//! Needs Python's `requests`; without it the test is listed as ignored, unless `CI` is set
//! (see `needs.rs`).

#![allow(clippy::unwrap_used, clippy::print_stderr)]

#[path = "../../linkapi-core/tests/needs.rs"]
mod needs;
#[path = "../../linkapi-core/tests/pg_cluster.rs"]
mod pg_cluster;
mod support;

use serde_json::json;
use support::Deployment;

fn main() -> std::process::ExitCode {
    needs::run(vec![needs::trial(
        "clients_that_write_their_whole_body_first_read_every_refusal",
        &[&needs::PYTHON_REQUESTS],
        || needs::block_on(clients_that_write_their_whole_body_first_read_every_refusal()),
    )])
}

async fn clients_that_write_their_whole_body_first_read_every_refusal() {
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
