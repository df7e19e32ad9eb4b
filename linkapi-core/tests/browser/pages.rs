//! Jump pages in a real headless browser at a phone-sized viewport: every template and image
//! layout renders, its images load, its button leads to the destination, nothing runs and
//! nothing errs; hostile values stay text. With `LINKAPI_UPDATE_SCREENSHOTS=1` the screenshots
//! in `docs/screenshots/` are written again.

use reqwest::StatusCode;
use reqwest::multipart::{Form, Part};
use serde_json::{Value, json};

use crate::chromium::{Browser, VIEWPORT};
use crate::support::{ADMIN_KEY, TestServer};
use crate::wx_support::{WX_SCOPES, create_wx};

/// Uploads `bytes` and returns the hosted URL.
async fn hosted(server: &TestServer, key: &str, name: &str, bytes: Vec<u8>) -> String {
    let part = Part::bytes(bytes).file_name(name.to_owned());
    let reply = server
        .client
        .post(server.url("/uploads"))
        .bearer_auth(key)
        .multipart(Form::new().part("file", part))
        .send()
        .await
        .expect("upload");
    let reply = crate::support::Reply::from(reply).await;
    assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.text);
    reply.primary_data()["url"].as_str().unwrap().to_owned()
}

/// A tall poster-like PNG: a vertical gradient.
fn tall_png(width: u32, height: u32) -> Vec<u8> {
    let mut out = Vec::new();
    let mut encoder = png::Encoder::new(&mut out, width, height);
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    let mut writer = encoder.write_header().expect("png header");
    let mut data = Vec::with_capacity((width * height * 3) as usize);
    for y in 0..height {
        let shade = (y * 255 / height) as u8;
        for _ in 0..width {
            data.extend_from_slice(&[255 - shade / 2, 120, 80 + shade / 2]);
        }
    }
    writer.write_image_data(&data).expect("png data");
    writer.finish().expect("png end");
    out
}

/// A user who may upload and make chains, with a hosted QR code and a long image.
async fn setup(server: &TestServer) -> (String, String, String) {
    let mut scopes = WX_SCOPES.to_vec();
    scopes.extend(["uploads:write", "uploads:read"]);
    let (_, key) = server.user_with_key("pages", &scopes).await;
    let short = server
        .create_chain(&key, json!({"target_url": "https://example.com/join"}))
        .await;
    let qr = server
        .get_bytes(&format!("/chains/{}/qr?size=480", short["id"]), &key)
        .await;
    let qr_url = hosted(server, &key, "group.png", qr).await;
    let long_url = hosted(server, &key, "poster.png", tall_png(600, 1500)).await;
    (key, qr_url, long_url)
}

/// Nothing ran, nothing erred, and (for the built-in layouts) the page fits a phone's width
/// and shows no empty box.
fn assert_clean(what: &str, check: &crate::chromium::PageCheck) {
    assert_inert(what, check);
    assert!(
        check.empty_boxes.is_empty(),
        "{what}: empty boxes {:?}",
        check.empty_boxes
    );
    assert!(
        check.scroll_width <= i64::from(VIEWPORT.0),
        "{what}: {} pixels wide on a {}-pixel phone",
        check.scroll_width,
        VIEWPORT.0
    );
}

/// Nothing ran and nothing erred.
fn assert_inert(what: &str, check: &crate::chromium::PageCheck) {
    assert!(check.errors.is_empty(), "{what}: {:?}", check.errors);
    assert_eq!(check.scripts, 0, "{what}");
    assert_eq!(check.handlers, 0, "{what}");
    assert!(!check.pwned, "{what}");
}

pub async fn every_template_and_image_layout_renders_on_a_phone() {
    let Some(mut browser) = Browser::launch().await else {
        return;
    };
    let server = TestServer::start().await;
    let (key, qr_url, long_url) = setup(&server).await;
    let update = std::env::var_os("LINKAPI_UPDATE_SCREENSHOTS").is_some();
    let shots = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/screenshots");
    for (template, style) in [(0, "generic"), (1, "card"), (2, "poster")] {
        for (show_type, layout) in [(1, "small"), (2, "long")] {
            let image = if show_type == 1 { &qr_url } else { &long_url };
            let chain = create_wx(
                &server,
                &key,
                json!({"chain_title": "Spring tasting club", "sub_title": "Scan to join us",
                       "promo_desc": "New arrivals every week.\nMembers get early access.",
                       "guide_text": "Add us to get your coupon.", "avatar": qr_url,
                       "scan_tips": 1, "show_type": show_type, "jump_template_id": template,
                       "channel_list": [{"url": image, "url2": "https://join.example.com/g/1"}]}),
            )
            .await;
            let what = format!("{style}/{layout}");
            let check = browser.open(chain["render_url"].as_str().unwrap()).await;
            assert_clean(&what, &check);
            assert!(check.images.len() >= 2, "{what}: {:?}", check.images);
            assert!(
                check.images.iter().all(|(_, loaded)| *loaded),
                "{what}: {:?}",
                check.images
            );
            assert!(check.images.iter().any(|(src, _)| src == image), "{what}");
            assert_eq!(
                check.button.as_deref(),
                Some("https://join.example.com/g/1"),
                "{what}"
            );
            assert!(check.text.contains("Spring tasting club"), "{what}");
            assert_eq!(
                check.text.contains("Scan to join us"),
                show_type == 1,
                "{what}: the sub-title shows with small images only"
            );
            let shot = browser.screenshot().await;
            assert!(shot.starts_with(b"\x89PNG"), "{what}");
            if update {
                std::fs::create_dir_all(&shots).unwrap();
                std::fs::write(shots.join(format!("{style}-{layout}.png")), shot).unwrap();
            }
        }
    }

    // Destinations other than a QR code: the account ID to copy, the mini-program button.
    let account = create_wx(
        &server,
        &key,
        json!({"chain_title": "Our helper", "sub_type": 2, "wx_id": "shop_helper"}),
    )
    .await;
    let check = browser.open(account["render_url"].as_str().unwrap()).await;
    assert_clean("account", &check);
    assert!(check.text.contains("shop_helper"), "{}", check.text);
    assert_eq!(check.button.as_deref(), Some("weixin://"));
    // A button and nothing else to show, on every layout: no empty card above it.
    for (template, style) in [(1, "card"), (2, "poster"), (0, "generic")] {
        let mini = create_wx(
            &server,
            &key,
            json!({"sub_type": 3, "mini_appid": "wx0123456789abcdef", "mini_path": "pages/index",
                   "jump_template_id": template}),
        )
        .await;
        let check = browser.open(mini["render_url"].as_str().unwrap()).await;
        assert_clean(&format!("mini-program/{style}"), &check);
        assert_eq!(
            check.button.as_deref(),
            Some("weixin://dl/business/?appid=wx0123456789abcdef&path=pages%2Findex")
        );
    }
    if update {
        let shot = browser.screenshot().await;
        std::fs::write(shots.join("mini-program.png"), shot).unwrap();
    }
}

pub async fn hostile_values_in_every_field_stay_inert_in_the_browser() {
    let Some(mut browser) = Browser::launch().await else {
        return;
    };
    let server = TestServer::start().await;
    let (key, qr_url, _) = setup(&server).await;
    let script = "<script>window.__pwned=1</script>";
    let attribute = "\" autofocus onfocus=\"window.__pwned=2\" x=\"";
    let template_syntax = "{{ 7*7 }}{% for x in range(3) %}{{ x }}{% endfor %}";
    // A custom template that puts values into attributes too.
    let custom = server
        .post(
            "/admin/templates",
            ADMIN_KEY,
            json!({"name": "Attributes",
                   "body": "<!doctype html><title>{{ title }}</title>\
                            <a class=\"button\" title=\"{{ title }}\" href=\"{{ button_url }}\">{{ desc }}</a>\
                            <img alt=\"{{ sub_title }}\" src=\"{{ image }}\">"}),
        )
        .await
        .primary_data()["id"]
        .clone();
    for template in [json!(0), json!(1), json!(2), custom.clone()] {
        let chain: Value = create_wx(
            &server,
            &key,
            json!({"chain_title": format!("{script}{attribute}"),
                   "sub_title": "'><svg onload=x>",
                   "promo_desc": format!("{template_syntax}{script}"),
                   "guide_text": format!("<img src=x onerror=\"window.__pwned=3\">{attribute}"),
                   "avatar": format!("{qr_url}?\"><script>window.__pwned=4</script>"),
                   "jump_template_id": template,
                   "channel_list": [{"url": qr_url,
                                     "url2": "https://join.example.com/\"onclick=\"window.__pwned=5"}]}),
        )
        .await;
        let what = format!("template {template}");
        let check = browser.open(chain["render_url"].as_str().unwrap()).await;
        if template == custom {
            // The administrator's page has no viewport of its own: its width is its business.
            assert_inert(&what, &check);
        } else {
            assert_clean(&what, &check);
        }
        assert!(check.text.contains("{{ 7*7 }}"), "{what}: {}", check.text);
        let button = check.button.clone().unwrap_or_default();
        assert!(
            button.starts_with("https://join.example.com/"),
            "{what}: {button}"
        );
        assert!(!button.contains('"'), "{what}: {button}");
        // Focus and click whatever there is: nothing may run.
        browser
            .eval(
                "document.querySelectorAll('*').forEach(e => { try { e.focus(); } catch (_) {} })",
            )
            .await;
        assert_eq!(
            browser.eval("window.__pwned === undefined").await,
            json!(true),
            "{what}"
        );
    }
    // URLs that would run script are refused before they reach a page.
    for field in ["avatar", "scan_qr_url"] {
        let mut body = json!({"scan_qr_url": qr_url});
        body[field] = json!("javascript:window.__pwned=6");
        let reply = server.post("/wx-chains", &key, body).await;
        reply.assert_primary_error(StatusCode::BAD_REQUEST, "invalid_url");
    }
}

/// An administrator's template that marks values safe, switches escaping off or puts a value in
/// an unquoted attribute still shows a chain owner's text as text: no element, no attribute, no
/// refresh to another site.
pub async fn a_template_cannot_switch_escaping_off_in_the_browser() {
    let Some(mut browser) = Browser::launch().await else {
        return;
    };
    let server = TestServer::start().await;
    let (key, qr_url, _) = setup(&server).await;
    let careless = server
        .post(
            "/admin/templates",
            ADMIN_KEY,
            json!({"name": "Careless",
                   "body": "<!doctype html><title>{{ title|safe }}</title>\
                            <h1>{{ title|safe }}</h1>\
                            {% autoescape false %}<p class=\"sub\">{{ sub_title }}</p>{% endautoescape %}\
                            <img class=\"qr\" alt={{ desc }} src={{ image }}>\
                            <a class=\"button\" href=\"{{ button_url }}\">{{ button_label }}</a>"}),
        )
        .await
        .primary_data()["id"]
        .clone();
    let away = server.url("/moved-by-the-title");
    let title = format!("<meta http-equiv=\"refresh\" content=\"0;url={away}\">Spring");
    let sub_title = "<b id=\"x\">bold</b>";
    let desc = "photo onerror=x src=https://evil.example/x.png";
    // No `url2`: the page has no button destination.
    let chain = create_wx(
        &server,
        &key,
        json!({"chain_title": title, "sub_title": sub_title, "promo_desc": desc,
               "jump_template_id": careless, "channel_list": [{"url": qr_url}]}),
    )
    .await;
    let page = chain["render_url"].as_str().unwrap().to_owned();
    let check = browser.open(&page).await;
    assert_inert("careless template", &check);
    // A refresh would have left the page by now.
    tokio::time::sleep(std::time::Duration::from_millis(500)).await;
    assert_eq!(browser.eval("location.href").await, json!(page));
    assert_eq!(
        browser
            .eval("document.querySelectorAll('meta[http-equiv], #x, h1 *').length")
            .await,
        json!(0)
    );
    assert_eq!(browser.eval("document.title").await, json!(title));
    assert_eq!(
        browser
            .eval("document.querySelector('h1').textContent")
            .await,
        json!(title)
    );
    assert_eq!(
        browser
            .eval("document.querySelector('p.sub').textContent")
            .await,
        json!(sub_title)
    );
    // The unquoted attribute holds the whole description; the image has no attribute of it.
    assert_eq!(
        browser
            .eval(
                "Array.from(document.querySelector('img').attributes).map(a => [a.name, a.value])"
            )
            .await,
        json!([["class", "qr"], ["alt", desc], ["src", qr_url]])
    );
    assert_eq!(check.images, vec![(qr_url.clone(), true)]);
    // A missing destination is no link at all, not "None".
    assert_eq!(check.button.as_deref(), Some(""));
}
