//! Short codes and target URLs: what a custom code may be, how random codes are drawn, and
//! which destinations a chain may point at.

use rand::RngExt;

/// Characters of generated codes: unambiguous in URLs and case-sensitive.
const ALPHABET: &[u8] = b"abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789";

/// Longest custom code accepted.
pub const MAX_CODE_LEN: usize = 64;

/// Longest target URL accepted; browsers and proxies start failing beyond this.
pub const MAX_URL_LEN: usize = 2048;

/// Top-level path segments of the API. A code equal to one (in any case) would shadow an
/// endpoint, so it is refused at creation (contract section 3).
pub const RESERVED_CODES: &[&str] = &[
    "admin",
    "api",
    "card",
    "chains",
    "docs",
    "domains",
    "favicon.ico",
    "files",
    "groups",
    "healthz",
    "metrics",
    "openapi",
    "openapi.json",
    "readyz",
    "robots.txt",
    "static",
    "stats",
    "templates",
    "uploads",
    "v1",
    "webhooks",
    "wx-chains",
];

/// Reserved codes that chains created before their reservation may still hold, and whose
/// one-segment path no operation answers: a stored chain keeps redirecting there, though no
/// new one takes the code. `v1` is the original vendor's prefix (`/v1/chain/...`), reserved
/// when its operations came; `/v1` alone is no operation.
const STILL_ROUTED: &[&str] = &["v1"];

/// Why a custom code was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CodeError {
    /// Empty or longer than [`MAX_CODE_LEN`].
    #[error("code must be 1 to {MAX_CODE_LEN} characters")]
    Length,
    /// Outside `[A-Za-z0-9_-]`.
    #[error("code may contain only letters, digits, '-' and '_'")]
    Charset,
    /// Equal to an API path segment.
    #[error("code {0:?} is reserved")]
    Reserved(String),
}

/// Checks a custom code.
pub fn validate_code(code: &str) -> Result<(), CodeError> {
    if code.is_empty() || code.len() > MAX_CODE_LEN {
        return Err(CodeError::Length);
    }
    if !code
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
    {
        return Err(CodeError::Charset);
    }
    if is_reserved(code) {
        return Err(CodeError::Reserved(code.to_owned()));
    }
    Ok(())
}

/// The first letters of the reserved codes, lower case, as bits of their ASCII values.
const RESERVED_FIRST_LETTERS: u128 = {
    let mut letters = 0;
    let mut at = 0;
    while at < RESERVED_CODES.len() {
        letters |= 1 << RESERVED_CODES[at].as_bytes()[0].to_ascii_lowercase();
        at += 1;
    }
    letters
};

/// Whether `segment` is a reserved top-level path segment.
pub fn is_reserved(segment: &str) -> bool {
    // Every redirect's code is checked; most begin with a letter no reserved code does, and
    // are let go without comparing against each one (that took 199 instructions a redirect,
    // callgrind; the check is a few now).
    let Some(first) = segment.bytes().next().map(|b| b.to_ascii_lowercase()) else {
        return false;
    };
    first < 128
        && RESERVED_FIRST_LETTERS & (1 << first) != 0
        && RESERVED_CODES
            .iter()
            .any(|r| r.eq_ignore_ascii_case(segment))
}

/// Whether `/{segment}` belongs to the API rather than to a short link: a reserved word, unless
/// a chain created before its reservation may still answer there (`v1`).
pub fn shadows_code(segment: &str) -> bool {
    is_reserved(segment) && !STILL_ROUTED.iter().any(|r| r.eq_ignore_ascii_case(segment))
}

/// A random code of `len` characters from an alphabet without look-alikes (no 0/O, 1/l/I).
pub fn random_code(len: usize) -> String {
    let mut rng = rand::rng();
    (0..len)
        .map(|_| char::from(ALPHABET[rng.random_range(0..ALPHABET.len())]))
        .collect()
}

/// Why a target URL was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TargetUrlError {
    /// Not a URL at all.
    #[error("target_url is not a valid URL: {0}")]
    Invalid(String),
    /// Not http or https.
    #[error("target_url must use http or https")]
    Scheme,
    /// Longer than [`MAX_URL_LEN`].
    #[error("target_url is longer than {MAX_URL_LEN} characters")]
    Length,
    /// Carries a user name or password, a common phishing disguise.
    #[error("target_url must not contain credentials")]
    Credentials,
}

/// The destinations a chain may have, as a regular expression (without anchors; the API
/// document's schemas use it too, so what the schema allows and what the server takes are one
/// set): `http` or `https`; a host name of letters, digits, `_` and `-` labels whose last label
/// starts with a letter (Unicode names in their `xn--` form), or an IPv4 address; an optional
/// port; then a path, query or fragment of any characters but spaces and control or
/// bidirectional-override characters. Everything it matches the URL parser reads; the parser
/// also reads much it does not (IPv6 literals, octal IPv4 parts, tabs it silently drops), and
/// the server refuses that.
macro_rules! target_url {
    () => {
        concat!(
            "[Hh][Tt][Tt][Pp][Ss]?://",
            r"(([A-Za-z0-9_-]{1,63}\.)*[A-Za-z][A-Za-z0-9_-]{0,62}\.?",
            r"|(25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])(\.(25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])){3})",
            r"(:([0-9]{1,4}|[1-5][0-9]{4}|6[0-4][0-9]{3}|65[0-4][0-9]{2}|655[0-2][0-9]|6553[0-5]))?",
            r"([/?#][^\u0000-\u0020\u007f-\u009f\u202a-\u202e\u2066-\u2069]*)?"
        )
    };
}
pub(crate) use target_url;

/// [`target_url!`] with the spaces the rule ignores around it.
static TARGET_URL: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
    regex::Regex::new(concat!("^ *(", target_url!(), ") *$")).expect("the target URL pattern")
});

/// Checks a destination and returns it normalised by the URL parser (which percent-encodes
/// what must be). Spaces around it are ignored; [`MAX_URL_LEN`] counts the characters given,
/// as a schema's `maxLength` does.
pub fn validate_target_url(raw: &str) -> Result<String, TargetUrlError> {
    if raw.chars().count() > MAX_URL_LEN {
        return Err(TargetUrlError::Length);
    }
    let raw = raw.trim_matches(' ');
    let url = url::Url::parse(raw).map_err(|e| match e {
        // `example.com/page`: a host without its scheme, the commonest slip.
        url::ParseError::RelativeUrlWithoutBase => {
            TargetUrlError::Invalid("it has no scheme; give it as https://...".into())
        }
        other => TargetUrlError::Invalid(other.to_string()),
    })?;
    if !matches!(url.scheme(), "http" | "https") {
        return Err(TargetUrlError::Scheme);
    }
    match url.host() {
        None => return Err(TargetUrlError::Invalid("no host".into())),
        // A name made only of dots, or with an empty label (`https://./`, `a..b`), names no
        // host; one trailing dot (`example.com.`) is a fully qualified name.
        Some(url::Host::Domain(name)) => {
            let name = name.strip_suffix('.').unwrap_or(name);
            if name.is_empty() || name.split('.').any(str::is_empty) {
                return Err(TargetUrlError::Invalid(format!(
                    "{name:?} is not a host name"
                )));
            }
        }
        Some(_) => {}
    }
    if !url.username().is_empty() || url.password().is_some() {
        return Err(TargetUrlError::Credentials);
    }
    if !TARGET_URL.is_match(raw) {
        return Err(TargetUrlError::Invalid(
            "expected http(s)://, a host name of letters, digits, '-' and '_' (Unicode names \
             in their xn-- form) or an IPv4 address, an optional port, and no spaces or control \
             characters"
                .into(),
        ));
    }
    Ok(String::from(url))
}

/// [`validate_target_url`] where empty (or only spaces) means none: `""` then.
pub fn validate_optional_url(raw: &str) -> Result<String, TargetUrlError> {
    if raw.trim_matches(' ').is_empty() {
        return Ok(String::new());
    }
    validate_target_url(raw)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn custom_codes_are_checked() {
        assert_eq!(validate_code("promo-2026_a"), Ok(()));
        assert_eq!(validate_code(""), Err(CodeError::Length));
        assert_eq!(validate_code(&"a".repeat(65)), Err(CodeError::Length));
        assert_eq!(validate_code("a/b"), Err(CodeError::Charset));
        assert_eq!(validate_code("héllo"), Err(CodeError::Charset));
        assert!(matches!(
            validate_code("Chains"),
            Err(CodeError::Reserved(_))
        ));
        assert!(matches!(
            validate_code("ADMIN"),
            Err(CodeError::Reserved(_))
        ));
    }

    #[test]
    fn reserved_codes_are_reserved_in_any_case_and_nothing_else_is() {
        for code in RESERVED_CODES {
            assert!(is_reserved(code), "{code}");
            assert!(is_reserved(&code.to_ascii_uppercase()), "{code}");
            let mut mixed = code.to_string();
            mixed[..1].make_ascii_uppercase();
            assert!(is_reserved(&mixed), "{mixed}");
            assert!(!is_reserved(&format!("{code}x")), "{code}x");
            assert!(!is_reserved(&code[1..]), "{code} without its first letter");
        }
        for other in ["", "b00001", "x7Kp2a", "Zq", "9admin", "é", "adm"] {
            assert!(!is_reserved(other), "{other}");
        }
    }

    #[test]
    fn random_codes_use_the_alphabet() {
        let code = random_code(12);
        assert_eq!(code.len(), 12);
        assert!(code.bytes().all(|b| ALPHABET.contains(&b)));
        assert_ne!(random_code(12), code);
    }

    #[test]
    fn only_http_targets() {
        assert_eq!(
            validate_target_url("https://example.com/a?b=1").as_deref(),
            Ok("https://example.com/a?b=1")
        );
        assert_eq!(
            validate_target_url("HTTP://Example.com").as_deref(),
            Ok("http://example.com/")
        );
        assert_eq!(
            validate_target_url("javascript:alert(1)"),
            Err(TargetUrlError::Scheme)
        );
        assert_eq!(
            validate_target_url("ftp://example.com/"),
            Err(TargetUrlError::Scheme)
        );
        for empty_label in [
            "https://./",
            "https://../x",
            "http://a..b/",
            "https://.example.com/",
        ] {
            assert!(
                matches!(
                    validate_target_url(empty_label),
                    Err(TargetUrlError::Invalid(_))
                ),
                "{empty_label}"
            );
        }
        assert!(validate_target_url("https://example.com./").is_ok());
        assert!(matches!(
            validate_target_url("not a url"),
            Err(TargetUrlError::Invalid(_))
        ));
        assert_eq!(
            validate_target_url("https://user:pw@example.com/"),
            Err(TargetUrlError::Credentials)
        );
        let long = format!("https://example.com/{}", "a".repeat(MAX_URL_LEN));
        assert_eq!(validate_target_url(&long), Err(TargetUrlError::Length));
    }

    #[test]
    fn the_pattern_is_the_rule() {
        for good in [
            " https://my-site.example.com:8443/a/b?q=1&r=%zz#frag ",
            "http://localhost",
            "http://127.0.0.1:65535/",
            "https://xn--bcher-kva.example/",
            "https://example.com/搜索?q=中文",
            "https://under_score.example/",
        ] {
            assert!(validate_target_url(good).is_ok(), "{good}");
        }
        // Normalised: percent-encoded, lower-case host, a path.
        assert_eq!(
            validate_target_url("HTTPS://Example.COM?q=中").as_deref(),
            Ok("https://example.com/?q=%E4%B8%AD")
        );
        for bad in [
            "https://bücher.example/",
            "http://[::1]/",
            "http://010.0.0.1/",
            "http://example.com:65536/",
            "http://example.com:/",
            "http://example.1/",
            "https://exa\tmple.com/",
            "https://example.com/a b",
            "https://example.com/\u{202e}",
            "\thttps://example.com/",
            "https://example.com/\u{85}",
        ] {
            assert!(
                matches!(validate_target_url(bad), Err(TargetUrlError::Invalid(_))),
                "{bad}"
            );
        }
        assert_eq!(validate_optional_url("  ").as_deref(), Ok(""));
        assert!(validate_optional_url("\t").is_err());
    }
}
