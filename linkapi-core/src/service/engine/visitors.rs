//! Who a visit is from: a person or a bot (by user agent), and the keyed hash visitors are
//! counted by, made with the visitor secret in use.

use std::hash::Hasher;
use std::net::IpAddr;
use std::sync::LazyLock;

use aho_corasick::AhoCorasick;
use siphasher::sip128::{Hasher128, SipHasher13};

use crate::locks::Unpoisoned;
use crate::store::{VisitorKey, VisitorSecret};

/// What the request tells about a visit.
#[derive(Debug, Clone, Copy)]
pub struct VisitRequest<'a> {
    /// The client's address (after the trusted-proxy rule).
    pub address: IpAddr,
    /// The `User-Agent` header, empty when absent.
    pub user_agent: &'a [u8],
    /// A `HEAD` request: link checkers and previews, never a person.
    pub head: bool,
    /// The `Referer` header, empty when absent.
    pub referer: &'a [u8],
    /// The `Accept-Language` header, empty when absent.
    pub accept_language: &'a [u8],
    /// The query string of the visited URL, without `?`; empty when there is none.
    pub query: &'a str,
}

/// User-agent fragments of crawlers, link checkers and link-preview fetchers. Matched
/// case-insensitively; specific names rather than a bare "bot", which phone models contain.
const BOT_AGENTS: &[&str] = &[
    "googlebot",
    "google-inspectiontool",
    "googleother",
    "adsbot-google",
    "mediapartners-google",
    "apis-google",
    "feedfetcher-google",
    "bingbot",
    "bingpreview",
    "msnbot",
    "adidxbot",
    "slurp",
    "duckduckbot",
    "duckassistbot",
    "baiduspider",
    "yandex",
    "sogou",
    "360spider",
    "bytespider",
    "petalbot",
    "applebot",
    "amazonbot",
    "facebookexternalhit",
    "facebookcatalog",
    "meta-externalagent",
    "twitterbot",
    "slackbot",
    "slack-imgproxy",
    "whatsapp",
    "telegrambot",
    "discordbot",
    "linkedinbot",
    "pinterestbot",
    "redditbot",
    "skypeuripreview",
    "microsoftpreview",
    "teamsbot",
    "vkshare",
    "embedly",
    "iframely",
    "quora link preview",
    "mastodon",
    "bitlybot",
    "tumblr",
    "snapchat",
    "line-poker",
    "kakaotalk-scrap",
    "ahrefsbot",
    "semrushbot",
    "mj12bot",
    "dotbot",
    "gptbot",
    "chatgpt-user",
    "oai-searchbot",
    "claudebot",
    "perplexitybot",
    "ccbot",
    "uptimerobot",
    "pingdom",
    "statuscake",
    "headlesschrome",
    "phantomjs",
    "curl/",
    "wget/",
    "python-requests",
    "python-urllib",
    "go-http-client",
    "okhttp",
    "java/",
    "libwww-perl",
    "httpclient",
    "axios/",
    "node-fetch",
    "crawler",
    "spider",
];

static BOTS: LazyLock<Option<AhoCorasick>> = LazyLock::new(|| {
    AhoCorasick::builder()
        .ascii_case_insensitive(true)
        // A DFA: one table lookup per byte on every visit, for a few kilobytes.
        .kind(Some(aho_corasick::AhoCorasickKind::DFA))
        .build(BOT_AGENTS)
        .ok()
});

/// Whether a user agent is a crawler, link checker or preview fetcher. No user agent at all
/// is a script, not a browser: a bot.
pub fn is_bot_agent(user_agent: &[u8]) -> bool {
    user_agent.is_empty() || BOTS.as_ref().is_some_and(|bots| bots.is_match(user_agent))
}

/// The keyed hash visitors are counted by.
pub(crate) fn visitor_key(secret: &[u8; 16], address: IpAddr, user_agent: &[u8]) -> VisitorKey {
    /// Room for the address, the separator and a user agent of ordinary length.
    const ON_STACK: usize = 512;
    let mut hasher = SipHasher13::new_with_key(secret);
    let mut input = [0u8; ON_STACK];
    // One address, one visitor, whether it arrived over IPv4 or as IPv4-mapped IPv6.
    let len = match address.to_canonical() {
        IpAddr::V4(v4) => put(&mut input, &v4.octets()),
        IpAddr::V6(v6) => put(&mut input, &v6.octets()),
    };
    input[len] = 0xff;
    let len = len + 1;
    // One write of the whole input where it fits: SipHash reads it as one stream either way
    // (the key is the same), and each write of a part costs the merging of its loose bytes.
    match input.get_mut(len..len + user_agent.len()) {
        Some(room) => {
            room.copy_from_slice(user_agent);
            hasher.write(&input[..len + user_agent.len()]);
        }
        None => {
            hasher.write(&input[..len]);
            hasher.write(user_agent);
        }
    }
    hasher.finish128().as_bytes()
}

/// Copies `bytes` to the start of `to`; returns their length.
fn put(to: &mut [u8], bytes: &[u8]) -> usize {
    to[..bytes.len()].copy_from_slice(bytes);
    bytes.len()
}

/// The secret visitor keys are made with, swapped when it rotates.
pub(crate) struct VisitorKeys {
    secret: std::sync::RwLock<VisitorSecret>,
}

impl VisitorKeys {
    pub(crate) fn new(secret: VisitorSecret) -> Self {
        VisitorKeys {
            secret: std::sync::RwLock::new(secret),
        }
    }

    pub(crate) fn key(&self, address: IpAddr, user_agent: &[u8]) -> VisitorKey {
        let secret = self.secret.read().unpoisoned();
        visitor_key(&secret.secret, address, user_agent)
    }

    /// Uses `secret` from now on unless a newer one is in use.
    pub(crate) fn replace(&self, secret: VisitorSecret) {
        let mut current = self.secret.write().unpoisoned();
        if secret.id >= current.id {
            *current = secret;
        }
    }

    pub(crate) fn current(&self) -> VisitorSecret {
        self.secret.read().unpoisoned().clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crawlers_and_previews_are_bots_and_browsers_are_not() {
        for agent in [
            "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
            "facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)",
            "Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)",
            "Twitterbot/1.0",
            "WhatsApp/2.23.20.0",
            "TelegramBot (like TwitterBot)",
            "Mozilla/5.0 (compatible; Discordbot/2.0; +https://discordapp.com)",
            "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)",
            "curl/8.5.0",
            "",
        ] {
            assert!(is_bot_agent(agent.as_bytes()), "{agent:?} should be a bot");
        }
        for agent in [
            "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 \
             (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1",
            "Mozilla/5.0 (Linux; Android 13; CUBOT KINGKONG 9) AppleWebKit/537.36 (KHTML, like \
             Gecko) Chrome/120.0 Mobile Safari/537.36",
            "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:121.0) Gecko/20100101 Firefox/121.0",
        ] {
            assert!(!is_bot_agent(agent.as_bytes()), "{agent:?} is a browser");
        }
    }

    #[test]
    fn a_visitor_key_is_the_hash_of_address_separator_and_agent_as_one_stream() {
        // The keys stored before the input was written at once: the same for every length.
        let streamed = |address: IpAddr, agent: &[u8]| {
            let mut hasher = SipHasher13::new_with_key(&[9; 16]);
            match address {
                IpAddr::V4(v4) => hasher.write(&v4.octets()),
                IpAddr::V6(v6) => hasher.write(&v6.octets()),
            }
            hasher.write(&[0xff]);
            hasher.write(agent);
            hasher.finish128().as_bytes()
        };
        let v4: IpAddr = "203.0.113.9".parse().expect("address");
        let v6: IpAddr = "2001:db8::7".parse().expect("address");
        for len in [0, 1, 7, 8, 70, 494, 495, 496, 507, 508, 600, 4096] {
            let agent: Vec<u8> = (0..len).map(|i| (i % 251) as u8).collect();
            for address in [v4, v6] {
                assert_eq!(
                    visitor_key(&[9; 16], address, &agent),
                    streamed(address, &agent),
                    "{address}, {len} bytes"
                );
            }
        }
    }

    #[test]
    fn visitor_keys_depend_on_secret_address_and_agent() {
        let a: IpAddr = "203.0.113.7".parse().expect("address");
        let mapped: IpAddr = "::ffff:203.0.113.7".parse().expect("address");
        let b: IpAddr = "203.0.113.8".parse().expect("address");
        let key = visitor_key(&[1; 16], a, b"agent");
        assert_eq!(key, visitor_key(&[1; 16], mapped, b"agent"));
        assert_ne!(key, visitor_key(&[2; 16], a, b"agent"));
        assert_ne!(key, visitor_key(&[1; 16], b, b"agent"));
        assert_ne!(key, visitor_key(&[1; 16], a, b"agent2"));
    }
}
