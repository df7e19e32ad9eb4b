//! The embeddable HTTP server: hyper 1.x serving HTTP/1.1 and h2c on one port.
//!
//! [`serve`] runs the accept loop: a connection cap, per-connection tasks watched for graceful
//! shutdown, and accept errors that are logged and backed off rather than fatal. Each request
//! gets an id and a tracing span, is routed (`router`), authenticated, rate limited and
//! authorised, then handed to a handler; every failure becomes an enveloped response of the
//! route's surface (`response::error`).

mod handlers;
mod request;
mod response;
mod router;

use std::convert::Infallible;
use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use http::{HeaderValue, Request};
use hyper::body::Incoming;
use hyper::service::service_fn;
use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use hyper_util::server::conn::auto;
use hyper_util::server::graceful::GracefulShutdown;
use tokio::net::TcpListener;
use tokio::sync::Semaphore;
use tracing::Instrument;

use crate::error::Error;
use crate::service::{App, RateState};
use handlers::Call;
use response::{Body, Reply};
use router::{Access, BodyKind, Envelope, Matched, PublicCall, Router};

/// Limits and timeouts of the HTTP server.
#[derive(Debug, Clone)]
pub struct ServerConfig {
    /// Connections served at once; further ones wait in the listen backlog.
    pub max_connections: usize,
    /// Time a client has to send a request's headers (HTTP/1.1).
    pub header_read_timeout: Duration,
    /// Largest JSON body accepted; larger ones get 413.
    pub max_body_bytes: usize,
    /// Time a client has to send a request's body once its headers arrived; then 408.
    pub body_read_timeout: Duration,
    /// How long shutdown waits for open connections before closing them.
    pub grace_period: Duration,
}

impl Default for ServerConfig {
    fn default() -> Self {
        ServerConfig {
            max_connections: 1024,
            header_read_timeout: Duration::from_secs(10),
            max_body_bytes: 1 << 20,
            body_read_timeout: Duration::from_secs(30),
            grace_period: Duration::from_secs(10),
        }
    }
}

/// Shared by every connection.
struct Shared {
    app: App,
    router: Router,
    config: ServerConfig,
}

/// Serves `app` on `listener` until `shutdown` completes, then stops accepting, drains open
/// connections (for at most the grace period) and flushes buffered visits. The caller binds the
/// listener, so tests can use port 0 and read the address.
///
/// # Errors
/// None today; the signature leaves room for fatal listener errors.
pub async fn serve(
    listener: TcpListener,
    app: App,
    config: ServerConfig,
    shutdown: impl Future<Output = ()>,
) -> std::io::Result<()> {
    let shared = Arc::new(Shared {
        app: app.clone(),
        router: Router::new(),
        config: config.clone(),
    });
    let connections = Arc::new(Semaphore::new(config.max_connections.max(1)));
    let mut builder = auto::Builder::new(TokioExecutor::new());
    builder
        .http1()
        .timer(TokioTimer::new())
        .header_read_timeout(config.header_read_timeout)
        .max_buf_size(64 * 1024);
    builder
        .http2()
        .timer(TokioTimer::new())
        .max_concurrent_streams(100)
        .max_header_list_size(32 * 1024);
    let graceful = GracefulShutdown::new();
    let mut backoff = Duration::from_millis(5);
    tokio::pin!(shutdown);

    loop {
        let permit = tokio::select! {
            permit = connections.clone().acquire_owned() => match permit {
                Ok(permit) => permit,
                Err(_) => break, // never closed; stop serving if it were
            },
            () = &mut shutdown => break,
        };
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => {
                    backoff = Duration::from_millis(5);
                    accepted
                }
                Err(err) => {
                    // EMFILE and friends pass; one bad accept must not stop the server.
                    tracing::warn!(error = %err, "accept failed; backing off");
                    tokio::time::sleep(backoff).await;
                    backoff = (backoff * 2).min(Duration::from_secs(1));
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        let _ = stream.set_nodelay(true);
        let shared = shared.clone();
        let service = service_fn(move |req| {
            let shared = shared.clone();
            async move { Ok::<_, Infallible>(handle(&shared, req, peer).await) }
        });
        let connection = builder
            .serve_connection(TokioIo::new(stream), service)
            .into_owned();
        let connection = graceful.watch(connection);
        tokio::spawn(async move {
            if let Err(err) = connection.await {
                tracing::debug!(error = %err, %peer, "connection ended with an error");
            }
            drop(permit);
        });
    }

    drop(listener);
    tokio::select! {
        () = graceful.shutdown() => {}
        () = tokio::time::sleep(config.grace_period) => {
            tracing::warn!("grace period over; closing remaining connections");
        }
    }
    app.shutdown().await;
    Ok(())
}

/// An incoming request id when it is short and printable, else a fresh one.
fn request_id(req: &Request<Incoming>) -> String {
    req.headers()
        .get("x-request-id")
        .and_then(|v| v.to_str().ok())
        .filter(|v| !v.is_empty() && v.len() <= 64 && v.bytes().all(|b| b.is_ascii_graphic()))
        .map_or_else(|| crate::codes::random_code(16), str::to_owned)
}

async fn handle(shared: &Shared, req: Request<Incoming>, peer: SocketAddr) -> http::Response<Body> {
    let id = request_id(&req);
    let span = tracing::info_span!(
        "request",
        request_id = %id,
        method = %req.method(),
        route = tracing::field::Empty,
        user = tracing::field::Empty,
    );
    async move {
        let started = Instant::now();
        let (surface, rate, result) = dispatch(shared, req, peer).await;
        let mut response = result.unwrap_or_else(|err| response::error(surface, &err));
        let headers = response.headers_mut();
        if let Ok(value) = HeaderValue::from_str(&id) {
            headers.insert("x-request-id", value);
        }
        if let Some(rate) = rate {
            headers.insert("x-ratelimit-limit", HeaderValue::from(rate.limit));
            headers.insert("x-ratelimit-remaining", HeaderValue::from(rate.remaining));
        }
        tracing::info!(
            status = response.status().as_u16(),
            elapsed_us = started.elapsed().as_micros() as u64,
            "handled"
        );
        response
    }
    .instrument(span)
    .await
}

type Outcome = (
    Envelope,
    Option<RateState>,
    Result<http::Response<Body>, Error>,
);

/// Routes the request and serves it as its route declares: authentication, rate limit and
/// scope for keyed operations, the body it reads, its handler. Returns the envelope errors
/// must use, the rate state for the headers, and the handler's result.
async fn dispatch(shared: &Shared, req: Request<Incoming>, peer: SocketAddr) -> Outcome {
    let app = &shared.app;
    let (route, param) = match shared.router.route(req.method(), req.uri().path()) {
        Matched::Route(route, param) => (route, param),
        Matched::MethodNotAllowed(envelope, allow) => {
            return (envelope, None, Err(Error::MethodNotAllowed { allow }));
        }
        Matched::NotFound(envelope) => return (envelope, None, Err(Error::NotFound("route"))),
    };
    let span = tracing::Span::current();
    span.record("route", route.name);
    let errors = route.errors;
    let reply = Reply {
        envelope: route.success,
    };
    let (parts, body) = req.into_parts();

    let (scope, query_key, handler) = match route.access {
        Access::Public(handler) => {
            let call = PublicCall {
                parts,
                param,
                peer,
                reply,
            };
            return (errors, None, handler(app, call).await);
        }
        Access::Key {
            scope,
            query_key,
            handler,
        } => (scope, query_key, handler),
    };

    let Some(secret) = request::api_key(&parts, query_key) else {
        return (errors, None, Err(Error::InvalidApiKey));
    };
    let who = match app.authenticate(&secret).await {
        Ok(who) => who,
        Err(err) => return (errors, None, Err(err)),
    };
    span.record("user", who.user_id.0);
    let rate = match app.check_rate(&who) {
        Ok(rate) => rate,
        Err(err) => {
            let limit = app.config().rate_limit.map(|r| RateState {
                limit: r.burst.get(),
                remaining: 0,
            });
            return (errors, limit, Err(err));
        }
    };
    if let Err(err) = app.authorize(&who, scope) {
        return (errors, rate, Err(err));
    }
    let config = &shared.config;
    let body = match route.body {
        BodyKind::None => bytes::Bytes::new(),
        BodyKind::Json => match request::body_bytes(
            &parts.headers,
            body,
            config.max_body_bytes,
            config.body_read_timeout,
        )
        .await
        {
            Ok(body) => body,
            Err(err) => return (errors, rate, Err(err)),
        },
    };
    let call = Call {
        parts,
        body,
        param,
        who,
        reply,
    };
    (errors, rate, handler(app, call).await)
}
