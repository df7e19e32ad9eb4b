//! Chain statistics, read from the visit counters the pipeline writes: a totals row and one
//! row per day with visits, so a call costs O(days) whatever the number of visits.

use std::collections::HashMap;

use super::{App, Principal};
use crate::error::{Error, Result, names};
use crate::model::limits::MAX_STATS_DAYS;
use crate::model::{Chain, ChainId, DeviceClass, Dimension, Timestamp};

/// Window when none is asked for.
pub const DEFAULT_STATS_DAYS: i64 = 7;
/// Values of a breakdown listed when no `limit` is asked for.
pub const DEFAULT_BREAKDOWN_LIMIT: i64 = 10;
use crate::model::limits::MAX_BREAKDOWN_LIMIT;

/// A chain's visits over a window of days, per value of one dimension.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChainBreakdown {
    /// The chain.
    pub chain_id: ChainId,
    /// What the visits are broken down by.
    pub dimension: Dimension,
    /// Days in the window, today included.
    pub days: i64,
    /// The values with the most visits, most first (ties by value).
    pub items: Vec<BreakdownItem>,
    /// Visits with any other value: values past `limit`, and values past a day's cap of
    /// distinct values ([`crate::model::MAX_BREAKDOWN_VALUES`]).
    pub other_clicks: i64,
}

/// One value of a breakdown and its visits.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BreakdownItem {
    /// The value.
    pub value: String,
    /// Visits with it.
    pub clicks: i64,
}

/// A chain's figures. Visits by bots (crawlers, link previews, `HEAD`) are counted apart, in
/// `bot_clicks`, and are in no other figure.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChainStats {
    /// The chain.
    pub chain_id: ChainId,
    /// Visits ever.
    pub total_clicks: i64,
    /// Visits by bots ever.
    pub bot_clicks: i64,
    /// Distinct visitors ever (since the visitor secret in use was made; see
    /// [`App::rotate_visitor_secret`]).
    pub unique_visitors: i64,
    /// Visits it had on another shortener before it was imported, in no other figure.
    pub imported_visits: i64,
    /// Visits per day, oldest first, ending today, days without visits included.
    pub daily: Vec<DailyClicks>,
}

/// One calendar day of a chain's statistics.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DailyClicks {
    /// `YYYY-MM-DD` in the server's time zone.
    pub date: String,
    /// Visits by people.
    pub clicks: i64,
    /// Visits by bots.
    pub bot_clicks: i64,
}

impl App {
    /// The statistics of one of the caller's chains over the last `days` days (today
    /// included; default 7).
    ///
    /// # Errors
    /// 400 when `days` is outside 1 to 365; 404 when the caller has no such live chain.
    pub async fn chain_stats(
        &self,
        who: &Principal,
        id: ChainId,
        days: Option<i64>,
    ) -> Result<ChainStats> {
        let days = stats_days(days)?;
        let Some(chain) = self.store().chain(who.user_id, id).await? else {
            return Err(Error::NotFound("chain"));
        };
        let now = self.now();
        let calendar = &self.config().calendar;
        let window = calendar.last_days(now, days as u32);
        let (from, to) = self.stats_window(days);
        let visits = self.store().chain_visits(id, from, to).await?;
        let rows = visits.daily.into_iter().map(|row| (row.day, row));
        let daily = per_window_day(&window, to, rows, |sum: &mut (i64, i64), row| {
            sum.0 += row.clicks;
            sum.1 += row.bot_clicks;
        })
        .into_iter()
        .map(|(date, (clicks, bot_clicks))| DailyClicks {
            date,
            clicks,
            bot_clicks,
        })
        .collect();
        Ok(ChainStats {
            chain_id: id,
            total_clicks: visits.clicks,
            bot_clicks: visits.bot_clicks,
            unique_visitors: visits.unique_visitors,
            imported_visits: chain.imported_visits,
            daily,
        })
    }
}

/// A user's visits over a window of days, and their chains with the most.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UserStats {
    /// Days in the window, today included.
    pub days: i64,
    /// Visits by people of the user's live chains.
    pub total_clicks: i64,
    /// Visits by bots of the user's live chains.
    pub bot_clicks: i64,
    /// The chains with the most visits by people, most first (ties by id), and their visits;
    /// chains without visits are not listed.
    pub top_chains: Vec<(Chain, i64)>,
}

impl App {
    /// The caller's visits over the last `days` days (default 7) across their live chains,
    /// and the `limit` chains with the most (default 10, at most 100).
    ///
    /// # Errors
    /// 400 when `days` is outside 1 to 365 or `limit` outside 1 to 100.
    pub async fn user_stats(
        &self,
        who: &Principal,
        days: Option<i64>,
        limit: Option<i64>,
    ) -> Result<UserStats> {
        let days = stats_days(days)?;
        let limit = stats_limit(limit)?;
        let (from, to) = self.stats_window(days);
        let visits = self
            .store()
            .user_visits(who.user_id, from, to, limit)
            .await?;
        let ids: Vec<ChainId> = visits.top.iter().map(|(id, _)| *id).collect();
        let mut chains: HashMap<ChainId, Chain> = self
            .store()
            .chains_by_ids(who.user_id, &ids)
            .await?
            .into_iter()
            .map(|chain| (chain.id, chain))
            .collect();
        // In the sums' order; a chain deleted since they were read is left out.
        let top_chains = visits
            .top
            .into_iter()
            .filter_map(|(id, clicks)| chains.remove(&id).map(|chain| (chain, clicks)))
            .collect();
        Ok(UserStats {
            days,
            total_clicks: visits.clicks,
            bot_clicks: visits.bot_clicks,
            top_chains,
        })
    }
}

/// The number of values or chains asked for, or why it is refused.
fn stats_limit(limit: Option<i64>) -> Result<i64> {
    let limit = limit.unwrap_or(DEFAULT_BREAKDOWN_LIMIT);
    if !(1..=MAX_BREAKDOWN_LIMIT).contains(&limit) {
        return Err(Error::bad_request(
            names::INVALID_LIMIT,
            format!("limit must be 1 to {MAX_BREAKDOWN_LIMIT}"),
        ));
    }
    Ok(limit)
}

/// The window's length asked for, or why it is refused.
/// Each day of `window` (its days' first seconds and dates, oldest first, the last ending at
/// `to`) with what `add` summed of the `rows` (each a day's first second and its figures, in
/// day order) that fall in it; days without rows included, rows outside the window left out.
pub(crate) fn per_window_day<R, S: Default>(
    window: &[(Timestamp, String)],
    to: Timestamp,
    rows: impl IntoIterator<Item = (Timestamp, R)>,
    mut add: impl FnMut(&mut S, R),
) -> Vec<(String, S)> {
    let first = window.first().map_or(to, |(start, _)| *start);
    let mut rows = rows
        .into_iter()
        .skip_while(|(day, _)| *day < first)
        .peekable();
    let mut days = Vec::with_capacity(window.len());
    for (index, (_, date)) in window.iter().enumerate() {
        let end = window.get(index + 1).map_or(to, |(next, _)| *next);
        let mut sum = S::default();
        while let Some((_, row)) = rows.next_if(|(day, _)| *day < end) {
            add(&mut sum, row);
        }
        days.push((date.clone(), sum));
    }
    days
}

pub(crate) fn stats_days(days: Option<i64>) -> Result<i64> {
    let days = days.unwrap_or(DEFAULT_STATS_DAYS);
    if !(1..=MAX_STATS_DAYS).contains(&days) {
        return Err(Error::bad_request(
            names::INVALID_DAYS,
            format!("days must be 1 to {MAX_STATS_DAYS}"),
        ));
    }
    Ok(days)
}

impl App {
    /// The first second of the window of the last `days` days (today included) and the first
    /// second after it.
    pub(crate) fn stats_window(&self, days: i64) -> (Timestamp, Timestamp) {
        let now = self.now();
        let calendar = &self.config().calendar;
        let window = calendar.last_days(now, days as u32);
        let from = window.first().map_or(now, |(start, _)| *start);
        (from, calendar.next_day_start(now))
    }

    /// One of the caller's chains' visits over the last `days` days (default 7) per value of
    /// `dimension`: the `limit` values with the most (default 10, at most 100). Bots are in
    /// no dimension but [`Dimension::Devices`], as `bot`.
    ///
    /// # Errors
    /// 400 when `days` is outside 1 to 365 or `limit` outside 1 to 100; 404 when the caller
    /// has no such live chain.
    pub async fn chain_breakdown(
        &self,
        who: &Principal,
        id: ChainId,
        dimension: Dimension,
        days: Option<i64>,
        limit: Option<i64>,
    ) -> Result<ChainBreakdown> {
        let days = stats_days(days)?;
        let limit = stats_limit(limit)?;
        if self.store().chain(who.user_id, id).await?.is_none() {
            return Err(Error::NotFound("chain"));
        }
        let (from, to) = self.stats_window(days);
        let counts = self
            .store()
            .breakdown(id, dimension, from, to, limit)
            .await?;
        let mut items: Vec<BreakdownItem> = counts
            .top
            .into_iter()
            .map(|(value, clicks)| BreakdownItem { value, clicks })
            .collect();
        let mut total = counts.total + counts.past_cap;
        // What no stored value holds: bots' visits (devices), or the visits of the
        // dimension's implicit value, which is not stored: the people's visits the stored
        // values do not account for.
        let unstored = match (dimension, dimension.implicit_value()) {
            (Dimension::Devices, _) => Some((DeviceClass::Bot.name(), true)),
            (_, Some(value)) => Some((value, false)),
            _ => None,
        };
        if let Some((value, bots)) = unstored {
            let daily = self.store().chain_visits(id, from, to).await?.daily;
            let clicks = if bots {
                daily.iter().map(|day| day.bot_clicks).sum::<i64>()
            } else {
                daily.iter().map(|day| day.clicks).sum::<i64>() - total
            };
            if clicks > 0 {
                total += clicks;
                items.push(BreakdownItem {
                    value: value.to_owned(),
                    clicks,
                });
                items.sort_by(|a, b| b.clicks.cmp(&a.clicks).then_with(|| a.value.cmp(&b.value)));
                items.truncate(limit as usize);
            }
        }
        let listed: i64 = items.iter().map(|item| item.clicks).sum();
        Ok(ChainBreakdown {
            chain_id: id,
            dimension,
            days,
            items,
            other_clicks: total - listed,
        })
    }
}
