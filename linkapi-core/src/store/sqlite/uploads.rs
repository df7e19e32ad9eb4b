//! Uploads and objects on SQLite.

use async_trait::async_trait;
use rusqlite::params;

use super::{SqliteStore, SqliteTx, all, count, first, one};
use crate::model::{Timestamp, Upload, UploadId, UserId};
use crate::store::uploads::{
    BLOB_BY_KEY, BLOB_OWNERS, INSERT_UPLOAD, UNREFERENCED_BLOBS, UPLOAD_COLUMNS, UPLOAD_OF_OBJECT,
    blob_from_row, upload_from_row,
};
use crate::store::{
    BlobRecord, NewUpload, Page, StoreResult, UploadClaim, UploadStore, UploadWrites,
};

#[async_trait]
impl UploadStore for SqliteStore {
    async fn upload(&self, user: UserId, id: UploadId) -> StoreResult<Option<Upload>> {
        self.read(move |c| {
            one(
                c,
                &format!(
                    "SELECT {UPLOAD_COLUMNS} FROM uploads u JOIN blobs b USING (object_key)
                     WHERE u.user_id = ?1 AND u.id = ?2 AND u.stored = 1"
                ),
                params![user.0, id.0],
                upload_from_row,
            )
        })
        .await
    }

    async fn uploads(&self, user: UserId, offset: i64, limit: i64) -> StoreResult<Page<Upload>> {
        self.read(move |c| {
            let total = count(
                c,
                "SELECT count(*) FROM uploads WHERE user_id = ?1 AND stored = 1",
                [user.0],
            )?;
            let items = all(
                c,
                &format!(
                    "SELECT {UPLOAD_COLUMNS} FROM uploads u JOIN blobs b USING (object_key)
                     WHERE u.user_id = ?1 AND u.stored = 1
                     ORDER BY u.id DESC LIMIT ?2 OFFSET ?3"
                ),
                params![user.0, limit, offset],
                upload_from_row,
            )?;
            Ok(Page { items, total })
        })
        .await
    }

    async fn blob(&self, object_key: &str) -> StoreResult<Option<BlobRecord>> {
        let key = object_key.to_owned();
        self.read(move |c| one(c, &BLOB_BY_KEY, [key], blob_from_row))
            .await
    }

    async fn blob_owners(&self, object_key: &str) -> StoreResult<Vec<UserId>> {
        let key = object_key.to_owned();
        let ids = self
            .read(move |c| all(c, BLOB_OWNERS, [key], first))
            .await?;
        Ok(ids.into_iter().map(UserId).collect())
    }

    async fn unreferenced_blobs(&self, limit: i64) -> StoreResult<Vec<BlobRecord>> {
        self.read(move |c| all(c, &UNREFERENCED_BLOBS, [limit], blob_from_row))
            .await
    }

    async fn stale_pending_uploads(
        &self,
        before: Timestamp,
        limit: i64,
    ) -> StoreResult<Vec<Upload>> {
        self.read(move |c| {
            all(
                c,
                &format!(
                    "SELECT {UPLOAD_COLUMNS} FROM uploads u JOIN blobs b USING (object_key)
                     WHERE u.stored = 0 AND u.created_at < ?1 LIMIT ?2"
                ),
                params![before, limit],
                upload_from_row,
            )
        })
        .await
    }
}

#[async_trait]
impl UploadWrites for SqliteTx<'_> {
    async fn begin_upload(&mut self, new: &NewUpload) -> StoreResult<(UploadClaim, i64)> {
        // One writer: nothing runs between these statements, so no row lock is needed.
        let c = &*self.conn;
        let used = one(
            c,
            "SELECT bytes FROM upload_usage WHERE user_id = ?1",
            [new.user_id.0],
            first,
        )?
        .unwrap_or(0);
        let existing = one(
            c,
            &UPLOAD_OF_OBJECT,
            params![new.user_id.0, new.object_key],
            |r| Ok((upload_from_row(r)?, r.flag(7)?)),
        )?;
        if let Some((upload, stored)) = existing {
            return Ok((UploadClaim::Existing { upload, stored }, used));
        }
        let deleting = one(
            c,
            "SELECT deleting FROM blobs WHERE object_key = ?1",
            [&new.object_key],
            |r| r.flag(0),
        )?;
        match deleting {
            Some(true) => return Ok((UploadClaim::ObjectDeleting, used)),
            Some(false) => c
                .prepare_cached("UPDATE blobs SET refs = refs + 1 WHERE object_key = ?1")?
                .execute([&new.object_key])?,
            None => c
                .prepare_cached(
                    "INSERT INTO blobs (object_key, content_type, size_bytes, refs)
                     VALUES (?1, ?2, ?3, 1)",
                )?
                .execute(params![new.object_key, new.content_type, new.size_bytes])?,
        };
        let id: i64 = c.prepare_cached(INSERT_UPLOAD)?.query_row(
            params![
                new.user_id.0,
                new.object_key,
                new.size_bytes,
                new.file_name,
                new.created_at
            ],
            |r| r.get(0),
        )?;
        c.prepare_cached(
            "INSERT INTO upload_usage (user_id, bytes) VALUES (?1, ?2)
             ON CONFLICT (user_id) DO UPDATE SET bytes = bytes + excluded.bytes",
        )?
        .execute(params![new.user_id.0, new.size_bytes])?;
        Ok((UploadClaim::Pending(UploadId(id)), used))
    }

    async fn finish_upload(&mut self, id: UploadId) -> StoreResult<()> {
        self.conn
            .prepare_cached("UPDATE uploads SET stored = 1 WHERE id = ?1")?
            .execute([id.0])?;
        Ok(())
    }

    async fn delete_upload(
        &mut self,
        user: UserId,
        id: UploadId,
        pending_only: bool,
    ) -> StoreResult<Option<(Upload, bool)>> {
        let c = &*self.conn;
        let found = one(
            c,
            &format!(
                "SELECT {UPLOAD_COLUMNS} FROM uploads u JOIN blobs b USING (object_key)
                 WHERE u.id = ?1 AND u.user_id = ?2 AND (u.stored = 0 OR NOT ?3)"
            ),
            params![id.0, user.0, pending_only],
            upload_from_row,
        )?;
        let Some(upload) = found else {
            return Ok(None);
        };
        c.prepare_cached("DELETE FROM uploads WHERE id = ?1")?
            .execute([id.0])?;
        c.prepare_cached("UPDATE upload_usage SET bytes = bytes - ?2 WHERE user_id = ?1")?
            .execute(params![upload.user_id.0, upload.size_bytes])?;
        let claimed: bool = c
            .prepare_cached(
                "UPDATE blobs SET refs = refs - 1,
                    deleting = CASE WHEN refs - 1 = 0 THEN 1 ELSE deleting END
                 WHERE object_key = ?1 RETURNING deleting",
            )?
            .query_row([&upload.object_key], |r| r.get(0))?;
        Ok(Some((upload, claimed)))
    }

    async fn claim_blob_removal(&mut self, object_key: &str) -> StoreResult<bool> {
        let changed = self
            .conn
            .prepare_cached("UPDATE blobs SET deleting = 1 WHERE object_key = ?1 AND refs = 0")?
            .execute([object_key])?;
        Ok(changed == 1)
    }

    async fn forget_blob(&mut self, object_key: &str) -> StoreResult<()> {
        self.conn
            .prepare_cached(
                "DELETE FROM blobs WHERE object_key = ?1 AND deleting = 1 AND refs = 0",
            )?
            .execute([object_key])?;
        Ok(())
    }
}
