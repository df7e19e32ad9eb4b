//! Uploads shared between two instances over one PostgreSQL database (quota, serving, removal
//! racing an upload). In S3-compatible object storage: `tests/s3`.

use reqwest::StatusCode;

use crate::images::png;
use crate::support::{Options, TestServer};
use crate::uploads::{UPLOAD_SCOPES, fetch, race_uploads, upload};

/// Two instances over one PostgreSQL database and one storage directory, or `None` where
/// PostgreSQL is not available.
async fn two_instances(options: impl Fn() -> Options) -> Option<(TestServer, TestServer)> {
    let db = crate::support::Backend::postgres()?;
    let a = TestServer::start_on(db, options()).await;
    let b = a.start_peer(options()).await;
    Some((a, b))
}

#[tokio::test]
async fn the_quota_is_exact_across_two_instances() {
    let sample = png("x00", 900).len() as i64;
    let Some((a, b)) = two_instances(|| Options {
        upload_quota_bytes: sample * 4,
        ..Options::default()
    })
    .await
    else {
        return;
    };
    let (_, key) = a.user_with_key("twoquota", UPLOAD_SCOPES).await;
    let replies = race_uploads(&[&a, &b], &key, 20, "x").await;
    let stored = replies
        .iter()
        .filter(|r| r.status == StatusCode::CREATED)
        .count();
    assert_eq!(stored, 4, "exactly four fit, whichever instance took them");
}

#[tokio::test]
async fn a_removal_racing_an_upload_of_the_same_bytes_never_loses_them() {
    let Some((a, b)) = two_instances(Options::default).await else {
        return;
    };
    let (_, first) = a.user_with_key("remover", UPLOAD_SCOPES).await;
    let (_, second) = a.user_with_key("uploader", UPLOAD_SCOPES).await;
    for round in 0..15 {
        let bytes = png(&format!("race{round}"), 2000);
        let mine = upload(&a, &first, "r.png", bytes.clone(), "image/png").await;
        let id = mine.primary_data()["file_id"].clone();
        // A removes the only upload of these bytes while B uploads them again for another user.
        let path = format!("/uploads/{id}");
        let (removed, theirs) = tokio::join!(
            a.delete(&path, &first),
            upload(&b, &second, "r.png", bytes.clone(), "image/png"),
        );
        removed.primary_data();
        assert_eq!(theirs.status, StatusCode::CREATED, "{}", theirs.text);
        let url = b.url(&format!(
            "/files/{}",
            theirs.body["data"]["object_key"].as_str().unwrap()
        ));
        let served = fetch(&b, &url, &[]).await;
        assert_eq!(
            served.status(),
            StatusCode::OK,
            "round {round}: the bytes are gone"
        );
        assert_eq!(served.bytes().await.unwrap().as_ref(), bytes.as_slice());
    }
}
