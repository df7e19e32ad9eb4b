//! A request body as it arrives ([`Metered`]): at a pace no slower than a floor, within a
//! deadline, charged to a share of the memory budget that grows with what arrived, and, when
//! dropped before its end (the request was answered without it), read and thrown away in the
//! background so that clients that write their whole body before reading hear the answer.

use std::time::{Duration, Instant};

use bytes::{Bytes, BytesMut};
use http::{HeaderMap, header};
use http_body_util::BodyExt;
use hyper::body::{Body as _, Incoming};

use crate::error::{Error, Result, names};
use crate::http::budget::Held;

/// The most bytes of a body read and thrown away after its request was answered without it.
/// Many clients (Python's `http.client`, `requests`, Go's and Java's) write their whole body
/// before reading the answer; closing on them mid-body makes them see a broken pipe instead.
pub(crate) const DRAIN_LIMIT: u64 = 64 << 20;
/// How long that may take at most.
const DRAIN_WITHIN: Duration = Duration::from_secs(30);

/// How fast a body must arrive, and by when.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Pace {
    /// Bytes a second a body must average once its grace is over; 0 for no floor.
    pub(crate) floor: u64,
    /// The first moments of a body, which no floor applies to.
    pub(crate) grace: Duration,
    /// When the whole body must be in, if ever.
    pub(crate) deadline: Option<Instant>,
}

impl Pace {
    /// The pace of a body starting now: `floor` after `grace`, whole `within` (if given).
    pub(crate) fn from_now(floor: u64, grace: Duration, within: Option<Duration>) -> Pace {
        Pace {
            floor,
            grace,
            deadline: within.map(|within| Instant::now() + within),
        }
    }

    /// The same, with the whole body due `within` from now at the latest.
    pub(crate) fn due_within(mut self, within: Duration) -> Pace {
        let due = Instant::now() + within;
        self.deadline = Some(self.deadline.map_or(due, |d| d.min(due)));
        self
    }
}

/// A body's share of the budget, grown as it arrives: `factor` times what arrived, at most
/// `most` bytes.
struct Charge {
    held: Held,
    factor: u64,
    most: u64,
}

/// A request body, read chunk by chunk as [`Pace`] allows, charged as it arrives.
pub(crate) struct Metered {
    body: Option<Incoming>,
    pace: Pace,
    started: Instant,
    received: u64,
    charge: Option<Charge>,
    /// Read to its end, or cut off for its pace: nothing to throw away.
    done: bool,
}

impl Metered {
    pub(crate) fn new(body: Incoming, pace: Pace) -> Metered {
        Metered {
            body: Some(body),
            pace,
            started: Instant::now(),
            received: 0,
            charge: None,
            done: false,
        }
    }

    /// Replaces the pace (a body read before its key is known is due sooner).
    pub(crate) fn set_pace(&mut self, pace: Pace) {
        self.pace = pace;
    }

    /// Charges what arrives from here on to `held`: `factor` times the bytes received, at
    /// most `most`.
    pub(crate) fn charge(&mut self, held: Held, factor: u64, most: u64) {
        self.charge = Some(Charge { held, factor, most });
    }

    /// The share charged so far, taken off the body (it no longer grows).
    pub(crate) fn take_held(&mut self) -> Option<Held> {
        self.charge.take().map(|charge| charge.held)
    }

    /// When the body will have arrived too slowly if nothing more comes.
    fn too_slow_at(&self) -> Option<Instant> {
        let floor = (self.pace.floor > 0).then(|| {
            let earned = Duration::from_secs_f64(self.received as f64 / self.pace.floor as f64);
            self.started + self.pace.grace + earned
        });
        match (floor, self.pace.deadline) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// The next chunk of the body, `None` at its end.
    ///
    /// # Errors
    /// 408 when it arrives slower than the floor or past its deadline; 400 when the
    /// connection fails; as [`Held::grow`] when its share cannot grow with it.
    pub(crate) async fn next_chunk(&mut self) -> Result<Option<Bytes>> {
        loop {
            let too_slow_at = self.too_slow_at();
            let Some(body) = self.body.as_mut() else {
                return Ok(None);
            };
            let frame = match too_slow_at {
                Some(at) => match tokio::time::timeout_at(at.into(), body.frame()).await {
                    Ok(frame) => frame,
                    Err(_) => {
                        self.done = true;
                        self.body = None;
                        return Err(self.late());
                    }
                },
                None => body.frame().await,
            };
            let data = match frame {
                None => {
                    self.done = true;
                    self.body = None;
                    return Ok(None);
                }
                Some(Err(err)) => {
                    self.done = true;
                    self.body = None;
                    return Err(Error::bad_request(
                        names::BAD_BODY,
                        format!("could not read the request body: {err}"),
                    ));
                }
                Some(Ok(frame)) => match frame.into_data() {
                    Ok(data) => data,
                    // Trailers carry nothing a handler reads.
                    Err(_) => continue,
                },
            };
            self.received += data.len() as u64;
            if let Some(charge) = &mut self.charge {
                let wanted = self.received.saturating_mul(charge.factor).min(charge.most);
                if wanted > charge.held.bytes() {
                    // In steps that double, so a large body takes a few dozen, not one a chunk.
                    let step = wanted.max(charge.held.bytes() * 2).min(charge.most);
                    charge.held.grow(step).await?;
                }
            }
            return Ok(Some(data));
        }
    }

    /// Why the body was cut off.
    fn late(&self) -> Error {
        match self.pace.deadline {
            Some(deadline) if Instant::now() >= deadline => Error::RequestTimeout {
                secs: deadline
                    .saturating_duration_since(self.started)
                    .as_secs()
                    .max(1),
            },
            _ => Error::BodyTooSlow {
                floor: self.pace.floor,
            },
        }
    }

    /// The body as a stream of its chunks (for `multer`).
    pub(crate) fn into_stream(self) -> impl futures_util::Stream<Item = Result<Bytes>> + Send {
        futures_util::stream::unfold(self, |mut body| async move {
            match body.next_chunk().await {
                Ok(Some(chunk)) => Some((Ok(chunk), body)),
                Ok(None) => None,
                Err(err) => Some((Err(err), body)),
            }
        })
    }
}

impl Drop for Metered {
    fn drop(&mut self) {
        if self.done {
            return;
        }
        let Some(body) = self.body.take().filter(|body| !body.is_end_stream()) else {
            return;
        };
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            return;
        };
        // Throw the rest away at the same pace, then let the connection go on or close.
        let limit = self.received.saturating_add(DRAIN_LIMIT);
        let mut rest = Metered {
            body: Some(body),
            pace: self.pace.due_within(DRAIN_WITHIN),
            started: self.started,
            received: self.received,
            charge: None,
            done: true,
        };
        runtime.spawn(async move {
            while rest.received < limit {
                match rest.next_chunk().await {
                    Ok(Some(_)) => {}
                    Ok(None) | Err(_) => return,
                }
            }
        });
    }
}

/// Reads the whole body, refusing more than `limit` bytes with 413 (a body declared larger is
/// refused before any of it is read), a body that arrives too slowly with 408, and one whose
/// share of the budget cannot grow with it as [`Held::grow`] says.
pub(crate) async fn body_bytes(
    headers: &HeaderMap,
    body: &mut Metered,
    limit: usize,
) -> Result<Bytes> {
    let declared = headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    let too_large = Error::PayloadTooLarge { limit };
    if declared.is_some_and(|len| len > limit as u64) {
        return Err(too_large);
    }
    // Sized to what the client declared (within the limit): grown by doubling, a 26 MiB body
    // took 32 MiB and the copies on the way. Pages the body does not reach are never touched
    // (large allocations are mappings of their own: `crate::heap`).
    let declared = declared.map_or(0, |len| usize::try_from(len).unwrap_or(limit));
    let mut collected = BytesMut::with_capacity(declared.min(limit));
    while let Some(data) = body.next_chunk().await? {
        if collected.len() + data.len() > limit {
            return Err(too_large);
        }
        collected.extend_from_slice(&data);
    }
    Ok(collected.freeze())
}
