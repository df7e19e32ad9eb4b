//! What one operation is: method and path, who may call it (no key, or a key with a scope, and
//! whether the key may come as `?apikey=`), what it reads (query fields, a JSON body, or a
//! multipart stream, with the types they decode into), what it answers (status, envelope and
//! the type inside), and its handler. A row of the route table (`routes`) says all of it, and
//! everything else derives from the row: dispatch (`http::dispatch`), the OpenAPI document
//! (`openapi`), and the tests that every operation refuses calls without a key or its scope.
//!
//! A row is built in two steps so that none can be left half declared: [`primary`],
//! [`compat`] or [`public`] start it with the method, path, name, access and handler, input
//! types are added with [`Declared::query`] and [`Declared::body`], and it becomes a [`Route`]
//! only by saying what it answers ([`Declared::ok`], [`Declared::created`],
//! [`Declared::answers`]).

pub(crate) mod matcher;
pub(crate) mod table;

use futures_util::future::BoxFuture;
use http::Method;
use schemars::{JsonSchema, Schema, SchemaGenerator};

use super::call::{Call, Head, PublicCall};
use super::response::Body;
use crate::error::Result;
use crate::model::Scope;
use crate::service::App;
use crate::wire::envelope::{CompatOk, Envelope, PrimaryOk, StatusOk};
use crate::wire::operations::Operation;

/// What an operation reads of the request body.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum BodyKind {
    /// Nothing: the body is not read.
    None,
    /// A JSON document of at most `ServerConfig::max_body_bytes`, read whole before the
    /// handler runs (an empty body is `{}`).
    Json,
    /// As `Json`, up to [`LARGE_BODY_BYTES`] (or `max_body_bytes` when that is more): bulk
    /// operations, whose bodies are many ordinary ones.
    LargeJson,
    /// A `multipart/form-data` stream the handler reads part by part (uploads).
    Multipart,
}

/// The body limit of bulk operations: 10,000 chains of a few hundred bytes each fit many
/// times over; the largest allowed items (2,048-character URLs) still fit 10,000 times.
pub const LARGE_BODY_BYTES: usize = 32 << 20;

/// An authenticated operation's handler.
pub(crate) type ApiHandler =
    for<'a> fn(&'a App, Call) -> BoxFuture<'a, Result<http::Response<Body>>>;

/// An unauthenticated operation's handler.
pub(crate) type PublicHandler =
    for<'a> fn(&'a App, PublicCall<'a>) -> BoxFuture<'a, Result<http::Response<Body>>>;

/// A public operation's answer when it needs no waiting ([`Declared::at_once`]): `None`
/// hands the call on to the operation's handler.
pub(crate) type AtOnceHandler =
    for<'a> fn(&'a App, &Head<'a>) -> Option<Result<http::Response<Body>>>;

/// Who may call an operation, and what runs it.
#[derive(Clone, Copy)]
pub(crate) enum Access {
    /// No key: health checks and the redirect path.
    Public {
        /// The handler.
        handler: PublicHandler,
        /// What answers first, when it can without waiting ([`Declared::at_once`]).
        at_once: Option<AtOnceHandler>,
    },
    /// A key holding `scope`.
    Key {
        /// The scope the key must hold.
        scope: Scope,
        /// Whether the key may also come as `?apikey=` (the compatibility surface and the
        /// card operations; contract section 1).
        query_key: bool,
        /// The handler.
        handler: ApiHandler,
    },
}

/// A wire type's JSON Schema, registered in the OpenAPI document's components.
pub(crate) type SchemaFn = fn(&mut SchemaGenerator) -> Schema;

pub(crate) fn schema<T: JsonSchema>(generator: &mut SchemaGenerator) -> Schema {
    generator.subschema_for::<T>()
}

/// What a success answers.
#[derive(Clone, Copy)]
pub(crate) enum Output {
    /// JSON: status and the whole body (envelope included).
    Json(u16, SchemaFn),
    /// A QR code: PNG or SVG.
    QrCode,
    /// A hosted file: a PNG, JPEG, GIF or WebP image (uploads refuse SVG).
    HostedImage,
    /// A page for people (jump pages, template previews).
    Html,
    /// A short link: a redirect, a jump page, or an error page.
    Link,
    /// 204 and nothing.
    NoContent,
    /// Prometheus text.
    Metrics,
    /// An export: JSON lines or CSV, as `format` asks.
    Export,
}

/// A name of an operation in the original vendor's API (contract section 5), which its clients
/// call under `/openapi/v1/` and under `/v1/`: the same operation, by another path.
#[derive(Clone, Copy)]
pub(crate) struct Vendor {
    /// The vendor's operation name (`getChainList`).
    pub(crate) name: &'static str,
    /// Its two paths, `/openapi/v1/{path}` and `/v1/{path}`.
    pub(crate) paths: [&'static str; 2],
    /// What it answers where the vendor's shape differs from the operation's own
    /// (`getChainGroup`'s array); the handler reads [`Route::vendor`] to answer so.
    pub(crate) output: Option<Output>,
}

/// A [`Vendor`] name: `vendor!("chain" / "getChainList")` is the operation `getChainList` at
/// `/openapi/v1/chain/getChainList` and `/v1/chain/getChainList`.
macro_rules! vendor {
    ($area:literal / $name:literal) => {
        $crate::http::route::Vendor {
            name: $name,
            paths: [
                concat!("/openapi/v1/", $area, "/", $name),
                concat!("/v1/", $area, "/", $name),
            ],
            output: None,
        }
    };
}
pub(crate) use vendor;

impl Vendor {
    /// The vendor's operation answers `T` in the compatibility envelope.
    pub(crate) fn answering<T: JsonSchema>(mut self) -> Self {
        self.output = Some(Output::Json(200, enveloped::<T>(Envelope::Compat)));
        self
    }
}

/// One operation.
#[derive(Clone)]
pub(crate) struct Route {
    /// The method (HEAD is answered wherever GET is).
    pub(crate) method: Method,
    /// The path, `{name}` for its parameter.
    pub(crate) path: &'static str,
    /// Stable operation name: logs, and the OpenAPI operation id.
    pub(crate) name: &'static str,
    /// Who may call it.
    pub(crate) access: Access,
    /// What it reads of the body.
    pub(crate) body: BodyKind,
    /// The envelope of its successes.
    pub(crate) success: Envelope,
    /// The envelope of its errors.
    pub(crate) errors: Envelope,
    /// The type its query string decodes into.
    pub(crate) query_type: Option<SchemaFn>,
    /// The type its JSON body decodes into (on a compatibility `GET`, its query string).
    pub(crate) body_type: Option<SchemaFn>,
    /// What a success answers.
    pub(crate) output: Output,
    /// Whether it honours `Idempotency-Key` (creates): its handler records its answer under
    /// the key in the create's transaction, and a repeat is answered from the record.
    pub(crate) idempotent: bool,
    /// The vendor's names for it, each a route of its own once the table is read
    /// ([`with_vendor_paths`]).
    pub(crate) vendor_names: Vec<Vendor>,
    /// On a vendor path, the vendor's operation name: the route is the same operation as
    /// its counterpart (same `name`, scope, rules and idempotency), answering in the vendor's
    /// shape where [`Vendor::output`] says so.
    pub(crate) vendor: Option<&'static str>,
}

/// `routes` with a route for each vendor path of each, after the routes themselves.
pub(crate) fn with_vendor_paths(mut routes: Vec<Route>) -> Vec<Route> {
    let mut aliases = Vec::new();
    for route in &mut routes {
        for vendor in std::mem::take(&mut route.vendor_names) {
            for path in vendor.paths {
                aliases.push(Route {
                    path,
                    output: vendor.output.unwrap_or(route.output),
                    vendor: Some(vendor.name),
                    ..route.clone()
                });
            }
        }
    }
    routes.extend(aliases);
    routes
}

/// An operation whose row does not yet say what it answers.
pub(crate) struct Declared {
    method: Method,
    path: &'static str,
    name: &'static str,
    access: Access,
    body: BodyKind,
    success: Envelope,
    errors: Envelope,
    query_type: Option<SchemaFn>,
    body_type: Option<SchemaFn>,
    idempotent: bool,
    vendor_names: Vec<Vendor>,
}

impl Declared {
    /// The original vendor's clients call it by `vendor`'s name too.
    pub(crate) fn vendor(mut self, vendor: Vendor) -> Self {
        self.vendor_names.push(vendor);
        self
    }

    /// Its query string decodes into `Q`.
    pub(crate) fn query<Q: JsonSchema>(mut self) -> Self {
        self.query_type = Some(schema::<Q>);
        self
    }

    /// Its JSON body (on a compatibility `GET`, its query string) decodes into `B`.
    pub(crate) fn body<B: JsonSchema>(mut self) -> Self {
        self.body_type = Some(schema::<B>);
        self
    }

    /// Its JSON body may be as large as [`LARGE_BODY_BYTES`] (a bulk operation).
    pub(crate) fn large_body(mut self) -> Self {
        self.body = BodyKind::LargeJson;
        self
    }

    /// It reads a `multipart/form-data` stream instead of a JSON body.
    pub(crate) fn multipart(mut self) -> Self {
        self.body = BodyKind::Multipart;
        self
    }

    /// It is a create that honours `Idempotency-Key`; its handler passes the call's receipt
    /// ([`crate::http::call::Call::receipt`]) to the service that writes.
    pub(crate) fn idempotent(mut self) -> Self {
        self.idempotent = true;
        self
    }

    /// A public operation that can often answer without waiting (a redirect from the link
    /// cache): `at_once` runs first, before any future is made, and the handler only when
    /// it answers `None`. *Why:* the future of a request is built, moved into hyper's
    /// connection and polled through every layer of the server; a cached redirect needs none
    /// of that, and it is nearly all of a server's traffic.
    pub(crate) fn at_once(mut self, at_once: AtOnceHandler) -> Self {
        let Access::Public { handler, .. } = self.access else {
            panic!("{}: only a public operation answers at once", self.path);
        };
        self.access = Access::Public {
            handler,
            at_once: Some(at_once),
        };
        self
    }

    /// It answers 200 with `T` in its success envelope.
    pub(crate) fn ok<T: JsonSchema>(self) -> Route {
        let envelope = self.success;
        self.answers(Output::Json(200, enveloped::<T>(envelope)))
    }

    /// It answers 201 with what it created, `T`, in its success envelope.
    pub(crate) fn created<T: JsonSchema>(self) -> Route {
        let envelope = self.success;
        self.answers(Output::Json(201, enveloped::<T>(envelope)))
    }

    /// It answers `output`.
    pub(crate) fn answers(self, output: Output) -> Route {
        Route {
            method: self.method,
            path: self.path,
            name: self.name,
            access: self.access,
            body: self.body,
            success: self.success,
            errors: self.errors,
            query_type: self.query_type,
            body_type: self.body_type,
            output,
            idempotent: self.idempotent,
            vendor_names: self.vendor_names,
            vendor: None,
        }
    }
}

/// The schema of `T` in `envelope`.
fn enveloped<T: JsonSchema>(envelope: Envelope) -> SchemaFn {
    match envelope {
        Envelope::Compat => schema::<CompatOk<T>>,
        Envelope::Status => schema::<StatusOk<T>>,
        Envelope::Primary | Envelope::Page => schema::<PrimaryOk<T>>,
    }
}

/// Wraps an `async fn(&App, Call|PublicCall) -> Result<Response>` as a table entry.
macro_rules! handler {
    ($f:path) => {
        |app, call| Box::pin($f(app, call))
    };
}
pub(crate) use handler;

/// A primary-surface operation: headers carry the key, primary envelopes (the `Status`
/// operations' errors too), a JSON body on `POST` and `PATCH`.
pub(crate) fn primary(op: Operation, scope: Scope, handler: ApiHandler) -> Declared {
    keyed(op.http_method(), op, scope, false, handler)
}

/// A compatibility-surface action: the key may come as `?apikey=`, compat envelopes (but
/// for the `Status` operations, whose errors are primary), a JSON body.
pub(crate) fn compat(op: Operation, scope: Scope, handler: ApiHandler) -> Declared {
    keyed(op.http_method(), op, scope, true, handler)
}

/// A compatibility-surface read by `method`: by `GET` its fields come as query parameters.
pub(crate) fn compat_by(
    method: Method,
    op: Operation,
    scope: Scope,
    handler: ApiHandler,
) -> Declared {
    keyed(method, op, scope, true, handler)
}

fn keyed(
    method: Method,
    op: Operation,
    scope: Scope,
    query_key: bool,
    handler: ApiHandler,
) -> Declared {
    let body = if method == Method::POST || method == Method::PATCH {
        BodyKind::Json
    } else {
        BodyKind::None
    };
    let errors = match op.envelope {
        Envelope::Compat => Envelope::Compat,
        _ => Envelope::Primary,
    };
    Declared {
        method,
        path: op.path,
        name: op.name,
        access: Access::Key {
            scope,
            query_key,
            handler,
        },
        body,
        success: op.envelope,
        errors,
        query_type: None,
        body_type: None,
        idempotent: false,
        vendor_names: Vec::new(),
    }
}

/// An operation anyone may call with `GET`, answering in its envelope.
pub(crate) fn public(op: Operation, handler: PublicHandler) -> Declared {
    Declared {
        method: op.http_method(),
        path: op.path,
        name: op.name,
        access: Access::Public {
            handler,
            at_once: None,
        },
        body: BodyKind::None,
        success: op.envelope,
        errors: op.envelope,
        query_type: None,
        body_type: None,
        idempotent: false,
        vendor_names: Vec::new(),
    }
}
