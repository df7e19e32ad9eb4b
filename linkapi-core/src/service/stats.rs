//! Chain statistics, read from the visit counters the pipeline writes: a totals row and one
//! row per day with visits, so a call costs O(days) whatever the number of visits.

use super::{App, Principal};
use crate::error::{Error, Result};
use crate::model::ChainId;
use crate::model::limits::MAX_STATS_DAYS;

/// Window when none is asked for.
pub const DEFAULT_STATS_DAYS: i64 = 7;

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
        let days = days.unwrap_or(DEFAULT_STATS_DAYS);
        if !(1..=MAX_STATS_DAYS).contains(&days) {
            return Err(Error::bad_request(
                "invalid_days",
                format!("days must be 1 to {MAX_STATS_DAYS}"),
            ));
        }
        if self.store().chain(who.user_id, id).await?.is_none() {
            return Err(Error::NotFound("chain"));
        }
        let now = self.now();
        let calendar = &self.config().calendar;
        let window = calendar.last_days(now, days as u32);
        let from = window.first().map_or(now, |(start, _)| *start);
        let to = calendar.next_day_start(now);
        let visits = self.store().chain_visits(id, from, to).await?;
        // Both lists are in day order: walk them together.
        let mut rows = visits.daily.into_iter().peekable();
        let mut daily = Vec::with_capacity(window.len());
        for (index, (_, date)) in window.iter().enumerate() {
            let end = window.get(index + 1).map_or(to, |(next, _)| *next);
            let mut day = DailyClicks {
                date: date.clone(),
                clicks: 0,
                bot_clicks: 0,
            };
            while let Some(row) = rows.next_if(|row| row.day < end) {
                day.clicks += row.clicks;
                day.bot_clicks += row.bot_clicks;
            }
            daily.push(day);
        }
        Ok(ChainStats {
            chain_id: id,
            total_clicks: visits.clicks,
            bot_clicks: visits.bot_clicks,
            unique_visitors: visits.unique_visitors,
            daily,
        })
    }
}
