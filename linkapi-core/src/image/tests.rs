//! Each format's walk, on whole, truncated and oversized files.

use super::*;

/// A valid 1×1 PNG.
pub(crate) const PNG: &[u8] = &[
    0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52,
    0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x06, 0x00, 0x00, 0x00, 0x1F, 0x15, 0xC4,
    0x89, 0x00, 0x00, 0x00, 0x0A, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9C, 0x63, 0x00, 0x01, 0x00, 0x00,
    0x05, 0x00, 0x01, 0x0D, 0x0A, 0x2D, 0xB4, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4E, 0x44, 0xAE,
    0x42, 0x60, 0x82,
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
    let mut out = b"\xFF\xD8\xFF\xE0\x00\x10JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00".to_vec();
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
