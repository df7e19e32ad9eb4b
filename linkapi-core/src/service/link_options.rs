//! A short chain's options as a caller gives them (`redirect_status`, `valid_since`,
//! `max_visits`, the preview's `preview_title`, `preview_description` and `preview_image`),
//! checked and merged over what the chain has. What they do to a visit is the
//! redirect path's (`redirects`).

use super::{TextRule, check_text};
use crate::error::{Error, Result, names};
use crate::model::limits::{MAX_PREVIEW_TEXT, MAX_TITLE_CHARS, MAX_VISITS_LIMIT};
use crate::model::{LinkOptions, LinkPreview, RedirectStatus, Timestamp};

/// Options a create sets or an edit changes; `None` leaves one as it is (on a create: unset).
/// 0 (or an empty text) unsets one: the deployment's redirect status, no start, no visit
/// limit, no part of the preview.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct OptionsInput {
    /// 301, 302, 307 or 308; 0 the deployment's default.
    pub redirect_status: Option<i64>,
    /// Unix seconds before which the chain answers as an expired one; 0 none.
    pub valid_since: Option<Timestamp>,
    /// People's visits it serves in all; 0 unlimited.
    pub max_visits: Option<i64>,
    /// The preview's title.
    pub preview_title: Option<String>,
    /// The preview's text.
    pub preview_description: Option<String>,
    /// The preview's image, an http(s) URL.
    pub preview_image: Option<String>,
}

impl OptionsInput {
    /// Whether it changes nothing.
    pub fn is_empty(&self) -> bool {
        *self == OptionsInput::default()
    }

    /// `base` with these changes, checked against the chain's expiry `valid_time` (0
    /// permanent).
    ///
    /// # Errors
    /// 400 for a status that is not a redirect's, a negative or too large limit, a start
    /// before 1970 or after 9999, a preview's text too long or with control characters or
    /// an image that is not an http(s) URL; 422 for a start not before the chain's expiry.
    pub(crate) fn apply(self, base: &LinkOptions, valid_time: Timestamp) -> Result<LinkOptions> {
        let mut options = base.clone();
        if let Some(code) = self.redirect_status {
            options.redirect_status = match code {
                0 => None,
                code => Some(RedirectStatus::from_code(code).ok_or_else(|| {
                    Error::bad_request(
                        names::INVALID_REDIRECT_STATUS,
                        "redirect_status must be 301, 302, 307 or 308 (0: the deployment's)",
                    )
                })?),
            };
        }
        if let Some(limit) = self.max_visits {
            if !(0..=MAX_VISITS_LIMIT).contains(&limit) {
                return Err(Error::bad_request(
                    names::INVALID_MAX_VISITS,
                    format!("max_visits must be 0 (unlimited) to {MAX_VISITS_LIMIT}"),
                ));
            }
            options.max_visits = limit;
        }
        if let Some(since) = self.valid_since {
            if !(0..=crate::clock::LATEST).contains(&since) {
                return Err(Error::bad_request(
                    names::INVALID_VALID_SINCE_MALFORMED,
                    "valid_since must be Unix seconds before the year 10000 (0: none)",
                ));
            }
            options.valid_since = since;
        }
        options.preview = self.preview(base.preview.clone().unwrap_or_default())?;
        if options.valid_since != 0 && valid_time != 0 && options.valid_since >= valid_time {
            return Err(Error::unprocessable(
                names::INVALID_VALID_SINCE,
                "valid_since must be before valid_time: the chain would never serve",
            ));
        }
        Ok(options)
    }

    /// `base` with the preview's changes; `None` when nothing of it is left.
    fn preview(&self, mut preview: LinkPreview) -> Result<Option<LinkPreview>> {
        let text = |field: &str, text: &str, max: usize| {
            let rule = TextRule {
                max,
                required: false,
                lines: false,
                code: names::INVALID_PREVIEW,
            };
            check_text(field, text, rule)
        };
        if let Some(title) = &self.preview_title {
            preview.title = text("preview_title", title, MAX_TITLE_CHARS)?;
        }
        if let Some(description) = &self.preview_description {
            preview.description = text("preview_description", description, MAX_PREVIEW_TEXT)?;
        }
        if let Some(image) = &self.preview_image {
            preview.image = match image.trim() {
                "" => String::new(),
                image => crate::codes::validate_target_url(image).map_err(|err| {
                    let why = err.to_string().replacen("target_url", "preview_image", 1);
                    Error::bad_request(names::INVALID_PREVIEW, why)
                })?,
            };
        }
        Ok((!preview.is_empty()).then_some(preview))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn changes_merge_over_what_is_there_and_zero_unsets() {
        let base = LinkOptions {
            redirect_status: Some(RedirectStatus::Moved),
            valid_since: 100,
            max_visits: 5,
            preview: Some(LinkPreview {
                title: "Spring".into(),
                ..LinkPreview::default()
            }),
        };
        let only_limit = OptionsInput {
            max_visits: Some(9),
            ..OptionsInput::default()
        };
        let merged = only_limit.apply(&base, 0).expect("valid");
        assert_eq!(merged.max_visits, 9);
        assert_eq!(merged.redirect_status, Some(RedirectStatus::Moved));
        assert_eq!(merged.preview, base.preview);
        let image = OptionsInput {
            preview_image: Some(" https://img.example/a.png ".into()),
            ..OptionsInput::default()
        };
        let preview = image
            .apply(&base, 0)
            .expect("valid")
            .preview
            .expect("a preview");
        assert_eq!(
            (preview.title.as_str(), preview.image.as_str()),
            ("Spring", "https://img.example/a.png")
        );
        let unset = OptionsInput {
            redirect_status: Some(0),
            valid_since: Some(0),
            max_visits: Some(0),
            preview_title: Some(String::new()),
            preview_description: None,
            preview_image: Some(" ".into()),
        };
        assert!(unset.apply(&base, 0).expect("valid").is_empty());
    }

    #[test]
    fn bad_values_are_refused_with_their_names() {
        let refused = |input: OptionsInput, valid_time| {
            input
                .apply(&LinkOptions::default(), valid_time)
                .expect_err("refused")
                .code()
        };
        let status = OptionsInput {
            redirect_status: Some(303),
            ..OptionsInput::default()
        };
        assert_eq!(refused(status, 0), "invalid_redirect_status");
        let limit = OptionsInput {
            max_visits: Some(-1),
            ..OptionsInput::default()
        };
        assert_eq!(refused(limit, 0), "invalid_max_visits");
        let since = OptionsInput {
            valid_since: Some(200),
            ..OptionsInput::default()
        };
        assert_eq!(refused(since.clone(), 200), "invalid_valid_since");
        assert!(since.apply(&LinkOptions::default(), 201).is_ok());
        for bad in [
            OptionsInput {
                preview_image: Some("javascript:alert(1)".into()),
                ..OptionsInput::default()
            },
            OptionsInput {
                preview_title: Some("two\nlines".into()),
                ..OptionsInput::default()
            },
            OptionsInput {
                preview_description: Some("x".repeat(MAX_PREVIEW_TEXT + 1)),
                ..OptionsInput::default()
            },
        ] {
            assert_eq!(refused(bad, 0), "invalid_preview");
        }
    }
}
