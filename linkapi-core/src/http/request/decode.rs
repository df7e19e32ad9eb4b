//! JSON bodies, query strings and the compatibility surface's inputs, decoded into wire
//! types with messages that name JSON shapes, not Rust types.

use http::request::Parts;
use http::{HeaderMap, Method, header};
use serde::de::DeserializeOwned;

use crate::error::{Error, Result, names};

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

/// Bodies at least this large are decoded off the serving threads.
pub(crate) const OFF_THREAD_BYTES: usize = 256 << 10;

/// [`json`] of a body that may be large, decoded on the blocking pool when it is: a bulk
/// create's megabytes take a serving thread tens of milliseconds, which every request queued
/// behind it on that thread would wait.
pub(crate) async fn large_json<T: DeserializeOwned + Send + 'static>(
    headers: &HeaderMap,
    body: bytes::Bytes,
) -> Result<T> {
    if body.len() < OFF_THREAD_BYTES {
        return json(headers, &body);
    }
    let headers = headers.clone();
    off_thread(move || json(&headers, &body)).await
}

/// Runs `work` on the blocking pool.
pub(crate) async fn off_thread<T: Send + 'static>(
    work: impl FnOnce() -> Result<T> + Send + 'static,
) -> Result<T> {
    tokio::task::spawn_blocking(work)
        .await
        .map_err(|err| Error::Internal(Box::new(err)))?
}

fn decode_json<T: DeserializeOwned>(body: &[u8]) -> Result<T> {
    // Every operation's input is an object; serde would also take a struct from an array of
    // its fields in order, which no client means.
    let first = body.iter().find(|b| !b.is_ascii_whitespace());
    if first.is_some_and(|b| *b != b'{')
        && serde_json::from_slice::<serde::de::IgnoredAny>(body).is_ok()
    {
        return Err(Error::bad_request(
            names::INVALID_FIELD,
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
                names::INVALID_FIELD
            } else {
                names::INVALID_JSON
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

/// Refuses a query string that does not decode (400 `invalid_query`): a `%` not followed by
/// two hexadecimal digits, or a name or value whose decoded bytes are not UTF-8. *Why here:*
/// the form decoder is lenient, reading `%ff` as U+FFFD and `%zz` as written, so a search
/// for either would run for a text the client never sent.
fn check_query(query: &str) -> Result<()> {
    if !query.contains('%') {
        return Ok(()); // a URI is ASCII, and without escapes it decodes as it stands
    }
    let undecodable = |field: &str| {
        let shown: String = field.chars().take(64).collect();
        Error::bad_request(
            names::INVALID_QUERY,
            format!("query string: `{shown}` is not percent-encoded UTF-8"),
        )
    };
    for field in query.split(['&', '=']) {
        let mut decoded = Vec::with_capacity(field.len());
        let mut rest = field.as_bytes();
        while let Some((&byte, tail)) = rest.split_first() {
            if byte != b'%' {
                decoded.push(byte);
                rest = tail;
                continue;
            }
            let escape = tail
                .get(..2)
                .filter(|hex| hex.iter().all(u8::is_ascii_hexdigit))
                .and_then(|hex| std::str::from_utf8(hex).ok())
                .and_then(|hex| u8::from_str_radix(hex, 16).ok());
            let (Some(escaped), Some(after)) = (escape, tail.get(2..)) else {
                return Err(undecodable(field));
            };
            decoded.push(escaped);
            rest = after;
        }
        if std::str::from_utf8(&decoded).is_err() {
            return Err(undecodable(field));
        }
    }
    Ok(())
}

/// Decodes the query string (absent is empty).
pub(crate) fn query<T: DeserializeOwned + schemars::JsonSchema>(parts: &Parts) -> Result<T> {
    let text = parts.uri.query().unwrap_or_default();
    check_query(text)?;
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
                names::INVALID_QUERY,
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
        check_query(query)?;
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
                    names::INVALID_QUERY,
                    format!("query string: {}", plain(&e.to_string())),
                )
            })
    } else {
        let input = json(&parts.headers, body)?;
        // The compatibility surface's types pass over fields they do not know, unread: what
        // they hold must still be JSON, as on the primary surface, which refuses them.
        if !body.is_empty() {
            decode_json::<Whole>(body)?;
        }
        Ok(input)
    }
}

/// A JSON document read to its end: every string decoded (UTF-8, escapes, surrogate pairs) and
/// every array and object entered, to the depth the decoder allows, where a field no type reads
/// would be skipped over unchecked.
struct Whole;

impl<'de> serde::Deserialize<'de> for Whole {
    fn deserialize<D: serde::Deserializer<'de>>(decoder: D) -> Result<Self, D::Error> {
        decoder.deserialize_any(WholeVisitor)
    }
}

struct WholeVisitor;

impl<'de> serde::de::Visitor<'de> for WholeVisitor {
    type Value = Whole;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_bool<E>(self, _: bool) -> Result<Whole, E> {
        Ok(Whole)
    }
    fn visit_i64<E>(self, _: i64) -> Result<Whole, E> {
        Ok(Whole)
    }
    fn visit_u64<E>(self, _: u64) -> Result<Whole, E> {
        Ok(Whole)
    }
    fn visit_f64<E>(self, _: f64) -> Result<Whole, E> {
        Ok(Whole)
    }
    fn visit_str<E>(self, _: &str) -> Result<Whole, E> {
        Ok(Whole)
    }
    fn visit_unit<E>(self) -> Result<Whole, E> {
        Ok(Whole)
    }
    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut items: A) -> Result<Whole, A::Error> {
        while items.next_element::<Whole>()?.is_some() {}
        Ok(Whole)
    }
    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut fields: A) -> Result<Whole, A::Error> {
        while fields.next_entry::<Whole, Whole>()?.is_some() {}
        Ok(Whole)
    }
}

/// A path segment with its percent-encoded unreserved characters decoded (`%41` is `A`,
/// RFC 3986 section 6.2.2.2: the same path), and every other escape left as it is, so `%2F`
/// never becomes a slash. Borrowed when there is nothing to decode.
pub(crate) fn unreserved_decoded(segment: &str) -> std::borrow::Cow<'_, str> {
    if !segment.contains('%') {
        return std::borrow::Cow::Borrowed(segment);
    }
    let hex = |b: u8| char::from(b).to_digit(16);
    let bytes = segment.as_bytes();
    let mut out = String::with_capacity(segment.len());
    let mut at = 0;
    while at < bytes.len() {
        if bytes[at] == b'%'
            && let (Some(high), Some(low)) = (
                bytes.get(at + 1).copied().and_then(hex),
                bytes.get(at + 2).copied().and_then(hex),
            )
            && let Ok(byte) = u8::try_from(high * 16 + low)
            && (byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'.' | b'_' | b'~'))
        {
            out.push(char::from(byte));
            at += 3;
            continue;
        }
        // Not a decodable escape: the character as it is (the segment is text, so a
        // multi-byte character is copied whole).
        let width = segment[at..].chars().next().map_or(1, char::len_utf8);
        out.push_str(&segment[at..at + width]);
        at += width;
    }
    std::borrow::Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_unreserved_characters_are_decoded_in_a_segment() {
        for (segment, decoded) in [
            ("abc", "abc"),
            ("%41bc", "Abc"),
            ("%61%62%63", "abc"),
            ("a%2db%5Fc%2E%7e", "a-b_c.~"),
            ("a%2Fb", "a%2Fb"),
            ("a%2fb", "a%2fb"),
            ("%25", "%25"),
            ("%", "%"),
            ("%4", "%4"),
            ("%zz", "%zz"),
            ("%C3%A9", "%C3%A9"),
            ("é%41", "éA"),
        ] {
            assert_eq!(unreserved_decoded(segment), decoded, "{segment}");
        }
        assert!(matches!(
            unreserved_decoded("plain"),
            std::borrow::Cow::Borrowed(_)
        ));
    }

    #[test]
    fn a_query_decodes_only_as_percent_encoded_utf8() {
        for good in [
            "",
            "q=abc",
            "q=%C3%A9t%C3%A9",
            "q=a+b&page=2",
            "q=%25",
            "a%3Db=c",
            "q=",
        ] {
            assert!(check_query(good).is_ok(), "{good}");
        }
        for bad in [
            "q=%ff", "q=%zz", "q=%", "q=%4", "q=abc%", "%ff=1", "q=%+f", "q=%C3",
        ] {
            let err = check_query(bad).expect_err(bad);
            assert_eq!(err.code(), "invalid_query", "{bad}");
        }
    }

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
}
