//! A request's way through the server: routed, answered at once when its route can,
//! else keyed (key, rate, scope, budget) and handed to its handler, every failure in the
//! route's error envelope.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Instant;

use futures_util::FutureExt;
use futures_util::future::BoxFuture;
use http::{HeaderValue, Request};
use hyper::body::Incoming;
use tracing::Instrument;

use super::call::{Head, KnownHeaders, PublicCall};
use super::request::Metered;
use super::request_id::{REQUEST_ID, id_text, request_id};
use super::response::{Body, Reply};
use super::route::matcher::Matched;
use super::route::{Access, BodyKind};
use super::{Shared, keyed, response};
use crate::error::{Error, names};
use crate::service::RateState;
use crate::wire::envelope::Envelope;

/// What [`handle`] makes of a request: the response and when it was ready, at once or as a
/// future.
pub(super) enum Handled {
    /// Answered within the call.
    Now(http::Response<Body>, Instant),
    /// The answer's future.
    Later(BoxFuture<'static, (http::Response<Body>, Instant)>),
}

/// Serves one request: the response and when it was ready, at once when its route can answer
/// without waiting ([`route::Declared::at_once`]: a cached redirect), else as a future.
///
/// *Why two ways:* a future is built, moved into hyper's connection (its size copied each
/// time) and polled through the layers below; a cached redirect, nearly all of a server's
/// traffic, needs none of it. The future is boxed: the answers at once are the small side of
/// what hyper moves, and a request that waits (an API call) pays one allocation for it.
///
/// *Why a plain function returning the future:* an `async fn` keeps its arguments apart from
/// the locals they move into, and an `async` block awaiting another holds both: the request
/// (264 bytes) was held four times over. Routing and the span happen here, before the future
/// exists; the answer's headers and metrics ([`finish`]) are a `map` on [`dispatch`]'s
/// future, inside the span.
pub(super) fn handle(shared: &Arc<Shared>, req: Request<Incoming>, peer: SocketAddr) -> Handled {
    let known = KnownHeaders::of(req.headers());
    let matched = shared.router.route(req.method(), req.uri().path());
    // Visitors' requests (short links, hosted files: nearly all the traffic) are logged at
    // debug, API calls at info: the default log then costs a redirect nothing, and says what
    // an operator wants to read.
    let for_visitors = matches!(&matched,
        Matched::Route(index, _) if shared.router.at(*index).errors == Envelope::Page);
    let (span, id) = if for_visitors {
        let span = tracing::debug_span!(
            "request",
            request_id = tracing::field::Empty,
            method = %req.method(),
            route = tracing::field::Empty,
            user = tracing::field::Empty,
        );
        // A request id is there to find the request in the log: a visitor's request is
        // given a fresh one only when its lines are logged (its span is on, at debug), and
        // echoes the one it brought either way.
        let logged = !span.is_disabled();
        let id = request_id(known.request_id, logged);
        if logged {
            span.record("request_id", id_text(id.as_ref()));
        }
        (span, id)
    } else {
        let id = request_id(known.request_id, true);
        let span = tracing::info_span!(
            "request",
            request_id = id_text(id.as_ref()),
            method = %req.method(),
            route = tracing::field::Empty,
            user = tracing::field::Empty,
        );
        (span, id)
    };
    let started = Instant::now();
    let answered = Answered {
        id,
        started,
        for_visitors,
    };
    if let Some(err) = framing_error(req.version(), known.hosts) {
        let envelope = match &matched {
            Matched::Route(index, _) => shared.router.at(*index).errors,
            Matched::MethodNotAllowed(envelope, _) | Matched::NotFound(envelope) => *envelope,
        };
        drop(Metered::new(req.into_body(), shared.pace(true)));
        let _entered = span.enter();
        let (mut response, at) = finish(shared, (UNMATCHED, envelope, None, Err(err)), answered);
        // Which host the client meant is unknown, and so is what follows on the connection.
        response
            .headers_mut()
            .insert(http::header::CONNECTION, HeaderValue::from_static("close"));
        return Handled::Now(response, at);
    }
    if let Matched::Route(index, param) = &matched
        && let route = shared.router.at(*index)
        && let Access::Public {
            at_once: Some(at_once),
            ..
        } = route.access
    {
        let entered = span.enter();
        let head = Head {
            method: req.method(),
            uri: req.uri(),
            headers: req.headers(),
            param: param.as_ref().map(|at| at.in_path(req.uri().path())),
            peer,
            known,
        };
        if let Some(result) = at_once(&shared.app, &head) {
            span.record("route", route.name);
            let outcome = (route.name, route.errors, None, result);
            let (response, at) = finish(shared, outcome, answered);
            drop(entered);
            return Handled::Now(response, at);
        }
    }
    let finishing = shared.clone();
    Handled::Later(Box::pin(
        dispatch(shared.clone(), matched, req, peer)
            .map(move |outcome| finish(&finishing, outcome, answered))
            .instrument(span),
    ))
}

/// The 400 a request's `Host` headers call for (RFC 9112, section 3.2): more than one, or none
/// in an HTTP/1.1 request. HTTP/1.0 may leave it out, and HTTP/2 names the host in
/// `:authority`.
fn framing_error(version: http::Version, hosts: u8) -> Option<Error> {
    let needs_one = version == http::Version::HTTP_11;
    let message = match hosts {
        0 if needs_one => "an HTTP/1.1 request must have a Host header",
        0 | 1 => return None,
        _ => "a request may have only one Host header",
    };
    Some(Error::bad_request(names::INVALID_HOST, message))
}

/// What the answer to a request carries from its start: its id, when it started, and
/// whether it is a visitor's (logged at debug).
pub(super) struct Answered {
    id: Option<HeaderValue>,
    started: Instant,
    for_visitors: bool,
}

/// The response to a request's `outcome`, errors in the route's envelope, with the request
/// id and the rate headers; counted in the metrics and logged. Returns it with the instant it
/// was ready.
fn finish(
    shared: &Shared,
    (operation, surface, rate, result): Outcome,
    answered: Answered,
) -> (http::Response<Body>, Instant) {
    let metrics = shared.app.metrics();
    if let Err(err) = &result
        && err.is_store_failure()
    {
        metrics.store_error(operation);
    }
    let mut response = result.unwrap_or_else(|err| response::error(surface, &err));
    let headers = response.headers_mut();
    if let Some(id) = answered.id {
        headers.insert(REQUEST_ID.clone(), id);
    }
    if let Some(rate) = rate {
        headers.insert("x-ratelimit-limit", HeaderValue::from(rate.limit));
        headers.insert("x-ratelimit-remaining", HeaderValue::from(rate.remaining));
    }
    let at = Instant::now();
    let elapsed = at.duration_since(answered.started);
    let status = response.status().as_u16();
    metrics.request(operation, status, elapsed.as_secs_f64());
    let elapsed_us = elapsed.as_micros() as u64;
    if answered.for_visitors {
        tracing::debug!(status, elapsed_us, "handled");
    } else {
        tracing::info!(status, elapsed_us, "handled");
    }
    (response, at)
}

/// The operation's name (`unmatched` when no route took the request), the envelope errors
/// use, the rate state for the headers, and the handler's result.
type Outcome = (
    &'static str,
    Envelope,
    Option<RateState>,
    Result<http::Response<Body>, Error>,
);

/// The operation name of requests no route took.
const UNMATCHED: &str = "unmatched";

/// Routes the request and serves it as its route declares: a public operation by its handler,
/// a keyed one through [`keyed::dispatch_keyed`].
async fn dispatch(
    shared: Arc<Shared>,
    matched: Matched,
    req: Request<Incoming>,
    peer: SocketAddr,
) -> Outcome {
    let app = &shared.app;
    let (route, param) = match matched {
        Matched::Route(index, param) => (shared.router.at(index), param),
        // A body sent along is thrown away behind the answer (`Metered`'s drop).
        Matched::MethodNotAllowed(envelope, allow) => {
            drop(Metered::new(req.into_body(), shared.pace(true)));
            return (
                UNMATCHED,
                envelope,
                None,
                Err(Error::MethodNotAllowed { allow }),
            );
        }
        Matched::NotFound(envelope) => {
            // A path of a short-link domain that no route has and that cannot be a code.
            if envelope == Envelope::Primary
                && matches!(*req.method(), http::Method::GET | http::Method::HEAD)
            {
                let host =
                    super::request::request_host(req.headers().get(http::header::HOST), req.uri())
                        .unwrap_or_default();
                app.record_orphan(host, crate::model::OrphanKind::ReservedPath);
            }
            drop(Metered::new(req.into_body(), shared.pace(true)));
            return (UNMATCHED, envelope, None, Err(Error::NotFound("route")));
        }
    };
    let operation = route.name;
    tracing::Span::current().record("route", route.name);
    let errors = route.errors;
    let reply = Reply {
        envelope: route.success,
    };
    let (parts, body) = req.into_parts();
    // Read as it arrives: at the floor's pace, within the body timeout unless it streams.
    let body = Metered::new(body, shared.pace(route.body != BodyKind::Multipart));

    match route.access {
        Access::Public { handler, .. } => {
            // Public operations read no body: one sent along is thrown away behind the answer.
            drop(body);
            let call = PublicCall {
                parts,
                param,
                peer,
                reply,
                openapi: &shared.openapi,
            };
            (operation, errors, None, handler(app, call).await)
        }
        // Boxed: the keyed path's state (authentication, the body, the kept answer) took the
        // request future from 1.6 to 2.8 KB; inline, every redirect's future carried it, and
        // hyper moves the future into place for each request.
        Access::Key {
            scope,
            query_key,
            handler,
        } => {
            let keyed = keyed::Keyed {
                route,
                scope,
                query_key,
                handler,
                param,
                reply,
            };
            let (rate, result) =
                Box::pin(keyed::dispatch_keyed(&shared, keyed, parts, body, peer)).await;
            (operation, errors, rate, result)
        }
    }
}
