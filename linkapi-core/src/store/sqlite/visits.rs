//! Visit counters on SQLite: the reads, and a flush's transaction. The days a flush counts
//! are kept apart, day first, until folded into the chain-first counters (`recent_days`);
//! reads add them to what was folded.

use std::collections::{BTreeMap, HashMap};

use async_trait::async_trait;
use rusqlite::{OptionalExtension, params};

use super::channels::count_channel_visits;
use super::recent_days::{
    DAYS_BETWEEN, RecentDay, fold_closed_days, recent_days, recent_rows, write_recent_days,
};
use super::value_numbers::ValueNumbers;
use super::{SqliteStore, SqliteTx, all, one};
use crate::model::{ChainId, Dimension, PageViews, Timestamp, UserId};
use crate::store::breakdowns::breakdown_of;
use crate::store::visits::{
    ADD_ORPHAN_VISITS, CHAIN_DAYS, CHAIN_TOTALS, ORPHAN_VISITS, VISITOR_SECRET,
    chain_totals_from_row, day_visits_from_row, orphan_visits_from_row, spans_without_rows,
    two_ints_from_row, user_visits_from, visitor_secret_from_row, whole_spans,
};
use crate::store::{
    BreakdownCounts, ChainVisits, DayVisits, OrphanVisits, StoreError, StoreResult, StoredRow,
    UserVisits, VisitBatch, VisitStore, VisitWrites, VisitorSecret,
};

/// The day rows of a user's live chains (`?1`) in a window of days (`?2` to `?3`), folded
/// and recent (the recent days in the window listed in `?4`, a JSON array: each of the
/// user's chains looked up on each of them), as a subquery of (chain_id, clicks, bot_clicks).
macro_rules! user_days {
    () => {
        "(SELECT d.chain_id, d.clicks, d.bot_clicks
          FROM chains c JOIN chain_daily_clicks d ON d.chain_id = c.id
          WHERE c.user_id = ?1 AND c.deleted_at IS NULL AND d.day >= ?2 AND d.day < ?3
          UNION ALL
          SELECT r.chain_id, r.clicks, r.bot_clicks
          FROM chains c CROSS JOIN json_each(?4) j
          JOIN chain_recent_days r ON r.day = j.value AND r.chain_id = c.id
          WHERE c.user_id = ?1 AND c.deleted_at IS NULL)"
    };
}

/// A user's visits (people's, bots') of live chains in a window of days, as the shared
/// `USER_TOTALS` counts them, recent days included.
const USER_TOTALS_WITH_RECENT: &str = concat!(
    "SELECT CAST(coalesce(sum(clicks), 0) AS BIGINT),
            CAST(coalesce(sum(bot_clicks), 0) AS BIGINT) FROM ",
    user_days!()
);

/// A user's live chains with the most people's visits in a window of days (`?5` of them), as
/// the shared `USER_TOP_CHAINS` ranks them, recent days included.
const USER_TOP_CHAINS_WITH_RECENT: &str = concat!(
    "SELECT chain_id, CAST(sum(clicks) AS BIGINT) AS visits FROM ",
    user_days!(),
    " GROUP BY chain_id HAVING sum(clicks) > 0 ORDER BY visits DESC, chain_id LIMIT ?5"
);

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
            let mut folded = c.prepare_cached(
                "SELECT clicks FROM chain_daily_clicks WHERE chain_id = ?1 AND day = ?2",
            )?;
            let mut recent = c.prepare_cached(
                "SELECT clicks FROM chain_recent_days WHERE day = ?1 AND chain_id = ?2",
            )?;
            let recent_days = recent_days(c, Timestamp::MIN, Timestamp::MAX)?;
            let mut views = HashMap::with_capacity(ids.len());
            for id in ids {
                let history: Option<i64> = history.query_row([id.0], |r| r.get(0)).optional()?;
                let folded: Option<i64> = folded
                    .query_row([id.0, today_start], |r| r.get(0))
                    .optional()?;
                let mut chain = PageViews {
                    today: folded.unwrap_or(0),
                    history: history.unwrap_or(0),
                };
                for &day in &recent_days {
                    let clicks: Option<i64> =
                        recent.query_row([day, id.0], |r| r.get(0)).optional()?;
                    let clicks = clicks.unwrap_or(0);
                    chain.history += clicks;
                    if day == today_start {
                        chain.today += clicks;
                    }
                }
                views.insert(id, chain);
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
            let (mut clicks, mut unique_visitors, mut bot_clicks) =
                one(c, CHAIN_TOTALS, [chain.0], chain_totals_from_row)?.unwrap_or_default();
            let mut daily = all(c, CHAIN_DAYS, [chain.0, from, to], day_visits_from_row)?;
            // Every recent row adds to the totals; those of the window's days to its days.
            let recent = recent_rows(c, chain, Timestamp::MIN, Timestamp::MAX)?;
            if !recent.is_empty() {
                let mut days: BTreeMap<Timestamp, DayVisits> =
                    daily.into_iter().map(|d| (d.day, d)).collect();
                for RecentDay {
                    visits, visitors, ..
                } in recent
                {
                    clicks += visits.clicks;
                    bot_clicks += visits.bot_clicks;
                    unique_visitors += visitors;
                    let in_window = (from..to).contains(&visits.day);
                    if in_window && (visits.clicks != 0 || visits.bot_clicks != 0) {
                        let sum = days.entry(visits.day).or_insert(DayVisits {
                            day: visits.day,
                            ..DayVisits::default()
                        });
                        sum.clicks += visits.clicks;
                        sum.bot_clicks += visits.bot_clicks;
                    }
                }
                daily = days.into_values().collect();
            }
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

    async fn orphan_visits(&self, from: Timestamp) -> StoreResult<Vec<OrphanVisits>> {
        self.read(move |c| all(c, ORPHAN_VISITS, [from], orphan_visits_from_row))
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
            let mut numbers = ValueNumbers::new(c);
            for row in recent_rows(c, chain, from, to)? {
                if let Some(data) = &row.breakdown {
                    rows.push(numbers.decode(data)?.encode()?);
                }
            }
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
            let recent =
                serde_json::to_string(&recent_days(c, from, to)?).map_err(StoreError::backend)?;
            let totals = one(
                c,
                USER_TOTALS_WITH_RECENT,
                params![user.0, from, to, recent],
                two_ints_from_row,
            )?;
            let top = all(
                c,
                USER_TOP_CHAINS_WITH_RECENT,
                params![user.0, from, to, recent, limit],
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
        let mut visitor = conn.prepare_cached(
            "INSERT INTO chain_visitors (chain_id, visitor) VALUES (?1, ?2)
             ON CONFLICT DO NOTHING",
        )?;
        // New visitors per chain, ordered as the batch is (see `VisitBatch`).
        let mut new_visitors: BTreeMap<i64, i64> = BTreeMap::new();
        for (chain, key) in &batch.visitors {
            let inserted = visitor.execute(params![chain.0, &key[..]])?;
            *new_visitors.entry(chain.0).or_default() += inserted as i64;
        }
        write_recent_days(conn, batch, new_visitors)?;
        for c in &batch.channels {
            count_channel_visits(conn, c.channel_id, c.day, c.visits)?;
        }
        let mut orphans = conn.prepare_cached(ADD_ORPHAN_VISITS)?;
        for o in &batch.orphans {
            orphans.execute(params![o.domain_id.0, o.kind.code(), o.day, o.visits])?;
        }
        fold_closed_days(conn)?;
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
