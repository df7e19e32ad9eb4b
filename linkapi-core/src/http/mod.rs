//! The embeddable HTTP server: hyper 1.x serving HTTP/1.1 and h2c on one port.
//!
//! [`serve`] runs the accept loop: a cap on open connections, per-connection tasks, and accept
//! errors that are logged and backed off rather than fatal. Each connection is watched
//! (`Activity`): a socket with no request in flight is closed once it has been quiet too long
//! (no first request within the header timeout, or idle past the idle timeout), and when a new
//! client arrives at the cap the connection quiet the longest makes room for it (one that
//! never sent a request first), so idle sockets cannot lock real clients out at any cap. Each
//! request gets a tracing span and an id (a visitor's, only when its span is logged), is
//! routed by the route table (`router`), answered at once when its route can do so without
//! waiting (a cached redirect), else authenticated, rate limited and authorised as its route
//! says (`keyed`), given its share of the memory budget before its body is read (`budget`),
//! then handed to the route's handler; every failure becomes a response in the route's error
//! envelope (`response::error`).

mod budget;
mod handlers;
mod keyed;
mod openapi;
pub(crate) mod request;
mod response;
mod route;
mod router;
mod routes;

use std::collections::HashMap;
use std::convert::Infallible;
use std::future::Future;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use futures_util::FutureExt;
use futures_util::future::{BoxFuture, Either};
use futures_util::task::AtomicWaker;
use http::{HeaderValue, Request};
use hyper::body::Incoming;
use hyper::service::service_fn;
use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use hyper_util::server::conn::auto;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::Semaphore;
use tokio::task::JoinSet;
use tracing::Instrument;

use crate::error::Error;
use crate::locks::Unpoisoned;
use crate::service::{App, RateState};
use handlers::{Head, KnownHeaders, PublicCall};
use response::Envelope;
use response::{Body, RenderedOnce, Reply};
use route::Access;
use router::{Matched, Router};

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
    /// (`http::budget`): a request past it waits a moment, then is answered 503.
    pub body_budget_bytes: u64,
    /// The same for one key: a request past it waits a moment, then is answered 429.
    pub key_body_budget_bytes: u64,
}

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
            // Half of it: no key takes the whole instance with smaller bulks.
            key_body_budget_bytes: 128 << 20,
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
        router: Router::new(config.metrics_access),
        config: config.clone(),
        openapi: openapi::rendered(config.metrics_access),
        budget: budget::Budget::new(config.body_budget_bytes, config.key_body_budget_bytes),
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

/// How often a client waiting at the connection cap looks again for a quiet connection to
/// displace, while every open one is busy.
const CAP_RECHECK: Duration = Duration::from_millis(50);

/// The open connections' activity, for choosing one to close when the cap is reached.
#[derive(Default)]
struct OpenConnections {
    next_id: AtomicU64,
    by_id: Mutex<HashMap<u64, Arc<Activity>>>,
}

impl OpenConnections {
    fn insert(&self, activity: Arc<Activity>) -> u64 {
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        self.lock().insert(id, activity);
        id
    }

    fn remove(&self, id: u64) {
        self.lock().remove(&id);
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<u64, Arc<Activity>>> {
        self.by_id.lock().unpoisoned()
    }

    /// Asks the connection quiet the longest to close: one that never sent a request (oldest
    /// first), else the one whose last request ended longest ago. Never one with a request in
    /// flight. Returns whether there was one.
    fn close_quietest(&self) -> bool {
        let quietest = self
            .lock()
            .values()
            .filter(|a| {
                a.in_flight.load(Ordering::SeqCst) == 0
                    && a.asked_to_close.load(Ordering::SeqCst) == NOT_ASKED
            })
            .min_by_key(|a| match a.last_done_ms.load(Ordering::SeqCst) {
                u64::MAX => (0, a.opened),
                ms => (1, a.opened + Duration::from_millis(ms)),
            })
            .cloned();
        let Some(activity) = quietest else {
            return false;
        };
        activity.ask_to_close(MAKE_ROOM);
        true
    }

    /// Asks every open connection to close, `why`.
    fn ask_all_to_close(&self, why: u8) {
        for activity in self.lock().values() {
            activity.ask_to_close(why);
        }
    }
}

/// Why a connection was asked to close ([`Activity::asked_to_close`]), the stronger reason
/// the larger: not asked.
const NOT_ASKED: u8 = 0;
/// To make room for a new client at the connection cap.
const MAKE_ROOM: u8 = 1;
/// The server stops: requests in flight are answered in full.
const SERVER_STOPS: u8 = 2;

/// What a connection is doing, for its watchdog. Requests only touch atomics: the watchdog
/// is never woken by them, it wakes at the deadline it computed and checks again, so a busy
/// connection costs it one wake-up per idle timeout, not two per request.
struct Activity {
    /// When the connection was accepted.
    opened: Instant,
    /// Requests being served.
    in_flight: AtomicUsize,
    /// Milliseconds after `opened` when the last request finished; `u64::MAX` before any.
    last_done_ms: AtomicU64,
    /// Whether, and why, it was asked to close: [`NOT_ASKED`], [`MAKE_ROOM`] or
    /// [`SERVER_STOPS`].
    asked_to_close: AtomicU8,
    /// Wakes the connection when it is asked to close, or when its watchdog's timer rings.
    /// Not a `Notify` or a watch channel: the connection polls this on every wake-up, and
    /// their polls take a lock each (0.6% of a cached redirect's CPU for the two it had).
    close_waker: AtomicWaker,
    /// Whether the watchdog's timer rang since the connection last looked ([`Alarm`]); set
    /// at first, so that the watchdog's sleep starts.
    alarm_rang: AtomicBool,
}

/// The waker the watchdog's sleep is polled with: it marks that the timer rang and wakes the
/// connection.
struct Alarm(Arc<Activity>);

impl std::task::Wake for Alarm {
    fn wake(self: Arc<Self>) {
        self.wake_by_ref();
    }

    fn wake_by_ref(self: &Arc<Self>) {
        self.0.alarm_rang.store(true, Ordering::SeqCst);
        self.0.close_waker.wake();
    }
}

impl Activity {
    fn new() -> Self {
        Activity {
            opened: Instant::now(),
            in_flight: AtomicUsize::new(0),
            last_done_ms: AtomicU64::new(u64::MAX),
            asked_to_close: AtomicU8::new(NOT_ASKED),
            close_waker: AtomicWaker::new(),
            alarm_rang: AtomicBool::new(true),
        }
    }

    /// When the connection may be closed if nothing starts before then; `None` while a
    /// request is in flight.
    fn quiet_deadline(&self, config: &ServerConfig) -> Option<Instant> {
        if self.in_flight.load(Ordering::SeqCst) > 0 {
            return None;
        }
        Some(match self.last_done_ms.load(Ordering::SeqCst) {
            u64::MAX => self.opened + config.header_read_timeout,
            ms => self.opened + Duration::from_millis(ms) + config.idle_timeout,
        })
    }

    /// Notes that a request ended at `at`: the connection's quiet time counts from there.
    fn answered(&self, at: Instant) {
        let done = at.saturating_duration_since(self.opened).as_millis();
        let done = u64::try_from(done).unwrap_or(u64::MAX - 1);
        self.last_done_ms.store(done, Ordering::SeqCst);
    }

    /// Asks the connection to close, `why` ([`MAKE_ROOM`] or [`SERVER_STOPS`]); the stronger
    /// reason stays.
    fn ask_to_close(&self, why: u8) {
        self.asked_to_close.fetch_max(why, Ordering::SeqCst);
        self.close_waker.wake();
    }

    /// Completes once the connection is asked to close, with whether it is because the
    /// server stops.
    fn close_asked(&self) -> impl Future<Output = bool> + '_ {
        std::future::poll_fn(move |cx| {
            if self.asked_to_close.load(Ordering::SeqCst) == NOT_ASKED {
                self.close_waker.register(cx.waker());
            }
            // Looked at again after registering: a request made in between is not missed.
            match self.asked_to_close.load(Ordering::SeqCst) {
                NOT_ASKED => Poll::Pending,
                why => Poll::Ready(why == SERVER_STOPS),
            }
        })
    }

    /// Completes once the connection has had nothing in flight for too long.
    async fn quiet_too_long(&self, config: &ServerConfig) {
        loop {
            let now = Instant::now();
            // A request may start and finish while this sleeps, moving the deadline to its end
            // plus the idle timeout, never earlier than an idle timeout from now: waking at
            // least that often closes the connection on time.
            let soonest = now + config.idle_timeout.min(config.header_read_timeout);
            let wake = match self.quiet_deadline(config) {
                Some(deadline) if deadline <= now => return,
                Some(deadline) => deadline.min(soonest),
                // Busy; a request's own timeouts bound how long it runs. Look again later.
                None => soonest,
            };
            tokio::time::sleep_until(wake.into()).await;
        }
    }
}

/// Counts a request in flight for as long as it lives.
struct InFlight {
    activity: Arc<Activity>,
    /// When the request was answered, if it was: an aborted one ends when dropped.
    answered: Option<Instant>,
}

impl InFlight {
    fn start(activity: &Arc<Activity>) -> Self {
        activity.in_flight.fetch_add(1, Ordering::SeqCst);
        InFlight {
            activity: activity.clone(),
            answered: None,
        }
    }

    /// Ends the request, answered at `at`: the instant its duration was measured to, so the
    /// clock is not read again (a redirect read it four times).
    fn answered_at(mut self, at: Instant) {
        self.answered = Some(at);
    }
}

impl Drop for InFlight {
    fn drop(&mut self) {
        let activity = &self.activity;
        activity.answered(self.answered.unwrap_or_else(Instant::now));
        activity.in_flight.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Counts a connection in `linkapi_open_connections` for as long as it lives, aborted ones
/// included.
struct OpenConnection(prometheus_client::metrics::gauge::Gauge<i64, std::sync::atomic::AtomicI64>);

impl OpenConnection {
    fn new(app: &App) -> Self {
        let gauge = app.metrics().connections.clone();
        gauge.inc();
        OpenConnection(gauge)
    }
}

impl Drop for OpenConnection {
    fn drop(&mut self) {
        self.0.dec();
    }
}

/// Serves one connection until it ends, is quiet too long, or the server stops (then it
/// finishes what is in flight, within the grace period the caller enforces).
async fn serve_connection(
    shared: Arc<Shared>,
    builder: &auto::Builder<TokioExecutor>,
    stream: TcpStream,
    peer: SocketAddr,
    activity: Arc<Activity>,
) {
    let _ = stream.set_nodelay(true);
    let service = {
        let (shared, activity) = (shared.clone(), activity.clone());
        // A request answered at once is never in flight while anything could look; the
        // future of one that waits carries the in-flight count beside it (`map`, not an
        // `async` block awaiting it: a block would hold the request twice).
        service_fn(move |req| match handle(&shared, req, peer) {
            Handled::Now(response, answered) => {
                activity.answered(answered);
                Either::Left(std::future::ready(Ok::<_, Infallible>(response)))
            }
            Handled::Later(future) => {
                let in_flight = InFlight::start(&activity);
                Either::Right(future.map(move |(response, answered)| {
                    in_flight.answered_at(answered);
                    Ok(response)
                }))
            }
        })
    };
    let connection = builder.serve_connection(TokioIo::new(stream), service);
    tokio::pin!(connection);
    let quiet = activity.quiet_too_long(&shared.config);
    let close_asked = activity.close_asked();
    tokio::pin!(quiet, close_asked);
    // The watchdog's timer wakes the connection through `alarm`, which says so; the sleep is
    // polled only then (and once to start it), not on every wake-up of a busy connection, as
    // `select!` would (with a random number to choose the first branch): 1.5% of a cached
    // redirect's instructions.
    let alarm = std::task::Waker::from(Arc::new(Alarm(activity.clone())));
    let ended = std::future::poll_fn(|cx| {
        if let Poll::Ready(result) = connection.as_mut().poll(cx) {
            return Poll::Ready(Err(result));
        }
        if let Poll::Ready(graceful) = close_asked.as_mut().poll(cx) {
            return Poll::Ready(Ok(graceful));
        }
        if activity.alarm_rang.swap(false, Ordering::SeqCst)
            && quiet
                .as_mut()
                .poll(&mut Context::from_waker(&alarm))
                .is_ready()
        {
            return Poll::Ready(Ok(false));
        }
        Poll::Pending
    });
    let graceful = match ended.await {
        Ok(graceful) => graceful,
        Err(result) => {
            if let Err(err) = result {
                tracing::debug!(error = %err, %peer, "connection ended with an error");
            }
            return;
        }
    };
    // Say goodbye properly (HTTP/2 GOAWAY, HTTP/1.1 close after the response in flight). A
    // request that started just as the connection was chosen to close is answered in full.
    connection.as_mut().graceful_shutdown();
    if graceful || activity.in_flight.load(Ordering::SeqCst) > 0 {
        let _ = connection.await;
    } else {
        // Nothing was in flight: a short wait for the goodbye, then drop the socket.
        let _ = tokio::time::timeout(Duration::from_secs(1), connection).await;
    }
}

/// The request id's header, named once: found in the walk over a request's headers, set on its
/// response.
static REQUEST_ID: http::HeaderName = http::HeaderName::from_static("x-request-id");

/// `given`, the request's own id, when it is short and printable (shared, not copied), else
/// a fresh one ([`fresh_request_id`]) if `fresh`.
fn request_id(given: Option<&HeaderValue>, fresh: bool) -> Option<HeaderValue> {
    if let Some(given) = given
        && !given.is_empty()
        && given.len() <= 64
        && given.as_bytes().iter().all(u8::is_ascii_graphic)
    {
        return Some(given.clone());
    }
    fresh.then(fresh_request_id)
}

/// A request id as the log shows it.
fn id_text(id: Option<&HeaderValue>) -> &str {
    id.and_then(|id| id.to_str().ok()).unwrap_or_default()
}

/// Ids a thread makes at once ([`fresh_request_id`]).
const IDS_PER_BLOCK: u64 = 64;

/// Room for one id: the 8-byte prefix and up to 16 hex digits.
const ID_ROOM: usize = 24;

/// A fresh request id: this process's random prefix and a counter in hex (at least 8 digits),
/// unique without drawing random numbers per request. Each thread makes ids
/// [`IDS_PER_BLOCK`] at a time, taking their counts from the process's counter together,
/// formatted into one buffer and checked as header values then; each is a slice of that
/// buffer. Formatting, checking, allocating and freeing each one apart were 2% of a cached
/// redirect.
fn fresh_request_id() -> HeaderValue {
    static PREFIX: std::sync::LazyLock<String> =
        std::sync::LazyLock::new(|| crate::codes::random_code(8));
    static NEXT: AtomicU64 = AtomicU64::new(0);
    thread_local! {
        static MADE: std::cell::RefCell<Vec<HeaderValue>> = const { std::cell::RefCell::new(Vec::new()) };
    }
    MADE.with_borrow_mut(|made| {
        if made.is_empty() {
            *made = id_block(&PREFIX, NEXT.fetch_add(IDS_PER_BLOCK, Ordering::Relaxed));
        }
        made.pop().unwrap_or_else(|| HeaderValue::from_static("-"))
    })
}

/// The ids of counts `first..first + IDS_PER_BLOCK`, the last first (they are popped).
fn id_block(prefix: &str, first: u64) -> Vec<HeaderValue> {
    let mut text = vec![0u8; IDS_PER_BLOCK as usize * ID_ROOM];
    for (room, count) in text.chunks_exact_mut(ID_ROOM).zip(first..) {
        format_request_id(prefix, count, room);
    }
    let text = bytes::Bytes::from(text);
    (0..IDS_PER_BLOCK)
        .rev()
        .map(|n| {
            let at = n as usize * ID_ROOM;
            let len = id_len(prefix, first + n);
            HeaderValue::from_maybe_shared(text.slice(at..at + len))
                .unwrap_or_else(|_| HeaderValue::from_static("-"))
        })
        .collect()
}

/// The length of the id of `count`: its prefix and at least 8 hex digits.
fn id_len(prefix: &str, count: u64) -> usize {
    prefix.len().min(8) + (64 - count.leading_zeros() as usize).div_ceil(4).max(8)
}

/// Writes `prefix` (its first 8 bytes) and `count` in lower-case hex, at least 8 digits, at the
/// start of `room` ([`ID_ROOM`] bytes).
fn format_request_id(prefix: &str, count: u64, room: &mut [u8]) {
    let end = id_len(prefix, count);
    let prefix = &prefix.as_bytes()[..prefix.len().min(8)];
    room[..prefix.len()].copy_from_slice(prefix);
    for (place, byte) in room[prefix.len()..end].iter_mut().rev().enumerate() {
        *byte = b"0123456789abcdef"[((count >> (4 * place)) & 0xf) as usize];
    }
}

/// What [`handle`] makes of a request: the response and when it was ready, at once or as a
/// future.
enum Handled {
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
fn handle(shared: &Arc<Shared>, req: Request<Incoming>, peer: SocketAddr) -> Handled {
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

/// What the answer to a request carries from its start: its id, when it started, and
/// whether it is a visitor's (logged at debug).
struct Answered {
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
        Matched::MethodNotAllowed(envelope, allow) => {
            return (
                UNMATCHED,
                envelope,
                None,
                Err(Error::MethodNotAllowed { allow }),
            );
        }
        Matched::NotFound(envelope) => {
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

    match route.access {
        Access::Public { handler, .. } => {
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
            let (rate, result) = Box::pin(keyed::dispatch_keyed(&shared, keyed, parts, body)).await;
            (operation, errors, rate, result)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{ID_ROOM, IDS_PER_BLOCK, fresh_request_id, id_len};

    #[test]
    fn a_request_id_is_its_prefix_and_its_count_in_hex() {
        for count in [
            0,
            1,
            0xabc,
            0xffff_ffff,
            0x1_0000_0000,
            0x0123_4567_89ab_cdef,
            u64::MAX,
        ] {
            let mut room = [0; ID_ROOM];
            super::format_request_id("Ab3xY9kQ", count, &mut room);
            assert_eq!(
                &room[..id_len("Ab3xY9kQ", count)],
                format!("Ab3xY9kQ{count:08x}").as_bytes()
            );
        }
    }

    #[test]
    fn fresh_request_ids_differ_across_blocks_and_threads() {
        let ids = || {
            (0..IDS_PER_BLOCK * 3 + 5)
                .map(|_| fresh_request_id().to_str().map(str::to_owned))
                .collect::<Result<Vec<_>, _>>()
                .expect("printable ids")
        };
        let here = ids();
        let there = std::thread::spawn(ids).join().expect("thread");
        let prefix = &here[0][..8];
        let mut seen = std::collections::HashSet::new();
        for id in here.iter().chain(&there) {
            assert_eq!(id.len(), 16, "{id}");
            assert_eq!(&id[..8], prefix, "one prefix per process");
            assert!(u64::from_str_radix(&id[8..], 16).is_ok(), "{id}");
            assert!(seen.insert(id.clone()), "{id} handed out twice");
        }
    }
}
