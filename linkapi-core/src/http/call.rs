//! What a handler is given: an authenticated call ([`Call`]) or a public one ([`PublicCall`]),
//! the head of a request answered at once ([`Head`]), and where the path parameter is
//! ([`ParamAt`]).

use std::net::SocketAddr;
use std::sync::Arc;

use bytes::Bytes;
use http::request::Parts;
use http::{HeaderValue, header};

use super::response::{Body, RenderedOnce, Reply, kept_response};
use crate::service::{IdempotencyKey, KeptAnswer, Principal, Receipt, RunReceipt};

/// A decoded, authenticated API request.
pub(crate) struct Call {
    /// Method, URI and headers.
    pub(crate) parts: Parts,
    /// The body, already read under the size limit (empty for streamed bodies).
    pub(crate) body: Bytes,
    /// The body still to be read, for operations that stream it (uploads).
    pub(crate) stream: Option<super::request::Metered>,
    /// Where the path parameter (`{id}`) is, if the route has one ([`Call::param`]).
    pub(crate) param: Option<ParamAt>,
    /// Who is calling.
    pub(crate) who: Principal,
    /// The success envelope the route declares.
    pub(crate) reply: Reply,
    /// The request's `Idempotency-Key`, on operations that honour one.
    pub(crate) idempotency: Option<Arc<IdempotencyKey>>,
    /// The original vendor's name of the operation, when called by it (`/v1/...`): the
    /// answer takes the vendor's shape where it differs ([`crate::http::route::Vendor`]).
    pub(crate) vendor: Option<&'static str>,
}

impl Call {
    /// The path parameter (`{id}`), if the route has one.
    pub(crate) fn param(&self) -> Option<&str> {
        path_param(&self.parts, self.param.as_ref())
    }

    /// The receipt of this request's idempotency key, if it sent one: the create records
    /// `answer` of its outcome under the key, in the transaction that creates.
    pub(crate) fn receipt<T>(
        &self,
        answer: impl Fn(&T) -> KeptAnswer + Send + Sync + 'static,
    ) -> Option<Receipt<T>> {
        self.idempotency
            .clone()
            .map(|key| Receipt::new(self.who.user_id, key, answer))
    }

    /// The receipt of this request's idempotency key for a create that commits in runs.
    pub(crate) fn run_receipt(&self) -> Option<RunReceipt> {
        self.idempotency
            .clone()
            .map(|key| RunReceipt::new(self.who.user_id, key))
    }
}

/// The response to a create's `outcome`: what its receipt recorded, else `answer` of it.
pub(crate) fn answered<T>(
    receipt: Option<Receipt<T>>,
    outcome: &T,
    answer: impl Fn(&T) -> KeptAnswer,
) -> http::Response<Body> {
    kept_response(match receipt {
        Some(receipt) => receipt.answer(outcome),
        None => answer(outcome),
    })
}

/// A request to an operation that needs no key.
pub(crate) struct PublicCall<'a> {
    /// Method, URI and headers.
    pub(crate) parts: Parts,
    /// Where the path parameter is, if the route has one ([`PublicCall::param`]).
    pub(crate) param: Option<ParamAt>,
    /// The client's address.
    pub(crate) peer: SocketAddr,
    /// The success envelope the route declares.
    pub(crate) reply: Reply,
    /// The OpenAPI document of this server's operations.
    pub(crate) openapi: &'a RenderedOnce,
}

impl PublicCall<'_> {
    /// The path parameter, if the route has one.
    pub(crate) fn param(&self) -> Option<&str> {
        path_param(&self.parts, self.param.as_ref())
    }

    /// The request's head, borrowed.
    pub(crate) fn head(&self) -> Head<'_> {
        let parts = &self.parts;
        Head {
            method: &parts.method,
            uri: &parts.uri,
            headers: &parts.headers,
            param: self.param(),
            peer: self.peer,
            known: KnownHeaders::of(&parts.headers),
        }
    }
}

/// A public request's head, borrowed: what an at-once handler reads
/// ([`super::route::Declared::at_once`]), so that a request answered at once is never moved
/// (the request is 264 bytes, and each move a copy).
pub(crate) struct Head<'a> {
    /// The method.
    pub(crate) method: &'a http::Method,
    /// The URI.
    pub(crate) uri: &'a http::Uri,
    /// The headers.
    pub(crate) headers: &'a http::HeaderMap,
    /// The path parameter, if the route has one.
    pub(crate) param: Option<&'a str>,
    /// The client's address.
    pub(crate) peer: SocketAddr,
    /// The headers the server and a visit read.
    pub(crate) known: KnownHeaders<'a>,
}

/// The first value of each header the server reads of every request (its id) and a visit
/// reads, found in one walk over the headers: a lookup of each of the five was a hash and a
/// probe apiece (6% of a cached redirect's instructions), and a walk compares each name's
/// tag.
#[derive(Default)]
pub(crate) struct KnownHeaders<'a> {
    pub(crate) request_id: Option<&'a HeaderValue>,
    pub(crate) host: Option<&'a HeaderValue>,
    pub(crate) user_agent: Option<&'a HeaderValue>,
    pub(crate) referer: Option<&'a HeaderValue>,
    pub(crate) accept_language: Option<&'a HeaderValue>,
    /// How many `Host` headers the request has (at most 2 counted).
    pub(crate) hosts: u8,
}

impl<'a> KnownHeaders<'a> {
    pub(crate) fn of(headers: &'a http::HeaderMap) -> Self {
        let mut found = KnownHeaders::default();
        for (name, value) in headers {
            let slot = if name == header::HOST {
                found.hosts = found.hosts.saturating_add(1).min(2);
                &mut found.host
            } else if name == header::USER_AGENT {
                &mut found.user_agent
            } else if name == header::REFERER {
                &mut found.referer
            } else if name == header::ACCEPT_LANGUAGE {
                &mut found.accept_language
            } else if name == super::request_id::REQUEST_ID {
                &mut found.request_id
            } else {
                continue;
            };
            slot.get_or_insert(value);
        }
        found
    }
}

/// Where the path parameter sits in the routed path: a range rather than a copy, which was an
/// allocation for every redirect's code. The request keeps its path, so the parameter is read
/// from there ([`ParamAt::in_path`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct ParamAt(pub(crate) std::ops::Range<usize>);

impl ParamAt {
    /// The parameter in `path`, the path the router was given.
    pub(crate) fn in_path<'p>(&self, path: &'p str) -> &'p str {
        path.get(self.0.clone()).unwrap_or_default()
    }
}

/// The path parameter at `at` in the request's path, which is the path the router was given.
pub(crate) fn path_param<'p>(parts: &'p Parts, at: Option<&ParamAt>) -> Option<&'p str> {
    at.map(|at| at.in_path(parts.uri.path()))
}

#[cfg(test)]
mod tests {
    use http::{HeaderMap, HeaderValue, header};

    use super::KnownHeaders;

    fn text(value: Option<&HeaderValue>) -> Option<&str> {
        value.map(|v| v.to_str().expect("text"))
    }

    #[test]
    fn the_first_value_of_each_known_header_is_found() {
        let mut headers = HeaderMap::new();
        headers.append("x-other", HeaderValue::from_static("1"));
        headers.append(header::USER_AGENT, HeaderValue::from_static("agent"));
        headers.append(header::HOST, HeaderValue::from_static("s.example"));
        headers.append(header::HOST, HeaderValue::from_static("second.example"));
        headers.append(header::ACCEPT_LANGUAGE, HeaderValue::from_static("fr"));
        headers.append("X-Request-Id", HeaderValue::from_static("trace-1"));
        let found = KnownHeaders::of(&headers);
        assert_eq!(text(found.request_id), Some("trace-1"));
        assert_eq!(text(found.host), Some("s.example"));
        assert_eq!(found.hosts, 2);
        assert_eq!(text(found.user_agent), Some("agent"));
        assert_eq!(text(found.referer), None);
        assert_eq!(text(found.accept_language), Some("fr"));
        headers.append(
            header::REFERER,
            HeaderValue::from_static("https://r.example/"),
        );
        assert_eq!(
            text(KnownHeaders::of(&headers).referer),
            Some("https://r.example/")
        );
    }
}
