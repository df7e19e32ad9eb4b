//! Which redirect rule a visit matches, on the redirect path against what the visit was
//! classified as ([`super::classify`]), from the link cache: twenty rules cost well under a
//! microsecond.

use super::classify::{AgentClass, Country, Language};
use crate::model::{DeviceClass, RedirectRule, RuleDevice};

/// What a visit is, as rules look at it.
pub(crate) struct RuleVisit<'a> {
    pub(crate) agent: &'a AgentClass,
    pub(crate) country: Option<Country>,
    pub(crate) language: Option<Language>,
    /// The short link's query string, without `?` (empty for none).
    pub(crate) query: &'a str,
}

/// The position (from 0) of the first of `rules` that `visit` meets every condition of.
pub(crate) fn first_match(rules: &[RedirectRule], visit: &RuleVisit<'_>) -> Option<usize> {
    // Parsed once, and only when a rule asks about the query.
    let mut query: Option<Vec<(String, String)>> = None;
    rules.iter().position(|rule| {
        rule.device.is_none_or(|d| device_matches(d, visit.agent))
            && rule
                .country
                .as_deref()
                .is_none_or(|c| visit.country.is_some_and(|v| v.as_str() == c))
            && rule
                .language
                .as_deref()
                .is_none_or(|l| visit.language.is_some_and(|v| v.as_str() == l))
            && (rule.query.is_empty() || {
                let pairs = query.get_or_insert_with(|| {
                    url::form_urlencoded::parse(visit.query.as_bytes())
                        .into_owned()
                        .collect()
                });
                rule.query
                    .iter()
                    .all(|(name, value)| pairs.iter().any(|(n, v)| n == name && v == value))
            })
    })
}

fn device_matches(device: RuleDevice, agent: &AgentClass) -> bool {
    let handheld = matches!(agent.device, DeviceClass::Mobile | DeviceClass::Tablet);
    match device {
        RuleDevice::Ios => handheld && &*agent.os == "iOS",
        RuleDevice::Android => handheld && &*agent.os == "Android",
        RuleDevice::Mobile => agent.device == DeviceClass::Mobile,
        RuleDevice::Tablet => agent.device == DeviceClass::Tablet,
        RuleDevice::Desktop => agent.device == DeviceClass::Desktop,
    }
}
