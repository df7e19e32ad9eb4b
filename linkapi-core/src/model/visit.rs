//! What a visit is classified by: the breakdowns statistics are read in, and the device classes
//! visits (and redirect rules) are sorted into.

use std::fmt;

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
