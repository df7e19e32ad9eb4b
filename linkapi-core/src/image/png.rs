//! The walk of a PNG file: chunk by chunk up to `IEND`, reading `IHDR`, `acTL` and `fcTL`.

use super::{Frames, ImageError, ImageType, be};

/// Walks PNG chunks (length, type, data, CRC) as bytes arrive, up to `IEND`.
#[derive(Debug, Default)]
pub(super) struct PngWalk {
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
    pub(super) fn feed(&mut self, mut bytes: &[u8], frames: &mut Frames) -> Result<(), ImageError> {
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

    pub(super) fn finish(&self) -> Result<ImageType, ImageError> {
        // IEND's CRC must have arrived too.
        if self.ended && self.skip == 0 {
            Ok(ImageType::Png)
        } else {
            Err(ImageError::Truncated(ImageType::Png))
        }
    }
}
