//! QR codes of links: PNG and SVG for the API, Unicode blocks for terminals. The `qrcode` crate
//! lays out the modules; PNG is encoded with the `png` crate from those modules (one grey
//! level per pixel), SVG by `qrcode` itself. Every code has the four-module quiet zone
//! scanners need and error correction level M (15% of the code may be damaged or covered).

use qrcode::render::{svg, unicode};
use qrcode::{Color, EcLevel, QrCode};

/// Smallest and largest image side, in pixels.
pub const SIZES: std::ops::RangeInclusive<u32> = 64..=2048;
/// Image side when none is asked for.
pub const DEFAULT_SIZE: u32 = 256;
/// Modules of white around the code.
const QUIET_ZONE: usize = 4;

/// An image format of a QR code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum QrFormat {
    /// `image/png`.
    Png,
    /// `image/svg+xml`.
    Svg,
}

impl QrFormat {
    /// The format named `png` or `svg`.
    pub fn parse(name: &str) -> Option<Self> {
        match name {
            "png" => Some(QrFormat::Png),
            "svg" => Some(QrFormat::Svg),
            _ => None,
        }
    }

    /// The media type it is served with.
    pub fn mime(self) -> &'static str {
        match self {
            QrFormat::Png => "image/png",
            QrFormat::Svg => "image/svg+xml",
        }
    }
}

/// Why no code could be made.
#[derive(Debug, thiserror::Error)]
pub enum QrError {
    /// The text does not fit in a QR code.
    #[error("the link is too long for a QR code")]
    TooLong,
    /// The PNG encoder failed.
    #[error("encoding the QR code failed: {0}")]
    Encode(String),
}

fn layout(text: &str) -> Result<QrCode, QrError> {
    QrCode::with_error_correction_level(text, EcLevel::M).map_err(|_| QrError::TooLong)
}

/// The code of `text` as an image `size` pixels square. A PNG draws each module as the
/// largest whole number of pixels that fits (sharp edges for scanners) and centres the code in
/// a quiet zone widened to make up the rest; only a code with more modules than `size` has
/// pixels comes out larger, at one pixel per module. An SVG is `size` wide and high and scales
/// its modules exactly.
///
/// # Errors
/// When the text does not fit in a code, or PNG encoding fails.
pub fn render(text: &str, format: QrFormat, size: u32) -> Result<Vec<u8>, QrError> {
    let code = layout(text)?;
    match format {
        QrFormat::Svg => Ok(svg_of(&code, size).into_bytes()),
        QrFormat::Png => png(&code, size),
    }
}

/// One user unit per module, drawn at `size` by the document's own width and height.
fn svg_of(code: &QrCode, size: u32) -> String {
    let image = code
        .render::<svg::Color<'_>>()
        .quiet_zone(true)
        .module_dimensions(1, 1)
        .build();
    let side = code.width() + 2 * QUIET_ZONE;
    image.replacen(
        &format!(r#"version="1.1" width="{side}" height="{side}""#),
        &format!(r#"version="1.1" width="{size}" height="{size}""#),
        1,
    )
}

fn png(code: &QrCode, size: u32) -> Result<Vec<u8>, QrError> {
    let modules = code.width();
    let colors = code.to_colors();
    let side = modules + 2 * QUIET_ZONE;
    let scale = (size as usize / side).max(1);
    let pixels = (side * scale).max(size as usize);
    // Where the code (quiet zone included) starts: the rest of the image is quiet zone too.
    let margin = (pixels - side * scale) / 2 + QUIET_ZONE * scale;
    let mut image = vec![255u8; pixels * pixels];
    for (index, color) in colors.iter().enumerate() {
        if *color != Color::Dark {
            continue;
        }
        let (x, y) = (
            margin + (index % modules) * scale,
            margin + (index / modules) * scale,
        );
        for row in y..y + scale {
            image[row * pixels + x..row * pixels + x + scale].fill(0);
        }
    }
    let mut out = Vec::new();
    let side_px = u32::try_from(pixels).map_err(|e| QrError::Encode(e.to_string()))?;
    let mut encoder = png::Encoder::new(&mut out, side_px, side_px);
    encoder.set_color(png::ColorType::Grayscale);
    encoder.set_depth(png::BitDepth::Eight);
    let mut writer = encoder
        .write_header()
        .map_err(|e| QrError::Encode(e.to_string()))?;
    writer
        .write_image_data(&image)
        .map_err(|e| QrError::Encode(e.to_string()))?;
    writer
        .finish()
        .map_err(|e| QrError::Encode(e.to_string()))?;
    Ok(out)
}

/// The code of `text` in Unicode half blocks, two modules per character cell, dark on light,
/// for printing in a terminal.
///
/// # Errors
/// When the text does not fit in a code.
pub fn terminal(text: &str) -> Result<String, QrError> {
    Ok(layout(text)?
        .render::<unicode::Dense1x2>()
        .dark_color(unicode::Dense1x2::Light)
        .light_color(unicode::Dense1x2::Dark)
        .quiet_zone(true)
        .build())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn png_codes_are_the_size_asked_with_a_quiet_zone() {
        for size in [64, 222, 256, 370, 400, 2048] {
            let bytes = render("https://go.example.com/abc123", QrFormat::Png, size).expect("png");
            let decoder = png::Decoder::new(std::io::Cursor::new(bytes));
            let mut reader = decoder.read_info().expect("a png");
            let info = reader.info();
            assert_eq!((info.width, info.height), (size, size));
            let mut buf = vec![0; reader.output_buffer_size().expect("size")];
            reader.next_frame(&mut buf).expect("frame");
            let side = size as usize;
            // Four modules of at least one pixel each are quiet on every side.
            for edge in 0..4 {
                for along in 0..side {
                    for (x, y) in [
                        (edge, along),
                        (side - 1 - edge, along),
                        (along, edge),
                        (along, side - 1 - edge),
                    ] {
                        assert_eq!(buf[y * side + x], 255, "{size}: ({x}, {y}) is quiet zone");
                    }
                }
            }
            assert!(buf.contains(&0), "dark modules are drawn");
        }
    }

    #[test]
    fn svg_codes_are_the_size_asked() {
        let svg = render("https://go.example.com/abc123", QrFormat::Svg, 400).expect("svg");
        let svg = String::from_utf8(svg).expect("utf-8");
        assert!(svg.contains(r#"width="400" height="400""#), "{svg}");
        let side = layout("https://go.example.com/abc123")
            .expect("code")
            .width()
            + 2 * QUIET_ZONE;
        assert!(
            svg.contains(&format!(r#"viewBox="0 0 {side} {side}""#)),
            "one unit per module: {svg}"
        );
    }

    #[test]
    fn svg_and_terminal_codes_render() {
        let svg = render("https://go.example.com/abc123", QrFormat::Svg, 128).expect("svg");
        let svg = String::from_utf8(svg).expect("utf-8");
        assert!(svg.starts_with("<?xml") && svg.contains("<svg"), "{svg}");
        let text = terminal("https://go.example.com/abc123").expect("text");
        assert!(text.lines().count() > 10);
        assert!(matches!(
            render(&"x".repeat(5000), QrFormat::Png, 256),
            Err(QrError::TooLong)
        ));
    }
}
