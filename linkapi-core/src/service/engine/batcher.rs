//! Work that arrives at once, taken in batches: whatever waits when one batch is done makes
//! the next, so a lone item is taken at once and under load batches grow by themselves.
//!
//! A batch waits for nothing: the first item is taken as soon as the batch before it is done,
//! with whatever else is waiting by then. Batches run one after another: while one is at
//! work, the next one gathers. (Batches in flight side by side were measured for plain
//! creates: two or four made smaller batches, more statements, and fewer creates a second
//! with two instances on two cores.)

use std::future::Future;

use tokio::sync::mpsc;

/// Where items wait for their batch.
pub(crate) struct Batcher<T> {
    queue: mpsc::Sender<T>,
}

impl<T: Send + 'static> Batcher<T> {
    /// Starts the task that hands batches of at most `max_batch` items to `handle`, one at a
    /// time; at most `queue` items wait, and a sender past it waits to be queued. The task
    /// ends when `handle` answers `None` (what it works for is gone) or every sender is.
    pub(crate) fn start<F, Fut>(max_batch: usize, queue: usize, mut handle: F) -> Self
    where
        F: FnMut(Vec<T>) -> Option<Fut> + Send + 'static,
        Fut: Future<Output = ()> + Send,
    {
        let (sender, mut waiting) = mpsc::channel(queue.max(1));
        tokio::spawn(async move {
            while let Some(first) = waiting.recv().await {
                let mut batch = vec![first];
                while batch.len() < max_batch {
                    match waiting.try_recv() {
                        Ok(next) => batch.push(next),
                        Err(_) => break,
                    }
                }
                let Some(work) = handle(batch) else { return };
                work.await;
            }
        });
        Batcher { queue: sender }
    }

    /// Queues `item` for the next batch; gives it back when the task is gone.
    pub(crate) async fn send(&self, item: T) -> Result<(), T> {
        self.queue.send(item).await.map_err(|err| err.0)
    }
}

#[cfg(test)]
mod tests {
    use std::sync::{Arc, Mutex};

    use super::*;

    #[tokio::test]
    async fn items_waiting_together_make_one_batch_up_to_the_most() {
        let sizes = Arc::new(Mutex::new(Vec::new()));
        let seen = sizes.clone();
        let batcher = Batcher::start(3, 16, move |batch: Vec<u32>| {
            seen.lock().unwrap_or_else(|e| e.into_inner()).push(batch);
            Some(std::future::ready(()))
        });
        // One thread: the task runs only once this test waits, so all seven are waiting.
        for item in 0..7 {
            assert!(batcher.send(item).await.is_ok());
        }
        let batches = loop {
            let batches = sizes.lock().unwrap_or_else(|e| e.into_inner()).clone();
            if batches.iter().map(Vec::len).sum::<usize>() == 7 {
                break batches;
            }
            tokio::task::yield_now().await;
        };
        assert_eq!(batches, [vec![0, 1, 2], vec![3, 4, 5], vec![6]]);
        // A lone item later is taken at once, alone.
        assert!(batcher.send(7).await.is_ok());
        loop {
            if sizes.lock().unwrap_or_else(|e| e.into_inner()).len() == 4 {
                break;
            }
            tokio::task::yield_now().await;
        }
        assert_eq!(sizes.lock().unwrap_or_else(|e| e.into_inner())[3], [7]);
    }

    #[tokio::test]
    async fn an_item_comes_back_when_the_task_is_gone() {
        let batcher = Batcher::start(4, 4, |_batch: Vec<u32>| None::<std::future::Ready<()>>);
        assert!(batcher.send(1).await.is_ok());
        let mut back = None;
        for _ in 0..1000 {
            if let Err(item) = batcher.send(2).await {
                back = Some(item);
                break;
            }
            tokio::task::yield_now().await;
        }
        assert_eq!(back, Some(2));
    }
}
