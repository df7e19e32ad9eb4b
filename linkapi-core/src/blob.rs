//! The blob store: where uploaded bytes live, behind one boundary with two backends chosen at
//! start-up, both through the `object_store` crate: a directory on local disk (the default; one
//! instance) and an S3-compatible bucket (several instances, feature `s3`).
//!
//! Objects are named by their content: `objects/<first two hex digits>/<object key>`, where the
//! key is the SHA-256 of the bytes and the type's extension, so the same bytes are stored once
//! and a stored object never changes. Bytes arrive under `staging/<random>` while they are read and
//! checked, and are renamed into place only once accepted; a staging object left behind by a
//! crash is swept after [`STAGING_MAX_AGE`]. The database, not this module, decides when an
//! object may go (see `service::uploads`).

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use futures_util::StreamExt;
use futures_util::stream::BoxStream;
use object_store::path::Path;
use object_store::{GetOptions, GetRange, ObjectStore, ObjectStoreExt};

mod staging;

pub use staging::StagingWriter;

/// How long a hosted file may be cached, by anyone: its name is the hash of its bytes, so the
/// bytes under a name never change.
pub const FILE_CACHE_CONTROL: &str = "public, max-age=31536000, immutable";

/// Staging objects older than this belong to an upload that will never finish.
pub const STAGING_MAX_AGE: Duration = Duration::from_secs(3600);

/// Which backend holds the bytes.
#[derive(Clone)]
pub enum BlobBackend {
    /// A directory on local disk, created when missing.
    Local(PathBuf),
    /// An S3-compatible bucket.
    #[cfg(feature = "s3")]
    S3(S3Settings),
}

impl std::fmt::Debug for BlobBackend {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BlobBackend::Local(dir) => f.debug_tuple("Local").field(dir).finish(),
            #[cfg(feature = "s3")]
            BlobBackend::S3(s3) => f.debug_tuple("S3").field(s3).finish(),
        }
    }
}

/// Where and how to reach an S3-compatible bucket. Unset fields fall back to the standard AWS
/// environment variables (`AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`, `AWS_SESSION_TOKEN`,
/// `AWS_REGION`/`AWS_DEFAULT_REGION`, `AWS_ENDPOINT_URL`).
#[cfg(feature = "s3")]
#[derive(Clone, Default)]
pub struct S3Settings {
    /// The bucket.
    pub bucket: String,
    /// The service's URL, for S3-compatible servers other than AWS (path-style requests).
    pub endpoint: Option<String>,
    /// The region.
    pub region: Option<String>,
    /// Access key id.
    pub access_key_id: Option<String>,
    /// Secret access key.
    pub secret_access_key: Option<String>,
    /// Serve files by redirecting to a presigned URL instead of streaming them through the
    /// server; `None` streams.
    pub presign: Option<Duration>,
}

#[cfg(feature = "s3")]
impl std::fmt::Debug for S3Settings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("S3Settings")
            .field("bucket", &self.bucket)
            .field("endpoint", &self.endpoint)
            .field("region", &self.region)
            .field("access_key_id", &self.access_key_id)
            .field("presign", &self.presign)
            .finish_non_exhaustive()
    }
}

/// A blob store failure.
#[derive(Debug, thiserror::Error)]
pub enum BlobError {
    /// The object is not there.
    #[error("object not found")]
    NotFound,
    /// The backend failed.
    #[error("object store: {0}")]
    Backend(#[source] object_store::Error),
    /// The backend could not be set up.
    #[error("object store configuration: {0}")]
    Config(String),
    /// A local object could not be written out to the disk.
    #[error("syncing an object to disk: {0}")]
    Sync(#[source] std::io::Error),
}

impl From<object_store::Error> for BlobError {
    fn from(err: object_store::Error) -> Self {
        match err {
            object_store::Error::NotFound { .. } => BlobError::NotFound,
            other => BlobError::Backend(other),
        }
    }
}

/// The bytes of an object, or of a range of it, as they stream out of the backend.
pub type ByteStream = BoxStream<'static, Result<Bytes, BlobError>>;

/// Where a stored object is read from.
pub enum Placement {
    /// Stream it through the server.
    Stream,
    /// Redirect the client to this presigned URL.
    Redirect(String),
}

/// The opened backend.
#[derive(Clone)]
pub struct BlobStore {
    objects: Arc<dyn ObjectStore>,
    /// The directory of a local backend, whose placed objects are synced to the disk.
    local: Option<PathBuf>,
    /// A signer for presigned GETs, when configured.
    #[cfg(feature = "s3")]
    presign: Option<(Arc<object_store::aws::AmazonS3>, Duration)>,
}

impl std::fmt::Debug for BlobStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BlobStore")
            .field("objects", &self.objects.to_string())
            .finish_non_exhaustive()
    }
}

impl BlobStore {
    /// Opens the backend.
    ///
    /// # Errors
    /// When the directory cannot be created or the S3 settings are incomplete.
    pub fn open(backend: &BlobBackend) -> Result<Self, BlobError> {
        match backend {
            BlobBackend::Local(dir) => {
                std::fs::create_dir_all(dir).map_err(|err| {
                    BlobError::Config(format!("cannot create {}: {err}", dir.display()))
                })?;
                let local = object_store::local::LocalFileSystem::new_with_prefix(dir)
                    .map_err(|err| BlobError::Config(err.to_string()))?;
                Ok(BlobStore {
                    objects: Arc::new(local),
                    local: Some(dir.clone()),
                    #[cfg(feature = "s3")]
                    presign: None,
                })
            }
            #[cfg(feature = "s3")]
            BlobBackend::S3(settings) => {
                // reqwest's rustls needs a process-wide crypto provider; install ring's unless
                // the embedding program chose one.
                if rustls::crypto::CryptoProvider::get_default().is_none() {
                    let _ = rustls::crypto::ring::default_provider().install_default();
                }
                let mut builder = object_store::aws::AmazonS3Builder::from_env()
                    .with_bucket_name(&settings.bucket);
                if let Some(endpoint) = &settings.endpoint {
                    builder = builder
                        .with_endpoint(endpoint)
                        .with_allow_http(endpoint.starts_with("http://"));
                }
                if let Some(region) = &settings.region {
                    builder = builder.with_region(region);
                }
                if let Some(id) = &settings.access_key_id {
                    builder = builder.with_access_key_id(id);
                }
                if let Some(secret) = &settings.secret_access_key {
                    builder = builder.with_secret_access_key(secret);
                }
                let s3 = Arc::new(
                    builder
                        .build()
                        .map_err(|err| BlobError::Config(err.to_string()))?,
                );
                Ok(BlobStore {
                    objects: s3.clone(),
                    local: None,
                    presign: settings.presign.map(|ttl| (s3, ttl)),
                })
            }
        }
    }

    /// Where an accepted object lives.
    fn object_path(key: &str) -> Path {
        let shard = key.get(..2).unwrap_or("00");
        Path::from_iter(["objects", shard, key])
    }

    /// A fresh staging name for bytes still being received.
    pub fn staging_path() -> Path {
        Path::from_iter([
            "staging".to_owned(),
            format!("{:032x}", rand::random::<u128>()),
        ])
    }

    /// A writer that streams into `staging`, in parts of at most `part_bytes` in memory. In a
    /// bucket the object keeps `content_type` and [`FILE_CACHE_CONTROL`], which a rename
    /// (S3's copy) keeps too: a presigned GET is answered by the bucket with them. A local
    /// file has no attributes; the server sends them when it serves the file.
    pub fn writer(
        &self,
        staging: &Path,
        part_bytes: usize,
        content_type: &'static str,
    ) -> StagingWriter {
        if let Some(dir) = &self.local {
            let file = local_file(dir, staging);
            return StagingWriter::Local(staging::LocalStaging::new(file, part_bytes));
        }
        let writer = object_store::buffered::BufWriter::with_capacity(
            self.objects.clone(),
            staging.clone(),
            part_bytes,
        );
        StagingWriter::Bucket(writer.with_attributes(object_store::Attributes::from_iter([
            (object_store::Attribute::ContentType, content_type),
            (object_store::Attribute::CacheControl, FILE_CACHE_CONTROL),
        ])))
    }

    /// Moves accepted bytes from `staging` to the object named `key`, on the disk before it
    /// returns (a local backend's file and its directory are synced; a bucket's put is durable
    /// when answered): the upload is recorded as stored next, and an acknowledged upload must
    /// survive a crash. The same key always holds the same bytes, so replacing an existing
    /// object changes nothing.
    ///
    /// # Errors
    /// When the backend fails.
    pub async fn place(&self, staging: &Path, key: &str) -> Result<(), BlobError> {
        let object = Self::object_path(key);
        self.objects
            .rename(staging, &object)
            .await
            .map_err(BlobError::from)?;
        let Some(dir) = &self.local else {
            return Ok(());
        };
        let file = local_file(dir, &object);
        blocking(move || {
            std::fs::File::open(&file)?.sync_data()?;
            match file.parent() {
                Some(parent) => std::fs::File::open(parent)?.sync_all(),
                None => Ok(()),
            }
        })
        .await
        .map_err(BlobError::Sync)
    }

    /// Removes a staging object (a refused or abandoned upload); absent is fine.
    ///
    /// # Errors
    /// When the backend fails.
    pub async fn discard(&self, staging: &Path) -> Result<(), BlobError> {
        match self.objects.delete(staging).await {
            Ok(()) | Err(object_store::Error::NotFound { .. }) => Ok(()),
            Err(err) => Err(err.into()),
        }
    }

    /// Removes the object named `key`; absent is fine.
    ///
    /// # Errors
    /// When the backend fails.
    pub async fn remove(&self, key: &str) -> Result<(), BlobError> {
        match self.objects.delete(&Self::object_path(key)).await {
            Ok(()) | Err(object_store::Error::NotFound { .. }) => Ok(()),
            Err(err) => Err(err.into()),
        }
    }

    /// How a client should get the object named `key`.
    ///
    /// # Errors
    /// When the backend cannot sign.
    pub async fn placement(&self, key: &str) -> Result<Placement, BlobError> {
        #[cfg(feature = "s3")]
        if let Some((s3, ttl)) = &self.presign {
            use object_store::signer::Signer;
            let url = s3
                .signed_url(http::Method::GET, &Self::object_path(key), *ttl)
                .await?;
            return Ok(Placement::Redirect(url.to_string()));
        }
        let _ = key;
        Ok(Placement::Stream)
    }

    /// The bytes of the object named `key`, all of them or `range`.
    ///
    /// # Errors
    /// [`BlobError::NotFound`] when it is not there; when the backend fails.
    pub async fn read(
        &self,
        key: &str,
        range: Option<std::ops::Range<u64>>,
    ) -> Result<ByteStream, BlobError> {
        let options = GetOptions {
            range: range.map(GetRange::Bounded),
            ..GetOptions::default()
        };
        let found = self
            .objects
            .get_opts(&Self::object_path(key), options)
            .await?;
        Ok(found
            .into_stream()
            .map(|r| r.map_err(BlobError::from))
            .boxed())
    }

    /// Removes staging objects older than [`STAGING_MAX_AGE`]: uploads a crash interrupted.
    /// Returns how many went.
    ///
    /// # Errors
    /// When the backend fails.
    pub async fn sweep_staging(&self) -> Result<usize, BlobError> {
        let cutoff = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs())
            .saturating_sub(STAGING_MAX_AGE.as_secs());
        let cutoff = i64::try_from(cutoff).unwrap_or(i64::MAX);
        let prefix = Path::from("staging");
        let mut listing = self.objects.list(Some(&prefix));
        let mut removed = 0;
        while let Some(meta) = listing.next().await {
            let meta = match meta {
                Ok(meta) => meta,
                Err(object_store::Error::NotFound { .. }) => continue,
                Err(err) => return Err(err.into()),
            };
            if meta.last_modified.timestamp() < cutoff {
                self.discard(&meta.location).await?;
                removed += 1;
            }
        }
        Ok(removed)
    }
}

/// The file of a local backend's object `path` under `dir`. Staging and object names are
/// hexadecimal, a dot and an extension: nothing `object_store` would encode.
fn local_file(dir: &std::path::Path, path: &Path) -> PathBuf {
    path.parts()
        .fold(dir.to_path_buf(), |file, part| file.join(part.as_ref()))
}

/// Runs `work`, filesystem calls, on the blocking pool.
async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> std::io::Result<T> + Send + 'static,
) -> std::io::Result<T> {
    tokio::task::spawn_blocking(work)
        .await
        .map_err(std::io::Error::other)?
}
