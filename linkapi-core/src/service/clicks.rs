//! Visits are counted off the redirect path: the handler queues a click and a background task
//! writes queued clicks in batches, one transaction each. A bounded queue applies back-pressure
//! instead of dropping visits when the store falls behind.

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
    let mut batch = Vec::with_capacity(BATCH);
    let mut waiting = Vec::new();
    while let Some(first) = rx.recv().await {
        let deadline = tokio::time::Instant::now() + LINGER;
        let mut next = Some(first);
        while let Some(message) = next.take() {
            match message {
                Message::Click(c) => batch.push(c),
                Message::Flush(done) => {
                    waiting.push(done);
                    break;
                }
            }
            if batch.len() >= BATCH {
                break;
            }
            next = match tokio::time::timeout_at(deadline, rx.recv()).await {
                Ok(Some(m)) => Some(m),
                Ok(None) | Err(_) => None,
            };
        }
        if !batch.is_empty() {
            write(&*store, &batch).await;
            batch.clear();
        }
        for done in waiting.drain(..) {
            let _ = done.send(());
        }
    }
}

async fn write(store: &dyn Store, batch: &[Click]) {
    let batch: Arc<[Click]> = batch.into();
    // The store may be briefly busy (a long write elsewhere); retry before giving up.
    for attempt in 0..3 {
        let clicks = batch.clone();
        let written = crate::store::write(store, move |tx| {
            let clicks = clicks.clone();
            Box::pin(async move { tx.insert_clicks(&clicks).await })
        })
        .await;
        match written {
            Ok(((), _)) => return,
            Err(err) => {
                tracing::warn!(error = %err, attempt, clicks = batch.len(), "writing clicks failed");
                tokio::time::sleep(Duration::from_millis(100 << attempt)).await;
            }
        }
    }
    tracing::error!(
        clicks = batch.len(),
        "dropping visits after repeated store failures"
    );
}
