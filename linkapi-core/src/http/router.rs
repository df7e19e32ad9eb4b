//! The route table: path and method to an [`Op`]. Built once; matched with `matchit`, which
//! prefers static segments over parameters, so `/chains` is never taken for a code.

use http::Method;

use crate::codes::is_reserved;
use crate::model::{Resource, Scope};

/// Which envelope a response uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Surface {
    /// `{code: 1, message, data}` / `{code: "<name>", message, status}`.
    Primary,
    /// `{code: 1, msg, result}` / `{code: 0, msg}`.
    Compat,
    /// Public redirect pages: HTML, no envelope.
    Public,
}

/// Every operation the server answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Op {
    Healthz,
    Readyz,
    ChainCreate,
    ChainList,
    ChainGet,
    ChainUpdate,
    ChainDelete,
    GroupCreate,
    GroupList,
    DomainList,
    CompatChainCreate,
    CompatChainEdit,
    CompatChainDelete,
    CompatChainList,
    CompatChainInfo,
    CompatGroupCreate,
    CompatGroupList,
    CompatDomainList,
    AdminUserCreate,
    AdminUserList,
    AdminKeyCreate,
    AdminKeyList,
    AdminKeyRevoke,
    AdminDomainCreate,
    AdminDomainList,
    AdminDomainUpdate,
    Redirect,
}

impl Op {
    /// The envelope of its responses.
    pub(crate) fn surface(self) -> Surface {
        use Op::*;
        match self {
            CompatChainCreate | CompatChainEdit | CompatChainDelete | CompatChainList
            | CompatChainInfo | CompatGroupCreate | CompatGroupList | CompatDomainList => {
                Surface::Compat
            }
            Redirect => Surface::Public,
            _ => Surface::Primary,
        }
    }

    /// The scope a key needs; `None` for unauthenticated operations.
    pub(crate) fn scope(self) -> Option<Scope> {
        use Op::*;
        use Resource::*;
        Some(match self {
            Healthz | Readyz | Redirect => return None,
            ChainCreate | ChainUpdate | ChainDelete | CompatChainCreate | CompatChainEdit
            | CompatChainDelete => Scope::Write(Chains),
            ChainList | ChainGet | CompatChainList | CompatChainInfo => Scope::Read(Chains),
            GroupCreate | CompatGroupCreate => Scope::Write(Groups),
            GroupList | CompatGroupList => Scope::Read(Groups),
            DomainList | CompatDomainList => Scope::Read(Domains),
            AdminUserCreate | AdminUserList | AdminKeyCreate | AdminKeyList | AdminKeyRevoke
            | AdminDomainCreate | AdminDomainList | AdminDomainUpdate => Scope::Admin,
        })
    }

    /// Whether the key may come as `?apikey=` (compatibility surface only, contract 1).
    pub(crate) fn takes_query_key(self) -> bool {
        self.surface() == Surface::Compat
    }

    /// Name for logs.
    pub(crate) fn name(self) -> &'static str {
        use Op::*;
        match self {
            Healthz => "healthz",
            Readyz => "readyz",
            ChainCreate => "chains.create",
            ChainList => "chains.list",
            ChainGet => "chains.get",
            ChainUpdate => "chains.update",
            ChainDelete => "chains.delete",
            GroupCreate => "groups.create",
            GroupList => "groups.list",
            DomainList => "domains.list",
            CompatChainCreate => "compat.chain.create",
            CompatChainEdit => "compat.chain.edit",
            CompatChainDelete => "compat.chain.delete",
            CompatChainList => "compat.chain.list",
            CompatChainInfo => "compat.chain.info",
            CompatGroupCreate => "compat.group.create",
            CompatGroupList => "compat.group.list",
            CompatDomainList => "compat.domain.list",
            AdminUserCreate => "admin.users.create",
            AdminUserList => "admin.users.list",
            AdminKeyCreate => "admin.keys.create",
            AdminKeyList => "admin.keys.list",
            AdminKeyRevoke => "admin.keys.revoke",
            AdminDomainCreate => "admin.domains.create",
            AdminDomainList => "admin.domains.list",
            AdminDomainUpdate => "admin.domains.update",
            Redirect => "redirect",
        }
    }
}

type Methods = &'static [(Method, Op)];

const GET: Method = Method::GET;
const POST: Method = Method::POST;

/// What a request maps to.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Matched {
    /// An operation and the path parameter, if the route has one.
    Op(Op, Option<String>),
    /// The path exists with other methods.
    MethodNotAllowed(Surface, String),
    /// Nothing here.
    NotFound(Surface),
}

pub(crate) struct Router {
    routes: matchit::Router<Methods>,
}

impl Router {
    pub(crate) fn new() -> Self {
        use Op::*;
        let table: &[(&str, Methods)] = &[
            ("/healthz", &[(GET, Healthz)]),
            ("/readyz", &[(GET, Readyz)]),
            ("/chains", &[(GET, ChainList), (POST, ChainCreate)]),
            (
                "/chains/{id}",
                &[
                    (GET, ChainGet),
                    (Method::PATCH, ChainUpdate),
                    (Method::DELETE, ChainDelete),
                ],
            ),
            ("/groups", &[(GET, GroupList), (POST, GroupCreate)]),
            ("/domains", &[(GET, DomainList)]),
            ("/openapi/v1/chain/create", &[(POST, CompatChainCreate)]),
            ("/openapi/v1/chain/edit", &[(POST, CompatChainEdit)]),
            ("/openapi/v1/chain/delete", &[(POST, CompatChainDelete)]),
            (
                "/openapi/v1/chain/list",
                &[(GET, CompatChainList), (POST, CompatChainList)],
            ),
            (
                "/openapi/v1/chain/info",
                &[(GET, CompatChainInfo), (POST, CompatChainInfo)],
            ),
            ("/openapi/v1/group/create", &[(POST, CompatGroupCreate)]),
            (
                "/openapi/v1/group/list",
                &[(GET, CompatGroupList), (POST, CompatGroupList)],
            ),
            (
                "/openapi/v1/domain/list",
                &[(GET, CompatDomainList), (POST, CompatDomainList)],
            ),
            (
                "/admin/users",
                &[(GET, AdminUserList), (POST, AdminUserCreate)],
            ),
            (
                "/admin/keys",
                &[(GET, AdminKeyList), (POST, AdminKeyCreate)],
            ),
            ("/admin/keys/{id}", &[(Method::DELETE, AdminKeyRevoke)]),
            (
                "/admin/domains",
                &[(GET, AdminDomainList), (POST, AdminDomainCreate)],
            ),
            ("/admin/domains/{id}", &[(Method::PATCH, AdminDomainUpdate)]),
            ("/{code}", &[(GET, Redirect)]),
        ];
        let mut routes = matchit::Router::new();
        for (path, methods) in table {
            if let Err(e) = routes.insert(*path, *methods) {
                // The table is a constant: a clash is a programming error caught by the tests.
                panic!("route table is inconsistent at {path}: {e}");
            }
        }
        Router { routes }
    }

    pub(crate) fn route(&self, method: &Method, path: &str) -> Matched {
        let surface = if path == "/openapi/v1" || path.starts_with("/openapi/v1/") {
            Surface::Compat
        } else {
            Surface::Primary
        };
        let Ok(found) = self.routes.at(path) else {
            return Matched::NotFound(surface);
        };
        let param = found.params.iter().next().map(|(_, v)| v.to_owned());
        if found.value.iter().any(|(_, op)| *op == Op::Redirect)
            && param.as_deref().is_some_and(is_reserved)
        {
            // `/admin`, `/openapi` and friends are API prefixes, never codes.
            return Matched::NotFound(surface);
        }
        // HEAD is answered wherever GET is; hyper leaves the body out.
        let wanted = if method == Method::HEAD { &GET } else { method };
        match found.value.iter().find(|(m, _)| m == wanted) {
            Some((_, op)) => Matched::Op(*op, param),
            None => {
                let mut allow: Vec<&str> = found.value.iter().map(|(m, _)| m.as_str()).collect();
                if allow.contains(&"GET") {
                    allow.push("HEAD");
                }
                Matched::MethodNotAllowed(surface, allow.join(", "))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn routes_match_methods_and_params() {
        let r = Router::new();
        assert_eq!(
            r.route(&Method::POST, "/chains"),
            Matched::Op(Op::ChainCreate, None)
        );
        assert_eq!(
            r.route(&Method::PATCH, "/chains/12"),
            Matched::Op(Op::ChainUpdate, Some("12".into()))
        );
        assert_eq!(
            r.route(&Method::GET, "/openapi/v1/chain/list"),
            Matched::Op(Op::CompatChainList, None)
        );
        assert_eq!(
            r.route(&Method::HEAD, "/abc123"),
            Matched::Op(Op::Redirect, Some("abc123".into()))
        );
        assert_eq!(
            r.route(&Method::PUT, "/chains"),
            Matched::MethodNotAllowed(Surface::Primary, "GET, POST, HEAD".into())
        );
        assert_eq!(
            r.route(&Method::GET, "/openapi/v1/chain/create"),
            Matched::MethodNotAllowed(Surface::Compat, "POST".into())
        );
        assert_eq!(
            r.route(&Method::GET, "/openapi/v1/nope"),
            Matched::NotFound(Surface::Compat)
        );
        assert_eq!(
            r.route(&Method::GET, "/admin"),
            Matched::NotFound(Surface::Primary)
        );
        assert_eq!(
            r.route(&Method::GET, "/a/b/c"),
            Matched::NotFound(Surface::Primary)
        );
    }

    #[test]
    fn every_op_but_the_public_ones_needs_a_scope() {
        assert_eq!(Op::Redirect.scope(), None);
        assert_eq!(Op::ChainGet.scope(), Some(Scope::Read(Resource::Chains)));
        assert_eq!(Op::AdminKeyRevoke.scope(), Some(Scope::Admin));
        assert!(Op::CompatChainList.takes_query_key());
        assert!(!Op::ChainList.takes_query_key());
    }
}
