//! QR codes read by a real decoder: `zbarimg` (Debian's zbar-tools), PNG and SVG.

use serde_json::json;

use crate::support::TestServer;

/// What `zbarimg` (Debian's zbar-tools, which reads SVG through ImageMagick) decodes in
/// `image`, a file of type `extension`.
fn zbar(image: &[u8], extension: &str) -> String {
    let dir = tempfile::TempDir::new().unwrap();
    let path = dir.path().join(format!("qr.{extension}"));
    std::fs::write(&path, image).unwrap();
    let out = std::process::Command::new("zbarimg")
        .args(["-q", "--raw"])
        .arg(&path)
        .output()
        .unwrap();
    String::from_utf8_lossy(&out.stdout).trim().to_owned()
}

pub(crate) async fn a_real_decoder_reads_png_and_svg_codes_at_every_size() {
    let server = TestServer::start().await;
    let (_, key) = server.full_user("zbar").await;
    let short = server
        .create_chain(
            &key,
            json!({"target_url": "https://example.com/z", "code": "z"}),
        )
        .await;
    // A long code makes a larger code: more modules in the same pixels.
    let long = server
        .create_chain(
            &key,
            json!({"target_url": "https://example.com/z", "code": "z".repeat(64)}),
        )
        .await;
    for chain in [&short, &long] {
        let id = chain["id"].as_i64().unwrap();
        let link = chain["render_url"].as_str().unwrap();
        for size in [
            64, 65, 80, 100, 128, 150, 200, 256, 300, 333, 512, 777, 1024, 2048,
        ] {
            for format in ["png", "svg"] {
                let image = server
                    .get_bytes(
                        &format!("/chains/{id}/qr?format={format}&size={size}"),
                        &key,
                    )
                    .await;
                assert_eq!(
                    zbar(&image, format),
                    link,
                    "{format} at {size} px of {link}"
                );
            }
        }
    }
}
