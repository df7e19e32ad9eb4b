//! `GET /chains/export`: the caller's short chains with every field a re-import needs, as JSON
//! lines or CSV, one chain a line.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::RedirectRule;

/// Query of `GET /chains/export`.
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ExportQuery {
    /// `jsonl` (default: one JSON object a line) or `csv` (a header row, then a row a chain).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub format: Option<ExportFormat>,
}

/// How an export is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum ExportFormat {
    /// One JSON object a line (`application/x-ndjson`).
    #[default]
    Jsonl,
    /// RFC 4180 CSV with a header row (`text/csv`); `groups` and `rules` are JSON text.
    Csv,
}

impl ExportFormat {
    /// The media type of the answer.
    pub fn media_type(self) -> &'static str {
        match self {
            ExportFormat::Jsonl => "application/x-ndjson",
            ExportFormat::Csv => "text/csv; charset=utf-8",
        }
    }

    /// The file name the answer suggests.
    pub fn file_name(self) -> &'static str {
        match self {
            ExportFormat::Jsonl => "chains.jsonl",
            ExportFormat::Csv => "chains.csv",
        }
    }
}

/// One exported chain: what makes it again elsewhere, and its visits so far.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ExportedChain {
    /// Short code, exactly as it is (case included).
    pub code: String,
    /// Host of the domain it is served on.
    pub domain: String,
    /// Destination.
    pub target_url: String,
    /// Label (may be empty).
    pub chain_title: String,
    /// Stored status: 1 normal, 3 disabled (expiry is `valid_time`, not a status).
    pub status: i64,
    /// Expiry in Unix seconds; 0 permanent.
    pub valid_time: i64,
    /// RFC 3339.
    pub created_at: String,
    /// When it was archived (RFC 3339); `null` when it is not.
    pub archived_at: Option<String>,
    /// Names of its groups, in order.
    pub groups: Vec<String>,
    /// Redirect rules, first match wins.
    pub rules: Vec<RedirectRule>,
    /// Visits so far: those counted here and those it was imported with. An import reads
    /// them back as its imported visits.
    pub pv_history: i64,
    /// 301, 302, 307 or 308; 0: the deployment's.
    pub redirect_status: i64,
    /// Unix seconds before which it answers as an expired chain; 0 none.
    pub valid_since: i64,
    /// People's visits it serves in all; 0 unlimited.
    pub max_visits: i64,
    /// Of `max_visits`, the visits it still serves; `null` when unlimited.
    pub visits_left: Option<i64>,
    /// The preview card's title; `null` when not set.
    pub preview_title: Option<String>,
    /// The preview card's text; `null` when not set.
    pub preview_description: Option<String>,
    /// The preview card's image; `null` when not set.
    pub preview_image: Option<String>,
}

/// The CSV header of an export: [`ExportedChain`]'s fields, in order.
pub const EXPORT_CSV_COLUMNS: [&str; 18] = [
    "code",
    "domain",
    "target_url",
    "chain_title",
    "status",
    "valid_time",
    "created_at",
    "archived_at",
    "groups",
    "rules",
    "pv_history",
    "redirect_status",
    "valid_since",
    "max_visits",
    "visits_left",
    "preview_title",
    "preview_description",
    "preview_image",
];

/// Columns of an export's CSV before the link options: a file with only the first of
/// [`EXPORT_CSV_COLUMNS`], at least these, imports too.
pub const EXPORT_CSV_COLUMNS_BEFORE_OPTIONS: usize = 11;

impl ExportedChain {
    /// The chain as one line of `format`, its line break included.
    pub fn line(&self, format: ExportFormat) -> Vec<u8> {
        match format {
            ExportFormat::Jsonl => {
                // A struct of strings, numbers and lists always serializes.
                let mut line = serde_json::to_vec(self).unwrap_or_default();
                line.push(b'\n');
                line
            }
            ExportFormat::Csv => {
                // Lists of strings and rules always serialize.
                let groups = serde_json::to_string(&self.groups).unwrap_or_default();
                let rules = serde_json::to_string(&self.rules).unwrap_or_default();
                csv_row(&[
                    &self.code,
                    &self.domain,
                    &self.target_url,
                    &self.chain_title,
                    &self.status.to_string(),
                    &self.valid_time.to_string(),
                    &self.created_at,
                    self.archived_at.as_deref().unwrap_or(""),
                    &groups,
                    &rules,
                    &self.pv_history.to_string(),
                    &self.redirect_status.to_string(),
                    &self.valid_since.to_string(),
                    &self.max_visits.to_string(),
                    &self.visits_left.map(|n| n.to_string()).unwrap_or_default(),
                    self.preview_title.as_deref().unwrap_or(""),
                    self.preview_description.as_deref().unwrap_or(""),
                    self.preview_image.as_deref().unwrap_or(""),
                ])
            }
        }
    }
}

/// The CSV header line of an export.
pub fn export_csv_header() -> Vec<u8> {
    csv_row(&EXPORT_CSV_COLUMNS)
}

/// One CSV row as RFC 4180 writes it: a field with a comma, a quote or a line break is quoted,
/// its quotes doubled; rows end in CRLF.
fn csv_row(fields: &[&str]) -> Vec<u8> {
    let mut row = Vec::new();
    for (i, field) in fields.iter().enumerate() {
        if i > 0 {
            row.push(b',');
        }
        if field.contains([',', '"', '\r', '\n']) {
            row.push(b'"');
            row.extend_from_slice(field.replace('"', "\"\"").as_bytes());
            row.push(b'"');
        } else {
            row.extend_from_slice(field.as_bytes());
        }
    }
    row.extend_from_slice(b"\r\n");
    row
}
