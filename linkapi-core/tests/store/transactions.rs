//! What a transaction body commits, and what a failed one leaves.

use std::sync::Arc;

use linkapi_core::model::DomainId;
use linkapi_core::store::{Invalidation, NewUser, Store, StoreError, Unique};

use crate::{T0, conformance, domain, short_chain, tx, user};

conformance!(
    a_failed_body_leaves_nothing_and_publishes_nothing,
    a_committed_body_returns_what_it_published,
);

async fn a_failed_body_leaves_nothing_and_publishes_nothing(store: Arc<dyn Store>) {
    let alice = user(&store, "alice").await.id;
    let d = domain(&store, "f.example").await.id;
    let failed = tx!(store, |tx| {
        tx.insert_chain(short_chain(alice, d, "kept-out", T0))
            .await?;
        tx.insert_user(NewUser {
            name: "bob".to_owned(),
            daily_quota: None,
            created_at: T0,
        })
        .await?;
        tx.publish(Invalidation::Domains).await?;
        // The rule that fails comes last: everything before it goes too.
        tx.insert_user(NewUser {
            name: "alice".to_owned(),
            daily_quota: None,
            created_at: T0,
        })
        .await
    });
    assert!(
        matches!(failed, Err(StoreError::Conflict(Unique::UserName))),
        "{failed:?}"
    );
    assert!(
        store
            .chains_by_code(alice, "kept-out")
            .await
            .unwrap()
            .is_empty()
    );
    assert_eq!(store.link(d, "kept-out").await.unwrap(), None);
    assert_eq!(store.users().await.unwrap().len(), 1);
    // The code was never taken.
    tx!(store, |tx| tx
        .insert_chain(short_chain(alice, d, "kept-out", T0))
        .await)
    .unwrap();
}

async fn a_committed_body_returns_what_it_published(store: Arc<dyn Store>) {
    let (domain_id, changes) = linkapi_core::store::transact(&*store, |tx| {
        Box::pin(async move {
            let d = tx.insert_domain(crate::new_domain("n.example")).await?;
            tx.publish(Invalidation::Domains).await?;
            tx.publish(Invalidation::Link {
                domain: d.id,
                code: "abc".to_owned(),
            })
            .await?;
            Ok(d.id)
        })
    })
    .await
    .unwrap();
    assert_eq!(
        changes,
        vec![
            Invalidation::Domains,
            Invalidation::Link {
                domain: domain_id,
                code: "abc".to_owned(),
            },
        ]
    );
    assert_eq!(store.domains().await.unwrap()[0].id, domain_id);
    let (_, none) =
        linkapi_core::store::transact(&*store, |_tx| Box::pin(async { Ok(DomainId(0)) }))
            .await
            .unwrap();
    assert!(none.is_empty());
}

/// An instance that stops reading its feed while others write is not sent an ever-growing
/// backlog: past `FEED_CAPACITY` notices the listener starts again from a resync.
#[tokio::test]
async fn a_feed_nobody_reads_stays_bounded_and_resyncs() {
    use linkapi_core::store::FeedEvent;
    use linkapi_core::store::postgres::FEED_CAPACITY;

    use linkapi_core::store::postgres::{PgOptions, PgStore};

    let Some(cluster) = crate::pg_cluster::cluster() else {
        return; // PostgreSQL is not installed and not required here.
    };
    let url = cluster.new_database();
    let store = PgStore::connect(&url, PgOptions::default())
        .await
        .expect("connect");
    let writer = PgStore::connect(&url, PgOptions::default())
        .await
        .expect("connect");
    let mut feed = store.feed().expect("PostgreSQL has a feed");
    let d = DomainId(1);
    let burst = FEED_CAPACITY + 1000;
    // One transaction of many invalidations: the others' writes arrive faster than this
    // instance (which reads nothing yet) takes them.
    linkapi_core::store::transact(&writer, move |tx| {
        Box::pin(async move {
            for i in 0..burst {
                tx.publish(Invalidation::Link {
                    domain: d,
                    code: format!("c{i}"),
                })
                .await?;
            }
            Ok(())
        })
    })
    .await
    .expect("published");
    tokio::time::sleep(std::time::Duration::from_secs(1)).await;

    let mut received = 0usize;
    let mut resyncs = 0;
    let deadline = tokio::time::Instant::now() + std::time::Duration::from_secs(30);
    while resyncs < 2 {
        let event = tokio::time::timeout_at(deadline, feed.recv())
            .await
            .expect("a second resync within 30 s")
            .expect("the feed stays open");
        received += 1;
        if event == FeedEvent::Resync {
            resyncs += 1;
        }
    }
    assert!(
        received <= FEED_CAPACITY + 4,
        "at most a full queue before the resync: {received}"
    );
}
