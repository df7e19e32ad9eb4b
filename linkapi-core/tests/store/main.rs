//! The store conformance suite: the same cases, with no HTTP in between, against both backends.
//!
//! Every case is an `async fn(Arc<dyn Store>)` listed in a [`conformance!`] block, which makes
//! two tests of it: `<case>::sqlite` on a database file in a temporary directory, and
//! `<case>::postgres` on a database of its own in the throwaway cluster (`pg_cluster`). Where
//! PostgreSQL is not installed the PostgreSQL half skips with a message, unless the run
//! requires PostgreSQL (`CI` set, or `LINKAPI_TEST_BACKEND=postgres`): then it fails.
//!
//! The cases state what services rely on: what each write returns and stores, which unique
//! values conflict and how that is reported, that a failed body leaves nothing behind, paging
//! and ordering, and the counters that must stay exact when many transactions race.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::print_stderr)]

#[path = "../pg_cluster.rs"]
mod pg_cluster;

mod accounts;
mod archive;
mod chains;
mod counters;
mod idempotency;
mod imports;
mod options;
mod orphans;
mod transactions;
mod uploads;
mod webhooks;
mod workchat;

use std::sync::Arc;

use linkapi_core::model::{
    ChainKind, ChainStatus, Domain, DomainId, DomainStatus, Scheme, User, UserId,
};
use linkapi_core::store::postgres::{PgOptions, PgStore};
use linkapi_core::store::sqlite::SqliteStore;
use linkapi_core::store::{NewChain, NewDomain, NewUser, Store};

/// Makes a `sqlite` and a `postgres` test of each named case.
macro_rules! conformance {
    ($($case:ident),* $(,)?) => {
        $(
            mod $case {
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn sqlite() {
                    let (store, _dir) = crate::sqlite_store();
                    super::$case(store).await;
                }

                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn postgres() {
                    if let Some(store) = crate::postgres_store().await {
                        super::$case(store).await;
                    }
                }
            }
        )*
    };
}
pub(crate) use conformance;

/// Runs a transaction body and returns its value, or the store's error. The body may run more
/// than once, so it builds what it writes itself (from `Copy` values it captures).
macro_rules! tx {
    ($store:expr, |$tx:ident| $body:expr) => {
        linkapi_core::store::transact(crate::as_store(&$store), move |$tx| {
            Box::pin(async move { $body })
        })
        .await
        .map(|(value, _changes)| value)
    };
}
pub(crate) use tx;

/// The store behind a shared handle, as `write` takes it.
pub fn as_store(store: &Arc<dyn Store>) -> &dyn Store {
    &**store
}

/// A store on a fresh SQLite file; the directory lives as long as the returned guard.
pub fn sqlite_store() -> (Arc<dyn Store>, tempfile::TempDir) {
    let dir = tempfile::tempdir().expect("temp dir");
    let store = SqliteStore::open(&dir.path().join("linkapi.db")).expect("open SQLite");
    (Arc::new(store), dir)
}

/// A store on a fresh database of the test cluster; `None` when PostgreSQL is not installed
/// and this run does not require it.
pub async fn postgres_store() -> Option<Arc<dyn Store>> {
    let Some(cluster) = pg_cluster::cluster() else {
        eprintln!("PostgreSQL not installed: skipping this conformance case on PostgreSQL");
        return None;
    };
    let url = cluster.new_database();
    let store = PgStore::connect(&url, PgOptions::default())
        .await
        .expect("connect to the test cluster");
    Some(Arc::new(store))
}

/// A second of the test's clock: every row gets a time, none depends on now.
pub const T0: i64 = 1_700_000_000;

/// Inserts a user.
pub async fn user(store: &Arc<dyn Store>, name: &'static str) -> User {
    tx!(store, |tx| {
        tx.insert_user(NewUser {
            name: name.to_owned(),
            daily_quota: None,
            created_at: T0,
        })
        .await
    })
    .expect("insert user")
}

/// Inserts a shared, effective domain.
pub async fn domain(store: &Arc<dyn Store>, host: &'static str) -> Domain {
    tx!(store, |tx| tx.insert_domain(new_domain(host)).await).expect("insert domain")
}

/// A shared, effective domain to insert.
pub fn new_domain(host: &str) -> NewDomain {
    NewDomain {
        host: host.to_owned(),
        scheme: Scheme::Https,
        scene: "test".to_owned(),
        shared: true,
        user_id: None,
        status: DomainStatus::Effective,
        created_at: T0,
    }
}

/// A short chain with nothing but a code, a title and a target.
pub fn short_chain(user: UserId, domain: DomainId, code: &str, created_at: i64) -> NewChain {
    NewChain {
        user_id: user,
        kind: ChainKind::Short,
        sub_type: None,
        domain_id: domain,
        code: code.to_owned(),
        title: format!("title of {code}"),
        target_url: format!("https://example.com/{code}"),
        group_ids: Vec::new(),
        valid_time: 0,
        created_at,
        jump: None,
        channels: Vec::new(),
        rules: Vec::new(),
        status: ChainStatus::Normal,
        archived_at: None,
        imported_visits: 0,
        visits_taken: 0,
        options: linkapi_core::model::LinkOptions::default(),
    }
}
