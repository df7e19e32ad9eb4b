//! Finds the operation a request is for in the route table (`routes`). Paths are matched
//! with `matchit`, which prefers static segments over parameters, so `/chains` is never taken
//! for a code; a `GET` of one segment that is no reserved word (a short link) is the code
//! route's without walking the tree.

use http::Method;

use super::Route;
use crate::codes::{is_reserved, shadows_code};
use crate::http::call::ParamAt;
use crate::wire::envelope::Envelope;

/// What a request maps to.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Matched {
    /// An operation, by its index in the table ([`Router::at`]), and the path parameter, if
    /// the route has one. An index rather than a reference: the request's future owns what it
    /// borrows from, so routing can happen before the future is made.
    Route(usize, Option<ParamAt>),
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
    /// The index of the `GET` route whose path is one parameter (`/{code}`), if the table
    /// has one. A `GET` of any one-segment path that is not a reserved word is that route's,
    /// as the tree would say (every path of one static segment, `/chains` or `/healthz`, is a
    /// reserved word, so that codes never shadow them); [`Router::route`] answers it without
    /// the tree, whose walk and parameter iterator were 4% of a cached redirect's
    /// instructions.
    one_segment: Option<usize>,
}

impl Router {
    pub(crate) fn new(routes: Vec<Route>) -> Self {
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
        let one_segment = routes.iter().position(|r| {
            r.method == Method::GET
                && r.path.strip_prefix('/').is_some_and(|segment| {
                    segment.starts_with('{') && segment.ends_with('}') && !segment.contains('/')
                })
        });
        Router {
            routes,
            paths,
            one_segment,
        }
    }

    /// The route at `index`, as [`Matched::Route`] names it.
    pub(crate) fn at(&self, index: usize) -> &Route {
        &self.routes[index]
    }

    pub(crate) fn route(&self, method: &Method, path: &str) -> Matched {
        if let Some(index) = self.one_segment
            && (*method == Method::GET || *method == Method::HEAD)
            && let Some(segment) = path.strip_prefix('/')
            && !segment.is_empty()
            && !segment.contains('/')
            && !is_reserved(segment)
        {
            return Matched::Route(index, Some(ParamAt(1..path.len())));
        }
        self.route_in_tree(method, path)
    }

    /// [`Router::route`] by the tree alone.
    fn route_in_tree(&self, method: &Method, path: &str) -> Matched {
        let surface = if path == "/openapi/v1"
            || path.starts_with("/openapi/v1/")
            || path.starts_with("/v1/")
        {
            Envelope::Compat
        } else {
            Envelope::Primary
        };
        let Ok(found) = self.paths.at(path) else {
            return Matched::NotFound(surface);
        };
        // matchit's values are slices of `path`, so their offsets there are where they start.
        let param = found.params.iter().next().map(|(_, value)| {
            let start = value.as_ptr().addr() - path.as_ptr().addr();
            ParamAt(start..start + value.len())
        });
        if param
            .as_ref()
            .is_some_and(|p| shadows_code(p.in_path(path)))
            && found
                .value
                .iter()
                .any(|&i| self.routes[i].name == crate::metrics::REDIRECT)
        {
            // `/admin`, `/openapi` and friends are API prefixes, never codes.
            return Matched::NotFound(surface);
        }
        // HEAD is answered wherever GET is; hyper leaves the body out.
        let wanted = if method == Method::HEAD {
            &Method::GET
        } else {
            method
        };
        if let Some(&index) = found
            .value
            .iter()
            .find(|&&i| self.routes[i].method == *wanted)
        {
            return Matched::Route(index, param);
        }
        // The path's routes, none of them for this method.
        let candidates = found.value.iter().map(|&i| &self.routes[i]);
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
    use crate::http::MetricsAccess;
    use crate::http::route::Access;
    use crate::http::route::table::routes;
    use crate::model::{Resource, Scope};

    const GET: Method = Method::GET;
    const POST: Method = Method::POST;
    const PATCH: Method = Method::PATCH;
    const DELETE: Method = Method::DELETE;

    fn found(router: &Router, method: Method, path: &str) -> (&'static str, Option<String>) {
        match router.route(&method, path) {
            Matched::Route(index, param) => (
                router.at(index).name,
                param.map(|p| p.in_path(path).to_owned()),
            ),
            _ => panic!("{method} {path} should match a route"),
        }
    }

    #[test]
    fn one_segment_paths_are_routed_as_the_tree_routes_them() {
        let r = Router::new(routes(MetricsAccess::Loopback));
        assert!(r.one_segment.is_some(), "the short links' route is found");
        let mut paths: Vec<String> = routes(MetricsAccess::Admin)
            .iter()
            .map(|route| route.path.replace("{", "x").replace("}", ""))
            .collect();
        for segment in [
            "abc123",
            "Chains",
            "CHAINS",
            "chains",
            "admin",
            "Admin",
            "openapi",
            "openapi.json",
            "OPENAPI.JSON",
            "favicon.ico",
            "healthz",
            "metrics",
            "a",
            "{code}",
            "%2F",
            "a.b",
            "x y",
            "ünï",
            "-",
            "_",
            "files",
            "card",
            "wx-chains",
            "stats",
            "api",
            "v1",
        ] {
            paths.extend([
                format!("/{segment}"),
                format!("/{segment}/"),
                format!("//{segment}"),
            ]);
        }
        paths.extend(["/".into(), "".into(), "//".into(), "/a/b".into()]);
        for method in [GET, Method::HEAD, POST, PATCH, DELETE, Method::PUT] {
            for path in &paths {
                assert_eq!(
                    r.route(&method, path),
                    r.route_in_tree(&method, path),
                    "{method} {path}"
                );
            }
        }
    }

    #[test]
    fn routes_match_methods_and_params() {
        let r = Router::new(routes(MetricsAccess::Loopback));
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
        // The vendor's operations, under both mounts, are their counterparts.
        for path in ["/v1/chain/getChainList", "/openapi/v1/chain/getChainList"] {
            assert_eq!(found(&r, GET, path), ("compat.chain.list", None));
        }
        for path in ["/v1/chain/editChain", "/v1/chain/editchain"] {
            assert_eq!(found(&r, POST, path), ("compat.chain.edit", None));
        }
        assert!(matches!(
            r.route(&GET, "/v1/chain/nope"),
            Matched::NotFound(Envelope::Compat)
        ));
        // `v1` is reserved, but a chain stored before keeps its one-segment path.
        assert!(is_reserved("v1"));
        assert_eq!(found(&r, GET, "/v1"), ("redirect", Some("v1".into())));
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
                Access::Public { .. } => {
                    assert!(
                        route.name == "healthz"
                            || route.name == "readyz"
                            || route.name == "redirect"
                            || route.name == "files.get"
                            || route.name == "favicon"
                            || route.name == "openapi"
                            || route.name == "home"
                    );
                }
                Access::Key { query_key, .. } => {
                    // The key travels in the query only where the contract allows it.
                    assert_eq!(
                        query_key,
                        route.path.starts_with("/openapi/v1/")
                            || route.path.starts_with("/v1/")
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
            } else if route.path.starts_with("/openapi/v1/") || route.path.starts_with("/v1/") {
                assert_eq!(route.success, Envelope::Compat, "{}", route.path);
            }
            // A vendor path is an operation of the compatibility surface, by another name.
            if route.path.starts_with("/v1/") {
                assert!(route.vendor.is_some(), "{}", route.path);
            }
        }
    }

    #[test]
    fn scopes_follow_the_contract() {
        let r = Router::new(routes(MetricsAccess::Loopback));
        let scope = |method: Method, path: &str| match r.route(&method, path) {
            Matched::Route(index, _) => match r.at(index).access {
                Access::Key { scope, .. } => Some(scope),
                Access::Public { .. } => None,
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
        let admin = Router::new(routes(MetricsAccess::Admin));
        assert!(matches!(
            admin.route(&GET, "/metrics"),
            Matched::Route(index, _) if matches!(
                admin.at(index).access,
                Access::Key {
                    scope: Scope::Admin,
                    ..
                }
            )
        ));
    }
}
