//! Visit counters on PostgreSQL.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::LazyLock;

use async_trait::async_trait;
use deadpool_postgres::GenericClient;
use tokio_postgres::types::ToSql;

use super::{PgStore, PgTx, all, one, pg_error};
use crate::model::{ChainId, Dimension, MAX_BREAKDOWN_VALUES, PageViews, Timestamp, UserId};
use crate::store::breakdowns::{Packed, breakdown_of, by_chain_day, chain_days};
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
/// `forget_before` are forgotten, and the day rows, new visitors, totals, channel counts and
/// breakdowns are raised only when the claim succeeded.
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

/// Reads the rows of a batch's chain-days and of their spans, each tagged with whether it is
/// a span's.
static READ_BREAKDOWNS: LazyLock<String> = LazyLock::new(|| {
    format!(
        "{} UNION ALL {}",
        BREAKDOWN_DAYS.read(1),
        BREAKDOWN_SPANS.read(3)
    )
});

/// A table of breakdown rows, one per chain and day or per chain and span, which the flush
/// reads and writes alike.
struct BreakdownTable {
    name: &'static str,
    /// The key beside the chain: `day` or `span`.
    key: &'static str,
}

const BREAKDOWN_DAYS: BreakdownTable = BreakdownTable {
    name: "chain_breakdown_days",
    key: "day",
};

const BREAKDOWN_SPANS: BreakdownTable = BreakdownTable {
    name: "chain_breakdown_spans",
    key: "span",
};

impl BreakdownTable {
    /// Its rows of the keys in parameters `$first` (chains) and `$first + 1` (days or spans).
    /// The lateral subquery looks each key up in the index: joined plainly to the arrays, the
    /// planner may choose a hash join that reads the whole table.
    fn read(&self, first: usize) -> String {
        let BreakdownTable { name, key } = self;
        let (chains, keys) = (first, first + 1);
        format!(
            "SELECT {is_span}, k.chain_id, k.{key}, r.data
             FROM unnest(${chains}::bigint[], ${keys}::bigint[]) AS k(chain_id, {key})
             CROSS JOIN LATERAL (SELECT data FROM {name} t
                                 WHERE t.chain_id = k.chain_id AND t.{key} = k.{key}
                                 OFFSET 0) AS r",
            is_span = *key == "span",
        )
    }

    /// The flush statement's two writes of this table, `{prefix}_rewritten` and
    /// `{prefix}_added`, from the seven parameters from `$first` ([`MergedRows::params`]):
    /// each row read is rewritten only where it still holds what was read (found by key and
    /// old text, updated by its `ctid`), the rows there were not are inserted unless another
    /// instance did so first; each returns one row per row written.
    fn writes(&self, prefix: &str, first: usize) -> String {
        let BreakdownTable { name, key } = self;
        let [chains, keys, data, read, new_chains, new_keys, new_data] =
            std::array::from_fn::<usize, 7, _>(|at| first + at);
        format!(
            "{prefix}_rewritten AS (
                 UPDATE {name} d SET data = r.data
                 FROM (SELECT u.data, found.row FROM unnest(${chains}::bigint[], ${keys}::bigint[],
                                                              ${data}::text[], ${read}::text[])
                           AS u(chain_id, {key}, data, read)
                       CROSS JOIN LATERAL (
                           SELECT ctid AS row FROM {name} s
                           WHERE s.chain_id = u.chain_id AND s.{key} = u.{key} AND s.data = u.read
                           OFFSET 0) AS found) AS r
                 WHERE d.ctid = r.row AND EXISTS (SELECT 1 FROM claim)
                 RETURNING 1
             ), {prefix}_added AS (
                 INSERT INTO {name} (chain_id, {key}, data)
                 SELECT t.* FROM unnest(${new_chains}::bigint[], ${new_keys}::bigint[],
                                        ${new_data}::text[])
                     AS t(chain_id, {key}, data)
                 WHERE EXISTS (SELECT 1 FROM claim)
                 ON CONFLICT DO NOTHING RETURNING 1
             )"
        )
    }
}

/// A batch's breakdown rows as merged before the flush's statement writes them.
#[derive(Default)]
struct MergedBreakdowns {
    days: MergedRows,
    spans: MergedRows,
}

impl MergedBreakdowns {
    /// The rows the statement is to write.
    fn rows(&self) -> i64 {
        [&self.days, &self.spans]
            .iter()
            .map(|rows| rows.rewritten.chains.len() + rows.added.chains.len())
            .sum::<usize>() as i64
    }
}

/// One table's merged rows: those there were, with what was read, and those there were not.
#[derive(Default)]
struct MergedRows {
    rewritten: Columns,
    added: Columns,
}

impl MergedRows {
    /// Its columns as [`BreakdownTable::writes`] takes them.
    fn params(&self) -> [&(dyn ToSql + Sync); 7] {
        let MergedRows { rewritten, added } = self;
        [
            &rewritten.chains,
            &rewritten.keys,
            &rewritten.data,
            &rewritten.read,
            &added.chains,
            &added.keys,
            &added.data,
        ]
    }

    /// Adds the merged `packed` of `key`, which held `read` (nothing: no row).
    fn push(
        &mut self,
        key: (i64, Timestamp),
        packed: &Packed,
        read: Option<String>,
    ) -> StoreResult<()> {
        let data = packed.encode()?;
        match read {
            Some(read) => {
                self.rewritten.push(key, data);
                self.rewritten.read.push(read);
            }
            None => self.added.push(key, data),
        }
        Ok(())
    }
}

/// Rows, column by column, as `unnest` takes them.
#[derive(Default)]
struct Columns {
    chains: Vec<i64>,
    /// Days or spans.
    keys: Vec<i64>,
    data: Vec<String>,
    /// What each row held when read (rows rewritten only).
    read: Vec<String>,
}

impl Columns {
    fn push(&mut self, (chain, key): (i64, Timestamp), data: String) {
        self.chains.push(chain);
        self.keys.push(key);
        self.data.push(data);
    }
}

/// Reads the day and span rows a batch's breakdowns add to (one statement, no lock held) and
/// merges the batch into them: each chain-day keeps to its cap of values a dimension
/// ([`Packed::add_day`]), and what the days kept is added to their spans.
async fn merge_breakdowns(
    client: &impl GenericClient,
    breakdowns: &[BreakdownVisits],
) -> StoreResult<MergedBreakdowns> {
    let mut merged = MergedBreakdowns::default();
    if breakdowns.is_empty() {
        return Ok(merged);
    }
    let rows = by_chain_day(breakdowns);
    let days: Vec<_> = chain_days(&rows).collect();
    let span_keys: BTreeSet<(i64, Timestamp)> = days
        .iter()
        .map(|&((chain, day), _)| (chain, span_of(day)))
        .collect();
    let (day_chains, day_keys): (Vec<i64>, Vec<i64>) = days.iter().map(|(key, _)| *key).unzip();
    let (span_chains, span_keys): (Vec<i64>, Vec<i64>) = span_keys.into_iter().unzip();
    let read = all(
        client,
        &READ_BREAKDOWNS,
        &[&day_chains, &day_keys, &span_chains, &span_keys],
        |row| Ok((row.flag(0)?, (row.int(1)?, row.int(2)?), row.text(3)?)),
    )
    .await?;
    let (mut stored_days, mut stored_spans) = (HashMap::new(), HashMap::new());
    for (is_span, key, data) in read {
        if is_span {
            &mut stored_spans
        } else {
            &mut stored_days
        }
        .insert(key, data);
    }
    let mut spans: BTreeMap<(i64, Timestamp), Packed> = BTreeMap::new();
    for (key, visits) in days {
        let read = stored_days.remove(&key);
        let mut day = Packed::decode(read.as_deref())?;
        let kept = day.add_day(visits.iter().copied(), MAX_BREAKDOWN_VALUES);
        merged.days.push(key, &day, read)?;
        let (chain, day) = key;
        spans.entry((chain, span_of(day))).or_default().add(&kept);
    }
    for (key, kept) in spans {
        let read = stored_spans.remove(&key);
        let mut span = Packed::decode(read.as_deref())?;
        span.add(&kept);
        merged.spans.push(key, &span, read)?;
    }
    Ok(merged)
}

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
