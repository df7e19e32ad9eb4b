//! Small valid images for tests, shared by the test binaries of every crate (included with
//! `#[path]`).

#![allow(dead_code)]

/// CRC-32 (IEEE), for well-formed PNG chunks.
fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = 0xFFFF_FFFFu32;
    for b in bytes {
        crc ^= u32::from(*b);
        for _ in 0..8 {
            crc = if crc & 1 == 1 {
                (crc >> 1) ^ 0xEDB8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

fn chunk(kind: &[u8; 4], data: &[u8]) -> Vec<u8> {
    let mut out = (data.len() as u32).to_be_bytes().to_vec();
    out.extend_from_slice(kind);
    out.extend_from_slice(data);
    let mut crc_input = kind.to_vec();
    crc_input.extend_from_slice(data);
    out.extend_from_slice(&crc32(&crc_input).to_be_bytes());
    out
}

/// A valid 1×1 PNG made distinct by `tag`, with `padding` extra bytes in a text chunk.
pub fn png(tag: &str, padding: usize) -> Vec<u8> {
    let mut out = b"\x89PNG\r\n\x1a\n".to_vec();
    out.extend(chunk(b"IHDR", &[0, 0, 0, 1, 0, 0, 0, 1, 8, 6, 0, 0, 0]));
    let mut text = format!("Comment\0{tag}").into_bytes();
    text.extend(std::iter::repeat_n(b'.', padding));
    out.extend(chunk(b"tEXt", &text));
    out.extend(chunk(
        b"IDAT",
        &[0x78, 0x9C, 0x63, 0x00, 0x01, 0x00, 0x00, 0x05, 0x00, 0x01],
    ));
    out.extend(chunk(b"IEND", &[]));
    out
}

pub const JPEG: &[u8] =
    b"\xFF\xD8\xFF\xE0\x00\x10JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00\xFF\xD9";
pub const GIF: &[u8] = b"GIF89a\x01\x00\x01\x00\x00\x00\x00;";

pub fn webp() -> Vec<u8> {
    let body = b"WEBPVP8L\x05\x00\x00\x00\x2f\x00\x00\x00\x00\x00";
    let mut out = b"RIFF".to_vec();
    out.extend_from_slice(&(body.len() as u32).to_le_bytes());
    out.extend_from_slice(body);
    out
}
