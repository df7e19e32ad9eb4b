//! The OpenAPI 3.1 document of every operation, built from the route table (method, path,
//! access and scope, body kind, envelopes) and the JSON Schemas of the wire types the handlers
//! decode and encode (schemars). Nothing here is written by hand apart from the code: each
//! route names its input and output types in [`shapes`], and a test fails for a route that
//! has none.

use schemars::generate::SchemaSettings;
use schemars::{JsonSchema, Schema, SchemaGenerator};
use serde_json::{Map, Value, json};

use super::response::Envelope;
use super::router::{Access, BodyKind, Route};
use crate::wire::envelope::{CompatError, CompatOk, Empty, PrimaryError, PrimaryOk, StatusOk};
use crate::wire::{admin, compat, primary};

/// A type's schema, registered in the document's components.
type SchemaFn = fn(&mut SchemaGenerator) -> Schema;

fn schema<T: JsonSchema>(generator: &mut SchemaGenerator) -> Schema {
    generator.subschema_for::<T>()
}

/// What a success answers.
#[derive(Clone, Copy)]
enum Success {
    /// JSON: status and the whole body (envelope included).
    Json(u16, SchemaFn),
    /// An image (QR codes, hosted files).
    Image,
    /// A page for people (jump pages, template previews).
    Html,
    /// A short link: a redirect, a jump page, or an error page.
    Link,
    /// 204 and nothing.
    NoContent,
    /// Prometheus text.
    Metrics,
}

/// An operation's input and output types.
#[derive(Clone, Copy)]
struct Shapes {
    /// The query string's fields.
    query: Option<SchemaFn>,
    /// The JSON body (or, on a compatibility `GET`, the query string's fields).
    body: Option<SchemaFn>,
    /// The success.
    ok: Success,
}

fn ok_primary<T: JsonSchema>() -> Success {
    Success::Json(200, schema::<PrimaryOk<T>>)
}

fn created_primary<T: JsonSchema>() -> Success {
    Success::Json(201, schema::<PrimaryOk<T>>)
}

fn ok_compat<T: JsonSchema>() -> Success {
    Success::Json(200, schema::<CompatOk<T>>)
}

fn ok_status<T: JsonSchema>() -> Success {
    Success::Json(200, schema::<StatusOk<T>>)
}

fn only(ok: Success) -> Shapes {
    Shapes {
        query: None,
        body: None,
        ok,
    }
}

fn with_body<B: JsonSchema>(ok: Success) -> Shapes {
    Shapes {
        query: None,
        body: Some(schema::<B>),
        ok,
    }
}

fn with_query<Q: JsonSchema>(ok: Success) -> Shapes {
    Shapes {
        query: Some(schema::<Q>),
        body: None,
        ok,
    }
}

/// The input and output types of the operation named `name`; `None` for a name this table
/// does not know (a test keeps every route in it).
fn shapes(name: &str) -> Option<Shapes> {
    use {admin as a, compat as c, primary as p};
    Some(match name {
        "healthz" | "readyz" => only(ok_primary::<p::Health>()),
        "openapi" => only(Success::Json(200, schema::<Value>)),
        "metrics" => only(Success::Metrics),
        "favicon" => only(Success::NoContent),
        "files.get" => only(Success::Image),
        "redirect" => only(Success::Link),
        "chains.create" => with_body::<p::CreateChain>(created_primary::<p::Chain>()),
        "chains.list" => with_query::<p::ListChains>(ok_primary::<p::ChainPage>()),
        "chains.get" => only(ok_primary::<p::Chain>()),
        "chains.update" => with_body::<p::UpdateChain>(ok_primary::<p::Chain>()),
        "chains.delete" | "wx_chains.delete" => only(ok_primary::<p::DeletedChain>()),
        "chains.stats" => with_query::<p::StatsQuery>(ok_primary::<p::ChainStats>()),
        "chains.qr" | "wx_chains.qr" => with_query::<p::QrQuery>(Success::Image),
        "chains.conversions" => with_query::<p::ListConversions>(ok_primary::<p::ConversionPage>()),
        "groups.create" => with_body::<p::CreateGroup>(created_primary::<p::Group>()),
        "groups.list" => only(ok_primary::<Vec<p::Group>>()),
        "domains.list" => only(ok_primary::<Vec<p::Domain>>()),
        "templates.list" => with_query::<p::ListTemplates>(ok_primary::<p::TemplatePage>()),
        "uploads.create" => only(created_primary::<p::Upload>()),
        "uploads.list" => with_query::<p::ListUploads>(ok_primary::<p::UploadPage>()),
        "uploads.delete" => only(ok_primary::<p::Upload>()),
        "wx_chains.create" => with_body::<p::WxChainInput>(created_primary::<p::CreatedWxChain>()),
        "wx_chains.list" => with_query::<p::ListWxChains>(ok_primary::<p::WxChainPage>()),
        "wx_chains.get" => only(ok_primary::<p::WxChain>()),
        "wx_chains.update" => with_body::<p::WxChainInput>(ok_primary::<p::WxChain>()),
        "card.list" => only(ok_primary::<p::CardList>()),
        "card.create" => with_body::<c::CardChainInput>(ok_compat::<c::CreatedWxChain>()),
        "admin.users.create" => with_body::<a::CreateUser>(created_primary::<a::User>()),
        "admin.users.list" => only(ok_primary::<Vec<a::User>>()),
        "admin.keys.create" => with_body::<a::CreateKey>(created_primary::<a::CreatedKey>()),
        "admin.keys.list" => with_query::<a::ListKeys>(ok_primary::<Vec<a::Key>>()),
        "admin.keys.revoke" => only(ok_primary::<a::Key>()),
        "admin.domains.create" => with_body::<a::CreateDomain>(created_primary::<a::Domain>()),
        "admin.domains.list" => only(ok_primary::<Vec<a::Domain>>()),
        "admin.domains.update" => with_body::<a::UpdateDomain>(ok_primary::<a::Domain>()),
        "admin.visitor_secret.rotate" => only(ok_primary::<a::VisitorSecretRotated>()),
        "admin.templates.create" => {
            with_body::<a::CreateTemplate>(created_primary::<a::Template>())
        }
        "admin.templates.list" => with_query::<a::ListTemplates>(ok_primary::<Vec<a::Template>>()),
        "admin.templates.update" => with_body::<a::UpdateTemplate>(ok_primary::<a::Template>()),
        "admin.templates.retire" => only(ok_primary::<a::Template>()),
        "admin.templates.preview" => with_query::<a::PreviewTemplate>(Success::Html),
        "admin.workchat.assemblies.put" => with_body::<a::PutAssembly>(ok_primary::<a::Assembly>()),
        "admin.workchat.assemblies.list" => {
            with_query::<a::ListAssemblies>(ok_primary::<a::AssemblyPage>())
        }
        "admin.workchat.transfers.load" => {
            with_body::<a::LoadTransfers>(ok_primary::<a::LoadedTransfers>())
        }
        "compat.chain.create" => with_body::<c::CreateChain>(ok_compat::<c::CreatedChain>()),
        "compat.chain.edit" => with_body::<c::EditChain>(ok_compat::<c::EditedChain>()),
        "compat.chain.delete" => with_body::<c::DeleteChains>(ok_compat::<Empty>()),
        "compat.chain.list" => with_body::<c::ListChains>(ok_compat::<c::ChainList>()),
        "compat.chain.info" => with_body::<c::ChainInfo>(ok_compat::<c::ChainItem>()),
        "compat.group.create" => with_body::<c::CreateGroup>(ok_compat::<c::CreatedGroup>()),
        "compat.group.list" => only(ok_compat::<c::GroupList>()),
        "compat.domain.list" => only(ok_compat::<c::DomainList>()),
        "compat.template.list" => with_body::<c::ListTemplates>(ok_compat::<c::TemplateList>()),
        "compat.upload.image" => only(ok_compat::<c::UploadResult>()),
        "compat.wxchain.create" | "compat.wxchain.edit" => {
            with_body::<c::WxChainInput>(ok_compat::<c::CreatedWxChain>())
        }
        "compat.wxchain.info" => with_body::<c::ChainRef>(ok_compat::<c::WxChainInfo>()),
        "compat.wxchain.list" => with_body::<c::ListWxChains>(ok_compat::<c::WxChainList>()),
        "compat.workchat.chain.create" | "compat.workchat.chain.edit" => {
            with_body::<c::WorkchatChainInput>(ok_compat::<c::CreatedWxChain>())
        }
        "compat.workchat.chain.info" => {
            with_body::<c::ChainRef>(ok_compat::<c::WorkchatChainInfo>())
        }
        "compat.workchat.assembly.list" => {
            with_body::<c::ListAssemblies>(ok_compat::<c::AssemblyList>())
        }
        "compat.workchat.transfer.result" => Shapes {
            query: Some(schema::<c::TransferQuery>),
            body: Some(schema::<c::TransferRequest>),
            ok: ok_status::<c::TransferResult>(),
        },
        "compat.conversions.report" => {
            with_body::<c::ConversionReport>(ok_status::<c::ConversionResult>())
        }
        _ => return None,
    })
}

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
        .filter(|r| r.path == item && shapes(r.name).is_some())
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
                .map(|(name, property)| {
                    // A query string carries no null: a parameter is given or left out.
                    let mut property = property.clone();
                    if let Some(options) = property.get_mut("anyOf").and_then(Value::as_array_mut) {
                        options.retain(|o| o.get("type").and_then(Value::as_str) != Some("null"));
                    }
                    if let Some(types) = property.get_mut("type").and_then(Value::as_array_mut) {
                        types.retain(|t| t != "null");
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

fn success_response(ok: Success, generator: &mut SchemaGenerator) -> (String, Value) {
    match ok {
        Success::Json(status, schema) => (
            status.to_string(),
            json!({"description": "Success.",
                   "content": json_content(schema(generator).to_value())}),
        ),
        Success::Image => (
            "200".into(),
            json!({"description": "The image.",
                   "content": {"image/png": {"schema": {"type": "string", "format": "binary"}},
                               "image/svg+xml": {"schema": {"type": "string"}},
                               "image/*": {"schema": {"type": "string", "format": "binary"}}}}),
        ),
        Success::Html => (
            "200".into(),
            json!({"description": "The page.",
                   "content": {"text/html": {"schema": {"type": "string"}}}}),
        ),
        Success::Link => (
            "302".into(),
            json!({"description": "A short chain (or a direct jump): `Location` is the \
                   destination. Messaging-app chains answer 200 with their jump page; unknown \
                   codes 404, expired chains and used-up codes 410.",
                   "headers": {"Location": {"schema": {"type": "string"}}}}),
        ),
        Success::NoContent => ("204".into(), json!({"description": "Nothing."})),
        Success::Metrics => (
            "200".into(),
            json!({"description": "Metrics in the OpenMetrics text format.",
                   "content": {"application/openmetrics-text": {"schema": {"type": "string"}}}}),
        ),
    }
}

/// The OpenAPI 3.1 document of `routes`.
///
/// # Panics
/// Never for the server's route table: a test checks every route has its shapes.
pub(crate) fn document(routes: &[Route]) -> Value {
    let mut settings = SchemaSettings::draft2020_12();
    settings.definitions_path = "#/components/schemas/".into();
    let mut generator = SchemaGenerator::new(settings);
    schema::<PrimaryError>(&mut generator);
    schema::<CompatError>(&mut generator);
    let mut paths = Map::new();
    for route in routes {
        let Some(shapes) = shapes(route.name) else {
            continue;
        };
        let keyed = matches!(route.access, Access::Key { .. });
        let mut parameters = path_parameters(route.path);
        let method = route.method.as_str().to_ascii_lowercase();
        // Compatibility list and info actions also take their fields as a query on GET.
        let body_in_query = method == "get";
        if let Some(query) = shapes.query {
            let query = query(&mut generator);
            parameters.extend(query_parameters(&query, &generator));
        }
        let mut operation = json!({
            "operationId": format!("{}.{method}", route.name),
            "tags": [tag(route.path)],
        });
        if let Some(body) = shapes.body {
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
        if !parameters.is_empty() {
            operation["parameters"] = Value::Array(parameters);
        }
        let mut responses = error_responses(route, keyed);
        let (status, mut success) = success_response(shapes.ok, &mut generator);
        if let Success::Json(201, envelope) = shapes.ok {
            let envelope = envelope(&mut generator);
            if let Some(links) = creation_links(route, routes, &envelope, &generator) {
                success["links"] = links;
            }
        }
        responses.insert(status, success);
        if matches!(shapes.ok, Success::Link) {
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
                operation["description"] = json!(format!("Needs an API key with scope `{scope}`."));
            }
            Access::Public(_) => operation["security"] = json!([]),
        }
        let entry = paths
            .entry(route.path.to_owned())
            .or_insert_with(|| json!({}));
        entry[method.as_str()] = operation;
    }
    let schemas: Map<String, Value> = generator.take_definitions(true).into_iter().collect();
    json!({
        "openapi": "3.1.0",
        "info": {
            "title": "linkapi",
            "version": "1.0.0",
            "description": "A programmatic short-link service. The primary surface answers \
                `{code: 1, message, data}` (errors `{code: \"<short_name>\", message, status}`); \
                the compatibility surface under `/openapi/v1` answers `{code: 1, msg, result}` \
                (errors `{code: 0, msg}`); conversion reports and transfer results answer \
                `{status: 1, result}` with primary errors."
        },
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
    if path.starts_with("/openapi/v1/") {
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
    use crate::http::router::routes;

    #[test]
    fn every_route_has_its_shapes() {
        for access in [MetricsAccess::Loopback, MetricsAccess::Admin] {
            for route in routes(access) {
                assert!(shapes(route.name).is_some(), "{} has no shapes", route.name);
            }
        }
    }

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
