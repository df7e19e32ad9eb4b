//! Uploads, the objects they name, and each user's storage use.

use std::sync::Arc;

use linkapi_core::model::{UploadId, UserId};
use linkapi_core::store::{NewUpload, Store, UploadClaim};

use crate::{T0, conformance, tx, user};

conformance!(
    uploads_share_objects_count_storage_and_claim_unnamed_objects,
    stale_pending_uploads_are_found_and_removed,
);

fn new_upload(user: UserId, key: &str, size: i64, at: i64) -> NewUpload {
    NewUpload {
        user_id: user,
        object_key: key.to_owned(),
        content_type: "image/png".to_owned(),
        size_bytes: size,
        file_name: format!("{key}.png"),
        created_at: at,
    }
}

async fn begin(
    store: &Arc<dyn Store>,
    user: UserId,
    key: &'static str,
    size: i64,
) -> (UploadClaim, i64) {
    tx!(store, |tx| tx
        .begin_upload(&new_upload(user, key, size, T0))
        .await)
    .unwrap()
}

fn pending(claim: UploadClaim) -> UploadId {
    match claim {
        UploadClaim::Pending(id) => id,
        other => panic!("expected a new upload, got {other:?}"),
    }
}

async fn uploads_share_objects_count_storage_and_claim_unnamed_objects(store: Arc<dyn Store>) {
    let alice = user(&store, "alice").await.id;
    let bob = user(&store, "bob").await.id;

    let (claim, used) = begin(&store, alice, "obj1", 100).await;
    assert_eq!(used, 0);
    let a1 = pending(claim);
    // Not listed nor served until stored.
    assert_eq!(store.upload(alice, a1).await.unwrap(), None);
    match begin(&store, alice, "obj1", 100).await {
        (UploadClaim::Existing { upload, stored }, used) => {
            assert_eq!(upload.id, a1);
            assert!(!stored);
            assert_eq!(used, 100);
        }
        other => panic!("expected the pending upload, got {other:?}"),
    }
    tx!(store, |tx| tx.finish_upload(a1).await).unwrap();
    let stored = store.upload(alice, a1).await.unwrap().unwrap();
    assert_eq!(stored.content_type, "image/png");
    assert_eq!(stored.file_name, "obj1.png");
    match begin(&store, alice, "obj1", 100).await {
        (UploadClaim::Existing { stored, .. }, _) => assert!(stored),
        other => panic!("expected the stored upload, got {other:?}"),
    }

    // Another user's upload of the same bytes names the same object.
    let (claim, used) = begin(&store, bob, "obj1", 100).await;
    assert_eq!(used, 0, "storage use is per user");
    let b1 = pending(claim);
    assert_eq!(
        store.blob_owners("obj1").await.unwrap(),
        [alice],
        "an upload still being stored owns nothing yet"
    );
    tx!(store, |tx| tx.finish_upload(b1).await).unwrap();
    assert_eq!(store.blob("obj1").await.unwrap().unwrap().refs, 2);
    assert_eq!(store.blob_owners("obj1").await.unwrap(), [alice, bob]);
    assert!(store.blob_owners("missing").await.unwrap().is_empty());
    assert_eq!(
        store.upload(bob, a1).await.unwrap(),
        None,
        "never another user's upload"
    );

    let a2 = pending(begin(&store, alice, "obj2", 50).await.0);
    tx!(store, |tx| tx.finish_upload(a2).await).unwrap();
    assert_eq!(begin(&store, alice, "obj3", 1).await.1, 150);
    let page = store.uploads(alice, 0, 10).await.unwrap();
    assert_eq!(page.total, 2, "pending uploads are not listed");
    assert_eq!(
        page.items.iter().map(|u| u.id).collect::<Vec<_>>(),
        [a2, a1]
    );

    // Removing one of two references leaves the object; removing the last claims it.
    let (removed, claimed) = tx!(store, |tx| tx.delete_upload(alice, a1, false).await)
        .unwrap()
        .unwrap();
    assert_eq!(removed.id, a1);
    assert_eq!(removed.content_type, "image/png");
    assert!(!claimed);
    assert_eq!(
        tx!(store, |tx| tx.delete_upload(alice, a1, false).await).unwrap(),
        None
    );
    // `pending_only` leaves a stored upload alone.
    assert_eq!(
        tx!(store, |tx| tx.delete_upload(bob, b1, true).await).unwrap(),
        None
    );
    let (_, claimed) = tx!(store, |tx| tx.delete_upload(bob, b1, false).await)
        .unwrap()
        .unwrap();
    assert!(claimed);
    let blob = store.blob("obj1").await.unwrap().unwrap();
    assert_eq!((blob.refs, blob.deleting), (0, true));
    let deleting = begin(&store, bob, "obj1", 100).await.0;
    assert!(
        matches!(deleting, UploadClaim::ObjectDeleting),
        "{deleting:?}"
    );
    assert_eq!(
        begin(&store, bob, "obj4", 10).await.1,
        0,
        "freed bytes are no longer counted"
    );

    let unnamed = store.unreferenced_blobs(10).await.unwrap();
    assert_eq!(
        unnamed
            .iter()
            .map(|b| b.object_key.as_str())
            .collect::<Vec<_>>(),
        ["obj1"]
    );
    tx!(store, |tx| tx.forget_blob("obj1").await).unwrap();
    assert_eq!(store.blob("obj1").await.unwrap(), None);

    // An object no upload names, not yet claimed, can be claimed once.
    let a4 = pending(begin(&store, alice, "obj5", 5).await.0);
    tx!(store, |tx| tx.delete_upload(alice, a4, true).await)
        .unwrap()
        .unwrap();
    assert!(
        !tx!(store, |tx| tx.claim_blob_removal("obj2").await).unwrap(),
        "obj2 is named"
    );
    assert!(store.blob("obj5").await.unwrap().unwrap().deleting);
    assert!(!tx!(store, |tx| tx.claim_blob_removal("missing").await).unwrap());
}

async fn stale_pending_uploads_are_found_and_removed(store: Arc<dyn Store>) {
    let alice = user(&store, "alice").await.id;
    let old = pending(
        tx!(store, |tx| tx
            .begin_upload(&new_upload(alice, "old", 10, T0))
            .await)
        .unwrap()
        .0,
    );
    let fresh = pending(
        tx!(store, |tx| tx
            .begin_upload(&new_upload(alice, "fresh", 10, T0 + 100))
            .await)
        .unwrap()
        .0,
    );
    let done = pending(
        tx!(store, |tx| tx
            .begin_upload(&new_upload(alice, "done", 10, T0))
            .await)
        .unwrap()
        .0,
    );
    tx!(store, |tx| tx.finish_upload(done).await).unwrap();
    let stale = store.stale_pending_uploads(T0 + 50, 10).await.unwrap();
    assert_eq!(stale.iter().map(|u| u.id).collect::<Vec<_>>(), [old]);
    assert_ne!(stale[0].id, fresh);
    let (_, claimed) = tx!(store, |tx| tx.delete_upload(alice, old, true).await)
        .unwrap()
        .unwrap();
    assert!(claimed, "its object is named by nothing else");
    assert!(
        store
            .stale_pending_uploads(T0 + 50, 10)
            .await
            .unwrap()
            .is_empty()
    );
}
