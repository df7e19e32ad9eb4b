//! The server library: bind on port 0, serve, shut down gracefully on request.

#![allow(clippy::unwrap_used)]

use linkapi_server::{DeploymentArgs, ServeArgs, Server};

#[path = "../../linkapi-core/tests/pg_cluster.rs"]
mod pg_cluster;

/// A database of its own when the run tests PostgreSQL (`LINKAPI_TEST_BACKEND=postgres`);
/// `None` keeps the SQLite file in the data directory.
fn database_url() -> Option<String> {
    pg_cluster::selected().then(|| {
        pg_cluster::cluster()
            .expect("the PostgreSQL test cluster")
            .new_database()
    })
}

/// Flags for a test server on port 0 keeping its data in `dir`.
fn args(dir: &std::path::Path, listen: &str, config: Option<std::path::PathBuf>) -> ServeArgs {
    ServeArgs {
        listen: Some(listen.parse().unwrap()),
        deployment: DeploymentArgs {
            data_dir: Some(dir.join("data")),
            database_url: database_url(),
            config,
        },
        public_url: None,
    }
}

/// A running server: stop it with `stop()`, which waits for it to drain.
struct Running {
    stop: tokio::sync::oneshot::Sender<()>,
    task: tokio::task::JoinHandle<anyhow::Result<()>>,
}

fn run(server: Server) -> Running {
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let task = tokio::spawn(server.run(async {
        let _ = stopped.await;
    }));
    Running { stop, task }
}

impl Running {
    async fn stop(self) {
        self.stop.send(()).unwrap();
        self.task.await.unwrap().unwrap();
    }
}

#[tokio::test]
async fn binds_serves_and_drains_on_shutdown() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("linkapi.toml");
    std::fs::write(
        &config,
        "public_url = \"https://s.example.com\"\ncode_length = 8\nrate_limit_per_second = 0\n",
    )
    .unwrap();
    let args = args(dir.path(), "127.0.0.1:0", Some(config));
    let server = Server::bind(&args, Some("lk_server_test_key_000001"))
        .await
        .unwrap();
    assert_eq!(server.public_url, "https://s.example.com");
    assert!(server.bootstrap.as_ref().is_some_and(|k| !k.generated));
    let addr = server.local_addr;
    let running = run(server);

    let _ = rustls::crypto::ring::default_provider().install_default();
    let client = reqwest::Client::new();
    let created: serde_json::Value = client
        .post(format!("http://{addr}/chains"))
        .bearer_auth("lk_server_test_key_000001")
        .json(&serde_json::json!({"target_url": "https://example.com"}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let render_url = created["data"]["render_url"].as_str().unwrap();
    let code = render_url.strip_prefix("https://s.example.com/").unwrap();
    assert_eq!(code.len(), 8, "code_length from the config file");
    // With rate limiting off there are no rate headers.
    let reply = client
        .get(format!("http://{addr}/chains"))
        .bearer_auth("lk_server_test_key_000001")
        .send()
        .await
        .unwrap();
    assert!(reply.headers().get("x-ratelimit-limit").is_none());

    running.stop().await;
    assert!(
        client
            .get(format!("http://{addr}/healthz"))
            .send()
            .await
            .is_err()
    );
}

#[tokio::test]
async fn a_bad_config_file_is_an_error_naming_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("bad.toml");
    std::fs::write(&config, "listen = 12\n").unwrap();
    let args = args(dir.path(), "127.0.0.1:0", Some(config));
    let err = Server::bind(&args, None).await.err().unwrap();
    assert!(format!("{err:#}").contains("bad.toml"), "{err:#}");
}

#[tokio::test]
async fn listens_on_ipv6_loopback_and_serves_its_links() {
    if std::net::TcpListener::bind("[::1]:0").is_err() {
        assert!(
            std::env::var_os("CI").is_none(),
            "IPv6 loopback is needed for this test in CI"
        );
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let args = args(dir.path(), "[::1]:0", None);
    let server = Server::bind(&args, Some("lk_server_test_key_000002"))
        .await
        .unwrap();
    let addr = server.local_addr;
    assert_eq!(server.public_url, format!("http://[::1]:{}", addr.port()));
    let running = run(server);

    let _ = rustls::crypto::ring::default_provider().install_default();
    let client = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap();
    let created: serde_json::Value = client
        .post(format!("http://{addr}/chains"))
        .bearer_auth("lk_server_test_key_000002")
        .json(&serde_json::json!({"target_url": "https://example.com/v6"}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let render_url = created["data"]["render_url"].as_str().unwrap();
    assert!(
        render_url.starts_with(&format!("http://[::1]:{}/", addr.port())),
        "{created}"
    );
    let visit = client.get(render_url).send().await.unwrap();
    assert_eq!(visit.status(), reqwest::StatusCode::FOUND);
    assert_eq!(visit.headers()["location"], "https://example.com/v6");

    running.stop().await;
}

#[tokio::test]
async fn instances_sharing_keys_each_enforce_their_share_of_the_rate_limit() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("linkapi.toml");
    std::fs::write(
        &config,
        // The key is the first admin key: limited too, for this test.
        "rate_limit_per_second = 30\nrate_limit_burst = 30\nrate_limit_instances = 3\n\
         rate_limit_admin_keys = true\n",
    )
    .unwrap();
    let args = args(dir.path(), "127.0.0.1:0", Some(config));
    let server = Server::bind(&args, Some("lk_server_test_key_000003"))
        .await
        .unwrap();
    let addr = server.local_addr;
    let running = run(server);
    let _ = rustls::crypto::ring::default_provider().install_default();
    let client = reqwest::Client::new();
    let mut statuses = Vec::new();
    for _ in 0..15 {
        let reply = client
            .get(format!("http://{addr}/domains"))
            .bearer_auth("lk_server_test_key_000003")
            .send()
            .await
            .unwrap();
        if statuses.is_empty() {
            assert_eq!(reply.headers()["x-ratelimit-limit"], "10", "a third of 30");
        }
        statuses.push(reply.status().as_u16());
    }
    // A burst of ten (a few more if tokens refill meanwhile on a slow machine), then 429.
    let allowed = statuses.iter().take_while(|s| **s == 200).count();
    assert!((10..14).contains(&allowed), "{statuses:?}");
    assert_eq!(statuses.last(), Some(&429), "{statuses:?}");
    running.stop().await;
}
