//! Reading pages as a browser does: text with character references decoded, the image a page
//! shows, where its button leads.

/// What a browser reads from HTML text or an attribute: character references decoded (the
/// named ones pages use, and every numeric one).
pub fn unescape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find('&') {
        out.push_str(&rest[..at]);
        rest = &rest[at..];
        let decoded = rest.find(';').and_then(|end| {
            let name = &rest[1..end];
            let c = match name {
                "amp" => Some('&'),
                "lt" => Some('<'),
                "gt" => Some('>'),
                "quot" => Some('"'),
                _ => {
                    let code = match name.strip_prefix("#x").or(name.strip_prefix("#X")) {
                        Some(hex) => u32::from_str_radix(hex, 16).ok(),
                        None => name.strip_prefix('#').and_then(|d| d.parse().ok()),
                    };
                    code.and_then(char::from_u32)
                }
            };
            c.map(|c| (c, end))
        });
        match decoded {
            Some((c, end)) => {
                out.push(c);
                rest = &rest[end + 1..];
            }
            None => {
                out.push('&');
                rest = &rest[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// The `src` of the page's QR image, if it shows one.
pub fn page_image(html: &str) -> Option<String> {
    let end = html.find("alt=\"QR code\"")?;
    let start = html[..end].rfind("src=\"")? + 5;
    let src = &html[start..end];
    Some(unescape(src.trim_end().trim_end_matches('"')))
}

/// The `href` of the page's button, if it has one.
pub fn button_href(html: &str) -> Option<String> {
    let at = html.find("class=\"button\" href=\"")? + "class=\"button\" href=\"".len();
    let end = html[at..].find('"')? + at;
    Some(unescape(&html[at..end]))
}
