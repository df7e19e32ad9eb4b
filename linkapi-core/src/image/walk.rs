//! The walks of JPEG, GIF and WebP files: structure by structure, reading the sizes and counting
//! the frames, skipping everything else.

use super::{Frames, ImageError, ImageType, be, le};

/// Where a walk of a JPEG, GIF or WebP file stands: gathering a structure's bytes (then
/// reading it), or skipping bytes nobody needs.
#[derive(Debug, Default)]
pub(super) struct Walk {
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

    pub(super) fn feed(
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
