//! The operator's commands through the real `linkapi-server` binary: an online backup taken
//! while the server writes, restored into a stopped deployment; and a SQLite deployment moved
//! to PostgreSQL and served from there.

#![allow(clippy::unwrap_used)]

use std::collections::HashSet;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{Value, json};

#[path = "../../linkapi-core/tests/pg_cluster.rs"]
mod pg_cluster;
mod support;

use support::{Deployment, KEY, binary, client, command, path_arg, text};

async fn create(client: &reqwest::Client, url: &str, target: &str) -> Value {
    let reply = client
        .post(format!("{url}/chains"))
        .bearer_auth(KEY)
        .json(&json!({ "target_url": target }))
        .send()
        .await
        .unwrap();
    assert_eq!(reply.status(), 201);
    reply.json::<Value>().await.unwrap()["data"].clone()
}

/// The target URLs of every chain the server lists.
async fn targets(client: &reqwest::Client, url: &str) -> HashSet<String> {
    let mut found = HashSet::new();
    for page in 1.. {
        let body: Value = client
            .get(format!("{url}/chains?page={page}&page_size=100"))
            .bearer_auth(KEY)
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        let items = body["data"]["list"].as_array().unwrap().clone();
        for item in &items {
            found.insert(item["target_url"].as_str().unwrap().to_owned());
        }
        if items.len() < 100 {
            break;
        }
    }
    found
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_online_backup_holds_every_acknowledged_write_and_restores() {
    let deployment = Deployment::new();
    let data_arg = deployment.data.clone();
    let server = deployment.serve(&[]);
    let http = client();
    for i in 0..40 {
        create(&http, &server.url, &format!("https://before.example/{i}")).await;
    }

    // Writers keep creating while the backup runs; each records what it was told.
    let acknowledged = Arc::new(Mutex::new(Vec::<String>::new()));
    let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let writers: Vec<_> = (0..8)
        .map(|w| {
            let (http, url) = (http.clone(), server.url.clone());
            let (acknowledged, stop) = (acknowledged.clone(), stop.clone());
            tokio::spawn(async move {
                let mut n = 0;
                while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                    let target = format!("https://during.example/{w}/{n}");
                    create(&http, &url, &target).await;
                    acknowledged.lock().unwrap().push(target);
                    n += 1;
                }
            })
        })
        .collect();
    tokio::time::sleep(Duration::from_millis(300)).await;
    let backup_arg = path_arg(&deployment.dir.path().join("backup.db"));
    let before_backup: Vec<String> = acknowledged.lock().unwrap().clone();
    let out = tokio::task::spawn_blocking({
        let (data_arg, backup_arg) = (data_arg.clone(), backup_arg.clone());
        move || command(&["backup", "--data-dir", &data_arg, "--to", &backup_arg])
    })
    .await
    .unwrap();
    let after_backup: Vec<String> = acknowledged.lock().unwrap().clone();
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    for writer in writers {
        writer.await.unwrap();
    }
    assert!(out.status.success(), "{}", text(&out.stderr));
    let report = text(&out.stdout);
    assert!(report.contains("integrity ok"), "{report}");
    assert!(
        !before_backup.is_empty(),
        "writes were under way when the backup began"
    );
    create(&http, &server.url, "https://after.example/").await;

    // The same name again is refused, and nothing is overwritten.
    let again = command(&["backup", "--data-dir", &data_arg, "--to", &backup_arg]);
    assert_eq!(again.status.code(), Some(1));
    assert!(text(&again.stderr).contains("already exists"));

    // A restore under a running server is refused.
    let refused = command(&["restore", "--data-dir", &data_arg, "--from", &backup_arg]);
    assert_eq!(refused.status.code(), Some(1));
    assert!(
        text(&refused.stderr).contains("stop it first"),
        "{}",
        text(&refused.stderr)
    );
    // So is a second server on the same data.
    let second = binary()
        .args(["--listen", "127.0.0.1:0", "--data-dir", &data_arg])
        .output()
        .unwrap();
    assert_eq!(second.status.code(), Some(1));
    assert!(text(&second.stderr).contains("stop it first"));

    server.stop();
    let restored = command(&["restore", "--data-dir", &data_arg, "--from", &backup_arg]);
    assert!(restored.status.success(), "{}", text(&restored.stderr));
    assert!(text(&restored.stdout).contains("kept as"));

    let server = deployment.serve(&[]);
    let found = targets(&http, &server.url).await;
    for i in 0..40 {
        assert!(found.contains(&format!("https://before.example/{i}")));
    }
    for target in &before_backup {
        assert!(
            found.contains(target),
            "{target} was acknowledged before the backup"
        );
    }
    let during: HashSet<&String> = found.iter().filter(|t| t.contains("during")).collect();
    assert!(during.len() <= after_backup.len());
    for target in &during {
        assert!(after_backup.contains(target), "only acknowledged writes");
    }
    assert!(
        !found.contains("https://after.example/"),
        "a write after the snapshot"
    );
    // The restored deployment serves: its key works and its links redirect.
    let chain = create(&http, &server.url, "https://restored.example/").await;
    let code = chain["render_url"]
        .as_str()
        .unwrap()
        .rsplit('/')
        .next()
        .unwrap()
        .to_owned();
    let visit = http
        .get(format!("{}/{code}", server.url))
        .send()
        .await
        .unwrap();
    assert_eq!(visit.status(), 302);
    server.stop();
}

#[test]
fn a_postgresql_deployment_is_pointed_to_its_own_tools() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("linkapi.toml");
    std::fs::write(
        &config,
        "database_url = \"postgres://app:s3cret@db.internal/links\"\n",
    )
    .unwrap();
    let out = command(&[
        "backup",
        "--config",
        config.to_str().unwrap(),
        "--to",
        dir.path().join("b.db").to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(err.contains("pg_dump"), "{err}");
    assert!(!err.contains("s3cret"), "{err}");
    let missing = command(&[
        "restore",
        "--data-dir",
        dir.path().to_str().unwrap(),
        "--from",
        dir.path().join("nothing.db").to_str().unwrap(),
    ]);
    assert_eq!(missing.status.code(), Some(1));
    assert!(text(&missing.stderr).contains("does not exist"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_sqlite_deployment_moves_to_postgresql_and_serves_from_there() {
    let Some(cluster) = pg_cluster::cluster() else {
        return; // PostgreSQL is not installed and not required here.
    };
    let target = cluster.new_database();
    let deployment = Deployment::new();
    let server = deployment.serve(&["--public-url", "https://go.example.com"]);
    let http = client();
    let mut codes = Vec::new();
    for i in 0..30 {
        let chain = create(&http, &server.url, &format!("https://moved.example/{i}")).await;
        codes.push(chain["render_url"].as_str().unwrap().to_owned());
    }
    let from = format!("sqlite:{}", deployment.data);
    let refused = command(&["migrate", "--from", &from, "--to", &target]);
    assert_eq!(refused.status.code(), Some(1));
    assert!(text(&refused.stderr).contains("stop it first"));
    server.stop();

    let out = command(&["migrate", "--from", &from, "--to", &target]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let report = text(&out.stdout);
    assert!(
        report.contains("row counts and checksums match"),
        "{report}"
    );
    assert!(
        report
            .lines()
            .any(|l| l.trim_start().starts_with("chains") && l.contains(" 30 rows")),
        "{report}"
    );
    assert!(
        text(&out.stderr).contains("chains: 30"),
        "progress: {}",
        text(&out.stderr)
    );

    // Into a target that now has data only when told to replace it.
    let again = command(&["migrate", "--from", &from, "--to", &target]);
    assert_eq!(again.status.code(), Some(1));
    assert!(
        text(&again.stderr).contains("--replace"),
        "{}",
        text(&again.stderr)
    );
    let replaced = command(&["migrate", "--from", &from, "--to", &target, "--replace"]);
    assert!(replaced.status.success(), "{}", text(&replaced.stderr));

    let server = deployment.serve(&[
        "--public-url",
        "https://go.example.com",
        "--database-url",
        &target,
    ]);
    // Instances serving the target refuse a copy into it, even with --replace.
    let serving = command(&["migrate", "--from", &from, "--to", &target, "--replace"]);
    assert_eq!(serving.status.code(), Some(1));
    assert!(text(&serving.stderr).contains("serving the target"));

    let found = targets(&http, &server.url).await;
    assert_eq!(found.len(), 30);
    let code = codes[7].rsplit('/').next().unwrap();
    let visit = http
        .get(format!("{}/{code}", server.url))
        .header("host", "go.example.com")
        .send()
        .await
        .unwrap();
    assert_eq!(visit.status(), 302);
    assert_eq!(visit.headers()["location"], "https://moved.example/7");
    // New chains take ids after the copied ones.
    let fresh = create(&http, &server.url, "https://fresh.example/").await;
    assert!(fresh["id"].as_i64().unwrap() > 30, "{fresh}");
    server.stop();
}

/// A server killed (SIGKILL) while bulk requests are under way: after a restart every bulk it
/// acknowledged is there whole, and of the one it was working on, which commits in runs, the
/// runs it committed: a first part of its items, in order, and nothing out of order. (Its
/// retry under the same `Idempotency-Key` finishes it: `tests/bulk_resume.rs`.)
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_killed_server_keeps_every_bulk_it_acknowledged_and_a_first_part_of_the_next() {
    // On SQLite, and on PostgreSQL where it is installed.
    let databases =
        std::iter::once(None).chain(pg_cluster::cluster().map(|c| Some(c.new_database())));
    for database in databases {
        killed_during_bulk(database.as_deref()).await;
    }
}

async fn killed_during_bulk(database: Option<&str>) {
    let deployment = Deployment::new();
    let extra: Vec<&str> = match database {
        Some(url) => vec!["--database-url", url],
        None => Vec::new(),
    };
    let mut server = deployment.serve(&extra);
    let http = client();
    let acknowledged = Arc::new(Mutex::new(Vec::<usize>::new()));
    let sender = {
        let (http, url, acknowledged) = (http.clone(), server.url.clone(), acknowledged.clone());
        tokio::spawn(async move {
            for batch in 0.. {
                let chains: Vec<Value> = (0..500)
                    .map(|i| json!({"target_url": format!("https://killed.example/{batch}/{i}")}))
                    .collect();
                let sent = http
                    .post(format!("{url}/chains/bulk"))
                    .bearer_auth(KEY)
                    .json(&json!({ "chains": chains }))
                    .send()
                    .await;
                match sent {
                    Ok(reply) if reply.status() == 200 => {
                        let body: Value = reply.json().await.unwrap_or(Value::Null);
                        if body["data"]["created"] == 500 {
                            acknowledged.lock().unwrap().push(batch);
                        }
                    }
                    _ => return batch,
                }
            }
            unreachable!("the loop ends when the server is gone")
        })
    };
    // Kill it once a few bulks went through, with the next one under way.
    while acknowledged.lock().unwrap().len() < 3 {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    server.child.kill().unwrap();
    server.child.wait().unwrap();
    let in_flight = sender.await.unwrap();
    let acknowledged = acknowledged.lock().unwrap().clone();
    drop(server);

    let server = deployment.serve(&extra);
    let found = targets(&http, &server.url).await;
    let stored = |batch: usize| {
        (0..500)
            .filter(|i| found.contains(&format!("https://killed.example/{batch}/{i}")))
            .count()
    };
    for batch in &acknowledged {
        assert_eq!(
            stored(*batch),
            500,
            "{database:?}: bulk {batch} was acknowledged"
        );
    }
    let unfinished = stored(in_flight);
    let first_part = (0..500)
        .map(|i| found.contains(&format!("https://killed.example/{in_flight}/{i}")))
        .position(|stored| !stored)
        .unwrap_or(500);
    assert_eq!(
        unfinished, first_part,
        "{database:?}: of the bulk under way, items 0..{first_part} and nothing after them"
    );
    let expected = acknowledged.len() * 500 + unfinished;
    assert_eq!(found.len(), expected, "{database:?}: nothing else, no half");
    server.stop();
}
