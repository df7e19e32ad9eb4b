//! `linkapi data ...`: the operator's commands on a local server's data, through the real
//! binary (the same code as `linkapi-server backup|restore|migrate`, tested there in depth).

use crate::support::{Home, TestServer};

#[test]
fn a_local_server_is_backed_up_while_it_runs_and_restore_waits_for_it_to_stop() {
    let server = TestServer::start();
    if server.on_postgres {
        return; // A PostgreSQL deployment is backed up with pg_dump (tested in linkapi-server).
    }
    let home = Home::new();
    let created = home
        .admin(
            &server,
            &["chain", "create", "https://b.example/", "--json"],
        )
        .json();
    let data = server.data.path().display().to_string();
    let backup = home.dir.path().join("snapshot.db").display().to_string();

    let report = home
        .run(&["data", "backup", "--data-dir", &data, "--to", &backup])
        .ok()
        .to_owned();
    assert!(report.contains("Backed up to"), "{report}");
    assert!(report.contains("1 chains"), "{report}");
    assert!(std::path::Path::new(&backup).is_file());
    // The server holds its data: a restore under it is refused, with the way out.
    let refused = home.run(&["data", "restore", "--data-dir", &data, "--from", &backup]);
    assert!(
        refused.fails(1).contains("stop it first"),
        "{}",
        refused.stderr
    );
    // Help names the commands and where PostgreSQL deployments go instead.
    let help = home.run(&["data", "backup", "--help"]);
    assert!(help.ok().contains("pg_dump"), "{}", help.stdout);
    assert!(created["id"].as_i64().is_some());
}
