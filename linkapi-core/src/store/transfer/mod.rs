//! Moving a deployment from its SQLite file to PostgreSQL: [`sqlite_to_postgres`] copies every
//! table row for row (ids, codes, key hashes, counters and timestamps unchanged), then reads
//! both sides back and compares row counts and a checksum per table. One table then gains
//! rows: the spans of one day get the summary row PostgreSQL keeps for every span
//! (`SPANS_OF_ONE_DAY`). Before the copy, SQLite's visits of recent days are folded into its
//! counters (`SOURCE_ONLY`).
//!
//! The whole copy is one PostgreSQL transaction that commits only after the comparison agrees,
//! so an interrupted or failed run leaves the target as it was and is simply run again. The
//! source is locked like a serving server locks it ([`DatabaseLock`]): nothing can be
//! acknowledged on SQLite after the copy began and then missed.
//!
//! Both backends have the same tables and columns (see `postgres/schema.rs`); [`TABLES`] lists
//! them in an order that inserts every referenced row before the rows referring to it, and a
//! table either side has that the list lacks is an error rather than data left behind.

use std::path::Path;
use std::pin::pin;

use deadpool_postgres::GenericClient;
use rusqlite::types::ValueRef;
use sha2::{Digest, Sha256};
use tokio_postgres::binary_copy::BinaryCopyInWriter;
use tokio_postgres::types::{ToSql, Type};

use super::StoreError;
use super::postgres::{live_instances, migrated_client, pg_error};
use super::sqlite::schema;
use super::sqlite::snapshot::{DatabaseLock, SnapshotError};
use crate::model::Timestamp;

/// Every table of the schema, referenced tables first.
pub const TABLES: &[&str] = &[
    "users",
    "api_keys",
    "domains",
    "chain_groups",
    "templates",
    "chains",
    "chain_group_members",
    "channels",
    "channel_daily_visits",
    "chain_daily_clicks",
    "chain_visitors",
    "chain_visit_totals",
    "chain_breakdown_days",
    "chain_breakdown_spans",
    "orphan_visits",
    "visitor_secrets",
    "visit_batches",
    "blobs",
    "uploads",
    "upload_usage",
    "conversions",
    "workchat_assemblies",
    "workchat_transfers",
    "daily_creations",
    "idempotency_keys",
    "idempotency_parts",
    "webhooks",
    "webhook_deliveries",
    "webhook_attempts",
];

/// PostgreSQL's own bookkeeping, which has no SQLite counterpart and is not copied.
const TARGET_ONLY: &[&str] = &["linkapi_instances", "linkapi_migrations"];

/// SQLite's visits of recent days, kept apart until folded into the chain-first counters:
/// folded whole before the copy begins, so it is copied empty, that is, not at all; and the
/// numbers their breakdowns name values by, which nothing folded uses.
const SOURCE_ONLY: &[&str] = &["chain_recent_days", "breakdown_values"];

/// Gives each span of one day its row, the day's sum, once the copy is verified: SQLite writes
/// a chain's span once it has two days and reads a span without a row from its one day,
/// PostgreSQL writes the span with every day and reads spans alone (see `store::breakdowns`).
/// The source's spans without a row have one day each, so this inserts one row per span.
const SPANS_OF_ONE_DAY: &str = "INSERT INTO chain_breakdown_spans (chain_id, span, data)
     SELECT d.chain_id, d.day - d.day % 2592000, d.data FROM chain_breakdown_days d
     WHERE NOT EXISTS (SELECT 1 FROM chain_breakdown_spans s
                       WHERE s.chain_id = d.chain_id AND s.span = d.day - d.day % 2592000)";

/// Folds SQLite's recent days into the chain-first counters that the copy takes (see
/// `sqlite::recent_days`), a chunk at a time, in one transaction of the source.
fn fold_all_recent_days(sqlite: &mut rusqlite::Connection) -> Result<(), TransferError> {
    let tx = sqlite.transaction()?;
    while super::sqlite::recent_days::fold_recent_days(&tx, Timestamp::MAX, 50_000)? > 0 {}
    tx.commit()?;
    Ok(())
}

/// Rows sent to PostgreSQL between progress reports.
const REPORT_EVERY: u64 = 50_000;

/// What can stop a copy. None of them leaves the target changed.
#[derive(Debug, thiserror::Error)]
pub enum TransferError {
    /// The source cannot be locked or opened.
    #[error(transparent)]
    Source(#[from] SnapshotError),
    /// SQLite failed while reading.
    #[error("reading SQLite: {0}")]
    Sqlite(#[from] rusqlite::Error),
    /// PostgreSQL failed.
    #[error(transparent)]
    Target(#[from] StoreError),
    /// The target holds data and the caller did not ask to replace it.
    #[error("the target database is not empty ({0}); pass --replace to overwrite it")]
    TargetNotEmpty(String),
    /// Instances are serving the target.
    #[error(
        "{0} linkapi instance(s) are serving the target database; stop them before copying into it"
    )]
    TargetServing(i64),
    /// The two schemas do not describe the same tables and columns.
    #[error("the schemas differ: {0}")]
    SchemaMismatch(String),
    /// A stored value cannot be represented in the target's column type.
    #[error("{table}.{column}: {detail}")]
    BadValue {
        /// The table.
        table: String,
        /// The column.
        column: String,
        /// What was found.
        detail: String,
    },
    /// Read back, the target does not hold what was copied; the copy was rolled back.
    #[error(
        "{table}: the source has {source_rows} rows (checksum {source_sum:032x}), the copy \
         {target_rows} (checksum {target_sum:032x}); nothing was committed"
    )]
    Mismatch {
        /// The table.
        table: String,
        /// Rows in SQLite.
        source_rows: u64,
        /// Rows read back from PostgreSQL.
        target_rows: u64,
        /// Checksum of SQLite's rows.
        source_sum: u128,
        /// Checksum of PostgreSQL's rows.
        target_sum: u128,
    },
}

/// What the copy reports while it works.
#[derive(Debug, Clone, Copy)]
pub enum Progress<'a> {
    /// Rows of `table` sent so far, of `total`.
    Copying {
        /// The table.
        table: &'a str,
        /// Rows sent.
        done: u64,
        /// Rows it has.
        total: u64,
    },
    /// Every table is copied; reading them back to compare.
    Verifying,
}

/// One table's copy.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TableCopy {
    /// The table.
    pub table: String,
    /// Rows copied (the same on both sides).
    pub rows: u64,
    /// The checksum both sides agree on: an order-independent sum of each row's SHA-256.
    pub checksum: u128,
}

/// What a finished copy did.
#[derive(Debug, Clone)]
pub struct CopyReport {
    /// The schema version both sides are at.
    pub schema_version: i64,
    /// Every table, in [`TABLES`] order.
    pub tables: Vec<TableCopy>,
}

/// The PostgreSQL type of a column, which decides how SQLite's value is carried over.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Int,
    Bool,
    Text,
    Bytes,
}

impl Kind {
    fn from_pg(table: &str, column: &str, data_type: &str) -> Result<Kind, TransferError> {
        Ok(match data_type {
            "bigint" | "integer" | "smallint" => Kind::Int,
            "boolean" => Kind::Bool,
            "text" => Kind::Text,
            "bytea" => Kind::Bytes,
            other => {
                return Err(TransferError::SchemaMismatch(format!(
                    "{table}.{column} has type {other}, which the copy does not carry"
                )));
            }
        })
    }

    fn pg_type(self) -> Type {
        match self {
            Kind::Int => Type::INT8,
            Kind::Bool => Type::BOOL,
            Kind::Text => Type::TEXT,
            Kind::Bytes => Type::BYTEA,
        }
    }
}

/// One value as PostgreSQL's column takes it.
#[derive(Debug, Clone, PartialEq)]
enum Cell {
    Int(Option<i64>),
    Bool(Option<bool>),
    Text(Option<String>),
    Bytes(Option<Vec<u8>>),
}

impl Cell {
    fn as_sql(&self) -> &(dyn ToSql + Sync) {
        match self {
            Cell::Int(v) => v,
            Cell::Bool(v) => v,
            Cell::Text(v) => v,
            Cell::Bytes(v) => v,
        }
    }

    /// Feeds an unambiguous encoding of the value to `hash`.
    fn digest(&self, hash: &mut Sha256) {
        fn bytes(hash: &mut Sha256, tag: u8, value: Option<&[u8]>) {
            match value {
                None => hash.update([0]),
                Some(v) => {
                    hash.update([tag]);
                    hash.update((v.len() as u64).to_le_bytes());
                    hash.update(v);
                }
            }
        }
        match self {
            Cell::Int(v) => bytes(hash, 1, v.map(i64::to_le_bytes).as_ref().map(|b| &b[..])),
            Cell::Bool(v) => bytes(hash, 2, v.map(|b| [u8::from(b)]).as_ref().map(|b| &b[..])),
            Cell::Text(v) => bytes(hash, 3, v.as_deref().map(str::as_bytes)),
            Cell::Bytes(v) => bytes(hash, 4, v.as_deref()),
        }
    }
}

/// A table's columns and their kinds, as PostgreSQL declares them.
#[derive(Debug, Clone)]
struct Table {
    name: &'static str,
    columns: Vec<(String, Kind)>,
}

impl Table {
    fn column_list(&self) -> String {
        self.columns
            .iter()
            .map(|(name, _)| format!("\"{name}\""))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// Row count and checksum of one side of a table.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Tally {
    rows: u64,
    sum: u128,
}

impl Tally {
    fn add(&mut self, row: &[Cell]) {
        let mut hash = Sha256::new();
        for cell in row {
            cell.digest(&mut hash);
        }
        let digest = hash.finalize();
        let mut first = [0u8; 16];
        first.copy_from_slice(&digest[..16]);
        self.rows += 1;
        self.sum = self.sum.wrapping_add(u128::from_le_bytes(first));
    }
}

/// Copies the SQLite database at `source` into the PostgreSQL database at `target_url`.
///
/// The source is locked for the whole copy (a running server on it is refused) and brought to
/// the newest schema first, as a server would on start. The target's schema is brought up to
/// date; a target with data is refused unless `replace`, and a target that instances are
/// serving is always refused.
///
/// # Errors
/// See [`TransferError`]; whatever the error, the target is as it was.
pub async fn sqlite_to_postgres(
    source: &Path,
    target_url: &str,
    replace: bool,
    progress: &mut dyn FnMut(Progress<'_>),
) -> Result<CopyReport, TransferError> {
    let lock = DatabaseLock::acquire(source)?;
    if !source.is_file() {
        return Err(SnapshotError::Missing(source.to_path_buf()).into());
    }
    let mut sqlite = rusqlite::Connection::open(source)?;
    sqlite.busy_timeout(std::time::Duration::from_secs(10))?;
    schema::migrate(&mut sqlite)?;
    fold_all_recent_days(&mut sqlite)?;
    let schema_version: i64 = sqlite.query_row("PRAGMA user_version", [], |r| r.get(0))?;

    let mut client = migrated_client(target_url).await?;
    let serving = live_instances(&client).await?;
    if serving > 0 {
        return Err(TransferError::TargetServing(serving));
    }
    let tx = client.transaction().await.map_err(pg_error)?;
    let tables = describe(&tx, &sqlite).await?;
    if !replace {
        refuse_data(&tx, &tables).await?;
    }
    let all = TABLES.join(", ");
    tx.batch_execute(&format!("TRUNCATE {all}"))
        .await
        .map_err(pg_error)?;
    let floors = next_ids(&tx, &tables).await?;

    let mut copied = Vec::with_capacity(tables.len());
    for table in &tables {
        copied.push(copy_table(&tx, &sqlite, table, progress).await?);
    }
    for (table, floor) in &floors {
        tx.execute(
            &format!(
                "SELECT setval(pg_get_serial_sequence('{table}', 'id'), \
                 greatest((SELECT coalesce(max(id), 0) + 1 FROM {table}), $1), false)"
            ),
            &[floor],
        )
        .await
        .map_err(pg_error)?;
    }

    progress(Progress::Verifying);
    let mut report = Vec::with_capacity(tables.len());
    for (table, source_tally) in tables.iter().zip(copied) {
        let target_tally = read_back(&tx, table).await?;
        if source_tally != target_tally {
            return Err(TransferError::Mismatch {
                table: table.name.to_owned(),
                source_rows: source_tally.rows,
                target_rows: target_tally.rows,
                source_sum: source_tally.sum,
                target_sum: target_tally.sum,
            });
        }
        report.push(TableCopy {
            table: table.name.to_owned(),
            rows: source_tally.rows,
            checksum: source_tally.sum,
        });
    }
    tx.execute(SPANS_OF_ONE_DAY, &[]).await.map_err(pg_error)?;
    tx.commit().await.map_err(pg_error)?;
    drop(lock);
    Ok(CopyReport {
        schema_version,
        tables: report,
    })
}

/// Each table's columns from PostgreSQL's catalogue, checked against SQLite's: the same
/// tables, the same column names.
async fn describe(
    tx: &impl GenericClient,
    sqlite: &rusqlite::Connection,
) -> Result<Vec<Table>, TransferError> {
    let target_tables: Vec<String> = tx
        .query(
            "SELECT table_name::text FROM information_schema.tables \
             WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'",
            &[],
        )
        .await
        .map_err(pg_error)?
        .iter()
        .map(|r| r.get(0))
        .collect();
    let source_tables: Vec<String> = sqlite
        .prepare(
            "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'",
        )?
        .query_map([], |r| r.get(0))?
        .collect::<rusqlite::Result<_>>()?;
    for name in &target_tables {
        if !TABLES.contains(&name.as_str()) && !TARGET_ONLY.contains(&name.as_str()) {
            return Err(TransferError::SchemaMismatch(format!(
                "PostgreSQL has a table {name} the copy does not know"
            )));
        }
    }
    for name in &source_tables {
        if !TABLES.contains(&name.as_str()) && !SOURCE_ONLY.contains(&name.as_str()) {
            return Err(TransferError::SchemaMismatch(format!(
                "SQLite has a table {name} the copy does not know"
            )));
        }
    }
    let mut tables = Vec::with_capacity(TABLES.len());
    for &name in TABLES {
        let columns: Vec<(String, Kind)> = tx
            .query(
                "SELECT column_name::text, data_type::text FROM information_schema.columns \
                 WHERE table_schema = current_schema() AND table_name = $1 \
                 ORDER BY ordinal_position",
                &[&name],
            )
            .await
            .map_err(pg_error)?
            .iter()
            .map(|r| {
                let column: String = r.get(0);
                let kind = Kind::from_pg(name, &column, r.get(1))?;
                Ok((column, kind))
            })
            .collect::<Result<_, TransferError>>()?;
        if columns.is_empty() {
            return Err(TransferError::SchemaMismatch(format!(
                "PostgreSQL has no table {name}"
            )));
        }
        let mut source_columns: Vec<String> = sqlite
            .prepare("SELECT name FROM pragma_table_info(?1)")?
            .query_map([name], |r| r.get(0))?
            .collect::<rusqlite::Result<_>>()?;
        let mut target_columns: Vec<String> = columns.iter().map(|(c, _)| c.clone()).collect();
        source_columns.sort();
        target_columns.sort();
        if source_columns != target_columns {
            return Err(TransferError::SchemaMismatch(format!(
                "{name} has columns {source_columns:?} in SQLite and {target_columns:?} in \
                 PostgreSQL"
            )));
        }
        tables.push(Table { name, columns });
    }
    Ok(tables)
}

/// Refuses a target holding anything beyond what its migrations put there (the built-in
/// templates, ids below 1000).
async fn refuse_data(tx: &impl GenericClient, tables: &[Table]) -> Result<(), TransferError> {
    let mut held = Vec::new();
    for table in tables {
        let filter = if table.name == "templates" {
            " WHERE user_id IS NOT NULL OR id >= 1000"
        } else {
            ""
        };
        let rows: i64 = tx
            .query_one(&format!("SELECT count(*) FROM {}{filter}", table.name), &[])
            .await
            .map_err(pg_error)?
            .get(0);
        if rows > 0 {
            held.push(format!("{} {}", rows, table.name));
        }
    }
    if held.is_empty() {
        Ok(())
    } else {
        Err(TransferError::TargetNotEmpty(held.join(", ")))
    }
}

/// For each table with an identity `id`, the id its sequence would hand out next: after the
/// copy it hands out the greater of that and one past the highest copied id, so ids the target
/// reserved (templates start at 1000) stay reserved and no copied id is handed out again.
async fn next_ids(
    tx: &impl GenericClient,
    tables: &[Table],
) -> Result<Vec<(&'static str, i64)>, TransferError> {
    let mut floors = Vec::new();
    for table in tables
        .iter()
        .filter(|t| t.columns.iter().any(|(c, _)| c == "id"))
    {
        let sequence: Option<String> = tx
            .query_one("SELECT pg_get_serial_sequence($1, 'id')", &[&table.name])
            .await
            .map_err(pg_error)?
            .get(0);
        let Some(sequence) = sequence else { continue };
        let row = tx
            .query_one(
                &format!("SELECT last_value, is_called FROM {sequence}"),
                &[],
            )
            .await
            .map_err(pg_error)?;
        let (last, called): (i64, bool) = (row.get(0), row.get(1));
        floors.push((table.name, if called { last + 1 } else { last }));
    }
    Ok(floors)
}

/// Streams one table from SQLite into PostgreSQL's binary COPY; the tally of what was sent.
async fn copy_table(
    tx: &deadpool_postgres::Transaction<'_>,
    sqlite: &rusqlite::Connection,
    table: &Table,
    progress: &mut dyn FnMut(Progress<'_>),
) -> Result<Tally, TransferError> {
    let total: i64 =
        sqlite.query_row(&format!("SELECT count(*) FROM {}", table.name), [], |r| {
            r.get(0)
        })?;
    let total = total.max(0) as u64;
    progress(Progress::Copying {
        table: table.name,
        done: 0,
        total,
    });
    let columns = table.column_list();
    let sink = tx
        .copy_in(&format!(
            "COPY {} ({columns}) FROM STDIN (FORMAT binary)",
            table.name
        ))
        .await
        .map_err(pg_error)?;
    let types: Vec<Type> = table.columns.iter().map(|(_, k)| k.pg_type()).collect();
    let mut writer = pin!(BinaryCopyInWriter::new(sink, &types));
    let mut statement = sqlite.prepare(&format!("SELECT {columns} FROM {}", table.name))?;
    let mut rows = statement.query([])?;
    let mut tally = Tally::default();
    let mut row_cells = Vec::with_capacity(table.columns.len());
    while let Some(row) = rows.next()? {
        row_cells.clear();
        for (index, (column, kind)) in table.columns.iter().enumerate() {
            row_cells.push(from_sqlite(table.name, column, *kind, row.get_ref(index)?)?);
        }
        tally.add(&row_cells);
        let values: Vec<&(dyn ToSql + Sync)> = row_cells.iter().map(Cell::as_sql).collect();
        writer.as_mut().write(&values).await.map_err(pg_error)?;
        if tally.rows % REPORT_EVERY == 0 {
            progress(Progress::Copying {
                table: table.name,
                done: tally.rows,
                total,
            });
        }
    }
    writer.finish().await.map_err(pg_error)?;
    progress(Progress::Copying {
        table: table.name,
        done: tally.rows,
        total,
    });
    Ok(tally)
}

/// SQLite's value as the PostgreSQL column of `kind` takes it.
fn from_sqlite(
    table: &str,
    column: &str,
    kind: Kind,
    value: ValueRef<'_>,
) -> Result<Cell, TransferError> {
    let bad = |detail: String| TransferError::BadValue {
        table: table.to_owned(),
        column: column.to_owned(),
        detail,
    };
    Ok(match (kind, value) {
        (Kind::Int, ValueRef::Null) => Cell::Int(None),
        (Kind::Int, ValueRef::Integer(v)) => Cell::Int(Some(v)),
        (Kind::Bool, ValueRef::Null) => Cell::Bool(None),
        (Kind::Bool, ValueRef::Integer(v)) => Cell::Bool(Some(v != 0)),
        (Kind::Text, ValueRef::Null) => Cell::Text(None),
        (Kind::Text, ValueRef::Text(v)) => Cell::Text(Some(
            String::from_utf8(v.to_vec()).map_err(|_| bad("text that is not UTF-8".to_owned()))?,
        )),
        (Kind::Bytes, ValueRef::Null) => Cell::Bytes(None),
        (Kind::Bytes, ValueRef::Blob(v) | ValueRef::Text(v)) => Cell::Bytes(Some(v.to_vec())),
        (kind, other) => {
            return Err(bad(format!(
                "a {:?} value where the target column is {kind:?}",
                other.data_type()
            )));
        }
    })
}

/// Reads a table back from PostgreSQL inside the copying transaction.
async fn read_back(tx: &impl GenericClient, table: &Table) -> Result<Tally, TransferError> {
    let rows = tx
        .query_raw(
            &format!("SELECT {} FROM {}", table.column_list(), table.name),
            std::iter::empty::<&(dyn ToSql + Sync)>(),
        )
        .await
        .map_err(pg_error)?;
    let mut rows = pin!(rows);
    let mut tally = Tally::default();
    let mut cells = Vec::with_capacity(table.columns.len());
    while let Some(row) = futures_util::TryStreamExt::try_next(&mut rows)
        .await
        .map_err(pg_error)?
    {
        cells.clear();
        for (index, (_, kind)) in table.columns.iter().enumerate() {
            cells.push(match kind {
                Kind::Int => Cell::Int(row.try_get(index).map_err(pg_error)?),
                Kind::Bool => Cell::Bool(row.try_get(index).map_err(pg_error)?),
                Kind::Text => Cell::Text(row.try_get(index).map_err(pg_error)?),
                Kind::Bytes => Cell::Bytes(row.try_get(index).map_err(pg_error)?),
            });
        }
        tally.add(&cells);
    }
    Ok(tally)
}

#[cfg(test)]
mod tests;
