//! Redirect rules of short chains: checking the rules a caller gives. Which rule a visit
//! matches is the engine's (`engine::rule_match`).

use std::collections::BTreeMap;

use super::engine::classify::{Country, Language};
use crate::codes::validate_target_url;
use crate::error::{Error, Result, names};
use crate::model::{
    MAX_REDIRECT_RULES, MAX_RULE_QUERY_LEN, MAX_RULE_QUERY_PARAMS, RedirectRule, RuleDevice,
};

/// A redirect rule as a caller gives it, unchecked.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RuleInput {
    /// `ios`, `android`, `mobile`, `tablet` or `desktop`.
    pub device: Option<String>,
    /// ISO 3166-1 alpha-2 (any case).
    pub country: Option<String>,
    /// A language code of two or three letters (any case).
    pub language: Option<String>,
    /// Query parameters and the values they must have; given, at least one.
    pub query: Option<BTreeMap<String, String>>,
    /// Where matching visitors go.
    pub target_url: String,
}

/// `rules` checked: at most [`MAX_REDIRECT_RULES`], each with at least one condition, every
/// condition and target valid.
///
/// # Errors
/// 400 `invalid_rules` naming the rule and what is wrong with it, or `invalid_target_url`.
pub fn check_rules(rules: Vec<RuleInput>) -> Result<Vec<RedirectRule>> {
    if rules.len() > MAX_REDIRECT_RULES {
        return Err(invalid(format!(
            "a chain has at most {MAX_REDIRECT_RULES} rules"
        )));
    }
    rules
        .into_iter()
        .enumerate()
        .map(|(index, rule)| check_rule(index + 1, rule))
        .collect()
}

fn invalid(message: String) -> Error {
    Error::bad_request(names::INVALID_RULES, message)
}

fn check_rule(position: usize, rule: RuleInput) -> Result<RedirectRule> {
    let at = |what: String| invalid(format!("rule {position}: {what}"));
    let device = rule
        .device
        .map(|d| {
            RuleDevice::from_name(&d).ok_or_else(|| {
                at(format!(
                    "device {d:?} is none of ios, android, mobile, tablet, desktop"
                ))
            })
        })
        .transpose()?;
    let country = rule
        .country
        .map(|c| {
            Country::new(&c)
                .map(|c| c.as_str().to_owned())
                .ok_or_else(|| at(format!("country {c:?} is not two letters (ISO 3166-1)")))
        })
        .transpose()?;
    let language = rule
        .language
        .map(|l| {
            Language::new(&l)
                .map(|l| l.as_str().to_owned())
                .ok_or_else(|| {
                    at(format!(
                        "language {l:?} is not a code of two or three letters"
                    ))
                })
        })
        .transpose()?;
    let gives_empty_query = rule.query.as_ref().is_some_and(BTreeMap::is_empty);
    let query = rule.query.unwrap_or_default();
    if gives_empty_query {
        return Err(at("query has no parameters".to_owned()));
    }
    if query.len() > MAX_RULE_QUERY_PARAMS {
        return Err(at(format!(
            "at most {MAX_RULE_QUERY_PARAMS} query parameters"
        )));
    }
    for (name, value) in &query {
        let bad =
            |s: &str| s.chars().any(char::is_control) || s.chars().count() > MAX_RULE_QUERY_LEN;
        if name.is_empty() || bad(name) || bad(value) {
            return Err(at(format!(
                "query parameter {name:?} must be a name and a value of at most \
                 {MAX_RULE_QUERY_LEN} characters without control characters"
            )));
        }
    }
    if device.is_none() && country.is_none() && language.is_none() && query.is_empty() {
        return Err(at(
            "no condition: give a device, country, language or query".to_owned(),
        ));
    }
    let target_url = validate_target_url(&rule.target_url).map_err(|e| {
        Error::bad_request(
            names::INVALID_TARGET_URL,
            format!("rule {position}: target_url: {e}"),
        )
    })?;
    Ok(RedirectRule {
        device,
        country,
        language,
        query,
        target_url,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::service::engine::classify::classify_agent;
    use crate::service::engine::rule_match::{RuleVisit, first_match};

    const IPHONE: &str = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) \
        AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1";
    const ANDROID: &str = "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 \
        (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36";
    const DESKTOP: &str =
        "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:121.0) Gecko/20100101 Firefox/121.0";

    fn rule(device: Option<&str>, country: Option<&str>, target: &str) -> RuleInput {
        RuleInput {
            device: device.map(str::to_owned),
            country: country.map(str::to_owned),
            target_url: target.to_owned(),
            ..RuleInput::default()
        }
    }

    #[test]
    fn rules_are_checked_and_normalized() {
        let checked = check_rules(vec![RuleInput {
            country: Some("cn".into()),
            language: Some("ZH".into()),
            target_url: "https://e.com/zh".into(),
            ..RuleInput::default()
        }])
        .expect("a valid rule");
        assert_eq!(checked[0].country.as_deref(), Some("CN"));
        assert_eq!(checked[0].language.as_deref(), Some("zh"));
        let refused = |rules: Vec<RuleInput>, code: &str| {
            let err = check_rules(rules).expect_err("refused");
            assert_eq!(err.code(), code, "{err}");
        };
        refused(vec![rule(None, None, "https://e.com")], "invalid_rules");
        refused(
            vec![rule(Some("phone"), None, "https://e.com")],
            "invalid_rules",
        );
        refused(
            vec![rule(None, Some("CHN"), "https://e.com")],
            "invalid_rules",
        );
        refused(
            vec![rule(Some("ios"), None, "javascript:alert(1)")],
            "invalid_target_url",
        );
        refused(
            vec![rule(Some("ios"), None, "https://e.com"); 21],
            "invalid_rules",
        );
        let mut query = RuleInput {
            target_url: "https://e.com".into(),
            ..RuleInput::default()
        };
        query.query = Some([(String::new(), "x".to_owned())].into());
        refused(vec![query.clone()], "invalid_rules");
        query.query = Some(BTreeMap::new());
        query.device = Some("ios".into());
        refused(vec![query.clone()], "invalid_rules");
        query.query = Some([("n".to_owned(), "v".repeat(MAX_RULE_QUERY_LEN))].into());
        assert!(check_rules(vec![query.clone()]).is_ok());
        query.query = Some([("n".to_owned(), "é".repeat(MAX_RULE_QUERY_LEN + 1))].into());
        refused(vec![query.clone()], "invalid_rules");
        query.query = None;
        query.device = Some("IOS".into());
        refused(vec![query], "invalid_rules");
    }

    #[test]
    fn the_first_rule_whose_conditions_all_hold_wins() {
        let rules = check_rules(vec![
            rule(Some("ios"), Some("CN"), "https://e.com/ios-cn"),
            rule(Some("ios"), None, "https://e.com/ios"),
            rule(Some("android"), None, "https://e.com/android"),
            RuleInput {
                language: Some("zh".into()),
                target_url: "https://e.com/zh".into(),
                ..RuleInput::default()
            },
            RuleInput {
                query: Some([("src".to_owned(), "mail list".to_owned())].into()),
                target_url: "https://e.com/mail".into(),
                ..RuleInput::default()
            },
        ])
        .expect("valid rules");
        let iphone = classify_agent(IPHONE.as_bytes());
        let android = classify_agent(ANDROID.as_bytes());
        let desktop = classify_agent(DESKTOP.as_bytes());
        let visit = |agent, country: Option<&str>, language: Option<&str>, query| {
            first_match(
                &rules,
                &RuleVisit {
                    agent,
                    country: country.and_then(Country::new),
                    language: language.and_then(Language::new),
                    query,
                },
            )
        };
        assert_eq!(visit(&iphone, Some("CN"), None, ""), Some(0));
        assert_eq!(visit(&iphone, Some("US"), None, ""), Some(1));
        assert_eq!(visit(&android, None, Some("zh"), ""), Some(2));
        assert_eq!(visit(&desktop, None, Some("zh"), ""), Some(3));
        assert_eq!(visit(&desktop, None, None, "a=1&src=mail%20list"), Some(4));
        assert_eq!(visit(&desktop, None, None, "src=mail+list"), Some(4));
        assert_eq!(visit(&desktop, None, None, "src=other"), None);
        assert_eq!(visit(&desktop, Some("CN"), Some("en"), ""), None);
    }
}
