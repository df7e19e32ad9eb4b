//! Request ids: the client's `X-Request-Id` when usable, else this process's prefix and a
//! count, handed out in blocks per thread.

use std::sync::atomic::{AtomicU64, Ordering};

use http::HeaderValue;

/// The request id's header, named once: found in the walk over a request's headers, set on its
/// response.
pub(super) static REQUEST_ID: http::HeaderName = http::HeaderName::from_static("x-request-id");

/// `given`, the request's own id, when it is short and printable (shared, not copied), else
/// a fresh one ([`fresh_request_id`]) if `fresh`.
pub(super) fn request_id(given: Option<&HeaderValue>, fresh: bool) -> Option<HeaderValue> {
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
pub(super) fn id_text(id: Option<&HeaderValue>) -> &str {
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
