//! `POST /chains/import`: short chains brought over from another shortener or from an export,
//! with their own codes, creation times and visit totals. An exported line
//! ([`super::ExportedChain`]) is an item as it is.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{BulkItemError, RedirectRule};

/// Query of `POST /chains/import`.
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ImportQuery {
    /// `true`: check every item and answer what an import would do, importing nothing.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dry_run: Option<bool>,
}

/// Body of `POST /chains/import`.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ImportChains {
    /// 1 to 10,000 chains, each imported or reported on its own.
    #[schemars(length(min = 1, max = crate::model::limits::MAX_BULK_CHAINS))]
    pub chains: Vec<ImportChain>,
}

/// One chain to import: the fields of an exported chain, all but `code` and `target_url`
/// optional.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ImportChain {
    /// Short code, kept exactly (case included): 1 to 64 of `A-Z a-z 0-9 - _`, not reserved.
    pub code: String,
    /// Host of one of your domains (`go.example.com`); the default domain when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub domain: Option<String>,
    /// Destination, kept byte for byte when it is ASCII; non-ASCII characters are
    /// percent-encoded (and the result says so).
    pub target_url: String,
    /// Label; line breaks and tabs become spaces (and the result says so).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chain_title: Option<String>,
    /// 1 normal (default) or 3 disabled.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<i64>,
    /// Expiry in Unix seconds; 0 or absent permanent. A time past is kept: the chain is
    /// imported expired.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub valid_time: Option<i64>,
    /// When it was created, RFC 3339 (`2024-05-01T10:00:00Z`, any offset); the time of the
    /// import when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub created_at: Option<String>,
    /// When it was archived (RFC 3339); not archived when absent or `null`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub archived_at: Option<String>,
    /// Names of your short-chain groups it belongs to; groups not there yet are created.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub groups: Vec<String>,
    /// Redirect rules, first match wins. Their values are checked item by item, so the
    /// schema states only their types: a rule refused fails its item alone.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[schemars(schema_with = "rules_types_only")]
    pub rules: Vec<RedirectRule>,
    /// Visits it had before, kept as imported history (`imported_visits`), apart from the
    /// visits counted here.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pv_history: Option<i64>,
    /// 301, 302, 307 or 308; 0 or absent: the deployment's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub redirect_status: Option<i64>,
    /// Unix seconds before which it answers as an expired chain; 0 or absent: none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub valid_since: Option<i64>,
    /// People's visits it serves in all; 0 or absent: unlimited.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_visits: Option<i64>,
    /// Of `max_visits`, the visits it still serves (0 to `max_visits`): what the other
    /// shortener had served counts against the limit. Absent or `null`: all of them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub visits_left: Option<i64>,
    /// The title of the card link-preview agents are shown; absent, `null` or empty: none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub preview_title: Option<String>,
    /// The preview card's text; absent, `null` or empty: none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub preview_description: Option<String>,
    /// The preview card's image, an http(s) URL; absent, `null` or empty: none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub preview_image: Option<String>,
}

/// `rules` of an item: rules with their types only (see [`super::BulkChain`]).
fn rules_types_only(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
    let rule = super::chains::rule_types_only(generator);
    schemars::json_schema!({"type": "array", "items": rule})
}

/// How one item of an import ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum ImportOutcome {
    /// Imported now (in a dry run: would be).
    Imported,
    /// A chain of yours already has this code on this domain and this target: an earlier
    /// import brought it, and nothing was changed.
    Exists,
    /// The code is taken on this domain by another chain (yours with another target, someone
    /// else's, or a deleted one: codes are never reused). Nothing was changed.
    Clash,
    /// Not imported: `error` says why.
    Refused,
}

/// One item's result, at its `index` in the request.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct ImportItemResult {
    /// The item's position in `chains`, from 0.
    pub index: usize,
    /// Its code, as given.
    pub code: String,
    /// Host of the domain it went to (or was meant for).
    pub domain: String,
    /// What happened.
    pub result: ImportOutcome,
    /// The chain imported, or the one of yours that has the code (`exists`, or a `clash` with
    /// your own chain).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chain_id: Option<i64>,
    /// Why it was refused, or what it clashed with.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<BulkItemError>,
    /// What was changed on the way in (a title's line breaks, a target's encoding), or that
    /// it came in expired.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
}

/// Answer of `POST /chains/import`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct ImportAnswer {
    /// Whether this was a dry run (nothing imported).
    pub dry_run: bool,
    /// Items imported (would be, in a dry run).
    pub imported: usize,
    /// Items already there.
    pub existing: usize,
    /// Items whose code is taken by another chain.
    pub clashes: usize,
    /// Items refused.
    pub refused: usize,
    /// One per item, in the request's order.
    pub results: Vec<ImportItemResult>,
}
