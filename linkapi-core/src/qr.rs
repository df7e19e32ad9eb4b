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

/// The code of `text` as an image about `size` pixels wide: the largest whole number of pixels
/// per module that fits, at least one.
///
/// # Errors
/// When the text does not fit in a code, or PNG encoding fails.
pub fn render(text: &str, format: QrFormat, size: u32) -> Result<Vec<u8>, QrError> {
    let code = layout(text)?;
    match format {
        QrFormat::Svg => Ok(code
            .render::<svg::Color<'_>>()
            .quiet_zone(true)
            .min_dimensions(size, size)
            .max_dimensions(size, size)
            .build()
            .into_bytes()),
        QrFormat::Png => png(&code, size),
    }
}

fn png(code: &QrCode, size: u32) -> Result<Vec<u8>, QrError> {
    let modules = code.width();
    let colors = code.to_colors();
    let side = modules + 2 * QUIET_ZONE;
    let scale = (size as usize / side).max(1);
    let pixels = side * scale;
    let mut image = vec![255u8; pixels * pixels];
    for (index, color) in colors.iter().enumerate() {
        if *color != Color::Dark {
            continue;
        }
        let (x, y) = (index % modules + QUIET_ZONE, index / modules + QUIET_ZONE);
        for row in y * scale..(y + 1) * scale {
            image[row * pixels + x * scale..row * pixels + (x + 1) * scale].fill(0);
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
    fn png_codes_are_about_the_size_asked_with_a_quiet_zone() {
        let bytes = render("https://go.example.com/abc123", QrFormat::Png, 256).expect("png");
        let decoder = png::Decoder::new(std::io::Cursor::new(bytes));
        let mut reader = decoder.read_info().expect("a png");
        let info = reader.info();
        assert_eq!(info.width, info.height);
        assert!((200..=256).contains(&info.width), "{}", info.width);
        let mut buf = vec![0; reader.output_buffer_size().expect("size")];
        reader.next_frame(&mut buf).expect("frame");
        assert_eq!(buf[0], 255, "the corner is quiet zone");
        assert!(buf.contains(&0), "dark modules are drawn");
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
