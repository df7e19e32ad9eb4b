//! Visits: counters per chain and day, unique visitors, and the secret visitors are hashed
//! with.

use std::collections::HashMap;

use async_trait::async_trait;

use super::{Misuse, StoreError, StoreResult, StoredRow};
use crate::model::{
    ChainId, ChannelId, Dimension, DomainId, OrphanKind, PageViews, Timestamp, UserId,
};

/// A visitor as counted: a keyed hash of the client address and user agent (see
/// [`VisitorSecret`]). Addresses themselves are never stored.
pub type VisitorKey = [u8; 16];

/// The key visitor hashes are made with. The newest one is in use; rotating adds a new one.
#[derive(Clone, PartialEq, Eq)]
pub struct VisitorSecret {
    /// Increases with every rotation.
    pub id: i64,
    /// The hash key.
    pub secret: [u8; 16],
    /// When it was made.
    pub created_at: Timestamp,
}

impl std::fmt::Debug for VisitorSecret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("VisitorSecret")
            .field("id", &self.id)
            .field("created_at", &self.created_at)
            .finish_non_exhaustive()
    }
}

/// The visitor secret in use: the newest.
pub(crate) const VISITOR_SECRET: &str =
    "SELECT id, secret, created_at FROM visitor_secrets ORDER BY id DESC LIMIT 1";

pub(crate) fn visitor_secret_from_row(row: &dyn StoredRow) -> StoreResult<VisitorSecret> {
    let secret = <[u8; 16]>::try_from(row.bytes(1)?.as_slice())
        .map_err(|_| StoreError::backend(Misuse("a visitor secret is not 16 bytes")))?;
    Ok(VisitorSecret {
        id: row.int(0)?,
        secret,
        created_at: row.int(2)?,
    })
}

/// Visits of one chain on one day, added up in memory.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DailyVisits {
    /// The chain visited.
    pub chain_id: ChainId,
    /// The first second of the day (see [`crate::clock::Calendar`]).
    pub day: Timestamp,
    /// Visits by people.
    pub clicks: i64,
    /// Visits by crawlers, link previews and `HEAD` requests.
    pub bot_clicks: i64,
}

/// Visits added up in memory, written in one transaction, at most once: the store remembers
/// `id` with the counts, so a batch retried after a commit whose answer was lost adds nothing.
#[derive(Debug, Clone, Default)]
pub struct VisitBatch {
    /// Unique per batch.
    pub id: String,
    /// Per chain and day, in that order.
    pub daily: Vec<DailyVisits>,
    /// Visitors seen (people only), in order; those the chain never had before raise its
    /// unique count.
    pub visitors: Vec<(ChainId, VisitorKey)>,
    /// Visits of channels without a limit, per channel and day in that order (limited ones
    /// are counted as they are taken, by [`crate::store::ChannelWrites::take_channel_visit`]).
    pub channels: Vec<ChannelVisits>,
    /// People's visits per chain, dimension, day and value, in that order.
    pub breakdowns: Vec<BreakdownVisits>,
    /// Orphan visits per domain, kind and day.
    pub orphans: Vec<OrphanVisits>,
    /// Visits are piling up faster than they are written: the store should write this batch
    /// as fast as it can rather than give way to requests (see the SQLite writer's yield).
    pub behind: bool,
}

/// People's visits of one chain on one day that had one value of one dimension.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BreakdownVisits {
    /// The chain visited.
    pub chain_id: ChainId,
    /// What the value is of.
    pub dimension: Dimension,
    /// The first second of the day.
    pub day: Timestamp,
    /// The value, shared with the visit counter's one copy of it; `None` for visits already
    /// past the cap of distinct values
    /// ([`crate::model::MAX_BREAKDOWN_VALUES`]), counted as "other".
    pub value: Option<std::sync::Arc<str>>,
    /// Visits.
    pub clicks: i64,
}

/// Orphan visits (requests that reached no chain) of one domain, kind and day.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OrphanVisits {
    /// The domain asked (the default domain for a host that names none).
    pub domain_id: DomainId,
    /// What was asked for.
    pub kind: OrphanKind,
    /// The first second of the day.
    pub day: Timestamp,
    /// Requests (people's and bots' alike).
    pub visits: i64,
}

/// Orphan visits of the days that start at or after `$1`.
pub(crate) const ORPHAN_VISITS: &str = "SELECT domain_id, kind, day, visits FROM orphan_visits
     WHERE day >= $1 ORDER BY domain_id, kind, day";

/// Adds one domain's orphan visits of one kind and day (SQLite; PostgreSQL adds them in its
/// flush statement).
pub(crate) const ADD_ORPHAN_VISITS: &str =
    "INSERT INTO orphan_visits (domain_id, kind, day, visits) VALUES ($1, $2, $3, $4)
     ON CONFLICT (domain_id, kind, day) DO UPDATE SET visits = orphan_visits.visits + excluded.visits";

/// A row of [`ORPHAN_VISITS`].
pub(crate) fn orphan_visits_from_row(row: &dyn StoredRow) -> StoreResult<OrphanVisits> {
    let kind = row.int(1)?;
    Ok(OrphanVisits {
        domain_id: DomainId(row.int(0)?),
        kind: OrphanKind::from_code(kind)
            .ok_or_else(|| StoreError::backend(Misuse("an orphan visit of no known kind")))?,
        day: row.int(2)?,
        visits: row.int(3)?,
    })
}

/// Visits of one channel on one day, added up in memory.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ChannelVisits {
    /// The channel.
    pub channel_id: ChannelId,
    /// The first second of the day.
    pub day: Timestamp,
    /// Visits (people and bots).
    pub visits: i64,
}

/// A chain's visit figures over a window of days.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ChainVisits {
    /// Visits by people, ever.
    pub clicks: i64,
    /// Visits by crawlers, link previews and `HEAD` requests, ever.
    pub bot_clicks: i64,
    /// Distinct visitors (people), ever.
    pub unique_visitors: i64,
    /// Visits per day in the window, days without visits left out.
    pub daily: Vec<DayVisits>,
}

/// A chain's visits on one day.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct DayVisits {
    /// The day's first second.
    pub day: Timestamp,
    /// Visits by people.
    pub clicks: i64,
    /// Visits by crawlers, link previews and `HEAD` requests.
    pub bot_clicks: i64,
}

/// A chain's totals, ever: clicks, unique visitors, bot clicks.
pub(crate) const CHAIN_TOTALS: &str =
    "SELECT clicks, unique_visitors, bot_clicks FROM chain_visit_totals WHERE chain_id = $1";

/// A chain's clicks per day in a window of days.
pub(crate) const CHAIN_DAYS: &str = "SELECT day, clicks, bot_clicks FROM chain_daily_clicks
     WHERE chain_id = $1 AND day >= $2 AND day < $3 ORDER BY day";

/// The length of a span of days whose breakdowns are also kept added up (30 days), in
/// seconds from the epoch: a day belongs to the span its first second is in, whatever the
/// calendar's zone. The schemas' migrations spell it out as 2592000.
pub(crate) const BREAKDOWN_SPAN: i64 = 30 * 86_400;

/// The first second of the span a day belongs to.
pub(crate) fn span_of(day: Timestamp) -> Timestamp {
    day - day.rem_euclid(BREAKDOWN_SPAN)
}

/// The whole spans within a window of days from `from` to `to`: the first one's first second
/// and the last one's end, or `(to, to)` when none is whole (every day then read one by one).
pub(crate) fn whole_spans(from: Timestamp, to: Timestamp) -> (Timestamp, Timestamp) {
    let first = from + (BREAKDOWN_SPAN - from.rem_euclid(BREAKDOWN_SPAN)) % BREAKDOWN_SPAN;
    let end = span_of(to);
    if first < end { (first, end) } else { (to, to) }
}

/// The runs of whole spans from `first` to `end` (as [`whole_spans`] gives them) that have no
/// row among `written`, each from its first span's first second to its last span's end: on
/// SQLite a span is written once it has two days, and the days of the others are read
/// instead, a run at a time.
pub(crate) fn spans_without_rows(
    first: Timestamp,
    end: Timestamp,
    written: &[Timestamp],
) -> Vec<(Timestamp, Timestamp)> {
    let mut runs: Vec<(Timestamp, Timestamp)> = Vec::new();
    let mut span = first;
    while span < end {
        if !written.contains(&span) {
            match runs.last_mut() {
                Some((_, run_end)) if *run_end == span => *run_end = span + BREAKDOWN_SPAN,
                _ => runs.push((span, span + BREAKDOWN_SPAN)),
            }
        }
        span += BREAKDOWN_SPAN;
    }
    runs
}

/// A user's visits (people's, bots') of live chains in a window of days.
pub(crate) const USER_TOTALS: &str = "SELECT CAST(coalesce(sum(d.clicks), 0) AS BIGINT),
     CAST(coalesce(sum(d.bot_clicks), 0) AS BIGINT)
     FROM chains c JOIN chain_daily_clicks d ON d.chain_id = c.id
     WHERE c.user_id = $1 AND c.deleted_at IS NULL AND d.day >= $2 AND d.day < $3";

/// A user's live chains with the most people's visits in a window of days: `$4` of them.
pub(crate) const USER_TOP_CHAINS: &str =
    "SELECT d.chain_id, CAST(sum(d.clicks) AS BIGINT) AS visits
     FROM chains c JOIN chain_daily_clicks d ON d.chain_id = c.id
     WHERE c.user_id = $1 AND c.deleted_at IS NULL AND d.day >= $2 AND d.day < $3
     GROUP BY d.chain_id HAVING sum(d.clicks) > 0
     ORDER BY visits DESC, d.chain_id LIMIT $4";

/// A row of [`USER_TOP_CHAINS`] or [`USER_TOTALS`]: two integers.
pub(crate) fn two_ints_from_row(row: &dyn StoredRow) -> StoreResult<(i64, i64)> {
    Ok((row.int(0)?, row.int(1)?))
}

/// [`UserVisits`] of the row of [`USER_TOTALS`] and the rows of [`USER_TOP_CHAINS`].
pub(crate) fn user_visits_from(totals: Option<(i64, i64)>, top: Vec<(i64, i64)>) -> UserVisits {
    let (clicks, bot_clicks) = totals.unwrap_or_default();
    UserVisits {
        clicks,
        bot_clicks,
        top: top.into_iter().map(|(id, n)| (ChainId(id), n)).collect(),
    }
}

/// A user's visits of their live chains over a window of days.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct UserVisits {
    /// Visits by people.
    pub clicks: i64,
    /// Visits by bots.
    pub bot_clicks: i64,
    /// The chains with the most visits by people, most first (ties by id), none without.
    pub top: Vec<(ChainId, i64)>,
}

/// A chain's people's visits per value of one dimension over a window of days.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct BreakdownCounts {
    /// The values with the most visits, most first (ties by value).
    pub top: Vec<(String, i64)>,
    /// Visits of every value kept, the top ones included.
    pub total: i64,
    /// Visits with a value past its day's cap of distinct values.
    pub past_cap: i64,
}

/// A row of [`CHAIN_TOTALS`]: (clicks, unique visitors, bot clicks).
pub(crate) fn chain_totals_from_row(row: &dyn StoredRow) -> StoreResult<(i64, i64, i64)> {
    Ok((row.int(0)?, row.int(1)?, row.int(2)?))
}

/// A row of [`CHAIN_DAYS`].
pub(crate) fn day_visits_from_row(row: &dyn StoredRow) -> StoreResult<DayVisits> {
    Ok(DayVisits {
        day: row.int(0)?,
        clicks: row.int(1)?,
        bot_clicks: row.int(2)?,
    })
}

/// Visit counters.
#[async_trait]
pub trait VisitStore: Send + Sync {
    /// Page views of the given chains, with "today" starting at `today_start`.
    async fn page_views(
        &self,
        ids: &[ChainId],
        today_start: Timestamp,
    ) -> StoreResult<HashMap<ChainId, PageViews>>;
    /// A chain's figures, with the days that start in `from..to`.
    async fn chain_visits(
        &self,
        chain: ChainId,
        from: Timestamp,
        to: Timestamp,
    ) -> StoreResult<ChainVisits>;
    /// The visitor secret in use: the newest.
    async fn visitor_secret(&self) -> StoreResult<Option<VisitorSecret>>;
    /// A chain's people's visits per value of `dimension`, with the days that start in
    /// `from..to`: the `limit` values with the most.
    async fn breakdown(
        &self,
        chain: ChainId,
        dimension: Dimension,
        from: Timestamp,
        to: Timestamp,
        limit: i64,
    ) -> StoreResult<BreakdownCounts>;
    /// `user`'s visits of their live chains with the days that start in `from..to`, and the
    /// `limit` chains with the most.
    async fn user_visits(
        &self,
        user: UserId,
        from: Timestamp,
        to: Timestamp,
        limit: i64,
    ) -> StoreResult<UserVisits>;
    /// Orphan visits of the days that start at or after `from`, by domain, kind and day.
    async fn orphan_visits(&self, from: Timestamp) -> StoreResult<Vec<OrphanVisits>>;
}

/// Writes to visit counters. A batch's breakdowns keep to
/// [`crate::model::MAX_BREAKDOWN_VALUES`] values per chain, dimension and day however many
/// instances write at once: a value new to its day is added only while the day has room, and
/// its visits are counted past the cap otherwise.
#[async_trait]
pub trait VisitWrites: Send {
    /// Adds a batch of visits unless a batch with its id was added before (returns `false`
    /// then), and forgets the ids of batches added before `forget_before`.
    async fn add_visits(
        &mut self,
        batch: &VisitBatch,
        at: Timestamp,
        forget_before: Timestamp,
    ) -> StoreResult<bool>;
    /// Adds a visitor secret, which becomes the one in use.
    async fn insert_visitor_secret(
        &mut self,
        secret: [u8; 16],
        at: Timestamp,
    ) -> StoreResult<VisitorSecret>;
}

#[cfg(test)]
mod tests {
    use super::{BREAKDOWN_SPAN, span_of, spans_without_rows, whole_spans};

    const DAY: i64 = 86_400;

    #[test]
    fn whole_spans_are_the_spans_inside_the_window() {
        let span = 20_000 * BREAKDOWN_SPAN;
        assert_eq!(span_of(span + 5 * DAY), span);
        assert_eq!(span_of(span), span);
        // A window from a span's first day to another's takes both ends exactly.
        assert_eq!(
            whole_spans(span, span + 2 * BREAKDOWN_SPAN),
            (span, span + 2 * BREAKDOWN_SPAN)
        );
        // Partial spans at either end are left to the days.
        assert_eq!(
            whole_spans(span - DAY, span + BREAKDOWN_SPAN + DAY),
            (span, span + BREAKDOWN_SPAN)
        );
        // No whole span: every day read one by one.
        let to = span + BREAKDOWN_SPAN - DAY;
        assert_eq!(whole_spans(span + DAY, to), (to, to));
        assert_eq!(
            whole_spans(span - DAY, span + DAY),
            (span + DAY, span + DAY)
        );
    }

    #[test]
    fn spans_without_rows_come_in_runs() {
        let s = |n: i64| 20_000 * BREAKDOWN_SPAN + n * BREAKDOWN_SPAN;
        // Spans 0..6 with rows for 2 and 5: the runs 0-1, 3-4.
        assert_eq!(
            spans_without_rows(s(0), s(6), &[s(5), s(2)]),
            [(s(0), s(2)), (s(3), s(5))]
        );
        assert_eq!(spans_without_rows(s(0), s(3), &[]), [(s(0), s(3))]);
        assert!(spans_without_rows(s(0), s(2), &[s(0), s(1)]).is_empty());
        // No whole span (`whole_spans` gives an empty range).
        assert!(spans_without_rows(s(4), s(4), &[]).is_empty());
    }
}
