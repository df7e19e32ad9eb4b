//! Webhook signing: the piece of outgoing webhooks shared by the server (which signs) and by
//! receivers such as `linkapi webhook listen` (which verify). Which addresses a webhook may
//! be sent to is the webhook service's (`service::webhooks::target`).
//!
//! Signatures follow the Standard Webhooks specification, so receivers can verify them with
//! its published libraries: `webhook-signature: v1,<base64 HMAC-SHA256>` of
//! `"{webhook-id}.{webhook-timestamp}.{body}"`, keyed with the decoded secret. A secret is
//! `whsec_` and the base64 of 32 random bytes. Several signatures are sent, space-separated,
//! while an old secret is still honoured after a rotation.

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as BASE64;
use hmac::{Hmac, KeyInit as _, Mac as _};
use sha2::Sha256;

/// What a secret's text starts with.
pub const SECRET_PREFIX: &str = "whsec_";
/// Random bytes in a secret linkapi makes.
pub const SECRET_BYTES: usize = 32;
/// How far a signed timestamp may be from the receiver's clock, in seconds, as the
/// specification recommends: older messages are refused as replays.
pub const TIMESTAMP_TOLERANCE: i64 = 5 * 60;

/// A signing secret: the key bytes, and the text a user is shown once.
#[derive(Clone, PartialEq, Eq)]
pub struct Secret {
    key: Vec<u8>,
}

impl std::fmt::Debug for Secret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Secret(..)")
    }
}

/// Why a secret or a signed message was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SignatureError {
    /// Not `whsec_` and base64 (or plain base64) of at least one byte.
    #[error("not a webhook secret: expected whsec_ followed by base64")]
    BadSecret,
    /// A header is missing or malformed.
    #[error("missing or malformed {0} header")]
    BadHeader(&'static str),
    /// The timestamp is further from now than [`TIMESTAMP_TOLERANCE`].
    #[error("timestamp is {0} s from now, more than the {TIMESTAMP_TOLERANCE} s allowed")]
    Stale(i64),
    /// No `v1` signature matches.
    #[error("no signature matches the secret")]
    Mismatch,
}

impl Secret {
    /// A new random secret.
    pub fn generate() -> Self {
        let key: [u8; SECRET_BYTES] = rand::random();
        Secret { key: key.to_vec() }
    }

    /// Reads a secret's text: `whsec_` and base64, or the base64 alone.
    ///
    /// # Errors
    /// [`SignatureError::BadSecret`].
    pub fn parse(text: &str) -> Result<Self, SignatureError> {
        let encoded = text.strip_prefix(SECRET_PREFIX).unwrap_or(text);
        match BASE64.decode(encoded.trim()) {
            Ok(key) if !key.is_empty() => Ok(Secret { key }),
            _ => Err(SignatureError::BadSecret),
        }
    }

    /// The text form, `whsec_...`.
    pub fn expose(&self) -> String {
        format!("{SECRET_PREFIX}{}", BASE64.encode(&self.key))
    }

    /// `v1,<signature>` of a message.
    pub fn sign(&self, id: &str, timestamp: i64, body: &[u8]) -> String {
        format!("v1,{}", BASE64.encode(self.mac(id, timestamp, body)))
    }

    fn mac(&self, id: &str, timestamp: i64, body: &[u8]) -> Vec<u8> {
        let mut mac = <Hmac<Sha256>>::new_from_slice(&self.key)
            .unwrap_or_else(|_| unreachable!("HMAC takes keys of any length"));
        mac.update(id.as_bytes());
        mac.update(b".");
        mac.update(timestamp.to_string().as_bytes());
        mac.update(b".");
        mac.update(body);
        mac.finalize().into_bytes().to_vec()
    }

    /// Checks a received message: its `webhook-timestamp` within [`TIMESTAMP_TOLERANCE`] of
    /// `now`, and one of the `v1` signatures of `webhook-signature` made with this secret
    /// (compared in constant time).
    ///
    /// # Errors
    /// [`SignatureError`] saying what failed.
    pub fn verify(
        &self,
        id: &str,
        timestamp: &str,
        signatures: &str,
        body: &[u8],
        now: i64,
    ) -> Result<(), SignatureError> {
        if id.is_empty() {
            return Err(SignatureError::BadHeader("webhook-id"));
        }
        let at: i64 = timestamp
            .trim()
            .parse()
            .map_err(|_| SignatureError::BadHeader("webhook-timestamp"))?;
        let skew = now.saturating_sub(at);
        if skew.abs() > TIMESTAMP_TOLERANCE {
            return Err(SignatureError::Stale(skew));
        }
        let expected = self.mac(id, at, body);
        let matches = signatures
            .split_whitespace()
            .filter_map(|s| s.strip_prefix("v1,"))
            .filter_map(|s| BASE64.decode(s).ok())
            .any(|candidate| constant_time_eq(&candidate, &expected));
        if matches {
            Ok(())
        } else {
            Err(SignatureError::Mismatch)
        }
    }
}

/// Equal bytes, in time that depends only on the lengths.
fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// The `webhook-signature` header of a message signed with every one of `secrets` (the
/// current one first, then any still honoured after a rotation).
pub fn signature_header(secrets: &[&Secret], id: &str, timestamp: i64, body: &[u8]) -> String {
    secrets
        .iter()
        .map(|secret| secret.sign(id, timestamp, body))
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The Standard Webhooks specification's own example.
    const SPEC_SECRET: &str = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
    const SPEC_ID: &str = "msg_p5jXN8AQM9LWM0D4loKWxJek";
    const SPEC_TIMESTAMP: i64 = 1_614_265_330;
    const SPEC_BODY: &[u8] = br#"{"test": 2432232314}"#;
    const SPEC_SIGNATURE: &str = "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=";

    #[test]
    fn the_specifications_example_signs_and_verifies() {
        let secret = Secret::parse(SPEC_SECRET).expect("the example's secret");
        assert_eq!(
            secret.sign(SPEC_ID, SPEC_TIMESTAMP, SPEC_BODY),
            SPEC_SIGNATURE
        );
        let now = SPEC_TIMESTAMP + 10;
        let ok = secret.verify(SPEC_ID, "1614265330", SPEC_SIGNATURE, SPEC_BODY, now);
        assert_eq!(ok, Ok(()));
        // Another body, another id, a stale or future timestamp: refused.
        let refused = |id: &str, ts: &str, body: &[u8], now: i64| {
            secret
                .verify(id, ts, SPEC_SIGNATURE, body, now)
                .expect_err("refused")
        };
        assert_eq!(
            refused(SPEC_ID, "1614265330", b"{}", now),
            SignatureError::Mismatch
        );
        assert_eq!(
            refused("msg_other", "1614265330", SPEC_BODY, now),
            SignatureError::Mismatch
        );
        assert!(matches!(
            refused(SPEC_ID, "1614265330", SPEC_BODY, SPEC_TIMESTAMP + 301),
            SignatureError::Stale(301)
        ));
        assert!(matches!(
            refused(SPEC_ID, "1614265330", SPEC_BODY, SPEC_TIMESTAMP - 301),
            SignatureError::Stale(-301)
        ));
        assert_eq!(
            refused(SPEC_ID, "soon", SPEC_BODY, now),
            SignatureError::BadHeader("webhook-timestamp")
        );
    }

    #[test]
    fn a_header_signed_with_two_secrets_verifies_with_either() {
        let (old, new) = (Secret::generate(), Secret::generate());
        assert_ne!(old, new);
        let header = signature_header(&[&new, &old], "msg_1", 1_000, b"body");
        assert_eq!(header.split(' ').count(), 2);
        for secret in [&old, &new] {
            assert_eq!(
                secret.verify("msg_1", "1000", &header, b"body", 1_000),
                Ok(())
            );
        }
        let stranger = Secret::generate();
        assert_eq!(
            stranger.verify("msg_1", "1000", &header, b"body", 1_000),
            Err(SignatureError::Mismatch)
        );
    }

    #[test]
    fn secrets_are_whsec_and_32_random_bytes() {
        let secret = Secret::generate();
        let text = secret.expose();
        assert!(text.starts_with(SECRET_PREFIX), "{text}");
        assert_eq!(Secret::parse(&text), Ok(secret.clone()));
        let bytes = BASE64.decode(&text[SECRET_PREFIX.len()..]).expect("base64");
        assert_eq!(bytes.len(), SECRET_BYTES);
        assert_eq!(format!("{secret:?}"), "Secret(..)", "never printed");
        for bad in ["whsec_", "whsec_not base64!", ""] {
            assert_eq!(
                Secret::parse(bad),
                Err(SignatureError::BadSecret),
                "{bad:?}"
            );
        }
    }
}
