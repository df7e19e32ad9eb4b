//! Free text a person gives (titles, names, page text, searches), and hex digests: the
//! checks every area shares.

use crate::error::{Error, Result};

/// How a piece of free text a person gave (a title, a name, page text, a search) is checked.
#[derive(Debug, Clone, Copy)]
pub(crate) struct TextRule {
    /// Longest, in characters, after trimming.
    pub(crate) max: usize,
    /// Whether empty is refused.
    pub(crate) required: bool,
    /// Whether line breaks are allowed (page text).
    pub(crate) lines: bool,
    /// The error's short name.
    pub(crate) code: crate::error::names::Name<400>,
}

/// Unicode's bidirectional embeddings, overrides and isolates: invisible, and able to make a
/// title read differently from what it holds.
pub(crate) fn is_bidi_control(c: char) -> bool {
    matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

/// `text` trimmed, or why it is refused: empty when required, too long, a control character
/// (NUL included; line breaks only where `rule.lines`), or a bidirectional override.
pub(crate) fn check_text(field: &str, text: &str, rule: TextRule) -> Result<String> {
    let refuse = |why: String| Err(Error::bad_request(rule.code, format!("{field} {why}")));
    // Length and characters are judged on the text as given, as the schemas state them: a tab
    // or vertical tab at either end is refused, not trimmed away.
    if text.chars().count() > rule.max {
        return refuse(format!("is longer than {} characters", rule.max));
    }
    if text
        .chars()
        .any(|c| c.is_control() && !(rule.lines && c == '\n'))
    {
        return refuse("may not contain control characters".into());
    }
    if text.chars().any(is_bidi_control) {
        return refuse("may not contain bidirectional override characters".into());
    }
    let text = text.trim();
    if rule.required && text.is_empty() {
        return refuse("must not be empty".into());
    }
    Ok(text.to_owned())
}

/// Lower-case hex of a digest (key hashes, object keys).
pub(crate) fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write;
    bytes
        .iter()
        .fold(String::with_capacity(bytes.len() * 2), |mut out, b| {
            let _ = write!(out, "{b:02x}");
            out
        })
}
