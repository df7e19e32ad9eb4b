//! Handlers, one module per API area. Each decodes its input, calls one service method and
//! encodes the answer; rules live in [`crate::service`].

pub(crate) mod admin;
pub(crate) mod compat;
pub(crate) mod page_chains;
pub(crate) mod primary;
pub(crate) mod public;
pub(crate) mod templates;
pub(crate) mod uploads;
pub(crate) mod webhooks;
pub(crate) mod workchat;

use std::net::SocketAddr;
use std::sync::Arc;

use bytes::Bytes;
use http::request::Parts;

use super::response::{Body, RenderedOnce, Reply, kept_response};
use super::router::ParamAt;
use crate::service::{IdempotencyKey, KeptAnswer, Principal, Receipt};

/// A decoded, authenticated API request.
pub(crate) struct Call {
    /// Method, URI and headers.
    pub(crate) parts: Parts,
    /// The body, already read under the size limit (empty for streamed bodies).
    pub(crate) body: Bytes,
    /// The body still to be read, for operations that stream it (uploads).
    pub(crate) stream: Option<hyper::body::Incoming>,
    /// Where the path parameter (`{id}`) is, if the route has one ([`Call::param`]).
    pub(crate) param: Option<ParamAt>,
    /// Who is calling.
    pub(crate) who: Principal,
    /// The success envelope the route declares.
    pub(crate) reply: Reply,
    /// The request's `Idempotency-Key`, on operations that honour one.
    pub(crate) idempotency: Option<Arc<IdempotencyKey>>,
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
            .map(|key| Receipt::new(&self.who, key, answer))
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
}

/// The path parameter at `at` in the request's path, which is the path the router was given.
pub(crate) fn path_param<'p>(parts: &'p Parts, at: Option<&ParamAt>) -> Option<&'p str> {
    at.map(|at| at.in_path(parts.uri.path()))
}
