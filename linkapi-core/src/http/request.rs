//! Decoding requests: the API key, the client's address, bodies under a size limit, JSON and
//! query strings.

use bytes::{Bytes, BytesMut};
use http::request::Parts;
use http::{HeaderMap, Method, header};
use http_body_util::BodyExt;
use hyper::body::Incoming;
use serde::de::DeserializeOwned;

use std::net::IpAddr;

use ipnet::IpNet;

use crate::error::{Error, Result};
use crate::service::ClientAddressHeader;

/// The key a request presents: `Authorization: Bearer`, `X-API-Key`, or (where the route
/// allows it) `?apikey=`. Every credential given must be usable and name the same key: a
/// malformed or empty one, or two different keys, present none (401), so a bad credential is
/// never passed over in favour of another.
pub(crate) fn api_key(parts: &Parts, allow_query: bool) -> Option<String> {
    let mut presented: Vec<String> = Vec::new();
    for value in parts.headers.get_all(header::AUTHORIZATION) {
        let token = value
            .to_str()
            .ok()
            .and_then(|v| v.split_once(' '))
            .filter(|(scheme, _)| scheme.eq_ignore_ascii_case("bearer"))
            .map(|(_, token)| token.trim())
            .filter(|token| !token.is_empty())?;
        presented.push(token.to_owned());
    }
    for value in parts.headers.get_all("x-api-key") {
        let key = value
            .to_str()
            .ok()
            .map(str::trim)
            .filter(|key| !key.is_empty())?;
        presented.push(key.to_owned());
    }
    if allow_query && let Some(query) = parts.uri.query() {
        for (name, value) in url::form_urlencoded::parse(query.as_bytes()) {
            if name == "apikey" {
                if value.is_empty() {
                    return None;
                }
                presented.push(value.into_owned());
            }
        }
    }
    let (first, rest) = presented.split_first()?;
    rest.iter().all(|key| key == first).then(|| first.clone())
}

/// The client's address: the peer's, unless the peer is a trusted proxy, in which case the
/// address the proxies name in `header`. The list is read right to left, skipping trusted
/// proxies: the first address not trusted is the client, since only what trusted proxies
/// appended can be believed. Anything unreadable stops the walk at the last address known.
pub(crate) fn client_address(
    parts: &Parts,
    peer: IpAddr,
    trusted: &[IpNet],
    header: ClientAddressHeader,
) -> IpAddr {
    let is_trusted = |ip: &IpAddr| {
        let ip = ip.to_canonical();
        trusted.iter().any(|net| net.contains(&ip))
    };
    if !is_trusted(&peer) {
        return peer;
    }
    let (name, parse): (_, fn(&str) -> Option<IpAddr>) = match header {
        ClientAddressHeader::XForwardedFor => ("x-forwarded-for", parse_hop),
        ClientAddressHeader::Forwarded => ("forwarded", parse_forwarded_element),
    };
    // Every line of the header, in order, as one list.
    let hops: Vec<&str> = parts
        .headers
        .get_all(name)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .collect();
    let mut client = peer;
    for hop in hops.iter().rev() {
        let Some(ip) = parse(hop) else { break };
        client = ip;
        if !is_trusted(&ip) {
            break;
        }
    }
    client
}

/// One `X-Forwarded-For` entry: an address, perhaps with a port or in brackets.
fn parse_hop(hop: &str) -> Option<IpAddr> {
    let hop = hop.trim().trim_matches('"');
    if let Ok(ip) = hop.parse() {
        return Some(ip);
    }
    if let Ok(socket) = hop.parse::<std::net::SocketAddr>() {
        return Some(socket.ip());
    }
    hop.strip_prefix('[')?.split(']').next()?.parse().ok()
}

/// The `for=` address of one `Forwarded` element (RFC 7239); `None` for obfuscated or
/// `unknown` nodes.
fn parse_forwarded_element(element: &str) -> Option<IpAddr> {
    element.split(';').find_map(|pair| {
        let (key, value) = pair.split_once('=')?;
        key.trim()
            .eq_ignore_ascii_case("for")
            .then(|| parse_hop(value))
            .flatten()
    })
}

/// The most bytes of an oversized body read and thrown away before answering 413. Many
/// clients (Python's `http.client`, curl without `Expect`) write the whole body before reading
/// the answer; closing on them mid-body makes them see a broken pipe instead of the 413.
const DRAIN_LIMIT: u64 = 64 << 20;

/// Reads the whole body within `timeout`, refusing more than `limit` bytes with 413 and a body
/// that trickles in too slowly with 408 (hyper's header timeout does not cover bodies).
pub(crate) async fn body_bytes(
    headers: &HeaderMap,
    mut body: Incoming,
    limit: usize,
    timeout: std::time::Duration,
) -> Result<Bytes> {
    let declared = headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    let too_large = Error::PayloadTooLarge { limit };
    if declared.is_some_and(|len| len > limit as u64) {
        if declared.is_some_and(|len| len <= DRAIN_LIMIT) {
            let _ = tokio::time::timeout(timeout, drain(&mut body, DRAIN_LIMIT)).await;
        }
        return Err(too_large);
    }
    let read = tokio::time::timeout(timeout, async {
        let mut collected = BytesMut::new();
        while let Some(frame) = body.frame().await {
            let frame = frame.map_err(|err| {
                Error::bad_request(
                    "bad_body",
                    format!("could not read the request body: {err}"),
                )
            })?;
            let Ok(data) = frame.into_data() else {
                continue;
            };
            if collected.len() + data.len() > limit {
                return Ok(None);
            }
            collected.extend_from_slice(&data);
        }
        Ok::<_, Error>(Some(collected.freeze()))
    })
    .await
    .map_err(|_| Error::RequestTimeout {
        secs: timeout.as_secs(),
    })?;
    match read? {
        Some(bytes) => Ok(bytes),
        None => {
            let _ = tokio::time::timeout(timeout, drain(&mut body, DRAIN_LIMIT)).await;
            Err(too_large)
        }
    }
}

/// Reads and discards what is left of `body`, at most `bound` bytes.
async fn drain(body: &mut Incoming, bound: u64) {
    let mut seen = 0u64;
    while seen <= bound {
        match body.frame().await {
            Some(Ok(frame)) => {
                seen += frame.data_ref().map_or(0, |d| d.len() as u64);
            }
            Some(Err(_)) | None => return,
        }
    }
}

fn is_json(headers: &HeaderMap) -> bool {
    headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|mime| {
            let mime = mime.trim();
            mime.eq_ignore_ascii_case("application/json")
                || (mime.len() > 5 && mime[mime.len() - 5..].eq_ignore_ascii_case("+json"))
        })
}

/// Decodes a JSON body. An empty body with no content type is `{}`, so actions whose fields are
/// all optional can be called without one; any other body must be `application/json` (415).
pub(crate) fn json<T: DeserializeOwned>(headers: &HeaderMap, body: &[u8]) -> Result<T> {
    let has_type = headers.contains_key(header::CONTENT_TYPE);
    if body.is_empty() && !has_type {
        return decode_json(b"{}");
    }
    if !is_json(headers) {
        return Err(Error::UnsupportedMediaType {
            expected: "application/json",
        });
    }
    decode_json(body)
}

fn decode_json<T: DeserializeOwned>(body: &[u8]) -> Result<T> {
    // Every operation's input is an object; serde would also take a struct from an array of
    // its fields in order, which no client means.
    let first = body.iter().find(|b| !b.is_ascii_whitespace());
    if first.is_some_and(|b| *b != b'{')
        && serde_json::from_slice::<serde::de::IgnoredAny>(body).is_ok()
    {
        return Err(Error::bad_request(
            "invalid_field",
            "request body must be a JSON object",
        ));
    }
    serde_json::from_slice(body)
        .or_else(|e| {
            // JSON has one number type and JSON Schema counts `3.0` as an integer; serde does not.
            // Only a body that failed is read again with such numbers made integers, so the
            // usual path costs nothing and keeps serde's line and column in its messages.
            if e.is_data()
                && let Ok(mut value) = serde_json::from_slice::<serde_json::Value>(body)
                && integral_floats_to_integers(&mut value)
                && let Ok(decoded) = serde_json::from_value(value)
            {
                return Ok(decoded);
            }
            Err(e)
        })
        .map_err(|e| {
            let code = if e.is_data() {
                "invalid_field"
            } else {
                "invalid_json"
            };
            Error::bad_request(code, format!("request body: {}", plain(&e.to_string())))
        })
}

/// Turns every number with an integral value written as a float (`3.0`, `-1e2`) into an
/// integer; whether anything changed.
fn integral_floats_to_integers(value: &mut serde_json::Value) -> bool {
    use serde_json::Value;
    match value {
        Value::Number(n) if n.is_f64() => {
            // Every integral f64 below 2^53 converts exactly.
            match n.as_f64() {
                Some(f) if f.fract() == 0.0 && f.abs() <= 9_007_199_254_740_992.0 => {
                    *value = Value::from(f as i64);
                    true
                }
                _ => false,
            }
        }
        Value::Array(items) => items.iter_mut().fold(false, |changed, item| {
            integral_floats_to_integers(item) | changed
        }),
        Value::Object(fields) => fields.values_mut().fold(false, |changed, item| {
            integral_floats_to_integers(item) | changed
        }),
        _ => false,
    }
}

/// A decoder's message in the client's terms: what a value must be, not the Rust type the
/// server reads it into (`expected struct CreateChain with 6 elements`, `expected i64`).
fn plain(message: &str) -> String {
    let mut out = String::with_capacity(message.len());
    let mut rest = message;
    while let Some(at) = rest.find("expected ") {
        let (before, after) = rest.split_at(at + "expected ".len());
        out.push_str(before);
        rest = after;
        let word_end = |text: &str| {
            text.find(|c: char| !(c.is_alphanumeric() || c == '_'))
                .unwrap_or(text.len())
        };
        if let Some(name) = rest.strip_prefix("struct ") {
            // `struct Name`, and serde's ` with N element(s)` when an array was sent.
            let mut tail = &name[word_end(name)..];
            if let Some(count) = tail.strip_prefix(" with ") {
                let digits = count
                    .find(|c: char| !c.is_ascii_digit())
                    .unwrap_or(count.len());
                tail = count[digits..]
                    .strip_prefix(" elements")
                    .or_else(|| count[digits..].strip_prefix(" element"))
                    .unwrap_or(tail);
            }
            out.push_str("a JSON object");
            rest = tail;
            continue;
        }
        let word = &rest[..word_end(rest)];
        let plain = match word {
            "i8" | "i16" | "i32" | "i64" | "u8" | "u16" | "u32" | "u64" | "usize" | "isize" => {
                Some("an integer")
            }
            "f32" | "f64" => Some("a number"),
            _ => None,
        };
        if let Some(plain) = plain {
            out.push_str(plain);
            rest = &rest[word.len()..];
        }
    }
    out.push_str(rest);
    out
}

/// Decodes the query string (absent is empty).
pub(crate) fn query<T: DeserializeOwned + schemars::JsonSchema>(parts: &Parts) -> Result<T> {
    let text = parts.uri.query().unwrap_or_default();
    serde_urlencoded::from_str(text)
        .or_else(|e| {
            // As in bodies, JSON Schema counts `2.0` an integer; a query that failed is read
            // again with such values of integer fields (and only those) written as integers.
            integral_query::<T>(text)
                .and_then(|rewritten| serde_urlencoded::from_str(&rewritten).ok())
                .ok_or(e)
        })
        .map_err(|e| {
            Error::bad_request(
                "invalid_query",
                format!("query string: {}", plain(&e.to_string())),
            )
        })
}

/// `query` with every integral decimal (`2.0`, `-1.00`) given for an integer field of `T`
/// written as an integer; `None` when there is none.
fn integral_query<T: schemars::JsonSchema>(query: &str) -> Option<String> {
    let schema = schemars::SchemaGenerator::default().into_root_schema_for::<T>();
    let fields = schema.get("properties")?.as_object()?;
    let defs = schema.get("$defs");
    let is_integer = |name: &str| fields.get(name).is_some_and(|f| admits_integer(f, defs, 0));
    let integral = |value: &str| {
        let (whole, fraction) = value.split_once('.')?;
        let digits = whole.strip_prefix('-').unwrap_or(whole);
        let is_integral = !digits.is_empty()
            && digits.bytes().all(|b| b.is_ascii_digit())
            && !fraction.is_empty()
            && fraction.bytes().all(|b| b == b'0');
        is_integral.then(|| whole.to_owned())
    };
    let mut changed = false;
    let mut out = url::form_urlencoded::Serializer::new(String::new());
    for (name, value) in url::form_urlencoded::parse(query.as_bytes()) {
        match integral(&value).filter(|_| is_integer(&name)) {
            Some(whole) => {
                changed = true;
                out.append_pair(&name, &whole);
            }
            None => {
                out.append_pair(&name, &value);
            }
        }
    }
    changed.then(|| out.finish())
}

/// Whether `schema` lets an integer stand, directly or through `anyOf`/`oneOf`, a `$ref`
/// into `defs`, or (for a repeated query key) array items; `depth` stops reference cycles.
fn admits_integer(schema: &serde_json::Value, defs: Option<&serde_json::Value>, depth: u8) -> bool {
    if depth > 8 {
        return false;
    }
    let typed = schema.get("type").is_some_and(|t| {
        t == "integer"
            || t.as_array()
                .is_some_and(|ts| ts.iter().any(|t| t == "integer"))
    });
    let referenced = schema
        .get("$ref")
        .and_then(|r| r.as_str())
        .and_then(|r| r.strip_prefix("#/$defs/"))
        .and_then(|name| defs?.get(name))
        .is_some_and(|def| admits_integer(def, defs, depth + 1));
    let alternatives = ["anyOf", "oneOf"].iter().any(|key| {
        schema
            .get(*key)
            .and_then(|v| v.as_array())
            .is_some_and(|alts| alts.iter().any(|alt| admits_integer(alt, defs, depth + 1)))
    });
    let items = schema
        .get("items")
        .is_some_and(|item| admits_integer(item, defs, depth + 1));
    typed || referenced || alternatives || items
}

/// Decodes a compatibility action's input: the query on GET, the JSON body otherwise. The key
/// parameter `apikey` is not an input field and is dropped. Query values are strings (the
/// lenient types read digits), and a key given more than once is a list (`domain=1&domain=2`).
pub(crate) fn compat_input<T: DeserializeOwned + schemars::JsonSchema>(
    parts: &Parts,
    body: &[u8],
) -> Result<T> {
    if parts.method == Method::GET || parts.method == Method::HEAD {
        let query = parts.uri.query().unwrap_or_default();
        let decode = |query: &str| {
            let mut fields = serde_json::Map::new();
            for (key, value) in url::form_urlencoded::parse(query.as_bytes()) {
                if key == "apikey" {
                    continue;
                }
                let value = serde_json::Value::String(value.into_owned());
                match fields.get_mut(key.as_ref()) {
                    Some(serde_json::Value::Array(values)) => values.push(value),
                    Some(first) => *first = serde_json::Value::Array(vec![first.take(), value]),
                    None => {
                        fields.insert(key.into_owned(), value);
                    }
                }
            }
            serde_json::from_value::<T>(serde_json::Value::Object(fields))
        };
        decode(query)
            .or_else(|e| {
                // As in [`query`]: `2.0` for an integer field is that integer.
                integral_query::<T>(query)
                    .and_then(|rewritten| decode(&rewritten).ok())
                    .ok_or(e)
            })
            .map_err(|e| {
                Error::bad_request(
                    "invalid_query",
                    format!("query string: {}", plain(&e.to_string())),
                )
            })
    } else {
        json(&parts.headers, body)
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
            "bad_multipart",
            "the multipart boundary must be 1 to 70 letters, digits, spaces or '()+_,-./:=? \
             (RFC 2046), not ending in a space",
        ));
    }
    let declared = headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    if declared.is_some_and(|len| len > limit) {
        return Err(Error::PayloadTooLarge {
            limit: usize::try_from(limit).unwrap_or(usize::MAX),
        });
    }
    let body = body.ok_or_else(|| Error::bad_request("bad_body", "the request has no body"))?;
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
        other => Error::bad_request(
            "bad_multipart",
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

/// Parses an id path segment.
pub(crate) fn path_id(param: Option<&str>, what: &'static str) -> Result<i64> {
    param
        .and_then(|p| p.parse::<i64>().ok())
        .filter(|id| *id > 0)
        .ok_or(Error::NotFound(what))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decoder_messages_name_json_shapes_not_rust_types() {
        for (raw, plain_text) in [
            (
                "invalid length 1, expected struct CreateChain with 6 elements at line 1",
                "invalid length 1, expected a JSON object at line 1",
            ),
            (
                "invalid type: string \"x\", expected struct ChannelInput",
                "invalid type: string \"x\", expected a JSON object",
            ),
            (
                "invalid type: string \"x\", expected i64 at line 1 column 9",
                "invalid type: string \"x\", expected an integer at line 1 column 9",
            ),
            ("missing field `target_url`", "missing field `target_url`"),
        ] {
            assert_eq!(plain(raw), plain_text);
        }
    }

    fn parts(headers: &[(&str, &str)]) -> Parts {
        parts_at("/x", headers)
    }

    fn parts_at(uri: &str, headers: &[(&str, &str)]) -> Parts {
        let mut request = http::Request::builder().uri(uri);
        for (name, value) in headers {
            request = request.header(*name, *value);
        }
        request.body(()).expect("request").into_parts().0
    }

    fn ip(text: &str) -> IpAddr {
        text.parse().expect("address")
    }

    #[test]
    fn a_bad_or_second_different_credential_is_never_passed_over() {
        let with_query =
            |uri: &str, headers: &[(&str, &str)]| api_key(&parts_at(uri, headers), true);
        let key = Some("lk_a".to_owned());
        assert_eq!(with_query("/x", &[("authorization", "Bearer lk_a")]), key);
        assert_eq!(with_query("/x?apikey=lk_a", &[]), key);
        // The same key twice is one key.
        assert_eq!(
            with_query(
                "/x?apikey=lk_a",
                &[("authorization", "Bearer lk_a"), ("x-api-key", "lk_a")]
            ),
            key
        );
        // A malformed, empty or different credential beside a good one presents none.
        for (uri, headers) in [
            ("/x?apikey=lk_a", &[("authorization", "Basic abc")][..]),
            ("/x?apikey=lk_a", &[("authorization", "Bearer ")][..]),
            ("/x?apikey=lk_a", &[("x-api-key", " ")][..]),
            ("/x?apikey=", &[("authorization", "Bearer lk_a")][..]),
            ("/x?apikey=lk_b", &[("authorization", "Bearer lk_a")][..]),
            (
                "/x",
                &[("authorization", "Bearer lk_a"), ("x-api-key", "lk_b")][..],
            ),
        ] {
            assert_eq!(with_query(uri, headers), None, "{uri} {headers:?}");
        }
    }

    #[test]
    fn forwarded_addresses_count_only_from_trusted_proxies() {
        let trusted: Vec<IpNet> = vec!["10.0.0.0/8".parse().expect("net")];
        let xff = ClientAddressHeader::XForwardedFor;
        let spoofed = parts(&[("x-forwarded-for", "1.2.3.4")]);
        // An untrusted peer: its header is ignored.
        assert_eq!(
            client_address(&spoofed, ip("198.51.100.9"), &trusted, xff),
            ip("198.51.100.9")
        );
        // A trusted proxy: the address it appended.
        assert_eq!(
            client_address(&spoofed, ip("10.0.0.2"), &trusted, xff),
            ip("1.2.3.4")
        );
        // A client forging a first hop through a trusted proxy: the proxy's entry wins.
        let forged = parts(&[("x-forwarded-for", "6.6.6.6, 203.0.113.5, 10.0.0.3")]);
        assert_eq!(
            client_address(&forged, ip("10.0.0.2"), &trusted, xff),
            ip("203.0.113.5")
        );
        // Several header lines read as one list; mapped IPv4 peers are recognised.
        let lines = parts(&[
            ("x-forwarded-for", "203.0.113.5"),
            ("x-forwarded-for", "10.1.1.1"),
        ]);
        assert_eq!(
            client_address(&lines, ip("::ffff:10.0.0.2"), &trusted, xff),
            ip("203.0.113.5")
        );
        // Garbage stops the walk at the last address known.
        let junk = parts(&[("x-forwarded-for", "203.0.113.5, nonsense")]);
        assert_eq!(
            client_address(&junk, ip("10.0.0.2"), &trusted, xff),
            ip("10.0.0.2")
        );
        // No header: the proxy itself.
        assert_eq!(
            client_address(&parts(&[]), ip("10.0.0.2"), &trusted, xff),
            ip("10.0.0.2")
        );
    }

    #[test]
    fn the_forwarded_header_is_read_when_configured() {
        let trusted: Vec<IpNet> = vec!["10.0.0.0/8".parse().expect("net")];
        let request = parts(&[
            (
                "forwarded",
                "for=6.6.6.6, for=\"[2001:db8::17]:4711\";proto=https",
            ),
            ("x-forwarded-for", "1.2.3.4"),
        ]);
        let fwd = ClientAddressHeader::Forwarded;
        assert_eq!(
            client_address(&request, ip("10.0.0.2"), &trusted, fwd),
            ip("2001:db8::17")
        );
        let unknown = parts(&[("forwarded", "for=unknown")]);
        assert_eq!(
            client_address(&unknown, ip("10.0.0.2"), &trusted, fwd),
            ip("10.0.0.2")
        );
    }
}
