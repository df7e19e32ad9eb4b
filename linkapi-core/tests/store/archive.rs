//! Archiving a chain: kept through a patch, read back, and filtered by listings.

use std::sync::Arc;

use linkapi_core::model::ChainId;
use linkapi_core::store::{ChainFilter, ChainPatch, ChainQuery, Store};

use crate::{T0, conformance, domain, short_chain, tx, user};

conformance!(an_archived_chain_keeps_its_first_time_and_listings_filter_on_it);

async fn an_archived_chain_keeps_its_first_time_and_listings_filter_on_it(store: Arc<dyn Store>) {
    let alice = user(&store, "alice").await.id;
    let bob = user(&store, "bob").await.id;
    let d = domain(&store, "a.example").await.id;
    let mut ids = Vec::new();
    for (i, code) in ["one", "two", "three"].into_iter().enumerate() {
        let chain = tx!(store, |tx| tx
            .insert_chain(short_chain(alice, d, code, T0 + i as i64))
            .await)
        .unwrap();
        assert_eq!(chain.archived_at, None);
        ids.push(chain.id);
    }
    let archive = |user, id: ChainId, archived, at| {
        let store = store.clone();
        async move {
            tx!(store, |tx| {
                let patch = ChainPatch {
                    archived: Some(archived),
                    ..ChainPatch::default()
                };
                tx.update_chain(user, id, &patch, at).await
            })
            .unwrap()
        }
    };
    let archived = archive(alice, ids[1], true, T0 + 10).await.unwrap();
    assert_eq!(archived.archived_at, Some(T0 + 10));
    assert_eq!(archived.title, "title of two", "nothing else changes");
    let again = archive(alice, ids[1], true, T0 + 20).await.unwrap();
    assert_eq!(again.archived_at, Some(T0 + 10), "the first time stays");
    assert!(
        archive(bob, ids[0], true, T0 + 20).await.is_none(),
        "another user's chain is not theirs to archive"
    );
    let read = store.chain(alice, ids[1]).await.unwrap().unwrap();
    assert_eq!(read.archived_at, Some(T0 + 10));

    let listed = |archived| {
        let store = store.clone();
        async move {
            let query = ChainQuery {
                filter: ChainFilter {
                    archived,
                    ..ChainFilter::default()
                },
                limit: 10,
                ..ChainQuery::default()
            };
            let page = store.chains(alice, &query).await.unwrap();
            assert_eq!(page.total as usize, page.items.len());
            page.items.iter().map(|c| c.id).collect::<Vec<_>>()
        }
    };
    assert_eq!(listed(Some(true)).await, [ids[1]]);
    assert_eq!(listed(Some(false)).await, [ids[2], ids[0]]);
    assert_eq!(listed(None).await, [ids[2], ids[1], ids[0]]);

    let back = archive(alice, ids[1], false, T0 + 30).await.unwrap();
    assert_eq!(back.archived_at, None);
    assert!(listed(Some(true)).await.is_empty());
}
