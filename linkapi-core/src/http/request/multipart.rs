//! `multipart/form-data` streams: the boundary, the parts, each part's bytes under limits.

use bytes::Bytes;
use http::{HeaderMap, header};

use super::Metered;
use crate::error::{Error, Result, names};

/// [`multipart`] of a request's body, read as it arrives ([`Metered`]: its pace, its share of
/// the budget; a body refused before its end is thrown away in the background, so a client
/// that writes its whole body before reading, such as Python's `http.client`, reads the 413).
///
/// # Errors
/// As [`multipart`].
pub(crate) fn multipart_request(
    headers: &HeaderMap,
    body: Option<Metered>,
    limit: u64,
) -> Result<multer::Multipart<'static>> {
    multipart(
        headers,
        body.map(|body| Box::pin(body.into_stream())),
        limit,
    )
}

fn declared_length(headers: &HeaderMap) -> Option<u64> {
    headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok())
}

fn too_large(limit: u64) -> Error {
    Error::PayloadTooLarge {
        limit: usize::try_from(limit).unwrap_or(usize::MAX),
    }
}

/// A `multipart/form-data` body read part by part, at most `limit` bytes in all.
///
/// # Errors
/// 415 when the body is not multipart; 413 when it declares more than `limit` bytes (answered
/// at once: an upload that large is not read to be thrown away).
pub(crate) fn multipart<S, E>(
    headers: &HeaderMap,
    body: Option<S>,
    limit: u64,
) -> Result<multer::Multipart<'static>>
where
    S: futures_util::Stream<Item = std::result::Result<Bytes, E>> + Send + 'static,
    E: Into<Box<dyn std::error::Error + Send + Sync>> + 'static,
{
    let boundary = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| multer::parse_boundary(v).ok())
        .ok_or_else(|| Error::UnsupportedMediaType {
            expected: "multipart/form-data with the image in a part named file",
        })?;
    if !is_rfc2046_boundary(&boundary) {
        return Err(Error::bad_request(
            names::BAD_MULTIPART,
            "the multipart boundary must be 1 to 70 letters, digits, spaces or '()+_,-./:=? \
             (RFC 2046), not ending in a space",
        ));
    }
    if declared_length(headers).is_some_and(|len| len > limit) {
        return Err(too_large(limit));
    }
    let body =
        body.ok_or_else(|| Error::bad_request(names::BAD_BODY, "the request has no body"))?;
    let constraints =
        multer::Constraints::new().size_limit(multer::SizeLimit::new().whole_stream(limit));
    Ok(multer::Multipart::with_constraints(
        body,
        boundary,
        constraints,
    ))
}

/// Whether `boundary` is one RFC 2046 allows: 1 to 70 of its characters, the last not a space.
fn is_rfc2046_boundary(boundary: &str) -> bool {
    (1..=70).contains(&boundary.len())
        && !boundary.ends_with(' ')
        && boundary
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"'()+_,-./:=? ".contains(&b))
}

/// What a multipart failure means for the client.
pub(crate) fn multipart_error(err: multer::Error, limit: u64) -> Error {
    match err {
        multer::Error::StreamSizeExceeded { .. } => Error::PayloadTooLarge {
            limit: usize::try_from(limit).unwrap_or(usize::MAX),
        },
        // What the body itself failed with (its pace, its share of the budget) stands.
        multer::Error::StreamReadFailed(cause) => match cause.downcast::<Error>() {
            Ok(err) => *err,
            Err(cause) => Error::bad_request(
                names::BAD_MULTIPART,
                format!("the multipart/form-data body could not be read: {cause}"),
            ),
        },
        other => Error::bad_request(
            names::BAD_MULTIPART,
            format!("the multipart/form-data body could not be read: {other}"),
        ),
    }
}

/// The next part of a multipart body, waiting at most `idle` for it.
///
/// # Errors
/// 408 when nothing arrives in time; 400 or 413 as [`multipart_error`] says.
pub(crate) async fn next_part(
    form: &mut multer::Multipart<'static>,
    idle: std::time::Duration,
    limit: u64,
) -> Result<Option<multer::Field<'static>>> {
    match tokio::time::timeout(idle, form.next_field()).await {
        Err(_) => Err(Error::RequestTimeout {
            secs: idle.as_secs(),
        }),
        // A part's name is only compared with `file`; whatever else it holds (control
        // characters that form encoders pass through) never goes further.
        Ok(next) => next.map_err(|e| multipart_error(e, limit)),
    }
}

/// The bytes of one part, each chunk awaited at most `idle` (a trickling client is cut off;
/// a large file that keeps arriving is not).
pub(crate) fn part_bytes(
    part: multer::Field<'static>,
    idle: std::time::Duration,
    limit: u64,
) -> impl futures_util::Stream<Item = Result<Bytes>> + Unpin + Send {
    use futures_util::StreamExt;
    futures_util::stream::unfold(Some(part), move |part| async move {
        let mut part = part?;
        match tokio::time::timeout(idle, part.chunk()).await {
            Err(_) => Some((
                Err(Error::RequestTimeout {
                    secs: idle.as_secs(),
                }),
                None,
            )),
            Ok(Ok(Some(chunk))) => Some((Ok(chunk), Some(part))),
            Ok(Ok(None)) => None,
            Ok(Err(err)) => Some((Err(multipart_error(err, limit)), None)),
        }
    })
    .boxed()
}
