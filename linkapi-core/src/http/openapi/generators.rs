//! The document as code generators read it, meaning the same: no boolean schemas, OpenAPI's
//! registered integer formats.

use serde_json::{Value, json};

/// Every schema of a path item's operations (their parameters, bodies and responses) made
/// [`for_generators`].
pub(super) fn for_generators_in_operations(value: &mut Value) {
    match value {
        Value::Object(fields) => {
            for (key, field) in fields.iter_mut() {
                if key == "schema" {
                    for_generators(field);
                } else {
                    for_generators_in_operations(field);
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(for_generators_in_operations),
        _ => {}
    }
}

/// `schema` as code generators read it, meaning the same: a boolean schema is an object
/// (`true` is `{}`, `false` is `{"not": {}}`) except where a boolean is the usual spelling
/// (`additionalProperties`); integer formats are OpenAPI's registered ones (`int32`,
/// `int64`), the type's bounds kept as `minimum` and `maximum` (schemars writes Rust's
/// `uint16`, `uint32`, `uint`).
pub(super) fn for_generators(schema: &mut Value) {
    match schema {
        Value::Bool(true) => *schema = json!({}),
        Value::Bool(false) => *schema = json!({"not": {}}),
        Value::Object(fields) => {
            if let Some(Value::String(format)) = fields.get("format") {
                let registered = match format.as_str() {
                    "int8" | "int16" | "uint8" | "uint16" => Some(("int32", true)),
                    "uint32" | "uint" | "uint64" | "int" | "usize" => Some(("int64", true)),
                    "isize" => Some(("int64", false)),
                    _ => None,
                };
                if let Some((format, unsigned)) = registered {
                    if unsigned && !fields.contains_key("minimum") {
                        fields.insert("minimum".into(), json!(0));
                    }
                    fields.insert("format".into(), json!(format));
                }
            }
            for (key, field) in fields.iter_mut() {
                match key.as_str() {
                    "items" | "not" | "propertyNames" | "contains" | "if" | "then" | "else" => {
                        for_generators(field);
                    }
                    "additionalProperties" | "unevaluatedProperties" if field.is_object() => {
                        for_generators(field);
                    }
                    "anyOf" | "oneOf" | "allOf" | "prefixItems" => {
                        if let Value::Array(options) = field {
                            options.iter_mut().for_each(for_generators);
                        }
                    }
                    "properties" | "patternProperties" | "$defs" => {
                        if let Value::Object(named) = field {
                            named.values_mut().for_each(for_generators);
                        }
                    }
                    _ => {}
                }
            }
        }
        _ => {}
    }
}
