//! Idempotency keys: a key claimed once and answered; a key held across the runs of a create
//! that commits in runs, resumed only by the same request and only once its holder stopped,
//! by exactly one of many racing; parts read back in order and forgotten with their key.

use std::sync::Arc;

use linkapi_core::model::UserId;
use linkapi_core::store::{AnswerPart, RunClaim, Store};

use crate::{T0, conformance, tx, user};

conformance!(
    a_key_is_claimed_once_and_answered,
    a_run_claim_is_resumed_only_by_the_same_request_once_its_holder_stopped,
    of_many_requests_resuming_a_stopped_create_exactly_one_holds_the_key,
    parts_are_read_in_order_and_forgotten_with_their_key,
);

const DAY: i64 = 24 * 60 * 60;
const STALE: i64 = 10;

/// Claims `key` for a create in runs by `owner` at `now`, with what stops a holder.
async fn claim_run(
    store: &Arc<dyn Store>,
    user: UserId,
    key: &'static str,
    fingerprint: &'static [u8],
    owner: i64,
    now: i64,
) -> Option<RunClaim> {
    tx!(store, |tx| {
        tx.claim_idempotency_run(user, key, fingerprint, owner, now, now - DAY, now - STALE)
            .await
    })
    .expect("claim")
}

fn part(part: i64, first_item: i64, items: i64, created: i64) -> AnswerPart {
    AnswerPart {
        part,
        first_item,
        items,
        created,
    }
}

async fn a_key_is_claimed_once_and_answered(store: Arc<dyn Store>) {
    let u = user(&store, "keys").await.id;
    let claim = |fingerprint: &'static [u8], now: i64| {
        let store = store.clone();
        async move {
            tx!(store, |tx| {
                let claimed = tx
                    .claim_idempotency_key(u, "k", fingerprint, now, now - DAY)
                    .await?;
                if claimed {
                    tx.record_idempotent_answer(u, "k", 201, b"first").await?;
                }
                Ok(claimed)
            })
            .expect("claim")
        }
    };
    assert!(claim(b"a", T0).await);
    assert!(!claim(b"a", T0 + 1).await, "in use");
    assert!(!claim(b"b", T0 + 2).await, "in use for another request too");
    let kept = store
        .idempotent_answer(u, "k", T0 - DAY)
        .await
        .unwrap()
        .unwrap();
    assert_eq!((kept.status, kept.body.as_slice()), (201, &b"first"[..]));
    assert!(store.idempotent_parts(u, "k").await.unwrap().is_empty());
    // A day later the key may be used again, for anything.
    assert!(claim(b"b", T0 + DAY).await);
    let kept = store.idempotent_answer(u, "k", T0).await.unwrap().unwrap();
    assert_eq!(kept.fingerprint, b"b");
}

async fn a_run_claim_is_resumed_only_by_the_same_request_once_its_holder_stopped(
    store: Arc<dyn Store>,
) {
    let u = user(&store, "runs").await.id;
    let first = claim_run(&store, u, "bulk", b"f", 1, T0)
        .await
        .expect("fresh");
    assert_eq!(
        first,
        RunClaim {
            claimed_at: T0,
            parts: vec![]
        }
    );
    // Its holder claims it again for each run.
    let again = claim_run(&store, u, "bulk", b"f", 1, T0 + 3)
        .await
        .expect("its own");
    assert_eq!(again.claimed_at, T0);
    tx!(store, |tx| {
        tx.record_idempotent_part(u, "bulk", part(0, 0, 500, 499), T0, b"[a]")
            .await
    })
    .unwrap();
    // Another request is kept out while the holder makes progress; a different body always.
    assert_eq!(claim_run(&store, u, "bulk", b"f", 2, T0 + 5).await, None);
    assert_eq!(claim_run(&store, u, "bulk", b"g", 2, T0 + 60).await, None);
    // Once it stopped (no run for STALE seconds), the same request takes over, with the part
    // so far, and the first holder is out.
    let taken = claim_run(&store, u, "bulk", b"f", 2, T0 + 3 + STALE)
        .await
        .expect("stopped");
    assert_eq!(
        taken,
        RunClaim {
            claimed_at: T0,
            parts: vec![part(0, 0, 500, 499)]
        }
    );
    assert_eq!(claim_run(&store, u, "bulk", b"f", 1, T0 + 14).await, None);
    // Not answered yet: status 0.
    let row = store
        .idempotent_answer(u, "bulk", T0 - DAY)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(row.status, 0);
    // Released (its process is known to be gone): taken over at once.
    tx!(store, |tx| tx.release_idempotency_runs().await).unwrap();
    assert!(
        claim_run(&store, u, "bulk", b"f", 3, T0 + 14)
            .await
            .is_some()
    );
    // Answered: nobody holds it again, not even its last holder.
    tx!(store, |tx| tx
        .record_idempotent_answer(u, "bulk", 200, b"{")
        .await)
    .unwrap();
    assert_eq!(claim_run(&store, u, "bulk", b"f", 3, T0 + 15).await, None);
    assert_eq!(claim_run(&store, u, "bulk", b"f", 4, T0 + 600).await, None);
    // A day after its first use, the key is fresh again and its old parts are gone.
    let fresh = claim_run(&store, u, "bulk", b"h", 5, T0 + DAY)
        .await
        .expect("expired");
    assert_eq!(
        fresh,
        RunClaim {
            claimed_at: T0 + DAY,
            parts: vec![]
        }
    );
    assert!(store.idempotent_parts(u, "bulk").await.unwrap().is_empty());
}

async fn of_many_requests_resuming_a_stopped_create_exactly_one_holds_the_key(
    store: Arc<dyn Store>,
) {
    let u = user(&store, "racers").await.id;
    claim_run(&store, u, "bulk", b"f", 1, T0)
        .await
        .expect("fresh");
    let now = T0 + 60;
    let racers = (2..22).map(|owner| {
        let store = store.clone();
        tokio::spawn(async move { claim_run(&store, u, "bulk", b"f", owner, now).await })
    });
    let won = futures_util::future::join_all(racers)
        .await
        .into_iter()
        .filter(|claim| claim.as_ref().unwrap().is_some())
        .count();
    assert_eq!(won, 1, "one of twenty holds the key");
}

async fn parts_are_read_in_order_and_forgotten_with_their_key(store: Arc<dyn Store>) {
    let u = user(&store, "parts").await.id;
    claim_run(&store, u, "bulk", b"f", 1, T0)
        .await
        .expect("fresh");
    tx!(store, |tx| {
        // Recorded out of order on purpose: read back by their place.
        tx.record_idempotent_part(u, "bulk", part(2, 3, 0, 0), T0, b"]}")
            .await?;
        tx.record_idempotent_part(u, "bulk", part(0, 0, 2, 2), T0, b"a,b")
            .await?;
        tx.record_idempotent_part(u, "bulk", part(1, 2, 1, 0), T0, b",c")
            .await?;
        tx.record_idempotent_answer(u, "bulk", 200, b"{[").await
    })
    .unwrap();
    let parts = store.idempotent_parts(u, "bulk").await.unwrap();
    let places: Vec<AnswerPart> = parts.iter().map(|(p, _)| *p).collect();
    assert_eq!(
        places,
        [part(0, 0, 2, 2), part(1, 2, 1, 0), part(2, 3, 0, 0)]
    );
    let bytes: Vec<u8> = parts.into_iter().flat_map(|(_, b)| b).collect();
    assert_eq!(bytes, b"a,b,c]}");
    let pruned = tx!(store, |tx| tx.prune_idempotency_keys(T0).await).unwrap();
    assert_eq!(pruned, 1);
    assert!(store.idempotent_parts(u, "bulk").await.unwrap().is_empty());
    assert!(
        store
            .idempotent_answer(u, "bulk", 0)
            .await
            .unwrap()
            .is_none()
    );
}
