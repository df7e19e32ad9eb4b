//! Wire types: the JSON shapes of each surface, shared by the server and the client. The spec's
//! quirks (integers sent as strings, `valid_time` as text on the compatibility surface, the
//! per-surface envelopes) live here and nowhere else.

pub mod admin;
pub mod compat;
pub mod envelope;
pub mod primary;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A JSON integer or string; what the compatibility surface's lenient inputs start from.
#[derive(Deserialize)]
#[serde(untagged)]
enum IntOrText {
    Int(i64),
    Text(String),
}

/// An integer that older compatibility clients may send as a JSON string (`"12"`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LenientInt(pub i64);

impl<'de> Deserialize<'de> for LenientInt {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        match IntOrText::deserialize(d)? {
            IntOrText::Int(v) => Ok(LenientInt(v)),
            IntOrText::Text(s) if s.trim().is_empty() => Ok(LenientInt(0)),
            IntOrText::Text(s) => {
                s.trim().parse().map(LenientInt).map_err(|_| {
                    serde::de::Error::custom(format!("expected an integer, found {s:?}"))
                })
            }
        }
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

impl<'de> Deserialize<'de> for IntList {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Either {
            One(LenientInt),
            Many(Vec<LenientInt>),
        }
        Ok(IntList(match Either::deserialize(d)? {
            Either::One(v) => vec![v.0],
            Either::Many(v) => v.into_iter().map(|v| v.0).collect(),
        }))
    }
}

impl Serialize for IntList {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(s)
    }
}

/// A time the compatibility surface accepts: text (`YYYY-MM-DD HH:MM:SS`, RFC 3339, Unix
/// seconds) or a JSON integer of Unix seconds. Empty and 0 are permanent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FlexibleTime(pub i64);

impl<'de> Deserialize<'de> for FlexibleTime {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        match IntOrText::deserialize(d)? {
            IntOrText::Int(v) => Ok(FlexibleTime(v)),
            IntOrText::Text(s) => crate::clock::parse_flexible(&s)
                .map(FlexibleTime)
                .ok_or_else(|| {
                    serde::de::Error::custom(format!(
                        "valid_time {s:?} is not YYYY-MM-DD HH:MM:SS, RFC 3339 or Unix seconds"
                    ))
                }),
        }
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
