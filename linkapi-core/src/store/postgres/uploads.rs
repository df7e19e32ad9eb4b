//! Uploads and objects on PostgreSQL.

use async_trait::async_trait;

use super::{PgStore, PgTx, all, count, execute, first, one};
use crate::model::{Timestamp, Upload, UploadId, UserId};
use crate::store::uploads::{
    BLOB_BY_KEY, BLOB_OWNERS, INSERT_UPLOAD, UNREFERENCED_BLOBS, UPLOAD_COLUMNS, UPLOAD_OF_OBJECT,
    blob_from_row, upload_from_row,
};
use crate::store::{
    BlobRecord, Misuse, NewUpload, Page, StoreError, StoreResult, UploadClaim, UploadStore,
    UploadWrites,
};

#[async_trait]
impl UploadStore for PgStore {
    async fn upload(&self, user: UserId, id: UploadId) -> StoreResult<Option<Upload>> {
        self.one(
            &format!(
                "SELECT {UPLOAD_COLUMNS} FROM uploads u JOIN blobs b USING (object_key)
                 WHERE u.user_id = $1 AND u.id = $2 AND u.stored"
            ),
            &[&user.0, &id.0],
            upload_from_row,
        )
        .await
    }

    async fn uploads(&self, user: UserId, offset: i64, limit: i64) -> StoreResult<Page<Upload>> {
        let client = self.client().await?;
        let total = count(
            &client,
            "SELECT count(*) FROM uploads WHERE user_id = $1 AND stored",
            &[&user.0],
        )
        .await?;
        let items = all(
            &client,
            &format!(
                "SELECT {UPLOAD_COLUMNS} FROM uploads u JOIN blobs b USING (object_key)
                 WHERE u.user_id = $1 AND u.stored ORDER BY u.id DESC LIMIT $2 OFFSET $3"
            ),
            &[&user.0, &limit, &offset],
            upload_from_row,
        )
        .await?;
        Ok(Page { items, total })
    }

    async fn blob(&self, object_key: &str) -> StoreResult<Option<BlobRecord>> {
        self.one(&BLOB_BY_KEY, &[&object_key], blob_from_row).await
    }

    async fn blob_owners(&self, object_key: &str) -> StoreResult<Vec<UserId>> {
        let ids = self.all(BLOB_OWNERS, &[&object_key], first).await?;
        Ok(ids.into_iter().map(UserId).collect())
    }

    async fn unreferenced_blobs(&self, limit: i64) -> StoreResult<Vec<BlobRecord>> {
        self.all(&UNREFERENCED_BLOBS, &[&limit], blob_from_row)
            .await
    }

    async fn stale_pending_uploads(
        &self,
        before: Timestamp,
        limit: i64,
    ) -> StoreResult<Vec<Upload>> {
        self.all(
            &format!(
                "SELECT {UPLOAD_COLUMNS} FROM uploads u JOIN blobs b USING (object_key)
                 WHERE NOT u.stored AND u.created_at < $1 LIMIT $2"
            ),
            &[&before, &limit],
            upload_from_row,
        )
        .await
    }
}

#[async_trait]
impl UploadWrites for PgTx<'_> {
    async fn begin_upload(&mut self, new: &NewUpload) -> StoreResult<(UploadClaim, i64)> {
        // Lock the user's usage row first: a user's concurrent uploads, on any instance, then
        // run one after another, each seeing what the one before it committed.
        let used = count(
            &self.tx,
            "INSERT INTO upload_usage (user_id, bytes) VALUES ($1, 0)
             ON CONFLICT (user_id) DO UPDATE SET bytes = upload_usage.bytes
             RETURNING bytes",
            &[&new.user_id.0],
        )
        .await?;
        let existing = one(
            &self.tx,
            &UPLOAD_OF_OBJECT,
            &[&new.user_id.0, &new.object_key],
            |r| Ok((upload_from_row(r)?, r.flag(7)?)),
        )
        .await?;
        if let Some((upload, stored)) = existing {
            return Ok((UploadClaim::Existing { upload, stored }, used));
        }
        // The object row's lock orders this against a removal claim of the same object.
        let referenced = one(
            &self.tx,
            "INSERT INTO blobs (object_key, content_type, size_bytes, refs)
             VALUES ($1, $2, $3, 1)
             ON CONFLICT (object_key) DO UPDATE SET refs = blobs.refs + 1
             WHERE NOT blobs.deleting
             RETURNING refs",
            &[&new.object_key, &new.content_type, &new.size_bytes],
            first,
        )
        .await?;
        if referenced.is_none() {
            return Ok((UploadClaim::ObjectDeleting, used));
        }
        let id = one(
            &self.tx,
            INSERT_UPLOAD,
            &[
                &new.user_id.0,
                &new.object_key,
                &new.size_bytes,
                &new.file_name,
                &new.created_at,
            ],
            first,
        )
        .await?
        .ok_or_else(|| StoreError::backend(Misuse("an upload insert returned no row")))?;
        execute(
            &self.tx,
            "UPDATE upload_usage SET bytes = bytes + $2 WHERE user_id = $1",
            &[&new.user_id.0, &new.size_bytes],
        )
        .await?;
        Ok((UploadClaim::Pending(UploadId(id)), used))
    }

    async fn finish_upload(&mut self, id: UploadId) -> StoreResult<()> {
        execute(
            &self.tx,
            "UPDATE uploads SET stored = true WHERE id = $1",
            &[&id.0],
        )
        .await?;
        Ok(())
    }

    async fn delete_upload(
        &mut self,
        user: UserId,
        id: UploadId,
        pending_only: bool,
    ) -> StoreResult<Option<(Upload, bool)>> {
        // Lock as claims do, the user's usage row first, so the two never wait on each other
        // in opposite orders.
        execute(
            &self.tx,
            "SELECT bytes FROM upload_usage WHERE user_id = $1 FOR UPDATE",
            &[&user.0],
        )
        .await?;
        // The removed row, with its object's media type filled in below.
        let removed = one(
            &self.tx,
            "DELETE FROM uploads WHERE id = $1 AND user_id = $2 AND (NOT stored OR NOT $3)
             RETURNING id, user_id, object_key, '', size_bytes, file_name, created_at",
            &[&id.0, &user.0, &pending_only],
            upload_from_row,
        )
        .await?;
        let Some(mut upload) = removed else {
            return Ok(None);
        };
        execute(
            &self.tx,
            "UPDATE upload_usage SET bytes = bytes - $2 WHERE user_id = $1",
            &[&upload.user_id.0, &upload.size_bytes],
        )
        .await?;
        let (claimed, content_type) = one(
            &self.tx,
            "UPDATE blobs SET refs = refs - 1, deleting = deleting OR refs - 1 = 0
             WHERE object_key = $1 RETURNING deleting, content_type",
            &[&upload.object_key],
            |r| Ok((r.flag(0)?, r.text(1)?)),
        )
        .await?
        .ok_or_else(|| StoreError::backend(Misuse("an upload named no object")))?;
        upload.content_type = content_type;
        Ok(Some((upload, claimed)))
    }

    async fn claim_blob_removal(&mut self, object_key: &str) -> StoreResult<bool> {
        let changed = execute(
            &self.tx,
            "UPDATE blobs SET deleting = true WHERE object_key = $1 AND refs = 0",
            &[&object_key],
        )
        .await?;
        Ok(changed == 1)
    }

    async fn forget_blob(&mut self, object_key: &str) -> StoreResult<()> {
        execute(
            &self.tx,
            "DELETE FROM blobs WHERE object_key = $1 AND deleting AND refs = 0",
            &[&object_key],
        )
        .await?;
        Ok(())
    }
}
