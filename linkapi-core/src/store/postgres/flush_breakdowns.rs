//! The breakdowns of a PostgreSQL visit flush: the rows of a batch's chain-days and spans
//! read before the flush statement, merged with the batch's counts in Rust, and the parts of
//! the statement that write them back only if they still hold what was read.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::LazyLock;

use deadpool_postgres::GenericClient;
use tokio_postgres::types::ToSql;

use super::all;
use crate::model::{MAX_BREAKDOWN_VALUES, Timestamp};
use crate::store::breakdowns::{Packed, by_chain_day, chain_days};
use crate::store::visits::span_of;
use crate::store::{BreakdownVisits, StoreResult};

/// Reads the rows of a batch's chain-days and of their spans, each tagged with whether it is
/// a span's.
pub(super) static READ_BREAKDOWNS: LazyLock<String> = LazyLock::new(|| {
    format!(
        "{} UNION ALL {}",
        BREAKDOWN_DAYS.read(1),
        BREAKDOWN_SPANS.read(3)
    )
});

/// A table of breakdown rows, one per chain and day or per chain and span, which the flush
/// reads and writes alike.
pub(super) struct BreakdownTable {
    pub(super) name: &'static str,
    /// The key beside the chain: `day` or `span`.
    pub(super) key: &'static str,
}

pub(super) const BREAKDOWN_DAYS: BreakdownTable = BreakdownTable {
    name: "chain_breakdown_days",
    key: "day",
};

pub(super) const BREAKDOWN_SPANS: BreakdownTable = BreakdownTable {
    name: "chain_breakdown_spans",
    key: "span",
};

impl BreakdownTable {
    /// Its rows of the keys in parameters `$first` (chains) and `$first + 1` (days or spans).
    /// The lateral subquery looks each key up in the index: joined plainly to the arrays, the
    /// planner may choose a hash join that reads the whole table.
    pub(super) fn read(&self, first: usize) -> String {
        let BreakdownTable { name, key } = self;
        let (chains, keys) = (first, first + 1);
        format!(
            "SELECT {is_span}, k.chain_id, k.{key}, r.data
             FROM unnest(${chains}::bigint[], ${keys}::bigint[]) AS k(chain_id, {key})
             CROSS JOIN LATERAL (SELECT data FROM {name} t
                                 WHERE t.chain_id = k.chain_id AND t.{key} = k.{key}
                                 OFFSET 0) AS r",
            is_span = *key == "span",
        )
    }

    /// The flush statement's two writes of this table, `{prefix}_rewritten` and
    /// `{prefix}_added`, from the seven parameters from `$first` ([`MergedRows::params`]):
    /// each row read is rewritten only where it still holds what was read (found by key and
    /// old text, updated by its `ctid`), the rows there were not are inserted unless another
    /// instance did so first; each returns one row per row written.
    pub(super) fn writes(&self, prefix: &str, first: usize) -> String {
        let BreakdownTable { name, key } = self;
        let [chains, keys, data, read, new_chains, new_keys, new_data] =
            std::array::from_fn::<usize, 7, _>(|at| first + at);
        format!(
            "{prefix}_rewritten AS (
                 UPDATE {name} d SET data = r.data
                 FROM (SELECT u.data, found.row FROM unnest(${chains}::bigint[], ${keys}::bigint[],
                                                              ${data}::text[], ${read}::text[])
                           AS u(chain_id, {key}, data, read)
                       CROSS JOIN LATERAL (
                           SELECT ctid AS row FROM {name} s
                           WHERE s.chain_id = u.chain_id AND s.{key} = u.{key} AND s.data = u.read
                           OFFSET 0) AS found) AS r
                 WHERE d.ctid = r.row AND EXISTS (SELECT 1 FROM claim)
                 RETURNING 1
             ), {prefix}_added AS (
                 INSERT INTO {name} (chain_id, {key}, data)
                 SELECT t.* FROM unnest(${new_chains}::bigint[], ${new_keys}::bigint[],
                                        ${new_data}::text[])
                     AS t(chain_id, {key}, data)
                 WHERE EXISTS (SELECT 1 FROM claim)
                 ON CONFLICT DO NOTHING RETURNING 1
             )"
        )
    }
}

/// A batch's breakdown rows as merged before the flush's statement writes them.
#[derive(Default)]
pub(super) struct MergedBreakdowns {
    pub(super) days: MergedRows,
    pub(super) spans: MergedRows,
}

impl MergedBreakdowns {
    /// The rows the statement is to write.
    pub(super) fn rows(&self) -> i64 {
        [&self.days, &self.spans]
            .iter()
            .map(|rows| rows.rewritten.chains.len() + rows.added.chains.len())
            .sum::<usize>() as i64
    }
}

/// One table's merged rows: those there were, with what was read, and those there were not.
#[derive(Default)]
pub(super) struct MergedRows {
    pub(super) rewritten: Columns,
    pub(super) added: Columns,
}

impl MergedRows {
    /// Its columns as [`BreakdownTable::writes`] takes them.
    pub(super) fn params(&self) -> [&(dyn ToSql + Sync); 7] {
        let MergedRows { rewritten, added } = self;
        [
            &rewritten.chains,
            &rewritten.keys,
            &rewritten.data,
            &rewritten.read,
            &added.chains,
            &added.keys,
            &added.data,
        ]
    }

    /// Adds the merged `packed` of `key`, which held `read` (nothing: no row).
    pub(super) fn push(
        &mut self,
        key: (i64, Timestamp),
        packed: &Packed,
        read: Option<String>,
    ) -> StoreResult<()> {
        let data = packed.encode()?;
        match read {
            Some(read) => {
                self.rewritten.push(key, data);
                self.rewritten.read.push(read);
            }
            None => self.added.push(key, data),
        }
        Ok(())
    }
}

/// Rows, column by column, as `unnest` takes them.
#[derive(Default)]
pub(super) struct Columns {
    pub(super) chains: Vec<i64>,
    /// Days or spans.
    pub(super) keys: Vec<i64>,
    pub(super) data: Vec<String>,
    /// What each row held when read (rows rewritten only).
    pub(super) read: Vec<String>,
}

impl Columns {
    pub(super) fn push(&mut self, (chain, key): (i64, Timestamp), data: String) {
        self.chains.push(chain);
        self.keys.push(key);
        self.data.push(data);
    }
}

/// Reads the day and span rows a batch's breakdowns add to (one statement, no lock held) and
/// merges the batch into them: each chain-day keeps to its cap of values a dimension
/// ([`Packed::add_day`]), and what the days kept is added to their spans.
pub(super) async fn merge_breakdowns(
    client: &impl GenericClient,
    breakdowns: &[BreakdownVisits],
) -> StoreResult<MergedBreakdowns> {
    let mut merged = MergedBreakdowns::default();
    if breakdowns.is_empty() {
        return Ok(merged);
    }
    let rows = by_chain_day(breakdowns);
    let days: Vec<_> = chain_days(&rows).collect();
    let span_keys: BTreeSet<(i64, Timestamp)> = days
        .iter()
        .map(|&((chain, day), _)| (chain, span_of(day)))
        .collect();
    let (day_chains, day_keys): (Vec<i64>, Vec<i64>) = days.iter().map(|(key, _)| *key).unzip();
    let (span_chains, span_keys): (Vec<i64>, Vec<i64>) = span_keys.into_iter().unzip();
    let read = all(
        client,
        &READ_BREAKDOWNS,
        &[&day_chains, &day_keys, &span_chains, &span_keys],
        |row| Ok((row.flag(0)?, (row.int(1)?, row.int(2)?), row.text(3)?)),
    )
    .await?;
    let (mut stored_days, mut stored_spans) = (HashMap::new(), HashMap::new());
    for (is_span, key, data) in read {
        if is_span {
            &mut stored_spans
        } else {
            &mut stored_days
        }
        .insert(key, data);
    }
    let mut spans: BTreeMap<(i64, Timestamp), Packed> = BTreeMap::new();
    for (key, visits) in days {
        let read = stored_days.remove(&key);
        let mut day = Packed::decode(read.as_deref())?;
        let kept = day.add_day(visits.iter().copied(), MAX_BREAKDOWN_VALUES);
        merged.days.push(key, &day, read)?;
        let (chain, day) = key;
        spans.entry((chain, span_of(day))).or_default().add(&kept);
    }
    for (key, kept) in spans {
        let read = stored_spans.remove(&key);
        let mut span = Packed::decode(read.as_deref())?;
        span.add(&kept);
        merged.spans.push(key, &span, read)?;
    }
    Ok(merged)
}
