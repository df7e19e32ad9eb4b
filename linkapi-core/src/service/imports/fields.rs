//! The rules of an imported item's own fields that differ from a create's: targets kept byte
//! for byte, titles folded onto one line, times read in any form and never in the future.

use super::super::bulk::ItemError;
use crate::clock::parse_flexible;
use crate::codes::validate_target_url;
use crate::error::{Error, names};
use crate::model::Timestamp;

/// A 400 of an item's field.
pub(super) fn field(code: names::Name<400>, message: &str) -> ItemError {
    Error::bad_request(code, message.to_owned()).into()
}

/// A time of an item (`created_at`, `archived_at`) read from its text: not after `now`.
pub(super) fn past_time(
    name: &str,
    text: &str,
    now: Timestamp,
) -> std::result::Result<Timestamp, ItemError> {
    let at = parse_flexible(text).ok_or_else(|| {
        field(
            names::INVALID_FIELD,
            &format!("{name} {text:?} is not RFC 3339, YYYY-MM-DD HH:MM:SS (UTC) or Unix seconds"),
        )
    })?;
    if at > now {
        return Err(field(
            names::INVALID_FIELD,
            &format!("{name} {text:?} is in the future"),
        ));
    }
    Ok(at)
}

/// The target an import stores: `raw` byte for byte, its non-ASCII characters percent-encoded
/// (as a browser sends them), if that is a valid target; else the form every create stores.
/// Answers whether it differs from `raw`.
pub(super) fn import_target(raw: &str) -> std::result::Result<(String, bool), ItemError> {
    let mut encoded = String::with_capacity(raw.len());
    for c in raw.chars() {
        if c.is_ascii() {
            encoded.push(c);
        } else {
            let mut buf = [0; 4];
            for byte in c.encode_utf8(&mut buf).bytes() {
                encoded.push_str(&format!("%{byte:02X}"));
            }
        }
    }
    let kept = encoded.trim_matches(' ') == encoded && validate_target_url(&encoded).is_ok();
    if kept {
        let changed = encoded != raw;
        return Ok((encoded, changed));
    }
    let stored = validate_target_url(raw)
        .map_err(|e| Error::bad_request(names::INVALID_TARGET_URL, e.to_string()))?;
    let changed = stored != raw;
    Ok((stored, changed))
}

/// `text` with line breaks, tabs and other control characters made spaces (`\r\n` one).
pub(super) fn fold_controls(text: &str) -> String {
    text.replace("\r\n", " ")
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn targets_are_kept_byte_for_byte_unless_they_are_not_ascii() {
        let kept = "https://93.184.215.14/a%20b?q=1#frag";
        assert_eq!(import_target(kept).ok(), Some((kept.to_owned(), false)));
        // No trailing slash is added, unlike a create's normalized form.
        let bare = "https://Example.com";
        assert_eq!(import_target(bare).ok(), Some((bare.to_owned(), false)));
        assert_eq!(
            import_target("https://93.184.215.14/路").ok(),
            Some(("https://93.184.215.14/%E8%B7%AF".to_owned(), true))
        );
        assert!(import_target("ftp://93.184.215.14/").is_err());
        assert!(import_target("not a url").is_err());
    }

    #[test]
    fn titles_fold_line_breaks_to_spaces() {
        assert_eq!(fold_controls("a\r\nb\nc\td"), "a b c d");
        assert_eq!(fold_controls("plain \"quoted\""), "plain \"quoted\"");
    }
}
