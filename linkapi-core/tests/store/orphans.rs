//! Orphan visits (requests that reached no chain): added with a visit batch, once however
//! often the batch is retried, summed per domain, kind and day, and read from a day on.

use std::sync::Arc;

use linkapi_core::model::{DomainId, OrphanKind};
use linkapi_core::store::{OrphanVisits, Store, VisitBatch};

use crate::{T0, conformance, domain};

conformance!(orphan_visits_are_added_once_per_batch_and_read_by_day);

const DAY: i64 = 86_400;

fn orphans(domain_id: DomainId, kind: OrphanKind, day: i64, visits: i64) -> OrphanVisits {
    OrphanVisits {
        domain_id,
        kind,
        day,
        visits,
    }
}

async fn orphan_visits_are_added_once_per_batch_and_read_by_day(store: Arc<dyn Store>) {
    let a = domain(&store, "a.example").await.id;
    let b = domain(&store, "b.example").await.id;
    let day = T0 - T0 % DAY;
    let first = Arc::new(VisitBatch {
        id: "orphans-1".to_owned(),
        // Only orphans: a batch of nothing else is written too.
        orphans: vec![
            orphans(b, OrphanKind::ReservedPath, day, 4),
            orphans(a, OrphanKind::UnknownCode, day, 5),
            orphans(a, OrphanKind::BaseUrl, day - DAY, 2),
        ],
        ..VisitBatch::default()
    });
    assert!(store.add_visits(first.clone(), T0, T0 - DAY).await.unwrap());
    assert!(!store.add_visits(first, T0 + 1, T0 - DAY).await.unwrap());
    let second = Arc::new(VisitBatch {
        id: "orphans-2".to_owned(),
        orphans: vec![orphans(a, OrphanKind::UnknownCode, day, 1)],
        ..VisitBatch::default()
    });
    assert!(store.add_visits(second, T0 + 2, T0 - DAY).await.unwrap());

    assert_eq!(
        store.orphan_visits(day - DAY).await.unwrap(),
        vec![
            orphans(a, OrphanKind::BaseUrl, day - DAY, 2),
            orphans(a, OrphanKind::UnknownCode, day, 6),
            orphans(b, OrphanKind::ReservedPath, day, 4),
        ]
    );
    assert_eq!(
        store.orphan_visits(day).await.unwrap().len(),
        2,
        "only the days from the one asked"
    );
}
