//! The response envelopes of spec section 7.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The shape of a response body.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Envelope {
    /// `{code: 1, message, data}`; errors `{code: "<name>", message, status}`.
    Primary,
    /// `{code: 1, msg, result}`; errors `{code: 0, msg}`.
    Compat,
    /// `{status: 1, result}` (conversions, transfers); these operations' errors are primary.
    Status,
    /// HTML for people: the redirect path and its error pages.
    Page,
}

/// Primary success: `{code: 1, message, data}`.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[schemars(rename = "PrimaryOk_{T}")]
pub struct PrimaryOk<T> {
    /// Always 1.
    pub code: i64,
    /// `"ok"`.
    pub message: String,
    /// The payload.
    pub data: T,
}

/// Primary error: `{code: "<short_name>", message, status}`.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct PrimaryError {
    /// Stable short name such as `forbidden`.
    pub code: String,
    /// What went wrong, for a person.
    pub message: String,
    /// The HTTP status, repeated.
    pub status: u16,
}

/// Compatibility success: `{code: 1, msg, result}`.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[schemars(rename = "CompatOk_{T}")]
pub struct CompatOk<T> {
    /// Always 1.
    pub code: i64,
    /// `"ok"`.
    pub msg: String,
    /// The payload; an empty array where there is nothing to return.
    pub result: T,
}

/// Compatibility error: `{code: 0, msg}`.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct CompatError {
    /// Always 0.
    pub code: i64,
    /// What went wrong, for a person.
    pub msg: String,
}

/// Adcallback and transfer success: `{status: 1, result}`.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[schemars(rename = "StatusOk_{T}")]
pub struct StatusOk<T> {
    /// Always 1.
    pub status: i64,
    /// The payload.
    pub result: T,
}

/// The compatibility surface's empty result: `[]`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Empty;

impl Serialize for Empty {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeSeq;
        s.serialize_seq(Some(0))?.end()
    }
}

impl<'de> Deserialize<'de> for Empty {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Visitor;
        impl<'de> serde::de::Visitor<'de> for Visitor {
            type Value = Empty;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("an empty array")
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(
                self,
                mut seq: A,
            ) -> Result<Empty, A::Error> {
                match seq.next_element::<serde::de::IgnoredAny>()? {
                    None => Ok(Empty),
                    Some(_) => Err(serde::de::Error::invalid_length(1, &self)),
                }
            }
        }
        d.deserialize_seq(Visitor)
    }
}

/// An array with no items, said so with an `items` schema: code generators drop an array
/// schema that has none.
impl JsonSchema for Empty {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Empty".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "description": "Always an empty array: the compatibility surface's result when \
                            there is nothing to return.",
            "type": "array",
            "items": {"type": "object"},
            "maxItems": 0
        })
    }
}
