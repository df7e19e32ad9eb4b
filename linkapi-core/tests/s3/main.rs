//! Uploads in S3-compatible object storage, against a real S3-compatible server (moto's,
//! started by the tests: `s3_server.rs`): stored, served, deduplicated and removed; served
//! presigned from the bucket with the type and caching stored with each object; one bucket
//! shared by two instances over PostgreSQL. A harness of its own (`needs.rs`), so that without
//! moto (or without feature `s3`) the tests are listed as ignored rather than passing unrun.

#![allow(clippy::unwrap_used, clippy::print_stderr)]

#[path = "../images.rs"]
mod images;
#[path = "../needs.rs"]
mod needs;
#[path = "../pg_cluster.rs"]
mod pg_cluster;
#[path = "../s3_server.rs"]
mod s3_server;
#[allow(dead_code)] // the API tests' support; these use a part
#[path = "../api/support.rs"]
mod support;
#[allow(dead_code, unused_imports)] // the upload helpers; its own tests are not compiled here
#[path = "../api/uploads.rs"]
mod uploads;

use needs::{Need, trial};

#[cfg_attr(not(feature = "s3"), allow(dead_code))]
const MOTO: Need = Need {
    name: "moto_server",
    present: s3_server::installed,
    install: s3_server::INSTALL,
    in_ci: true,
};

const FEATURE_S3: Need = Need {
    name: "feature s3",
    present: || cfg!(feature = "s3"),
    install: "add --features s3; a workspace run enables it",
    in_ci: true,
};

#[cfg(feature = "s3")]
fn main() -> std::process::ExitCode {
    // The crypto provider every client of the process uses (the test's, moto's bucket setup).
    let _ = rustls::crypto::ring::default_provider().install_default();
    needs::run(vec![
        trial(
            "the_s3_backend_stores_serves_dedupes_and_removes",
            &[&FEATURE_S3, &MOTO],
            || needs::block_on(s3::the_s3_backend_stores_serves_dedupes_and_removes()),
        ),
        trial(
            "presigned_serving_redirects_to_the_bucket",
            &[&FEATURE_S3, &MOTO],
            || needs::block_on(s3::presigned_serving_redirects_to_the_bucket()),
        ),
        trial(
            "two_instances_on_one_bucket_serve_and_remove_one_upload",
            &[&FEATURE_S3, &MOTO, &needs::POSTGRESQL],
            || needs::block_on(s3::two_instances_on_one_bucket_serve_and_remove_one_upload()),
        ),
    ])
}

/// Without feature `s3` the same trials, listed as ignored.
#[cfg(not(feature = "s3"))]
fn main() -> std::process::ExitCode {
    let names = [
        "the_s3_backend_stores_serves_dedupes_and_removes",
        "presigned_serving_redirects_to_the_bucket",
        "two_instances_on_one_bucket_serve_and_remove_one_upload",
    ];
    needs::run(
        names
            .into_iter()
            .map(|name| trial(name, &[&FEATURE_S3], || {}))
            .collect(),
    )
}

#[cfg(feature = "s3")]
mod s3 {
    use std::time::Duration;

    use linkapi_core::blob::{BlobBackend, S3Settings};
    use reqwest::StatusCode;

    use crate::images::png;
    use crate::s3_server;
    use crate::support::{Backend, Options, TestServer};
    use crate::uploads::{UPLOAD_SCOPES, fetch, upload};

    /// The S3 backend on a bucket of its own.
    async fn s3_backend(presign: Option<Duration>) -> (BlobBackend, String) {
        let s3 = s3_server::server().expect("moto, checked before the trial");
        let bucket = s3.new_bucket().await;
        (
            BlobBackend::S3(S3Settings {
                bucket: bucket.clone(),
                endpoint: Some(s3.endpoint.clone()),
                region: Some(s3_server::REGION.into()),
                access_key_id: Some(s3_server::ACCESS_KEY_ID.into()),
                secret_access_key: Some(s3_server::SECRET_ACCESS_KEY.into()),
                presign,
            }),
            bucket,
        )
    }

    pub(crate) async fn the_s3_backend_stores_serves_dedupes_and_removes() {
        let (backend, bucket) = s3_backend(None).await;
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

    pub(crate) async fn presigned_serving_redirects_to_the_bucket() {
        let (backend, _bucket) = s3_backend(Some(Duration::from_secs(600))).await;
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

    pub(crate) async fn two_instances_on_one_bucket_serve_and_remove_one_upload() {
        let db = Backend::postgres().expect("PostgreSQL, checked before the trial");
        let (backend, bucket) = s3_backend(None).await;
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
}
