//! A short chain's options, a preview's text included, as written and read (insert, bulk
//! insert, patch, the redirect path's read), and visits taken against its limit: exact under racing takes, none taken by
//! a bot's ask, none for a deleted chain.

use std::sync::Arc;

use linkapi_core::model::{LinkOptions, LinkPreview, RedirectStatus};
use linkapi_core::store::{ChainPatch, Store};

use crate::{T0, conformance, domain, short_chain, tx, user};

conformance!(
    options_read_back_as_written_everywhere,
    racing_takes_give_out_exactly_the_limit,
);

fn options() -> LinkOptions {
    LinkOptions {
        redirect_status: Some(RedirectStatus::Permanent),
        valid_since: T0 + 60,
        max_visits: 5,
        preview: Some(LinkPreview {
            title: "Spring \"sale\" — 50 % <off>".into(),
            description: "Two lines'\\ worth of text".into(),
            image: "https://img.example/spring.png".into(),
        }),
    }
}

async fn options_read_back_as_written_everywhere(store: Arc<dyn Store>) {
    let alice = user(&store, "alice").await.id;
    let d = domain(&store, "o.example").await.id;
    let one = tx!(store, |tx| {
        let mut new = short_chain(alice, d, "one", T0);
        new.options = options();
        tx.insert_chain(new).await
    })
    .unwrap();
    let many = tx!(store, |tx| {
        let mut new = short_chain(alice, d, "many", T0);
        new.options = options();
        tx.insert_chains_if_free(vec![new, short_chain(alice, d, "none", T0)])
            .await
    })
    .unwrap();
    for (code, chain, expected) in [
        ("one", Some(one), options()),
        ("many", many[0].clone(), options()),
        ("none", many[1].clone(), LinkOptions::default()),
    ] {
        let chain = chain.expect("inserted");
        assert_eq!(chain.options, expected, "{code} as inserted");
        let read = store.chain(alice, chain.id).await.unwrap().expect("read");
        assert_eq!(read, chain, "{code} as read");
        let link = store.link(d, code).await.unwrap().expect("a link");
        assert_eq!(
            link.options.as_deref().cloned().unwrap_or_default(),
            expected,
            "{code} on the redirect path"
        );
    }
    let id = many[1].as_ref().expect("none").id;
    let patched = tx!(store, |tx| {
        let patch = ChainPatch {
            options: Some(LinkOptions {
                max_visits: 9,
                ..LinkOptions::default()
            }),
            ..ChainPatch::default()
        };
        tx.update_chain(alice, id, &patch, T0 + 1).await
    })
    .unwrap()
    .expect("patched");
    assert_eq!(patched.options.max_visits, 9);
    let link = store.link(d, "none").await.unwrap().expect("a link");
    assert_eq!(link.options.expect("options").max_visits, 9);
    // Unset options are stored as none: the redirect path sees no options at all.
    tx!(store, |tx| {
        let patch = ChainPatch {
            options: Some(LinkOptions::default()),
            ..ChainPatch::default()
        };
        tx.update_chain(alice, id, &patch, T0 + 2).await
    })
    .unwrap();
    assert_eq!(
        store
            .link(d, "none")
            .await
            .unwrap()
            .expect("a link")
            .options,
        None
    );
}

async fn racing_takes_give_out_exactly_the_limit(store: Arc<dyn Store>) {
    let alice = user(&store, "alice").await.id;
    let d = domain(&store, "t.example").await.id;
    let chain = tx!(store, |tx| tx
        .insert_chain(short_chain(alice, d, "few", T0))
        .await)
    .unwrap();
    let id = chain.id;
    let mut racers = tokio::task::JoinSet::new();
    for _ in 0..30 {
        let store = store.clone();
        racers.spawn(async move { tx!(store, |tx| tx.take_link_visit(id, 5, true).await) });
    }
    let mut taken = Vec::new();
    while let Some(outcome) = racers.join_next().await {
        taken.extend(outcome.unwrap().unwrap());
    }
    taken.sort_unstable();
    assert_eq!(taken, [1, 2, 3, 4, 5]);
    let read = store.chain(alice, id).await.unwrap().expect("read");
    assert_eq!(read.visits_taken, 5);
    // A bot's ask takes nothing: it is told whether one is left.
    assert_eq!(
        tx!(store, |tx| tx.take_link_visit(id, 5, false).await).unwrap(),
        None
    );
    assert_eq!(
        tx!(store, |tx| tx.take_link_visit(id, 7, false).await).unwrap(),
        Some(5)
    );
    assert_eq!(
        tx!(store, |tx| tx.take_link_visit(id, 7, true).await).unwrap(),
        Some(6)
    );
    // A deleted chain gives nothing.
    tx!(store, |tx| tx.delete_chain(alice, id, T0 + 1).await).unwrap();
    assert_eq!(
        tx!(store, |tx| tx.take_link_visit(id, 100, true).await).unwrap(),
        None
    );
}
