//! QR codes of links: PNG and SVG for the API, Unicode blocks for terminals. The `qrcode` crate
//! lays out the modules; both images are drawn from those modules on the same grid of whole
//! pixels, PNG encoded with the `png` crate (one grey level per pixel), SVG written here. Every code has the four-module quiet zone
//! scanners need and error correction level M (15% of the code may be damaged or covered).

use qrcode::render::unicode;
use qrcode::{Color, EcLevel, QrCode};

/// Image side when none is asked for.
pub const DEFAULT_SIZE: u32 = 256;
/// Modules of white around the code.
const QUIET_ZONE: usize = 4;
/// Fewest pixels along a module's side: `zbarimg` misread codes of one-pixel modules at some
/// sizes (61, 62 and 65 pixels of a 33-module code) and read every size at two.
const MIN_MODULE_PIXELS: usize = 2;

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

/// The code of `text` as an image `size` pixels square. Both formats draw each module as the
/// largest whole number of pixels that fits (sharp edges for scanners: a module of 1.73 pixels
/// blurs or, with crisp edges, snaps to uneven widths no decoder reads) and centre the code in
/// a quiet zone widened to make up the rest; only a code whose modules would be smaller than
/// two pixels comes out larger than `size`, at two pixels per module (a
/// 33-module link asked at 64 pixels is 66).
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

/// Where a code's modules fall in an image of about `size` pixels.
struct Grid {
    /// Modules along a side, quiet zone not included.
    modules: usize,
    /// Pixels along the image's side.
    pixels: usize,
    /// Pixels along a module's side.
    scale: usize,
    /// Pixels before the first module, on each axis.
    margin: usize,
}

impl Grid {
    fn of(code: &QrCode, size: u32) -> Grid {
        let modules = code.width();
        let side = modules + 2 * QUIET_ZONE;
        let scale = (size as usize / side).max(MIN_MODULE_PIXELS);
        let pixels = (side * scale).max(size as usize);
        // Where the code (quiet zone included) starts: the rest of the image is quiet zone too.
        let margin = (pixels - side * scale) / 2 + QUIET_ZONE * scale;
        Grid {
            modules,
            pixels,
            scale,
            margin,
        }
    }

    /// The dark runs of each row: (x, y, width) in pixels, one run per stretch of dark
    /// modules.
    fn dark_runs(&self, colors: &[Color]) -> Vec<(usize, usize, usize)> {
        let mut runs = Vec::new();
        for (row, line) in colors.chunks(self.modules).enumerate() {
            let mut column = 0;
            while column < line.len() {
                if line[column] != Color::Dark {
                    column += 1;
                    continue;
                }
                let start = column;
                while column < line.len() && line[column] == Color::Dark {
                    column += 1;
                }
                runs.push((
                    self.margin + start * self.scale,
                    self.margin + row * self.scale,
                    (column - start) * self.scale,
                ));
            }
        }
        runs
    }
}

/// The code as an SVG document in pixel units, drawing the PNG's pixels whichever way a
/// renderer decides what a shape covers. Browsers and librsvg paint the pixels whose centres
/// (`i + 0.5`) fall inside a shape. ImageMagick's own renderer (which `zbarimg` reads SVG
/// through) strokes shapes unless told `stroke="none"`, and paints pixel `i` by how much of
/// `[i - 0.5, i + 0.5)` a shape covers, twice over (half of it is black): drawn edge to edge,
/// every run came out a pixel wider, and no decoder read two-pixel modules. A run of dark
/// pixels `x .. x + w` is drawn from `x - 0.25` to `x + w - 0.45`: it holds the centres of
/// its pixels and none of their neighbours' (0.05 pixels to spare at the end), and gives
/// ImageMagick's next pixel a tenth of grey.
fn svg_of(code: &QrCode, size: u32) -> String {
    use std::fmt::Write;
    let grid = Grid::of(code, size);
    let (pixels, scale) = (grid.pixels, grid.scale);
    let mut path = String::new();
    for (x, y, width) in grid.dark_runs(&code.to_colors()) {
        // Every run starts past the quiet zone, so `x - 1` and `y - 1` are never negative.
        let (left, top, across, down) = (x - 1, y - 1, width - 1, scale - 1);
        // Writing into a String cannot fail.
        let _ = write!(path, "M{left}.75 {top}.75h{across}.8v{down}.8h-{across}.8z");
    }
    format!(
        r##"<?xml version="1.0" standalone="yes"?><svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="{pixels}" height="{pixels}" viewBox="0 0 {pixels} {pixels}" shape-rendering="crispEdges"><rect width="{pixels}" height="{pixels}" fill="#fff" stroke="none"/><path fill="#000" stroke="none" d="{path}"/></svg>"##
    )
}

fn png(code: &QrCode, size: u32) -> Result<Vec<u8>, QrError> {
    let grid = Grid::of(code, size);
    let pixels = grid.pixels;
    let mut image = vec![255u8; pixels * pixels];
    for (x, y, width) in grid.dark_runs(&code.to_colors()) {
        for row in y..y + grid.scale {
            image[row * pixels + x..row * pixels + x + width].fill(0);
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
        let side = layout("https://go.example.com/abc123")
            .expect("code")
            .width()
            + 2 * QUIET_ZONE;
        for size in [64, 222, 256, 370, 400, 2048] {
            let bytes = render("https://go.example.com/abc123", QrFormat::Png, size).expect("png");
            let decoder = png::Decoder::new(std::io::Cursor::new(bytes));
            let mut reader = decoder.read_info().expect("a png");
            let info = reader.info();
            // Larger only where a module would be smaller than two pixels.
            let expected = size.max((side * MIN_MODULE_PIXELS) as u32);
            assert_eq!((info.width, info.height), (expected, expected));
            let size = expected;
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
    fn svg_codes_paint_the_pngs_pixels_in_every_renderer() {
        for size in [74, 100, 400] {
            let svg = render("https://go.example.com/abc123", QrFormat::Svg, size).expect("svg");
            let svg = String::from_utf8(svg).expect("utf-8");
            assert!(
                svg.contains(&format!(
                    r#"width="{size}" height="{size}" viewBox="0 0 {size} {size}""#
                )),
                "one unit per pixel: {svg}"
            );
            let png = render("https://go.example.com/abc123", QrFormat::Png, size).expect("png");
            let decoder = png::Decoder::new(std::io::Cursor::new(png));
            let mut reader = decoder.read_info().expect("a png");
            let mut buf = vec![0; reader.output_buffer_size().expect("size")];
            reader.next_frame(&mut buf).expect("frame");
            let side = size as usize;
            // The path's runs, `M{x} {y}h{w}v{h}h-{w}z`.
            let path = svg.split(" d=\"").nth(1).expect("a path");
            let path = path.split('"').next().expect("its end");
            let runs: Vec<[f64; 4]> = path
                .split('M')
                .skip(1)
                .map(|run| {
                    let numbers: Vec<f64> = run
                        .split(|c: char| "hvz ".contains(c))
                        .filter(|n| !n.is_empty() && !n.starts_with('-'))
                        .map(|n| n.parse().expect("a number"))
                        .collect();
                    [numbers[0], numbers[1], numbers[2], numbers[3]]
                })
                .collect();
            // By centres (browsers, librsvg): exactly the PNG's dark pixels.
            let inside = |p: f64, from: f64, length: f64| from < p && p < from + length;
            let mut painted = vec![255u8; side * side];
            for [x, y, w, h] in &runs {
                for row in 0..side {
                    for column in 0..side {
                        let (px, py) = (column as f64 + 0.5, row as f64 + 0.5);
                        if inside(px, *x, *w) && inside(py, *y, *h) {
                            painted[row * side + column] = 0;
                        }
                    }
                }
            }
            assert!(painted == buf, "{size} px, by centres");
            // As ImageMagick: twice the cover of `[i - 0.5, i + 0.5)` on each axis; the dark
            // pixels wholly dark, the others at most a tenth grey.
            let cover = |i: usize, from: f64, length: f64| {
                let (low, high) = (i as f64 - 0.5, i as f64 + 0.5);
                (2.0 * (high.min(from + length) - low.max(from)).max(0.0)).min(1.0)
            };
            let mut darkness = vec![0.0f64; side * side];
            for [x, y, w, h] in &runs {
                for row in 0..side {
                    for column in 0..side {
                        let dark = cover(column, *x, *w) * cover(row, *y, *h);
                        let at = &mut darkness[row * side + column];
                        *at = at.max(dark);
                    }
                }
            }
            for (at, dark) in darkness.iter().enumerate() {
                if buf[at] == 0 {
                    assert!(*dark > 0.999, "{size} px: pixel {at} is {dark} dark");
                } else {
                    assert!(*dark < 0.11, "{size} px: pixel {at} is {dark} dark");
                }
            }
        }
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
