//! Decoding requests: the API key and the client's address here; bodies as they arrive (their
//! pace, their share of the budget, what is left of them after an early answer) in `body`;
//! JSON, query strings and compatibility inputs in `decode`; multipart streams in `multipart`.

mod body;
mod decode;
mod multipart;

pub(crate) use body::{Metered, Pace, body_bytes};

pub(crate) use decode::{
    OFF_THREAD_BYTES, compat_input, json, large_json, off_thread, query, unreserved_decoded,
};
#[cfg(any(test, feature = "fuzzing"))]
pub(crate) use multipart::multipart;
pub(crate) use multipart::{multipart_request, next_part, part_bytes};

use std::net::IpAddr;

use http::request::Parts;
use http::{HeaderMap, HeaderName, header};
use ipnet::IpNet;

use crate::error::{Error, Result, names};
use crate::service::{ClientAddressHeader, IdempotencyKey};
use sha2::{Digest, Sha256};

/// The host a request was sent to: its `Host` header (`host`) on HTTP/1.1, the authority of
/// `uri` on HTTP/2.
pub(crate) fn request_host<'a>(
    host: Option<&'a http::HeaderValue>,
    uri: &'a http::Uri,
) -> Option<&'a str> {
    host.and_then(|h| h.to_str().ok())
        .or_else(|| uri.authority().map(|a| a.as_str()))
}

/// The header that makes a create safe to send again.
pub(crate) const IDEMPOTENCY_KEY: &str = "idempotency-key";

/// The `Idempotency-Key` a request to `operation` sent, if any, with the fingerprint of what
/// it asks: the operation, its path parameter and its body. A JSON body counts as the
/// document it is (key order and spacing do not make a different request); any other body
/// counts byte for byte.
///
/// # Errors
/// 400 `invalid_idempotency_key` for a malformed key or more than one.
pub(crate) fn idempotency_key(
    headers: &HeaderMap,
    operation: &str,
    param: Option<&str>,
    body: &[u8],
) -> Result<Option<IdempotencyKey>> {
    let mut values = headers.get_all(IDEMPOTENCY_KEY).iter();
    let Some(key) = values.next() else {
        return Ok(None);
    };
    if values.next().is_some() {
        return Err(Error::bad_request(
            names::INVALID_IDEMPOTENCY_KEY,
            "give one Idempotency-Key, not several",
        ));
    }
    let mut digest = Sha256::new();
    for part in [operation.as_bytes(), param.unwrap_or_default().as_bytes()] {
        digest.update((part.len() as u64).to_be_bytes());
        digest.update(part);
    }
    match serde_json::from_slice::<serde_json::Value>(body) {
        // Without `preserve_order`, a document's objects are sorted maps: serialized again,
        // equal documents are equal bytes. Written straight into the digest: a bulk create's
        // copy would be another 30 MB.
        Ok(document) => {
            let _ = serde_json::to_writer(DigestWriter(&mut digest), &document);
        }
        Err(_) => digest.update(body),
    }
    IdempotencyKey::new(key.as_bytes(), digest.finalize().into()).map(Some)
}

/// Bytes written into a digest.
struct DigestWriter<'a>(&'a mut Sha256);

impl std::io::Write for DigestWriter<'_> {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0.update(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// What a request presents as its key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Credential {
    /// Nothing where the route looks for a key.
    Missing,
    /// One key (perhaps given in several places, always the same).
    Key(String),
    /// A malformed or empty credential, or two different keys: none is taken (401).
    Unusable,
    /// An `Authorization` header of another scheme than `Bearer`, or a bare key (401, saying
    /// so).
    NotBearer,
}

/// The key a request presents: `Authorization: Bearer`, `X-API-Key`, or (where the route
/// allows it) `?apikey=`. Every credential given must be usable and name the same key: a
/// malformed or empty one, or two different keys, present none (401), so a bad credential is
/// never passed over in favour of another.
pub(crate) fn credential(parts: &Parts, allow_query: bool) -> Credential {
    let mut presented: Vec<String> = Vec::new();
    for value in parts.headers.get_all(header::AUTHORIZATION) {
        let Ok(value) = value.to_str() else {
            return Credential::Unusable;
        };
        let Some((scheme, token)) = value.trim().split_once(' ') else {
            return Credential::NotBearer;
        };
        if !scheme.eq_ignore_ascii_case("bearer") {
            return Credential::NotBearer;
        }
        let token = token.trim();
        if token.is_empty() {
            return Credential::Unusable;
        }
        presented.push(token.to_owned());
    }
    for value in parts.headers.get_all("x-api-key") {
        let Some(key) = value
            .to_str()
            .ok()
            .map(str::trim)
            .filter(|key| !key.is_empty())
        else {
            return Credential::Unusable;
        };
        presented.push(key.to_owned());
    }
    if allow_query && let Some(query) = parts.uri.query() {
        for (name, value) in url::form_urlencoded::parse(query.as_bytes()) {
            if name == "apikey" {
                if value.is_empty() {
                    return Credential::Unusable;
                }
                presented.push(value.into_owned());
            }
        }
    }
    match presented.split_first() {
        None => Credential::Missing,
        Some((first, rest)) if rest.iter().all(|key| key == first) => {
            Credential::Key(first.clone())
        }
        Some(_) => Credential::Unusable,
    }
}

/// The key a compatibility request's JSON body carries as `apikey` (contract section 5: one
/// of the vendor's clients sends it nowhere else). A body that is no JSON object, or has no
/// `apikey` (or `null`), carries none; an empty or non-string one is unusable.
pub(crate) fn body_credential(body: &[u8]) -> Credential {
    #[derive(serde::Deserialize)]
    struct WithKey {
        #[serde(default)]
        apikey: Option<serde_json::Value>,
    }
    // Only an object: serde would also read the struct from an array of its fields.
    if body.iter().find(|b| !b.is_ascii_whitespace()) != Some(&b'{') {
        return Credential::Missing;
    }
    match serde_json::from_slice::<WithKey>(body).map(|b| b.apikey) {
        Ok(Some(serde_json::Value::String(key))) if !key.trim().is_empty() => {
            Credential::Key(key.trim().to_owned())
        }
        Ok(None | Some(serde_json::Value::Null)) | Err(_) => Credential::Missing,
        Ok(Some(_)) => Credential::Unusable,
    }
}

/// The client's address: the peer's, unless the peer is a trusted proxy, in which case the
/// address the proxies name in `header`. The list is read right to left, skipping trusted
/// proxies: the first address not trusted is the client, since only what trusted proxies
/// appended can be believed. Anything unreadable stops the walk at the last address known.
pub(crate) fn client_address(
    headers: &HeaderMap,
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
    static X_FORWARDED_FOR: HeaderName = HeaderName::from_static("x-forwarded-for");
    let (name, parse): (_, fn(&str) -> Option<IpAddr>) = match header {
        ClientAddressHeader::XForwardedFor => (&X_FORWARDED_FOR, parse_hop),
        ClientAddressHeader::Forwarded => (&http::header::FORWARDED, parse_forwarded_element),
    };
    // Every line of the header as one list, read from its end.
    let hops = headers
        .get_all(name)
        .iter()
        .rev()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.rsplit(','));
    let mut client = peer;
    for hop in hops {
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
            |uri: &str, headers: &[(&str, &str)]| match credential(&parts_at(uri, headers), true) {
                Credential::Key(key) => Some(key),
                Credential::Missing | Credential::Unusable | Credential::NotBearer => None,
            };
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
        // A bare key or another scheme in Authorization is told apart, to say what is wrong.
        for value in ["lk_a", "Basic abc", "Token lk_a"] {
            let parts = parts_at("/x", &[("authorization", value)]);
            assert_eq!(credential(&parts, true), Credential::NotBearer, "{value}");
        }
    }

    #[test]
    fn a_body_carries_its_key_as_apikey_or_none() {
        let key = Credential::Key("lk_a".to_owned());
        assert_eq!(body_credential(br#"{"apikey": "lk_a", "name": "x"}"#), key);
        assert_eq!(body_credential(br#"{"apikey": " lk_a "}"#), key);
        for none in [
            &br#"{"name": "x"}"#[..],
            br#"{"apikey": null}"#,
            b"",
            b"[1]",
            b"{",
        ] {
            assert_eq!(body_credential(none), Credential::Missing);
        }
        for bad in [
            &br#"{"apikey": ""}"#[..],
            br#"{"apikey": 7}"#,
            br#"{"apikey": ["lk_a"]}"#,
        ] {
            assert_eq!(body_credential(bad), Credential::Unusable);
        }
        assert_eq!(credential(&parts(&[]), true), Credential::Missing);
        assert_eq!(
            credential(&parts(&[("x-api-key", "")]), true),
            Credential::Unusable
        );
    }

    #[test]
    fn forwarded_addresses_count_only_from_trusted_proxies() {
        let trusted: Vec<IpNet> = vec!["10.0.0.0/8".parse().expect("net")];
        let xff = ClientAddressHeader::XForwardedFor;
        let spoofed = parts(&[("x-forwarded-for", "1.2.3.4")]);
        // An untrusted peer: its header is ignored.
        assert_eq!(
            client_address(&spoofed.headers, ip("198.51.100.9"), &trusted, xff),
            ip("198.51.100.9")
        );
        // A trusted proxy: the address it appended.
        assert_eq!(
            client_address(&spoofed.headers, ip("10.0.0.2"), &trusted, xff),
            ip("1.2.3.4")
        );
        // A client forging a first hop through a trusted proxy: the proxy's entry wins.
        let forged = parts(&[("x-forwarded-for", "6.6.6.6, 203.0.113.5, 10.0.0.3")]);
        assert_eq!(
            client_address(&forged.headers, ip("10.0.0.2"), &trusted, xff),
            ip("203.0.113.5")
        );
        // Several header lines read as one list; mapped IPv4 peers are recognised.
        let lines = parts(&[
            ("x-forwarded-for", "203.0.113.5"),
            ("x-forwarded-for", "10.1.1.1"),
        ]);
        assert_eq!(
            client_address(&lines.headers, ip("::ffff:10.0.0.2"), &trusted, xff),
            ip("203.0.113.5")
        );
        // Garbage stops the walk at the last address known.
        let junk = parts(&[("x-forwarded-for", "203.0.113.5, nonsense")]);
        assert_eq!(
            client_address(&junk.headers, ip("10.0.0.2"), &trusted, xff),
            ip("10.0.0.2")
        );
        // No header: the proxy itself.
        assert_eq!(
            client_address(&parts(&[]).headers, ip("10.0.0.2"), &trusted, xff),
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
            client_address(&request.headers, ip("10.0.0.2"), &trusted, fwd),
            ip("2001:db8::17")
        );
        let unknown = parts(&[("forwarded", "for=unknown")]);
        assert_eq!(
            client_address(&unknown.headers, ip("10.0.0.2"), &trusted, fwd),
            ip("10.0.0.2")
        );
    }
}
