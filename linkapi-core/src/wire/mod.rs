//! Wire types: the JSON shapes of each surface, shared by the server and the client. The spec's
//! quirks (integers sent as strings, `valid_time` as text on the compatibility surface, the
//! per-surface envelopes) live here and nowhere else.

pub mod admin;
pub mod compat;
pub mod envelope;
pub mod events;
pub mod operations;
pub mod primary;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// An integer that older compatibility clients may send as a JSON string (`"12"`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LenientInt(pub i64);

/// Reads an integer given as a JSON number or a string of digits (empty is 0). Errors say
/// what the field must be, never which Rust type failed to match.
struct LenientIntVisitor;

impl serde::de::Visitor<'_> for LenientIntVisitor {
    type Value = LenientInt;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("an integer, or a string of digits")
    }

    fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<LenientInt, E> {
        Ok(LenientInt(v))
    }

    fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<LenientInt, E> {
        i64::try_from(v)
            .map(LenientInt)
            .map_err(|_| E::custom(format!("{v} is too large")))
    }

    /// Digits with an optional leading `-`; ` 7`, `+7` and `1e3` are not integers here (the
    /// schema's pattern says the same).
    fn visit_str<E: serde::de::Error>(self, s: &str) -> Result<LenientInt, E> {
        if s.is_empty() {
            return Ok(LenientInt(0));
        }
        let digits = s.strip_prefix('-').unwrap_or(s);
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return Err(E::custom(format!("expected an integer, found {s:?}")));
        }
        s.parse()
            .map(LenientInt)
            .map_err(|_| E::custom(format!("{s} is out of range")))
    }
}

impl<'de> Deserialize<'de> for LenientInt {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(LenientIntVisitor)
    }
}

impl Serialize for LenientInt {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_i64(self.0)
    }
}

/// One integer or a list of them; the compatibility surface takes ids as either.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct IntList(pub Vec<i64>);

struct IntListVisitor;

impl<'de> serde::de::Visitor<'de> for IntListVisitor {
    type Value = IntList;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("an id or a list of ids")
    }

    fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<IntList, E> {
        Ok(IntList(vec![v]))
    }

    fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<IntList, E> {
        LenientIntVisitor.visit_u64(v).map(|v| IntList(vec![v.0]))
    }

    fn visit_str<E: serde::de::Error>(self, s: &str) -> Result<IntList, E> {
        LenientIntVisitor.visit_str(s).map(|v| IntList(vec![v.0]))
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<IntList, A::Error> {
        let mut ids = Vec::new();
        while let Some(id) = seq.next_element::<LenientInt>()? {
            ids.push(id.0);
        }
        Ok(IntList(ids))
    }
}

impl<'de> Deserialize<'de> for IntList {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(IntListVisitor)
    }
}

impl Serialize for IntList {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(s)
    }
}

/// A domain as the compatibility surface names one: by id, or by the host name of a domain
/// the caller may use (the vendor's `createChain` takes its domain so, contract section 5).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DomainRef {
    /// A domain id (0: the default domain).
    Id(i64),
    /// A host name, perhaps with its port or written as a URL (`https://s.example/`).
    Host(String),
}

/// Domains as the compatibility surface sends them: one id or host, or a list of them.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct DomainRefs(pub Vec<DomainRef>);

struct DomainRefsVisitor;

impl<'de> serde::de::Visitor<'de> for DomainRefsVisitor {
    type Value = DomainRefs;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a domain id or host name, or a list of them")
    }

    fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<DomainRefs, E> {
        Ok(DomainRefs(vec![DomainRef::Id(v)]))
    }

    fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<DomainRefs, E> {
        LenientIntVisitor
            .visit_u64(v)
            .map(|v| DomainRefs(vec![DomainRef::Id(v.0)]))
    }

    /// Digits (or nothing) are an id, anything else a host name.
    fn visit_str<E: serde::de::Error>(self, s: &str) -> Result<DomainRefs, E> {
        let digits = s.strip_prefix('-').unwrap_or(s);
        if digits.bytes().all(|b| b.is_ascii_digit()) {
            return LenientIntVisitor
                .visit_str(s)
                .map(|v| DomainRefs(vec![DomainRef::Id(v.0)]));
        }
        Ok(DomainRefs(vec![DomainRef::Host(s.to_owned())]))
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<DomainRefs, A::Error> {
        let mut refs = Vec::new();
        while let Some(one) = seq.next_element::<OneDomainRef>()? {
            refs.extend(one.0.0);
        }
        Ok(DomainRefs(refs))
    }
}

/// One element of a list of domains: an id or a host, not a list.
struct OneDomainRef(DomainRefs);

impl<'de> Deserialize<'de> for OneDomainRef {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Visitor;
        impl serde::de::Visitor<'_> for Visitor {
            type Value = OneDomainRef;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a domain id or host name")
            }
            fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<OneDomainRef, E> {
                DomainRefsVisitor.visit_i64(v).map(OneDomainRef)
            }
            fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<OneDomainRef, E> {
                DomainRefsVisitor.visit_u64(v).map(OneDomainRef)
            }
            fn visit_str<E: serde::de::Error>(self, s: &str) -> Result<OneDomainRef, E> {
                DomainRefsVisitor.visit_str(s).map(OneDomainRef)
            }
        }
        d.deserialize_any(Visitor)
    }
}

impl<'de> Deserialize<'de> for DomainRefs {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(DomainRefsVisitor)
    }
}

impl Serialize for DomainRefs {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeSeq;
        let mut seq = s.serialize_seq(Some(self.0.len()))?;
        for one in &self.0 {
            match one {
                DomainRef::Id(id) => seq.serialize_element(id)?,
                DomainRef::Host(host) => seq.serialize_element(host)?,
            }
        }
        seq.end()
    }
}

impl From<Vec<i64>> for DomainRefs {
    fn from(ids: Vec<i64>) -> Self {
        DomainRefs(ids.into_iter().map(DomainRef::Id).collect())
    }
}

/// A time the compatibility surface accepts: text (`YYYY-MM-DD HH:MM:SS`, RFC 3339, Unix
/// seconds) or a JSON integer of Unix seconds. Empty and 0 are permanent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FlexibleTime(pub i64);

struct FlexibleTimeVisitor;

impl serde::de::Visitor<'_> for FlexibleTimeVisitor {
    type Value = FlexibleTime;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a time: YYYY-MM-DD HH:MM:SS, RFC 3339, or Unix seconds")
    }

    fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<FlexibleTime, E> {
        if !crate::clock::writable(v) {
            return Err(E::custom(format!(
                "valid_time {v} is outside years 0 to 9999"
            )));
        }
        Ok(FlexibleTime(v))
    }

    fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<FlexibleTime, E> {
        match i64::try_from(v) {
            Ok(v) => self.visit_i64(v),
            Err(_) => Err(E::custom(format!(
                "valid_time {v} is outside years 0 to 9999"
            ))),
        }
    }

    fn visit_str<E: serde::de::Error>(self, s: &str) -> Result<FlexibleTime, E> {
        crate::clock::parse_flexible(s)
            .map(FlexibleTime)
            .ok_or_else(|| {
                E::custom(format!(
                    "valid_time {s:?} is not YYYY-MM-DD HH:MM:SS, RFC 3339 or Unix seconds"
                ))
            })
    }
}

impl<'de> Deserialize<'de> for FlexibleTime {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(FlexibleTimeVisitor)
    }
}

/// Sent as the spec's canonical text, `YYYY-MM-DD HH:MM:SS` (UTC), or `""` for permanent.
impl Serialize for FlexibleTime {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if self.0 == 0 {
            s.serialize_str("")
        } else {
            s.serialize_str(&crate::clock::format_sql(self.0))
        }
    }
}

/// The characters the text rule (`service::check_text`) refuses: controls and bidirectional
/// overrides, as a regular-expression class body.
macro_rules! refused_text {
    () => {
        r"\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069"
    };
}

/// Text the text rule takes, for the schemas.
pub(crate) const TEXT_PATTERN: &str = concat!("^[^", refused_text!(), "]*$");
/// Text that may run over several lines (page text): [`TEXT_PATTERN`] with line feeds.
pub(crate) const LINES_PATTERN: &str =
    r"^[^\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]*$";
/// An app or account id (letters, digits, `_`, `-`), or empty (none).
pub(crate) const IDENT_OR_EMPTY_PATTERN: &str = r"^([A-Za-z0-9_-]{1,64})?$";
/// A page path inside an app: no spaces, no control characters and no bidirectional
/// overrides (Unicode white space spelt out, since regular-expression dialects disagree on
/// `\s`).
pub(crate) const APP_PATH_PATTERN: &str = r"^[^\u0000-\u0020\u007f-\u00a0\u1680\u2000-\u200a\u2028\u2029\u202a-\u202f\u205f\u2066-\u2069\u3000]{0,512}$";
/// [`TEXT_PATTERN`] with at least one character that is not a space (required names).
pub(crate) const NAME_PATTERN: &str = concat!(
    "^[^",
    refused_text!(),
    r"]*[^\s",
    refused_text!(),
    "][^",
    refused_text!(),
    "]*$"
);
/// An http(s) URL as the target rule takes it (`codes::target_url!`), spaces around ignored.
pub(crate) const URL_PATTERN: &str = concat!("^ *(", crate::codes::target_url!(), ") *$");
/// [`URL_PATTERN`], or empty or only spaces (where empty means none).
pub(crate) const URL_OR_EMPTY_PATTERN: &str = concat!("^ *(", crate::codes::target_url!(), ")? *$");
/// A domain's host name, with its port if it has one, perhaps written as a URL
/// (`https://s.example/`); digits alone are an id.
pub(crate) const HOST_PATTERN: &str = r"^((https?)://)?([A-Za-z0-9]([A-Za-z0-9.-]{0,251}[A-Za-z0-9])?|\[[0-9A-Fa-f:.]{2,45}\])(:[0-9]{1,5})?/?$";
/// A custom code (`codes::validate_code`; reserved words aside).
pub(crate) const CODE_PATTERN: &str = r"^[A-Za-z0-9_-]{1,64}$";
/// [`CODE_PATTERN`], or empty (a random code).
pub(crate) const CODE_OR_EMPTY_PATTERN: &str = r"^([A-Za-z0-9_-]{1,64})?$";

/// The schemas of the lenient types: what the visitors above accept.
pub(crate) mod schemas;

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Deserialize)]
    struct Probe {
        a: LenientInt,
        b: IntList,
        t: FlexibleTime,
    }

    #[test]
    fn lenient_values_accept_both_forms() {
        let p: Probe = serde_json::from_str(r#"{"a":"7","b":3,"t":"0"}"#).expect("parses");
        assert_eq!((p.a.0, p.b.0, p.t.0), (7, vec![3], 0));
        let p: Probe = serde_json::from_str(r#"{"a":7,"b":["1",2],"t":"1970-01-02 00:00:00"}"#)
            .expect("parses");
        assert_eq!((p.a.0, p.b.0, p.t.0), (7, vec![1, 2], 86_400));
        assert!(serde_json::from_str::<Probe>(r#"{"a":"x","b":1,"t":0}"#).is_err());
        assert!(serde_json::from_str::<Probe>(r#"{"a":1,"b":1,"t":"soon"}"#).is_err());
        // Errors say what the field must be, not which Rust type failed.
        let err = serde_json::from_str::<Probe>(r#"{"a":true,"b":1,"t":0}"#)
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(err.contains("an integer, or a string of digits"), "{err}");
        let err = serde_json::from_str::<Probe>(r#"{"a":1,"b":{},"t":0}"#)
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(err.contains("an id or a list of ids"), "{err}");
        assert!(!err.contains("enum"), "{err}");
    }

    #[test]
    fn patterns_state_the_services_limits() {
        use crate::model::limits::{MAX_APP_PATH, MAX_JUMP_NAME};
        // Regular expressions are literals; these keep their counts with the rules' constants.
        assert!(APP_PATH_PATTERN.ends_with(&format!("{{0,{MAX_APP_PATH}}}$")));
        assert!(IDENT_OR_EMPTY_PATTERN.contains(&format!("{{1,{MAX_JUMP_NAME}}}")));
        let code = format!("{{1,{}}}", crate::codes::MAX_CODE_LEN);
        assert!(CODE_PATTERN.contains(&code) && CODE_OR_EMPTY_PATTERN.contains(&code));
    }

    #[test]
    fn digit_patterns_match_exactly_the_range() {
        for (min, max) in [
            (0, 4),
            (1, 100),
            (1, 5),
            (0, 1_000_000),
            (-1000, 1000),
            (1, 1),
            (0, 0),
        ] {
            let pattern = schemas::digits_pattern(min, max);
            let re = regex::Regex::new(&pattern).expect("a valid pattern");
            // Around both ends, and a stride through the middle.
            let values = ((min - 120)..=(min + 120))
                .chain((max - 120)..=(max + 120))
                .chain((min..=max).step_by(7919));
            for v in values {
                let text = v.to_string();
                assert_eq!(
                    re.is_match(&text),
                    (min..=max).contains(&v),
                    "{pattern} on {text}"
                );
                if v > 0 {
                    assert_eq!(re.is_match(&format!("00{text}")), v <= max, "{pattern}");
                }
            }
            assert_eq!(re.is_match(""), min <= 0, "{pattern}");
            assert!(
                !re.is_match("1.0") && !re.is_match("+1") && !re.is_match(" 1"),
                "{pattern}"
            );
        }
        let wide = regex::Regex::new(&schemas::digits_pattern(0, i64::MAX)).expect("valid");
        assert!(wide.is_match("9223372036854775807") && !wide.is_match("9223372036854775808"));
    }

    #[test]
    fn the_time_pattern_matches_what_the_reader_takes() {
        let re = regex::Regex::new(&schemas::time_pattern()).expect("a valid pattern");
        let mut texts: Vec<String> = Vec::new();
        for year in [0, 1, 4, 100, 400, 1900, 1970, 2000, 2023, 2024, 2100, 9999] {
            for month in 0..=13 {
                for day in [0, 1, 28, 29, 30, 31, 32] {
                    let date = format!("{year:04}-{month:02}-{day:02}");
                    texts.push(format!("{date} 12:30:59"));
                    texts.push(format!("{date}T12:30:59Z"));
                    texts.push(format!("{date}t12:30:59.25+08:00"));
                }
            }
        }
        for clock in ["24:00:00", "23:60:00", "23:59:60", "9:00:00", "23:59"] {
            texts.push(format!("2027-01-15 {clock}"));
            texts.push(format!("2027-01-15T{clock}Z"));
        }
        for more in [
            "",
            " ",
            "0",
            "000",
            "1800000000",
            " 1800000000 ",
            "253402300799",
            "253402300800",
            "-1",
            "+1",
            "1.5",
            "2027-01-15x08:00:00Z",
            "2027-01-15T08:00:00+24:00",
            "2027-01-15T08:00:00",
            "2027-01-15 08:00:00Z",
            "tomorrow",
            "\t1\n",
        ] {
            texts.push(more.to_owned());
        }
        for text in &texts {
            assert_eq!(
                re.is_match(text),
                crate::clock::parse_flexible(text).is_some(),
                "{text:?}"
            );
        }
    }

    #[test]
    fn lenient_values_serialize_in_canonical_form() {
        let json = serde_json::json!([
            LenientInt(4),
            IntList(vec![1, 2]),
            FlexibleTime(86_400),
            FlexibleTime(0)
        ]);
        assert_eq!(json.to_string(), r#"[4,[1,2],"1970-01-02 00:00:00",""]"#);
    }
}
