//! The response envelopes of spec section 7.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Primary success: `{code: 1, message, data}`.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
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
pub struct StatusOk<T> {
    /// Always 1.
    pub status: i64,
    /// The payload.
    pub result: T,
}

/// The compatibility surface's empty result.
pub type Empty = [(); 0];
