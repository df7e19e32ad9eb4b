//! Uploads and the content-addressed objects they name, with each user's storage use.

use async_trait::async_trait;

use super::{Page, StoreResult, StoredRow};
use crate::model::{Timestamp, Upload, UploadId, UserId};

/// An object as the database knows it: what serving it needs, and how many uploads name it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BlobRecord {
    /// Content hash and extension.
    pub object_key: String,
    /// Media type.
    pub content_type: String,
    /// Length in bytes.
    pub size_bytes: i64,
    /// Uploads naming it, those still being stored included.
    pub refs: i64,
    /// Claimed for removal: no upload names it and its bytes are going.
    pub deleting: bool,
}

/// A new upload; its bytes are already in staging.
#[derive(Debug, Clone)]
pub struct NewUpload {
    /// Owner.
    pub user_id: UserId,
    /// Content hash and extension.
    pub object_key: String,
    /// Media type.
    pub content_type: String,
    /// Length in bytes.
    pub size_bytes: i64,
    /// The client's name for it, cleaned for display.
    pub file_name: String,
    /// Upload time.
    pub created_at: Timestamp,
}

/// What [`UploadWrites::begin_upload`] found.
#[derive(Debug, Clone)]
pub enum UploadClaim {
    /// A new upload row, not yet stored; its object gained a reference.
    Pending(UploadId),
    /// The user already has these bytes, stored or still being stored by another request.
    Existing {
        /// That upload.
        upload: Upload,
        /// Whether its bytes are in place.
        stored: bool,
    },
    /// The object is claimed for removal; nothing was written.
    ObjectDeleting,
}

/// An upload's columns, joined with its object's (`u` and `b`).
pub(crate) const UPLOAD_COLUMNS: &str =
    "u.id, u.user_id, u.object_key, b.content_type, u.size_bytes, u.file_name, u.created_at";

pub(crate) fn upload_from_row(row: &dyn StoredRow) -> StoreResult<Upload> {
    Ok(Upload {
        id: UploadId(row.int(0)?),
        user_id: UserId(row.int(1)?),
        object_key: row.text(2)?,
        content_type: row.text(3)?,
        size_bytes: row.int(4)?,
        file_name: row.text(5)?,
        created_at: row.int(6)?,
    })
}

/// The columns of an object, in the order [`blob_from_row`] reads them.
pub(crate) const BLOB_COLUMNS: &str = "object_key, content_type, size_bytes, refs, deleting";

/// One object by key.
pub(crate) static BLOB_BY_KEY: std::sync::LazyLock<String> =
    std::sync::LazyLock::new(|| format!("SELECT {BLOB_COLUMNS} FROM blobs WHERE object_key = $1"));

/// The users with a stored upload of object `$1`.
pub(crate) const BLOB_OWNERS: &str =
    "SELECT DISTINCT user_id FROM uploads WHERE object_key = $1 AND stored ORDER BY user_id";

/// Objects no upload names, at most `$1`.
pub(crate) static UNREFERENCED_BLOBS: std::sync::LazyLock<String> =
    std::sync::LazyLock::new(|| {
        format!("SELECT {BLOB_COLUMNS} FROM blobs WHERE refs = 0 LIMIT $1")
    });

/// A user's upload of an object, stored or not (`u.stored` last).
pub(crate) static UPLOAD_OF_OBJECT: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
    format!(
        "SELECT {UPLOAD_COLUMNS}, u.stored FROM uploads u JOIN blobs b USING (object_key)
         WHERE u.user_id = $1 AND u.object_key = $2"
    )
});

/// A new upload, not yet stored; answers its id.
pub(crate) const INSERT_UPLOAD: &str =
    "INSERT INTO uploads (user_id, object_key, size_bytes, file_name, created_at)
     VALUES ($1, $2, $3, $4, $5) RETURNING id";

pub(crate) fn blob_from_row(row: &dyn StoredRow) -> StoreResult<BlobRecord> {
    Ok(BlobRecord {
        object_key: row.text(0)?,
        content_type: row.text(1)?,
        size_bytes: row.int(2)?,
        refs: row.int(3)?,
        deleting: row.flag(4)?,
    })
}

/// Uploads and the objects they name.
#[async_trait]
pub trait UploadStore: Send + Sync {
    /// One of the user's stored uploads.
    async fn upload(&self, user: UserId, id: UploadId) -> StoreResult<Option<Upload>>;
    /// A page of the user's stored uploads, newest first.
    async fn uploads(&self, user: UserId, offset: i64, limit: i64) -> StoreResult<Page<Upload>>;
    /// An object's record.
    async fn blob(&self, object_key: &str) -> StoreResult<Option<BlobRecord>>;
    /// The users with a stored upload of an object, in id order.
    async fn blob_owners(&self, object_key: &str) -> StoreResult<Vec<UserId>>;
    /// Up to `limit` objects no upload names (claimed for removal or not).
    async fn unreferenced_blobs(&self, limit: i64) -> StoreResult<Vec<BlobRecord>>;
    /// Up to `limit` uploads still being stored that began before `before`: their request
    /// died between claiming the object and storing it.
    async fn stale_pending_uploads(
        &self,
        before: Timestamp,
        limit: i64,
    ) -> StoreResult<Vec<Upload>>;
}

/// Writes to uploads and objects.
#[async_trait]
pub trait UploadWrites: Send {
    /// Claims an upload: unless the user already has an upload of this object, inserts one
    /// not yet stored, adds a reference to the object (recording it when new) and adds its
    /// size to the user's storage use; nothing when the object is claimed for removal.
    /// Returns what it found and the user's storage use before this upload. Concurrent claims
    /// of one user are serialized on the user's usage row.
    async fn begin_upload(&mut self, new: &NewUpload) -> StoreResult<(UploadClaim, i64)>;
    /// Marks a claimed upload stored.
    async fn finish_upload(&mut self, id: UploadId) -> StoreResult<()>;
    /// Removes one of the user's uploads (with `pending_only`, only one not yet stored), drops
    /// its reference and its size from the user's use; when no reference is left, claims the
    /// object for removal. Returns the removed upload and whether its object is now claimed.
    async fn delete_upload(
        &mut self,
        user: UserId,
        id: UploadId,
        pending_only: bool,
    ) -> StoreResult<Option<(Upload, bool)>>;
    /// Claims an object no upload names for removal; `false` when it is named again (or gone).
    async fn claim_blob_removal(&mut self, object_key: &str) -> StoreResult<bool>;
    /// Forgets an object claimed for removal once its bytes are gone.
    async fn forget_blob(&mut self, object_key: &str) -> StoreResult<()>;
}
