//! `linkapi stats --orphans`: the requests of the domains that reached no chain, per domain and
//! kind, as an administrator reads them (JSON, piped rows), refused to other keys.

use std::time::{Duration, Instant};

use crate::support::{Home, TestServer, fetch_status};

#[test]
fn orphan_visits_are_listed_per_domain_and_kind_for_an_administrator() {
    let server = TestServer::start();
    let home = Home::new();
    for path in ["/nope", "/nope", "/gone-too", "/", "/a/b", "/wp-login.php"] {
        let expected = if path == "/" { 200 } else { 404 };
        assert_eq!(
            fetch_status(&format!("{}{path}", server.url)),
            expected,
            "{path}"
        );
    }
    // Counts are written with the visit flush, within about a second.
    let deadline = Instant::now() + Duration::from_secs(10);
    let listed = loop {
        let listed = home
            .admin(&server, &["stats", "--orphans", "--days", "2", "--json"])
            .json();
        let total: i64 = listed["list"]
            .as_array()
            .map_or(0, |l| l.iter().filter_map(|c| c["visits"].as_i64()).sum());
        if total == 6 || Instant::now() > deadline {
            break listed;
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    assert_eq!(listed["days"], 2, "{listed}");
    let kinds: Vec<(&str, i64)> = listed["list"]
        .as_array()
        .expect("a list")
        .iter()
        .map(|c| {
            (
                c["kind"].as_str().unwrap_or(""),
                c["visits"].as_i64().unwrap_or(0),
            )
        })
        .collect();
    assert_eq!(
        kinds,
        [("base_url", 1), ("unknown_code", 3), ("reserved_path", 2)]
    );

    // Piped: DOMAIN, KIND, VISITS a line, most first.
    let piped = home.admin(&server, &["stats", "--orphans"]);
    let rows: Vec<Vec<&str>> = piped
        .ok()
        .lines()
        .map(|l| l.split('\t').collect())
        .collect();
    assert_eq!(rows.len(), 3, "{rows:?}");
    assert_eq!(&rows[0][1..], ["unknown_code", "3"]);
    assert_eq!(&rows[2][1..], ["base_url", "1"]);

    let (_, key) = home.user_with_key(&server, "tenant", &["stats:read"]);
    let refused = home.as_key(&server, &key, &["stats", "--orphans"]);
    assert!(refused.fails(4).contains("admin"), "{}", refused.stderr);
    let conflict = home.admin(&server, &["stats", "seen", "--orphans"]);
    assert_eq!(
        conflict.code, 2,
        "--orphans takes no chain: {}",
        conflict.stderr
    );
}
