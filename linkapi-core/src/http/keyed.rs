//! Serving an operation that needs a key: the key (from the headers, the query or, on the
//! compatibility surface, the JSON body), authentication, rate limit and scope, the body's
//! share of the memory budget and the body itself, the handler, and for a create sent with an
//! `Idempotency-Key` the answer kept under the key.

use std::sync::Arc;
use std::time::{Duration, Instant};

use hyper::body::Incoming;

use super::call::ParamAt;
use super::call::{self, Call};
use super::request::{self, Credential};
use super::response::{self, Body, Reply};
use super::route::{self, BodyKind};
use super::{RateState, ServerConfig, Shared, budget};
use crate::error::Error;
use crate::service::App;

/// A keyed operation's route and what the router took from the path.
pub(super) struct Keyed<'a> {
    pub(super) route: &'a route::Route,
    pub(super) scope: crate::model::Scope,
    pub(super) query_key: bool,
    pub(super) handler: route::ApiHandler,
    pub(super) param: Option<ParamAt>,
    pub(super) reply: Reply,
}

/// Serves a keyed operation: authentication, rate limit and scope, the body it reads, its
/// handler; for a create sent with an `Idempotency-Key`, the answer kept under the key when
/// there is one. Returns the rate state for the headers and the handler's result.
pub(super) async fn dispatch_keyed(
    shared: &Shared,
    keyed: Keyed<'_>,
    parts: http::request::Parts,
    body: Incoming,
) -> (Option<RateState>, Result<http::Response<Body>, Error>) {
    let app = &shared.app;
    let route = keyed.route;
    let config = &shared.config;
    let reads_json = matches!(route.body, BodyKind::Json | BodyKind::LargeJson);
    // The body, until it is read; then what it held.
    let mut incoming = Some(body);
    let mut read = None;
    // The share of the budget a body read before the key was known holds.
    let mut pre_auth_hold = None;
    let secret = match request::credential(&parts, keyed.query_key) {
        Credential::Key(secret) => secret,
        // The compatibility surface's clients may send the key inside the JSON body alone:
        // that body is read (under the same limits) before the key is known.
        Credential::Missing
            if keyed.query_key
                && reads_json
                && let Some(body) = incoming.take() =>
        {
            // Read before the key is known: charged to the budget of such bodies alone.
            match shared
                .budget
                .admit(None, body_cost(config, route, &parts))
                .await
            {
                Ok(held) => pre_auth_hold = Some(held),
                Err(err) => return (None, Err(err)),
            }
            let bytes = match json_body(config, route, &parts, body).await {
                Ok(bytes) => bytes,
                Err(err) => return (None, Err(err)),
            };
            let secret = match request::body_credential(&bytes) {
                Credential::Key(secret) => secret,
                Credential::Missing => {
                    return (None, Err(Error::MissingApiKey { query: true }));
                }
                Credential::Unusable => return (None, Err(Error::InvalidApiKey)),
            };
            read = Some(bytes);
            secret
        }
        Credential::Missing => {
            return (
                None,
                Err(Error::MissingApiKey {
                    query: keyed.query_key,
                }),
            );
        }
        Credential::Unusable => return (None, Err(Error::InvalidApiKey)),
    };
    let who = match app.authenticate(&secret).await {
        Ok(who) => who,
        Err(err) => return (None, Err(err)),
    };
    tracing::Span::current().record("user", who.user_id.0);
    let rate = match app.check_rate(&who) {
        Ok(rate) => rate,
        Err(err) => {
            let limit = app.config().rate_limit.map(|r| RateState {
                limit: r.burst.get(),
                remaining: 0,
            });
            return (limit, Err(err));
        }
    };
    if let Err(err) = app.authorize(&who, keyed.scope) {
        return (rate, Err(err));
    }
    // A body's share of the budget, taken before it is read and held until the answer is
    // made (dropped with this function's locals).
    let cost = match (&pre_auth_hold, route.body) {
        (None, BodyKind::Json | BodyKind::LargeJson) => Some(body_cost(config, route, &parts)),
        // A stream (uploads) holds its buffers, not its size.
        (None, BodyKind::Multipart) => Some(
            declared_length(&parts).map_or(budget::UPLOAD_BYTES, |n| n.min(budget::UPLOAD_BYTES)),
        ),
        _ => None,
    };
    let _held = match cost {
        Some(cost) => match shared.budget.admit(Some(who.key_id), cost).await {
            Ok(held) => Some(held),
            Err(err) => return (rate, Err(err)),
        },
        None => None,
    };
    let mut stream = None;
    let body = match (read, incoming, route.body) {
        (Some(bytes), _, _) => bytes,
        (None, None, _) | (None, Some(_), BodyKind::None) => bytes::Bytes::new(),
        (None, Some(body), BodyKind::Multipart) => {
            stream = Some(body);
            bytes::Bytes::new()
        }
        (None, Some(body), BodyKind::Json | BodyKind::LargeJson) => {
            match json_body(config, route, &parts, body).await {
                Ok(body) => body,
                Err(err) => return (rate, Err(err)),
            }
        }
    };
    // A key in the body beside another elsewhere must be usable and the same key, as in the
    // headers.
    if keyed.query_key && reads_json {
        match request::body_credential(&body) {
            Credential::Missing => {}
            Credential::Key(key) if key == secret => {}
            Credential::Key(_) | Credential::Unusable => {
                return (rate, Err(Error::InvalidApiKey));
            }
        }
    }
    let idempotency = if route.idempotent {
        match request::idempotency_key(
            &parts.headers,
            route.name,
            call::path_param(&parts, keyed.param.as_ref()),
            &body,
        ) {
            Ok(key) => key.map(Arc::new),
            Err(err) => return (rate, Err(err)),
        }
    } else {
        None
    };
    let Some(key) = idempotency else {
        let call = Call {
            parts,
            body,
            stream,
            param: keyed.param,
            who,
            reply: keyed.reply,
            idempotency: None,
            vendor: route.vendor,
        };
        return (rate, (keyed.handler)(app, call).await);
    };
    match app.kept_answer(&who, &key).await {
        Ok(Some(answer)) => return (rate, Ok(response::replayed(answer))),
        Ok(None) => {}
        Err(err) => return (rate, Err(err)),
    }
    let call = Call {
        parts,
        body,
        stream,
        param: keyed.param,
        who: who.clone(),
        reply: keyed.reply,
        idempotency: Some(key.clone()),
        vendor: route.vendor,
    };
    let outcome = match (keyed.handler)(app, call).await {
        // Another request took the key after the look above: answer with what it commits.
        Err(Error::IdempotencyKeyInUse) => answer_once_kept(app, &who, &key).await,
        outcome => outcome,
    };
    (rate, outcome)
}

/// A JSON operation's body limit: the route's size limit.
fn body_limit(config: &ServerConfig, route: &route::Route) -> usize {
    if route.body == BodyKind::LargeJson {
        route::LARGE_BODY_BYTES.max(config.max_body_bytes)
    } else {
        config.max_body_bytes
    }
}

/// The body's length as its `Content-Length` declares it.
fn declared_length(parts: &http::request::Parts) -> Option<u64> {
    parts
        .headers
        .get(http::header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok())
}

/// What a JSON operation's body and the work it starts are charged of the budget.
fn body_cost(config: &ServerConfig, route: &route::Route, parts: &http::request::Parts) -> u64 {
    let declared = declared_length(parts);
    let factor = if route.body == BodyKind::LargeJson {
        budget::BULK_FACTOR
    } else {
        budget::JSON_FACTOR
    };
    budget::cost(declared, body_limit(config, route), factor)
}

/// A JSON operation's whole body, under the route's size limit and the read timeout.
async fn json_body(
    config: &ServerConfig,
    route: &route::Route,
    parts: &http::request::Parts,
    body: Incoming,
) -> Result<bytes::Bytes, Error> {
    let limit = body_limit(config, route);
    request::body_bytes(&parts.headers, body, limit, config.body_read_timeout).await
}

/// How long a request waits for the answer of another under the same idempotency key that
/// its create found holding the key, before it answers `409 idempotency_key_in_use`.
const KEPT_ANSWER_WAIT: Duration = Duration::from_secs(2);

/// The answer the request holding `key` commits, replayed; `409 idempotency_key_in_use` if
/// none is there within [`KEPT_ANSWER_WAIT`] (the holder failed and kept nothing, or has not
/// committed yet: a retry runs afresh or is answered).
async fn answer_once_kept(
    app: &App,
    who: &crate::service::Principal,
    key: &crate::service::IdempotencyKey,
) -> Result<http::Response<Body>, Error> {
    let started = Instant::now();
    let mut pause = Duration::from_millis(5);
    loop {
        if let Some(answer) = app.kept_answer(who, key).await? {
            return Ok(response::replayed(answer));
        }
        if started.elapsed() >= KEPT_ANSWER_WAIT {
            return Err(Error::IdempotencyKeyInUse);
        }
        tokio::time::sleep(pause).await;
        pause = (pause * 2).min(Duration::from_millis(250));
    }
}
