//! Writing bytes still being received into a staging object, in parts, with every filesystem
//! call of a local backend on the blocking pool.
//!
//! `object_store`'s buffered writer does that for a bucket. For a local directory it creates
//! the part file on the task's own thread (`LocalFileSystem::put_multipart_opts` opens it
//! there): when the disk is busy (a commit's sync waiting behind gigabytes of writeback), that
//! one `open` held a serving thread, and every redirect queued on it, for hundreds of
//! milliseconds. A local staging object is therefore written here, straight to its own name
//! (which also leaves a crash's leftover visible to the staging sweep, where `object_store`'s
//! part files are hidden from listings).

use std::io::Write;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use bytes::Bytes;
use object_store::buffered::BufWriter;
use tokio::io::AsyncWriteExt;

use super::{BlobError, blocking};
use crate::locks::Unpoisoned;

/// A writer into a staging object: [`StagingWriter::put`] the bytes as they come, then
/// [`StagingWriter::shutdown`] (written whole) or [`StagingWriter::abort`].
pub enum StagingWriter {
    /// A local file, written in parts on the blocking pool.
    Local(LocalStaging),
    /// A bucket's object, through `object_store`'s buffered writer.
    Bucket(BufWriter),
}

impl StagingWriter {
    /// Adds `chunk`; a whole part is written out before this returns.
    ///
    /// # Errors
    /// When the backend fails.
    pub async fn put(&mut self, chunk: Bytes) -> Result<(), BlobError> {
        match self {
            StagingWriter::Local(local) => local.put(chunk).await,
            StagingWriter::Bucket(writer) => writer.put(chunk).await.map_err(BlobError::from),
        }
    }

    /// Writes what is left; the object then holds every byte put.
    ///
    /// # Errors
    /// When the backend fails.
    pub async fn shutdown(&mut self) -> Result<(), BlobError> {
        match self {
            StagingWriter::Local(local) => local.finish().await,
            StagingWriter::Bucket(writer) => writer
                .shutdown()
                .await
                .map_err(|err| BlobError::Backend(generic("buffered writer", err))),
        }
    }

    /// Gives up: nothing of the object stays behind.
    ///
    /// # Errors
    /// When the backend fails.
    pub async fn abort(self) -> Result<(), BlobError> {
        match self {
            StagingWriter::Local(local) => local.abort().await,
            StagingWriter::Bucket(mut writer) => writer.abort().await.map_err(BlobError::from),
        }
    }
}

/// A staging file of a local backend: the bytes wait in memory until a part's worth
/// (`part_bytes`) has come, then one blocking task writes them, creating the file (and the
/// staging directory) the first time. Dropped before it was finished or aborted (its request
/// went away), it removes its file on the blocking pool, after any write still running there
/// (a write that had not started by then creates nothing).
pub struct LocalStaging {
    path: PathBuf,
    part_bytes: usize,
    file: Arc<Mutex<Slot>>,
    pending: Vec<Bytes>,
    pending_bytes: usize,
    /// Written whole, or already removed: nothing for `drop` to do.
    settled: bool,
}

/// The file, shared with the blocking task writing it or removing it.
#[derive(Default)]
struct Slot {
    file: Option<std::fs::File>,
    /// Removed: no write may create the file again.
    removed: bool,
}

impl Slot {
    /// Closes and removes the file; later writes fail.
    fn remove(&mut self, path: &std::path::Path) -> std::io::Result<()> {
        self.removed = true;
        self.file = None;
        match std::fs::remove_file(path) {
            Err(err) if err.kind() != std::io::ErrorKind::NotFound => Err(err),
            _ => Ok(()),
        }
    }
}

impl LocalStaging {
    /// A writer of the file at `path`, which is created at the first write.
    pub(super) fn new(path: PathBuf, part_bytes: usize) -> Self {
        LocalStaging {
            path,
            part_bytes,
            file: Arc::default(),
            pending: Vec::new(),
            pending_bytes: 0,
            settled: false,
        }
    }

    async fn finish(&mut self) -> Result<(), BlobError> {
        self.flush().await?;
        self.settled = true;
        Ok(())
    }

    async fn put(&mut self, chunk: Bytes) -> Result<(), BlobError> {
        self.pending_bytes += chunk.len();
        self.pending.push(chunk);
        if self.pending_bytes >= self.part_bytes {
            self.flush().await?;
        }
        Ok(())
    }

    /// Writes what waits, creating the file when it does not exist yet (an empty object is a
    /// file too).
    async fn flush(&mut self) -> Result<(), BlobError> {
        let parts = std::mem::take(&mut self.pending);
        self.pending_bytes = 0;
        let (slot, path) = (self.file.clone(), self.path.clone());
        blocking(move || {
            let mut slot = slot.lock().unpoisoned();
            if slot.removed {
                return Err(std::io::Error::other("the staging file was abandoned"));
            }
            let file = match &mut slot.file {
                Some(file) => file,
                None => slot.file.insert(create(&path)?),
            };
            for part in &parts {
                file.write_all(part)?;
            }
            Ok(())
        })
        .await
        .map_err(io_failure)
    }

    async fn abort(mut self) -> Result<(), BlobError> {
        self.settled = true;
        let (slot, path) = (self.file.clone(), self.path.clone());
        blocking(move || slot.lock().unpoisoned().remove(&path))
            .await
            .map_err(io_failure)
    }
}

impl Drop for LocalStaging {
    fn drop(&mut self) {
        if self.settled {
            return;
        }
        let (slot, path) = (self.file.clone(), std::mem::take(&mut self.path));
        let removal = move || {
            if let Err(err) = slot.lock().unpoisoned().remove(&path) {
                tracing::warn!(error = %err, "an abandoned staging file stays until the sweep");
            }
        };
        match tokio::runtime::Handle::try_current() {
            Ok(runtime) => drop(runtime.spawn_blocking(removal)),
            Err(_) => removal(),
        }
    }
}

/// A new file at `path`, its directory made when missing.
fn create(path: &std::path::Path) -> std::io::Result<std::fs::File> {
    let open = || {
        std::fs::File::options()
            .write(true)
            .create_new(true)
            .open(path)
    };
    match open() {
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => {
            if let Some(dir) = path.parent() {
                std::fs::create_dir_all(dir)?;
            }
            open()
        }
        opened => opened,
    }
}

fn io_failure(err: std::io::Error) -> BlobError {
    BlobError::Backend(generic("LocalFileSystem", err))
}

fn generic(store: &'static str, err: std::io::Error) -> object_store::Error {
    object_store::Error::Generic {
        store,
        source: Box::new(err),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::blob::{BlobBackend, BlobStore, STAGING_MAX_AGE, local_file};

    #[tokio::test]
    async fn parts_are_written_in_order_and_an_abort_leaves_nothing() {
        let dir = tempfile::tempdir().expect("a directory");
        let path = dir.path().join("staging").join("one");
        let mut writer = StagingWriter::Local(LocalStaging::new(path.clone(), 4));
        for chunk in ["ab", "cd", "ef", "g"] {
            writer.put(Bytes::from(chunk)).await.expect("a part");
        }
        // Two parts' worth came: the first four bytes are on disk, the rest wait.
        assert_eq!(std::fs::read(&path).expect("the file"), b"abcd");
        writer.shutdown().await.expect("the rest");
        assert_eq!(std::fs::read(&path).expect("the file"), b"abcdefg");

        let other = dir.path().join("staging").join("two");
        let mut writer = StagingWriter::Local(LocalStaging::new(other.clone(), 2));
        writer.put(Bytes::from("xyz")).await.expect("a part");
        assert!(other.exists());
        writer.abort().await.expect("an abort");
        assert!(!other.exists());
    }

    #[tokio::test]
    async fn a_writer_its_request_dropped_removes_its_file() {
        let dir = tempfile::tempdir().expect("a directory");
        let path = dir.path().join("staging").join("dropped");
        let mut writer = StagingWriter::Local(LocalStaging::new(path.clone(), 2));
        writer.put(Bytes::from("xyz")).await.expect("a part");
        assert!(path.exists());
        drop(writer);
        for _ in 0..100 {
            if !path.exists() {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(10)).await;
        }
        assert!(!path.exists());

        // One written whole stays.
        let kept = dir.path().join("staging").join("kept");
        let mut writer = StagingWriter::Local(LocalStaging::new(kept.clone(), 2));
        writer.put(Bytes::from("xyz")).await.expect("a part");
        writer.shutdown().await.expect("the rest");
        drop(writer);
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        assert!(kept.exists());
    }

    #[tokio::test]
    async fn a_write_that_starts_after_the_removal_creates_nothing() {
        let dir = tempfile::tempdir().expect("a directory");
        let path = dir.path().join("staging").join("late");
        let mut local = LocalStaging::new(path.clone(), 2);
        // What a dropped writer's removal does, run before a write it raced with.
        local
            .file
            .lock()
            .unpoisoned()
            .remove(&path)
            .expect("a removal");
        assert!(local.put(Bytes::from("xyz")).await.is_err());
        assert!(!path.exists());
    }

    #[tokio::test]
    async fn an_empty_object_is_an_empty_file() {
        let dir = tempfile::tempdir().expect("a directory");
        let path = dir.path().join("staging").join("empty");
        let mut writer = StagingWriter::Local(LocalStaging::new(path.clone(), 4));
        writer.shutdown().await.expect("an empty file");
        assert_eq!(std::fs::read(&path).expect("the file"), b"");
    }

    #[tokio::test]
    async fn what_a_crash_left_in_staging_is_swept_once_old() {
        let dir = tempfile::tempdir().expect("a directory");
        let blobs =
            BlobStore::open(&BlobBackend::Local(dir.path().to_path_buf())).expect("a local store");
        let (old, fresh) = (BlobStore::staging_path(), BlobStore::staging_path());
        for staging in [&old, &fresh] {
            let mut writer = blobs.writer(staging, 2, "image/png");
            writer
                .put(Bytes::from("half a file"))
                .await
                .expect("a part");
            // The process dies here: no shutdown, no abort, no drop.
            std::mem::forget(writer);
        }
        let old_file = local_file(dir.path(), &old);
        let long_ago = std::time::SystemTime::now() - 2 * STAGING_MAX_AGE;
        std::fs::File::options()
            .write(true)
            .open(&old_file)
            .and_then(|file| file.set_modified(long_ago))
            .expect("an old staging file");

        assert_eq!(blobs.sweep_staging().await.expect("a sweep"), 1);
        assert!(!old_file.exists());
        assert!(local_file(dir.path(), &fresh).exists());
    }
}
