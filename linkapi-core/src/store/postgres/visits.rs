//! Visit counters on PostgreSQL.

use std::collections::{BTreeMap, HashMap};

use async_trait::async_trait;
use deadpool_postgres::GenericClient;

use super::{PgStore, PgTx, all, one, pg_error};
use crate::model::{ChainId, Dimension, MAX_BREAKDOWN_VALUES, PageViews, Timestamp, UserId};
use crate::store::breakdowns::{BREAKDOWN_WINDOW, Packed, breakdown_of, by_chain_day};
use crate::store::visits::{
    CHAIN_DAYS, CHAIN_TOTALS, USER_TOP_CHAINS, USER_TOTALS, VISITOR_SECRET, chain_totals_from_row,
    day_visits_from_row, span_of, two_ints_from_row, user_visits_from, visitor_secret_from_row,
    whole_spans,
};
use crate::store::{
    BreakdownCounts, BreakdownVisits, ChainVisits, DailyVisits, Misuse, StoreError, StoreResult,
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

    async fn breakdown(
        &self,
        chain: ChainId,
        dimension: Dimension,
        from: Timestamp,
        to: Timestamp,
        limit: i64,
    ) -> StoreResult<BreakdownCounts> {
        let (spans_from, spans_to) = whole_spans(from, to);
        let rows = self
            .all(
                BREAKDOWN_WINDOW,
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

/// Adds a batch of visits; `client` must be in a transaction. One statement claims the batch
/// id (a retry of a batch that committed adds nothing), forgets ids older than
/// `forget_before`, and raises the day rows, new visitors, totals and channel counts only when
/// the claim succeeded; breakdowns follow (see [`add_breakdowns`]) when it did.
///
/// Rows are locked in (chain, day), (chain, visitor), chain and channel order, so concurrent
/// batches of several instances wait for each other instead of deadlocking.
pub(super) async fn add_visits(
    client: &impl GenericClient,
    batch: &VisitBatch,
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
    // New visitors are the rows the unique index lets in; whichever instance inserts a
    // visitor first counts it.
    let statement = client
        .prepare_cached(
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
             )
             SELECT EXISTS (SELECT 1 FROM claim)",
        )
        .await
        .map_err(pg_error)?;
    let row = client
        .query_one(
            &statement,
            &[
                &batch.id,
                &at,
                &forget_before,
                &column(|d| d.chain_id.0),
                &column(|d| d.day),
                &column(|d| d.clicks),
                &column(|d| d.bot_clicks),
                &visitor_chains,
                &visitor_keys,
                &click_chains,
                &clicks,
                &bots,
                &channel_ids,
                &channel_days,
                &channel_visits,
            ],
        )
        .await
        .map_err(pg_error)?;
    let claimed: bool = row.try_get(0).map_err(pg_error)?;
    if claimed && !batch.breakdowns.is_empty() {
        add_breakdowns(client, &batch.breakdowns).await?;
    }
    Ok(claimed)
}

/// Adds a claimed batch's breakdowns: locks its chain-days (upserted in key order, so
/// concurrent flushes wait for each other instead of deadlocking), keeps each to its cap in
/// Rust, writes them back, and adds what they gained to their spans, in key order, summed by
/// `linkapi_sum_breakdowns` in the upsert (a span needs no lock before it: adding commutes).
/// Two round trips while the days are locked; another instance's flush of the same days waits
/// that long.
async fn add_breakdowns(
    client: &impl GenericClient,
    breakdowns: &[BreakdownVisits],
) -> StoreResult<()> {
    let days = by_chain_day(breakdowns);
    let day_chains: Vec<i64> = days.keys().map(|(chain, _)| *chain).collect();
    let day_starts: Vec<i64> = days.keys().map(|(_, day)| *day).collect();
    let stored: HashMap<(i64, Timestamp), String> = all(
        client,
        "INSERT INTO chain_breakdown_days (chain_id, day, data)
         SELECT chain_id, day, '[]' FROM unnest($1::bigint[], $2::bigint[]) AS t(chain_id, day)
         ORDER BY chain_id, day
         ON CONFLICT (chain_id, day) DO UPDATE SET data = chain_breakdown_days.data
         RETURNING chain_id, day, data",
        &[&day_chains, &day_starts],
        |row| Ok(((row.int(0)?, row.int(1)?), row.text(2)?)),
    )
    .await?
    .into_iter()
    .collect();
    let mut day_data = Vec::with_capacity(days.len());
    let mut spans: BTreeMap<(i64, Timestamp), Packed> = BTreeMap::new();
    for ((chain, day), rows) in days {
        let locked = stored.get(&(chain, day)).ok_or_else(|| {
            StoreError::backend(Misuse("a locked breakdown day was not returned"))
        })?;
        let mut counts = Packed::decode(Some(locked))?;
        let gained = counts.add_day(rows, MAX_BREAKDOWN_VALUES);
        day_data.push(counts.encode()?);
        spans.entry((chain, span_of(day))).or_default().add(&gained);
    }
    let span_chains: Vec<i64> = spans.keys().map(|(chain, _)| *chain).collect();
    let span_starts: Vec<i64> = spans.keys().map(|(_, span)| *span).collect();
    let span_data = spans
        .values()
        .map(Packed::encode)
        .collect::<StoreResult<Vec<String>>>()?;
    let statement = client
        .prepare_cached(
            "WITH days AS (
                 UPDATE chain_breakdown_days d SET data = u.data
                 FROM unnest($1::bigint[], $2::bigint[], $3::text[]) AS u(chain_id, day, data)
                 WHERE (d.chain_id, d.day) = (u.chain_id, u.day)
             )
             INSERT INTO chain_breakdown_spans (chain_id, span, data)
             SELECT s.* FROM unnest($4::bigint[], $5::bigint[], $6::text[])
                 AS s(chain_id, span, data)
             ORDER BY s.chain_id, s.span
             ON CONFLICT (chain_id, span) DO UPDATE
             SET data = linkapi_sum_breakdowns(chain_breakdown_spans.data, excluded.data)",
        )
        .await
        .map_err(pg_error)?;
    client
        .execute(
            &statement,
            &[
                &day_chains,
                &day_starts,
                &day_data,
                &span_chains,
                &span_starts,
                &span_data,
            ],
        )
        .await
        .map_err(pg_error)?;
    Ok(())
}

/// A transaction on a pooled connection, the changes its body published, and the number of

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
