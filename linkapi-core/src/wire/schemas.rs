//! The schemas of the lenient types (`LenientInt`, `IntList`, `DomainRefs`, `FlexibleTime`):
//! what their visitors accept.

use std::borrow::Cow;

use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};

use super::{FlexibleTime, HOST_PATTERN, IntList, LenientInt};

impl JsonSchema for LenientInt {
    fn schema_name() -> Cow<'static, str> {
        "LenientInt".into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "description": "An integer, or a string of digits (empty is 0).",
            "anyOf": [
                {"type": "integer", "format": "int64", "minimum": i64::MIN, "maximum": i64::MAX},
                {"type": "string", "pattern": "^(-?[0-9]{1,18})?$"}
            ]
        })
    }
}

/// A [`LenientInt`] from `MIN` to `MAX` (absent or null allowed): an integer in the range,
/// or its digits as a string (leading zeros allowed; empty is 0).
pub(crate) fn lenient_in<const MIN: i64, const MAX: i64>(_: &mut SchemaGenerator) -> Schema {
    json_schema!({
        "anyOf": [
            {"type": "integer", "minimum": MIN, "maximum": MAX},
            {"type": "string", "pattern": digits_pattern(MIN, MAX)},
            {"type": "null"}
        ]
    })
}

/// A [`LenientInt`] taking one of `codes` (small codes, 0 or more), absent or null allowed.
pub(crate) fn lenient_of(codes: &[i64]) -> Schema {
    let digits: Vec<String> = codes.iter().map(i64::to_string).collect();
    json_schema!({
        "anyOf": [
            {"type": "integer", "enum": codes},
            {"type": "string", "pattern": format!("^0*({})$", digits.join("|"))},
            {"type": "null"}
        ]
    })
}

/// A short chain's `redirect_status` as given: 301, 302, 307 or 308, or 0 for the
/// deployment's default; absent or null allowed.
pub(crate) fn redirect_status(_: &mut SchemaGenerator) -> Schema {
    let mut codes = vec![0];
    codes.extend(crate::model::RedirectStatus::ALL.map(|s| i64::from(s.code())));
    json_schema!({"type": ["integer", "null"], "enum": codes})
}

/// `chain_type` of the external-chain operations: 2, or 0 for the operation's own.
pub(crate) fn lenient_external_type(_: &mut SchemaGenerator) -> Schema {
    lenient_of(&[0, 2])
}

/// `visit_type`: 1, 3, 4 or 5.
pub(crate) fn lenient_rotation(_: &mut SchemaGenerator) -> Schema {
    lenient_of(&[1, 3, 4, 5])
}

/// A domain as this surface sends it: one id (0 or absent: the default) or the host name
/// of a domain the caller may use, alone or as a list of at most one.
pub(crate) fn one_domain(_: &mut SchemaGenerator) -> Schema {
    let id = [
        json_schema!({"type": "integer", "minimum": 0, "maximum": i64::MAX}),
        json_schema!({"type": "string", "pattern": digits_pattern(0, i64::MAX)}),
    ];
    let host = json_schema!({"type": "string", "pattern": HOST_PATTERN, "maxLength": 255});
    json_schema!({
        "anyOf": [
            id[0], id[1], host, {"type": "null"},
            {"type": "array", "items": {"anyOf": [id[0], id[1], host]}, "maxItems": 1}
        ]
    })
}

/// `wxwork_type`: 1 (acquisition link) or 2 (custom URL).
pub(crate) fn lenient_workchat_type(_: &mut SchemaGenerator) -> Schema {
    lenient_of(&[1, 2])
}

/// The properties of an object schema, for the wire types that derive their schema from
/// another's and change some of its properties.
pub(crate) fn properties(
    schema: &mut Schema,
) -> Option<&mut serde_json::Map<String, serde_json::Value>> {
    schema
        .get_mut("properties")
        .and_then(serde_json::Value::as_object_mut)
}

/// Declares `alias`, another name serde takes for `field` (`#[serde(alias)]`), with
/// `field`'s schema, and that the two are not given together (serde refuses a field
/// named twice). Without it a client reading the schema may send `alias` as any value,
/// the schema allowing unknown fields. The alias is marked `x-alias-of`: query
/// parameters cannot say "not both", so the document lists only the field there.
pub(crate) fn alias(schema: &mut Schema, field: &str, alias: &str) {
    let Some(properties) = properties(schema) else {
        return;
    };
    let Some(mut aliased) = properties.get(field).cloned() else {
        return;
    };
    if let Some(aliased) = aliased.as_object_mut() {
        aliased.insert(
            "description".into(),
            format!("Another name for `{field}`.").into(),
        );
        aliased.insert("x-alias-of".into(), field.into());
    }
    properties.insert(alias.to_owned(), aliased);
    schema.insert(
        "not".into(),
        serde_json::json!({"required": [field, alias]}),
    );
}

/// Requires at least one of `fields` with a value (not null): an update that changes
/// nothing is refused.
pub(crate) fn at_least_one_of(schema: &mut Schema, fields: &[&str]) {
    let options: Vec<serde_json::Value> = fields
        .iter()
        .map(|field| {
            serde_json::json!({
                "required": [field],
                "properties": {*field: {"not": {"type": "null"}}}
            })
        })
        .collect();
    schema.insert("anyOf".into(), serde_json::Value::Array(options));
}

/// An id or a count of 0 or more (0 often meaning "none"), absent or null allowed.
pub(crate) fn lenient_id(generator: &mut SchemaGenerator) -> Schema {
    lenient_in::<0, { i64::MAX }>(generator)
}

/// A channel's weight (`ratio`).
pub(crate) fn lenient_ratio(generator: &mut SchemaGenerator) -> Schema {
    lenient_in::<0, { crate::model::limits::MAX_RATIO }>(generator)
}

/// A channel's cap (`visit_limit`), 0 unlimited.
pub(crate) fn lenient_visit_limit(generator: &mut SchemaGenerator) -> Schema {
    lenient_in::<0, { crate::model::limits::MAX_VISIT_LIMIT }>(generator)
}

/// A channel's place in sort order (`sort`), negative allowed.
pub(crate) fn lenient_sort(generator: &mut SchemaGenerator) -> Schema {
    use crate::model::limits::MAX_VISIT_LIMIT;
    lenient_in::<{ -MAX_VISIT_LIMIT }, MAX_VISIT_LIMIT>(generator)
}

/// A [`LenientInt`] of 1 or more (pages), absent or null allowed.
pub(crate) fn lenient_positive(_: &mut SchemaGenerator) -> Schema {
    json_schema!({
        "anyOf": [
            {"type": "integer", "minimum": 1, "maximum": i64::MAX},
            {"type": "string", "pattern": digits_pattern(1, i64::MAX)},
            {"type": "null"}
        ]
    })
}

/// A regular expression of the decimal integers from `min` to `max` as the lenient reader
/// takes them: an optional `-`, leading zeros allowed, and the empty string when 0 is in
/// range. `min` is 0, 1 or `-max`.
pub(crate) fn digits_pattern(min: i64, max: i64) -> String {
    let mut forms = Vec::new();
    if min <= 0 && max >= 0 {
        forms.push("|-?0+".to_owned());
    }
    if max >= 1 {
        forms.push(format!("0*({})", one_to(max.unsigned_abs())));
    }
    if min < 0 {
        forms.push(format!("-0*({})", one_to(min.unsigned_abs())));
    }
    format!("^({})$", forms.join("|"))
}

/// A regular expression of the text times [`crate::clock::parse_flexible`] reads: Unix
/// seconds up to [`crate::clock::LATEST`], or a real calendar date and time of years 0 to
/// 9999 in the SQL or RFC 3339 form; spaces around, or nothing at all.
pub(crate) fn time_pattern() -> String {
    const YEAR: &str = "[0-9]{4}";
    const MONTH_DAY: &str = "((0[13578]|1[02])-(0[1-9]|[12][0-9]|3[01])\
                             |(0[469]|11)-(0[1-9]|[12][0-9]|30)|02-(0[1-9]|1[0-9]|2[0-8]))";
    // Years divisible by 4 and not by 100, or by 400 (year 0 among them).
    const LEAP_YEAR: &str =
        "([0-9]{2}(0[48]|[2468][048]|[13579][26])|(00|0[48]|[2468][048]|[13579][26])00)";
    const CLOCK: &str = "([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9]";
    let date = format!("({YEAR}-{MONTH_DAY}|{LEAP_YEAR}-02-29)");
    let sql = format!("{date} {CLOCK}");
    let rfc3339 = format!("{date}[Tt ]{CLOCK}(\\.[0-9]+)?([Zz]|[+-]([01][0-9]|2[0-3]):[0-5][0-9])");
    let seconds = one_to(crate::clock::LATEST.unsigned_abs());
    format!("^ *(|0+|0*({seconds})|{sql}|{rfc3339}) *$")
}

/// The decimal integers from 1 to `n` without leading zeros, as a regular expression.
fn one_to(n: u64) -> String {
    let digits: Vec<u32> = n
        .to_string()
        .chars()
        .filter_map(|c| c.to_digit(10))
        .collect();
    let k = digits.len();
    let mut forms = Vec::new();
    // Shorter numbers: any non-zero first digit, then any digits.
    if k > 1 {
        forms.push(format!("[1-9][0-9]{{0,{}}}", k - 2));
    }
    // Numbers of n's length: n's first i digits, one lower digit, then any digits.
    for i in 0..k {
        let low = if i == 0 { 1 } else { 0 };
        if digits[i] > low {
            let prefix: String = digits[..i].iter().map(u32::to_string).collect();
            let rest = k - i - 1;
            forms.push(format!("{prefix}[{low}-{}][0-9]{{{rest}}}", digits[i] - 1));
        }
    }
    forms.push(n.to_string());
    forms.join("|")
}

impl JsonSchema for IntList {
    fn schema_name() -> Cow<'static, str> {
        "IntList".into()
    }

    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        let one = generator.subschema_for::<LenientInt>();
        json_schema!({
            "description": "An id, or a list of ids.",
            "anyOf": [one.clone(), {"type": "array", "items": one}]
        })
    }
}

impl JsonSchema for FlexibleTime {
    fn schema_name() -> Cow<'static, str> {
        "FlexibleTime".into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "description": "A time: `YYYY-MM-DD HH:MM:SS` (UTC), RFC 3339, or Unix seconds \
                            (as a number or a string); empty or 0 is permanent.",
            "anyOf": [
                {
                    "type": "integer",
                    "format": "int64",
                    "minimum": crate::clock::EARLIEST,
                    "maximum": crate::clock::LATEST
                },
                {"type": "string", "pattern": time_pattern()}
            ]
        })
    }
}
