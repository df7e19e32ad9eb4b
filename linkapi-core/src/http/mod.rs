//! The embeddable HTTP server: hyper 1.x serving HTTP/1.1 and h2c on one port.
//!
//! [`serve`] runs the accept loop: a cap on open connections, per-connection tasks, and accept
//! errors that are logged and backed off rather than fatal. Each connection is watched
//! (`Activity`): a socket with no request in flight is closed once it has been quiet too long
//! (no first request within the header timeout, or idle past the idle timeout), and when a new
//! client arrives at the cap the connection quiet the longest makes room for it (one that
//! never sent a request first), so idle sockets cannot lock real clients out at any cap. Each
//! request gets a tracing span and an id (a visitor's, only when its span is logged), is
//! routed by the route table (`route::matcher`), answered at once when its route can do so without
//! waiting (a cached redirect), else authenticated, rate limited and authorised as its route
//! says (`keyed`), given its share of the memory budget before its body is read (`budget`),
//! then handed to the route's handler; every failure becomes a response in the route's error
//! envelope (`response::error`).
//!
//! Here: the configuration and the accept loop. `connection`: a connection's watchdog, the
//! registry of open ones and serving one. `dispatch`: a request from its head to its answer.
//! `request_id`: the ids requests are logged and answered with. `call`: what handlers are
//! given. `route/`: the rows, the table and the matcher.

mod budget;
mod call;
mod connection;
mod dispatch;
mod handlers;
mod keyed;
mod openapi;
pub(crate) mod request;
mod request_id;
mod response;
mod route;

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use hyper_util::rt::{TokioExecutor, TokioTimer};
use hyper_util::server::conn::auto;
use tokio::net::TcpListener;
use tokio::sync::Semaphore;
use tokio::task::JoinSet;

use crate::service::{App, RateState};
use connection::{
    Activity, CAP_RECHECK, OpenConnection, OpenConnections, SERVER_STOPS, serve_connection,
};
use response::RenderedOnce;
use route::matcher::Router;

/// Limits and timeouts of the HTTP server.
#[derive(Debug, Clone)]
pub struct ServerConfig {
    /// Connections open at once; further ones wait in the listen backlog. Quiet connections
    /// are closed by the timeouts below, so this bounds resources, not clients.
    pub max_connections: usize,
    /// Time a new connection has to send a request's headers, from connecting (HTTP/1.1 and
    /// HTTP/2 alike); then it is closed.
    pub header_read_timeout: Duration,
    /// Time a connection may stay open with no request in flight after its last one.
    pub idle_timeout: Duration,
    /// Largest JSON body accepted; larger ones get 413.
    pub max_body_bytes: usize,
    /// Time a client has to send a request's body once its headers arrived; then 408.
    pub body_read_timeout: Duration,
    /// How long shutdown waits for open connections before closing them.
    pub grace_period: Duration,
    /// Who may read `GET /metrics`.
    pub metrics_access: MetricsAccess,
    /// Memory the instance's request bodies, and the work they start, may hold at once
    /// (`http::budget`), shared fairly between users: a request past it waits a moment, then
    /// is answered 503 (or 429 when its user holds more than its share).
    pub body_budget_bytes: u64,
    /// The most of it one user (all its keys together) may hold: a request past it waits a
    /// moment, then is answered 429.
    pub user_body_budget_bytes: u64,
    /// Bytes a second a request body must average once its first [`BODY_GRACE`] is over;
    /// slower, it is cut off with 408. 0 for no floor.
    pub min_body_rate: u64,
}

/// The first moments of a request body, which the floor on its pace spares.
pub const BODY_GRACE: Duration = Duration::from_secs(5);

/// Who may read `GET /metrics`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum MetricsAccess {
    /// Clients on the loopback interface, no key (the client address follows the
    /// trusted-proxy rule, so a proxy on the same host does not open it to the world).
    #[default]
    Loopback,
    /// Any client presenting a key with scope `admin`.
    Admin,
}

impl Default for ServerConfig {
    fn default() -> Self {
        ServerConfig {
            max_connections: 10_000,
            header_read_timeout: Duration::from_secs(10),
            idle_timeout: Duration::from_secs(30),
            max_body_bytes: 1 << 20,
            body_read_timeout: Duration::from_secs(30),
            grace_period: Duration::from_secs(10),
            metrics_access: MetricsAccess::default(),
            // One bulk create of the largest size at a time (up to 260 MB of work), or several
            // smaller ones: the process stays within a 512 MiB container.
            body_budget_bytes: 256 << 20,
            // Half of it: no user takes the whole instance, even when alone.
            user_body_budget_bytes: 128 << 20,
            // 512 kbit/s: a phone on a poor network sends faster, a body trickled to hold a
            // connection does not.
            min_body_rate: 64 << 10,
        }
    }
}

/// Shared by every connection.
struct Shared {
    app: App,
    router: Router,
    config: ServerConfig,
    /// The OpenAPI document of `router`'s table.
    openapi: RenderedOnce,
    /// What request bodies may hold at once.
    budget: budget::Budget,
}

impl Shared {
    /// The pace a request body starting now must keep: the floor, and (`timed`: all but
    /// streams) the body timeout.
    fn pace(&self, timed: bool) -> request::Pace {
        let within = timed.then_some(self.config.body_read_timeout);
        request::Pace::from_now(self.config.min_body_rate, BODY_GRACE, within)
    }
}

/// Serves `app` on `listener` until `shutdown` completes, then stops accepting, lets open
/// requests finish for at most the grace period, closes what is still open, and flushes
/// buffered visits. The caller binds the listener, so tests can use port 0 and read the
/// address.
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
        router: Router::new(route::table::routes(config.metrics_access)),
        config: config.clone(),
        openapi: openapi::rendered(config.metrics_access),
        budget: budget::Budget::new(config.body_budget_bytes, config.user_body_budget_bytes),
    });
    let slots = Arc::new(Semaphore::new(config.max_connections.max(1)));
    let mut builder = auto::Builder::new(TokioExecutor::new());
    // No header timer of hyper's own: it arms a boxed timer for every request's head and
    // reads once more after every request to start the next one, which the cached redirect
    // path paid for on each request. The connection's watchdog (`Activity`) closes a
    // connection without complete headers `header_read_timeout` after connecting, or
    // `idle_timeout` after its last answer.
    builder
        .http1()
        .header_read_timeout(None)
        .max_buf_size(64 * 1024);
    builder
        .http2()
        .timer(TokioTimer::new())
        .max_concurrent_streams(100)
        .max_header_list_size(32 * 1024);
    let builder = Arc::new(builder);
    let mut connections = JoinSet::new();
    let mut backoff = Duration::from_millis(5);
    tokio::pin!(shutdown);

    let open_connections = Arc::new(OpenConnections::default());
    loop {
        // Reap finished connections so the set holds only open ones.
        while connections.try_join_next().is_some() {}
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
        let permit = match slots.clone().try_acquire_owned() {
            Ok(permit) => permit,
            // At the cap: a quiet connection makes room; while every one is busy, the new
            // client waits (holding one socket beyond the cap) for one to finish or go quiet.
            Err(_) => {
                let mut displaced = false;
                let permit = loop {
                    displaced = displaced || open_connections.close_quietest();
                    tokio::select! {
                        permit = slots.clone().acquire_owned() => break permit.ok(),
                        () = tokio::time::sleep(CAP_RECHECK) => {}
                        () = &mut shutdown => break None,
                    }
                };
                match permit {
                    Some(permit) => permit,
                    None => break,
                }
            }
        };
        let activity = Arc::new(Activity::new());
        let id = open_connections.insert(activity.clone());
        let (shared, builder) = (shared.clone(), builder.clone());
        let open = OpenConnection::new(&app);
        let registry = open_connections.clone();
        connections.spawn(async move {
            serve_connection(shared, &builder, stream, peer, activity).await;
            registry.remove(id);
            drop((permit, open));
        });
    }

    drop(listener);
    // Every connection was registered by this loop, so each one hears it.
    open_connections.ask_all_to_close(SERVER_STOPS);
    let drained = tokio::time::timeout(config.grace_period, async {
        while connections.join_next().await.is_some() {}
    })
    .await;
    if drained.is_err() {
        tracing::warn!(
            open = connections.len(),
            "grace period over; closing remaining connections"
        );
        connections.shutdown().await;
    }
    app.shutdown().await;
    Ok(())
}
