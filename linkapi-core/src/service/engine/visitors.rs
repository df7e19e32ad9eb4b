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

/// User-agent fragments of crawlers, link checkers, link-preview fetchers and HTTP libraries,
/// lowercase, one a line after the `#` header: made from the maintained crawler-user-agents
/// list by `scripts/refresh-bot-agents` (which names its source and version), never by hand.
const LISTED_BOT_AGENTS: &str = include_str!("bot_agents.txt");

/// Fragments the listed ones do not cover that linkapi's visitors meet: previews of the
/// messaging and work apps its chains are shared in, and wider forms of a few listed names.
/// Specific names rather than a bare "bot", which phone models contain.
const MORE_BOT_AGENTS: &[&str] = &[
    "googlebot",
    "bingpreview",
    "yandex",
    "facebookcatalog",
    "meta-externalagent",
    "pinterestbot",
    "microsoftpreview",
    "teamsbot",
    "quora link preview",
    "tumblr",
    "snapchat",
    "line-poker",
    "kakaotalk-scrap",
    "perplexitybot",
    "java/",
    "httpclient",
    "crawler",
];

/// Every bot fragment: the listed ones and linkapi's own.
fn bot_agents() -> impl Iterator<Item = &'static str> {
    LISTED_BOT_AGENTS
        .lines()
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
        .chain(MORE_BOT_AGENTS.iter().copied())
}

static BOTS: LazyLock<Option<AhoCorasick>> = LazyLock::new(|| {
    // The automaton's kind is left to the builder: the class of an agent is remembered per
    // agent, so a match runs once for each new one, and a DFA of 1,500 fragments would be
    // megabytes.
    AhoCorasick::builder()
        .ascii_case_insensitive(true)
        .build(bot_agents())
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
    fn the_listed_fragments_are_lowercase_and_say_where_they_come_from() {
        let header: Vec<&str> = LISTED_BOT_AGENTS
            .lines()
            .take_while(|l| l.starts_with('#'))
            .collect();
        assert!(
            header[0].starts_with("# crawler-user-agents "),
            "{header:?}"
        );
        let listed: Vec<&str> = LISTED_BOT_AGENTS.lines().skip(header.len()).collect();
        assert!(listed.len() > 1_000, "{} fragments", listed.len());
        for fragment in &listed {
            assert!(
                fragment.trim().len() >= 4,
                "{fragment:?} would match too much"
            );
            assert_eq!(*fragment, fragment.to_ascii_lowercase());
        }
        assert!(BOTS.is_some(), "the fragments make an automaton");
        // The generic word is never a fragment: phone models ("CUBOT") contain it.
        assert!(bot_agents().all(|f| f.trim() != "bot"));
    }

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
            // Known only to the listed fragments.
            "Mozilla/5.0 (compatible; Bytespider; spider-feedback@bytedance.com)",
            "Mozilla/5.0 (compatible; DataForSeoBot/1.0; +https://dataforseo.com/dataforseo-bot)",
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
            // In-app and regional browsers the listed fragments must not take for bots.
            "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, \
             like Gecko) Mobile/15E148 MicroMessenger/8.0.53(0x1800352c) NetType/WIFI \
             Language/zh_CN",
            "Mozilla/5.0 (iPhone; CPU iPhone OS 17_2 like Mac OS X) AppleWebKit/605.1.15 (KHTML, \
             like Gecko) Mobile/15E148 wxwork/4.1.22 MicroMessenger/7.0.1 Language/zh",
            "Mozilla/5.0 (Linux; Android 13; 2201117TG Build/TKQ1.221114.001; wv) \
             AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/120.0.6099.230 Mobile \
             Safari/537.36 DingTalk/7.5.0",
            "Mozilla/5.0 (Linux; U; Android 13; zh-cn; PGEM10 Build/TP1A.220905.001) \
             AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/109.0.5414.86 \
             MQQBrowser/14.8 Mobile Safari/537.36",
            "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, \
             like Gecko) Mobile/15E148 Safari Line/14.9.1",
            "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) \
             Chrome/131.0.6778.39 Mobile Safari/537.36 KAKAOTALK 10.8.0",
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
