//! One connection: the watchdog that closes it when quiet too long or asked to make room,
//! the registry of open connections the accept loop displaces from, and serving it.

use std::collections::HashMap;
use std::convert::Infallible;
use std::future::Future;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use futures_util::FutureExt;
use futures_util::future::Either;
use futures_util::task::AtomicWaker;
use hyper::service::service_fn;
use hyper_util::rt::{TokioExecutor, TokioIo};
use hyper_util::server::conn::auto;
use tokio::net::TcpStream;

use super::dispatch::{Handled, handle};
use super::{ServerConfig, Shared};
use crate::locks::Unpoisoned;
use crate::service::App;

/// How often a client waiting at the connection cap looks again for a quiet connection to
/// displace, while every open one is busy.
pub(super) const CAP_RECHECK: Duration = Duration::from_millis(50);

/// The open connections' activity, for choosing one to close when the cap is reached.
#[derive(Default)]
pub(super) struct OpenConnections {
    next_id: AtomicU64,
    by_id: Mutex<HashMap<u64, Arc<Activity>>>,
}

impl OpenConnections {
    pub(super) fn insert(&self, activity: Arc<Activity>) -> u64 {
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        self.lock().insert(id, activity);
        id
    }

    pub(super) fn remove(&self, id: u64) {
        self.lock().remove(&id);
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<u64, Arc<Activity>>> {
        self.by_id.lock().unpoisoned()
    }

    /// Asks the connection quiet the longest to close: one that never sent a request (oldest
    /// first), else the one whose last request ended longest ago. Never one with a request in
    /// flight. Returns whether there was one.
    pub(super) fn close_quietest(&self) -> bool {
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
    pub(super) fn ask_all_to_close(&self, why: u8) {
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
pub(super) const SERVER_STOPS: u8 = 2;

/// What a connection is doing, for its watchdog. Requests only touch atomics: the watchdog
/// is never woken by them, it wakes at the deadline it computed and checks again, so a busy
/// connection costs it one wake-up per idle timeout, not two per request.
pub(super) struct Activity {
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
    pub(super) fn new() -> Self {
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
pub(super) struct OpenConnection(
    prometheus_client::metrics::gauge::Gauge<i64, std::sync::atomic::AtomicI64>,
);

impl OpenConnection {
    pub(super) fn new(app: &App) -> Self {
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
pub(super) async fn serve_connection(
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
