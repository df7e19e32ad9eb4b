//! Visits of recent days, kept apart from the chain-first counters until folded into them.
//!
//! A flush writes the days it counts into `chain_recent_days`, a row per day and chain with
//! the day's clicks and breakdown, day first: a flush's chain-days sit next to each other
//! there, where in the chain-first tables each sits beside its chain's history, so that a
//! flush of visits spread over a million chains dirtied a page or more per chain-day in each
//! of them. Once a flush counts a later day, earlier days' rows are folded into the
//! chain-first tables (`chain_daily_clicks`, `chain_breakdown_days` and their spans) in
//! (day, chain) order, [`FOLD_CHUNK`] rows a flush, each in the flush's transaction and gone
//! from `chain_recent_days` once added. Reads add a chain's rows of the recent days they
//! cover to what was folded. A late visit of a folded day gets a recent row of its own, folded
//! in its turn by adding to the day. The totals (`chain_visit_totals`) are folded the same
//! way: a recent row also counts its chain's new visitors, and a chain's totals are its
//! totals row and its recent rows. Only the visitors themselves (`chain_visitors`), which
//! decide whether a visitor is new, are written by every flush. A recent row's breakdown
//! names its values by number (`value_numbers`), which keeps the rows, and so the pages a
//! flush rewrites, few.

use std::collections::BTreeMap;

use rusqlite::{OptionalExtension, params};

use super::value_numbers::{FITS, MERGE, RecentData, ValueNumbers};
use crate::model::{ChainId, MAX_BREAKDOWN_VALUES, Timestamp};
use crate::store::breakdowns::{Packed, by_chain_day, chain_days};
use crate::store::visits::{BREAKDOWN_SPAN, span_of};
use crate::store::{BreakdownVisits, DailyVisits, DayVisits, StoreError, StoreResult, VisitBatch};

/// A chain's breakdown rows of the days from `?2` to `?3`.
pub(super) const DAYS_BETWEEN: &str =
    "SELECT data FROM chain_breakdown_days WHERE chain_id = ?1 AND day >= ?2 AND day < ?3";

/// A chain's row of one recent day (`?1`): clicks, bot clicks, new visitors, breakdown.
const RECENT_DAY: &str = "SELECT clicks, bot_clicks, visitors, data FROM chain_recent_days
     WHERE day = ?1 AND chain_id = ?2";

/// Adds clicks, bot clicks and new visitors (`?2` to `?4`) to a chain's (`?1`) totals.
const ADD_TO_TOTALS: &str =
    "INSERT INTO chain_visit_totals (chain_id, clicks, bot_clicks, unique_visitors)
     VALUES (?1, ?2, ?3, ?4)
     ON CONFLICT (chain_id) DO UPDATE
     SET clicks = clicks + excluded.clicks,
         bot_clicks = bot_clicks + excluded.bot_clicks,
         unique_visitors = unique_visitors + excluded.unique_visitors";

/// Rows of `chain_recent_days` folded into the chain-first tables with each flush, at most: a
/// day of a million chains' rows takes 200 flushes, and no flush (nor a create queued behind
/// it) waits for a whole day's fold.
const FOLD_CHUNK: i64 = 5_000;

/// The days from `from` to `to` that have recent rows, in order: a seek each.
pub(super) fn recent_days(
    c: &rusqlite::Connection,
    from: Timestamp,
    to: Timestamp,
) -> StoreResult<Vec<Timestamp>> {
    let mut next =
        c.prepare_cached("SELECT min(day) FROM chain_recent_days WHERE day >= ?1 AND day < ?2")?;
    let mut days = Vec::new();
    let mut from = from;
    while let Some(day) = next.query_row([from, to], |r| r.get::<_, Option<Timestamp>>(0))? {
        days.push(day);
        from = day + 1;
    }
    Ok(days)
}

/// A chain's row of a recent day: what has not been folded yet.
pub(super) struct RecentDay {
    pub(super) visits: DayVisits,
    /// The chain's new visitors it counts.
    pub(super) visitors: i64,
    /// Its breakdown's `data`.
    pub(super) breakdown: Option<RecentData>,
}

/// A chain's rows of the recent days from `from` to `to`.
pub(super) fn recent_rows(
    c: &rusqlite::Connection,
    chain: ChainId,
    from: Timestamp,
    to: Timestamp,
) -> StoreResult<Vec<RecentDay>> {
    let mut row = c.prepare_cached(RECENT_DAY)?;
    let mut rows = Vec::new();
    for day in recent_days(c, from, to)? {
        let found = row
            .query_row(params![day, chain.0], |r| {
                Ok(RecentDay {
                    visits: DayVisits {
                        day,
                        clicks: r.get(0)?,
                        bot_clicks: r.get(1)?,
                    },
                    visitors: r.get(2)?,
                    breakdown: r.get(3)?,
                })
            })
            .optional()?;
        rows.extend(found);
    }
    Ok(rows)
}

/// A chain-day of a batch, as `chain_recent_days` gets it.
struct ChainDay<'a> {
    day: Timestamp,
    chain: i64,
    clicks: i64,
    bot_clicks: i64,
    /// The chain's new visitors, on its latest day in the batch.
    visitors: i64,
    /// Its breakdown's visits, if it has any, in dimension and value order.
    breakdown: Option<&'a [&'a BreakdownVisits]>,
}

/// A chain-day of a breakdown without its day's clicks: no batch the service makes has one,
/// but it would still count.
fn breakdown_alone<'a>(
    ((chain, day), rows): ((i64, Timestamp), &'a [&'a BreakdownVisits]),
) -> ChainDay<'a> {
    ChainDay {
        day,
        chain,
        clicks: 0,
        bot_clicks: 0,
        visitors: 0,
        breakdown: Some(rows),
    }
}

/// Writes a batch's chain-days into `chain_recent_days`, in (day, chain) order: each
/// one's clicks and bot clicks added to its row, its chain's `new_visitors` to the chain's
/// latest day in the batch, and its breakdown, when it has one, added to the row's (the day
/// keeps to [`MAX_BREAKDOWN_VALUES`] values a dimension).
///
/// A chain-day is one statement: the breakdown's numbers are added to the row's by SQL
/// functions (`value_numbers`) in the upsert itself, rather than read out, merged and written
/// back (at a million chains under Zipf traffic, the read and the merge were a quarter of
/// the writer's CPU; docs/decisions.md, "Statistics"). Where those functions cannot keep to
/// the cap, the upsert changes nothing and the row is merged here.
pub(super) fn write_recent_days(
    conn: &rusqlite::Connection,
    batch: &VisitBatch,
    mut new_visitors: BTreeMap<i64, i64>,
) -> StoreResult<()> {
    let mut write = conn.prepare_cached(&format!(
        "INSERT INTO chain_recent_days (day, chain_id, clicks, bot_clicks, visitors, data)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6)
         ON CONFLICT (day, chain_id) DO UPDATE
         SET clicks = clicks + excluded.clicks, bot_clicks = bot_clicks + excluded.bot_clicks,
             visitors = visitors + excluded.visitors, data = {MERGE}(data, excluded.data)
         WHERE {FITS}(data, excluded.data)"
    ))?;
    let mut numbers = ValueNumbers::new(conn);
    // The breakdowns by chain-day and the day rows, in the same order, walked together.
    let rows = by_chain_day(&batch.breakdowns);
    let mut breakdowns = chain_days(&rows).peekable();
    let mut daily: Vec<&DailyVisits> = batch.daily.iter().collect();
    daily.sort_by_key(|d| (d.chain_id.0, d.day));
    let mut days: Vec<ChainDay<'_>> = Vec::with_capacity(daily.len());
    for d in daily {
        let at = (d.chain_id.0, d.day);
        while let Some(alone) = breakdowns.next_if(|(key, _)| *key < at) {
            days.push(breakdown_alone(alone));
        }
        days.push(ChainDay {
            day: d.day,
            chain: d.chain_id.0,
            clicks: d.clicks,
            bot_clicks: d.bot_clicks,
            visitors: 0,
            breakdown: breakdowns
                .next_if(|(key, _)| *key == at)
                .map(|(_, rows)| rows),
        });
    }
    days.extend(breakdowns.map(breakdown_alone));
    days.sort_unstable_by_key(|d| (d.day, d.chain));
    // A chain's new visitors go with its latest day: met first walking back from the end.
    for day in days.iter_mut().rev() {
        day.visitors = new_visitors.remove(&day.chain).unwrap_or(0);
    }
    // Visitors of a chain without a day in the batch (a batch has the day of every person's
    // visit; one that did not would still count) go straight to its totals.
    let mut totals = conn.prepare_cached(ADD_TO_TOTALS)?;
    for (chain, visitors) in new_visitors {
        if visitors > 0 {
            totals.execute(params![chain, 0, 0, visitors])?;
        }
    }
    for day in &days {
        let added = match day.breakdown {
            // No more values than one dimension may keep: no cap can change them.
            Some(rows) if rows.len() <= MAX_BREAKDOWN_VALUES as usize => {
                Some(numbers.encode_rows(rows)?)
            }
            Some(rows) => {
                let mut added = Packed::default();
                added.extend_day(rows.iter().copied(), MAX_BREAKDOWN_VALUES);
                Some(numbers.encode(&added)?)
            }
            None => None,
        };
        let written = write.execute(params![
            day.day,
            day.chain,
            day.clicks,
            day.bot_clicks,
            day.visitors,
            added
        ])?;
        if written == 0 {
            merge_here(conn, &mut numbers, day)?;
        }
    }
    Ok(())
}

/// A recent row the writer found a moment before was not there to add to: never, as the
/// writer alone writes these rows, but the batch is then written again rather than lost.
#[derive(Debug, thiserror::Error)]
#[error("a recent row was gone before its visits were added")]
struct RowGone;

/// Adds `day` to its row, which the upsert found, merging the breakdowns in Rust: for a row
/// whose breakdown the SQL functions could not add to within the cap.
fn merge_here(
    conn: &rusqlite::Connection,
    numbers: &mut ValueNumbers<'_>,
    day: &ChainDay<'_>,
) -> StoreResult<()> {
    let stored: Option<RecentData> = conn
        .prepare_cached("SELECT data FROM chain_recent_days WHERE day = ?1 AND chain_id = ?2")?
        .query_row(params![day.day, day.chain], |r| r.get(0))
        .optional()?
        .flatten();
    let mut counts = match &stored {
        Some(stored) => numbers.decode(stored)?,
        None => Packed::default(),
    };
    if let Some(rows) = day.breakdown {
        counts.extend_day(rows.iter().copied(), MAX_BREAKDOWN_VALUES);
    }
    let data = numbers.encode(&counts)?;
    let updated = conn
        .prepare_cached(
            "UPDATE chain_recent_days
         SET clicks = clicks + ?3, bot_clicks = bot_clicks + ?4, visitors = visitors + ?5,
             data = ?6
         WHERE day = ?1 AND chain_id = ?2",
        )?
        .execute(params![
            day.day,
            day.chain,
            day.clicks,
            day.bot_clicks,
            day.visitors,
            data
        ])?;
    if updated == 0 {
        return Err(StoreError::backend(RowGone));
    }
    Ok(())
}

/// Folds a chunk of the days that are over into the chain-first counters: every day before
/// the newest one counted.
pub(super) fn fold_closed_days(conn: &rusqlite::Connection) -> StoreResult<()> {
    // Every day before the newest one counted is over. A late visit of one (counted
    // before midnight, flushed after) whose chain's row of that day was folded already
    // gets a row that sorts before the day's rows still waiting (rows are folded in
    // (day, chain) order), so it is folded into its day by this very flush, unless an
    // older day's rows are still waiting.
    let newest: Option<Timestamp> =
        conn.query_row("SELECT max(day) FROM chain_recent_days", [], |r| r.get(0))?;
    if let Some(newest) = newest {
        fold_recent_days(conn, newest, FOLD_CHUNK)?;
    }
    Ok(())
}

/// A row of `chain_recent_days`.
struct ChainDayRow {
    day: Timestamp,
    chain: i64,
    clicks: i64,
    bot_clicks: i64,
    visitors: i64,
    data: Option<RecentData>,
}

/// Folds up to `limit` rows of `chain_recent_days` of days before `before` into the
/// chain-first tables, oldest day first and in chain order within a day (so that each
/// table's pages are written one after another), and deletes them. Returns how many it
/// folded.
pub(in crate::store) fn fold_recent_days(
    conn: &rusqlite::Connection,
    before: Timestamp,
    limit: i64,
) -> StoreResult<usize> {
    let rows = conn
        .prepare_cached(
            "SELECT day, chain_id, clicks, bot_clicks, visitors, data FROM chain_recent_days
             WHERE day < ?1 ORDER BY day, chain_id LIMIT ?2",
        )?
        .query_map(params![before, limit], |row| {
            Ok(ChainDayRow {
                day: row.get(0)?,
                chain: row.get(1)?,
                clicks: row.get(2)?,
                bot_clicks: row.get(3)?,
                visitors: row.get(4)?,
                data: row.get(5)?,
            })
        })?
        .collect::<rusqlite::Result<Vec<_>>>()?;
    if rows.is_empty() {
        return Ok(0);
    }
    let mut daily = conn.prepare_cached(
        "INSERT INTO chain_daily_clicks (chain_id, day, clicks, bot_clicks)
         VALUES (?1, ?2, ?3, ?4)
         ON CONFLICT (chain_id, day) DO UPDATE
         SET clicks = clicks + excluded.clicks, bot_clicks = bot_clicks + excluded.bot_clicks",
    )?;
    let mut totals = conn.prepare_cached(ADD_TO_TOTALS)?;
    let mut delete =
        conn.prepare_cached("DELETE FROM chain_recent_days WHERE day = ?1 AND chain_id = ?2")?;
    let mut breakdowns = BreakdownStatements::prepare(conn)?;
    let mut numbers = ValueNumbers::new(conn);
    for row in &rows {
        let (day, chain) = (row.day, row.chain);
        // A row of a breakdown or visitors alone (no batch makes one) adds no day of visits.
        if row.clicks != 0 || row.bot_clicks != 0 {
            daily.execute(params![chain, day, row.clicks, row.bot_clicks])?;
        }
        if row.clicks != 0 || row.bot_clicks != 0 || row.visitors != 0 {
            totals.execute(params![chain, row.clicks, row.bot_clicks, row.visitors])?;
        }
        if let Some(data) = &row.data {
            breakdowns.add_day(chain, day, &numbers.decode(data)?)?;
        }
        delete.execute(params![day, chain])?;
    }
    Ok(rows.len())
}

/// The statements that fold breakdowns into their days and spans, prepared once a fold: a
/// fold adds to thousands of chain-days, and looking each statement up in the cache by its
/// text cost more than running it.
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
    fn add_day(&mut self, chain: i64, day: Timestamp, added: &Packed) -> StoreResult<()> {
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
        let gained = counts.add_to_day(added, MAX_BREAKDOWN_VALUES);
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

#[cfg(test)]
mod tests;
