//! `linkapi chain archive` and `unarchive`, and the listing's `--archived` and
//! `--include-archived`.

use crate::support::{Home, TestServer};

#[test]
fn an_archived_chain_is_listed_only_when_asked_for_and_comes_back() {
    let server = TestServer::start();
    let home = Home::new();
    for code in ["kept", "old"] {
        let url = format!("https://example.com/{code}");
        home.admin(&server, &["chain", "create", &url, "--code", code])
            .ok();
    }
    let codes = |args: &[&str]| -> Vec<String> {
        let mut all = vec!["chain", "list", "--json=code"];
        all.extend_from_slice(args);
        let listed = home.admin(&server, &all).json();
        listed
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["code"].as_str().unwrap().to_owned())
            .collect()
    };

    let chain = home
        .admin(&server, &["chain", "archive", "old", "--json"])
        .json();
    assert!(chain["archived_at"].is_string(), "{chain}");
    assert_eq!(codes(&[]), ["kept"]);
    assert_eq!(codes(&["--archived"]), ["old"]);
    assert_eq!(codes(&["--include-archived"]), ["old", "kept"]);
    home.admin(
        &server,
        &["chain", "list", "--archived", "--include-archived"],
    )
    .fails(2);

    let back = home
        .admin(&server, &["chain", "unarchive", "old", "--json"])
        .json();
    assert_eq!(back["archived_at"], serde_json::Value::Null);
    assert_eq!(codes(&[]), ["old", "kept"]);
    // A chain the key's user does not have is an error naming it.
    let missing = home.admin(&server, &["chain", "archive", "99999"]);
    assert!(missing.fails(1).contains("99999"), "{}", missing.stderr);
}
