//! The OpenAPI 3.1 document of every operation, built from the route table alone: method,
//! path, access and scope, body kind and envelopes, and the wire types each row names for its
//! input and output, whose JSON Schemas schemars derives. Nothing here is written by hand
//! apart from the code.

mod generators;

use schemars::generate::SchemaSettings;
use schemars::{Schema, SchemaGenerator};
use serde_json::{Map, Value, json};

use generators::{for_generators, for_generators_in_operations};

use super::route::{Access, BodyKind, Output, Route, schema};
use crate::wire::envelope::Envelope;
use crate::wire::envelope::{CompatError, PrimaryError};
use crate::wire::operations::OPERATIONS;

/// A struct's schema itself: its schema is a reference into the components.
fn resolved(schema: &Schema, generator: &SchemaGenerator) -> Value {
    schema
        .get("$ref")
        .and_then(Value::as_str)
        .and_then(|r| r.rsplit('/').next())
        .and_then(|name| generator.definitions().get(name))
        .cloned()
        .unwrap_or_else(|| schema.as_value().clone())
}

/// Links from a creation (`POST P` answering 201 with an object that has an `id`) to the
/// operations on what it created (`P/{id}`), so that clients and stateful testers can chain
/// them.
fn creation_links(
    route: &Route,
    routes: &[Route],
    envelope: &Schema,
    generator: &SchemaGenerator,
) -> Option<Value> {
    if route.method != http::Method::POST {
        return None;
    }
    let envelope = resolved(envelope, generator);
    let data = envelope.get("properties")?.get("data")?;
    let data = match data
        .get("$ref")
        .and_then(Value::as_str)
        .and_then(|r| r.rsplit('/').next())
    {
        Some(name) => generator.definitions().get(name)?.clone(),
        None => data.clone(),
    };
    data.get("properties")?.get("id")?;
    let item = format!("{}/{{id}}", route.path);
    let links: Map<String, Value> = routes
        .iter()
        .filter(|r| r.path == item)
        .map(|r| {
            let operation = format!("{}.{}", r.name, r.method.as_str().to_ascii_lowercase());
            let link = json!({
                "operationId": operation,
                "parameters": {"path.id": "$response.body#/data/id"}
            });
            (operation.replace('.', "_"), link)
        })
        .collect();
    (!links.is_empty()).then_some(Value::Object(links))
}

/// The names of a struct's required fields.
fn required_fields(resolved: &Value) -> Vec<&str> {
    resolved
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default()
}

/// Query parameters from a struct's schema: one per property.
fn query_parameters(schema: &Schema, generator: &SchemaGenerator) -> Vec<Value> {
    let resolved = resolved(schema, generator);
    let required = required_fields(&resolved);
    resolved
        .get("properties")
        .and_then(Value::as_object)
        .map(|properties| {
            properties
                .iter()
                // Not an alias (`wire::schemas::alias`): a query cannot say "not both".
                .filter(|(_, property)| property.get("x-alias-of").is_none())
                .map(|(name, property)| {
                    // A query string carries no null: a parameter is given or left out.
                    let mut property = property.clone();
                    if let Some(options) = property.get_mut("anyOf").and_then(Value::as_array_mut) {
                        options.retain(|o| o.get("type").and_then(Value::as_str) != Some("null"));
                    }
                    if let Some(types) = property.get_mut("type").and_then(Value::as_array_mut) {
                        types.retain(|t| t != "null");
                    }
                    // One type left is written as that type: validators such as openapi-core
                    // fail on a list of one where a query value is cast.
                    if let Some(Value::Array(types)) = property.get("type")
                        && let [only] = types.as_slice()
                    {
                        property["type"] = only.clone();
                    }
                    let mut parameter = json!({
                        "name": name,
                        "in": "query",
                        "required": required.contains(&name.as_str()),
                        "schema": property,
                    });
                    if let Some(description) = property.get("description") {
                        parameter["description"] = description.clone();
                    }
                    parameter
                })
                .collect()
        })
        .unwrap_or_default()
}

/// `{name}` segments of a path, as path parameters.
fn path_parameters(path: &str) -> Vec<Value> {
    path.split('/')
        .filter_map(|segment| segment.strip_prefix('{')?.strip_suffix('}'))
        .map(|name| {
            let schema = if matches!(name, "id" | "file_id") {
                json!({"type": "integer", "format": "int64"})
            } else if name == "ad_platform_name" {
                json!({"type": "string", "pattern": "^[A-Za-z0-9_.-]{1,64}$"})
            } else {
                json!({"type": "string"})
            };
            json!({"name": name, "in": "path", "required": true, "schema": schema})
        })
        .collect()
}

fn json_content(schema: Value) -> Value {
    json!({"application/json": {"schema": schema}})
}

/// The error responses an operation may answer, in its error envelope.
fn error_responses(route: &Route, keyed: bool) -> Map<String, Value> {
    // Pages for people answer their errors as pages too.
    let content = match route.errors {
        Envelope::Compat => json_content(json!({"$ref": "#/components/schemas/CompatError"})),
        Envelope::Page => json!({"text/html": {"schema": {"type": "string"}}}),
        Envelope::Primary | Envelope::Status => {
            json_content(json!({"$ref": "#/components/schemas/PrimaryError"}))
        }
    };
    let mut statuses: Vec<(&str, &str)> = vec![
        (
            "400",
            "The input is invalid; the message says which field and why.",
        ),
        ("404", "Nothing of the caller's by that name."),
        (
            "422",
            "The input matches this document but breaks a rule it states in words: a time \
             that must be in the future, a user, group, domain or template that is not there \
             or not the caller's, or fields that go together; the message says which.",
        ),
        (
            "500",
            "Internal error; the log has the cause under the request id.",
        ),
        (
            "503",
            "The store is unavailable; retry after `Retry-After` seconds.",
        ),
    ];
    if keyed {
        statuses.extend([
            (
                "401",
                "The API key is missing, unknown, revoked or expired.",
            ),
            ("403", "The API key lacks this operation's scope."),
            (
                "429",
                "The key's rate limit or a quota was reached; see `Retry-After`.",
            ),
        ]);
    }
    if route.body != BodyKind::None || route.method == http::Method::DELETE {
        statuses.push((
            "409",
            "A unique value (a code, a name) is taken, or the thing cannot change so.",
        ));
    }
    if route.body != BodyKind::None {
        statuses.extend([
            ("413", "The body is over the size limit."),
            (
                "415",
                "The body's media type is not the one this operation reads.",
            ),
        ]);
    }
    statuses
        .into_iter()
        .map(|(status, description)| {
            (
                status.to_owned(),
                json!({"description": description, "content": content.clone()}),
            )
        })
        .collect()
}

/// The `Idempotency-Key` header of a create.
fn idempotency_key_parameter() -> Value {
    json!({
        "name": "Idempotency-Key",
        "in": "header",
        "required": false,
        "description": "Makes the create safe to send again. The same key from the same user \
                        with the same body within 24 hours is answered with the first answer \
                        (same status and body, `Idempotency-Replayed: true`) and creates \
                        nothing; a request arriving while the first is running waits for its \
                        answer. Only successes are kept: after an error, the key is free.",
        "schema": {"type": "string", "minLength": 1, "maxLength": 255,
                   "pattern": "^[!-~]([ -~]*[!-~])?$"}
    })
}

/// What `Idempotency-Key` adds to a create's responses.
fn describe_idempotency(errors: &mut Map<String, Value>, success: &mut Value) {
    success["headers"] = json!({"Idempotency-Replayed": {
        "description": "`true` when this is the answer kept under the request's \
                        Idempotency-Key, given again.",
        "schema": {"type": "string", "enum": ["true"]}
    }});
    for (status, addition) in [
        (
            "400",
            " `invalid_idempotency_key`: the Idempotency-Key is not 1 to 255 printable ASCII \
             characters.",
        ),
        (
            "409",
            " `idempotency_key_in_use`: the request that first used this Idempotency-Key is \
             still running; retry after `Retry-After` seconds.",
        ),
        (
            "422",
            " `idempotency_key_reused`: this Idempotency-Key was used for a different request \
             in the last 24 hours.",
        ),
    ] {
        if let Some(Value::String(description)) = errors
            .get_mut(status)
            .and_then(|r| r.get_mut("description"))
        {
            description.push_str(addition);
        }
    }
}

/// A response of raw bytes in each of `types`.
fn bytes_of(types: &[&str]) -> Value {
    types
        .iter()
        .map(|&media| {
            (
                media.to_owned(),
                json!({"schema": {"contentMediaType": media}}),
            )
        })
        .collect::<serde_json::Map<String, Value>>()
        .into()
}

fn success_response(ok: Output, generator: &mut SchemaGenerator) -> (String, Value) {
    match ok {
        Output::Json(status, schema) => (
            status.to_string(),
            json!({"description": "Success.",
                   "content": json_content(schema(generator).to_value())}),
        ),
        // Raw bytes as OpenAPI 3.1 spells them: no type (a JSON Schema `string` is text, and
        // validators such as openapi-core refuse bytes under it), the media type said. Both
        // QR formats are bytes: a validator or generated client receives an SVG's bytes as it
        // does a PNG's.
        Output::QrCode => (
            "200".into(),
            json!({"description": "The QR code, as `format` asks.",
                   "content": bytes_of(&["image/png", "image/svg+xml"])}),
        ),
        Output::HostedImage => (
            "200".into(),
            json!({"description": "The file, with the type its bytes tell.",
                   "content": bytes_of(&["image/png", "image/jpeg", "image/gif", "image/webp"])}),
        ),
        Output::Html => (
            "200".into(),
            json!({"description": "The page.",
                   "content": {"text/html": {"schema": {"type": "string"}}}}),
        ),
        Output::Link => (
            "302".into(),
            json!({"description": "A short chain (or a direct jump): `Location` is the \
                   destination. Messaging-app chains answer 200 with their jump page; unknown \
                   codes 404, expired chains and used-up codes 410.",
                   "headers": {"Location": {"schema": {"type": "string"}}}}),
        ),
        Output::NoContent => ("204".into(), json!({"description": "Nothing."})),
        Output::Export => (
            "200".into(),
            json!({"description": "One chain a line, streamed: JSON lines (`format=jsonl`, the \
                   default) or CSV with a header row (`format=csv`).",
                   "content": {"application/x-ndjson": {"schema": {"type": "string"}},
                               "text/csv": {"schema": {"type": "string"}}}}),
        ),
        Output::Metrics => (
            "200".into(),
            json!({"description": "Metrics in the Prometheus text format 0.0.4, or in \
                   OpenMetrics 1.0 when `Accept` asks for `application/openmetrics-text`.",
                   "content": {"text/plain": {"schema": {"type": "string"}},
                               "application/openmetrics-text": {"schema": {"type": "string"}}}}),
        ),
    }
}

/// The document of the server's route table as `GET /openapi.json` answers it, rendered on
/// first request.
pub(crate) fn rendered(metrics: super::MetricsAccess) -> super::response::RenderedOnce {
    super::response::RenderedOnce::new(move || {
        serde_json::to_vec_pretty(&document(&super::route::table::routes(metrics)))
            .unwrap_or_default()
            .into()
    })
}

/// The OpenAPI 3.1 document of `routes`.
pub(crate) fn document(routes: &[Route]) -> Value {
    let mut settings = SchemaSettings::draft2020_12();
    settings.definitions_path = "#/components/schemas/".into();
    let mut generator = SchemaGenerator::new(settings);
    schema::<PrimaryError>(&mut generator);
    schema::<CompatError>(&mut generator);
    let mut paths = Map::new();
    for route in routes {
        let keyed = matches!(route.access, Access::Key { .. });
        let mut parameters = path_parameters(route.path);
        let method = route.method.as_str().to_ascii_lowercase();
        // Compatibility list and info actions also take their fields as a query on GET.
        let body_in_query = method == "get";
        if let Some(query) = route.query_type {
            let query = query(&mut generator);
            parameters.extend(query_parameters(&query, &generator));
        }
        let mut operation = json!({
            "operationId": format!("{}.{method}", route.name),
            "tags": [tag(route.path)],
        });
        if let Some(declared) = OPERATIONS.iter().find(|op| op.name == route.name) {
            operation["summary"] = json!(declared.summary);
        }
        if let Some(vendor) = route.vendor {
            // The vendor's name, once per path it is called by (operation ids are unique).
            let mount = if route.path.starts_with("/openapi/") {
                "vendor.openapi"
            } else {
                "vendor"
            };
            operation["operationId"] = json!(format!("{mount}.{vendor}.{method}"));
            operation["tags"] = json!(["vendor"]);
            operation["x-vendor-operation"] = json!(vendor);
            operation["x-same-operation-as"] = json!(format!("{}.{method}", route.name));
            operation["summary"] = json!(format!(
                "The original vendor's `{vendor}`: the operation `{}`, called by the vendor's \
                 name and parameters",
                route.name
            ));
        }
        if let Some(body) = route.body_type {
            let body = body(&mut generator);
            if body_in_query {
                parameters.extend(query_parameters(&body, &generator));
            } else {
                // A body whose fields are all optional may be left out (it reads as `{}`).
                let shape = resolved(&body, &generator);
                // Required fields, or "at least one of" (an update must change something).
                let required = !required_fields(&shape).is_empty() || shape.get("anyOf").is_some();
                operation["requestBody"] =
                    json!({"required": required, "content": json_content(body.to_value())});
            }
        }
        if route.body == BodyKind::Multipart {
            operation["requestBody"] = json!({
                "required": true,
                "content": {"multipart/form-data": {
                    "schema": {
                        "type": "object",
                        "required": ["file"],
                        "properties": {"file": {
                            "type": "string",
                            "format": "binary",
                            "description": "A PNG, JPEG, GIF or WebP image, judged by its bytes: \
                                            anything else is refused with 415, an empty, \
                                            truncated or damaged image with 422."
                        }},
                        // Other parts are read past, whatever their names; a name must only
                        // be one a header can carry (no control characters but tab).
                        "propertyNames": {"pattern": "^[^\\u0000-\\u0008\\u000a-\\u001f\\u007f]*$"}
                    },
                    "encoding": {"file": {"contentType": "image/png, image/jpeg, image/gif, image/webp"}}
                }}
            });
        }
        if route.idempotent {
            parameters.push(idempotency_key_parameter());
        }
        if !parameters.is_empty() {
            operation["parameters"] = Value::Array(parameters);
        }
        let mut responses = error_responses(route, keyed);
        let (status, mut success) = success_response(route.output, &mut generator);
        if route.idempotent {
            describe_idempotency(&mut responses, &mut success);
        }
        if let Output::Json(201, envelope) = route.output {
            let envelope = envelope(&mut generator);
            if let Some(links) = creation_links(route, routes, &envelope, &generator) {
                success["links"] = links;
            }
        }
        responses.insert(status, success);
        if matches!(route.output, Output::Link) {
            let page = json!({"text/html": {"schema": {"type": "string"}}});
            responses.insert(
                "200".into(),
                json!({"description": "A messaging-app chain's jump page.", "content": page}),
            );
            responses.insert(
                "410".into(),
                json!({"description": "The chain expired, or every channel is used up.",
                       "content": page}),
            );
        }
        operation["responses"] = Value::Object(responses);
        match route.access {
            Access::Key {
                scope, query_key, ..
            } => {
                let mut schemes = vec![json!({"bearer": []}), json!({"apiKeyHeader": []})];
                if query_key {
                    schemes.push(json!({"apiKeyQuery": []}));
                }
                operation["security"] = Value::Array(schemes);
                operation["x-scope"] = json!(scope.to_string());
                let mut description = format!("Needs an API key with scope `{scope}`.");
                if query_key && route.body_type.is_some() && route.method != http::Method::GET {
                    description.push_str(
                        " The key may also come as `apikey` in the JSON body, as the original \
                         vendor's clients send it.",
                    );
                }
                operation["description"] = json!(description);
            }
            Access::Public { .. } => operation["security"] = json!([]),
        }
        let entry = paths
            .entry(route.path.to_owned())
            .or_insert_with(|| json!({}));
        entry[method.as_str()] = operation;
    }
    let mut schemas: Map<String, Value> = generator.take_definitions(true).into_iter().collect();
    for schema in schemas.values_mut() {
        for_generators(schema);
    }
    for methods in paths.values_mut() {
        for_generators_in_operations(methods);
    }
    json!({
        "openapi": "3.1.0",
        "info": {
            "title": "linkapi",
            "version": "1.0.0",
            "description": "A programmatic short-link service. The primary surface answers \
                `{code: 1, message, data}` (errors `{code: \"<short_name>\", message, status}`); \
                the compatibility surface under `/openapi/v1` answers `{code: 1, msg, result}` \
                (errors `{code: 0, msg}`), and so do the original vendor's operation names \
                (tag `vendor`) under `/openapi/v1` and `/v1`; conversion reports and transfer results answer \
                `{status: 1, result}` with primary errors."
        },
        // The server this document is fetched from (`GET /openapi.json`), whatever its name.
        "servers": [{"url": "/", "description": "The server that answers this document."}],
        "paths": paths,
        "components": {
            "schemas": schemas,
            "securitySchemes": {
                "bearer": {"type": "http", "scheme": "bearer",
                           "description": "`Authorization: Bearer lk_...`"},
                "apiKeyHeader": {"type": "apiKey", "in": "header", "name": "X-API-Key"},
                "apiKeyQuery": {"type": "apiKey", "in": "query", "name": "apikey",
                                "description": "Compatibility surface and `/card/createWxChain` only."}
            }
        }
    })
}

/// The surface an operation belongs to, as its tag.
fn tag(path: &str) -> &'static str {
    if path.starts_with("/openapi/v1/") || path.starts_with("/v1/") {
        "compatibility"
    } else if path.starts_with("/admin") {
        "administration"
    } else if path.starts_with("/card") {
        "card"
    } else {
        "primary"
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::http::MetricsAccess;
    use crate::http::route::table::routes;

    #[test]
    fn the_document_names_every_operation_and_resolves_its_references() {
        let routes = routes(MetricsAccess::Loopback);
        let doc = document(&routes);
        let text = doc.to_string();
        let schemas = doc["components"]["schemas"].as_object().expect("schemas");
        // Every reference points at a component that exists.
        for reference in text.split("\"$ref\":\"#/components/schemas/").skip(1) {
            let name = reference.split('"').next().unwrap_or_default();
            assert!(schemas.contains_key(name), "dangling reference to {name}");
        }
        let create = &doc["paths"]["/chains"]["post"];
        assert_eq!(create["x-scope"], "chains:write");
        assert!(create["responses"]["201"].is_object());
        assert!(create["requestBody"].is_object());
        let compat_get = &doc["paths"]["/openapi/v1/chain/list"]["get"];
        assert!(
            compat_get["parameters"]
                .as_array()
                .is_some_and(|p| !p.is_empty())
        );
        assert_eq!(doc["paths"]["/healthz"]["get"]["security"], json!([]));
    }

    /// What code generators stumble on (datamodel-codegen, openapi-python-client): boolean
    /// schemas, arrays without `items`, integer formats outside OpenAPI's registry.
    #[test]
    fn the_document_holds_nothing_generators_stumble_on() {
        fn walk(value: &Value, at: &str, in_schema: bool) {
            match value {
                Value::Bool(_) if in_schema => panic!("a boolean schema at {at}"),
                Value::Object(fields) => {
                    if fields.get("type") == Some(&json!("array")) {
                        assert!(
                            fields.contains_key("items"),
                            "an array without items at {at}"
                        );
                    }
                    if let Some(Value::String(format)) = fields.get("format") {
                        assert!(
                            [
                                "int32",
                                "int64",
                                "binary",
                                "date-time",
                                "uri",
                                "double",
                                "float"
                            ]
                            .contains(&format.as_str()),
                            "format {format} at {at}"
                        );
                    }
                    for (key, field) in fields {
                        let schema = matches!(
                            key.as_str(),
                            "schema" | "items" | "not" | "propertyNames" | "contains"
                        );
                        let schemas = matches!(
                            key.as_str(),
                            "anyOf" | "oneOf" | "allOf" | "prefixItems" | "properties" | "schemas"
                        );
                        walk(
                            field,
                            &format!("{at}/{key}"),
                            schema || (in_schema && schemas),
                        );
                        if schemas {
                            let items: Vec<&Value> = match field {
                                Value::Array(items) => items.iter().collect(),
                                Value::Object(named) => named.values().collect(),
                                _ => Vec::new(),
                            };
                            for item in items {
                                assert!(!item.is_boolean(), "a boolean schema in {at}/{key}");
                            }
                        }
                    }
                }
                Value::Array(items) => {
                    for (i, item) in items.iter().enumerate() {
                        walk(item, &format!("{at}/{i}"), in_schema);
                    }
                }
                _ => {}
            }
        }
        let doc = document(&routes(MetricsAccess::Loopback));
        walk(&doc, "", false);
        let operations: Vec<&str> = doc["paths"]
            .as_object()
            .into_iter()
            .flat_map(|paths| paths.values())
            .filter_map(Value::as_object)
            .flat_map(|methods| methods.values())
            .filter_map(|op| op["operationId"].as_str())
            .collect();
        let unique: std::collections::HashSet<_> = operations.iter().collect();
        assert_eq!(unique.len(), operations.len(), "operation ids are unique");
    }

    /// `docs/openapi.json` is this document (the server's default, metrics on loopback);
    /// `LINKAPI_UPDATE_GENERATED=1` rewrites it.
    #[test]
    fn the_committed_copy_is_current() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/openapi.json");
        let mut current = serde_json::to_string_pretty(&document(&routes(MetricsAccess::Loopback)))
            .expect("serializes");
        current.push('\n');
        if std::env::var_os("LINKAPI_UPDATE_GENERATED").is_some() {
            std::fs::write(&path, &current).expect("write docs/openapi.json");
        }
        let committed = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            committed == current,
            "docs/openapi.json is stale: run LINKAPI_UPDATE_GENERATED=1 cargo test -p linkapi-core --lib openapi"
        );
    }
}
