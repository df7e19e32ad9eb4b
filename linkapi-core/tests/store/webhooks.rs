//! Webhook endpoints, the event outbox and deliveries.

use std::sync::Arc;

use linkapi_core::model::{DeliveryAttempt, EventSet, EventType, WebhookId};
use linkapi_core::store::{
    AttemptVerdict, FinishedAttempt, NewEvent, NewWebhook, Store, WebhookPatch,
};

use crate::{T0, conformance, tx, user};

conformance!(
    claims_bound_each_endpoint_and_take_turns_between_users_and_endpoints,
    events_go_to_subscribed_enabled_endpoints_and_are_leased_once,
    attempts_move_deliveries_on_and_are_listed_newest_first,
    endpoints_are_their_owners_and_disabling_stops_deliveries,
);

fn endpoint(user: linkapi_core::model::UserId, url: &str, events: &[EventType]) -> NewWebhook {
    NewWebhook {
        user_id: user,
        url: url.to_owned(),
        events: EventSet::of(events.iter().copied()),
        description: Some("test".to_owned()),
        secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw".to_owned(),
        created_at: T0,
    }
}

fn event(id: &str, user: linkapi_core::model::UserId, kind: EventType) -> NewEvent {
    NewEvent {
        id: id.to_owned(),
        user_id: user,
        event_type: kind,
        body: format!(r#"{{"type":"{}"}}"#, kind.name()),
        created_at: T0,
    }
}

/// Records `event` for whoever subscribes to it, in one transaction, as services do.
async fn emit(store: &Arc<dyn Store>, event: NewEvent) -> Vec<WebhookId> {
    let (to, _) = linkapi_core::store::transact(crate::as_store(store), move |tx| {
        let event = event.clone();
        Box::pin(async move {
            let to = tx
                .webhook_subscribers(event.user_id, event.event_type)
                .await?;
            if !to.is_empty() {
                tx.insert_event(event, &to).await?;
            }
            Ok(to)
        })
    })
    .await
    .unwrap();
    to
}

/// Records an attempt's outcome in a transaction of its own, as the delivery worker does.
async fn finish(store: &Arc<dyn Store>, finished: &FinishedAttempt) {
    let finished = finished.clone();
    linkapi_core::store::transact(crate::as_store(store), move |tx| {
        let finished = finished.clone();
        Box::pin(async move { tx.finish_attempt(finished).await })
    })
    .await
    .unwrap();
}

fn attempt(webhook: WebhookId, event: &str, at: i64, status: Option<u16>) -> DeliveryAttempt {
    DeliveryAttempt {
        id: 0,
        webhook_id: webhook,
        event_id: event.to_owned(),
        event_type: EventType::ChainCreated,
        at,
        status,
        error: status.is_none().then(|| "connection refused".to_owned()),
        latency_ms: 3,
    }
}

async fn events_go_to_subscribed_enabled_endpoints_and_are_leased_once(store: Arc<dyn Store>) {
    let alice = user(&store, "alice").await.id;
    let bob = user(&store, "bob").await.id;
    let chains = tx!(store, |tx| tx
        .insert_webhook(endpoint(
            alice,
            "https://a.example/hook",
            &[EventType::ChainCreated]
        ))
        .await)
    .unwrap();
    let all = tx!(store, |tx| tx
        .insert_webhook(endpoint(
            alice,
            "https://b.example/hook",
            &EventType::SUBSCRIBABLE
        ))
        .await)
    .unwrap();
    assert!(all.enabled && chains.enabled);
    assert_eq!(
        emit(&store, event("msg_1", alice, EventType::ChainCreated)).await,
        [chains.id, all.id]
    );
    assert_eq!(
        emit(&store, event("msg_2", alice, EventType::UploadCreated)).await,
        [all.id]
    );
    // Bob has no endpoint: his events are not recorded at all.
    assert!(
        emit(&store, event("msg_3", bob, EventType::ChainCreated))
            .await
            .is_empty()
    );
    assert_eq!(
        store.users_with_webhooks().await.unwrap(),
        [alice],
        "only users with an enabled endpoint"
    );

    // Three deliveries are due; a claim leases them, a second claim before the lease ends
    // gets none, one after it gets them again.
    let claimed = tx!(store, |tx| tx.claim_deliveries(T0, T0 + 60, 10, 16).await).unwrap();
    assert_eq!(claimed.len(), 3);
    let first = claimed.iter().find(|c| c.webhook.id == chains.id).unwrap();
    assert_eq!(first.event_id, "msg_1");
    assert_eq!(first.event_type, EventType::ChainCreated);
    assert_eq!(first.body, r#"{"type":"chain.created"}"#);
    assert_eq!(first.attempts, 0);
    assert_eq!(first.webhook.url, "https://a.example/hook");
    let again = tx!(store, |tx| tx
        .claim_deliveries(T0 + 59, T0 + 119, 10, 16)
        .await)
    .unwrap();
    assert!(again.is_empty());
    let expired = tx!(store, |tx| tx
        .claim_deliveries(T0 + 60, T0 + 120, 2, 16)
        .await)
    .unwrap();
    assert_eq!(expired.len(), 2, "a limit is kept");
}

async fn attempts_move_deliveries_on_and_are_listed_newest_first(store: Arc<dyn Store>) {
    let alice = user(&store, "alice").await.id;
    let hook = tx!(store, |tx| tx
        .insert_webhook(endpoint(
            alice,
            "https://a.example/hook",
            &[EventType::ChainCreated]
        ))
        .await)
    .unwrap();
    emit(&store, event("msg_a", alice, EventType::ChainCreated)).await;
    emit(&store, event("msg_b", alice, EventType::ChainCreated)).await;
    let claimed = tx!(store, |tx| tx.claim_deliveries(T0, T0 + 60, 10, 16).await).unwrap();
    let (a, b) = (claimed[0].delivery_id, claimed[1].delivery_id);
    // msg_a: 500, retried later; msg_b: refused, then failed for good.
    let outcome = |delivery_id, attempt, verdict| FinishedAttempt {
        delivery_id,
        attempt,
        verdict,
    };
    let retry = outcome(
        a,
        attempt(hook.id, &claimed[0].event_id, T0, Some(500)),
        AttemptVerdict::RetryAt(T0 + 5),
    );
    finish(&store, &retry).await;
    let failed = outcome(
        b,
        attempt(hook.id, &claimed[1].event_id, T0 + 1, None),
        AttemptVerdict::Failed,
    );
    finish(&store, &failed).await;
    let flagged = store.webhook(alice, hook.id).await.unwrap().unwrap();
    assert_eq!(flagged.failing_since, Some(T0 + 1));
    // The retry is due at its time, lease or no lease; the failed delivery never again.
    assert!(
        tx!(store, |tx| tx
            .claim_deliveries(T0 + 4, T0 + 64, 10, 16)
            .await)
        .unwrap()
        .is_empty()
    );
    let due = tx!(store, |tx| tx
        .claim_deliveries(T0 + 5, T0 + 65, 10, 16)
        .await)
    .unwrap();
    assert_eq!(due.len(), 1);
    assert_eq!((due[0].delivery_id, due[0].attempts), (a, 1));
    let delivered = outcome(
        a,
        attempt(hook.id, &due[0].event_id, T0 + 5, Some(204)),
        AttemptVerdict::Delivered,
    );
    finish(&store, &delivered).await;
    // A late outcome of a closed delivery (a lease that ran out) changes nothing.
    finish(&store, &delivered).await;
    let cleared = store.webhook(alice, hook.id).await.unwrap().unwrap();
    assert_eq!(cleared.failing_since, None, "a delivery clears the flag");

    let page = store
        .delivery_attempts(alice, hook.id, false, 0, 10)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(page.total, 3);
    let statuses: Vec<Option<u16>> = page.items.iter().map(|a| a.status).collect();
    assert_eq!(statuses, [Some(204), None, Some(500)]);
    assert_eq!(page.items[1].error.as_deref(), Some("connection refused"));
    let failures = store
        .delivery_attempts(alice, hook.id, true, 0, 10)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(failures.total, 2);
    assert!(failures.items.iter().all(|a| !a.succeeded()));

    // Pruning forgets finished deliveries, their attempts and their events.
    let pruned = tx!(store, |tx| tx.prune_webhook_history(T0 + 6).await).unwrap();
    assert_eq!(pruned, 2);
    let page = store
        .delivery_attempts(alice, hook.id, false, 0, 10)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(page.total, 0);
}

async fn endpoints_are_their_owners_and_disabling_stops_deliveries(store: Arc<dyn Store>) {
    let alice = user(&store, "alice").await.id;
    let bob = user(&store, "bob").await.id;
    let hook = tx!(store, |tx| tx
        .insert_webhook(endpoint(
            alice,
            "https://a.example/hook",
            &[EventType::ChainCreated]
        ))
        .await)
    .unwrap();
    // Bob sees, edits, rotates and deletes nothing of Alice's.
    assert!(store.webhook(bob, hook.id).await.unwrap().is_none());
    assert!(store.webhooks(bob).await.unwrap().is_empty());
    assert!(
        store
            .delivery_attempts(bob, hook.id, false, 0, 10)
            .await
            .unwrap()
            .is_none()
    );
    let id = hook.id;
    assert!(
        tx!(store, |tx| tx
            .update_webhook(
                bob,
                id,
                WebhookPatch {
                    enabled: Some(false),
                    ..Default::default()
                },
                T0
            )
            .await)
        .unwrap()
        .is_none()
    );
    assert!(
        tx!(store, |tx| tx
            .rotate_webhook_secret(bob, id, "whsec_AAAA".into(), T0, T0)
            .await)
        .unwrap()
        .is_none()
    );
    assert!(!tx!(store, |tx| tx.delete_webhook(bob, id).await).unwrap());

    // Edits change what they name and nothing else.
    let edited = tx!(store, |tx| tx
        .update_webhook(
            alice,
            id,
            WebhookPatch {
                url: Some("https://c.example/hook".into()),
                events: Some(EventSet::of([EventType::ChainDeleted])),
                description: Some(None),
                enabled: None,
            },
            T0 + 1
        )
        .await)
    .unwrap()
    .unwrap();
    assert_eq!(edited.url, "https://c.example/hook");
    assert_eq!(edited.events.events(), [EventType::ChainDeleted]);
    assert_eq!(edited.description, None);
    assert!(edited.enabled);
    assert_eq!(edited.updated_at, T0 + 1);
    let rotated = tx!(store, |tx| tx
        .rotate_webhook_secret(alice, id, "whsec_AAAA".into(), T0 + 86_400, T0 + 2)
        .await)
    .unwrap()
    .unwrap();
    assert_eq!(rotated.secret, "whsec_AAAA");
    assert_eq!(rotated.previous_secret, Some(hook.secret.clone()));
    assert_eq!(rotated.previous_until, Some(T0 + 86_400));

    // A pending delivery is dropped when its endpoint is disabled, and a disabled endpoint
    // subscribes to nothing.
    emit(&store, event("msg_x", alice, EventType::ChainDeleted)).await;
    tx!(store, |tx| tx
        .update_webhook(
            alice,
            id,
            WebhookPatch {
                enabled: Some(false),
                ..Default::default()
            },
            T0
        )
        .await)
    .unwrap();
    assert!(
        emit(&store, event("msg_y", alice, EventType::ChainDeleted))
            .await
            .is_empty()
    );
    assert!(store.users_with_webhooks().await.unwrap().is_empty());
    tx!(store, |tx| tx
        .update_webhook(
            alice,
            id,
            WebhookPatch {
                enabled: Some(true),
                ..Default::default()
            },
            T0
        )
        .await)
    .unwrap();
    assert!(
        tx!(store, |tx| tx
            .claim_deliveries(T0 + 10, T0 + 70, 10, 16)
            .await)
        .unwrap()
        .is_empty()
    );
    // Deleting takes its pending deliveries with it.
    emit(&store, event("msg_z", alice, EventType::ChainDeleted)).await;
    assert!(tx!(store, |tx| tx.delete_webhook(alice, id).await).unwrap());
    assert!(store.webhook(alice, id).await.unwrap().is_none());
    assert!(
        tx!(store, |tx| tx
            .claim_deliveries(T0 + 10, T0 + 70, 10, 16)
            .await)
        .unwrap()
        .is_empty()
    );
}

async fn claims_bound_each_endpoint_and_take_turns_between_users_and_endpoints(
    store: Arc<dyn Store>,
) {
    let alice = user(&store, "alice").await.id;
    let bob = user(&store, "bob").await.id;
    let hook = |user, url: &'static str, kind| {
        let store = store.clone();
        async move {
            tx!(store, |tx| tx
                .insert_webhook(endpoint(user, url, &[kind]))
                .await)
            .unwrap()
            .id
        }
    };
    let backlog = hook(alice, "https://a.example/slow", EventType::ChainCreated).await;
    let other = hook(alice, "https://a.example/other", EventType::UploadCreated).await;
    let bobs = hook(bob, "https://b.example/hook", EventType::ChainCreated).await;
    for i in 0..40 {
        emit(
            &store,
            event(&format!("a_{i}"), alice, EventType::ChainCreated),
        )
        .await;
    }
    emit(&store, event("a_up", alice, EventType::UploadCreated)).await;
    for i in 0..2 {
        emit(
            &store,
            event(&format!("b_{i}"), bob, EventType::ChainCreated),
        )
        .await;
    }
    let count = |claimed: &[linkapi_core::store::ClaimedDelivery], id| {
        claimed.iter().filter(|c| c.webhook.id == id).count()
    };

    // Room for two: one each, not two of the user with the backlog.
    let two = tx!(store, |tx| tx.claim_deliveries(T0, T0 + 60, 2, 4).await).unwrap();
    let users: Vec<_> = two.iter().map(|c| c.webhook.user_id).collect();
    assert!(users.contains(&alice) && users.contains(&bob), "{users:?}");
    // Room for many: the backlog's endpoint stops at four leased at once, the others get all
    // that is due.
    let rest = tx!(store, |tx| tx.claim_deliveries(T0, T0 + 60, 100, 4).await).unwrap();
    let all: Vec<_> = two.iter().chain(&rest).cloned().collect();
    assert_eq!(count(&all, backlog), 4);
    assert_eq!(count(&all, other), 1);
    assert_eq!(count(&all, bobs), 2);
    // Full: nothing more while the leases hold.
    assert!(
        tx!(store, |tx| tx
            .claim_deliveries(T0 + 1, T0 + 61, 100, 4)
            .await)
        .unwrap()
        .is_empty()
    );
    // One attempt of the backlog ends: one more of it is claimed.
    let ended = all.iter().find(|c| c.webhook.id == backlog).unwrap();
    let finished = FinishedAttempt {
        delivery_id: ended.delivery_id,
        attempt: attempt(backlog, &ended.event_id, T0 + 1, Some(200)),
        verdict: AttemptVerdict::Delivered,
    };
    finish(&store, &finished).await;
    let next = tx!(store, |tx| tx
        .claim_deliveries(T0 + 2, T0 + 62, 100, 4)
        .await)
    .unwrap();
    assert_eq!(next.len(), 1);
    assert_eq!(next[0].webhook.id, backlog);
    // When the leases run out, four again (no more).
    let later = tx!(store, |tx| tx
        .claim_deliveries(T0 + 62, T0 + 122, 100, 4)
        .await)
    .unwrap();
    assert_eq!(count(&later, backlog), 4);
}
