//! Visit counters on PostgreSQL.

use std::collections::HashMap;
use std::sync::LazyLock;

use async_trait::async_trait;
use deadpool_postgres::GenericClient;
use tokio_postgres::types::ToSql;

use super::flush_breakdowns::{
    BREAKDOWN_DAYS, BREAKDOWN_SPANS, MergedBreakdowns, merge_breakdowns,
};
use super::{PgStore, PgTx, all, one, pg_error};
use crate::model::{ChainId, Dimension, PageViews, Timestamp, UserId};
use crate::store::breakdowns::breakdown_of;
use crate::store::visits::{
    CHAIN_DAYS, CHAIN_TOTALS, ORPHAN_VISITS, USER_TOP_CHAINS, USER_TOTALS, VISITOR_SECRET,
    chain_totals_from_row, day_visits_from_row, orphan_visits_from_row, two_ints_from_row,
    user_visits_from, visitor_secret_from_row, whole_spans,
};
use crate::store::{
    BreakdownCounts, ChainVisits, DailyVisits, Misuse, OrphanVisits, StoreError, StoreResult,
    StoredRow, UserVisits, VisitBatch, VisitStore, VisitWrites, VisitorSecret,
};

#[async_trait]
impl VisitStore for PgStore {
    async fn page_views(
        &self,
        ids: &[ChainId],
        today_start: Timestamp,
    ) -> StoreResult<HashMap<ChainId, PageViews>> {
        fn views(row: &dyn StoredRow) -> StoreResult<(ChainId, PageViews)> {
            Ok((
                ChainId(row.int(0)?),
                PageViews {
                    history: row.int(1)?,
                    today: row.int(2)?,
                },
            ))
        }
        let ids: Vec<i64> = ids.iter().map(|c| c.0).collect();
        let found = self
            .all(
                "SELECT t.chain_id, t.clicks, coalesce(d.clicks, 0)
                 FROM chain_visit_totals t
                 LEFT JOIN chain_daily_clicks d ON d.chain_id = t.chain_id AND d.day = $2
                 WHERE t.chain_id = ANY($1)",
                &[&ids, &today_start],
                views,
            )
            .await?;
        let mut views: HashMap<ChainId, PageViews> = ids
            .iter()
            .map(|id| (ChainId(*id), PageViews::default()))
            .collect();
        views.extend(found);
        Ok(views)
    }

    async fn chain_visits(
        &self,
        chain: ChainId,
        from: Timestamp,
        to: Timestamp,
    ) -> StoreResult<ChainVisits> {
        let client = self.client().await?;
        let (clicks, unique_visitors, bot_clicks) =
            one(&client, CHAIN_TOTALS, &[&chain.0], chain_totals_from_row)
                .await?
                .unwrap_or_default();
        let daily = all(
            &client,
            CHAIN_DAYS,
            &[&chain.0, &from, &to],
            day_visits_from_row,
        )
        .await?;
        Ok(ChainVisits {
            clicks,
            bot_clicks,
            unique_visitors,
            daily,
        })
    }

    async fn visitor_secret(&self) -> StoreResult<Option<VisitorSecret>> {
        self.one(VISITOR_SECRET, &[], visitor_secret_from_row).await
    }

    async fn orphan_visits(&self, from: Timestamp) -> StoreResult<Vec<OrphanVisits>> {
        self.all(ORPHAN_VISITS, &[&from], orphan_visits_from_row)
            .await
    }

    async fn breakdown(
        &self,
        chain: ChainId,
        dimension: Dimension,
        from: Timestamp,
        to: Timestamp,
        limit: i64,
    ) -> StoreResult<BreakdownCounts> {
        // Every span with a day has its row here (written in the flush with the day), so the
        // window is one statement: the days before the whole spans, the whole spans (see
        // `whole_spans`), the days after them.
        let (spans_from, spans_to) = whole_spans(from, to);
        let rows = self
            .all(
                "SELECT data FROM chain_breakdown_days
                 WHERE chain_id = $1 AND day >= $2 AND day < $3
                 UNION ALL
                 SELECT data FROM chain_breakdown_spans
                 WHERE chain_id = $1 AND span >= $3 AND span < $4
                 UNION ALL
                 SELECT data FROM chain_breakdown_days
                 WHERE chain_id = $1 AND day >= $4 AND day < $5",
                &[&chain.0, &from, &spans_from, &spans_to, &to],
                |row| row.text(0),
            )
            .await?;
        breakdown_of(rows, dimension.code(), limit)
    }

    async fn user_visits(
        &self,
        user: UserId,
        from: Timestamp,
        to: Timestamp,
        limit: i64,
    ) -> StoreResult<UserVisits> {
        let client = self.client().await?;
        let totals = one(
            &client,
            USER_TOTALS,
            &[&user.0, &from, &to],
            two_ints_from_row,
        )
        .await?;
        let top = all(
            &client,
            USER_TOP_CHAINS,
            &[&user.0, &from, &to, &limit],
            two_ints_from_row,
        )
        .await?;
        Ok(user_visits_from(totals, top))
    }
}

/// Adds a batch of visits in one statement, so no transaction spans round trips: the batch id
/// is claimed (a retry of a batch that committed adds nothing), ids older than
/// `forget_before` are forgotten, and the day rows, new visitors, totals, channel counts,
/// orphan visits and breakdowns are raised only when the claim succeeded.
///
/// Breakdowns are read first (no lock held) and merged here ([`merge_breakdowns`]); the
/// statement writes each row back only if it still holds what was read, and fails as a
/// serialization failure (so the flush runs again from the read) if any had changed. Merged
/// in SQL instead, JSON aggregated per value, they took 1.1-1.3 s of a 2.4 s flush of 12,000
/// chain-days at a million chains (docs/decisions.md, "Statistics").
///
/// Rows are locked in (chain, day), (chain, visitor), chain and channel order, so concurrent
/// batches of several instances wait for each other instead of deadlocking.
pub(super) async fn add_visits(
    client: &impl GenericClient,
    batch: &VisitBatch,
    at: Timestamp,
    forget_before: Timestamp,
) -> StoreResult<bool> {
    let breakdowns = merge_breakdowns(client, &batch.breakdowns).await?;
    write_visits(client, batch, &breakdowns, at, forget_before).await
}

/// The flush's one statement (see [`add_visits`]), with the batch's breakdowns as
/// [`merge_breakdowns`] left them. Returns whether the batch was claimed.
async fn write_visits(
    client: &impl GenericClient,
    batch: &VisitBatch,
    breakdowns: &MergedBreakdowns,
    at: Timestamp,
    forget_before: Timestamp,
) -> StoreResult<bool> {
    let mut daily = batch.daily.clone();
    daily.sort_by_key(|d| (d.chain_id, d.day));
    let mut per_chain: std::collections::BTreeMap<i64, (i64, i64)> = Default::default();
    for d in &daily {
        let entry = per_chain.entry(d.chain_id.0).or_default();
        entry.0 += d.clicks;
        entry.1 += d.bot_clicks;
    }
    let column = |f: fn(&DailyVisits) -> i64| daily.iter().map(f).collect::<Vec<i64>>();
    let mut visitors: Vec<(i64, &[u8])> = batch
        .visitors
        .iter()
        .map(|(chain, key)| (chain.0, &key[..]))
        .collect();
    visitors.sort_unstable();
    let visitor_chains: Vec<i64> = visitors.iter().map(|v| v.0).collect();
    let visitor_keys: Vec<&[u8]> = visitors.iter().map(|v| v.1).collect();
    let click_chains: Vec<i64> = per_chain.keys().copied().collect();
    let clicks: Vec<i64> = per_chain.values().map(|v| v.0).collect();
    let bots: Vec<i64> = per_chain.values().map(|v| v.1).collect();
    let mut channels = batch.channels.clone();
    channels.sort_by_key(|c| (c.channel_id, c.day));
    let channel_ids: Vec<i64> = channels.iter().map(|c| c.channel_id.0).collect();
    let channel_days: Vec<i64> = channels.iter().map(|c| c.day).collect();
    let channel_visits: Vec<i64> = channels.iter().map(|c| c.visits).collect();
    let mut orphans = batch.orphans.clone();
    orphans.sort_by_key(|o| (o.domain_id, o.kind, o.day));
    let orphan_column =
        |f: fn(&crate::store::OrphanVisits) -> i64| orphans.iter().map(f).collect::<Vec<i64>>();
    let (orphan_domains, orphan_kinds) = (
        orphan_column(|o| o.domain_id.0),
        orphan_column(|o| o.kind.code()),
    );
    let (orphan_days, orphan_visits) = (orphan_column(|o| o.day), orphan_column(|o| o.visits));
    let statement = client.prepare_cached(&FLUSH).await.map_err(pg_error)?;
    let (day_chains, days) = (column(|d| d.chain_id.0), column(|d| d.day));
    let (day_clicks, day_bots) = (column(|d| d.clicks), column(|d| d.bot_clicks));
    let rows = breakdowns.rows();
    let mut params: Vec<&(dyn ToSql + Sync)> = vec![
        &batch.id,
        &at,
        &forget_before,
        &day_chains,
        &days,
        &day_clicks,
        &day_bots,
        &visitor_chains,
        &visitor_keys,
        &click_chains,
        &clicks,
        &bots,
        &channel_ids,
        &channel_days,
        &channel_visits,
    ];
    params.extend(breakdowns.days.params());
    params.extend(breakdowns.spans.params());
    params.push(&rows);
    params.extend([
        &orphan_domains as &(dyn ToSql + Sync),
        &orphan_kinds,
        &orphan_days,
        &orphan_visits,
    ]);
    let row = client
        .query_one(&statement, &params)
        .await
        .map_err(pg_error)?;
    row.try_get(0).map_err(pg_error)
}

/// The flush's one statement (see [`add_visits`]): the claim, the counters, and the breakdown
/// rows of both tables ([`BreakdownTable::writes`]), with a check that every merged row was
/// written. New visitors are the rows the unique index lets in; whichever instance inserts a
/// visitor first counts it.
static FLUSH: LazyLock<String> = LazyLock::new(|| {
    format!(
        "WITH claim AS (
                 INSERT INTO visit_batches (id, added_at) VALUES ($1, $2)
                 ON CONFLICT DO NOTHING RETURNING id
             ), forget AS (
                 DELETE FROM visit_batches WHERE added_at < $3
             ), daily AS (
                 INSERT INTO chain_daily_clicks (chain_id, day, clicks, bot_clicks)
                 SELECT t.* FROM unnest($4::bigint[], $5::bigint[], $6::bigint[], $7::bigint[])
                     AS t(chain_id, day, clicks, bot_clicks)
                 WHERE EXISTS (SELECT 1 FROM claim)
                 ORDER BY t.chain_id, t.day
                 ON CONFLICT (chain_id, day) DO UPDATE
                 SET clicks = chain_daily_clicks.clicks + excluded.clicks,
                     bot_clicks = chain_daily_clicks.bot_clicks + excluded.bot_clicks
             ), new_visitors AS (
                 INSERT INTO chain_visitors (chain_id, visitor)
                 SELECT v.* FROM unnest($8::bigint[], $9::bytea[]) AS v(chain_id, visitor)
                 WHERE EXISTS (SELECT 1 FROM claim)
                 ORDER BY v.chain_id, v.visitor
                 ON CONFLICT DO NOTHING RETURNING chain_id
             ), visitors AS (
                 SELECT chain_id, count(*) AS n FROM new_visitors GROUP BY chain_id
             ), clicks AS (
                 SELECT * FROM unnest($10::bigint[], $11::bigint[], $12::bigint[])
                     AS t(chain_id, clicks, bots)
             ), totals AS (
                 INSERT INTO chain_visit_totals (chain_id, clicks, bot_clicks, unique_visitors)
                 SELECT chain_id, coalesce(c.clicks, 0), coalesce(c.bots, 0), coalesce(v.n, 0)
                 FROM clicks c FULL JOIN visitors v USING (chain_id)
                 WHERE EXISTS (SELECT 1 FROM claim)
                 ORDER BY chain_id
                 ON CONFLICT (chain_id) DO UPDATE
                 SET clicks = chain_visit_totals.clicks + excluded.clicks,
                     bot_clicks = chain_visit_totals.bot_clicks + excluded.bot_clicks,
                     unique_visitors = chain_visit_totals.unique_visitors
                                       + excluded.unique_visitors
             ), channel_days AS (
                 INSERT INTO channel_daily_visits (channel_id, day, visits)
                 SELECT t.* FROM unnest($13::bigint[], $14::bigint[], $15::bigint[])
                     AS t(channel_id, day, visits)
                 WHERE EXISTS (SELECT 1 FROM claim)
                 ORDER BY t.channel_id, t.day
                 ON CONFLICT (channel_id, day) DO UPDATE
                 SET visits = channel_daily_visits.visits + excluded.visits
             ), channel_totals AS (
                 UPDATE channels c SET visit_count = c.visit_count + t.visits
                 FROM (SELECT id, sum(v)::bigint AS visits
                       FROM unnest($13::bigint[], $15::bigint[]) AS u(id, v) GROUP BY id) t
                 WHERE c.id = t.id AND EXISTS (SELECT 1 FROM claim)
             ), orphans AS (
                 INSERT INTO orphan_visits (domain_id, kind, day, visits)
                 SELECT t.* FROM unnest($31::bigint[], $32::bigint[], $33::bigint[],
                                        $34::bigint[]) AS t(domain_id, kind, day, visits)
                 WHERE EXISTS (SELECT 1 FROM claim)
                 ORDER BY t.domain_id, t.kind, t.day
                 ON CONFLICT (domain_id, kind, day) DO UPDATE
                 SET visits = orphan_visits.visits + excluded.visits
             ), {days}, {spans}
             SELECT EXISTS (SELECT 1 FROM claim),
                    linkapi_rows_unchanged(
                        CASE WHEN EXISTS (SELECT 1 FROM claim) THEN $30::bigint ELSE 0 END,
                        (SELECT count(*) FROM days_rewritten) + (SELECT count(*) FROM days_added)
                        + (SELECT count(*) FROM spans_rewritten)
                        + (SELECT count(*) FROM spans_added))",
        days = BREAKDOWN_DAYS.writes("days", 16),
        spans = BREAKDOWN_SPANS.writes("spans", 23),
    )
});

#[async_trait]
impl VisitWrites for PgTx<'_> {
    async fn add_visits(
        &mut self,
        batch: &VisitBatch,
        at: Timestamp,
        forget_before: Timestamp,
    ) -> StoreResult<bool> {
        add_visits(&self.tx, batch, at, forget_before).await
    }

    async fn insert_visitor_secret(
        &mut self,
        secret: [u8; 16],
        at: Timestamp,
    ) -> StoreResult<VisitorSecret> {
        let id = one(
            &self.tx,
            "INSERT INTO visitor_secrets (secret, created_at) VALUES ($1, $2) RETURNING id",
            &[&&secret[..], &at],
            super::first,
        )
        .await?
        .ok_or_else(|| StoreError::backend(Misuse("an insert returned no row")))?;
        Ok(VisitorSecret {
            id,
            secret,
            created_at: at,
        })
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::super::schema::pg_cluster;
    use super::super::{PgOptions, PgStore, is_contention};
    use super::{add_visits, merge_breakdowns, write_visits};
    use crate::model::{ChainId, Dimension};
    use crate::store::{BreakdownVisits, DailyVisits, VisitBatch, VisitStore};

    const DAY: i64 = 86_400;
    const D: i64 = 20_000 * DAY;

    /// Batch `id`: one visit of chain 7 on day `D`, referred by `referrer`.
    fn batch(id: &str, referrer: &str) -> VisitBatch {
        VisitBatch {
            id: id.to_owned(),
            daily: vec![DailyVisits {
                chain_id: ChainId(7),
                day: D,
                clicks: 1,
                bot_clicks: 0,
            }],
            breakdowns: vec![BreakdownVisits {
                chain_id: ChainId(7),
                dimension: Dimension::Referrers,
                day: D,
                value: Some(Arc::from(referrer)),
                clicks: 1,
            }],
            ..VisitBatch::default()
        }
    }

    /// A flush whose breakdown rows another flush wrote after it read them writes nothing,
    /// its claim included, and fails as contention: run again from the read, it counts.
    #[tokio::test]
    async fn a_flush_whose_rows_changed_since_it_read_them_writes_nothing() {
        let Some(cluster) = pg_cluster::cluster() else {
            return;
        };
        let store = PgStore::connect(&cluster.new_database(), PgOptions::default())
            .await
            .expect("the store");
        let client = store.client().await.expect("a connection");
        assert!(
            add_visits(&client, &batch("a", "a.example"), D, 0)
                .await
                .expect("a")
        );
        let late = batch("b", "b.example");
        let merged = merge_breakdowns(&client, &late.breakdowns)
            .await
            .expect("b read and merged");
        // Another flush writes the day and span rows in between.
        assert!(
            add_visits(&client, &batch("c", "c.example"), D, 0)
                .await
                .expect("c")
        );
        let refused = write_visits(&client, &late, &merged, D, 0)
            .await
            .expect_err("b's rows changed since it read them");
        assert!(is_contention(&refused), "{refused}");
        let visits = store
            .chain_visits(ChainId(7), D, D + DAY)
            .await
            .expect("visits");
        assert_eq!(visits.clicks, 2, "nothing of b counted");
        // b's claim went with the rest, so its retry counts it, beside what c added.
        assert!(add_visits(&client, &late, D, 0).await.expect("b again"));
        let referrers = store
            .breakdown(ChainId(7), Dimension::Referrers, D, D + DAY, 10)
            .await
            .expect("referrers");
        let values: Vec<(&str, i64)> = referrers
            .top
            .iter()
            .map(|(value, clicks)| (value.as_str(), *clicks))
            .collect();
        assert_eq!(
            values,
            [("a.example", 1), ("b.example", 1), ("c.example", 1)]
        );
        let visits = store
            .chain_visits(ChainId(7), D, D + DAY)
            .await
            .expect("visits");
        assert_eq!(visits.clicks, 3);
    }
}
