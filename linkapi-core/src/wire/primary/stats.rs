//! Statistics on the primary surface: a chain's figures and breakdowns, and the caller's
//! summary.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Query of `GET /chains/{id}/stats`.
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StatsQuery {
    /// Days of daily trend, 1 to 365 (default 7), today included.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1, max = crate::model::limits::MAX_STATS_DAYS))]
    pub days: Option<i64>,
}

/// One day of the trend.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct DayClicks {
    /// The calendar day, `YYYY-MM-DD`, in the server's time zone.
    pub day: String,
    /// Visits by people that day.
    pub clicks: i64,
    /// Visits by bots that day (crawlers, link previews, `HEAD` requests, clients that send
    /// no user agent or a tool's, such as curl's): counted apart, in no other figure.
    #[serde(default)]
    pub bot_clicks: i64,
}

/// `GET /chains/{id}/stats`: a chain's statistics (spec 2.3). Bots are excluded from every
/// figure but `bot_clicks` (and each day's).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct ChainStats {
    /// The chain.
    pub chain_id: i64,
    /// Visits ever.
    pub total_clicks: i64,
    /// Visits by bots ever: crawlers, link previews, `HEAD` requests, clients that send no user
    /// agent or a tool's (such as curl's).
    #[serde(default)]
    pub bot_clicks: i64,
    /// Distinct visitors ever.
    pub unique_visitors: i64,
    /// Visits it had on another shortener before it was imported (`POST /chains/import`),
    /// in no other figure.
    #[serde(default)]
    pub imported_visits: i64,
    /// Days in `daily_trend`.
    pub trend_days: i64,
    /// Visits per day, oldest first, ending today; days without visits included.
    pub daily_trend: Vec<DayClicks>,
}

/// Query of the statistics that rank, `GET /chains/{id}/stats/{dimension}` (values) and
/// `GET /stats` (chains).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TopQuery {
    /// Days to count, 1 to 365 (default 7), today included.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1, max = crate::model::limits::MAX_STATS_DAYS))]
    pub days: Option<i64>,
    /// Values or chains to list, 1 to 100 (default 10), most visits first.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1, max = crate::model::limits::MAX_BREAKDOWN_LIMIT))]
    pub limit: Option<i64>,
}

/// One value of a breakdown.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct BreakdownItem {
    /// The value: a referrer's host (`direct` for none), a device class (`desktop`, `mobile`,
    /// `tablet`, `bot`, `other`), an OS or browser family (`other` when unrecognised), an ISO
    /// 3166-1 alpha-2 country or a language's primary subtag (`unknown` when the visit told
    /// none), or a redirect rule's position from 1 (`default` for none).
    pub value: String,
    /// Visits with it.
    pub clicks: i64,
}

/// `GET /chains/{id}/stats/{dimension}`: a chain's visits per value of one dimension. Visits
/// by bots count only in `devices` (as `bot`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct ChainBreakdown {
    /// The chain.
    pub chain_id: i64,
    /// `referrers`, `devices`, `os`, `browsers`, `countries`, `languages` or `rules`.
    pub dimension: String,
    /// Days counted, today included.
    pub days: i64,
    /// The values with the most visits, most first (ties by value).
    pub items: Vec<BreakdownItem>,
    /// Visits with any other value: values past `limit`, and values past the 100 distinct
    /// values a chain keeps per day and dimension.
    pub other_clicks: i64,
}

/// One of the caller's chains with the most visits.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct TopChain {
    /// The chain.
    pub chain_id: i64,
    /// Short code.
    pub code: String,
    /// Label.
    pub chain_title: String,
    /// `scheme://domain/code`.
    pub render_url: String,
    /// Kind of chain: 1 short, 2 external, 3 work-chat, 4 card.
    #[serde(rename = "type")]
    pub chain_type: i64,
    /// Visits by people in the window.
    pub clicks: i64,
}

/// `GET /stats`: the caller's visits over a window of days across their live chains, and the
/// chains with the most.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct UserStats {
    /// Days counted, today included.
    pub days: i64,
    /// Visits by people.
    pub total_clicks: i64,
    /// Visits by bots, counted apart.
    pub bot_clicks: i64,
    /// The chains with the most visits by people, most first (ties by id); chains without
    /// visits in the window are not listed.
    pub top_chains: Vec<TopChain>,
}
