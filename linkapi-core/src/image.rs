//! What an upload is, decided by its bytes as they stream in, never by its name or declared
//! type: PNG, JPEG, GIF and WebP are accepted; SVG (which can carry scripts) and everything
//! else are refused. The signature is recognised by `infer`; an image whose end is missing is
//! refused too, by a check of each format's structure that needs no decoder and no buffering:
//! PNG's chunks walked up to `IEND`, JPEG's end-of-image marker, GIF's trailer, and the length
//! the WebP container declares.

/// An accepted image type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ImageType {
    /// `image/png`.
    Png,
    /// `image/jpeg`.
    Jpeg,
    /// `image/gif`.
    Gif,
    /// `image/webp`.
    Webp,
}

impl ImageType {
    /// The media type it is served with.
    pub fn mime(self) -> &'static str {
        match self {
            ImageType::Png => "image/png",
            ImageType::Jpeg => "image/jpeg",
            ImageType::Gif => "image/gif",
            ImageType::Webp => "image/webp",
        }
    }

    /// The extension of its object key.
    pub fn extension(self) -> &'static str {
        match self {
            ImageType::Png => "png",
            ImageType::Jpeg => "jpg",
            ImageType::Gif => "gif",
            ImageType::Webp => "webp",
        }
    }

    /// The type of a media type, for objects read back from the store.
    pub fn from_mime(mime: &str) -> Option<Self> {
        [
            ImageType::Png,
            ImageType::Jpeg,
            ImageType::Gif,
            ImageType::Webp,
        ]
        .into_iter()
        .find(|t| t.mime() == mime)
    }

    fn name(self) -> &'static str {
        match self {
            ImageType::Png => "PNG",
            ImageType::Jpeg => "JPEG",
            ImageType::Gif => "GIF",
            ImageType::Webp => "WebP",
        }
    }
}

/// Why bytes are not an accepted image.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ImageError {
    /// Nothing was sent.
    #[error("the file is empty")]
    Empty,
    /// SVG, refused because it can carry scripts.
    #[error("SVG images are not accepted (they can carry scripts); upload PNG, JPEG, GIF or WebP")]
    Svg,
    /// Some other kind of file.
    #[error("the file is not a PNG, JPEG, GIF or WebP image")]
    NotAnImage,
    /// The image's end is missing.
    #[error("the {} image is truncated", .0.name())]
    Truncated(ImageType),
    /// The image's structure is broken.
    #[error("the {} image is damaged: {}", .0.name(), .1)]
    Damaged(ImageType, &'static str),
}

/// Bytes needed to recognise every accepted signature (WebP's is the longest).
const SIGNATURE_BYTES: usize = 12;
/// Bytes looked at to recognise SVG text before calling a file "not an image".
const TEXT_SNIFF_BYTES: usize = 1024;
/// Trailing bytes kept for the end-of-file checks.
const TAIL_BYTES: usize = 64;

/// Checks a file as its bytes arrive: [`ImageCheck::feed`] each chunk in order (it fails as
/// soon as the bytes cannot be an accepted image), then [`ImageCheck::finish`].
#[derive(Debug, Default)]
pub struct ImageCheck {
    /// The first bytes, until the type is known.
    head: Vec<u8>,
    kind: Option<ImageType>,
    /// Bytes seen.
    total: u64,
    /// The last bytes seen.
    tail: Vec<u8>,
    /// PNG: the chunk walk.
    png: PngWalk,
    /// WebP: the container's declared length after its first 8 bytes.
    riff_size: u32,
}

impl ImageCheck {
    /// A check of a new file.
    pub fn new() -> Self {
        ImageCheck::default()
    }

    /// The type, once the first bytes told it.
    pub fn kind(&self) -> Option<ImageType> {
        self.kind
    }

    /// Takes the next chunk.
    ///
    /// # Errors
    /// As soon as the bytes cannot be an accepted image.
    pub fn feed(&mut self, chunk: &[u8]) -> Result<(), ImageError> {
        if chunk.is_empty() {
            return Ok(());
        }
        self.total += chunk.len() as u64;
        self.keep_tail(chunk);
        match self.kind {
            Some(kind) => self.walk(kind, chunk),
            None => {
                let take = chunk
                    .len()
                    .min(TEXT_SNIFF_BYTES.saturating_sub(self.head.len()));
                self.head.extend_from_slice(&chunk[..take]);
                if self.head.len() < SIGNATURE_BYTES {
                    return Ok(());
                }
                match signature(&self.head) {
                    Some(kind) => {
                        self.kind = Some(kind);
                        if kind == ImageType::Webp {
                            // "RIFF", then the length of what follows it, little-endian.
                            let size = &self.head[4..8];
                            self.riff_size =
                                u32::from_le_bytes([size[0], size[1], size[2], size[3]]);
                        }
                        let head = std::mem::take(&mut self.head);
                        // The head holds the start of the file; the rest of this chunk follows.
                        self.walk(kind, &head)?;
                        self.walk(kind, &chunk[take..])
                    }
                    None if looks_like_svg(&self.head) => Err(ImageError::Svg),
                    None if self.head.len() >= TEXT_SNIFF_BYTES || !is_text(&self.head) => {
                        Err(ImageError::NotAnImage)
                    }
                    None => Ok(()),
                }
            }
        }
    }

    /// Decides once every byte was fed.
    ///
    /// # Errors
    /// When the file is empty, not an accepted image, or truncated or damaged.
    pub fn finish(self) -> Result<ImageType, ImageError> {
        if self.total == 0 {
            return Err(ImageError::Empty);
        }
        let Some(kind) = self.kind else {
            if looks_like_svg(&self.head) {
                return Err(ImageError::Svg);
            }
            // A known signature's first bytes, cut short, are a truncated image.
            return Err(
                match [
                    ImageType::Png,
                    ImageType::Jpeg,
                    ImageType::Gif,
                    ImageType::Webp,
                ]
                .into_iter()
                .find(|t| starts_signature(*t, &self.head))
                {
                    Some(kind) if self.head.len() >= 3 => ImageError::Truncated(kind),
                    _ => ImageError::NotAnImage,
                },
            );
        };
        let tail = &self.tail;
        match kind {
            ImageType::Png => self.png.finish(),
            ImageType::Jpeg => {
                let end = tail.iter().rposition(|b| *b != 0).map_or(0, |i| i + 1);
                if end >= 2 && tail[end - 2..end] == [0xFF, 0xD9] {
                    Ok(ImageType::Jpeg)
                } else {
                    Err(ImageError::Truncated(ImageType::Jpeg))
                }
            }
            ImageType::Gif => {
                if self.total >= 14 && tail.last() == Some(&0x3B) {
                    Ok(ImageType::Gif)
                } else {
                    Err(ImageError::Truncated(ImageType::Gif))
                }
            }
            ImageType::Webp => {
                let declared = u64::from(self.riff_size) + 8;
                match self.total.cmp(&declared) {
                    std::cmp::Ordering::Less => Err(ImageError::Truncated(ImageType::Webp)),
                    std::cmp::Ordering::Greater => Err(ImageError::Damaged(
                        ImageType::Webp,
                        "bytes after the end of the container",
                    )),
                    std::cmp::Ordering::Equal => Ok(ImageType::Webp),
                }
            }
        }
    }

    fn keep_tail(&mut self, chunk: &[u8]) {
        if chunk.len() >= TAIL_BYTES {
            self.tail.clear();
            self.tail
                .extend_from_slice(&chunk[chunk.len() - TAIL_BYTES..]);
        } else {
            self.tail.extend_from_slice(chunk);
            if self.tail.len() > TAIL_BYTES {
                self.tail.drain(..self.tail.len() - TAIL_BYTES);
            }
        }
    }

    fn walk(&mut self, kind: ImageType, bytes: &[u8]) -> Result<(), ImageError> {
        match kind {
            ImageType::Png => self.png.feed(bytes),
            // Their ends are checked from the tail and the length (WebP's declared length was
            // read with the signature).
            ImageType::Webp | ImageType::Jpeg | ImageType::Gif => Ok(()),
        }
    }
}

/// The accepted type whose signature `head` starts with.
fn signature(head: &[u8]) -> Option<ImageType> {
    match infer::get(head)?.mime_type() {
        "image/png" => Some(ImageType::Png),
        "image/jpeg" => Some(ImageType::Jpeg),
        "image/gif" => Some(ImageType::Gif),
        "image/webp" => Some(ImageType::Webp),
        _ => None,
    }
}

/// Whether `head`, shorter than a signature, is the start of `kind`'s.
fn starts_signature(kind: ImageType, head: &[u8]) -> bool {
    let magic: &[u8] = match kind {
        ImageType::Png => b"\x89PNG\r\n\x1a\n",
        ImageType::Jpeg => b"\xFF\xD8\xFF",
        ImageType::Gif => b"GIF8",
        ImageType::Webp => b"RIFF",
    };
    let n = head.len().min(magic.len());
    n > 0 && head[..n] == magic[..n]
}

/// Whether `bytes` read as text so far: UTF-8 (perhaps cut inside a character) without
/// control characters other than white space.
fn is_text(bytes: &[u8]) -> bool {
    let valid = match std::str::from_utf8(bytes) {
        Ok(_) => bytes,
        Err(err) if err.error_len().is_none() => &bytes[..err.valid_up_to()],
        Err(_) => return false,
    };
    !valid
        .iter()
        .any(|b| b.is_ascii_control() && !b.is_ascii_whitespace())
}

fn looks_like_svg(head: &[u8]) -> bool {
    let text = String::from_utf8_lossy(head).to_ascii_lowercase();
    text.contains("<svg")
}

/// Walks PNG chunks (length, type, data, CRC) as bytes arrive, up to `IEND`.
#[derive(Debug, Default)]
struct PngWalk {
    /// Bytes of the signature or of a chunk header being gathered.
    header: Vec<u8>,
    /// Signature seen.
    signed: bool,
    /// Bytes of the current chunk's data and CRC still to skip.
    skip: u64,
    /// Chunks seen.
    chunks: u64,
    /// `IEND` reached.
    ended: bool,
}

impl PngWalk {
    fn feed(&mut self, mut bytes: &[u8]) -> Result<(), ImageError> {
        while !bytes.is_empty() {
            if self.skip > 0 {
                let n = usize::try_from(self.skip.min(bytes.len() as u64)).unwrap_or(bytes.len());
                self.skip -= n as u64;
                bytes = &bytes[n..];
                continue;
            }
            if self.ended {
                // Bytes after IEND are not part of the image; browsers ignore them too.
                break;
            }
            // The signature and every chunk header are 8 bytes.
            let n = (8 - self.header.len()).min(bytes.len());
            self.header.extend_from_slice(&bytes[..n]);
            bytes = &bytes[n..];
            if self.header.len() < 8 {
                continue;
            }
            if !self.signed {
                self.signed = true;
                self.header.clear();
                continue;
            }
            let length = u32::from_be_bytes([
                self.header[0],
                self.header[1],
                self.header[2],
                self.header[3],
            ]);
            let kind = [
                self.header[4],
                self.header[5],
                self.header[6],
                self.header[7],
            ];
            self.header.clear();
            if length > 0x7FFF_FFFF || !kind.iter().all(u8::is_ascii_alphabetic) {
                return Err(ImageError::Damaged(
                    ImageType::Png,
                    "a chunk header is invalid",
                ));
            }
            if self.chunks == 0 && &kind != b"IHDR" {
                return Err(ImageError::Damaged(
                    ImageType::Png,
                    "it does not start with IHDR",
                ));
            }
            self.chunks += 1;
            self.skip = u64::from(length) + 4;
            if &kind == b"IEND" {
                self.ended = true;
            }
        }
        Ok(())
    }

    fn finish(&self) -> Result<ImageType, ImageError> {
        // IEND's CRC must have arrived too.
        if self.ended && self.skip == 0 {
            Ok(ImageType::Png)
        } else {
            Err(ImageError::Truncated(ImageType::Png))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A valid 1×1 PNG.
    pub(crate) const PNG: &[u8] = &[
        0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44,
        0x52, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x06, 0x00, 0x00, 0x00, 0x1F,
        0x15, 0xC4, 0x89, 0x00, 0x00, 0x00, 0x0A, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9C, 0x63, 0x00,
        0x01, 0x00, 0x00, 0x05, 0x00, 0x01, 0x0D, 0x0A, 0x2D, 0xB4, 0x00, 0x00, 0x00, 0x00, 0x49,
        0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82,
    ];

    fn check_in_chunks(bytes: &[u8], chunk: usize) -> Result<ImageType, ImageError> {
        let mut check = ImageCheck::new();
        for part in bytes.chunks(chunk.max(1)) {
            check.feed(part)?;
        }
        check.finish()
    }

    fn webp() -> Vec<u8> {
        let body = b"WEBPVP8L\x05\x00\x00\x00\x2f\x00\x00\x00\x00\x00";
        let mut out = b"RIFF".to_vec();
        out.extend_from_slice(&(body.len() as u32).to_le_bytes());
        out.extend_from_slice(body);
        out
    }

    #[test]
    fn each_accepted_type_passes_whatever_the_chunking() {
        let jpeg = b"\xFF\xD8\xFF\xE0\x00\x10JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00\xFF\xD9";
        let gif = b"GIF89a\x01\x00\x01\x00\x00\x00\x00;";
        for chunk in [1, 3, 7, 64] {
            assert_eq!(check_in_chunks(PNG, chunk), Ok(ImageType::Png));
            assert_eq!(check_in_chunks(jpeg, chunk), Ok(ImageType::Jpeg));
            assert_eq!(check_in_chunks(gif, chunk), Ok(ImageType::Gif));
            assert_eq!(check_in_chunks(&webp(), chunk), Ok(ImageType::Webp));
        }
    }

    #[test]
    fn truncated_images_are_refused() {
        for cut in [5, 20, 40, PNG.len() - 1] {
            assert_eq!(
                check_in_chunks(&PNG[..cut], 4),
                Err(ImageError::Truncated(ImageType::Png)),
                "cut at {cut}"
            );
        }
        let jpeg = b"\xFF\xD8\xFF\xE0\x00\x10JFIF\x00\x01\x01\x00";
        assert_eq!(
            check_in_chunks(jpeg, 5),
            Err(ImageError::Truncated(ImageType::Jpeg))
        );
        assert_eq!(
            check_in_chunks(b"GIF89a\x01\x00\x01\x00\x00\x00\x00", 5),
            Err(ImageError::Truncated(ImageType::Gif))
        );
        let webp = webp();
        assert_eq!(
            check_in_chunks(&webp[..webp.len() - 2], 5),
            Err(ImageError::Truncated(ImageType::Webp))
        );
    }

    #[test]
    fn other_files_are_refused_early_or_at_the_end() {
        assert_eq!(check_in_chunks(b"", 4), Err(ImageError::Empty));
        assert_eq!(
            check_in_chunks(b"just some text that is not an image", 4),
            Err(ImageError::NotAnImage)
        );
        assert_eq!(
            check_in_chunks(
                b"<?xml version=\"1.0\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\"/>",
                8
            ),
            Err(ImageError::Svg)
        );
        let mut check = ImageCheck::new();
        assert_eq!(
            check.feed(b"%PDF-1.7\n\x00\x01\x02\x03\xff\xfe"),
            Err(ImageError::NotAnImage),
            "binary non-images fail at once"
        );
    }
}
