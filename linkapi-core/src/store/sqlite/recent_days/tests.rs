//! Tests of the recent days: written, merged and folded into the chain-first tables.

use std::path::Path;
use std::sync::Arc;

use super::super::SqliteStore;
use super::fold_recent_days;
use crate::model::{ChainId, Dimension, MAX_BREAKDOWN_VALUES};
use crate::store::{
    BreakdownCounts, BreakdownVisits, ChainVisits, DailyVisits, Store, VisitBatch, VisitStore,
};

const DAY: i64 = 86_400;
const D: i64 = 20_000 * DAY;

/// A batch of `clicks` people's visits (and one bot's) of each of `chains` on `day`, each
/// from one of `referrers` in turn, and a visitor new to each chain (one per batch id).
fn batch(id: &str, chains: &[i64], day: i64, clicks: i64, referrers: &[&str]) -> Arc<VisitBatch> {
    let mut breakdowns = Vec::new();
    for &chain in chains {
        for (i, referrer) in referrers.iter().enumerate() {
            let share = clicks / referrers.len() as i64
                + i64::from((i as i64) < clicks % referrers.len() as i64);
            breakdowns.push(BreakdownVisits {
                chain_id: ChainId(chain),
                dimension: Dimension::Referrers,
                day,
                value: Some(Arc::from(*referrer)),
                clicks: share,
            });
        }
    }
    Arc::new(VisitBatch {
        id: id.to_owned(),
        daily: chains
            .iter()
            .map(|&chain| DailyVisits {
                chain_id: ChainId(chain),
                day,
                clicks,
                bot_clicks: 1,
            })
            .collect(),
        visitors: chains
            .iter()
            .map(|&chain| (ChainId(chain), [id.as_bytes()[id.len() - 1]; 16]))
            .collect(),
        breakdowns,
        ..VisitBatch::default()
    })
}

async fn add(store: &SqliteStore, batch: Arc<VisitBatch>) {
    assert!(store.add_visits(batch, D, 0).await.expect("the batch"));
}

/// Rows of `table` for `day`.
fn rows(path: &Path, table: &str, day: i64) -> i64 {
    let conn = rusqlite::Connection::open(path).expect("a connection");
    conn.query_row(
        &format!("SELECT count(*) FROM {table} WHERE day = ?1"),
        [day],
        |r| r.get(0),
    )
    .expect("a count")
}

/// What a chain's statistics say over the three days from `D - DAY`.
async fn seen(store: &SqliteStore, chain: i64) -> (ChainVisits, BreakdownCounts) {
    let chain = ChainId(chain);
    let visits = store.chain_visits(chain, D - DAY, D + 2 * DAY).await;
    let referrers = store
        .breakdown(chain, Dimension::Referrers, D - DAY, D + 2 * DAY, 200)
        .await;
    (visits.expect("visits"), referrers.expect("referrers"))
}

/// A day's rows wait apart until a later day is counted, then move into the chain-first
/// counters, and the statistics read the same before and after.
#[tokio::test]
async fn a_day_is_folded_once_a_later_one_is_counted() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let path = dir.path().join("linkapi.db");
    let store = SqliteStore::open(&path).expect("the store");
    add(&store, batch("b1", &[1], D, 3, &["a.example", "b.example"])).await;
    add(&store, batch("b2", &[1], D, 1, &["a.example"])).await;
    let before = seen(&store, 1).await;
    assert_eq!(before.0.daily.len(), 1);
    assert_eq!(
        (before.0.daily[0].clicks, before.0.daily[0].bot_clicks),
        (4, 2)
    );
    assert_eq!((before.0.clicks, before.0.unique_visitors), (4, 2));
    assert_eq!(
        before.1.top,
        vec![("a.example".to_owned(), 3), ("b.example".to_owned(), 1)]
    );
    assert_eq!(
        (
            rows(&path, "chain_recent_days", D),
            rows(&path, "chain_daily_clicks", D)
        ),
        (1, 0)
    );

    add(&store, batch("b3", &[2], D + DAY, 1, &["c.example"])).await;
    assert_eq!(
        (
            rows(&path, "chain_recent_days", D),
            rows(&path, "chain_daily_clicks", D)
        ),
        (0, 1)
    );
    assert_eq!(rows(&path, "chain_breakdown_days", D), 1);
    assert_eq!(rows(&path, "chain_recent_days", D + DAY), 1);
    assert_eq!(seen(&store, 1).await, before);

    // A late visit of the folded day is folded into it at once.
    add(&store, batch("b4", &[1], D, 2, &["c.example"])).await;
    assert_eq!(
        (
            rows(&path, "chain_recent_days", D),
            rows(&path, "chain_daily_clicks", D)
        ),
        (0, 1)
    );
    let (visits, referrers) = seen(&store, 1).await;
    assert_eq!((visits.daily[0].clicks, visits.daily[0].bot_clicks), (6, 3));
    assert_eq!((visits.clicks, visits.unique_visitors), (6, 3));
    assert_eq!(referrers.top.len(), 3);
    assert_eq!(referrers.total, 6);

    // A folded day and a recent one read together.
    add(&store, batch("b5", &[1], D + DAY, 4, &["d.example"])).await;
    let (visits, referrers) = seen(&store, 1).await;
    let days: Vec<(i64, i64, i64)> = visits
        .daily
        .iter()
        .map(|d| (d.day, d.clicks, d.bot_clicks))
        .collect();
    assert_eq!(days, [(D, 6, 3), (D + DAY, 4, 1)]);
    assert_eq!(
        (visits.clicks, visits.bot_clicks, visits.unique_visitors),
        (10, 4, 4)
    );
    assert_eq!(referrers.total, 10);
    assert_eq!(referrers.top[0], ("d.example".to_owned(), 4));
}

/// A day's rows are folded a chunk at a time; between chunks, every chain reads the same.
#[tokio::test]
async fn a_day_is_folded_a_chunk_at_a_time() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let path = dir.path().join("linkapi.db");
    let store = SqliteStore::open(&path).expect("the store");
    let chains = [3, 5, 8, 13, 21];
    add(
        &store,
        batch("b1", &chains, D, 2, &["a.example", "b.example"]),
    )
    .await;
    let mut before = Vec::new();
    for chain in chains {
        before.push(seen(&store, chain).await);
    }
    let conn = rusqlite::Connection::open(&path).expect("a connection");
    for (folded, left) in [(2, 3), (2, 1), (1, 0)] {
        assert_eq!(fold_recent_days(&conn, D + DAY, 2).expect("a fold"), folded);
        assert_eq!(rows(&path, "chain_recent_days", D), left);
        for (chain, before) in chains.iter().zip(&before) {
            assert_eq!(&seen(&store, *chain).await, before, "chain {chain}");
        }
    }
    assert_eq!(fold_recent_days(&conn, D + DAY, 2).expect("a fold"), 0);
    assert_eq!(rows(&path, "chain_daily_clicks", D), 5);
    let totals: i64 = conn
        .query_row("SELECT count(*) FROM chain_visit_totals", [], |r| r.get(0))
        .expect("a count");
    assert_eq!(totals, 5);
}

/// A batch's visitors of a chain it has no day for (no batch the service makes) still
/// count.
#[tokio::test]
async fn visitors_without_a_day_still_count() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let store = SqliteStore::open(&dir.path().join("linkapi.db")).expect("the store");
    let mut alone = (*batch("b1", &[1], D, 1, &[])).clone();
    alone.visitors.push((ChainId(2), [9; 16]));
    add(&store, Arc::new(alone)).await;
    let (visits, _) = seen(&store, 2).await;
    assert_eq!((visits.clicks, visits.unique_visitors), (0, 1));
    assert!(visits.daily.is_empty());
    let (visits, _) = seen(&store, 1).await;
    assert_eq!((visits.clicks, visits.unique_visitors), (1, 1));
}

/// A row written before values had numbers (its `data` JSON) reads as it did, takes more
/// visits (numbered from then on) and folds.
#[tokio::test]
async fn a_row_of_json_from_before_numbers_reads_merges_and_folds() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let path = dir.path().join("linkapi.db");
    let store = SqliteStore::open(&path).expect("the store");
    let conn = rusqlite::Connection::open(&path).expect("a connection");
    let data_type = |conn: &rusqlite::Connection| -> String {
        conn.query_row(
            "SELECT typeof(data) FROM chain_recent_days WHERE chain_id = 1",
            [],
            |r| r.get(0),
        )
        .expect("a row")
    };
    conn.execute(
        "INSERT INTO chain_recent_days (day, chain_id, clicks, bot_clicks, visitors, data)
         VALUES (?1, 1, 3, 0, 1, '[[1,\"a.example\",2],[1,\"b.example\",1]]')",
        [D],
    )
    .expect("a row as schema 17 wrote it");
    let (visits, referrers) = seen(&store, 1).await;
    assert_eq!((visits.clicks, visits.unique_visitors), (3, 1));
    assert_eq!(referrers.top[0], ("a.example".to_owned(), 2));
    assert_eq!(data_type(&conn), "text");

    add(&store, batch("b1", &[1], D, 2, &["b.example", "c.example"])).await;
    assert_eq!(data_type(&conn), "blob");
    let (visits, referrers) = seen(&store, 1).await;
    assert_eq!((visits.clicks, visits.unique_visitors), (5, 2));
    assert_eq!(
        referrers.top,
        vec![
            ("a.example".to_owned(), 2),
            ("b.example".to_owned(), 2),
            ("c.example".to_owned(), 1)
        ]
    );
    let before = seen(&store, 1).await;
    add(&store, batch("b2", &[2], D + DAY, 1, &["d.example"])).await;
    assert_eq!(rows(&path, "chain_recent_days", D), 0);
    assert_eq!(seen(&store, 1).await, before);
}

/// A late visit folded into a day that has all the values it may keep counts past the cap,
/// as it would have had it come in time.
#[tokio::test]
async fn a_late_visit_keeps_to_its_days_cap() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let path = dir.path().join("linkapi.db");
    let store = SqliteStore::open(&path).expect("the store");
    let values: Vec<String> = (0..MAX_BREAKDOWN_VALUES)
        .map(|i| format!("r{i:03}.example"))
        .collect();
    let values: Vec<&str> = values.iter().map(String::as_str).collect();
    add(&store, batch("b1", &[1], D, MAX_BREAKDOWN_VALUES, &values)).await;
    add(&store, batch("b2", &[2], D + DAY, 1, &["a.example"])).await;
    assert_eq!(rows(&path, "chain_recent_days", D), 0);
    add(
        &store,
        batch("b3", &[1], D, 2, &["late.example", "r000.example"]),
    )
    .await;
    let (_, referrers) = seen(&store, 1).await;
    assert_eq!(referrers.top.len(), MAX_BREAKDOWN_VALUES as usize);
    assert_eq!(referrers.top[0], ("r000.example".to_owned(), 2));
    assert_eq!(referrers.past_cap, 1);
}
