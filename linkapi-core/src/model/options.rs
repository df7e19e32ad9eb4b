//! A short chain's options beyond its target: how its redirect answers, the visits and
//! times it serves in, and the preview link-preview agents are shown. Stored as JSON beside the chain, in this shape; absent for a chain
//! without any (nearly all), which the redirect path then never looks at.

use serde::{Deserialize, Serialize};

use super::Timestamp;

/// The status a short chain's redirect answers with.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "u16", into = "u16")]
pub enum RedirectStatus {
    /// 301 Moved Permanently.
    Moved,
    /// 302 Found: the default.
    #[default]
    Found,
    /// 307 Temporary Redirect: the method and body are kept.
    Temporary,
    /// 308 Permanent Redirect: the method and body are kept.
    Permanent,
}

impl RedirectStatus {
    /// Every status a chain may answer with, in order.
    pub const ALL: [RedirectStatus; 4] = [
        RedirectStatus::Moved,
        RedirectStatus::Found,
        RedirectStatus::Temporary,
        RedirectStatus::Permanent,
    ];

    /// The HTTP status code.
    pub fn code(self) -> u16 {
        match self {
            RedirectStatus::Moved => 301,
            RedirectStatus::Found => 302,
            RedirectStatus::Temporary => 307,
            RedirectStatus::Permanent => 308,
        }
    }

    /// The status of an HTTP status code: 301, 302, 307 or 308.
    pub fn from_code(code: i64) -> Option<Self> {
        Self::ALL.into_iter().find(|s| i64::from(s.code()) == code)
    }
}

impl From<RedirectStatus> for u16 {
    fn from(status: RedirectStatus) -> u16 {
        status.code()
    }
}

impl TryFrom<u16> for RedirectStatus {
    type Error = String;

    fn try_from(code: u16) -> Result<Self, String> {
        Self::from_code(i64::from(code))
            .ok_or_else(|| format!("{code} is not a redirect status (301, 302, 307 or 308)"))
    }
}

/// A short chain's options; each absent (`None`, 0) when not set.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LinkOptions {
    /// The status its redirects answer with; the deployment's default when `None`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub redirect_status: Option<RedirectStatus>,
    /// Unix seconds before which it answers as an expired chain does; 0 from its creation.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub valid_since: Timestamp,
    /// Visits (of people: bots and `HEAD` take none) it serves in all; past them it answers
    /// as an expired chain does. 0 unlimited.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub max_visits: i64,
    /// What link-preview agents are shown instead of the redirect; `None` for the redirect.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub preview: Option<LinkPreview>,
}

/// The social preview of a short chain: a page with Open Graph and Twitter card tags that
/// link-preview agents (bots) get instead of the redirect. Each part empty when not set; at
/// least one is set.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LinkPreview {
    /// The card's title.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub title: String,
    /// The card's text.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub description: String,
    /// The card's image: an http(s) URL.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub image: String,
}

impl LinkPreview {
    /// Its text's bytes, which a cached link carries.
    pub fn len(&self) -> usize {
        self.title.len() + self.description.len() + self.image.len()
    }

    /// Whether no part is set.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[allow(
    clippy::trivially_copy_pass_by_ref,
    reason = "serde's skip_serializing_if passes a reference"
)]
fn is_zero(value: &i64) -> bool {
    *value == 0
}

impl LinkOptions {
    /// Whether no option is set.
    pub fn is_empty(&self) -> bool {
        *self == LinkOptions::default()
    }

    /// Bytes it holds beyond its fixed fields (a cached link weighs them).
    pub fn text_len(&self) -> usize {
        self.preview.as_ref().map_or(0, LinkPreview::len)
    }

    /// Whether a visit at `now` is before the chain's start.
    pub fn not_yet(&self, now: Timestamp) -> bool {
        self.valid_since != 0 && now < self.valid_since
    }
}
