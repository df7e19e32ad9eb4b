//! Time: the clock the services read, and the two text forms timestamps take on the wire.

use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};

use jiff::civil::{Date, DateTime};

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
        // Straight from the system time: a calendar type would work out the date only for it
        // to be turned back into seconds, on every redirect.
        match std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH) {
            Ok(since) => since.as_secs() as Timestamp,
            Err(before) => -(before.duration().as_secs() as Timestamp),
        }
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

/// The Unix epoch's date, from which both text forms count days.
const EPOCH: Date = jiff::civil::date(1970, 1, 1);

/// `ts` as a date and time in UTC; the epoch for a time no text form can write.
fn utc(ts: Timestamp) -> DateTime {
    let ts = if writable(ts) { ts } else { 0 };
    let (days, second) = (ts.div_euclid(86_400), ts.rem_euclid(86_400));
    let date = EPOCH
        .checked_add(jiff::Span::new().days(days))
        .unwrap_or(EPOCH);
    // `second` is below 86,400, so each part is in its range.
    date.at(
        (second / 3_600) as i8,
        (second / 60 % 60) as i8,
        (second % 60) as i8,
        0,
    )
}

/// RFC 3339 in UTC (`2026-11-21T12:00:00Z`): the primary surface's time format.
pub fn format_rfc3339(ts: Timestamp) -> String {
    utc(ts).strftime("%Y-%m-%dT%H:%M:%SZ").to_string()
}

/// `YYYY-MM-DD HH:MM:SS` in UTC: the compatibility surface's time format.
pub fn format_sql(ts: Timestamp) -> String {
    utc(ts).strftime("%Y-%m-%d %H:%M:%S").to_string()
}

/// Calendar days in the deployment's time zone: where days start, for daily counters (visits,
/// creations against the quota) and the dates the statistics show.
///
/// Days are keyed by the instant they start, so a counter row stays meaningful whatever the
/// zone: changing the zone later moves the boundaries of new days only.
pub struct Calendar {
    zone: jiff::tz::TimeZone,
    name: String,
    /// The day [`Calendar::day_start`] found last: every counted visit asks for the day it
    /// falls in, nearly always the same one, and working it out through the zone each time
    /// was half a percent of a cached redirect's CPU.
    last_day: LastDay,
}

impl Clone for Calendar {
    fn clone(&self) -> Self {
        Calendar {
            zone: self.zone.clone(),
            name: self.name.clone(),
            last_day: LastDay::default(),
        }
    }
}

impl PartialEq for Calendar {
    fn eq(&self, other: &Self) -> bool {
        self.zone == other.zone && self.name == other.name
    }
}

/// A day's first second and its length in seconds, in one atomic word so that readers on
/// other threads never see the start of one day with the length of another: the start in
/// the upper 46 bits, the length in the lower 18. Zero holds no day (no day is 0 s long).
#[derive(Default)]
struct LastDay(std::sync::atomic::AtomicU64);

impl LastDay {
    const LENGTH_BITS: u32 = 18;

    /// The remembered day's start, when `ts` falls in it.
    fn start_if_holds(&self, ts: Timestamp) -> Option<Timestamp> {
        let packed = self.0.load(std::sync::atomic::Ordering::Relaxed);
        let start = (packed >> Self::LENGTH_BITS) as i64;
        let length = (packed & ((1 << Self::LENGTH_BITS) - 1)) as i64;
        (start <= ts && ts < start + length).then_some(start)
    }

    /// Remembers the day from `start` to `end`; days it cannot pack (before 1970, or
    /// implausibly long) are not remembered.
    fn remember(&self, start: Timestamp, end: Timestamp) {
        let length = end - start;
        if (0..1 << (64 - Self::LENGTH_BITS)).contains(&start)
            && (1..1 << Self::LENGTH_BITS).contains(&length)
        {
            let packed = ((start as u64) << Self::LENGTH_BITS) | length as u64;
            self.0.store(packed, std::sync::atomic::Ordering::Relaxed);
        }
    }
}

impl std::fmt::Debug for Calendar {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.name)
    }
}

impl Default for Calendar {
    fn default() -> Self {
        Calendar::utc()
    }
}

impl Calendar {
    /// Days in UTC.
    pub fn utc() -> Self {
        Calendar {
            zone: jiff::tz::TimeZone::UTC,
            name: "UTC".into(),
            last_day: LastDay::default(),
        }
    }

    /// Days in the IANA time zone `name` (`Asia/Shanghai`), from the system's zone database
    /// or, where it has none, the copy built into the binary.
    ///
    /// # Errors
    /// When no zone has that name.
    pub fn named(name: &str) -> Result<Self, String> {
        let zone = jiff::tz::TimeZone::get(name).map_err(|_| {
            format!("unknown time zone {name:?} (expected a name like Asia/Shanghai or UTC)")
        })?;
        Ok(Calendar {
            zone,
            name: name.to_string(),
            last_day: LastDay::default(),
        })
    }

    /// The zone's name, as configured.
    pub fn name(&self) -> &str {
        &self.name
    }

    fn zoned(&self, ts: Timestamp) -> jiff::Zoned {
        let instant = jiff::Timestamp::from_second(ts).unwrap_or(jiff::Timestamp::UNIX_EPOCH);
        instant.to_zoned(self.zone.clone())
    }

    fn start_of(&self, date: jiff::civil::Date) -> Timestamp {
        // A day may begin later than midnight where a clock change skips it.
        date.to_zoned(self.zone.clone())
            .and_then(|z| z.start_of_day())
            .map_or(0, |z| z.timestamp().as_second())
    }

    /// The first second of the day holding `ts`.
    pub fn day_start(&self, ts: Timestamp) -> Timestamp {
        if let Some(start) = self.last_day.start_if_holds(ts) {
            return start;
        }
        let date = self.zoned(ts).date();
        let start = self.start_of(date);
        if let Ok(tomorrow) = date.tomorrow() {
            self.last_day.remember(start, self.start_of(tomorrow));
        }
        start
    }

    /// The first second of the day after the one holding `ts`.
    pub fn next_day_start(&self, ts: Timestamp) -> Timestamp {
        let date = self.zoned(ts).date();
        date.tomorrow().map_or(ts + 86_400, |d| self.start_of(d))
    }

    /// The `n` days ending with the one holding `ts`, oldest first: each day's first second and
    /// its date (`YYYY-MM-DD`).
    pub fn last_days(&self, ts: Timestamp, n: u32) -> Vec<(Timestamp, String)> {
        let today = self.zoned(ts).date();
        let mut days: Vec<(Timestamp, String)> =
            std::iter::successors(Some(today), |d| d.yesterday().ok())
                .take(n as usize)
                .map(|d| (self.start_of(d), d.to_string()))
                .collect();
        days.reverse();
        days
    }
}

/// The first second both text forms can write: 0000-01-01 00:00:00 UTC (year 0, so that the
/// first day of year 1 reads with any offset).
pub const EARLIEST: Timestamp = -62_167_219_200;

/// The last second both text forms can write: 9999-12-31 23:59:59 UTC. Times past it are
/// refused rather than stored, since they could only be shown as some other time.
pub const LATEST: Timestamp = 253_402_300_799;

/// Whether `ts` lies between [`EARLIEST`] and [`LATEST`].
pub fn writable(ts: Timestamp) -> bool {
    (EARLIEST..=LATEST).contains(&ts)
}

/// Reads a time in any form the compatibility surface accepts: `YYYY-MM-DD HH:MM:SS` (UTC),
/// RFC 3339, or Unix seconds, between [`EARLIEST`] and [`LATEST`]; spaces around it are
/// ignored. Empty and `"0"` are 0 (permanent). Exactly the texts the API document's pattern
/// admits (`wire::schemas::time_pattern`; a test holds the two equal).
pub fn parse_flexible(text: &str) -> Option<Timestamp> {
    let text = text.trim_matches(' ');
    if text.is_empty() {
        return Some(0);
    }
    let ts = if text.bytes().all(|b| b.is_ascii_digit()) {
        text.parse().ok()?
    } else {
        parse_date_time(text.as_bytes())?
    };
    writable(ts).then_some(ts)
}

/// `YYYY-MM-DD HH:MM:SS` (UTC), or RFC 3339: the date, `T`, `t` or a space, the time,
/// fractions of a second (dropped), then `Z`, `z` or an offset `+HH:MM`/`-HH:MM`.
fn parse_date_time(text: &[u8]) -> Option<Timestamp> {
    let number = |at: usize, len: usize| -> Option<i64> {
        let digits = text.get(at..at + len)?;
        digits
            .iter()
            .all(u8::is_ascii_digit)
            .then(|| digits.iter().fold(0, |n, d| n * 10 + i64::from(d - b'0')))
    };
    let at = |i: usize, c: u8| text.get(i) == Some(&c);
    if !(at(4, b'-') && at(7, b'-') && at(13, b':') && at(16, b':')) {
        return None;
    }
    let (year, month, day) = (number(0, 4)?, number(5, 2)?, number(8, 2)?);
    let (hour, minute, second) = (number(11, 2)?, number(14, 2)?, number(17, 2)?);
    if hour > 23 || minute > 59 || second > 59 {
        return None;
    }
    let date = Date::new(year as i16, month as i8, day as i8).ok()?;
    let days = i64::from(date.since(EPOCH).ok()?.get_days());
    let local = days * 86_400 + hour * 3_600 + minute * 60 + second;
    let rest = &text[19..];
    let offset = match text[10] {
        b' ' if rest.is_empty() => return Some(local),
        b'T' | b't' | b' ' => {
            // Fractions of a second: `.` and at least one digit.
            let rest = match rest.strip_prefix(b".") {
                Some(fraction) => {
                    let digits = fraction.iter().take_while(|b| b.is_ascii_digit()).count();
                    (digits > 0).then(|| &fraction[digits..])?
                }
                None => rest,
            };
            match rest {
                [b'Z' | b'z'] => 0,
                [sign @ (b'+' | b'-'), h1, h2, b':', m1, m2] => {
                    let two = |a: u8, b: u8| {
                        (a.is_ascii_digit() && b.is_ascii_digit())
                            .then(|| i64::from(a - b'0') * 10 + i64::from(b - b'0'))
                    };
                    let (hours, minutes) = (two(*h1, *h2)?, two(*m1, *m2)?);
                    if hours > 23 || minutes > 59 {
                        return None;
                    }
                    let offset = hours * 3_600 + minutes * 60;
                    if *sign == b'-' { -offset } else { offset }
                }
                _ => return None,
            }
        }
        _ => return None,
    };
    Some(local - offset)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_system_clock_reads_the_calendar_time() {
        let calendar = jiff::Timestamp::now().as_second();
        assert!((SystemClock.now() - calendar).abs() <= 1);
    }

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
        assert_eq!(parse_flexible(" 1800000000 "), Some(1_800_000_000));
        assert_eq!(parse_flexible("tomorrow"), None);
        // Past what the text forms can write: refused, never shown as some other time.
        assert_eq!(parse_flexible("253402300799"), Some(LATEST));
        assert_eq!(parse_flexible("253402300800"), None);
        assert_eq!(parse_flexible("99999999999999999999"), None);
        assert_eq!(parse_flexible("9999-12-31T23:59:59-01:00"), None);
        assert_eq!(format_sql(LATEST), "9999-12-31 23:59:59");
        assert_eq!(format_rfc3339(EARLIEST), "0000-01-01T00:00:00Z");
        assert_eq!(
            parse_flexible("0001-01-01T00:00:00+23:59"),
            Some(EARLIEST + 366 * 86_400 - 86_340)
        );
        assert_eq!(parse_flexible("2027-01-15x08:00:00Z"), None);
        assert_eq!(parse_flexible("2027-13-40 00:00:00"), None);
    }

    #[test]
    fn formats_are_utc() {
        assert_eq!(format_rfc3339(0), "1970-01-01T00:00:00Z");
        assert_eq!(format_sql(86_399), "1970-01-01 23:59:59");
    }

    #[test]
    fn days_start_at_midnight_in_the_zone() {
        let utc = Calendar::utc();
        assert_eq!(utc.day_start(86_400 + 5), 86_400);
        assert_eq!(utc.next_day_start(86_400 + 5), 2 * 86_400);
        let shanghai = Calendar::named("Asia/Shanghai").expect("zone");
        // 1970-01-02 00:00 in Shanghai is 1970-01-01 16:00 UTC.
        assert_eq!(shanghai.day_start(86_400 + 5), 86_400 - 8 * 3_600);
        assert_eq!(shanghai.day_start(86_400 - 8 * 3_600 - 1), -8 * 3_600);
        let days = shanghai.last_days(86_400 + 5, 3);
        assert_eq!(
            days,
            vec![
                (-8 * 3_600 - 86_400, "1969-12-31".to_string()),
                (-8 * 3_600, "1970-01-01".to_string()),
                (86_400 - 8 * 3_600, "1970-01-02".to_string()),
            ]
        );
        assert!(Calendar::named("Mars/Olympus").is_err());
    }

    #[test]
    fn a_day_without_midnight_starts_when_it_begins() {
        // Santiago skipped 2022-09-11 00:00 (clocks went to 01:00): that day starts at 01:00
        // local time, 04:00 UTC.
        let santiago = Calendar::named("America/Santiago").expect("zone");
        let noon_utc = 1_662_897_600; // 2022-09-11 12:00 UTC
        assert_eq!(santiago.day_start(noon_utc), 1_662_868_800); // 2022-09-11 04:00 UTC
    }

    #[test]
    fn the_remembered_day_answers_as_the_zone_does() {
        // Hour by hour over days with clock changes (Santiago's 23- and 25-hour days of 2022)
        // and back again: each answer from the remembered day must be the zone's own.
        for zone in ["America/Santiago", "Asia/Shanghai", "UTC"] {
            let remembering = Calendar::named(zone).expect("zone");
            let fresh = || Calendar::named(zone).expect("zone");
            let hours = (1_648_800_000..1_648_800_000 + 200 * 3_600)
                .step_by(1_799)
                .chain((1_662_700_000..1_662_700_000 + 100 * 3_600).step_by(3_600))
                .chain([
                    1_662_868_799,
                    1_662_868_800,
                    0,
                    86_399,
                    86_400,
                    -1,
                    1_662_868_801,
                ]);
            for ts in hours {
                assert_eq!(
                    remembering.day_start(ts),
                    fresh().day_start(ts),
                    "{zone} at {ts}"
                );
            }
        }
    }
}
