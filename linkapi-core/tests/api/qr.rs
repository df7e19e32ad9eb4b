//! QR codes of chains: PNG that decodes to the chain's link, SVG, sizes, errors, ownership.

use reqwest::StatusCode;
use serde_json::json;

use crate::support::TestServer;

/// Width and height of a PNG.
fn png_size(bytes: &[u8]) -> (u32, u32) {
    let decoder = png::Decoder::new(std::io::Cursor::new(bytes));
    let reader = decoder.read_info().expect("a png");
    (reader.info().width, reader.info().height)
}

/// The text of the QR code in a PNG.
fn decode_png(bytes: &[u8]) -> String {
    let decoder = png::Decoder::new(std::io::Cursor::new(bytes));
    let mut reader = decoder.read_info().expect("a png");
    let mut pixels = vec![0; reader.output_buffer_size().expect("size")];
    let frame = reader.next_frame(&mut pixels).expect("a frame");
    let (width, height) = (frame.width as usize, frame.height as usize);
    let mut image =
        rqrr::PreparedImage::prepare_from_greyscale(width, height, |x, y| pixels[y * width + x]);
    let grids = image.detect_grids();
    assert_eq!(grids.len(), 1, "one code in the image");
    grids[0].decode().expect("a readable code").1
}

#[tokio::test]
async fn a_chain_qr_code_encodes_its_link_in_png_or_svg() {
    let server = TestServer::start().await;
    let (_, key) = server.full_user("qr").await;
    let chain = server
        .create_chain(
            &key,
            json!({"target_url": "https://example.com/qr", "code": "qr-me"}),
        )
        .await;
    let id = chain["id"].as_i64().unwrap();
    let render_url = chain["render_url"].as_str().unwrap();

    let png = server
        .client
        .get(server.url(&format!("/chains/{id}/qr?size=300")))
        .bearer_auth(&key)
        .send()
        .await
        .unwrap();
    assert_eq!(png.status(), StatusCode::OK);
    assert_eq!(png.headers()["content-type"], "image/png");
    assert_eq!(png.headers()["x-content-type-options"], "nosniff");
    let bytes = png.bytes().await.unwrap();
    assert_eq!(png_size(&bytes), (300, 300), "the size asked for");
    assert_eq!(decode_png(&bytes), render_url);
    let default = server.get_bytes(&format!("/chains/{id}/qr"), &key).await;
    assert_eq!(png_size(&default), (256, 256));
    assert_eq!(decode_png(&default), render_url);

    let svg = server
        .client
        .get(server.url(&format!("/chains/{id}/qr?format=svg&size=128")))
        .bearer_auth(&key)
        .send()
        .await
        .unwrap();
    assert_eq!(svg.headers()["content-type"], "image/svg+xml");
    assert!(
        svg.headers()["content-security-policy"]
            .to_str()
            .unwrap()
            .contains("sandbox")
    );
    let svg = svg.text().await.unwrap();
    assert!(svg.contains(r#"width="128" height="128""#), "{svg}");

    for bad in ["format=gif", "size=10", "size=9999", "colour=red"] {
        let reply = server.get(&format!("/chains/{id}/qr?{bad}"), &key).await;
        assert_eq!(
            reply.status,
            StatusCode::BAD_REQUEST,
            "{bad}: {}",
            reply.text
        );
    }
    let (_, other) = server.full_user("qr-other").await;
    server
        .get(&format!("/chains/{id}/qr"), &other)
        .await
        .assert_primary_error(StatusCode::NOT_FOUND, "not_found");
}
