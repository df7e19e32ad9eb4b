//! What an import writes and reads: a chain's imported visits, status and archiving time as
//! inserted, and who holds a set of codes on a domain.

use std::collections::BTreeMap;
use std::sync::Arc;

use linkapi_core::model::{ChainKind, ChainStatus};
use linkapi_core::store::Store;

use crate::{T0, conformance, domain, short_chain, tx, user};

conformance!(
    an_imported_chain_reads_back_with_its_visits_status_and_archiving,
    code_holders_are_whoever_has_the_codes_on_the_domain,
);

async fn an_imported_chain_reads_back_with_its_visits_status_and_archiving(store: Arc<dyn Store>) {
    let alice = user(&store, "alice").await.id;
    let d = domain(&store, "i.example").await.id;
    let inserted = tx!(store, |tx| {
        let mut imported = short_chain(alice, d, "Moved", T0 - 86_400);
        imported.imported_visits = 1_234;
        imported.status = ChainStatus::Disabled;
        imported.archived_at = Some(T0 - 3_600);
        tx.insert_chains_if_free(vec![imported]).await
    })
    .unwrap();
    let inserted = inserted[0].clone().expect("inserted");
    let read = store
        .chain(alice, inserted.id)
        .await
        .unwrap()
        .expect("read");
    assert_eq!(read, inserted, "as inserted is as read back");
    assert_eq!(read.imported_visits, 1_234);
    assert_eq!(read.stored_status, ChainStatus::Disabled);
    assert_eq!(read.archived_at, Some(T0 - 3_600));
    assert_eq!(read.created_at, T0 - 86_400);
}

async fn code_holders_are_whoever_has_the_codes_on_the_domain(store: Arc<dyn Store>) {
    let alice = user(&store, "alice").await.id;
    let bob = user(&store, "bob").await.id;
    let d = domain(&store, "h.example").await.id;
    let other = domain(&store, "o.example").await.id;
    let mut ids = BTreeMap::new();
    for (owner, on, code) in [
        (alice, d, "Promo"),
        (bob, d, "promo"),
        (alice, d, "gone"),
        (alice, other, "elsewhere"),
    ] {
        let chain = tx!(store, |tx| tx
            .insert_chain(short_chain(owner, on, code, T0))
            .await)
        .unwrap();
        ids.insert(code, chain.id);
    }
    let gone = ids["gone"];
    tx!(store, |tx| tx.delete_chain(alice, gone, T0 + 1).await).unwrap();
    let codes: Vec<String> = ["Promo", "promo", "gone", "elsewhere", "free", "PROMO"]
        .map(str::to_owned)
        .to_vec();
    let mut holders = store.code_holders(d, &codes).await.unwrap();
    holders.sort_by(|a, b| a.code.cmp(&b.code));
    let seen: Vec<(&str, bool, bool)> = holders
        .iter()
        .map(|h| (h.code.as_str(), h.user_id == alice, h.deleted))
        .collect();
    assert_eq!(
        seen,
        [
            ("Promo", true, false),
            ("gone", true, true),
            ("promo", false, false)
        ],
        "case apart, deleted ones too, only this domain's"
    );
    let promo = &holders[0];
    assert_eq!(promo.chain_id, ids["Promo"]);
    assert_eq!(promo.kind, ChainKind::Short);
    assert_eq!(promo.target_url, "https://example.com/Promo");
    assert!(store.code_holders(d, &[]).await.unwrap().is_empty());
}
