//! Visits are counted off the redirect path: the handler queues a click and a background task
//! writes queued clicks in batches, one transaction each.
//!
//! The task keeps draining the queue whatever the store does, so a redirect never waits on
//! the store: while the store cannot take writes (a database outage), clicks wait in memory,
//! up to a bound, and are written once it is back, with retries backing off meanwhile. Only
//! past the bound are the oldest visits dropped, and that is logged.

use std::collections::VecDeque;
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::{mpsc, oneshot};

use crate::store::{Click, Store};

/// Queue length before visitors wait for the writer.
const QUEUE: usize = 65_536;
/// Most clicks written in one transaction.
const BATCH: usize = 1_000;
/// How long a lone click may wait for company.
const LINGER: Duration = Duration::from_millis(200);
/// Clicks held in memory while the store is unavailable (about 100 bytes each).
const MAX_UNWRITTEN: usize = 1_000_000;
/// First and longest wait before trying the store again after a failed write.
const FIRST_RETRY: Duration = Duration::from_millis(100);
const MAX_RETRY: Duration = Duration::from_secs(5);

enum Message {
    Click(Click),
    Flush(oneshot::Sender<()>),
}

pub(super) struct ClickRecorder {
    tx: mpsc::Sender<Message>,
}

impl ClickRecorder {
    pub(super) fn start(store: Arc<dyn Store>) -> Self {
        let (tx, rx) = mpsc::channel(QUEUE);
        tokio::spawn(run(store, rx));
        ClickRecorder { tx }
    }

    pub(super) async fn record(&self, click: Click) {
        if self.tx.send(Message::Click(click)).await.is_err() {
            tracing::error!("click writer has stopped; a visit was not counted");
        }
    }

    /// Returns once every click queued before the call is written.
    pub(super) async fn flush(&self) {
        let (done, wait) = oneshot::channel();
        if self.tx.send(Message::Flush(done)).await.is_ok() {
            let _ = wait.await;
        }
    }
}

async fn run(store: Arc<dyn Store>, mut rx: mpsc::Receiver<Message>) {
    // Clicks not yet written, oldest first.
    let mut unwritten: VecDeque<Click> = VecDeque::new();
    let mut flushes: Vec<oneshot::Sender<()>> = Vec::new();
    // Set while the store is failing: when to try again, and how long the next wait is.
    let mut retry: Option<(tokio::time::Instant, Duration)> = None;
    let mut dropped: u64 = 0;
    let mut open = true;
    while open || !unwritten.is_empty() {
        // Gather until there is a batch to write, a flush to answer, or it is time to write:
        // the retry time while the store is failing, else a moment after the first click.
        let mut until = retry.map(|(at, _)| at);
        loop {
            if !flushes.is_empty() || (retry.is_none() && unwritten.len() >= BATCH) {
                break;
            }
            let message = match until {
                None => rx.recv().await,
                Some(at) => match tokio::time::timeout_at(at, rx.recv()).await {
                    Ok(message) => message,
                    Err(_) => break,
                },
            };
            match message {
                Some(Message::Click(click)) => {
                    if unwritten.len() >= MAX_UNWRITTEN {
                        unwritten.pop_front();
                        dropped += 1;
                    }
                    unwritten.push_back(click);
                    until.get_or_insert_with(|| tokio::time::Instant::now() + LINGER);
                }
                Some(Message::Flush(done)) => flushes.push(done),
                None => {
                    open = false;
                    break;
                }
            }
        }
        if dropped > 0 {
            tracing::error!(
                dropped,
                "the store has been unavailable too long; dropped the oldest unwritten visits"
            );
            dropped = 0;
        }
        // Write what is there, a batch at a time, until done or the store fails.
        while !unwritten.is_empty() {
            let batch: Arc<[Click]> = unwritten
                .iter()
                .take(BATCH)
                .cloned()
                .collect::<Vec<_>>()
                .into();
            match write(&*store, batch.clone()).await {
                Ok(()) => {
                    unwritten.drain(..batch.len());
                    retry = None;
                }
                Err(err) => {
                    let wait = retry.map_or(FIRST_RETRY, |(_, wait)| (wait * 2).min(MAX_RETRY));
                    tracing::warn!(
                        error = %err,
                        unwritten = unwritten.len(),
                        retry_in_ms = wait.as_millis() as u64,
                        "writing visits failed; keeping them to retry"
                    );
                    retry = Some((tokio::time::Instant::now() + wait, wait));
                    break;
                }
            }
        }
        if !flushes.is_empty() {
            if !unwritten.is_empty() {
                // Shutting down while the store is away: say what is lost, do not hang.
                tracing::error!(
                    unwritten = unwritten.len(),
                    "visits could not be written before the flush"
                );
            }
            for done in flushes.drain(..) {
                let _ = done.send(());
            }
        }
        if !open && retry.is_some() {
            // The recorder is gone and the store is failing: nobody will flush again.
            tracing::error!(unwritten = unwritten.len(), "visits lost at shutdown");
            return;
        }
    }
}

async fn write(store: &dyn Store, batch: Arc<[Click]>) -> crate::store::StoreResult<()> {
    crate::store::write(store, move |tx| {
        let clicks = batch.clone();
        Box::pin(async move { tx.insert_clicks(&clicks).await })
    })
    .await
    .map(|((), _)| ())
}
