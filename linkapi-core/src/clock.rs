//! Time: the clock the services read, and the two text forms timestamps take on the wire.

use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};

use time::format_description::BorrowedFormatItem;
use time::format_description::well_known::Rfc3339;
use time::macros::format_description;
use time::{OffsetDateTime, PrimitiveDateTime};

use crate::model::Timestamp;

/// Where services get "now". Injected so tests can move time instead of sleeping.
pub trait Clock: Send + Sync + 'static {
    /// Seconds since the Unix epoch.
    fn now(&self) -> Timestamp;
}

/// The system clock.
#[derive(Debug, Default, Clone, Copy)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> Timestamp {
        OffsetDateTime::now_utc().unix_timestamp()
    }
}

/// A clock that stands still until told to move; for tests of expiry and day boundaries.
#[derive(Debug, Clone)]
pub struct ManualClock(Arc<AtomicI64>);

impl ManualClock {
    /// A clock showing `now`.
    pub fn new(now: Timestamp) -> Self {
        ManualClock(Arc::new(AtomicI64::new(now)))
    }

    /// Moves the clock forward by `secs`.
    pub fn advance(&self, secs: i64) {
        self.0.fetch_add(secs, Ordering::SeqCst);
    }
}

impl Clock for ManualClock {
    fn now(&self) -> Timestamp {
        self.0.load(Ordering::SeqCst)
    }
}

const SQL_STYLE: &[BorrowedFormatItem<'static>] =
    format_description!("[year]-[month]-[day] [hour]:[minute]:[second]");
const DAY: &[BorrowedFormatItem<'static>] = format_description!("[year]-[month]-[day]");

fn utc(ts: Timestamp) -> OffsetDateTime {
    OffsetDateTime::from_unix_timestamp(ts).unwrap_or(OffsetDateTime::UNIX_EPOCH)
}

/// RFC 3339 in UTC (`2026-11-21T12:00:00Z`): the primary surface's time format.
pub fn format_rfc3339(ts: Timestamp) -> String {
    utc(ts)
        .format(&Rfc3339)
        .unwrap_or_else(|_| String::from("1970-01-01T00:00:00Z"))
}

/// `YYYY-MM-DD HH:MM:SS` in UTC: the compatibility surface's time format.
pub fn format_sql(ts: Timestamp) -> String {
    utc(ts)
        .format(SQL_STYLE)
        .unwrap_or_else(|_| String::from("1970-01-01 00:00:00"))
}

/// `YYYY-MM-DD` of the UTC day holding `ts`.
pub fn format_day(ts: Timestamp) -> String {
    utc(ts)
        .format(DAY)
        .unwrap_or_else(|_| String::from("1970-01-01"))
}

/// The first second of the UTC day holding `ts`.
pub fn start_of_day(ts: Timestamp) -> Timestamp {
    ts - ts.rem_euclid(86_400)
}

/// Reads a time in any form the compatibility surface accepts: `YYYY-MM-DD HH:MM:SS` (UTC),
/// RFC 3339, or Unix seconds. Empty and `"0"` are 0 (permanent).
pub fn parse_flexible(text: &str) -> Option<Timestamp> {
    let text = text.trim();
    if text.is_empty() {
        return Some(0);
    }
    if text.bytes().all(|b| b.is_ascii_digit()) {
        return text.parse().ok();
    }
    if let Ok(t) = PrimitiveDateTime::parse(text, SQL_STYLE) {
        return Some(t.assume_utc().unix_timestamp());
    }
    OffsetDateTime::parse(text, &Rfc3339)
        .ok()
        .map(|t| t.unix_timestamp())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flexible_times_read_every_form() {
        assert_eq!(parse_flexible(""), Some(0));
        assert_eq!(parse_flexible("0"), Some(0));
        assert_eq!(parse_flexible("1800000000"), Some(1_800_000_000));
        assert_eq!(parse_flexible("2027-01-15 08:00:00"), Some(1_800_000_000));
        assert_eq!(
            parse_flexible("2027-01-15T08:00:00Z"),
            parse_flexible("2027-01-15 08:00:00")
        );
        assert_eq!(
            parse_flexible("2027-01-15T16:00:00+08:00"),
            parse_flexible("2027-01-15 08:00:00")
        );
        assert_eq!(parse_flexible("tomorrow"), None);
        assert_eq!(parse_flexible("2027-13-40 00:00:00"), None);
    }

    #[test]
    fn formats_are_utc() {
        assert_eq!(format_rfc3339(0), "1970-01-01T00:00:00Z");
        assert_eq!(format_sql(86_399), "1970-01-01 23:59:59");
        assert_eq!(format_day(86_400), "1970-01-02");
        assert_eq!(start_of_day(86_400 + 5), 86_400);
    }
}
