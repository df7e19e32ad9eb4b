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

/// Where a walk of a JPEG, GIF or WebP file stands: gathering a structure's bytes (then
/// reading it), or skipping bytes nobody needs.
#[derive(Debug, Default)]
struct Walk {
    /// Bytes of the structure being gathered.
    gathered: Vec<u8>,
    /// What is being gathered, and how many bytes it takes.
    want: Want,
    /// Bytes to skip before the next structure.
    skip: u64,
    /// Bytes to skip once the structure being gathered is read (the rest of its chunk).
    after: u64,
}

/// The structure a walk waits for.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
enum Want {
    /// The start of the file: JPEG's SOI, GIF's header and screen, the RIFF header.
    #[default]
    Start,
    /// JPEG: a marker and, for most, its segment length.
    JpegMarker,
    /// JPEG: a frame header's height and width.
    JpegFrame,
    /// GIF: the byte that says which block follows.
    GifBlock,
    /// GIF: an extension's label.
    GifLabel,
    /// GIF: an image descriptor.
    GifImage,
    /// GIF: the byte before an image's data (its LZW code size).
    GifCodeSize,
    /// GIF: a data sub-block's length (0 ends the block).
    GifSubBlock,
    /// WebP: a chunk header (four-character code, length).
    RiffChunk,
    /// WebP: the start of a chunk that tells a size.
    RiffData([u8; 4]),
    /// Nothing more is needed.
    Done,
}

fn le(bytes: &[u8]) -> u64 {
    bytes.iter().rev().fold(0, |n, b| (n << 8) | u64::from(*b))
}

fn be(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0, |n, b| (n << 8) | u64::from(*b))
}

impl Walk {
    /// Bytes `want` needs gathered.
    fn needs(kind: ImageType, want: Want) -> usize {
        match want {
            Want::Start => match kind {
                ImageType::Jpeg => 2,
                ImageType::Gif => 13,
                _ => 12,
            },
            Want::JpegMarker => 4,
            Want::JpegFrame => 5,
            Want::GifBlock | Want::GifLabel | Want::GifCodeSize | Want::GifSubBlock => 1,
            Want::GifImage => 9,
            Want::RiffChunk => 8,
            Want::RiffData(code) => match &code {
                b"VP8X" | b"VP8 " => 10,
                b"VP8L" => 5,
                _ => 12, // ANMF
            },
            Want::Done => 0,
        }
    }

    fn feed(
        &mut self,
        kind: ImageType,
        mut bytes: &[u8],
        frames: &mut Frames,
    ) -> Result<(), ImageError> {
        while !bytes.is_empty() && self.want != Want::Done {
            if self.skip > 0 {
                let n = usize::try_from(self.skip.min(bytes.len() as u64)).unwrap_or(bytes.len());
                self.skip -= n as u64;
                bytes = &bytes[n..];
                continue;
            }
            let need = Self::needs(kind, self.want);
            let n = (need - self.gathered.len()).min(bytes.len());
            self.gathered.extend_from_slice(&bytes[..n]);
            bytes = &bytes[n..];
            if self.gathered.len() == need {
                let gathered = std::mem::take(&mut self.gathered);
                self.read(kind, &gathered, frames)?;
            }
        }
        Ok(())
    }

    /// Reads a gathered structure and says what comes next.
    fn read(&mut self, kind: ImageType, g: &[u8], frames: &mut Frames) -> Result<(), ImageError> {
        let damaged = |why| Err(ImageError::Damaged(kind, why));
        self.want = match (self.want, kind) {
            (Want::Start, ImageType::Jpeg) => Want::JpegMarker,
            // A JPEG: markers and their segments up to the frame header, which tells the size;
            // a scan before it has no size to read.
            (Want::JpegMarker, _) => {
                if g[0] != 0xFF {
                    return damaged("a segment does not start with a marker");
                }
                match g[1] {
                    // Fill bytes and markers without a segment: look again from the next byte.
                    0xFF | 0x01 | 0xD0..=0xD7 => {
                        // A fill byte is the start of the marker that follows it.
                        let next = if g[1] == 0xFF { &g[1..] } else { &g[2..] };
                        self.gathered.extend_from_slice(next);
                        Want::JpegMarker
                    }
                    0xD9 | 0xDA => Want::Done,
                    0xC0..=0xC3 | 0xC5..=0xC7 | 0xC9..=0xCB | 0xCD..=0xCF => {
                        self.skip = 1; // the sample precision
                        Want::JpegFrame
                    }
                    _ => {
                        let length = be(&g[2..4]);
                        if length < 2 {
                            return damaged("a segment length is invalid");
                        }
                        self.skip = length - 2;
                        Want::JpegMarker
                    }
                }
            }
            (Want::JpegFrame, _) => {
                frames.size(kind, be(&g[2..4]), be(&g[0..2]))?;
                frames.count()?;
                Want::Done
            }
            // A GIF: the logical screen, then blocks up to the trailer.
            (Want::Start, ImageType::Gif) => {
                frames.size(kind, le(&g[6..8]), le(&g[8..10]))?;
                self.skip = color_table(g[10]);
                Want::GifBlock
            }
            (Want::GifBlock, _) => match g[0] {
                0x21 => Want::GifLabel,
                0x2C => Want::GifImage,
                0x3B => Want::Done,
                _ => return damaged("an unknown block"),
            },
            (Want::GifLabel, _) => Want::GifSubBlock,
            (Want::GifImage, _) => {
                frames.size(kind, le(&g[4..6]), le(&g[6..8]))?;
                frames.count()?;
                self.skip = color_table(g[8]);
                Want::GifCodeSize
            }
            (Want::GifCodeSize, _) => Want::GifSubBlock,
            (Want::GifSubBlock, _) => match g[0] {
                0 => Want::GifBlock,
                length => {
                    self.skip = u64::from(length);
                    Want::GifSubBlock
                }
            },
            // A WebP: chunks after the RIFF header; the ones that tell a size are read.
            (Want::Start, _) => Want::RiffChunk,
            (Want::RiffChunk, _) => {
                let code = [g[0], g[1], g[2], g[3]];
                let length = le(&g[4..8]);
                let padded = length + (length & 1);
                match &code {
                    b"VP8X" | b"VP8 " | b"VP8L" | b"ANMF" => {
                        let read = Self::needs(kind, Want::RiffData(code)) as u64;
                        if padded < read {
                            return damaged("a chunk is too short");
                        }
                        // What follows the part read is skipped once it is read.
                        self.after = padded - read;
                        Want::RiffData(code)
                    }
                    _ => {
                        self.skip = padded;
                        Want::RiffChunk
                    }
                }
            }
            (Want::RiffData(code), _) => {
                match &code {
                    b"VP8X" => {
                        frames.size(kind, le(&g[4..7]) + 1, le(&g[7..10]) + 1)?;
                    }
                    b"VP8 " => {
                        if g[3..6] != [0x9D, 0x01, 0x2A] {
                            return damaged("a VP8 frame has no start code");
                        }
                        frames.size(kind, le(&g[6..8]) & 0x3FFF, le(&g[8..10]) & 0x3FFF)?;
                        frames.count()?;
                    }
                    b"VP8L" => {
                        if g[0] != 0x2F {
                            return damaged("a VP8L frame has no signature");
                        }
                        let bits = le(&g[1..5]);
                        frames.size(kind, (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1)?;
                        frames.count()?;
                    }
                    _ => {
                        frames.size(kind, le(&g[6..9]) + 1, le(&g[9..12]) + 1)?;
                        frames.count()?;
                    }
                }
                self.skip = self.after;
                self.after = 0;
                Want::RiffChunk
            }
            (Want::Done, _) => Want::Done,
        };
        Ok(())
    }
}

/// Bytes of the color table a GIF's packed field announces.
fn color_table(packed: u8) -> u64 {
    if packed & 0x80 == 0 {
        0
    } else {
        3 << ((packed & 0x07) + 1)
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
    /// The chunk whose first bytes are being gathered, and how many it needs.
    reading: Option<([u8; 4], usize)>,
    /// Bytes of that chunk gathered.
    data: Vec<u8>,
}

impl PngWalk {
    fn feed(&mut self, mut bytes: &[u8], frames: &mut Frames) -> Result<(), ImageError> {
        while !bytes.is_empty() {
            if let Some((kind, need)) = self.reading {
                let n = (need - self.data.len()).min(bytes.len());
                self.data.extend_from_slice(&bytes[..n]);
                bytes = &bytes[n..];
                if self.data.len() == need {
                    self.reading = None;
                    let d = std::mem::take(&mut self.data);
                    match &kind {
                        b"IHDR" => frames.size(ImageType::Png, be(&d[0..4]), be(&d[4..8]))?,
                        // An animation says how many frames it has, and each has a control
                        // chunk with its own size: both are held to the limit.
                        b"acTL" => frames.at_most(be(&d[0..4]))?,
                        _ => {
                            frames.size(ImageType::Png, be(&d[4..8]), be(&d[8..12]))?;
                            frames.count()?;
                        }
                    }
                }
                continue;
            }
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
            let read = match &kind {
                b"IHDR" => 8,
                b"acTL" => 4,
                b"fcTL" => 12,
                _ => 0,
            };
            if read > 0 {
                if (length as usize) < read {
                    return Err(ImageError::Damaged(ImageType::Png, "a chunk is too short"));
                }
                self.reading = Some((kind, read));
            }
            self.skip = u64::from(length) + 4 - read as u64;
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

    fn limited(bytes: &[u8], chunk: usize, limits: ImageLimits) -> Result<ImageType, ImageError> {
        let mut check = ImageCheck::with_limits(limits);
        for part in bytes.chunks(chunk) {
            check.feed(part)?;
        }
        check.finish()
    }

    /// A GIF of `frames` 1×1 frames on a `width` × `height` screen.
    fn gif(width: u16, height: u16, frames: usize) -> Vec<u8> {
        let mut out = b"GIF89a".to_vec();
        out.extend_from_slice(&width.to_le_bytes());
        out.extend_from_slice(&height.to_le_bytes());
        out.extend_from_slice(&[0x80, 0, 0, 0, 0, 0, 0xFF, 0xFF, 0xFF]); // a 2-color table
        out.extend_from_slice(b"\x21\xF9\x04\x00\x0A\x00\x00\x00"); // a control extension
        for _ in 0..frames {
            out.extend_from_slice(b"\x2C\x00\x00\x00\x00\x01\x00\x01\x00\x00");
            out.extend_from_slice(b"\x02\x02\x4C\x01\x00");
        }
        out.push(0x3B);
        out
    }

    /// A JPEG whose frame header declares `width` × `height`, after an APP0 segment.
    fn jpeg(width: u16, height: u16) -> Vec<u8> {
        let mut out =
            b"\xFF\xD8\xFF\xE0\x00\x10JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00".to_vec();
        out.extend_from_slice(b"\xFF\xFF\xC0\x00\x11\x08");
        out.extend_from_slice(&height.to_be_bytes());
        out.extend_from_slice(&width.to_be_bytes());
        out.extend_from_slice(&[3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]);
        out.extend_from_slice(b"\xFF\xDA\x00\x02\x12\x34\xFF\xD9");
        out
    }

    /// A WebP: a VP8X header for a `width` × `height` canvas, then `frames` ANMF chunks.
    fn animated_webp(width: u32, height: u32, frames: usize) -> Vec<u8> {
        let mut body = b"WEBPVP8X\x0A\x00\x00\x00\x02\x00\x00\x00".to_vec();
        body.extend_from_slice(&(width - 1).to_le_bytes()[..3]);
        body.extend_from_slice(&(height - 1).to_le_bytes()[..3]);
        for _ in 0..frames {
            body.extend_from_slice(b"ANMF\x11\x00\x00\x00");
            body.extend_from_slice(&[0; 6]);
            body.extend_from_slice(&[0, 0, 0, 0, 0, 0]); // 1 x 1
            body.extend_from_slice(&[0; 5]);
            body.push(0); // padding to an even length
        }
        let mut out = b"RIFF".to_vec();
        out.extend_from_slice(&(body.len() as u32).to_le_bytes());
        out.extend_from_slice(&body);
        out
    }

    #[test]
    fn images_past_the_pixel_limit_are_refused() {
        let limits = ImageLimits {
            max_pixels: 10_000,
            max_frames: 10,
        };
        // The 1×1 PNG declaring 100,000 × 100,000 pixels: 67 bytes.
        let mut bomb = PNG.to_vec();
        bomb[16..20].copy_from_slice(&100_000u32.to_be_bytes());
        bomb[20..24].copy_from_slice(&100_000u32.to_be_bytes());
        for chunk in [1, 3, 7, 64] {
            assert!(
                matches!(
                    limited(&bomb, chunk, ImageLimits::default()),
                    Err(ImageError::TooManyPixels {
                        width: 100_000,
                        height: 100_000,
                        ..
                    })
                ),
                "png, chunks of {chunk}"
            );
            assert_eq!(limited(&jpeg(100, 100), chunk, limits), Ok(ImageType::Jpeg));
            assert!(matches!(
                limited(&jpeg(101, 100), chunk, limits),
                Err(ImageError::TooManyPixels {
                    width: 101,
                    height: 100,
                    ..
                })
            ));
            assert_eq!(
                limited(&gif(100, 100, 1), chunk, limits),
                Ok(ImageType::Gif)
            );
            assert!(matches!(
                limited(&gif(200, 100, 1), chunk, limits),
                Err(ImageError::TooManyPixels { .. })
            ));
            assert_eq!(
                limited(&animated_webp(100, 100, 1), chunk, limits),
                Ok(ImageType::Webp)
            );
            assert!(matches!(
                limited(&animated_webp(100, 101, 1), chunk, limits),
                Err(ImageError::TooManyPixels { .. })
            ));
        }
        let mut empty = PNG.to_vec();
        empty[16..20].copy_from_slice(&0u32.to_be_bytes());
        assert!(matches!(
            limited(&empty, 8, limits),
            Err(ImageError::Damaged(ImageType::Png, _))
        ));
    }

    #[test]
    fn animations_past_the_frame_limit_are_refused() {
        let limits = ImageLimits {
            max_pixels: 10_000,
            max_frames: 10,
        };
        for chunk in [1, 5, 64] {
            assert_eq!(limited(&gif(1, 1, 10), chunk, limits), Ok(ImageType::Gif));
            assert_eq!(
                limited(&gif(1, 1, 11), chunk, limits),
                Err(ImageError::TooManyFrames { max: 10 })
            );
            assert_eq!(
                limited(&animated_webp(1, 1, 10), chunk, limits),
                Ok(ImageType::Webp)
            );
            assert_eq!(
                limited(&animated_webp(1, 1, 11), chunk, limits),
                Err(ImageError::TooManyFrames { max: 10 })
            );
        }
        // An APNG declaring 200,000 frames in its acTL chunk.
        let mut apng = PNG[..33].to_vec();
        apng.extend_from_slice(b"\x00\x00\x00\x08acTL");
        apng.extend_from_slice(&200_000u32.to_be_bytes());
        apng.extend_from_slice(&[0, 0, 0, 0, 0, 0, 0, 0]);
        apng.extend_from_slice(&PNG[33..]);
        assert_eq!(
            limited(&apng, 7, limits),
            Err(ImageError::TooManyFrames { max: 10 })
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
