//! What every kind of chain is checked against (title, expiry, search, group filter, target),
//! the codes a new chain tries and the errors of taken codes, and the page window of
//! listings, and what a create answers (`CreatedChain`): shared by short chains, page chains
//! and listings.

use super::{TextRule, check_text};
use crate::codes::{is_reserved, random_code, validate_target_url};
use crate::error::{Error, Result, names};
use crate::model::limits::{MAX_PAGE_SIZE, MAX_TITLE_CHARS};
use crate::model::{ChainView, GroupId, Timestamp};

/// A chain just created and the caller's count of chains created today.
#[derive(Debug, Clone)]
pub struct CreatedChain {
    /// The chain.
    pub view: ChainView,
    /// Chains created today (in the deployment's time zone), this one included.
    pub created_today: i64,
}

/// The random codes a new chain tries in turn: a few at `code_length`, then a few at each of
/// some longer lengths, reserved words left out.
pub(super) fn random_codes(code_length: usize) -> impl Iterator<Item = String> {
    let base = code_length.max(1);
    (0..TRIES_PER_LENGTH * (EXTRA_LENGTHS + 1))
        .map(move |attempt| random_code(base + attempt / TRIES_PER_LENGTH))
        .filter(|code| !is_reserved(code))
}

/// A custom code that another chain on the domain has.
pub(super) fn code_taken(code: &str) -> Error {
    Error::Conflict {
        code: names::CODE_TAKEN,
        message: format!("code {code:?} is already taken on this domain"),
    }
}

/// What follows when every random code a chain tried was taken.
pub(super) fn no_free_code() -> Error {
    Error::Internal("no free code after repeated collisions; raise the code length".into())
}

/// Page size when none is asked for.
pub const DEFAULT_PAGE_SIZE: i64 = 20;
/// Random codes tried at one length before the next is longer.
const TRIES_PER_LENGTH: usize = 3;
/// Lengths tried beyond the configured one before giving up.
const EXTRA_LENGTHS: usize = 3;

pub(super) fn check_title(title: Option<String>) -> Result<Option<String>> {
    title
        .map(|t| {
            check_text(
                "chain_title",
                &t,
                TextRule {
                    max: MAX_TITLE_CHARS,
                    required: false,
                    lines: false,
                    code: names::INVALID_TITLE,
                },
            )
        })
        .transpose()
}

/// A listing's search text: absent when empty; NUL and other control characters refused
/// (SQLite would read a NUL as the end of the pattern).
/// A listing's group filter: a group id, or 0 for none.
pub(super) fn check_group_filter(group_id: Option<GroupId>) -> Result<Option<GroupId>> {
    match group_id {
        Some(GroupId(id)) if id < 0 => Err(Error::bad_request(
            names::INVALID_GROUP_MALFORMED,
            "group_id must be a group id, or 0 for every group",
        )),
        Some(GroupId(0)) => Ok(None),
        other => Ok(other),
    }
}

pub(super) fn check_search(text: Option<String>) -> Result<Option<String>> {
    let text = text
        .map(|t| {
            check_text(
                "the search text",
                &t,
                TextRule {
                    max: MAX_TITLE_CHARS,
                    required: false,
                    lines: false,
                    code: names::INVALID_QUERY,
                },
            )
        })
        .transpose()?;
    Ok(text.filter(|t| !t.is_empty()))
}

pub(super) fn check_target(url: &str) -> Result<String> {
    validate_target_url(url)
        .map_err(|e| Error::bad_request(names::INVALID_TARGET_URL, e.to_string()))
}

pub(super) fn check_valid_time(valid_time: Timestamp, now: Timestamp) -> Result<()> {
    if valid_time > crate::clock::LATEST {
        return Err(Error::bad_request(
            names::INVALID_VALID_TIME_MALFORMED,
            "valid_time must be before the year 10000",
        ));
    }
    if valid_time < 0 || (valid_time != 0 && valid_time <= now) {
        return Err(Error::unprocessable(
            names::INVALID_VALID_TIME,
            "valid_time must be 0 (permanent) or a time in the future",
        ));
    }
    Ok(())
}

/// A page of a listing as asked for: `page` from 1, `size` from 1 to [`MAX_PAGE_SIZE`].
#[derive(Debug, Clone, Copy)]
pub(super) struct PageWindow {
    pub(super) page: i64,
    pub(super) size: i64,
}

impl PageWindow {
    /// Checks a requested page; absent values take the defaults.
    pub(super) fn new(page: Option<i64>, size: Option<i64>) -> Result<Self> {
        let page = page.unwrap_or(1);
        let size = size.unwrap_or(DEFAULT_PAGE_SIZE);
        if page < 1 {
            return Err(Error::bad_request(names::INVALID_PAGE, "page starts at 1"));
        }
        if !(1..=MAX_PAGE_SIZE).contains(&size) {
            return Err(Error::bad_request(
                names::INVALID_PAGE_SIZE,
                format!("page_size must be 1 to {MAX_PAGE_SIZE}"),
            ));
        }
        Ok(PageWindow { page, size })
    }

    /// Rows to skip.
    pub(super) fn offset(self) -> i64 {
        (self.page - 1).saturating_mul(self.size)
    }
}
