//! Entry points for the fuzz targets in `fuzz/` (feature `fuzzing`): the request decoders and
//! page rendering, each driven from raw bytes exactly as the server drives them, with the
//! properties the server promises checked on every input. A panic here is a finding.
//!
//! The same functions replay the committed corpus (`fuzz/corpus/<target>/`) in this module's
//! unit tests, so what a fuzzer once found stays found without a nightly toolchain.

use bytes::Bytes;
use http::{HeaderMap, HeaderValue, Method, Request, header};
use serde::de::DeserializeOwned;

use crate::clock::{format_rfc3339, format_sql, parse_flexible};
use crate::codes::{MAX_CODE_LEN, validate_code};
use crate::error::Error;
use crate::error::Result as Decoded;
use crate::http::request;
use crate::image::ImageCheck;
use crate::pages::{JumpPage, Pages, sample_template};
use crate::wire::{admin as a, compat as c, primary as p};

/// Words of Rust's type vocabulary that a client must never read in an error message.
const RUST_TYPE_WORDS: &[&str] = &[
    "struct ", "enum ", "untagged", "i64", "u64", "i32", "u32", "usize", "f64", "Option<", "Vec<",
];

/// Every text of `data` a decoder may quote back: the bytes as text, and the keys and values
/// they decode to as a query string or as JSON.
fn echoes(data: &[u8]) -> String {
    fn strings(value: &serde_json::Value, out: &mut String) {
        match value {
            serde_json::Value::String(s) => out.push_str(s),
            serde_json::Value::Array(items) => items.iter().for_each(|v| strings(v, out)),
            serde_json::Value::Object(fields) => {
                for (key, v) in fields {
                    out.push_str(key);
                    strings(v, out);
                }
            }
            _ => {}
        }
        out.push('\n');
    }
    let mut out = String::from_utf8_lossy(data).into_owned();
    for (key, value) in url::form_urlencoded::parse(data) {
        out.push_str(&key);
        out.push_str(&value);
        out.push('\n');
    }
    if let Ok(value) = serde_json::from_slice::<serde_json::Value>(data) {
        strings(&value, &mut out);
    }
    out
}

/// Panics when `err`'s message names a Rust type outside the parts that quote the client's own
/// input (between backticks or double quotes). A word the input itself holds (`echoed`) may be
/// the input quoted back: input with a backtick of its own closes the quote early.
fn assert_plain(err: &Error, echoed: &str) {
    let message = err.to_string();
    let mut outside = String::new();
    let mut quote: Option<char> = None;
    for ch in message.chars() {
        match quote {
            Some(q) if ch == q => quote = None,
            Some(_) => {}
            None if ch == '`' || ch == '"' => quote = Some(ch),
            None => outside.push(ch),
        }
    }
    for word in RUST_TYPE_WORDS {
        assert!(
            !outside.contains(word) || echoed.contains(word),
            "an error message names a Rust type ({word}): {message}"
        );
    }
}

fn decode<T: DeserializeOwned>(echoed: &str, result: Decoded<T>) {
    if let Err(err) = result {
        assert_eq!(err.status().as_u16(), 400, "a decoder answered {err}");
        assert_plain(&err, echoed);
    }
}

fn json_headers() -> HeaderMap {
    let mut headers = HeaderMap::new();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    headers
}

/// Every JSON body of the primary surface and admin, decoded from `data`.
pub fn primary_json(data: &[u8]) {
    let h = json_headers();
    let e = echoes(data);
    decode(&e, request::json::<p::CreateChain>(&h, data));
    decode(&e, request::json::<p::UpdateChain>(&h, data));
    decode(&e, request::json::<p::CreateGroup>(&h, data));
    decode(&e, request::json::<p::WxChainInput>(&h, data));
    decode(&e, request::json::<c::CardChainInput>(&h, data));
    decode(&e, request::json::<a::CreateUser>(&h, data));
    decode(&e, request::json::<a::CreateKey>(&h, data));
    decode(&e, request::json::<a::CreateDomain>(&h, data));
    decode(&e, request::json::<a::UpdateDomain>(&h, data));
    decode(&e, request::json::<a::CreateTemplate>(&h, data));
    decode(&e, request::json::<a::UpdateTemplate>(&h, data));
    decode(&e, request::json::<a::PutAssembly>(&h, data));
    decode(&e, request::json::<a::LoadTransfers>(&h, data));
}

/// The request parts of a compatibility call: `method`, with `query` when it is a valid URI
/// query.
fn compat_parts(method: Method, query: &str) -> Option<http::request::Parts> {
    let uri = format!("/openapi/v1/chain/list?{query}");
    let request = Request::builder()
        .method(method)
        .uri(uri)
        .header(header::CONTENT_TYPE, "application/json")
        .body(())
        .ok()?;
    Some(request.into_parts().0)
}

fn compat_all(parts: &http::request::Parts, body: &[u8], e: &str) {
    decode(e, request::compat_input::<c::CreateChain>(parts, body));
    decode(e, request::compat_input::<c::EditChain>(parts, body));
    decode(e, request::compat_input::<c::DeleteChains>(parts, body));
    decode(e, request::compat_input::<c::ListChains>(parts, body));
    decode(e, request::compat_input::<c::ChainInfo>(parts, body));
    decode(e, request::compat_input::<c::CreateGroup>(parts, body));
    decode(e, request::compat_input::<c::ListTemplates>(parts, body));
    decode(e, request::compat_input::<c::WxChainInput>(parts, body));
    decode(e, request::compat_input::<c::ChainRef>(parts, body));
    decode(e, request::compat_input::<c::ListWxChains>(parts, body));
    decode(
        e,
        request::compat_input::<c::WorkchatChainInput>(parts, body),
    );
    decode(e, request::compat_input::<c::ListAssemblies>(parts, body));
    decode(e, request::compat_input::<c::TransferRequest>(parts, body));
    decode(e, request::compat_input::<c::ConversionReport>(parts, body));
}

/// Every compatibility action's input, from `data` as a `POST` body and, its first line, as a
/// `GET` query.
pub fn compat_json(data: &[u8]) {
    let e = echoes(data);
    if let Some(parts) = compat_parts(Method::POST, "") {
        compat_all(&parts, data, &e);
    }
    let line = data.split(|b| *b == b'\n').next().unwrap_or_default();
    if let Ok(query) = std::str::from_utf8(line)
        && let Some(parts) = compat_parts(Method::GET, query)
    {
        compat_all(&parts, b"", &e);
    }
}

/// Every query string the server reads, from `data`.
pub fn query(data: &[u8]) {
    let Ok(query) = std::str::from_utf8(data) else {
        return;
    };
    let Some(parts) = compat_parts(Method::GET, query) else {
        return;
    };
    let e = echoes(data);
    decode(&e, request::query::<p::ListChains>(&parts));
    decode(&e, request::query::<p::StatsQuery>(&parts));
    decode(&e, request::query::<p::QrQuery>(&parts));
    decode(&e, request::query::<p::ListConversions>(&parts));
    decode(&e, request::query::<p::ListTemplates>(&parts));
    decode(&e, request::query::<p::ListUploads>(&parts));
    decode(&e, request::query::<p::ListWxChains>(&parts));
    decode(&e, request::query::<a::ListKeys>(&parts));
    decode(&e, request::query::<a::ListTemplates>(&parts));
    decode(&e, request::query::<a::PreviewTemplate>(&parts));
    decode(&e, request::query::<a::ListAssemblies>(&parts));
    decode(&e, request::query::<c::TransferQuery>(&parts));
    // The key is read from the same query; reading it must never fail loudly.
    let _ = request::credential(&parts, true);
}

/// The boundary the multipart target's bodies use.
pub const MULTIPART_BOUNDARY: &str = "linkapi-fuzz";

/// A `multipart/form-data` upload body (boundary [`MULTIPART_BOUNDARY`]) read part by part as
/// the upload handlers read it, each part's bytes through the image check.
pub fn multipart(data: &[u8]) {
    let Ok(runtime) = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
    else {
        return;
    };
    let limit = 1 << 20;
    let mut headers = HeaderMap::new();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("multipart/form-data; boundary=linkapi-fuzz"),
    );
    // Two chunks, so parts that straddle a read are exercised too.
    let split = data.len() / 2;
    let chunks = [
        Ok::<_, std::convert::Infallible>(Bytes::copy_from_slice(&data[..split])),
        Ok(Bytes::copy_from_slice(&data[split..])),
    ];
    let body = futures_util::stream::iter(chunks);
    runtime.block_on(async {
        use futures_util::StreamExt;
        let idle = std::time::Duration::from_secs(1);
        let mut form = match request::multipart(&headers, Some(body), limit) {
            Ok(form) => form,
            Err(err) => panic!("a well-formed multipart request was refused: {err}"),
        };
        loop {
            let part = match request::next_part(&mut form, idle, limit).await {
                Ok(Some(part)) => part,
                Ok(None) => break,
                Err(err) => {
                    assert_eq!(err.status().as_u16(), 400, "multipart answered {err}");
                    break;
                }
            };
            let _ = part.name();
            let _ = part.file_name();
            let mut check = ImageCheck::new();
            let mut bytes = request::part_bytes(part, idle, limit);
            let mut refused = false;
            while let Some(chunk) = bytes.next().await {
                match chunk {
                    Ok(chunk) => refused |= check.feed(&chunk).is_err(),
                    Err(err) => {
                        assert_eq!(err.status().as_u16(), 400, "a part answered {err}");
                        refused = true;
                        break;
                    }
                }
            }
            if !refused {
                let _ = check.finish();
            }
        }
    });
}

/// A custom short code, and the promise a valid code keeps: it fits a path segment.
pub fn code(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if validate_code(text).is_ok() {
        assert!(!text.is_empty() && text.len() <= MAX_CODE_LEN, "{text:?}");
        assert!(
            !text.contains(['/', '?', '#', '%']) && !text.chars().any(char::is_control),
            "a valid code that is not a path segment: {text:?}"
        );
    }
}

/// A `valid_time` string, and the promise a time read keeps: both wire formats write it back
/// to the same instant.
pub fn valid_time(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Some(ts) = parse_flexible(text) {
        assert_eq!(parse_flexible(&format_sql(ts)), Some(ts), "{text:?}");
        assert_eq!(parse_flexible(&format_rfc3339(ts)), Some(ts), "{text:?}");
    }
}

/// Splits `data` into `n` text fields at NUL bytes (missing fields are empty).
fn fields(data: &[u8], n: usize) -> Vec<String> {
    let mut out: Vec<String> = data
        .splitn(n, |b| *b == 0)
        .map(|f| String::from_utf8_lossy(f).into_owned())
        .collect();
    out.resize(n, String::new());
    out
}

/// A jump page of every built-in layout showing text and URLs from `data`, and the promise
/// each keeps: what the visitor sent never reaches the page as markup, nor a `javascript:` URL
/// an attribute.
pub fn jump_page(data: &[u8]) {
    let f = fields(data, 9);
    let page = JumpPage {
        title: f[0].clone(),
        sub_title: f[1].clone(),
        desc: f[2].clone(),
        guide_text: f[3].clone(),
        account: f[4].clone(),
        avatar: crate::pages::safe_url(&f[5]),
        image: crate::pages::safe_url(&f[6]),
        show_type: i64::from(data.first().copied().unwrap_or(1) % 3),
        scan_tips: data.last().is_some_and(|b| b % 2 == 0),
        button_url: crate::pages::safe_url(&f[7]),
        button_label: f[8].clone(),
    };
    let pages = Pages::new();
    for style in ["generic", "card", "poster"] {
        let html = pages
            .render(&sample_template(style, ""), &page)
            .unwrap_or_else(|e| panic!("the built-in {style} layout failed: {e}"));
        assert!(
            !html.contains("<fuzz"),
            "markup from the input reached the page"
        );
        // As text (a description that says "javascript:") it is only words; what must never
        // happen is an attribute whose value is such a URL.
        // The engine writes quotes in values as entities, so a raw quote is markup: the start
        // of an attribute's value.
        let lower = html.to_ascii_lowercase();
        for (at, _) in lower.match_indices("javascript:") {
            let before = lower[..at].trim_end();
            assert!(
                !before.ends_with(['"', '\'']),
                "a javascript: URL reached an attribute"
            );
        }
    }
}

/// An administrator's page source, checked as saving checks it, then rendered as a visit
/// renders it: a source that saves must render, or fail, in bounded time, and whatever it does
/// (`|safe`, `autoescape false`, unquoted attributes) a chain owner's text stays text.
pub fn template_source(data: &[u8]) {
    let Ok(source) = std::str::from_utf8(data) else {
        return;
    };
    if crate::service::check_template_body(source).is_err() {
        return;
    }
    // A marker the source could only write itself by spelling it out (then it is its own).
    const MARKER: &str = "<fuzz\u{e000}";
    let text = format!("{MARKER} a=\"b\" c=d>");
    let page = JumpPage {
        title: text.clone(),
        sub_title: text.clone(),
        desc: text.clone(),
        guide_text: text.clone(),
        account: text.clone(),
        button_label: text,
        ..JumpPage::default()
    };
    let Ok(html) = Pages::new().render(&sample_template("generic", source), &page) else {
        return;
    };
    if !source.contains("<fuzz") && !source.contains('\u{e000}') {
        assert!(!html.contains(MARKER), "a value became markup");
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    /// Every input of `target`'s committed corpus; how many there were.
    fn replay(target: &str, run: fn(&[u8])) -> usize {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../fuzz/corpus")
            .join(target);
        let mut inputs = 0;
        for entry in std::fs::read_dir(&dir).expect("the corpus directory") {
            let path = entry.expect("a corpus entry").path();
            let data = std::fs::read(&path).expect("a corpus input");
            let outcome = std::panic::catch_unwind(|| run(&data));
            assert!(outcome.is_ok(), "{} fails", path.display());
            inputs += 1;
        }
        inputs
    }

    #[test]
    fn the_committed_corpus_replays_clean() {
        type Target = (&'static str, fn(&[u8]));
        let targets: [Target; 8] = [
            ("primary_json", super::primary_json),
            ("compat_json", super::compat_json),
            ("query", super::query),
            ("multipart", super::multipart),
            ("code", super::code),
            ("valid_time", super::valid_time),
            ("jump_page", super::jump_page),
            ("template_source", super::template_source),
        ];
        for (target, run) in targets {
            assert!(replay(target, run) > 0, "{target} has no corpus");
        }
    }
}
