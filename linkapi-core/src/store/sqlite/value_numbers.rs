//! Breakdown values by number, for the rows of recent days (`recent_days`).
//!
//! A recent row's breakdown names each value by its number in `breakdown_values` rather than
//! spelling it out. *Why:* a flush of visits spread over a million chains rewrites rows all
//! over the day's part of `chain_recent_days`, and what it costs is the pages those rows sit
//! on: read, changed, logged and copied back. The JSON triples of a typical visit's breakdown
//! (`[[1,"direct",15],[2,"desktop",15],…]`) were 66 of a row's ~90 bytes; numbered they are
//! about 10, and a day of a million chains' rows fits in a third of the pages
//! (docs/decisions.md, "Statistics").
//!
//! The folded tables (`chain_breakdown_days`, spans) keep their JSON, which both databases
//! read and write; numbers live in SQLite only, and `migrate` folds every recent row first.
//!
//! A numbered `data` is a BLOB: for each (dimension, value, clicks) of the row, a varint key
//! and a varint count, the key being the value's number times two, or, for the visits past
//! the day's cap of values, the dimension times two plus one. A TEXT `data` is the JSON a
//! row had before numbers (schema 17); such a row is still read, and numbered once written
//! again.
//!
//! Numbers are looked up and given within the transaction that uses them and remembered for
//! that transaction only: a number given in a transaction that then rolled back names
//! nothing, so no number outlives the connection's view of the table.
//!
//! Two SQL functions let the writer add a batch's breakdown to a row in the statement that
//! writes it, without reading the row first ([`register`]): [`MERGE`] adds up two numbered
//! breakdowns key by key, and [`FITS`] says whether that is what the day's cap allows, which
//! it does whenever the two hold no more distinct values between them than a dimension may
//! keep. Otherwise (a row with many referrers, or one still in JSON) the writer merges in
//! Rust, where values have their dimensions.

use std::collections::HashMap;
use std::sync::Arc;

use rusqlite::functions::FunctionFlags;
use rusqlite::types::{FromSql, FromSqlError, FromSqlResult, ToSqlOutput, Value, ValueRef};
use rusqlite::{CachedStatement, Connection, OptionalExtension, ToSql, params};

use crate::model::MAX_BREAKDOWN_VALUES;
use crate::store::breakdowns::Packed;
use crate::store::{BreakdownVisits, StoreError, StoreResult};

/// A recent row's breakdown as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum RecentData {
    /// JSON triples, as rows were written before numbers.
    Json(String),
    /// Numbered (see the module's documentation).
    Numbered(Vec<u8>),
}

impl FromSql for RecentData {
    fn column_result(value: ValueRef<'_>) -> FromSqlResult<Self> {
        match value {
            ValueRef::Text(text) => std::str::from_utf8(text)
                .map(|text| RecentData::Json(text.to_owned()))
                .map_err(|e| FromSqlError::Other(Box::new(e))),
            ValueRef::Blob(bytes) => Ok(RecentData::Numbered(bytes.to_vec())),
            _ => Err(FromSqlError::InvalidType),
        }
    }
}

impl ToSql for RecentData {
    fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
        Ok(match self {
            RecentData::Json(text) => ToSqlOutput::from(text.as_str()),
            RecentData::Numbered(bytes) => ToSqlOutput::from(bytes.as_slice()),
        })
    }
}

/// A `data` that does not decode.
#[derive(Debug, thiserror::Error)]
#[error("a recent row's breakdown is malformed: {0}")]
struct Malformed(&'static str);

fn malformed(why: &'static str) -> StoreError {
    StoreError::backend(Malformed(why))
}

/// foldhash rather than SipHash: every breakdown entry a flush writes is looked up here
/// (SipHash was 0.3% of all CPU under uniform traffic at a million chains), and a random seed
/// per process keeps visitors from aiming collisions, as for the pipeline's values
/// (`service::breakdown`).
type FastHash = foldhash::fast::RandomState;

/// Values by number and numbers by value, as far as one transaction (or read) has met them.
pub(super) struct ValueNumbers<'c> {
    conn: &'c Connection,
    names: HashMap<u64, (i64, Arc<str>), FastHash>,
    numbers: HashMap<(i64, Arc<str>), u64, FastHash>,
}

impl<'c> ValueNumbers<'c> {
    pub(super) fn new(conn: &'c Connection) -> Self {
        ValueNumbers {
            conn,
            names: HashMap::default(),
            numbers: HashMap::default(),
        }
    }

    fn statement(&self, sql: &str) -> StoreResult<CachedStatement<'c>> {
        Ok(self.conn.prepare_cached(sql)?)
    }

    /// The (dimension, value) numbered `number`.
    fn name(&mut self, number: u64) -> StoreResult<(i64, Arc<str>)> {
        if let Some(name) = self.names.get(&number) {
            return Ok(name.clone());
        }
        let id = i64::try_from(number).map_err(|_| malformed("a number out of range"))?;
        let (dimension, value): (i64, String) = self
            .statement("SELECT dimension, value FROM breakdown_values WHERE id = ?1")?
            .query_row([id], |r| Ok((r.get(0)?, r.get(1)?)))
            .optional()?
            .ok_or_else(|| malformed("a number no value has"))?;
        let name = (dimension, Arc::<str>::from(value));
        self.remember(number, name.clone());
        Ok(name)
    }

    /// The number of `value` of `dimension`, given now if it has none. Writers only.
    fn number(&mut self, dimension: i64, value: &Arc<str>) -> StoreResult<u64> {
        if let Some(number) = self.numbers.get(&(dimension, value.clone())) {
            return Ok(*number);
        }
        let found: Option<i64> = self
            .statement("SELECT id FROM breakdown_values WHERE dimension = ?1 AND value = ?2")?
            .query_row(params![dimension, value.as_ref()], |r| r.get(0))
            .optional()?;
        let id = match found {
            Some(id) => id,
            None => self
                .statement(
                    "INSERT INTO breakdown_values (dimension, value) VALUES (?1, ?2) RETURNING id",
                )?
                .query_row(params![dimension, value.as_ref()], |r| r.get(0))?,
        };
        let number = u64::try_from(id).map_err(|_| malformed("a negative number"))?;
        self.remember(number, (dimension, value.clone()));
        Ok(number)
    }

    fn remember(&mut self, number: u64, name: (i64, Arc<str>)) {
        self.numbers.insert(name.clone(), number);
        self.names.insert(number, name);
    }

    /// What a stored `data` holds.
    pub(super) fn decode(&mut self, data: &RecentData) -> StoreResult<Packed> {
        let bytes = match data {
            RecentData::Json(text) => return Packed::decode(Some(text)),
            RecentData::Numbered(bytes) => bytes,
        };
        let mut packed = Packed::default();
        for (key, clicks) in pairs(bytes)? {
            let clicks = i64::try_from(clicks).map_err(|_| malformed("a count out of range"))?;
            if names_a_value(key) {
                let (dimension, value) = self.name(key >> 1)?;
                packed.add_entry(dimension, Some(value), clicks);
            } else {
                let dimension =
                    i64::try_from(key >> 1).map_err(|_| malformed("a dimension out of range"))?;
                packed.add_entry(dimension, None, clicks);
            }
        }
        Ok(packed)
    }

    /// `packed` numbered, its values given numbers as needed. Writers only.
    pub(super) fn encode(&mut self, packed: &Packed) -> StoreResult<RecentData> {
        self.encode_entries(packed.entries())
    }

    /// A chain-day's breakdown `rows` numbered as they are, with no cap applied: for rows no
    /// more than a dimension may keep, which no cap could change. Writers only.
    pub(super) fn encode_rows(&mut self, rows: &[&BreakdownVisits]) -> StoreResult<RecentData> {
        debug_assert!(rows.len() <= MAX_BREAKDOWN_VALUES as usize);
        self.encode_entries(
            rows.iter()
                .map(|row| (row.dimension.code(), row.value.as_ref(), row.clicks)),
        )
    }

    fn encode_entries<'a>(
        &mut self,
        entries: impl Iterator<Item = (i64, Option<&'a Arc<str>>, i64)>,
    ) -> StoreResult<RecentData> {
        let mut bytes = Vec::new();
        for (dimension, value, clicks) in entries {
            let key = match value {
                Some(value) => self.number(dimension, value)? << 1,
                None => {
                    (u64::try_from(dimension).map_err(|_| malformed("a negative dimension"))? << 1)
                        | 1
                }
            };
            write_varint(&mut bytes, key);
            let clicks = u64::try_from(clicks).map_err(|_| malformed("a negative count"))?;
            write_varint(&mut bytes, clicks);
        }
        Ok(RecentData::Numbered(bytes))
    }
}

/// `linkapi_recent_merge(data, added)`: a numbered `data` with the numbered `added` added to
/// it, key by key; either alone when the other is NULL. Only where [`FITS`] holds.
pub(super) const MERGE: &str = "linkapi_recent_merge";
/// `linkapi_recent_fits(data, added)`: whether [`MERGE`] gives what the day's cap allows.
pub(super) const FITS: &str = "linkapi_recent_fits";

/// Registers [`MERGE`] and [`FITS`] on `conn`.
pub(super) fn register(conn: &Connection) -> rusqlite::Result<()> {
    let flags = FunctionFlags::SQLITE_UTF8
        | FunctionFlags::SQLITE_DETERMINISTIC
        | FunctionFlags::SQLITE_INNOCUOUS;
    conn.create_scalar_function(FITS, 2, flags, |ctx| {
        Ok(fits(ctx.get_raw(0), ctx.get_raw(1)))
    })?;
    conn.create_scalar_function(MERGE, 2, flags, |ctx| {
        merge(ctx.get_raw(0), ctx.get_raw(1))
            .map_err(|err| rusqlite::Error::UserFunctionError(Box::new(err)))
    })
}

/// A numbered breakdown's (key, clicks) pairs.
fn pairs(mut bytes: &[u8]) -> StoreResult<Vec<(u64, u64)>> {
    let mut pairs = Vec::with_capacity(bytes.len() / 2);
    while !bytes.is_empty() {
        let key = read_varint(&mut bytes)?;
        pairs.push((key, read_varint(&mut bytes)?));
    }
    Ok(pairs)
}

/// Whether a value's key (not a dimension's visits past the cap).
fn names_a_value(key: u64) -> bool {
    key & 1 == 0
}

/// See [`FITS`]. The cap is per dimension, but a numbered key does not say its value's
/// dimension: when the two hold no more distinct values than one dimension may, no dimension
/// can pass the cap, so every value is kept, as [`Packed::extend_day`] would keep it.
fn fits(data: ValueRef<'_>, added: ValueRef<'_>) -> bool {
    let ValueRef::Blob(added) = added else {
        // Nothing added, so nothing to fit.
        return matches!(added, ValueRef::Null);
    };
    let held = match data {
        ValueRef::Null => Vec::new(),
        ValueRef::Blob(data) => match pairs(data) {
            Ok(held) => held,
            Err(_) => return false,
        },
        // JSON from before numbers: merged in Rust.
        _ => return false,
    };
    let Ok(added) = pairs(added) else {
        return false;
    };
    let kept = held.iter().filter(|(key, _)| names_a_value(*key)).count();
    let new = added
        .iter()
        .filter(|(key, _)| names_a_value(*key) && !held.iter().any(|(k, _)| k == key))
        .count();
    kept + new <= MAX_BREAKDOWN_VALUES as usize
}

/// See [`MERGE`].
fn merge(data: ValueRef<'_>, added: ValueRef<'_>) -> StoreResult<Value> {
    let as_is = |value: ValueRef<'_>| {
        Value::try_from(value).map_err(|_| malformed("a breakdown that is not UTF-8"))
    };
    let (data, added) = match (data, added) {
        (data, ValueRef::Null) => return as_is(data),
        (ValueRef::Null, added) => return as_is(added),
        (ValueRef::Blob(data), ValueRef::Blob(added)) => (data, added),
        _ => return Err(malformed("a breakdown merged in SQL that is not numbered")),
    };
    let mut merged = pairs(data)?;
    for (key, clicks) in pairs(added)? {
        match merged.iter_mut().find(|(k, _)| *k == key) {
            // Counts are read back as i64.
            Some((_, held)) => *held = held.saturating_add(clicks).min(i64::MAX as u64),
            None => merged.push((key, clicks)),
        }
    }
    let mut bytes = Vec::with_capacity(data.len() + added.len());
    for (key, clicks) in merged {
        write_varint(&mut bytes, key);
        write_varint(&mut bytes, clicks);
    }
    Ok(Value::Blob(bytes))
}

/// LEB128: seven bits a byte, low first, the high bit set on every byte but the last.
fn write_varint(out: &mut Vec<u8>, mut n: u64) {
    while n >= 0x80 {
        out.push((n as u8) | 0x80);
        n >>= 7;
    }
    out.push(n as u8);
}

fn read_varint(bytes: &mut &[u8]) -> StoreResult<u64> {
    let mut n: u64 = 0;
    for shift in (0..64).step_by(7) {
        let (&byte, rest) = bytes
            .split_first()
            .ok_or_else(|| malformed("a number cut short"))?;
        *bytes = rest;
        n |= u64::from(byte & 0x7f) << shift;
        if byte & 0x80 == 0 {
            return Ok(n);
        }
    }
    Err(malformed("a number too long"))
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use rusqlite::Connection;

    use super::{FITS, MERGE, RecentData, ValueNumbers, read_varint, register, write_varint};
    use crate::model::{Dimension, MAX_BREAKDOWN_VALUES};
    use crate::store::BreakdownVisits;
    use crate::store::breakdowns::Packed;

    /// A database with the schema's `breakdown_values`.
    fn table() -> Connection {
        let mut conn = Connection::open_in_memory().expect("a database");
        super::super::schema::migrate(&mut conn).expect("the schema");
        conn
    }

    fn visits(dimension: Dimension, value: &str, clicks: i64) -> BreakdownVisits {
        BreakdownVisits {
            chain_id: crate::model::ChainId(1),
            dimension,
            day: 0,
            value: Some(Arc::from(value)),
            clicks,
        }
    }

    #[test]
    fn varints_round_trip_at_every_length() {
        for n in [
            0,
            1,
            127,
            128,
            300,
            16_383,
            16_384,
            u64::from(u32::MAX),
            u64::MAX,
        ] {
            let mut bytes = Vec::new();
            write_varint(&mut bytes, n);
            let mut rest = bytes.as_slice();
            assert_eq!(read_varint(&mut rest).expect("a number"), n);
            assert!(rest.is_empty());
        }
        let mut cut: &[u8] = &[0x80, 0x80];
        assert!(read_varint(&mut cut).is_err());
    }

    #[test]
    fn a_breakdown_is_numbered_small_and_read_back_the_same() {
        let conn = table();
        let mut day = Packed::default();
        day.add_day(
            &[
                visits(Dimension::Referrers, "direct", 15),
                visits(Dimension::Devices, "desktop", 15),
                visits(Dimension::Os, "Linux", 15),
                visits(Dimension::Browsers, "Firefox", 15),
            ],
            MAX_BREAKDOWN_VALUES,
        );
        // Past the cap: a value of no name.
        day.add_day(&[visits(Dimension::Referrers, "b.example", 3)], 1);
        let mut numbers = ValueNumbers::new(&conn);
        let stored = numbers.encode(&day).expect("numbered");
        let RecentData::Numbered(bytes) = &stored else {
            panic!("not numbered: {stored:?}");
        };
        assert_eq!(bytes.len(), 10, "{bytes:?}");
        assert!(day.encode().expect("JSON").len() > 70);
        // Another transaction reads it from the table alone.
        let mut fresh = ValueNumbers::new(&conn);
        assert_eq!(fresh.decode(&stored).expect("read back"), day);
        // The same values keep their numbers.
        assert_eq!(fresh.encode(&day).expect("numbered again"), stored);
        let values: i64 = conn
            .query_row("SELECT count(*) FROM breakdown_values", [], |r| r.get(0))
            .expect("a count");
        assert_eq!(values, 4);
    }

    #[test]
    fn json_rows_of_before_are_read_and_unknown_numbers_refused() {
        let conn = table();
        let mut numbers = ValueNumbers::new(&conn);
        let json = RecentData::Json(r#"[[1,"direct",2],[4,null,1]]"#.to_owned());
        let packed = numbers.decode(&json).expect("JSON read");
        assert_eq!(
            packed.encode().expect("JSON"),
            r#"[[1,"direct",2],[4,null,1]]"#
        );
        // Key 2 is number 1, which nothing was given.
        assert!(numbers.decode(&RecentData::Numbered(vec![2, 5])).is_err());
        assert!(numbers.decode(&RecentData::Numbered(vec![3])).is_err());
    }

    /// `(merged, fits)` as the SQL functions answer for `data` and `added`.
    fn in_sql(
        conn: &Connection,
        data: Option<&RecentData>,
        added: Option<&RecentData>,
    ) -> (Option<RecentData>, bool) {
        let merged = conn
            .query_row(
                &format!("SELECT {MERGE}(?1, ?2)"),
                rusqlite::params![data, added],
                |r| r.get(0),
            )
            .expect("merged");
        (merged, fits_in_sql(conn, data, added))
    }

    fn fits_in_sql(
        conn: &Connection,
        data: Option<&RecentData>,
        added: Option<&RecentData>,
    ) -> bool {
        conn.query_row(
            &format!("SELECT {FITS}(?1, ?2)"),
            rusqlite::params![data, added],
            |r| r.get(0),
        )
        .expect("an answer")
    }

    fn referrers(range: std::ops::Range<usize>, clicks: i64) -> Vec<BreakdownVisits> {
        range
            .map(|i| visits(Dimension::Referrers, &format!("r{i:03}.example"), clicks))
            .collect()
    }

    #[test]
    fn breakdowns_merged_in_sql_are_what_rust_merges_within_the_cap() {
        let conn = table();
        register(&conn).expect("registered");
        let mut numbers = ValueNumbers::new(&conn);
        // A row of 40 referrers, some past a cap before, and a device.
        let mut held = Packed::default();
        held.extend_day(&referrers(0..40, 2), MAX_BREAKDOWN_VALUES);
        held.extend_day(
            &[visits(Dimension::Devices, "desktop", 5)],
            MAX_BREAKDOWN_VALUES,
        );
        held.add_entry(Dimension::Referrers as i64, None, 7);
        let stored = numbers.encode(&held).expect("numbered");
        // Added: 30 of the same referrers, 20 new ones, the device, visits past a cap.
        let mut rows = referrers(10..60, 1);
        rows.push(visits(Dimension::Devices, "desktop", 3));
        let mut added = Packed::default();
        added.extend_day(&rows, MAX_BREAKDOWN_VALUES);
        added.add_entry(Dimension::Referrers as i64, None, 2);
        let added = numbers.encode(&added).expect("numbered");

        let (merged, fits) = in_sql(&conn, Some(&stored), Some(&added));
        assert!(fits, "61 values fit in a dimension's 100");
        let mut expected = held.clone();
        expected.extend_day(&rows, MAX_BREAKDOWN_VALUES);
        expected.add_entry(Dimension::Referrers as i64, None, 2);
        let merged = numbers.decode(&merged.expect("merged")).expect("read back");
        assert_eq!(merged, expected);
        // Nothing added: the row as it was, whatever it holds; no row yet: what is added.
        assert_eq!(
            in_sql(&conn, Some(&stored), None),
            (Some(stored.clone()), true)
        );
        let json = RecentData::Json(r#"[[1,"direct",2]]"#.to_owned());
        assert_eq!(in_sql(&conn, Some(&json), None), (Some(json.clone()), true));
        assert_eq!(
            in_sql(&conn, None, Some(&added)),
            (Some(added.clone()), true)
        );
        // A row still in JSON is merged in Rust; merging it in SQL is refused, not guessed.
        assert!(!fits_in_sql(&conn, Some(&json), Some(&added)));
        assert!(
            conn.query_row(
                &format!("SELECT {MERGE}(?1, ?2)"),
                rusqlite::params![json, added],
                |r| r.get::<_, Option<RecentData>>(0),
            )
            .is_err()
        );
    }

    #[test]
    fn rows_numbered_as_they_are_read_back_as_the_capped_day() {
        let conn = table();
        let mut numbers = ValueNumbers::new(&conn);
        let mut rows = referrers(0..90, 2);
        rows.push(visits(Dimension::Devices, "desktop", 5));
        let mut past_cap = visits(Dimension::Languages, "x", 4);
        past_cap.value = None;
        rows.push(past_cap);
        let refs: Vec<&BreakdownVisits> = rows.iter().collect();
        let mut capped = Packed::default();
        capped.extend_day(refs.iter().copied(), MAX_BREAKDOWN_VALUES);
        let numbered = numbers.encode_rows(&refs).expect("numbered");
        assert_eq!(numbers.decode(&numbered).expect("read back"), capped);
    }

    #[test]
    fn a_merge_in_sql_fits_only_while_no_dimension_could_pass_the_cap() {
        let conn = table();
        register(&conn).expect("registered");
        let mut numbers = ValueNumbers::new(&conn);
        let cap = MAX_BREAKDOWN_VALUES as usize;
        let encoded = |numbers: &mut ValueNumbers<'_>, rows: &[BreakdownVisits]| {
            let mut packed = Packed::default();
            packed.extend_day(rows, MAX_BREAKDOWN_VALUES);
            numbers.encode(&packed).expect("numbered")
        };
        let almost = encoded(&mut numbers, &referrers(0..cap - 1, 1));
        let full = encoded(&mut numbers, &referrers(0..cap, 1));
        let one_new = encoded(&mut numbers, &referrers(cap..cap + 1, 1));
        let one_held = encoded(&mut numbers, &referrers(0..1, 1));
        // A value of another dimension counts too: the key does not say which it is.
        let a_device = encoded(&mut numbers, &[visits(Dimension::Devices, "desktop", 1)]);
        assert!(fits_in_sql(&conn, Some(&almost), Some(&one_new)));
        assert!(!fits_in_sql(&conn, Some(&full), Some(&one_new)));
        assert!(!fits_in_sql(&conn, Some(&full), Some(&a_device)));
        assert!(fits_in_sql(&conn, Some(&full), Some(&one_held)));
        // And where it does not fit, the writer's upsert leaves the row for Rust to merge,
        // which keeps the cap: checked end to end by the store's conformance tests.
    }
}
