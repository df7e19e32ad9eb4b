//! What a visit is classified by: the breakdowns statistics are read in, the device classes
//! visits are sorted into, the redirect rules that send some visitors elsewhere, and the
//! kinds of orphan visits (requests that reached no chain).

use std::collections::BTreeMap;
use std::fmt;

use serde::{Deserialize, Serialize};

/// What an orphan visit asked for: a request of a short-link domain that reached no chain.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum OrphanKind {
    /// The domain's base URL, `/`.
    BaseUrl,
    /// A code no live chain has: never made, deleted, disabled, or its owner's links halted.
    UnknownCode,
    /// A path that cannot be a code (several segments, characters codes do not have, a
    /// reserved word) that no route answers.
    ReservedPath,
}

impl OrphanKind {
    /// Every kind, in the order listings give them.
    pub const ALL: [OrphanKind; 3] = [
        OrphanKind::BaseUrl,
        OrphanKind::UnknownCode,
        OrphanKind::ReservedPath,
    ];

    /// The name in the API.
    pub fn name(self) -> &'static str {
        match self {
            OrphanKind::BaseUrl => "base_url",
            OrphanKind::UnknownCode => "unknown_code",
            OrphanKind::ReservedPath => "reserved_path",
        }
    }

    /// The stored integer.
    pub fn code(self) -> i64 {
        match self {
            OrphanKind::BaseUrl => 1,
            OrphanKind::UnknownCode => 2,
            OrphanKind::ReservedPath => 3,
        }
    }

    /// The kind of a stored integer.
    pub fn from_code(code: i64) -> Option<Self> {
        Self::ALL.into_iter().find(|k| k.code() == code)
    }
}

/// A way visits of a chain are broken down. Each visit by a person counts once in every
/// dimension; bots count only in [`Dimension::Devices`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Dimension {
    /// The host of the page the visitor came from (`Referer`), `direct` without one.
    Referrers,
    /// [`DeviceClass`].
    Devices,
    /// Operating system family (`iOS`, `Android`, `Windows`, `macOS`, `Linux`, ...).
    Os,
    /// Browser family (`Chrome`, `Safari`, `Firefox`, ...).
    Browsers,
    /// ISO 3166-1 alpha-2 country of the client address, `unknown` without a database.
    Countries,
    /// Primary subtag of the first `Accept-Language` entry, lower case.
    Languages,
    /// Which redirect rule served the visit (its position, from 1), `default` for none.
    Rules,
}

impl Dimension {
    /// Every dimension, in the order the API lists them.
    pub const ALL: [Dimension; 7] = [
        Dimension::Referrers,
        Dimension::Devices,
        Dimension::Os,
        Dimension::Browsers,
        Dimension::Countries,
        Dimension::Languages,
        Dimension::Rules,
    ];

    /// The name in paths (`/chains/{id}/stats/{dimension}`) and the CLI.
    pub fn name(self) -> &'static str {
        match self {
            Dimension::Referrers => "referrers",
            Dimension::Devices => "devices",
            Dimension::Os => "os",
            Dimension::Browsers => "browsers",
            Dimension::Countries => "countries",
            Dimension::Languages => "languages",
            Dimension::Rules => "rules",
        }
    }

    /// Reads a name.
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|d| d.name() == name)
    }

    /// The value most visits have where the visit tells nothing, which is not stored: its
    /// visits are the dimension's share of the day's people's visits that no stored value
    /// accounts for. So the common case writes nothing, and visits counted before breakdowns
    /// existed read as this value, which is true of them (nothing was known).
    pub fn implicit_value(self) -> Option<&'static str> {
        match self {
            Dimension::Countries | Dimension::Languages => Some(UNKNOWN),
            Dimension::Rules => Some(DEFAULT_RULE),
            Dimension::Referrers | Dimension::Devices | Dimension::Os | Dimension::Browsers => None,
        }
    }

    /// The stored integer.
    pub fn code(self) -> i64 {
        match self {
            Dimension::Referrers => 1,
            Dimension::Devices => 2,
            Dimension::Os => 3,
            Dimension::Browsers => 4,
            Dimension::Countries => 5,
            Dimension::Languages => 6,
            Dimension::Rules => 7,
        }
    }
}

/// The referrer of a visit without one.
pub const DIRECT: &str = "direct";
/// The country or language of a visit that tells none.
pub const UNKNOWN: &str = "unknown";
/// The rule of a visit no redirect rule served.
pub const DEFAULT_RULE: &str = "default";

impl fmt::Display for Dimension {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The kind of device a visit came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum DeviceClass {
    /// A computer.
    Desktop,
    /// A phone.
    Mobile,
    /// A tablet.
    Tablet,
    /// A crawler, link checker or preview fetcher.
    Bot,
    /// Anything else (consoles, TVs, agents no one recognises).
    Other,
}

impl DeviceClass {
    /// The value in breakdowns and redirect rules.
    pub fn name(self) -> &'static str {
        match self {
            DeviceClass::Desktop => "desktop",
            DeviceClass::Mobile => "mobile",
            DeviceClass::Tablet => "tablet",
            DeviceClass::Bot => "bot",
            DeviceClass::Other => "other",
        }
    }
}

impl fmt::Display for DeviceClass {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What a redirect rule's `device` condition matches.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RuleDevice {
    /// iOS on a phone or tablet.
    Ios,
    /// Android on a phone or tablet.
    Android,
    /// A phone.
    Mobile,
    /// A tablet.
    Tablet,
    /// A computer.
    Desktop,
}

impl RuleDevice {
    /// Every value, in the order the API lists them.
    pub const ALL: [RuleDevice; 5] = [
        RuleDevice::Ios,
        RuleDevice::Android,
        RuleDevice::Mobile,
        RuleDevice::Tablet,
        RuleDevice::Desktop,
    ];

    /// The value in rules.
    pub fn name(self) -> &'static str {
        match self {
            RuleDevice::Ios => "ios",
            RuleDevice::Android => "android",
            RuleDevice::Mobile => "mobile",
            RuleDevice::Tablet => "tablet",
            RuleDevice::Desktop => "desktop",
        }
    }

    /// Reads a value.
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|d| d.name() == name)
    }
}

/// A short chain's redirect rule: visitors that meet every condition it has (at least one) go
/// to its `target_url` instead of the chain's. A chain's rules are tried in order; the first
/// that matches wins. Stored as JSON in this shape.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RedirectRule {
    /// The visitor's device.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub device: Option<RuleDevice>,
    /// The visitor's country, ISO 3166-1 alpha-2, upper case.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub country: Option<String>,
    /// The primary subtag of the visitor's first `Accept-Language` entry, lower case.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub language: Option<String>,
    /// Query parameters the short link was visited with, each with exactly this value.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub query: BTreeMap<String, String>,
    /// Where matching visitors go.
    pub target_url: String,
}

/// Rules a short chain may have.
pub const MAX_REDIRECT_RULES: usize = 20;
/// Query conditions a rule may have.
pub const MAX_RULE_QUERY_PARAMS: usize = 10;
/// Longest query parameter name or value a rule may name.
pub const MAX_RULE_QUERY_LEN: usize = 256;

/// Distinct values kept per chain, day and dimension; visits with further values of that day
/// are counted in the breakdown's `other_clicks`, so a flood of made-up referrers cannot grow
/// storage without bound.
pub const MAX_BREAKDOWN_VALUES: i64 = 100;

/// Longest value kept (a referrer's host name at most); longer ones are cut.
pub const MAX_BREAKDOWN_VALUE_LEN: usize = 253;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dimensions_read_back_by_name_and_have_distinct_codes() {
        for d in Dimension::ALL {
            assert_eq!(Dimension::from_name(d.name()), Some(d));
        }
        let mut codes: Vec<_> = Dimension::ALL.iter().map(|d| d.code()).collect();
        codes.dedup();
        assert_eq!(codes.len(), Dimension::ALL.len());
        assert_eq!(Dimension::from_name("Referrers"), None);
    }
}
