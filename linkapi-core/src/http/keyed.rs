//! Serving an operation that needs a key: the key (from the headers, the query or, on the
//! compatibility surface, the JSON body), authentication, rate limit and scope, the body's
//! share of the memory budget and the body itself, the handler, and for a create sent with an
//! `Idempotency-Key` the answer kept under the key.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::budget::{self, Party};
use super::call::ParamAt;
use super::call::{self, Call};
use super::request::{self, Credential, Metered};
use super::response::{self, Body, Reply};
use super::route::{self, BodyKind};
use super::{RateState, ServerConfig, Shared};
use crate::error::Error;
use crate::service::{App, Principal};

/// A keyed operation's route and what the router took from the path.
pub(super) struct Keyed<'a> {
    pub(super) route: &'a route::Route,
    pub(super) scope: crate::model::Scope,
    pub(super) query_key: bool,
    pub(super) handler: route::ApiHandler,
    pub(super) param: Option<ParamAt>,
    pub(super) reply: Reply,
}

/// How long a body read before its key is known may take to arrive in all: the vendor's
/// clients send a few hundred bytes at once, and such bodies are the only work a client with
/// no key can make the server do.
const KEYLESS_WITHIN: Duration = Duration::from_secs(5);

/// Serves a keyed operation: authentication, rate limit and scope, the body it reads, its
/// handler; for a create sent with an `Idempotency-Key`, the answer kept under the key when
/// there is one. Returns the rate state for the headers and the handler's result. A body a
/// refusal leaves unread is thrown away behind the answer ([`Metered`]).
pub(super) async fn dispatch_keyed(
    shared: &Shared,
    keyed: Keyed<'_>,
    parts: http::request::Parts,
    mut body: Metered,
    peer: SocketAddr,
) -> (Option<RateState>, Result<http::Response<Body>, Error>) {
    let app = &shared.app;
    let route = keyed.route;
    let reads_json = matches!(route.body, BodyKind::Json | BodyKind::LargeJson);
    // The body, once read before the key was known.
    let mut read = None;
    let secret = match request::credential(&parts, keyed.query_key) {
        Credential::Key(secret) => secret,
        // The compatibility surface's clients may send the key inside the JSON body alone:
        // that body is read (under the same limits, and due sooner) before the key is known.
        Credential::Missing if keyed.query_key && reads_json => {
            let bytes = match keyless_body(shared, route, &parts, &mut body, peer).await {
                Ok(bytes) => bytes,
                Err(err) => return (None, Err(err)),
            };
            let secret = match request::body_credential(&bytes) {
                Credential::Key(secret) => secret,
                Credential::Missing => {
                    return (None, Err(Error::MissingApiKey { query: true }));
                }
                Credential::Unusable | Credential::NotBearer => {
                    return (None, Err(Error::InvalidApiKey));
                }
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
        Credential::NotBearer => return (None, Err(Error::NotBearer)),
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
    let (held, read) = match user_body(shared, route, &parts, body, read, &who).await {
        Ok(read) => read,
        Err(err) => return (rate, Err(err)),
    };
    let outcome = serve(app, keyed, parts, read, &who, &secret).await;
    // The share is held until the answer is sent, not just made.
    (rate, outcome.map(|answer| response::holding(answer, held)))
}

/// A request's body as its handler takes it: in hand, or (uploads) a stream still to read.
enum Read {
    Bytes(bytes::Bytes),
    Stream(Metered),
}

/// The body of `who`'s request, charged to its user's share of the budget: read whole for a
/// JSON operation (or, read already, charged whole), handed on as a stream for an upload,
/// which holds what it buffers (what arrived, up to [`budget::UPLOAD_BYTES`]). Returns the
/// share of a body in hand, which the caller holds until the answer is sent.
async fn user_body(
    shared: &Shared,
    route: &route::Route,
    parts: &http::request::Parts,
    mut body: Metered,
    read: Option<bytes::Bytes>,
    who: &Principal,
) -> Result<(Option<budget::Held>, Read), Error> {
    let users = &shared.budget.users;
    let party = Party::User(who.user_id);
    Ok(match (read, route.body) {
        // Read before the key was known: now charged to its user, whole.
        (Some(bytes), _) => {
            let cost = (bytes.len() as u64).saturating_mul(factor(route));
            (Some(users.admit(party, cost).await?), Read::Bytes(bytes))
        }
        (None, BodyKind::None) => (None, Read::Bytes(bytes::Bytes::new())),
        (None, BodyKind::Multipart) => {
            let most = budget::UPLOAD_BYTES;
            body.charge(users.admit(party, first_step(parts, most)).await?, 1, most);
            (None, Read::Stream(body))
        }
        (None, BodyKind::Json | BodyKind::LargeJson) => {
            let limit = body_limit(&shared.config, route);
            let most = (limit as u64).saturating_mul(factor(route));
            let share = users.admit(party, first_step(parts, most)).await?;
            body.charge(share, factor(route), most);
            let bytes = request::body_bytes(&parts.headers, &mut body, limit).await?;
            (body.take_held(), Read::Bytes(bytes))
        }
    })
}

/// Reads a JSON body whose key is not known yet (it may be in the body): charged to its
/// client address's share of the pool of such bodies, due within [`KEYLESS_WITHIN`].
async fn keyless_body(
    shared: &Shared,
    route: &route::Route,
    parts: &http::request::Parts,
    body: &mut Metered,
    peer: SocketAddr,
) -> Result<bytes::Bytes, Error> {
    let config = shared.app.config();
    let address = request::client_address(
        &parts.headers,
        peer.ip(),
        &config.trusted_proxies,
        config.client_address_header,
    );
    let limit = body_limit(&shared.config, route);
    let most = (limit as u64).saturating_mul(factor(route));
    let party = Party::Address(address.to_canonical());
    let share = shared
        .budget
        .keyless
        .admit(party, first_step(parts, most))
        .await?;
    body.charge(share, factor(route), most);
    body.set_pace(shared.pace(true).due_within(KEYLESS_WITHIN));
    // The share ends with this read: the body is charged to its user next.
    let bytes = request::body_bytes(&parts.headers, body, limit).await;
    drop(body.take_held());
    bytes
}

/// Hands the call to its route's handler; a create under an `Idempotency-Key` answers with
/// the answer kept under the key when there is one.
async fn serve(
    app: &App,
    keyed: Keyed<'_>,
    parts: http::request::Parts,
    read: Read,
    who: &Principal,
    secret: &str,
) -> Result<http::Response<Body>, Error> {
    let route = keyed.route;
    let (body, stream) = match read {
        Read::Bytes(bytes) => (bytes, None),
        Read::Stream(stream) => (bytes::Bytes::new(), Some(stream)),
    };
    // A key in the body beside another elsewhere must be usable and the same key, as in the
    // headers.
    if keyed.query_key && matches!(route.body, BodyKind::Json | BodyKind::LargeJson) {
        match request::body_credential(&body) {
            Credential::Missing => {}
            Credential::Key(key) if key == secret => {}
            Credential::Key(_) | Credential::Unusable | Credential::NotBearer => {
                return Err(Error::InvalidApiKey);
            }
        }
    }
    let idempotency = if !route.idempotent {
        None
    } else if body.len() < request::OFF_THREAD_BYTES {
        let param = call::path_param(&parts, keyed.param.as_ref());
        request::idempotency_key(&parts.headers, route.name, param, &body)?.map(Arc::new)
    } else {
        // A large body's digest reads it as a document: tens of milliseconds, not on a
        // serving thread.
        let (headers, body) = (parts.headers.clone(), body.clone());
        let param = call::path_param(&parts, keyed.param.as_ref()).map(str::to_owned);
        let name = route.name;
        request::off_thread(move || {
            request::idempotency_key(&headers, name, param.as_deref(), &body)
        })
        .await?
        .map(Arc::new)
    };
    let Some(key) = idempotency else {
        let call = Call {
            parts,
            body,
            stream,
            param: keyed.param,
            who: who.clone(),
            reply: keyed.reply,
            idempotency: None,
            vendor: route.vendor,
        };
        return (keyed.handler)(app, call).await;
    };
    if let Some(answer) = app.kept_answer(who, &key).await? {
        return Ok(response::replayed(answer));
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
    match (keyed.handler)(app, call).await {
        // Another request took the key after the look above: answer with what it commits.
        Err(Error::IdempotencyKeyInUse) => answer_once_kept(app, who, &key).await,
        outcome => outcome,
    }
}

/// A JSON operation's body limit: the route's size limit.
fn body_limit(config: &ServerConfig, route: &route::Route) -> usize {
    if route.body == BodyKind::LargeJson {
        route::LARGE_BODY_BYTES.max(config.max_body_bytes)
    } else {
        config.max_body_bytes
    }
}

/// What the work a JSON body starts costs, per byte of it.
fn factor(route: &route::Route) -> u64 {
    if route.body == BodyKind::LargeJson {
        budget::BULK_FACTOR
    } else {
        budget::JSON_FACTOR
    }
}

/// What a body is charged before any of it arrives: its first [`FIRST_STEP`] bytes (or what
/// it declares, when less) at the rate `most` allows; it grows from there as the body comes.
fn first_step(parts: &http::request::Parts, most: u64) -> u64 {
    let declared = parts
        .headers
        .get(http::header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok())
        .unwrap_or(FIRST_STEP);
    declared.min(FIRST_STEP).min(most).max(1)
}

/// The part of a body charged before it arrives.
const FIRST_STEP: u64 = 64 << 10;

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
