//! Short chains on the primary surface: what creates, bulk creates, edits and listings take,
//! and a chain as they answer it.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// `POST /chains`.
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CreateChain {
    /// Destination, http or https.
    #[schemars(regex(pattern = crate::wire::URL_PATTERN), length(max = crate::codes::MAX_URL_LEN))]
    pub target_url: String,
    /// Domain to serve on; the server's default domain when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1))]
    pub domain_id: Option<i64>,
    /// Optional label.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(regex(pattern = crate::wire::TEXT_PATTERN), length(max = crate::model::limits::MAX_TITLE_CHARS))]
    pub chain_title: Option<String>,
    /// Optional custom code; a random one when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(regex(pattern = crate::wire::CODE_PATTERN))]
    pub code: Option<String>,
    /// Unix seconds after which the chain answers 410; 0 or absent is permanent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(max = crate::clock::LATEST))]
    pub valid_time: Option<i64>,
    /// Group to put the chain in.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1))]
    pub group_id: Option<i64>,
    /// Redirect rules, first match wins; visitors no rule matches go to `target_url`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(length(max = crate::model::MAX_REDIRECT_RULES))]
    pub rules: Option<Vec<RedirectRule>>,
    /// The status its redirects answer with: 301, 302, 307 or 308; 0 or absent the
    /// deployment's default. A visit a rule sends elsewhere is answered 302.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(schema_with = "crate::wire::schemas::redirect_status")]
    pub redirect_status: Option<i64>,
    /// Unix seconds before which it answers as an expired chain does (410); 0 or absent
    /// from now.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 0, max = crate::clock::LATEST))]
    pub valid_since: Option<i64>,
    /// People's visits it serves in all (bots and `HEAD` take none), exactly, however many
    /// instances serve it; past them it answers 410. 0 or absent unlimited.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 0, max = crate::model::limits::MAX_VISITS_LIMIT))]
    pub max_visits: Option<i64>,
    /// The title of the card link-preview agents (bots) are shown instead of the redirect;
    /// empty or absent none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(regex(pattern = crate::wire::TEXT_PATTERN), length(max = crate::model::limits::MAX_TITLE_CHARS))]
    pub preview_title: Option<String>,
    /// The preview card's text; empty or absent none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(regex(pattern = crate::wire::TEXT_PATTERN), length(max = crate::model::limits::MAX_PREVIEW_TEXT))]
    pub preview_description: Option<String>,
    /// The preview card's image, an http(s) URL; empty or absent none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(regex(pattern = crate::wire::URL_OR_EMPTY_PATTERN), length(max = crate::codes::MAX_URL_LEN))]
    pub preview_image: Option<String>,
}

/// A redirect rule: visitors who meet every condition it gives go to its `target_url`. A rule
/// gives at least one condition.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(transform = rule_conditions)]
pub struct RedirectRule {
    /// The visitor's device: `ios` or `android` (a phone or tablet on that system), `mobile`,
    /// `tablet` or `desktop`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(schema_with = "rule_device")]
    pub device: Option<String>,
    /// The visitor's country, ISO 3166-1 alpha-2 in either case (from the server's GeoIP
    /// database); answered in upper case.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(regex(pattern = r"^[A-Za-z]{2}$"))]
    pub country: Option<String>,
    /// The primary subtag of the visitor's first `Accept-Language` (`en`, `zh`), in either
    /// case; answered in lower case.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(regex(pattern = r"^[A-Za-z]{2,3}$"))]
    pub language: Option<String>,
    /// Query parameters the short link must be visited with, and their values (1 to 10).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(schema_with = "rule_query")]
    pub query: Option<BTreeMap<String, String>>,
    /// Where matching visitors go, http or https.
    #[schemars(regex(pattern = crate::wire::URL_PATTERN), length(max = crate::codes::MAX_URL_LEN))]
    pub target_url: String,
}

fn rule_conditions(schema: &mut schemars::Schema) {
    crate::wire::schemas::at_least_one_of(schema, &["device", "country", "language", "query"]);
}

fn rule_device(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
    let mut values: Vec<serde_json::Value> = crate::model::RuleDevice::ALL
        .iter()
        .map(|d| d.name().into())
        .collect();
    values.push(serde_json::Value::Null);
    schemars::json_schema!({"type": ["string", "null"], "enum": values})
}

fn rule_query(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
    // What `service::check_rules` takes: names of 1, values of 0, to the limit of characters,
    // none of them control characters.
    let max = crate::model::MAX_RULE_QUERY_LEN;
    let text = |min: usize| format!(r"^[^\u0000-\u001f\u007f-\u009f]{{{min},{max}}}$");
    schemars::json_schema!({
        "type": ["object", "null"],
        "minProperties": 1,
        "maxProperties": crate::model::MAX_RULE_QUERY_PARAMS,
        "propertyNames": {"pattern": text(1)},
        "additionalProperties": {"type": "string", "pattern": text(0)},
    })
}

/// [`RedirectRule`]'s schema with its types alone, for bulk items, whose values are checked
/// item by item.
pub(super) fn rule_types_only(generator: &mut schemars::SchemaGenerator) -> serde_json::Value {
    fn strip(value: &mut serde_json::Value) {
        match value {
            serde_json::Value::Object(map) => {
                for rule in [
                    "pattern",
                    "minLength",
                    "maxLength",
                    "minProperties",
                    "maxProperties",
                    "propertyNames",
                    "enum",
                    "anyOf",
                ] {
                    map.remove(rule);
                }
                map.values_mut().for_each(strip);
            }
            serde_json::Value::Array(items) => items.iter_mut().for_each(strip),
            _ => {}
        }
    }
    let mut schema = RedirectRule::json_schema(generator).to_value();
    strip(&mut schema);
    schema
}

/// `POST /chains/bulk`: up to 10,000 chains, each what `POST /chains` takes.
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BulkCreateChains {
    /// The chains, created in this order; each is created or refused on its own.
    #[schemars(length(min = 1, max = crate::model::limits::MAX_BULK_CHAINS))]
    pub chains: Vec<BulkChain>,
}

/// One item of `POST /chains/bulk`: the fields of `POST /chains`, with their types. Their
/// values are checked item by item, as `POST /chains` checks them, and an item whose value is
/// refused (a target that is not http(s), a bad code, a past `valid_time`) fails alone, so the
/// schema states only types; a wrong type refuses the whole request.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(transparent)]
pub struct BulkChain(pub CreateChain);

impl JsonSchema for BulkChain {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "BulkChain".into()
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        let mut schema = CreateChain::json_schema(generator);
        schema.insert(
            "description".into(),
            "One chain: the fields of `POST /chains`, with their types. Their values are checked \
             item by item as `POST /chains` checks them; an item whose value is refused fails \
             alone (its result says why)."
                .into(),
        );
        let rule = rule_types_only(generator);
        if let Some(properties) = crate::wire::schemas::properties(&mut schema) {
            properties.insert(
                "rules".into(),
                serde_json::json!({"type": ["array", "null"], "items": rule}),
            );
            for property in properties.values_mut() {
                if let Some(property) = property.as_object_mut() {
                    for rule in [
                        "pattern",
                        "minLength",
                        "maxLength",
                        "minimum",
                        "maximum",
                        "maxItems",
                    ] {
                        property.remove(rule);
                    }
                }
            }
        }
        schema
    }
}

/// Why one item of a bulk create was refused: the short name and message `POST /chains`
/// would have answered.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct BulkItemError {
    /// Stable short name (`invalid_target_url`, `code_taken`, `duplicate_code`,
    /// `quota_exceeded`, ...).
    pub code: String,
    /// What is wrong, for a person.
    pub message: String,
}

/// One item's result, at its `index` in the request.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct BulkItemResult {
    /// The item's position in `chains`, from 0.
    pub index: usize,
    /// Whether it was created.
    pub ok: bool,
    /// The chain created, as `POST /chains` answers it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chain: Option<Chain>,
    /// Why it was not.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<BulkItemError>,
}

/// Answer of `POST /chains/bulk`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct BulkCreated {
    /// Items created.
    pub created: usize,
    /// Items refused.
    pub failed: usize,
    /// One per item, in the request's order.
    pub results: Vec<BulkItemResult>,
}

fn update_chain_changes(schema: &mut schemars::Schema) {
    crate::wire::schemas::at_least_one_of(
        schema,
        &[
            "chain_title",
            "target_url",
            "valid_time",
            "rules",
            "redirect_status",
            "valid_since",
            "max_visits",
            "preview_title",
            "preview_description",
            "preview_image",
        ],
    );
}

/// `PATCH /chains/{id}`: fields left out stay as they are.
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(transform = update_chain_changes)]
pub struct UpdateChain {
    /// New label.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(regex(pattern = crate::wire::TEXT_PATTERN), length(max = crate::model::limits::MAX_TITLE_CHARS))]
    pub chain_title: Option<String>,
    /// New destination.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(regex(pattern = crate::wire::URL_PATTERN), length(max = crate::codes::MAX_URL_LEN))]
    pub target_url: Option<String>,
    /// New expiry; 0 makes the chain permanent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(max = crate::clock::LATEST))]
    pub valid_time: Option<i64>,
    /// New redirect rules, replacing all the chain had; `[]` removes them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(length(max = crate::model::MAX_REDIRECT_RULES))]
    pub rules: Option<Vec<RedirectRule>>,
    /// The status its redirects answer with: 301, 302, 307 or 308; 0 the deployment's
    /// default. A visit a rule sends elsewhere is answered 302.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(schema_with = "crate::wire::schemas::redirect_status")]
    pub redirect_status: Option<i64>,
    /// Unix seconds before which it answers as an expired chain does (410); 0 none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 0, max = crate::clock::LATEST))]
    pub valid_since: Option<i64>,
    /// People's visits it serves in all (bots and `HEAD` take none), exactly, however many
    /// instances serve it; past them it answers 410. 0 unlimited;
    /// visits already taken stay taken.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 0, max = crate::model::limits::MAX_VISITS_LIMIT))]
    pub max_visits: Option<i64>,
    /// The title of the card link-preview agents (bots) are shown instead of the redirect;
    /// `""` removes it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(regex(pattern = crate::wire::TEXT_PATTERN), length(max = crate::model::limits::MAX_TITLE_CHARS))]
    pub preview_title: Option<String>,
    /// The preview card's text; `""` removes it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(regex(pattern = crate::wire::TEXT_PATTERN), length(max = crate::model::limits::MAX_PREVIEW_TEXT))]
    pub preview_description: Option<String>,
    /// The preview card's image, an http(s) URL; `""` removes it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(regex(pattern = crate::wire::URL_OR_EMPTY_PATTERN), length(max = crate::codes::MAX_URL_LEN))]
    pub preview_image: Option<String>,
}

/// `GET /chains` query.
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ListChains {
    /// 1-based page.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1))]
    pub page: Option<i64>,
    /// Rows per page, at most 100.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1, max = crate::model::limits::MAX_PAGE_SIZE))]
    pub page_size: Option<i64>,
    /// Only chains in this group.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 0))]
    pub group_id: Option<i64>,
    /// Only chains whose title or code contains this.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(regex(pattern = crate::wire::TEXT_PATTERN))]
    pub q: Option<String>,
    /// Archived chains: left out (`exclude`, the default), the only ones listed (`only`), or
    /// listed with the others (`include`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub archived: Option<ArchivedFilter>,
}

/// Which chains a listing takes by whether they are archived.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum ArchivedFilter {
    /// Chains that are not archived.
    #[default]
    Exclude,
    /// Archived chains only.
    Only,
    /// Both.
    Include,
}

impl ArchivedFilter {
    /// The store's filter: archived (`Some(true)`), not (`Some(false)`), or both.
    pub fn archived(self) -> Option<bool> {
        match self {
            ArchivedFilter::Exclude => Some(false),
            ArchivedFilter::Only => Some(true),
            ArchivedFilter::Include => None,
        }
    }
}

/// A chain on the primary surface (spec 2.1 plus what clients need to use it).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Chain {
    /// Row id.
    pub id: i64,
    /// Short code.
    pub code: String,
    /// 1 normal, 2 expired, 3 disabled, 4 domain not effective.
    pub status: i64,
    /// Label of `status`.
    pub status_label: String,
    /// Destination.
    pub target_url: String,
    /// Kind of chain: 1 short, 2 external, 3 work-chat, 4 card.
    #[serde(rename = "type")]
    pub chain_type: i64,
    /// Destination kind of messaging-app chains.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sub_type: Option<i64>,
    /// Domain id.
    pub domain_id: i64,
    /// Label.
    pub chain_title: String,
    /// Expiry in Unix seconds; 0 permanent.
    pub valid_time: i64,
    /// `scheme://domain/code`.
    pub render_url: String,
    /// First group, if any.
    pub group_id: Option<i64>,
    /// Redirect rules, first match wins.
    #[serde(default)]
    pub rules: Vec<RedirectRule>,
    /// Visits today (UTC).
    pub pv_today: i64,
    /// Visits ever.
    pub pv_history: i64,
    /// Visits it had on another shortener before it was imported, apart from `pv_history`.
    #[serde(default)]
    pub imported_visits: i64,
    /// RFC 3339.
    pub created_at: String,
    /// RFC 3339.
    pub updated_at: String,
    /// When it was archived (RFC 3339); `null` when it is not.
    #[serde(default)]
    pub archived_at: Option<String>,
    /// The status its redirects answer with; `null` the deployment's default.
    #[serde(default)]
    pub redirect_status: Option<i64>,
    /// Unix seconds before which it answers 410; 0 none.
    #[serde(default)]
    pub valid_since: i64,
    /// People's visits it serves in all; 0 unlimited.
    #[serde(default)]
    pub max_visits: i64,
    /// Visits it still serves under `max_visits`; `null` when unlimited.
    #[serde(default)]
    pub visits_left: Option<i64>,
    /// The title of the card link-preview agents are shown; `null` when not set.
    #[serde(default)]
    pub preview_title: Option<String>,
    /// The preview card's text; `null` when not set.
    #[serde(default)]
    pub preview_description: Option<String>,
    /// The preview card's image; `null` when not set.
    #[serde(default)]
    pub preview_image: Option<String>,
}

/// A page of chains.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct ChainPage {
    /// The chains of this page, newest first.
    pub list: Vec<Chain>,
    /// Chains matching the filter on all pages.
    pub total: i64,
    /// This page, 1-based.
    pub page: i64,
    /// Rows per page.
    pub page_size: i64,
}

/// `DELETE /chains/{id}` answer.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct DeletedChain {
    /// The deleted chain's id.
    pub id: i64,
    /// Always true.
    pub deleted: bool,
}
