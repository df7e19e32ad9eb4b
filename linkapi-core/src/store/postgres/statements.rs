//! Running statements on PostgreSQL: one row, all rows, a count, an insert's id, reading a
//! row's columns, and what its errors mean (contention, transient, unique violations).

use deadpool_postgres::{GenericClient, PoolError};
use tokio_postgres::Row;
use tokio_postgres::error::SqlState;
use tokio_postgres::types::{ToSql, Type};

use super::super::{Bound, StoreError, StoreResult, StoredRow, Unique};

/// Maps a database error: lost connections, exhausted resources, shutdowns and contention are
/// "unavailable" (worth retrying later); anything else is a backend failure.
pub(in crate::store) fn pg_error(err: tokio_postgres::Error) -> StoreError {
    match err.code() {
        // No SQLSTATE: the connection failed, closed or timed out.
        None => StoreError::unavailable(err),
        Some(code) if is_transient(code) => StoreError::unavailable(err),
        Some(_) => StoreError::backend(err),
    }
}

pub(super) fn is_transient(code: &SqlState) -> bool {
    let code = code.code();
    // 08: connection exception, 53: insufficient resources, 57: operator intervention
    // (shutdown, cannot connect now), 40001/40P01: serialization failure, deadlock.
    code.starts_with("08")
        || code.starts_with("53")
        || code.starts_with("57")
        || is_contention_code(code)
}

pub(super) fn is_contention_code(code: &str) -> bool {
    code == SqlState::T_R_SERIALIZATION_FAILURE.code()
        || code == SqlState::T_R_DEADLOCK_DETECTED.code()
}

/// Whether a body's failure was contention with a concurrent transaction, so that running it
/// again may succeed.
pub(super) fn is_contention(err: &StoreError) -> bool {
    match err {
        StoreError::Unavailable(cause) => cause
            .downcast_ref::<tokio_postgres::Error>()
            .and_then(tokio_postgres::Error::code)
            .is_some_and(|code| is_contention_code(code.code())),
        _ => false,
    }
}

pub(super) fn pool_error(err: PoolError) -> StoreError {
    match err {
        PoolError::Backend(err) => pg_error(err),
        PoolError::Timeout(_) => StoreError::unavailable(err),
        other => StoreError::backend(other),
    }
}

/// Maps a UNIQUE violation to [`StoreError::Conflict`], anything else as [`pg_error`].
pub(super) fn unique_or(err: tokio_postgres::Error, what: Unique) -> StoreError {
    if err.code() == Some(&SqlState::UNIQUE_VIOLATION) {
        StoreError::Conflict(what)
    } else {
        pg_error(err)
    }
}

/// Parameters of a statement.
pub(super) type Params<'a> = &'a [&'a (dyn ToSql + Sync)];

/// The values of a shared [`Statement`](super::super::Statement) as parameters.
pub(super) fn bound(values: &[Bound]) -> Vec<&(dyn ToSql + Sync)> {
    values
        .iter()
        .map(|value| match value {
            Bound::Int(int) => int as &(dyn ToSql + Sync),
            Bound::Text(text) => text,
        })
        .collect()
}

/// One row or none, with a cached prepared statement.
pub(super) async fn one<T>(
    client: &impl GenericClient,
    sql: &str,
    params: Params<'_>,
    decode: fn(&dyn StoredRow) -> StoreResult<T>,
) -> StoreResult<Option<T>> {
    let statement = client.prepare_cached(sql).await.map_err(pg_error)?;
    match client
        .query_opt(&statement, params)
        .await
        .map_err(pg_error)?
    {
        Some(row) => decode(&row).map(Some),
        None => Ok(None),
    }
}

/// Every row, with a cached prepared statement.
pub(super) async fn all<T>(
    client: &impl GenericClient,
    sql: &str,
    params: Params<'_>,
    decode: fn(&dyn StoredRow) -> StoreResult<T>,
) -> StoreResult<Vec<T>> {
    let statement = client.prepare_cached(sql).await.map_err(pg_error)?;
    let rows = client.query(&statement, params).await.map_err(pg_error)?;
    rows.iter().map(|row| decode(row)).collect()
}

/// Runs a statement; returns the rows it changed.
pub(super) async fn execute(
    client: &impl GenericClient,
    sql: &str,
    params: Params<'_>,
) -> StoreResult<u64> {
    let statement = client.prepare_cached(sql).await.map_err(pg_error)?;
    client.execute(&statement, params).await.map_err(pg_error)
}

/// A count, or any single integer a statement returns.
pub(super) async fn count(
    client: &impl GenericClient,
    sql: &str,
    params: Params<'_>,
) -> StoreResult<i64> {
    Ok(one(client, sql, params, first).await?.unwrap_or(0))
}

/// The integer in the first column.
pub(super) fn first(row: &dyn StoredRow) -> StoreResult<i64> {
    row.int(0)
}

/// Runs an insert that returns one row, mapping a UNIQUE violation to `what`.
pub(super) async fn insert_returning(
    client: &impl GenericClient,
    sql: &str,
    params: Params<'_>,
    what: Unique,
) -> StoreResult<Row> {
    let statement = client.prepare_cached(sql).await.map_err(pg_error)?;
    client
        .query_one(&statement, params)
        .await
        .map_err(|e| unique_or(e, what))
}

impl StoredRow for Row {
    fn int(&self, idx: usize) -> StoreResult<i64> {
        // Integer literals (a CASE of constants) are 4-byte integers; columns are 8-byte.
        match self.columns().get(idx).map(|c| c.type_()) {
            Some(&Type::INT4) => self.try_get::<_, i32>(idx).map(i64::from),
            _ => self.try_get(idx),
        }
        .map_err(StoreError::backend)
    }

    fn opt_int(&self, idx: usize) -> StoreResult<Option<i64>> {
        match self.columns().get(idx).map(|c| c.type_()) {
            Some(&Type::INT4) => self
                .try_get::<_, Option<i32>>(idx)
                .map(|v| v.map(i64::from)),
            _ => self.try_get(idx),
        }
        .map_err(StoreError::backend)
    }

    fn text(&self, idx: usize) -> StoreResult<String> {
        self.try_get(idx).map_err(StoreError::backend)
    }

    fn opt_text(&self, idx: usize) -> StoreResult<Option<String>> {
        self.try_get(idx).map_err(StoreError::backend)
    }

    fn flag(&self, idx: usize) -> StoreResult<bool> {
        self.try_get(idx).map_err(StoreError::backend)
    }

    fn bytes(&self, idx: usize) -> StoreResult<Vec<u8>> {
        self.try_get(idx).map_err(StoreError::backend)
    }

    fn ids(&self, idx: usize) -> StoreResult<Vec<i64>> {
        self.try_get::<_, Option<Vec<i64>>>(idx)
            .map(Option::unwrap_or_default)
            .map_err(StoreError::backend)
    }
}
