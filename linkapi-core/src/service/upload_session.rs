//! The files of one upload request. Each file is checked and staged as it arrives; the files
//! are recorded only once the whole request has been read, so a request that fails anywhere
//! (cut short, malformed, too slow) records nothing and leaves nothing staged.

use bytes::Bytes;
use futures_util::Stream;

use super::uploads::StagedUpload;
use super::{App, Principal};
use crate::error::{Error, Result, names};
use crate::model::Upload;

/// Files one request of several files may carry.
pub const MAX_FILES_PER_REQUEST: u64 = 20;

/// What a request does with files past the ones it takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExtraFiles {
    /// Read past them (`POST /uploads` takes its first file).
    Ignore,
    /// Refuse each on its own (`upload/image` takes [`MAX_FILES_PER_REQUEST`]).
    Refuse,
}

/// One upload request's files; see the module documentation.
#[derive(Debug)]
pub struct UploadSession<'a> {
    app: &'a App,
    most: u64,
    extra: ExtraFiles,
    seen: u64,
    staged: Vec<(String, StagedUpload)>,
    refused: Vec<(String, Error)>,
}

impl App {
    /// A session taking at most `most` files, doing `extra` with the rest.
    pub fn upload_session(&self, most: u64, extra: ExtraFiles) -> UploadSession<'_> {
        UploadSession {
            app: self,
            most,
            extra,
            seen: 0,
            staged: Vec::new(),
            refused: Vec::new(),
        }
    }
}

impl UploadSession<'_> {
    /// Reads and stages one file the client named `name`. A file refused for its own bytes
    /// (type, size, damage) or for being one too many is kept as refused, and the request
    /// goes on.
    ///
    /// # Errors
    /// A failure of the request itself (the body cut short, too slow or malformed) or of the
    /// store: the request fails as a whole, and the session is to be [`abandoned`](Self::abandon).
    pub async fn add<S>(&mut self, name: String, body: S) -> Result<()>
    where
        S: Stream<Item = Result<Bytes>> + Unpin,
    {
        self.seen += 1;
        if self.seen > self.most {
            if self.extra == ExtraFiles::Refuse {
                let most = self.most;
                self.refused.push((
                    name,
                    Error::bad_request(
                        names::TOO_MANY_FILES,
                        format!("at most {most} files per request"),
                    ),
                ));
            }
            return Ok(());
        }
        match self.app.stage_upload(body).await {
            Ok(file) => self.staged.push((name, file)),
            Err(
                err @ (Error::RequestTimeout { .. }
                | Error::BodyTooSlow { .. }
                | Error::KeyBusy { .. }
                | Error::Overloaded { .. }
                | Error::Unavailable { .. }
                | Error::Internal(_)
                | Error::BadRequest { .. }),
            ) => return Err(err),
            Err(err) => self.refused.push((name, err)),
        }
        Ok(())
    }

    /// Whether the request carried no file at all.
    pub fn is_empty(&self) -> bool {
        self.seen == 0
    }

    /// The request failed: drops what was staged.
    pub async fn abandon(self) {
        for (_, file) in self.staged {
            self.app.discard_upload(file).await;
        }
    }

    /// The request was read whole: records every staged file as `who`'s upload. Answers, in
    /// the order the files came, each stored upload, then each file refused, with why.
    pub async fn commit(self, who: &Principal) -> UploadOutcome {
        let mut stored = Vec::with_capacity(self.staged.len());
        let mut refused = self.refused;
        for (name, file) in self.staged {
            match self.app.commit_upload(who, &name, file).await {
                Ok(upload) => stored.push((name, upload)),
                Err(err) => refused.push((name, err)),
            }
        }
        UploadOutcome { stored, refused }
    }
}

/// What an upload request recorded.
#[derive(Debug)]
pub struct UploadOutcome {
    /// Each stored file: the name the client gave and the upload.
    pub stored: Vec<(String, Upload)>,
    /// Each refused file: the name the client gave and why.
    pub refused: Vec<(String, Error)>,
}
