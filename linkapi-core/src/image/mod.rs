//! What an upload is, decided by its bytes as they stream in, never by its name or declared
//! type: PNG, JPEG, GIF and WebP are accepted; SVG (which can carry scripts) and everything
//! else are refused. The signature is recognised by `infer`; an image whose end is missing is
//! refused too, by a check of each format's structure that needs no decoder and no buffering:
//! PNG's chunks walked up to `IEND`, JPEG's end-of-image marker, GIF's trailer, and the length
//! the WebP container declares.
//!
//! The same walk reads the size of every frame and counts the frames (PNG's `IHDR`, `acTL` and
//! `fcTL`; JPEG's frame header; GIF's screen and image descriptors; WebP's `VP8X`, `VP8 `,
//! `VP8L` and `ANMF` chunks), so an image that would ask whoever shows it for more pixels or
//! frames than [`ImageLimits`] allows (a 67-byte PNG declaring 100,000 × 100,000 pixels, a GIF
//! of 200,000 frames) is refused before it is stored.

mod png;
mod walk;

use png::PngWalk;
use walk::Walk;

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
    /// A frame has more pixels than allowed.
    #[error("the image is {width} x {height} pixels; at most {max} pixels per frame are accepted")]
    TooManyPixels {
        /// Declared width.
        width: u64,
        /// Declared height.
        height: u64,
        /// The limit.
        max: u64,
    },
    /// The image has more frames than allowed.
    #[error("the image has more than {max} frames")]
    TooManyFrames {
        /// The limit.
        max: u64,
    },
}

/// What an image may ask of whoever shows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ImageLimits {
    /// Pixels of one frame (width × height) at most.
    pub max_pixels: u64,
    /// Frames of an animation at most.
    pub max_frames: u64,
}

impl Default for ImageLimits {
    /// 40 megapixels (a 20,000-pixel-long poster 2,000 wide) and 1,000 frames.
    fn default() -> Self {
        ImageLimits {
            max_pixels: 40_000_000,
            max_frames: 1_000,
        }
    }
}

/// Frames seen so far, held to the limits.
#[derive(Debug, Default)]
struct Frames {
    limits: ImageLimits,
    counted: u64,
}

impl Frames {
    /// A frame (or canvas) of `width` × `height`.
    fn size(&self, kind: ImageType, width: u64, height: u64) -> Result<(), ImageError> {
        if width == 0 || height == 0 {
            return Err(ImageError::Damaged(kind, "it declares no pixels"));
        }
        if width.saturating_mul(height) > self.limits.max_pixels {
            return Err(ImageError::TooManyPixels {
                width,
                height,
                max: self.limits.max_pixels,
            });
        }
        Ok(())
    }

    /// One more frame.
    fn count(&mut self) -> Result<(), ImageError> {
        self.counted = self.counted.saturating_add(1);
        self.at_most(self.counted)
    }

    /// `frames` frames, as a format declares or counts them.
    fn at_most(&self, frames: u64) -> Result<(), ImageError> {
        if frames > self.limits.max_frames {
            return Err(ImageError::TooManyFrames {
                max: self.limits.max_frames,
            });
        }
        Ok(())
    }
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
    /// JPEG, GIF and WebP: the walk up to what tells their size and frames.
    other: Walk,
    /// WebP: the container's declared length after its first 8 bytes.
    riff_size: u32,
    /// Frame sizes and count, held to the limits.
    frames: Frames,
}

impl ImageCheck {
    /// A check of a new file under the default [`ImageLimits`].
    pub fn new() -> Self {
        ImageCheck::default()
    }

    /// A check of a new file under `limits`.
    pub fn with_limits(limits: ImageLimits) -> Self {
        ImageCheck {
            frames: Frames { limits, counted: 0 },
            ..ImageCheck::default()
        }
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
            ImageType::Png => self.png.feed(bytes, &mut self.frames),
            // Their ends are checked from the tail and the length (WebP's declared length was
            // read with the signature); the walk reads sizes and frames.
            ImageType::Webp | ImageType::Jpeg | ImageType::Gif => {
                self.other.feed(kind, bytes, &mut self.frames)
            }
        }
    }
}

/// The accepted type whose signature `head` starts with.
/// A little-endian unsigned integer.
fn le(bytes: &[u8]) -> u64 {
    bytes.iter().rev().fold(0, |n, b| (n << 8) | u64::from(*b))
}

/// A big-endian unsigned integer.
fn be(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0, |n, b| (n << 8) | u64::from(*b))
}

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

#[cfg(test)]
mod tests;
