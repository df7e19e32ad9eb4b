//! Visit counters on SQLite.

use std::collections::{BTreeMap, HashMap};

use async_trait::async_trait;
use rusqlite::{OptionalExtension, params};

use super::channels::count_channel_visits;
use super::{SqliteStore, SqliteTx, all, one};
use crate::model::{ChainId, Dimension, MAX_BREAKDOWN_VALUES, PageViews, Timestamp, UserId};
use crate::store::breakdowns::{Packed, breakdown_of, by_chain_day};
use crate::store::visits::{
    BREAKDOWN_SPAN, CHAIN_DAYS, CHAIN_TOTALS, USER_TOP_CHAINS, USER_TOTALS, VISITOR_SECRET,
    chain_totals_from_row, day_visits_from_row, span_of, spans_without_rows, two_ints_from_row,
    user_visits_from, visitor_secret_from_row, whole_spans,
};
use crate::store::{
    BreakdownCounts, BreakdownVisits, ChainVisits, StoreResult, StoredRow, UserVisits, VisitBatch,
    VisitStore, VisitWrites, VisitorSecret,
};

/// A chain's breakdown rows of the days from `?2` to `?3`.
const DAYS_BETWEEN: &str =
    "SELECT data FROM chain_breakdown_days WHERE chain_id = ?1 AND day >= ?2 AND day < ?3";

#[async_trait]
impl VisitStore for SqliteStore {
    async fn page_views(
        &self,
        ids: &[ChainId],
        today_start: Timestamp,
    ) -> StoreResult<HashMap<ChainId, PageViews>> {
        let ids = ids.to_vec();
        self.read(move |c| {
            let mut history =
                c.prepare_cached("SELECT clicks FROM chain_visit_totals WHERE chain_id = ?1")?;
            let mut today = c.prepare_cached(
                "SELECT clicks FROM chain_daily_clicks WHERE chain_id = ?1 AND day = ?2",
            )?;
            let mut views = HashMap::with_capacity(ids.len());
            for id in ids {
                let history = history.query_row([id.0], |r| r.get(0)).optional()?;
                let today = today
                    .query_row([id.0, today_start], |r| r.get(0))
                    .optional()?;
                views.insert(
                    id,
                    PageViews {
                        today: today.unwrap_or(0),
                        history: history.unwrap_or(0),
                    },
                );
            }
            Ok(views)
        })
        .await
    }

    async fn chain_visits(
        &self,
        chain: ChainId,
        from: Timestamp,
        to: Timestamp,
    ) -> StoreResult<ChainVisits> {
        self.read(move |c| {
            let (clicks, unique_visitors, bot_clicks) =
                one(c, CHAIN_TOTALS, [chain.0], chain_totals_from_row)?.unwrap_or_default();
            let daily = all(c, CHAIN_DAYS, [chain.0, from, to], day_visits_from_row)?;
            Ok(ChainVisits {
                clicks,
                bot_clicks,
                unique_visitors,
                daily,
            })
        })
        .await
    }

    async fn visitor_secret(&self) -> StoreResult<Option<VisitorSecret>> {
        self.read(|c| one(c, VISITOR_SECRET, [], visitor_secret_from_row))
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
        let (spans_from, spans_to) = whole_spans(from, to);
        self.read(move |c| {
            let data = |row: &dyn StoredRow| row.text(0);
            let mut rows = all(c, DAYS_BETWEEN, params![chain.0, from, spans_from], data)?;
            rows.extend(all(c, DAYS_BETWEEN, params![chain.0, spans_to, to], data)?);
            let spans = all(
                c,
                "SELECT span, data FROM chain_breakdown_spans
                 WHERE chain_id = ?1 AND span >= ?2 AND span < ?3",
                params![chain.0, spans_from, spans_to],
                |row| Ok((row.int(0)?, row.text(1)?)),
            )?;
            // A span without a row has one day at most, whose row is its sum.
            let written: Vec<Timestamp> = spans.iter().map(|(span, _)| *span).collect();
            for (run_from, run_to) in spans_without_rows(spans_from, spans_to, &written) {
                rows.extend(all(
                    c,
                    DAYS_BETWEEN,
                    params![chain.0, run_from, run_to],
                    data,
                )?);
            }
            rows.extend(spans.into_iter().map(|(_, data)| data));
            breakdown_of(rows, dimension.code(), limit)
        })
        .await
    }

    async fn user_visits(
        &self,
        user: UserId,
        from: Timestamp,
        to: Timestamp,
        limit: i64,
    ) -> StoreResult<UserVisits> {
        self.read(move |c| {
            let totals = one(c, USER_TOTALS, params![user.0, from, to], two_ints_from_row)?;
            let top = all(
                c,
                USER_TOP_CHAINS,
                params![user.0, from, to, limit],
                two_ints_from_row,
            )?;
            Ok(user_visits_from(totals, top))
        })
        .await
    }
}

#[async_trait]
impl VisitWrites for SqliteTx<'_> {
    async fn add_visits(
        &mut self,
        batch: &VisitBatch,
        at: Timestamp,
        forget_before: Timestamp,
    ) -> StoreResult<bool> {
        let conn = &*self.conn;
        let claimed = conn
            .prepare_cached(
                "INSERT INTO visit_batches (id, added_at) VALUES (?1, ?2) ON CONFLICT DO NOTHING",
            )?
            .execute(params![batch.id, at])?;
        conn.prepare_cached("DELETE FROM visit_batches WHERE added_at < ?1")?
            .execute([forget_before])?;
        if claimed == 0 {
            return Ok(false);
        }
        let mut daily = conn.prepare_cached(
            "INSERT INTO chain_daily_clicks (chain_id, day, clicks, bot_clicks)
             VALUES (?1, ?2, ?3, ?4)
             ON CONFLICT (chain_id, day) DO UPDATE
             SET clicks = clicks + excluded.clicks, bot_clicks = bot_clicks + excluded.bot_clicks",
        )?;
        let mut totals = conn.prepare_cached(
            "INSERT INTO chain_visit_totals (chain_id, clicks, bot_clicks, unique_visitors)
             VALUES (?1, ?2, ?3, ?4)
             ON CONFLICT (chain_id) DO UPDATE
             SET clicks = clicks + excluded.clicks,
                 bot_clicks = bot_clicks + excluded.bot_clicks,
                 unique_visitors = unique_visitors + excluded.unique_visitors",
        )?;
        let mut visitor = conn.prepare_cached(
            "INSERT INTO chain_visitors (chain_id, visitor) VALUES (?1, ?2)
             ON CONFLICT DO NOTHING",
        )?;
        // Per chain: (clicks, bot clicks, new visitors).
        // Ordered, so the totals too are written in index order (see `VisitBatch`).
        let mut added: BTreeMap<ChainId, (i64, i64, i64)> = BTreeMap::new();
        for d in &batch.daily {
            daily.execute(params![d.chain_id.0, d.day, d.clicks, d.bot_clicks])?;
            let entry = added.entry(d.chain_id).or_default();
            entry.0 += d.clicks;
            entry.1 += d.bot_clicks;
        }
        for (chain, key) in &batch.visitors {
            let inserted = visitor.execute(params![chain.0, &key[..]])?;
            added.entry(*chain).or_default().2 += inserted as i64;
        }
        for (chain, (clicks, bots, visitors)) in added {
            totals.execute(params![chain.0, clicks, bots, visitors])?;
        }
        for c in &batch.channels {
            count_channel_visits(conn, c.channel_id, c.day, c.visits)?;
        }
        let mut statements = BreakdownStatements::prepare(conn)?;
        for ((chain, day), rows) in by_chain_day(&batch.breakdowns) {
            statements.add_day(chain, day, rows)?;
        }
        Ok(true)
    }

    async fn insert_visitor_secret(
        &mut self,
        secret: [u8; 16],
        at: Timestamp,
    ) -> StoreResult<VisitorSecret> {
        self.conn.execute(
            "INSERT INTO visitor_secrets (secret, created_at) VALUES (?1, ?2)",
            params![&secret[..], at],
        )?;
        Ok(VisitorSecret {
            id: self.conn.last_insert_rowid(),
            secret,
            created_at: at,
        })
    }
}

/// The statements that add breakdowns, prepared once a batch: a batch adds to thousands of
/// chain-days, and looking each statement up in the cache by its text cost more than running
/// it.
///
/// A chain's span has a row only once two of its days have visits (docs/decisions.md,
/// "Statistics"): until then the one day's row is the span's sum, and the reader takes it. A
/// chain visited on one day of a span, the commonest case at a million chains, then costs
/// its day's row alone: the span's read and write were a third of the writer's time under
/// uniform traffic.
struct BreakdownStatements<'c> {
    read_span_days: rusqlite::CachedStatement<'c>,
    write_day: rusqlite::CachedStatement<'c>,
    read_span: rusqlite::CachedStatement<'c>,
    read_days: rusqlite::CachedStatement<'c>,
    write_span: rusqlite::CachedStatement<'c>,
}

impl<'c> BreakdownStatements<'c> {
    fn prepare(conn: &'c rusqlite::Connection) -> StoreResult<Self> {
        Ok(BreakdownStatements {
            // Every day of the span, but only `?4`'s data: the others' are not decoded.
            read_span_days: conn.prepare_cached(
                "SELECT CASE WHEN day = ?4 THEN data END, day = ?4 FROM chain_breakdown_days
                 WHERE chain_id = ?1 AND day >= ?2 AND day < ?3",
            )?,
            write_day: conn.prepare_cached(
                "INSERT INTO chain_breakdown_days (chain_id, day, data) VALUES (?1, ?2, ?3)
                 ON CONFLICT (chain_id, day) DO UPDATE SET data = excluded.data",
            )?,
            read_span: conn.prepare_cached(
                "SELECT data FROM chain_breakdown_spans WHERE chain_id = ?1 AND span = ?2",
            )?,
            read_days: conn.prepare_cached(DAYS_BETWEEN)?,
            write_span: conn.prepare_cached(
                "INSERT INTO chain_breakdown_spans (chain_id, span, data) VALUES (?1, ?2, ?3)
                 ON CONFLICT (chain_id, span) DO UPDATE SET data = excluded.data",
            )?,
        })
    }

    /// Adds one chain's visits of one day (every dimension's) to the day and, once the span
    /// has another day, to its span. The writer is the only one, so reading the rows and
    /// writing them back is exact.
    fn add_day(
        &mut self,
        chain: i64,
        day: Timestamp,
        rows: Vec<&BreakdownVisits>,
    ) -> StoreResult<()> {
        let span = span_of(day);
        let span_end = span + BREAKDOWN_SPAN;
        let mut stored: Option<String> = None;
        let mut other_days = false;
        let mut days = self
            .read_span_days
            .query(params![chain, span, span_end, day])?;
        while let Some(row) = days.next()? {
            if row.get::<_, bool>(1)? {
                stored = row.get(0)?;
            } else {
                other_days = true;
            }
        }
        let mut counts = Packed::decode(stored.as_deref())?;
        let gained = counts.add_day(rows, MAX_BREAKDOWN_VALUES);
        self.write_day
            .execute(params![chain, day, counts.encode()?])?;
        if !other_days {
            return Ok(());
        }
        let stored: Option<String> = self
            .read_span
            .query_row(params![chain, span], |r| r.get(0))
            .optional()?;
        let sums = match stored {
            Some(stored) => {
                let mut sums = Packed::decode(Some(&stored))?;
                sums.add(&gained);
                sums
            }
            // The span's second day: its row starts as the sum of its days, this one's
            // written above included.
            None => {
                let mut sums = Packed::default();
                let mut days = self.read_days.query(params![chain, span, span_end])?;
                while let Some(row) = days.next()? {
                    sums.add(&Packed::decode(Some(&row.get::<_, String>(0)?))?);
                }
                sums
            }
        };
        self.write_span
            .execute(params![chain, span, sums.encode()?])?;
        Ok(())
    }
}
