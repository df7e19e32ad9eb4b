//! A redirect's cache miss, read together with the misses that came with it.
//!
//! On PostgreSQL a miss is a round trip to the database, and what it costs is mostly the
//! round trip (a query's protocol messages, a wake-up of the server's process and of this
//! one), not finding the row: a million chains under uniform redirects ran at 0.12 of the
//! cached path, this process spending about 42 µs of CPU a request (PostgreSQL's own on
//! top). So the misses that reach the store while a read is being gathered go as one query
//! (`unnest` of their domains and codes joined to the chains), each answered with its own
//! row.
//!
//! The first miss of a gathering spawns the task that reads it, after one turn of the
//! runtime (which lets the misses already on their way join): a caller that goes away
//! (its client hung up) takes nobody's answer with it. Every read is a fresh query begun
//! after each of its callers asked, so it sees every write acknowledged before any of them
//! did.

use std::sync::{Mutex, MutexGuard};

use tokio::sync::oneshot;

use super::channels::channels_of;
use super::{PgStore, all};
use crate::locks::Unpoisoned;
use crate::model::DomainId;
use crate::store::chains::{LINK_COLUMN_COUNT, LINK_COLUMNS, link_from_row, with_channels};
use crate::store::{LinkTarget, Misuse, StoreError, StoreResult, describe};

/// Most misses one query reads.
const MOST_A_READ: usize = 256;

/// The misses waiting to be read.
#[derive(Default)]
pub(super) struct LinkReads {
    queue: Mutex<Queue>,
    /// Queries sent, for the test that misses coming together are read together.
    #[cfg(test)]
    queries: std::sync::atomic::AtomicUsize,
}

#[derive(Default)]
struct Queue {
    waiting: Vec<Waiter>,
    /// Whether a task is about to take `waiting`.
    gathering: bool,
}

struct Waiter {
    domain: i64,
    code: String,
    answer: oneshot::Sender<StoreResult<Option<LinkTarget>>>,
}

/// Chains by (domain, code), each row with the position (from 1) of the pair it answers.
static LINKS_BY_CODES: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
    format!(
        "SELECT {}, t.at FROM unnest($1::bigint[], $2::text[]) WITH ORDINALITY
             AS t(domain_id, code, at)
         JOIN chains c ON c.domain_id = t.domain_id AND c.code = t.code",
        *LINK_COLUMNS
    )
});

/// The reading task went away before answering (the runtime shutting down).
#[derive(Debug, thiserror::Error)]
#[error("the read of this link was abandoned")]
struct Abandoned;

/// A failure of a read, told to each of the misses it was for.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
struct Told(String);

fn lock(reads: &LinkReads) -> MutexGuard<'_, Queue> {
    reads.queue.lock().unpoisoned()
}

impl PgStore {
    /// The chain with `code` on `domain`, read with the other misses of the moment.
    pub(super) async fn read_link(
        &self,
        domain: DomainId,
        code: &str,
    ) -> StoreResult<Option<LinkTarget>> {
        let (answer, answered) = oneshot::channel();
        let first = {
            let mut queue = lock(&self.link_reads);
            queue.waiting.push(Waiter {
                domain: domain.0,
                code: code.to_owned(),
                answer,
            });
            !std::mem::replace(&mut queue.gathering, true)
        };
        if first {
            let store = self.clone();
            tokio::spawn(async move {
                tokio::task::yield_now().await;
                let waiting = {
                    let mut queue = lock(&store.link_reads);
                    queue.gathering = false;
                    std::mem::take(&mut queue.waiting)
                };
                let mut waiting = waiting.into_iter().peekable();
                while waiting.peek().is_some() {
                    let some: Vec<Waiter> = waiting.by_ref().take(MOST_A_READ).collect();
                    store.answer(some).await;
                }
            });
        }
        answered
            .await
            .unwrap_or_else(|_| Err(StoreError::unavailable(Abandoned)))
    }

    /// Reads the links `waiting` asked for and answers each.
    async fn answer(&self, waiting: Vec<Waiter>) {
        match self.links(&waiting).await {
            Ok(links) => {
                for (waiter, link) in waiting.into_iter().zip(links) {
                    let _ = waiter.answer.send(Ok(link));
                }
            }
            Err(err) => {
                for waiter in waiting {
                    let _ = waiter.answer.send(Err(told(&err)));
                }
            }
        }
    }

    /// The links `waiting` asked for, in its order.
    async fn links(&self, waiting: &[Waiter]) -> StoreResult<Vec<Option<LinkTarget>>> {
        let client = self.client().await?;
        #[cfg(test)]
        self.link_reads
            .queries
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let domains: Vec<i64> = waiting.iter().map(|w| w.domain).collect();
        let codes: Vec<&str> = waiting.iter().map(|w| w.code.as_str()).collect();
        let rows = all(&client, &LINKS_BY_CODES, &[&domains, &codes], |row| {
            Ok((row.int(LINK_COLUMN_COUNT)?, link_from_row(row)?))
        })
        .await?;
        let mut links: Vec<Option<LinkTarget>> = waiting.iter().map(|_| None).collect();
        for (at, found) in rows {
            let channels = match &found.1 {
                Some(_) => channels_of(&client, found.0.chain_id).await?,
                None => Vec::new(),
            };
            let slot = usize::try_from(at - 1)
                .ok()
                .and_then(|at| links.get_mut(at))
                .ok_or_else(|| StoreError::backend(Misuse("a link read for no miss")))?;
            *slot = Some(with_channels(found, channels));
        }
        Ok(links)
    }
}

/// `err` as each of the misses it failed gets it: the same kind (unavailable or not), so that
/// each answers as its own read would have.
fn told(err: &StoreError) -> StoreError {
    match err {
        StoreError::Conflict(unique) => StoreError::Conflict(*unique),
        StoreError::Stopped => StoreError::Stopped,
        StoreError::Unavailable(_) => StoreError::unavailable(Told(describe(err))),
        StoreError::Backend(_) => StoreError::backend(Told(describe(err))),
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::Ordering;

    use super::super::schema::pg_cluster;
    use super::super::{PgOptions, PgStore};
    use crate::model::DomainId;

    /// Misses that reach the store together go as one query, each answered with its own
    /// chain (or none). A current-thread runtime makes "together" exact: every read below
    /// queues before the task that reads them runs.
    #[tokio::test(flavor = "current_thread")]
    async fn misses_that_come_together_are_read_in_one_query() {
        let Some(cluster) = pg_cluster::cluster() else {
            return;
        };
        let url = cluster.new_database();
        let store = PgStore::connect(&url, PgOptions::default())
            .await
            .expect("the store");
        cluster.psql(
            &url,
            "INSERT INTO users (id, name, created_at) VALUES (1, 'u', 0);
             INSERT INTO domains (id, host, scheme, created_at) VALUES (1, 'e.com', 'https', 0);
             INSERT INTO chains (user_id, chain_type, domain_id, code, target_url, created_at,
                                 updated_at)
             SELECT 1, 1, 1, 'c' || i, 'https://t.example/' || i, 0, 0
             FROM generate_series(1, 62) AS i;",
        );
        let codes: Vec<String> = (1..=64).map(|i| format!("c{i}")).collect();
        let answers = futures_util::future::join_all(
            codes.iter().map(|code| store.read_link(DomainId(1), code)),
        )
        .await;
        for (i, answer) in (1..).zip(answers) {
            let target = answer.expect("an answer").map(|link| link.target_url);
            let expected = (i <= 62).then(|| format!("https://t.example/{i}"));
            assert_eq!(target, expected, "c{i}");
        }
        assert_eq!(store.link_reads.queries.load(Ordering::Relaxed), 1);
    }
}
