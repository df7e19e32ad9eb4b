//! Hosted images: receiving, checking, storing, listing, removing and serving uploads.
//!
//! Bytes stream from the request into a staging object while their type is checked
//! ([`crate::image`]), their SHA-256 computed and their size held to the per-file cap; nothing
//! is held whole in memory and a refused file leaves nothing behind. An accepted file becomes
//! the object named by its hash, so the same bytes are stored once.
//!
//! The database decides when an object may go, so several instances sharing a bucket never
//! remove bytes an upload still names:
//! 1. Claim (one transaction, serialized per user): a new upload row, not yet stored, adds a
//!    reference to its object and its size to the user's use (refused past the quota). An
//!    object claimed for removal cannot gain a reference: the upload waits until it is gone.
//! 2. Place: rename staging into the object; then mark the upload stored.
//! 3. Remove: deleting the last upload of an object claims the object for removal in the same
//!    transaction; then its bytes go, then its row. A sweeper finishes what a crash interrupted
//!    (claims whose request died, objects claimed but not removed, staging leftovers).

use std::time::Duration;

use bytes::Bytes;
use futures_util::{Stream, StreamExt};
use sha2::{Digest, Sha256};

use super::chain_checks::PageWindow;
use super::webhooks;
use super::{App, BodyError, Principal};
use crate::blob::{BlobBackend, BlobStore, ByteStream, Placement, STAGING_MAX_AGE};
use crate::error::{Error, Result, names};
use crate::image::{ImageCheck, ImageError, ImageLimits};
use crate::model::EventData;
use crate::model::{EventType, Upload, UploadId};

use crate::store::{BlobRecord, NewUpload, Page, StoreError, UploadClaim};

/// Upload settings.
#[derive(Debug, Clone)]
pub struct UploadConfig {
    /// Where the bytes live.
    pub backend: BlobBackend,
    /// Largest file accepted, in bytes.
    pub max_file_bytes: u64,
    /// Bytes a user's uploads may take in all.
    pub quota_bytes: i64,
    /// How often leftovers of interrupted uploads and removals are swept.
    pub sweep_interval: Duration,
    /// Pixels per frame and frames an image may have.
    pub image_limits: ImageLimits,
}

impl Default for UploadConfig {
    fn default() -> Self {
        UploadConfig {
            backend: BlobBackend::Local("uploads".into()),
            max_file_bytes: 10 << 20,
            quota_bytes: 1 << 30,
            sweep_interval: Duration::from_secs(60),
            image_limits: ImageLimits::default(),
        }
    }
}

/// Bytes of a part held in memory before it is written out (S3's smallest multipart part).
const PART_BYTES: usize = 5 << 20;
/// How long an upload waits for a removal of the same object to finish.
const BUSY_WAIT: Duration = Duration::from_secs(10);
/// Pause between looks at a busy object.
const BUSY_POLL: Duration = Duration::from_millis(50);
/// Longest display name kept.
const MAX_FILE_NAME: usize = 255;
/// Rows each sweep handles per kind.
const SWEEP_BATCH: i64 = 100;

/// A stored file as serving needs it.
#[derive(Debug, Clone)]
pub struct HostedFile {
    /// The object key: the content hash and the type's extension.
    pub object_key: String,
    /// Media type.
    pub content_type: String,
    /// Length in bytes.
    pub size_bytes: u64,
}

impl HostedFile {
    /// The strong entity tag: the content hash, which names the bytes.
    pub fn etag(&self) -> String {
        let hash = self
            .object_key
            .split_once('.')
            .map_or(self.object_key.as_str(), |(hash, _)| hash);
        format!("\"{hash}\"")
    }
}

/// What the display name of an upload is: the last path segment the client gave, without
/// control or bidirectional-override characters, at most 255 characters. It is
/// never used as a path.
pub fn display_name(given: &str) -> String {
    let last = given.rsplit(['/', '\\']).next().unwrap_or_default();
    last.chars()
        .filter(|c| {
            !c.is_control() && !matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
        })
        .take(MAX_FILE_NAME)
        .collect::<String>()
        .trim()
        .to_owned()
}

/// Whether `key` is shaped like an object key: 64 lower-case hex digits, a dot, an extension.
pub fn is_object_key(key: &str) -> bool {
    match key.split_once('.') {
        Some((hash, ext)) => {
            hash.len() == 64
                && hash
                    .bytes()
                    .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
                && matches!(ext, "png" | "jpg" | "gif" | "webp")
        }
        None => false,
    }
}

fn blob_failure(err: crate::blob::BlobError) -> Error {
    tracing::error!(error = %err, "object store failed");
    match err {
        crate::blob::BlobError::NotFound => Error::NotFound("file"),
        other => Error::Internal(Box::new(other)),
    }
}

impl From<ImageError> for Error {
    fn from(err: ImageError) -> Self {
        match err {
            ImageError::Svg | ImageError::NotAnImage => Error::UnsupportedFileType {
                message: err.to_string(),
            },
            ImageError::Empty | ImageError::Truncated(_) | ImageError::Damaged(..) => {
                Error::unprocessable(names::INVALID_IMAGE, err.to_string())
            }
            ImageError::TooManyPixels { .. } | ImageError::TooManyFrames { .. } => {
                Error::unprocessable(names::IMAGE_TOO_LARGE, err.to_string())
            }
        }
    }
}

/// A file received and checked, waiting in staging: [`App::commit_upload`] records it,
/// [`App::discard_upload`] drops it (else the staging sweep does).
#[derive(Debug)]
pub struct StagedUpload(Received);

/// Bytes received and checked, waiting in staging to be claimed.
#[derive(Debug)]
struct Received {
    staging: object_store::path::Path,
    object_key: String,
    content_type: &'static str,
    size_bytes: u64,
}

impl App {
    pub(super) fn open_blobs(backend: &BlobBackend) -> Result<BlobStore> {
        BlobStore::open(backend).map_err(|err| Error::Internal(Box::new(err)))
    }

    fn blobs(&self) -> &BlobStore {
        &self.inner.blobs
    }

    /// The public URL of an object.
    pub fn file_url(&self, object_key: &str) -> String {
        let config = self.config();
        format!(
            "{}://{}/files/{object_key}",
            config.default_scheme.as_str(),
            config.default_host
        )
    }

    /// Receives one file: checks its bytes as they arrive and keeps them in staging, where
    /// nothing counts them yet. The request they came in is read to its end before
    /// [`App::commit_upload`] records them, so a body malformed after its file changes nothing
    /// ([`App::discard_upload`] then drops them).
    ///
    /// # Errors
    /// 413 past the per-file cap; 415 for SVG and non-images; 422 for empty, truncated or
    /// damaged images; what `body` yields as an error.
    pub async fn stage_upload<S>(&self, body: S) -> Result<StagedUpload>
    where
        S: Stream<Item = Result<Bytes>> + Unpin,
    {
        Ok(StagedUpload(self.receive(body).await?))
    }

    /// Records a staged file as the caller's upload and moves its bytes into place. Bytes the
    /// caller already has answer that upload.
    ///
    /// # Errors
    /// 413 past the caller's storage quota; 503 while the object store or database fails.
    pub async fn commit_upload(
        &self,
        who: &Principal,
        file_name: &str,
        staged: StagedUpload,
    ) -> Result<Upload> {
        let staging = staged.0.staging.clone();
        let outcome = self.claim_and_place(who, file_name, staged.0).await;
        self.drop_staging(&staging).await;
        outcome
    }

    /// Drops a staged file that will not be recorded.
    pub async fn discard_upload(&self, staged: StagedUpload) {
        self.drop_staging(&staged.0.staging).await;
    }

    async fn drop_staging(&self, staging: &object_store::path::Path) {
        if let Err(err) = self.blobs().discard(staging).await {
            tracing::warn!(error = %err, "a staging object stays behind until the sweep");
        }
    }

    /// Streams `body` into staging, checking it on the way.
    async fn receive<S>(&self, mut body: S) -> Result<Received>
    where
        S: Stream<Item = Result<Bytes>> + Unpin,
    {
        let limit = self.inner.config.uploads.max_file_bytes;
        let staging = BlobStore::staging_path();
        // Made once the first bytes tell the type, which a bucket's object keeps; the bytes
        // before that (a signature's worth) wait in `early`.
        let mut writer = None;
        let mut early = Vec::new();
        let mut check = ImageCheck::with_limits(self.inner.config.uploads.image_limits);
        let mut hash = Sha256::new();
        let mut size: u64 = 0;
        let received: Result<()> = async {
            while let Some(chunk) = body.next().await {
                let chunk = chunk?;
                size += chunk.len() as u64;
                if size > limit {
                    return Err(Error::PayloadTooLarge {
                        limit: usize::try_from(limit).unwrap_or(usize::MAX),
                    });
                }
                check.feed(&chunk)?;
                hash.update(&chunk);
                early.push(chunk);
                let to = match (&mut writer, check.kind()) {
                    (Some(to), _) => to,
                    (None, Some(kind)) => {
                        writer.insert(self.blobs().writer(&staging, PART_BYTES, kind.mime()))
                    }
                    (None, None) => continue,
                };
                for chunk in early.drain(..) {
                    to.put(chunk).await.map_err(blob_failure)?;
                }
            }
            Ok(())
        }
        .await;
        let kind = match received.and_then(|()| check.finish().map_err(Error::from)) {
            Ok(kind) => kind,
            Err(err) => {
                if let Some(writer) = writer
                    && let Err(abort) = writer.abort().await
                {
                    tracing::warn!(error = %abort, "aborting a refused upload failed");
                }
                self.blobs().discard(&staging).await.ok();
                return Err(err);
            }
        };
        // A type is known once `finish` passed, so the writer exists.
        let Some(mut writer) = writer else {
            return Err(Error::Internal("an accepted upload has no writer".into()));
        };
        writer.shutdown().await.map_err(blob_failure)?;
        Ok(Received {
            staging,
            object_key: format!("{}.{}", super::hex(&hash.finalize()), kind.extension()),
            content_type: kind.mime(),
            size_bytes: size,
        })
    }

    /// Records the upload and moves its bytes into place (steps 1 and 2 of the module
    /// documentation).
    async fn claim_and_place(
        &self,
        who: &Principal,
        file_name: &str,
        received: Received,
    ) -> Result<Upload> {
        let quota = self.inner.config.uploads.quota_bytes;
        let new = NewUpload {
            user_id: who.user_id,
            object_key: received.object_key.clone(),
            content_type: received.content_type.to_owned(),
            size_bytes: i64::try_from(received.size_bytes).unwrap_or(i64::MAX),
            file_name: display_name(file_name),
            created_at: self.now(),
        };
        let waited_since = tokio::time::Instant::now();
        let id = loop {
            let attempt = new.clone();
            // A claim over the quota stops the transaction, so the upload row and the
            // object's reference it wrote roll back. Finding the object busy wrote nothing.
            let claimed = self
                .transact_checked(move |tx| {
                    let new = attempt.clone();
                    Box::pin(async move {
                        let (claim, used) = tx.begin_upload(&new).await?;
                        match claim {
                            UploadClaim::Pending(_)
                                if used.saturating_add(new.size_bytes) > quota =>
                            {
                                Err(BodyError::Rule(Error::StorageQuotaExceeded {
                                    limit: quota,
                                    used,
                                }))
                            }
                            other => Ok(other),
                        }
                    })
                })
                .await;
            match claimed {
                Ok(UploadClaim::Pending(id)) => break id,
                Ok(UploadClaim::Existing {
                    upload,
                    stored: true,
                }) => return Ok(upload),
                // Another request is storing these bytes, or removing the object: wait.
                Ok(UploadClaim::ObjectDeleting | UploadClaim::Existing { stored: false, .. }) => {
                    if waited_since.elapsed() > BUSY_WAIT {
                        return Err(Error::Unavailable { retry_after: 1 });
                    }
                    tokio::time::sleep(BUSY_POLL).await;
                }
                Err(BodyError::Rule(err)) => return Err(err),
                Err(BodyError::Store(err)) => return Err(err.into()),
            }
        };
        let placed = self
            .blobs()
            .place(&received.staging, &received.object_key)
            .await;
        let upload = Upload {
            id,
            user_id: new.user_id,
            object_key: new.object_key,
            content_type: new.content_type,
            size_bytes: new.size_bytes,
            file_name: new.file_name,
            created_at: new.created_at,
        };
        let url = self.file_url(&upload.object_key);
        let (user, at) = (upload.user_id, upload.created_at);
        let event_upload = upload.clone();
        let stored = match placed {
            Ok(()) => {
                self.transact(move |tx| {
                    let (upload, url) = (event_upload.clone(), url.clone());
                    Box::pin(async move {
                        tx.finish_upload(id).await?;
                        let data = EventData::Upload(&upload, &url);
                        webhooks::emit(tx, user, EventType::UploadCreated, at, data).await
                    })
                })
                .await
            }
            Err(err) => {
                tracing::error!(error = %err, "placing an upload failed");
                Err(StoreError::backend(err))
            }
        };
        if let Err(err) = stored {
            // Give the claim back so the quota and the object's references stay true.
            self.remove_upload(who.user_id, id, true).await.ok();
            return Err(err.into());
        }
        self.events_committed(user);
        Ok(upload)
    }

    /// A page of the caller's uploads, newest first.
    ///
    /// # Errors
    /// 400 for a bad page.
    pub async fn uploads(
        &self,
        who: &Principal,
        page: Option<i64>,
        page_size: Option<i64>,
    ) -> Result<(Page<Upload>, i64, i64)> {
        let window = PageWindow::new(page, page_size)?;
        let found = self
            .store()
            .uploads(who.user_id, window.offset(), window.size)
            .await?;
        Ok((found, window.page, window.size))
    }

    /// Deletes one of the caller's uploads; its bytes go when no upload names them.
    ///
    /// # Errors
    /// 404 when the caller has no such upload.
    pub async fn delete_upload(&self, who: &Principal, id: UploadId) -> Result<Upload> {
        self.remove_upload(who.user_id, id, false)
            .await?
            .ok_or(Error::NotFound("upload"))
    }

    /// Removes an upload row and, when it was its object's last, the object (step 3).
    async fn remove_upload(
        &self,
        user: crate::model::UserId,
        id: UploadId,
        pending_only: bool,
    ) -> Result<Option<Upload>> {
        let removed = self
            .transact(move |tx| {
                Box::pin(async move { tx.delete_upload(user, id, pending_only).await })
            })
            .await?;
        let Some((upload, claimed)) = removed else {
            return Ok(None);
        };
        if claimed && let Err(err) = self.remove_object(&upload.object_key).await {
            // The claim stands; the sweeper removes the bytes later.
            tracing::warn!(error = %err, key = %upload.object_key, "removing an object failed");
        }
        Ok(Some(upload))
    }

    /// Removes the bytes of an object claimed for removal, then its row.
    async fn remove_object(&self, object_key: &str) -> Result<()> {
        self.blobs()
            .remove(object_key)
            .await
            .map_err(blob_failure)?;
        let key = object_key.to_owned();
        self.transact(move |tx| {
            let key = key.clone();
            Box::pin(async move { tx.forget_blob(&key).await })
        })
        .await?;
        Ok(())
    }

    /// A stored file by its object key, for serving; `None` when no upload names it, or when
    /// every user who stored it is suspended with their redirects: their files go with their
    /// links. (The same bytes stored by anyone else are still served.)
    ///
    /// # Errors
    /// When the store fails.
    pub async fn hosted_file(&self, object_key: &str) -> Result<Option<HostedFile>> {
        if !is_object_key(object_key) {
            return Ok(None);
        }
        let links = &self.inner.links;
        if links.any_halted() {
            let owners = self.store().blob_owners(object_key).await?;
            if !owners.is_empty() && owners.iter().all(|owner| links.halted(*owner)) {
                return Ok(None);
            }
        }
        let found = self.store().blob(object_key).await?;
        Ok(found
            .filter(|b: &BlobRecord| b.refs > 0 && !b.deleting)
            .map(|b| HostedFile {
                object_key: b.object_key,
                content_type: b.content_type,
                size_bytes: u64::try_from(b.size_bytes).unwrap_or(0),
            }))
    }

    /// How a client gets a stored file: streamed, or redirected to a presigned URL.
    ///
    /// # Errors
    /// When the object store cannot sign.
    pub async fn file_placement(&self, file: &HostedFile) -> Result<Placement> {
        self.blobs()
            .placement(&file.object_key)
            .await
            .map_err(blob_failure)
    }

    /// The bytes of a stored file, all or a range.
    ///
    /// # Errors
    /// 404 when the bytes are gone; when the object store fails.
    pub async fn file_bytes(
        &self,
        file: &HostedFile,
        range: Option<std::ops::Range<u64>>,
    ) -> Result<ByteStream> {
        self.blobs()
            .read(&file.object_key, range)
            .await
            .map_err(blob_failure)
    }

    /// Finishes what interrupted uploads and removals left: claims whose request died,
    /// objects no upload names, staging leftovers. Safe to run on every instance at once.
    ///
    /// # Errors
    /// When the store or the object store fails; the next sweep carries on.
    pub async fn sweep_uploads(&self) -> Result<()> {
        let cutoff = self.now() - i64::try_from(STAGING_MAX_AGE.as_secs()).unwrap_or(0);
        for stale in self
            .store()
            .stale_pending_uploads(cutoff, SWEEP_BATCH)
            .await?
        {
            self.remove_upload(stale.user_id, stale.id, true).await?;
        }
        for blob in self.store().unreferenced_blobs(SWEEP_BATCH).await? {
            let key = blob.object_key.clone();
            let claimed = blob.deleting
                || self
                    .transact(move |tx| {
                        let key = key.clone();
                        Box::pin(async move { tx.claim_blob_removal(&key).await })
                    })
                    .await?;
            if claimed {
                self.remove_object(&blob.object_key).await?;
            }
        }
        self.blobs().sweep_staging().await.map_err(blob_failure)?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_names_are_a_last_segment_without_controls() {
        assert_eq!(display_name("../../etc/passwd"), "passwd");
        assert_eq!(display_name("C:\\photos\\cat.png"), "cat.png");
        assert_eq!(display_name("a\u{0}b\r\n\u{202E}gnp.exe"), "abgnp.exe");
        assert_eq!(display_name(&"x".repeat(400)).len(), MAX_FILE_NAME);
    }

    #[test]
    fn object_keys_are_a_hash_and_a_known_extension() {
        let hash = "a".repeat(64);
        assert!(is_object_key(&format!("{hash}.png")));
        assert!(!is_object_key(&format!("{hash}.svg")));
        assert!(!is_object_key("../etc/passwd"));
        assert!(!is_object_key(&format!("{}.png", "A".repeat(64))));
    }
}
