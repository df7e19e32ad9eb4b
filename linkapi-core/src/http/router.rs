//! The route table: one [`Route`] per operation, saying everything the server needs to know to
//! serve it: method and path, who may call it (no key, or a key with a scope, and whether the
//! key may come as `?apikey=`), what body it reads, which envelope its success and its errors
//! use, and its handler. The dispatcher (`http::dispatch`) reads nothing else, so an operation
//! cannot be half declared, and the OpenAPI document can be generated from the same table.
//!
//! Paths are matched with `matchit`, which prefers static segments over parameters, so
//! `/chains` is never taken for a code.

use futures_util::future::BoxFuture;
use http::Method;

use super::MetricsAccess;
use super::handlers::{self, Call, PublicCall};
use super::response::{Body, Envelope};
use crate::codes::is_reserved;
use crate::error::Result;
use crate::model::{Resource, Scope};
use crate::service::App;

/// What an operation reads of the request body.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum BodyKind {
    /// Nothing: the body is not read.
    None,
    /// A JSON document of at most `ServerConfig::max_body_bytes`, read whole before the
    /// handler runs (an empty body is `{}`).
    Json,
    /// A `multipart/form-data` stream the handler reads part by part (uploads).
    Multipart,
}

/// An authenticated operation's handler.
pub(crate) type ApiHandler =
    for<'a> fn(&'a App, Call) -> BoxFuture<'a, Result<http::Response<Body>>>;

/// An unauthenticated operation's handler.
pub(crate) type PublicHandler =
    for<'a> fn(&'a App, PublicCall) -> BoxFuture<'a, Result<http::Response<Body>>>;

/// Who may call an operation, and what runs it.
#[derive(Clone, Copy)]
pub(crate) enum Access {
    /// No key: health checks and the redirect path.
    Public(PublicHandler),
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

/// One operation.
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
}

/// Wraps an `async fn(&App, Call|PublicCall) -> Result<Response>` as a table entry.
macro_rules! handler {
    ($f:path) => {
        |app, call| Box::pin($f(app, call))
    };
}

const GET: Method = Method::GET;
const POST: Method = Method::POST;
const PATCH: Method = Method::PATCH;
const DELETE: Method = Method::DELETE;

/// A primary-surface operation: headers carry the key, primary envelopes.
fn primary(
    method: Method,
    path: &'static str,
    name: &'static str,
    scope: Scope,
    handler: ApiHandler,
) -> Route {
    let body = if method == POST || method == PATCH {
        BodyKind::Json
    } else {
        BodyKind::None
    };
    Route {
        method,
        path,
        name,
        access: Access::Key {
            scope,
            query_key: false,
            handler,
        },
        body,
        success: Envelope::Primary,
        errors: Envelope::Primary,
    }
}

/// A compatibility-surface action: the key may come as `?apikey=`, compat envelopes, a JSON
/// body (or, by GET, the same fields as query parameters).
fn compat(
    method: Method,
    path: &'static str,
    name: &'static str,
    scope: Scope,
    handler: ApiHandler,
) -> Route {
    let body = if method == GET {
        BodyKind::None
    } else {
        BodyKind::Json
    };
    Route {
        method,
        path,
        name,
        access: Access::Key {
            scope,
            query_key: true,
            handler,
        },
        body,
        success: Envelope::Compat,
        errors: Envelope::Compat,
    }
}

/// An operation anyone may call.
fn public(
    path: &'static str,
    name: &'static str,
    success: Envelope,
    handler: PublicHandler,
) -> Route {
    Route {
        method: GET,
        path,
        name,
        access: Access::Public(handler),
        body: BodyKind::None,
        success,
        errors: success,
    }
}

/// Every operation the server answers; `/metrics` as `metrics` says.
pub(crate) fn routes(metrics: MetricsAccess) -> Vec<Route> {
    use Resource::{
        Card, Chains, Conversions, Domains, Groups, Stats, Templates, Uploads, Workchat,
    };
    use Scope::{Admin, Read, Write};
    use handlers::{
        admin, compat as c, jump as j, primary as p, public as pb, templates as t, uploads as u,
    };
    let mut routes = vec![
        public(
            "/healthz",
            "healthz",
            Envelope::Primary,
            handler!(pb::healthz),
        ),
        public("/readyz", "readyz", Envelope::Primary, handler!(pb::readyz)),
        match metrics {
            MetricsAccess::Loopback => public(
                "/metrics",
                "metrics",
                Envelope::Primary,
                handler!(pb::metrics_on_loopback),
            ),
            MetricsAccess::Admin => {
                primary(GET, "/metrics", "metrics", Admin, handler!(admin::metrics))
            }
        },
        primary(
            POST,
            "/chains",
            "chains.create",
            Write(Chains),
            handler!(p::create_chain),
        ),
        primary(
            GET,
            "/chains",
            "chains.list",
            Read(Chains),
            handler!(p::list_chains),
        ),
        primary(
            GET,
            "/chains/{id}",
            "chains.get",
            Read(Chains),
            handler!(p::get_chain),
        ),
        primary(
            PATCH,
            "/chains/{id}",
            "chains.update",
            Write(Chains),
            handler!(p::update_chain),
        ),
        primary(
            DELETE,
            "/chains/{id}",
            "chains.delete",
            Write(Chains),
            handler!(p::delete_chain),
        ),
        primary(
            POST,
            "/groups",
            "groups.create",
            Write(Groups),
            handler!(p::create_group),
        ),
        primary(
            GET,
            "/groups",
            "groups.list",
            Read(Groups),
            handler!(p::list_groups),
        ),
        primary(
            GET,
            "/domains",
            "domains.list",
            Read(Domains),
            handler!(p::list_domains),
        ),
        primary(
            POST,
            "/admin/users",
            "admin.users.create",
            Admin,
            handler!(admin::create_user),
        ),
        primary(
            GET,
            "/admin/users",
            "admin.users.list",
            Admin,
            handler!(admin::list_users),
        ),
        primary(
            POST,
            "/admin/keys",
            "admin.keys.create",
            Admin,
            handler!(admin::create_key),
        ),
        primary(
            GET,
            "/admin/keys",
            "admin.keys.list",
            Admin,
            handler!(admin::list_keys),
        ),
        primary(
            DELETE,
            "/admin/keys/{id}",
            "admin.keys.revoke",
            Admin,
            handler!(admin::revoke_key),
        ),
        primary(
            POST,
            "/admin/domains",
            "admin.domains.create",
            Admin,
            handler!(admin::create_domain),
        ),
        primary(
            GET,
            "/admin/domains",
            "admin.domains.list",
            Admin,
            handler!(admin::list_domains),
        ),
        primary(
            PATCH,
            "/admin/domains/{id}",
            "admin.domains.update",
            Admin,
            handler!(admin::update_domain),
        ),
        compat(
            POST,
            "/openapi/v1/chain/create",
            "compat.chain.create",
            Write(Chains),
            handler!(c::create_chain),
        ),
        compat(
            POST,
            "/openapi/v1/chain/edit",
            "compat.chain.edit",
            Write(Chains),
            handler!(c::edit_chain),
        ),
        compat(
            POST,
            "/openapi/v1/chain/delete",
            "compat.chain.delete",
            Write(Chains),
            handler!(c::delete_chains),
        ),
        compat(
            POST,
            "/openapi/v1/group/create",
            "compat.group.create",
            Write(Groups),
            handler!(c::create_group),
        ),
        primary(
            GET,
            "/chains/{id}/stats",
            "chains.stats",
            Read(Stats),
            handler!(p::chain_stats),
        ),
        primary(
            GET,
            "/chains/{id}/qr",
            "chains.qr",
            Read(Chains),
            handler!(p::chain_qr),
        ),
        primary(
            POST,
            "/admin/visitor-secret",
            "admin.visitor_secret.rotate",
            Admin,
            handler!(admin::rotate_visitor_secret),
        ),
        primary(
            GET,
            "/chains/{id}/conversions",
            "chains.conversions",
            Read(Conversions),
            handler!(p::list_conversions),
        ),
        Route {
            method: POST,
            path: "/openapi/v1/adcallback/{ad_platform_name}/conversions",
            name: "compat.conversions.report",
            access: Access::Key {
                scope: Write(Conversions),
                query_key: true,
                handler: handler!(c::report_conversion),
            },
            body: BodyKind::Json,
            success: Envelope::Status,
            errors: Envelope::Primary,
        },
        primary(
            GET,
            "/templates",
            "templates.list",
            Read(Templates),
            handler!(t::list),
        ),
        primary(
            POST,
            "/admin/templates",
            "admin.templates.create",
            Admin,
            handler!(t::create),
        ),
        primary(
            GET,
            "/admin/templates",
            "admin.templates.list",
            Admin,
            handler!(t::admin_list),
        ),
        primary(
            PATCH,
            "/admin/templates/{id}",
            "admin.templates.update",
            Admin,
            handler!(t::update),
        ),
        primary(
            GET,
            "/admin/templates/{id}/preview",
            "admin.templates.preview",
            Admin,
            handler!(t::preview),
        ),
        primary(
            DELETE,
            "/admin/templates/{id}",
            "admin.templates.retire",
            Admin,
            handler!(t::retire),
        ),
        Route {
            body: BodyKind::Multipart,
            ..primary(
                POST,
                "/uploads",
                "uploads.create",
                Write(Uploads),
                handler!(u::upload),
            )
        },
        primary(
            GET,
            "/uploads",
            "uploads.list",
            Read(Uploads),
            handler!(u::list_uploads),
        ),
        primary(
            DELETE,
            "/uploads/{file_id}",
            "uploads.delete",
            Write(Uploads),
            handler!(u::delete_upload),
        ),
        Route {
            body: BodyKind::Multipart,
            ..compat(
                POST,
                "/openapi/v1/upload/image",
                "compat.upload.image",
                Write(Uploads),
                handler!(u::upload_images),
            )
        },
        primary(
            POST,
            "/wx-chains",
            "wx_chains.create",
            Write(Chains),
            handler!(j::create_wx_chain),
        ),
        primary(
            GET,
            "/wx-chains",
            "wx_chains.list",
            Read(Chains),
            handler!(j::list_wx_chains),
        ),
        primary(
            GET,
            "/wx-chains/{id}",
            "wx_chains.get",
            Read(Chains),
            handler!(j::get_wx_chain),
        ),
        primary(
            PATCH,
            "/wx-chains/{id}",
            "wx_chains.update",
            Write(Chains),
            handler!(j::update_wx_chain),
        ),
        primary(
            DELETE,
            "/wx-chains/{id}",
            "wx_chains.delete",
            Write(Chains),
            handler!(j::delete_wx_chain),
        ),
        primary(
            GET,
            "/wx-chains/{id}/qr",
            "wx_chains.qr",
            Read(Chains),
            handler!(p::chain_qr),
        ),
        primary(
            GET,
            "/card",
            "card.list",
            Read(Card),
            handler!(j::list_cards),
        ),
        Route {
            method: POST,
            path: "/card/createWxChain",
            name: "card.create",
            access: Access::Key {
                scope: Write(Card),
                query_key: true,
                handler: handler!(j::create_card),
            },
            body: BodyKind::Json,
            success: Envelope::Compat,
            errors: Envelope::Compat,
        },
        compat(
            POST,
            "/openapi/v1/wxchain/create",
            "compat.wxchain.create",
            Write(Chains),
            handler!(j::compat_create_wx_chain),
        ),
        compat(
            POST,
            "/openapi/v1/wxchain/edit",
            "compat.wxchain.edit",
            Write(Chains),
            handler!(j::compat_edit_wx_chain),
        ),
        compat(
            POST,
            "/openapi/v1/workchat/chain/create",
            "compat.workchat.chain.create",
            Write(Chains),
            handler!(j::compat_create_workchat_chain),
        ),
        compat(
            POST,
            "/openapi/v1/workchat/chain/edit",
            "compat.workchat.chain.edit",
            Write(Chains),
            handler!(j::compat_edit_workchat_chain),
        ),
        Route {
            method: POST,
            path: "/openapi/v1/workchat/transfer/result",
            name: "compat.workchat.transfer.result",
            access: Access::Key {
                scope: Read(Workchat),
                query_key: true,
                handler: handler!(j::transfer_result),
            },
            body: BodyKind::Json,
            success: Envelope::Status,
            errors: Envelope::Primary,
        },
        primary(
            POST,
            "/admin/workchat/assemblies",
            "admin.workchat.assemblies.put",
            Admin,
            handler!(j::admin_put_assembly),
        ),
        primary(
            GET,
            "/admin/workchat/assemblies",
            "admin.workchat.assemblies.list",
            Admin,
            handler!(j::admin_list_assemblies),
        ),
        primary(
            POST,
            "/admin/workchat/transfers",
            "admin.workchat.transfers.load",
            Admin,
            handler!(j::admin_load_transfers),
        ),
        public(
            "/openapi.json",
            "openapi",
            Envelope::Primary,
            handler!(pb::openapi),
        ),
        public(
            "/favicon.ico",
            "favicon",
            Envelope::Page,
            handler!(pb::favicon),
        ),
        public(
            "/files/{object_key}",
            "files.get",
            Envelope::Page,
            handler!(u::serve_file),
        ),
        public(
            "/{code}",
            "redirect",
            Envelope::Page,
            handler!(pb::redirect),
        ),
    ];
    // List and info actions also answer GET with their fields as query parameters.
    for method in [GET, POST] {
        routes.extend([
            compat(
                method.clone(),
                "/openapi/v1/chain/list",
                "compat.chain.list",
                Read(Chains),
                handler!(c::list_chains),
            ),
            compat(
                method.clone(),
                "/openapi/v1/chain/info",
                "compat.chain.info",
                Read(Chains),
                handler!(c::chain_info),
            ),
            compat(
                method.clone(),
                "/openapi/v1/group/list",
                "compat.group.list",
                Read(Groups),
                handler!(c::list_groups),
            ),
            compat(
                method.clone(),
                "/openapi/v1/template/list",
                "compat.template.list",
                Read(Templates),
                handler!(t::compat_list),
            ),
            compat(
                method.clone(),
                "/openapi/v1/wxchain/list",
                "compat.wxchain.list",
                Read(Chains),
                handler!(j::compat_list_wx_chains),
            ),
            compat(
                method.clone(),
                "/openapi/v1/wxchain/info",
                "compat.wxchain.info",
                Read(Chains),
                handler!(j::compat_wx_chain_info),
            ),
            compat(
                method.clone(),
                "/openapi/v1/workchat/chain/info",
                "compat.workchat.chain.info",
                Read(Chains),
                handler!(j::compat_workchat_chain_info),
            ),
            compat(
                method.clone(),
                "/openapi/v1/workchat/assembly/list",
                "compat.workchat.assembly.list",
                Read(Workchat),
                handler!(j::compat_list_assemblies),
            ),
            compat(
                method,
                "/openapi/v1/domain/list",
                "compat.domain.list",
                Read(Domains),
                handler!(c::list_domains),
            ),
        ]);
    }
    routes
}

/// What a request maps to.
pub(crate) enum Matched<'r> {
    /// An operation and the path parameter, if the route has one.
    Route(&'r Route, Option<String>),
    /// The path exists with other methods: the errors' envelope and the `Allow` header.
    MethodNotAllowed(Envelope, String),
    /// Nothing here; the envelope of the surface the path is under.
    NotFound(Envelope),
}

pub(crate) struct Router {
    /// Every route, in table order.
    routes: Vec<Route>,
    /// Path to the indexes of its routes in `routes`.
    paths: matchit::Router<Vec<usize>>,
}

impl Router {
    pub(crate) fn new(metrics: MetricsAccess) -> Self {
        let routes = routes(metrics);
        let mut by_path: Vec<(&'static str, Vec<usize>)> = Vec::new();
        for (index, route) in routes.iter().enumerate() {
            match by_path.iter_mut().find(|(path, _)| *path == route.path) {
                Some((_, indexes)) => indexes.push(index),
                None => by_path.push((route.path, vec![index])),
            }
        }
        let mut paths = matchit::Router::new();
        for (path, indexes) in by_path {
            if let Err(e) = paths.insert(path, indexes) {
                // The table is a constant: a clash is a programming error caught by the tests.
                panic!("route table is inconsistent at {path}: {e}");
            }
        }
        Router { routes, paths }
    }

    pub(crate) fn route(&self, method: &Method, path: &str) -> Matched<'_> {
        let surface = if path == "/openapi/v1" || path.starts_with("/openapi/v1/") {
            Envelope::Compat
        } else {
            Envelope::Primary
        };
        let Ok(found) = self.paths.at(path) else {
            return Matched::NotFound(surface);
        };
        let param = found.params.iter().next().map(|(_, v)| v.to_owned());
        let candidates = found.value.iter().map(|&i| &self.routes[i]);
        if param.as_deref().is_some_and(is_reserved)
            && found
                .value
                .iter()
                .any(|&i| self.routes[i].name == "redirect")
        {
            // `/admin`, `/openapi` and friends are API prefixes, never codes.
            return Matched::NotFound(surface);
        }
        // HEAD is answered wherever GET is; hyper leaves the body out.
        let wanted = if method == Method::HEAD { &GET } else { method };
        if let Some(route) = candidates.clone().find(|r| r.method == *wanted) {
            return Matched::Route(route, param);
        }
        // In one order whatever the table's, HEAD last (it rides on GET).
        const ORDER: [&str; 5] = ["GET", "POST", "PUT", "PATCH", "DELETE"];
        let mut allow: Vec<&str> = candidates.clone().map(|r| r.method.as_str()).collect();
        allow.sort_by_key(|m| ORDER.iter().position(|o| o == m));
        if allow.contains(&"GET") {
            allow.push("HEAD");
        }
        let errors = candidates.map(|r| r.errors).next().unwrap_or(surface);
        Matched::MethodNotAllowed(errors, allow.join(", "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(router: &Router, method: Method, path: &str) -> (&'static str, Option<String>) {
        match router.route(&method, path) {
            Matched::Route(route, param) => (route.name, param),
            _ => panic!("{method} {path} should match a route"),
        }
    }

    #[test]
    fn routes_match_methods_and_params() {
        let r = Router::new(MetricsAccess::Loopback);
        assert_eq!(found(&r, POST, "/chains"), ("chains.create", None));
        assert_eq!(
            found(&r, PATCH, "/chains/12"),
            ("chains.update", Some("12".into()))
        );
        assert_eq!(
            found(&r, GET, "/openapi/v1/chain/list"),
            ("compat.chain.list", None)
        );
        assert_eq!(
            found(&r, Method::HEAD, "/abc123"),
            ("redirect", Some("abc123".into()))
        );
        assert!(matches!(
            r.route(&Method::PUT, "/chains"),
            Matched::MethodNotAllowed(Envelope::Primary, allow) if allow == "GET, POST, HEAD"
        ));
        assert!(matches!(
            r.route(&GET, "/openapi/v1/chain/create"),
            Matched::MethodNotAllowed(Envelope::Compat, allow) if allow == "POST"
        ));
        assert!(matches!(
            r.route(&GET, "/openapi/v1/nope"),
            Matched::NotFound(Envelope::Compat)
        ));
        assert!(matches!(
            r.route(&GET, "/admin"),
            Matched::NotFound(Envelope::Primary)
        ));
        assert!(matches!(
            r.route(&GET, "/a/b/c"),
            Matched::NotFound(Envelope::Primary)
        ));
    }

    #[test]
    fn every_route_is_declared_whole_and_once() {
        let mut seen = std::collections::HashSet::new();
        for route in &routes(MetricsAccess::Admin) {
            assert!(
                seen.insert((route.method.clone(), route.path)),
                "{} {} is declared twice",
                route.method,
                route.path
            );
            match route.access {
                Access::Public(_) => {
                    assert!(
                        route.name == "healthz"
                            || route.name == "readyz"
                            || route.name == "redirect"
                            || route.name == "files.get"
                            || route.name == "favicon"
                            || route.name == "openapi"
                    );
                }
                Access::Key { query_key, .. } => {
                    // The key travels in the query only where the contract allows it.
                    assert_eq!(
                        query_key,
                        route.path.starts_with("/openapi/v1/")
                            || route.path == "/card/createWxChain",
                        "{}",
                        route.path
                    );
                    assert_ne!(route.errors, Envelope::Page, "{}", route.path);
                }
            }
            // The compatibility surface answers in its envelope, but for the operations the
            // spec gives `{status: 1, result}` with primary errors.
            if route.path.starts_with("/openapi/v1/adcallback/")
                || route.path == "/openapi/v1/workchat/transfer/result"
            {
                assert_eq!(
                    (route.success, route.errors),
                    (Envelope::Status, Envelope::Primary)
                );
            } else if route.path.starts_with("/openapi/v1/") {
                assert_eq!(route.success, Envelope::Compat, "{}", route.path);
            }
        }
    }

    #[test]
    fn scopes_follow_the_contract() {
        let r = Router::new(MetricsAccess::Loopback);
        let scope = |method: Method, path: &str| match r.route(&method, path) {
            Matched::Route(route, _) => match route.access {
                Access::Key { scope, .. } => Some(scope),
                Access::Public(_) => None,
            },
            _ => panic!("{method} {path}"),
        };
        assert_eq!(scope(GET, "/x7Kp2a"), None);
        assert_eq!(scope(GET, "/chains/3"), Some(Scope::Read(Resource::Chains)));
        assert_eq!(scope(DELETE, "/admin/keys/3"), Some(Scope::Admin));
        assert_eq!(
            scope(POST, "/openapi/v1/chain/delete"),
            Some(Scope::Write(Resource::Chains))
        );
        assert_eq!(
            scope(GET, "/chains/3/stats"),
            Some(Scope::Read(Resource::Stats))
        );
        assert_eq!(scope(GET, "/card"), Some(Scope::Read(Resource::Card)));
        assert_eq!(
            scope(POST, "/card/createWxChain"),
            Some(Scope::Write(Resource::Card))
        );
        assert_eq!(
            scope(POST, "/wx-chains"),
            Some(Scope::Write(Resource::Chains))
        );
        assert_eq!(
            scope(GET, "/openapi/v1/workchat/assembly/list"),
            Some(Scope::Read(Resource::Workchat))
        );
        assert_eq!(
            scope(POST, "/openapi/v1/workchat/transfer/result"),
            Some(Scope::Read(Resource::Workchat))
        );
        assert_eq!(scope(GET, "/metrics"), None);
        let admin = Router::new(MetricsAccess::Admin);
        assert!(matches!(
            admin.route(&GET, "/metrics"),
            Matched::Route(
                Route {
                    access: Access::Key {
                        scope: Scope::Admin,
                        ..
                    },
                    ..
                },
                _
            )
        ));
    }
}
