//! The writer thread: the one connection that writes, and group commit.
//!
//! SQLite takes one writer at a time and a durable commit costs an fsync, so committing each
//! transaction body on its own caps writes at the disk's fsync rate. Instead the thread takes
//! every body that is waiting, runs each inside its own savepoint of one transaction, and
//! commits once: one fsync for the group. A body that fails rolls back to its savepoint alone.
//! No body's caller hears "done" before the commit that holds its writes returned; if that
//! commit fails, every body in the group fails with it.
//!
//! Bodies are async (the same bodies run on PostgreSQL) but every [`Tx`] method here is
//! synchronous, so a body completes on its first poll. One that does not has awaited something
//! other than its `Tx`; it is dropped, its savepoint rolled back, and its caller told so.

use std::sync::mpsc;
use std::task::{Context, Poll, Waker};

use rusqlite::Connection;
use tokio::sync::oneshot;

use super::SqliteTx;
use crate::store::{Invalidation, Misuse, StoreError, StoreResult, TxBody};

/// Most bodies committed together; bounds how long one group holds the write lock.
const MAX_GROUP: usize = 512;

/// One transaction body waiting for the writer, and where its outcome goes.
pub(super) struct Job {
    pub(super) body: TxBody,
    pub(super) done: oneshot::Sender<StoreResult<Vec<Invalidation>>>,
}

/// Starts the writer thread on `conn`. It ends when every sender is dropped.
pub(super) fn spawn(conn: Connection) -> std::io::Result<mpsc::Sender<Job>> {
    let (jobs, queue) = mpsc::channel::<Job>();
    std::thread::Builder::new()
        .name("linkapi-sqlite-writer".into())
        .spawn(move || run(conn, &queue))?;
    Ok(jobs)
}

fn run(mut conn: Connection, queue: &mpsc::Receiver<Job>) {
    while let Ok(first) = queue.recv() {
        let mut group = vec![first];
        while group.len() < MAX_GROUP {
            match queue.try_recv() {
                Ok(job) => group.push(job),
                Err(_) => break,
            }
        }
        commit_group(&mut conn, group);
    }
}

fn commit_group(conn: &mut Connection, group: Vec<Job>) {
    if let Err(err) = conn.execute_batch("BEGIN IMMEDIATE") {
        fail_all(group, &err);
        return;
    }
    let mut outcomes = Vec::with_capacity(group.len());
    for mut job in group {
        match run_in_savepoint(conn, &mut job.body) {
            Ok(outcome) => outcomes.push((job.done, outcome)),
            Err(err) => {
                // The savepoint machinery itself failed: the transaction is in an unknown
                // state, so nothing in it may commit.
                let _ = conn.execute_batch("ROLLBACK");
                let _ = job.done.send(Err(StoreError::backend(err)));
                for (done, _) in outcomes {
                    let _ = done.send(Err(StoreError::backend(Misuse(
                        "a transaction grouped with this one failed; nothing was written",
                    ))));
                }
                return;
            }
        }
    }
    match conn.execute_batch("COMMIT") {
        Ok(()) => {
            for (done, outcome) in outcomes {
                let _ = done.send(outcome);
            }
        }
        Err(err) => {
            tracing::error!(error = %err, "group commit failed");
            let _ = conn.execute_batch("ROLLBACK");
            for (done, outcome) in outcomes {
                let _ =
                    done.send(outcome.and(Err(StoreError::backend(WriteFailed(err.to_string())))));
            }
        }
    }
}

/// The transaction that held a body's writes could not begin or commit.
#[derive(Debug, thiserror::Error)]
#[error("write transaction failed: {0}")]
struct WriteFailed(String);

/// Runs one body in a savepoint. The outer result is the savepoint machinery's; the inner one
/// is the body's, already rolled back when it is an error.
fn run_in_savepoint(
    conn: &mut Connection,
    body: &mut TxBody,
) -> rusqlite::Result<StoreResult<Vec<Invalidation>>> {
    conn.execute_batch("SAVEPOINT body")?;
    let mut tx = SqliteTx {
        conn: &mut *conn,
        changes: Vec::new(),
    };
    let outcome = {
        let mut run = body(&mut tx);
        match run.as_mut().poll(&mut Context::from_waker(Waker::noop())) {
            Poll::Ready(result) => result,
            Poll::Pending => Err(StoreError::backend(Misuse(
                "a transaction body awaited something other than the store",
            ))),
        }
    };
    let changes = tx.changes;
    match outcome {
        Ok(()) => {
            conn.execute_batch("RELEASE body")?;
            Ok(Ok(changes))
        }
        Err(err) => {
            conn.execute_batch("ROLLBACK TO body; RELEASE body")?;
            Ok(Err(err))
        }
    }
}

fn fail_all(group: Vec<Job>, err: &rusqlite::Error) {
    tracing::error!(error = %err, "could not begin a write transaction");
    for job in group {
        let _ = job
            .done
            .send(Err(StoreError::backend(WriteFailed(err.to_string()))));
    }
}
