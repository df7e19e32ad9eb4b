//! Uploads shared: in S3-compatible object storage, and between two instances over one
//! PostgreSQL database (quota, serving, removal racing an upload).

#[cfg(feature = "s3")]
use std::time::Duration;

#[cfg(feature = "s3")]
use linkapi_core::blob::{BlobBackend, S3Settings};
use reqwest::StatusCode;

use crate::images::png;
#[cfg(feature = "s3")]
use crate::s3_server;
#[cfg(feature = "s3")]
use crate::support::Backend;
use crate::support::{Options, TestServer};
use crate::uploads::{UPLOAD_SCOPES, fetch, race_uploads, upload};

#[cfg(feature = "s3")]
/// The S3 backend on a bucket of its own, or `None` where no S3 server is available.
async fn s3_backend(presign: Option<Duration>) -> Option<(BlobBackend, String)> {
    let s3 = s3_server::server()?;
    let bucket = s3.new_bucket().await;
    Some((
        BlobBackend::S3(S3Settings {
            bucket: bucket.clone(),
            endpoint: Some(s3.endpoint.clone()),
            region: Some(s3_server::REGION.into()),
            access_key_id: Some(s3_server::ACCESS_KEY_ID.into()),
            secret_access_key: Some(s3_server::SECRET_ACCESS_KEY.into()),
            presign,
        }),
        bucket,
    ))
}

#[cfg(feature = "s3")]
#[tokio::test]
async fn the_s3_backend_stores_serves_dedupes_and_removes() {
    let Some((backend, bucket)) = s3_backend(None).await else {
        return;
    };
    let s3 = s3_server::server().unwrap();
    let server = TestServer::start_with(Options {
        blobs: Some(backend),
        max_file_bytes: 64 << 10,
        ..Options::default()
    })
    .await;
    let (_, key) = server.user_with_key("s3user", UPLOAD_SCOPES).await;
    let bytes = png("s3", 500);
    let first = upload(&server, &key, "s3.png", bytes.clone(), "image/png").await;
    let first = first.primary_data().clone();
    let keys = s3.keys(&bucket).await;
    assert_eq!(
        keys,
        [format!(
            "objects/{}/{}",
            &first["object_key"].as_str().unwrap()[..2],
            first["object_key"].as_str().unwrap()
        )]
    );
    let url = first["url"].as_str().unwrap();
    let served = fetch(&server, url, &[("range", "bytes=0-7")]).await;
    assert_eq!(served.status(), StatusCode::PARTIAL_CONTENT);
    assert_eq!(served.bytes().await.unwrap().as_ref(), &bytes[..8]);
    assert_eq!(
        fetch(&server, url, &[])
            .await
            .bytes()
            .await
            .unwrap()
            .as_ref(),
        bytes.as_slice()
    );
    // Refused and oversize files leave nothing in the bucket.
    upload(&server, &key, "t.png", b"text".to_vec(), "image/png")
        .await
        .assert_primary_error(StatusCode::UNSUPPORTED_MEDIA_TYPE, "unsupported_file_type");
    upload(&server, &key, "big.png", png("big", 200 << 10), "image/png")
        .await
        .assert_primary_error(StatusCode::PAYLOAD_TOO_LARGE, "payload_too_large");
    assert_eq!(s3.keys(&bucket).await.len(), 1);
    server
        .delete(&format!("/uploads/{}", first["file_id"]), &key)
        .await
        .primary_data();
    assert_eq!(s3.keys(&bucket).await, Vec::<String>::new());
    assert_eq!(
        fetch(&server, url, &[]).await.status(),
        StatusCode::NOT_FOUND
    );
}

#[cfg(feature = "s3")]
#[tokio::test]
async fn presigned_serving_redirects_to_the_bucket() {
    let Some((backend, _bucket)) = s3_backend(Some(Duration::from_secs(600))).await else {
        return;
    };
    let server = TestServer::start_with(Options {
        blobs: Some(backend),
        ..Options::default()
    })
    .await;
    let (_, key) = server.user_with_key("presign", UPLOAD_SCOPES).await;
    // One PUT, and a multipart upload (past S3's 5 MiB part).
    for (name, size) in [("presigned", 50), ("presigned-large", 6_000_000)] {
        let bytes = png(name, size);
        let data = upload(&server, &key, "p.png", bytes.clone(), "image/png").await;
        let url = data.primary_data()["url"].as_str().unwrap().to_owned();
        let redirect = fetch(&server, &url, &[]).await;
        assert_eq!(redirect.status(), StatusCode::FOUND);
        let location = redirect.headers()["location"].to_str().unwrap().to_owned();
        assert!(location.contains("X-Amz-Signature="), "{location}");
        let from_bucket = reqwest::get(&location).await.unwrap();
        assert_eq!(from_bucket.status(), StatusCode::OK);
        // The bucket answers with the type and caching the object was stored with, not
        // `binary/octet-stream`.
        assert_eq!(from_bucket.headers()["content-type"], "image/png", "{name}");
        assert_eq!(
            from_bucket.headers()["cache-control"],
            "public, max-age=31536000, immutable"
        );
        assert_eq!(
            from_bucket.bytes().await.unwrap().as_ref(),
            bytes.as_slice()
        );
    }
}

#[cfg(feature = "s3")]
#[tokio::test]
async fn two_instances_on_one_bucket_serve_and_remove_one_upload() {
    let Some(db) = Backend::postgres() else {
        return;
    };
    let Some((backend, bucket)) = s3_backend(None).await else {
        return;
    };
    let s3 = s3_server::server().unwrap();
    let options = || Options {
        blobs: Some(backend.clone()),
        ..Options::default()
    };
    let a = TestServer::start_on(db, options()).await;
    let b = a.start_peer(options()).await;
    let (_, key) = a.user_with_key("shared", UPLOAD_SCOPES).await;
    let bytes = png("two", 64);
    let data = upload(&a, &key, "two.png", bytes.clone(), "image/png").await;
    let data: serde_json::Value = data.primary_data().clone();
    let on_b = b.url(&format!("/files/{}", data["object_key"].as_str().unwrap()));
    let served = fetch(&b, &on_b, &[]).await;
    assert_eq!(served.status(), StatusCode::OK);
    assert_eq!(served.bytes().await.unwrap().as_ref(), bytes.as_slice());
    // The same bytes uploaded through B are the same object; removing both through B empties
    // the bucket.
    let again = upload(&b, &key, "again.png", bytes, "image/png").await;
    assert_eq!(again.primary_data()["file_id"], data["file_id"]);
    b.delete(&format!("/uploads/{}", data["file_id"]), &key)
        .await
        .primary_data();
    assert_eq!(s3.keys(&bucket).await, Vec::<String>::new());
    assert_eq!(
        fetch(
            &a,
            &a.url(&format!("/files/{}", data["object_key"].as_str().unwrap())),
            &[]
        )
        .await
        .status(),
        StatusCode::NOT_FOUND
    );
}

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
