//! Two `linkapi-server` processes over one PostgreSQL database, one of them stopped (SIGSTOP)
//! while the other revokes a key and edits a link: once the revocation is answered, the
//! stopped instance must not accept the key, nor answer the old link, when it runs again.

#![allow(clippy::unwrap_used)]

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use serde_json::{Value, json};

#[path = "../../linkapi-core/tests/pg_cluster.rs"]
mod pg_cluster;

const ADMIN_KEY: &str = "lk_stalled_instance_test_key_01";
/// The public URL both instances share, as instances behind one load balancer do.
const LINK_HOST: &str = "links.stalled.test";

/// A running `linkapi-server` process; killed (after being let run again) when dropped.
struct Instance {
    child: Child,
    addr: String,
    _dir: tempfile::TempDir,
}

impl Instance {
    fn start(database_url: &str) -> Instance {
        let dir = tempfile::tempdir().unwrap();
        let mut child = Command::new(env!("CARGO_BIN_EXE_linkapi-server"))
            .args(["--listen", "127.0.0.1:0", "--public-url"])
            .arg(format!("http://{LINK_HOST}"))
            .arg("--data-dir")
            .arg(dir.path())
            .args(["--database-url", database_url])
            .env("LINKAPI_INITIAL_API_KEY", ADMIN_KEY)
            .env("LINKAPI_LOG", "warn")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start linkapi-server");
        let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
        let addr = loop {
            let line = lines
                .next()
                .expect("the server said where it listens")
                .unwrap();
            if let Some(rest) = line.split("listening on http://").nth(1) {
                break rest.split_whitespace().next().unwrap().to_owned();
            }
        };
        // Keep reading, so the server never blocks on a full pipe.
        std::thread::spawn(move || lines.for_each(drop));
        Instance {
            child,
            addr,
            _dir: dir,
        }
    }

    fn signal(&self, signal: &str) {
        let status = Command::new("kill")
            .arg(format!("-{signal}"))
            .arg(self.child.id().to_string())
            .status()
            .unwrap();
        assert!(status.success(), "kill -{signal}");
    }

    fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }
}

impl Drop for Instance {
    fn drop(&mut self) {
        let _ = Command::new("kill")
            .arg("-CONT")
            .arg(self.child.id().to_string())
            .status();
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

async fn call(
    client: &reqwest::Client,
    method: reqwest::Method,
    url: String,
    key: &str,
    body: Option<Value>,
) -> (u16, Value) {
    let mut request = client.request(method, url).bearer_auth(key);
    if let Some(body) = body {
        request = request.json(&body);
    }
    let reply = request.send().await.unwrap();
    let status = reply.status().as_u16();
    (status, reply.json().await.unwrap_or(Value::Null))
}

/// Where a visit of `code` on `instance` is sent.
async fn location(client: &reqwest::Client, instance: &Instance, code: &str) -> String {
    let reply = client
        .get(instance.url(&format!("/{code}")))
        .header("host", LINK_HOST)
        .send()
        .await
        .unwrap();
    assert_eq!(reply.status(), 302, "a visit of {code}");
    reply.headers()["location"].to_str().unwrap().to_owned()
}

#[tokio::test]
async fn a_stopped_instance_trusts_no_cache_when_it_runs_again() {
    let Some(cluster) = pg_cluster::cluster() else {
        return;
    };
    let url = cluster.new_database();
    let a = Instance::start(&url);
    let b = Instance::start(&url);
    let _ = rustls::crypto::ring::default_provider().install_default();
    let client = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .timeout(Duration::from_secs(30))
        .build()
        .unwrap();
    let post = reqwest::Method::POST;
    let (status, user) = call(
        &client,
        post.clone(),
        a.url("/admin/users"),
        ADMIN_KEY,
        Some(json!({"name": "stalled"})),
    )
    .await;
    assert_eq!(status, 201, "{user}");
    let user_id = user["data"]["id"].clone();
    let (status, chain) = call(
        &client,
        post.clone(),
        a.url("/chains"),
        ADMIN_KEY,
        Some(json!({"target_url": "https://before.example/", "code": "moving"})),
    )
    .await;
    assert_eq!(status, 201, "{chain}");
    let chain_id = chain["data"]["id"].clone();

    // The race the stop opens is lost more often than not without the guard; three trials
    // make a pass by luck unlikely.
    for trial in 0..3 {
        let (status, created) = call(
            &client,
            post.clone(),
            a.url("/admin/keys"),
            ADMIN_KEY,
            Some(json!({"user_id": user_id, "scopes": ["chains:read"]})),
        )
        .await;
        assert_eq!(status, 201, "{created}");
        let key = created["data"]["api_key"].as_str().unwrap().to_owned();
        let key_id = created["data"]["id"].clone();
        // B knows the key and the link: both are in its caches now.
        let (status, _) = call(&client, reqwest::Method::GET, b.url("/chains"), &key, None).await;
        assert_eq!(status, 200, "trial {trial}: B accepts the new key");
        let before = location(&client, &b, "moving").await;

        b.signal("STOP");
        let (status, revoked) = call(
            &client,
            reqwest::Method::DELETE,
            a.url(&format!("/admin/keys/{key_id}")),
            ADMIN_KEY,
            None,
        )
        .await;
        assert_eq!(status, 200, "{revoked}");
        let target = format!("https://after.example/{trial}");
        let (status, edited) = call(
            &client,
            reqwest::Method::PATCH,
            a.url(&format!("/chains/{chain_id}")),
            ADMIN_KEY,
            Some(json!({"target_url": target})),
        )
        .await;
        assert_eq!(status, 200, "{edited}");
        b.signal("CONT");

        // The revocation was answered: B refuses the key from its very next request on, and
        // sends visitors where the link now leads.
        let (status, refused) =
            call(&client, reqwest::Method::GET, b.url("/chains"), &key, None).await;
        assert_eq!(
            status, 401,
            "trial {trial}: B accepted a revoked key: {refused}"
        );
        let after = location(&client, &b, "moving").await;
        assert_ne!(after, before, "trial {trial}: B answered the old link");
        assert_eq!(after, target, "trial {trial}");
    }
}
