//! The page a link-preview agent (a bot) gets for a short chain with a preview: Open Graph and
//! Twitter card tags, and the same text as a plain page. Every value is written through
//! [`inert_text`], the image only through [`safe_url`] as well; the chain's target is not on it.

use super::{inert_text, safe_url};
use crate::model::LinkPreview;

/// The preview page of `preview`.
pub fn preview_page(preview: &LinkPreview) -> String {
    let title = inert_text(&preview.title);
    let description = inert_text(&preview.description);
    let image = safe_url(&preview.image).map(|url| inert_text(&url));
    let mut tags = Vec::new();
    let mut tag = |attribute: &str, name: &str, value: &str| {
        if !value.is_empty() {
            tags.push(format!("<meta {attribute}=\"{name}\" content=\"{value}\">"));
        }
    };
    tag("property", "og:type", "website");
    tag("property", "og:title", &title);
    tag("property", "og:description", &description);
    tag("property", "og:image", image.as_deref().unwrap_or(""));
    let card = if image.is_some() {
        "summary_large_image"
    } else {
        "summary"
    };
    tag("name", "twitter:card", card);
    tag("name", "twitter:title", &title);
    tag("name", "twitter:description", &description);
    tag("name", "twitter:image", image.as_deref().unwrap_or(""));
    tag("name", "description", &description);
    tag("name", "robots", "noindex");
    let heading = if title.is_empty() {
        String::new()
    } else {
        format!("<h1>{title}</h1>")
    };
    format!(
        "<!doctype html><html><head><meta charset=\"utf-8\"><title>{title}</title>\n{}\n\
         </head><body>{heading}<p>{description}</p></body></html>\n",
        tags.join("\n")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_part_is_inert_and_only_web_images_are_shown() {
        let page = preview_page(&LinkPreview {
            title: "Sale \"50%\" <script>alert(1)</script>".into(),
            description: "a' onload='x".into(),
            image: "javascript:alert(1)".into(),
        });
        assert!(!page.contains("<script"), "{page}");
        assert!(!page.contains("onload='"), "{page}");
        assert!(!page.contains("javascript"), "{page}");
        assert!(page.contains("<meta name=\"twitter:card\" content=\"summary\">"));
        let with_image = preview_page(&LinkPreview {
            image: "https://img.example/card.png".into(),
            ..LinkPreview::default()
        });
        assert!(with_image.contains("content=\"summary_large_image\""));
        assert!(with_image.contains("og:image"));
        assert!(
            !with_image.contains("og:title"),
            "no empty tags: {with_image}"
        );
    }
}
