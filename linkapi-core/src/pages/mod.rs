//! Jump pages: the wake-up page a messaging-app chain shows, rendered with minijinja from its
//! template (a built-in layout shipped in this directory, or an administrator's page source);
//! and the page of a short chain's social preview ([`preview_page`]).
//!
//! Every value reaches the engine already written as inert text ([`inert_text`]) and marked
//! safe, so nothing a template does (`|safe`, `{% autoescape false %}`, a value in an unquoted
//! attribute) can turn a chain owner's text into markup or a new attribute. URLs reach an
//! attribute only through [`safe_url`]: `http`, `https` and the messaging app's `weixin`
//! scheme, nothing else (`javascript:`, `data:`, `file:` and the rest are dropped). Pages run
//! no script and carry [`CONTENT_SECURITY_POLICY`].

mod preview;

pub use preview::preview_page;

use std::fmt::Write as _;

use minijinja::{AutoEscape, Environment, Value};

use crate::model::Template;

/// What a jump page may load: images over http(s) and its own inline styles; no scripts, no
/// forms, no frames, no plugins.
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'none'; img-src http: https:; \
     style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/// The built-in layouts, by style.
const LAYOUTS: &[(&str, &str)] = &[
    ("generic", include_str!("generic.html")),
    ("card", include_str!("card.html")),
    ("poster", include_str!("poster.html")),
];

/// What a jump page shows. Text is made inert when rendered; URLs are set through [`safe_url`].
#[derive(Debug, Clone, Default)]
pub struct JumpPage {
    /// Heading.
    pub title: String,
    /// Line under the heading.
    pub sub_title: String,
    /// Longer text.
    pub desc: String,
    /// A line guiding the visitor.
    pub guide_text: String,
    /// A messaging-app account ID to add (sub_type 2), shown to copy.
    pub account: String,
    /// Avatar image.
    pub avatar: Option<String>,
    /// The image shown: the chosen channel's QR code, or a long image.
    pub image: Option<String>,
    /// 1 small image, 2 long image.
    pub show_type: i64,
    /// Whether to show a hint on scanning.
    pub scan_tips: bool,
    /// Where the button leads.
    pub button_url: Option<String>,
    /// The button's text.
    pub button_label: String,
}

/// Why a page could not be rendered.
#[derive(Debug, thiserror::Error)]
#[error("rendering the jump page failed: {0}")]
pub struct PageError(#[from] minijinja::Error);

/// `raw` when it is an `http`, `https` or `weixin` URL with nothing that could break out of an
/// attribute; `None` otherwise.
pub fn safe_url(raw: &str) -> Option<String> {
    let raw = raw.trim();
    if raw.is_empty() || raw.chars().any(|c| c.is_control() || c.is_whitespace()) {
        return None;
    }
    let parsed = url::Url::parse(raw).ok()?;
    match parsed.scheme() {
        "http" | "https" if parsed.host_str().is_some() => Some(parsed.to_string()),
        "weixin" => Some(parsed.to_string()),
        _ => None,
    }
}

/// `text` written so that it stays text wherever a template puts it: element content, a quoted
/// or unquoted attribute value, a comment. Every ASCII character but letters, digits and
/// `.,-_` becomes a character reference (the rule OWASP gives for attribute values), so no
/// quote, space, `=`, `<` or `>` of the value is ever markup; other characters are written as
/// they are. A browser reads the references back as the original text.
pub fn inert_text(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            'a'..='z' | 'A'..='Z' | '0'..='9' | '.' | ',' | '-' | '_' => out.push(c),
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            c if c.is_ascii() => {
                let _ = write!(out, "&#x{:x};", u32::from(c));
            }
            c => out.push(c),
        }
    }
    out
}

/// What a template sees: every text and URL as [`inert_text`], marked safe so the engine
/// writes it as it is; an absent URL is empty, never `none`.
fn page_context(page: &JumpPage) -> Value {
    let text = |s: &str| Value::from_safe_string(inert_text(s));
    let url = |u: &Option<String>| text(u.as_deref().unwrap_or_default());
    minijinja::context! {
        title => text(&page.title),
        sub_title => text(&page.sub_title),
        desc => text(&page.desc),
        guide_text => text(&page.guide_text),
        account => text(&page.account),
        avatar => url(&page.avatar),
        image => url(&page.image),
        show_type => page.show_type,
        scan_tips => page.scan_tips,
        button_url => url(&page.button_url),
        button_label => text(&page.button_label),
    }
}

/// How many engine instructions one page may take. The built-in layouts need a few hundred; an
/// administrator's page source that loops past this fails instead of holding a worker (nested
/// `range` loops would otherwise run for hours).
pub const PAGE_FUEL: u64 = 100_000;

/// The engine every page renders in: HTML escaping on, instructions metered.
fn engine() -> Environment<'static> {
    let mut env = Environment::new();
    env.set_auto_escape_callback(|_| AutoEscape::Html);
    env.set_fuel(Some(PAGE_FUEL));
    env
}

/// Checks an administrator's page source: it compiles, and it renders an empty page within
/// [`PAGE_FUEL`].
///
/// # Errors
/// The engine's error, for the administrator to read.
pub fn check_source(source: &str) -> Result<(), PageError> {
    let env = engine();
    env.render_named_str("page.html", source, page_context(&JumpPage::default()))?;
    Ok(())
}

/// The page renderer: the built-in layouts, compiled once.
pub struct Pages {
    env: Environment<'static>,
}

impl std::fmt::Debug for Pages {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Pages").finish_non_exhaustive()
    }
}

impl Default for Pages {
    fn default() -> Self {
        Self::new()
    }
}

impl Pages {
    /// Compiles the built-in layouts.
    ///
    /// # Panics
    /// Never for the layouts shipped (a unit test compiles them).
    pub fn new() -> Self {
        let mut env = engine();
        for (style, source) in LAYOUTS {
            if let Err(err) = env.add_template(style, source) {
                tracing::error!(style, error = %err, "a built-in layout does not compile");
            }
        }
        Pages { env }
    }

    /// The page of `template` showing `page`: the template's own source when it has one,
    /// else its built-in layout (the generic one when the style is unknown).
    ///
    /// # Errors
    /// When the template fails to render.
    pub fn render(&self, template: &Template, page: &JumpPage) -> Result<String, PageError> {
        let context = page_context(page);
        if !template.body.is_empty() {
            return Ok(self
                .env
                .render_named_str("page.html", &template.body, context)?);
        }
        let style = if LAYOUTS.iter().any(|(s, _)| *s == template.style) {
            template.style.as_str()
        } else {
            "generic"
        };
        Ok(self.env.get_template(style)?.render(context)?)
    }
}

/// A custom template of `style` with page source `body` (empty: the layout), for rendering
/// outside the store (unit tests, fuzz targets).
#[cfg(any(test, feature = "fuzzing"))]
pub(crate) fn sample_template(style: &str, body: &str) -> Template {
    use crate::model::{TemplateId, TemplateKind};
    Template {
        id: TemplateId(9),
        user_id: None,
        name: "t".into(),
        style: style.into(),
        kind: TemplateKind::Custom,
        thumb: String::new(),
        body: body.into(),
        created_at: 0,
        updated_at: 0,
        retired_at: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn template(style: &str, body: &str) -> Template {
        sample_template(style, body)
    }

    fn hostile() -> JumpPage {
        JumpPage {
            title: "<script>alert(1)</script>".into(),
            sub_title: "\" onmouseover=\"alert(2)".into(),
            desc: "<img src=x onerror=alert(3)>".into(),
            guide_text: "'><svg onload=alert(4)>".into(),
            account: "<b>id</b>".into(),
            avatar: safe_url("javascript:alert(5)"),
            image: safe_url("https://cdn.example.com/qr.png"),
            show_type: 1,
            scan_tips: true,
            button_url: safe_url("weixin://dl/business/?appid=wx1&path=pages/index"),
            button_label: "Open".into(),
        }
    }

    #[test]
    fn a_page_source_that_loops_without_end_is_refused() {
        assert!(check_source("<p>{% for c in title %}{{ c }}{% endfor %}</p>").is_ok());
        let endless =
            "{% for i in range(100000) %}{% for j in range(100000) %}.{% endfor %}{% endfor %}";
        let err = check_source(endless).expect_err("out of fuel");
        assert!(err.to_string().contains("fuel"), "{err}");
        // The same source saved before the check existed fails at render, not forever.
        assert!(
            Pages::new()
                .render(&template("generic", endless), &hostile())
                .is_err()
        );
    }

    #[test]
    fn only_web_and_app_urls_reach_attributes() {
        assert!(safe_url("https://example.com/a?b=c").is_some());
        assert!(safe_url("weixin://dl/business/?appid=wx1&path=p").is_some());
        for bad in [
            "javascript:alert(1)",
            "JavaScript:alert(1)",
            "data:text/html,<script>alert(1)</script>",
            "file:///etc/passwd",
            "https://exa mple.com/",
            "vbscript:msgbox(1)",
            "",
        ] {
            assert_eq!(safe_url(bad), None, "{bad}");
        }
        // What could close an attribute is percent-encoded.
        let quoted = safe_url("https://example.com/\"><script>").expect("a URL");
        assert!(!quoted.contains(['"', '<', '>']), "{quoted}");
    }

    /// The text a browser reads from an attribute: character references decoded.
    fn attribute_text(html: &str) -> String {
        let mut out = String::new();
        let mut rest = html;
        while let Some(at) = rest.find('&') {
            out.push_str(&rest[..at]);
            rest = &rest[at..];
            let end = rest.find(';').expect("a terminated reference");
            let decoded = match &rest[1..end] {
                "amp" => '&',
                "lt" => '<',
                "gt" => '>',
                "quot" => '"',
                hex => {
                    let code = u32::from_str_radix(hex.trim_start_matches("#x"), 16);
                    char::from_u32(code.expect("a hex reference")).expect("a character")
                }
            };
            out.push(decoded);
            rest = &rest[end + 1..];
        }
        out.push_str(rest);
        out
    }

    #[test]
    fn every_layout_renders_and_escapes_what_it_shows() {
        let pages = Pages::new();
        for style in ["generic", "card", "poster", "unknown-style"] {
            let html = pages
                .render(&template(style, ""), &hostile())
                .expect("renders");
            assert!(!html.contains("<script>alert"), "{style}: {html}");
            assert!(!html.contains("<img src=x"), "{style}");
            assert!(!html.contains("<svg onload"), "{style}");
            assert!(!html.contains("\" onmouseover"), "{style}");
            assert!(!html.contains("javascript:"), "{style}");
            let text = attribute_text(&html);
            assert!(
                text.contains("src=\"https://cdn.example.com/qr.png\""),
                "{style}"
            );
            assert!(
                text.contains("href=\"weixin://dl/business/?appid=wx1&path=pages/index\""),
                "{style}: {html}"
            );
            assert!(html.contains("&lt;script&gt;"), "{style}");
        }
    }

    #[test]
    fn a_custom_body_is_escaped_too() {
        let pages = Pages::new();
        let html = pages
            .render(&template("generic", "<h1>{{ title }}</h1>"), &hostile())
            .expect("renders");
        assert_eq!(
            html,
            "<h1>&lt;script&gt;alert&#x28;1&#x29;&lt;&#x2f;script&gt;</h1>"
        );
    }

    #[test]
    fn a_template_cannot_turn_escaping_off() {
        let pages = Pages::new();
        let page = JumpPage {
            title: "<meta http-equiv=\"refresh\" content=\"0;url=https://evil.example/\">".into(),
            sub_title: "<b>bold</b>".into(),
            desc: "x onerror=alert(1) src=https://evil.example/".into(),
            ..JumpPage::default()
        };
        let body = "<h1>{{ title|safe }}</h1>\
                    {% autoescape false %}<p>{{ sub_title }}</p>{% endautoescape %}\
                    <img alt={{ desc }}><i>{{ desc|e|safe }}</i><a href=\"{{ button_url }}\">";
        let html = pages
            .render(&template("generic", body), &page)
            .expect("renders");
        assert!(!html.contains("<meta"), "{html}");
        assert!(!html.contains("<b>"), "{html}");
        // The unquoted value is one attribute value: no space, quote or `=` of its own.
        let alt = html
            .split("<img alt=")
            .nth(1)
            .expect("the image")
            .split('>')
            .next();
        assert!(
            alt.is_some_and(|v| !v.contains([' ', '"', '\'', '='])),
            "{html}"
        );
        assert_eq!(attribute_text(alt.unwrap_or_default()), page.desc);
        // An absent URL renders as nothing, not as `none`.
        assert!(html.ends_with("<a href=\"\">"), "{html}");
    }

    #[test]
    fn inert_text_reads_back_as_the_text() {
        for text in [
            "plain",
            "a < b & \"c\" = 'd'",
            "换行\n和 tab\t",
            "`x` /y\\z",
            "",
        ] {
            let inert = inert_text(text);
            assert!(
                !inert.contains(['<', '>', '"', '\'', ' ', '=', '`']),
                "{inert}"
            );
            assert_eq!(attribute_text(&inert), text);
        }
    }
}
