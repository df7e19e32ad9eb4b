//! What a visit is, for breakdowns and redirect rules: the device class, OS and browser family
//! of its user agent (parsed once per distinct agent, by woothee), the host it was referred
//! from, the country of its address (from a MaxMind-format database, when one is configured)
//! and its language.

use std::net::IpAddr;
use std::path::Path;
use std::sync::Arc;

use super::visitors::is_bot_agent;
use crate::model::DeviceClass;

/// What a user agent says, once parsed.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) struct AgentClass {
    /// A crawler, link checker or preview fetcher ([`is_bot_agent`], or woothee's crawlers).
    pub(crate) bot: bool,
    /// Desktop, mobile, tablet, bot or other.
    pub(crate) device: DeviceClass,
    /// Operating system family: `iOS`, `Android`, `Windows`, `macOS`, ..., `other`.
    pub(crate) os: Arc<str>,
    /// Browser family: `Chrome`, `Safari`, `Firefox`, ..., `other`.
    pub(crate) browser: Arc<str>,
}

/// The value of a family no one recognised.
const OTHER: &str = "other";

/// Classifies a user agent. No agent at all is a script's: a bot.
pub(crate) fn classify_agent(user_agent: &[u8]) -> AgentClass {
    let text = String::from_utf8_lossy(user_agent);
    let parsed = woothee::parser::Parser::new().parse(&text);
    let (category, os, name) = parsed
        .as_ref()
        .map_or(("", "", ""), |p| (p.category, p.os, p.name));
    let bot = is_bot_agent(user_agent) || category == "crawler";
    let device = if bot {
        DeviceClass::Bot
    } else {
        match category {
            "pc" => DeviceClass::Desktop,
            // Android tablets leave "Mobile" out of their agent; iPads name themselves.
            "smartphone" if os == "iPad" || (os == "Android" && !text.contains("Mobile")) => {
                DeviceClass::Tablet
            }
            "smartphone" | "mobilephone" => DeviceClass::Mobile,
            _ => DeviceClass::Other,
        }
    };
    AgentClass {
        bot,
        device,
        os: os_family(os).into(),
        browser: browser_family(name).into(),
    }
}

/// woothee's OS name as a family: versions and models folded together.
fn os_family(os: &str) -> &str {
    match os {
        "iPhone" | "iPad" | "iPod" => "iOS",
        "Mac OSX" | "Mac OS Classic" => "macOS",
        "Windows Phone OS" => "Windows Phone",
        _ if os.starts_with("Windows") => "Windows",
        _ if os.starts_with("BlackBerry") => "BlackBerry",
        "" | "UNKNOWN" => OTHER,
        _ => os,
    }
}

/// woothee's browser name as a family.
fn browser_family(name: &str) -> &str {
    match name {
        "SamsungBrowser" => "Samsung Internet",
        "" | "UNKNOWN" => OTHER,
        _ => name,
    }
}

/// Distinct user agents whose class is remembered. A site's traffic comes from a few hundred
/// browser builds; a flood of made-up agents only churns the oldest out.
const AGENTS_KEPT: usize = 4096;
/// Longer user agents are classified every time rather than kept.
const LONGEST_KEPT_AGENT: usize = 512;

type AgentCache = quick_cache::sync::Cache<
    Box<[u8]>,
    Arc<AgentClass>,
    quick_cache::UnitWeighter,
    foldhash::fast::RandomState,
>;

/// [`classify_agent`] once per distinct user agent: a hash lookup instead of a parse on every
/// visit.
pub(crate) struct Agents {
    classes: AgentCache,
}

impl Agents {
    pub(crate) fn new() -> Self {
        Agents {
            classes: AgentCache::with(
                AGENTS_KEPT,
                AGENTS_KEPT as u64,
                quick_cache::UnitWeighter,
                foldhash::fast::RandomState::default(),
                quick_cache::sync::DefaultLifecycle::default(),
            ),
        }
    }

    /// The class of `user_agent`.
    pub(crate) fn class(&self, user_agent: &[u8]) -> Arc<AgentClass> {
        if user_agent.len() > LONGEST_KEPT_AGENT {
            return Arc::new(classify_agent(user_agent));
        }
        if let Some(class) = self.classes.get(user_agent) {
            return class;
        }
        let class = Arc::new(classify_agent(user_agent));
        self.classes.insert(user_agent.into(), class.clone());
        class
    }
}

/// The host a `Referer` names, lower case and without a leading `www.`; `None` when there is
/// none or it names no host (the visit counts as `direct`).
pub(crate) fn referrer_host(referer: &[u8]) -> Option<String> {
    // Most visits send none; the search for "://" below prepares a searcher even for "".
    if referer.is_empty() {
        return None;
    }
    let text = std::str::from_utf8(referer).ok()?.trim();
    let (_, rest) = text.split_once("://")?;
    let authority = rest.split(['/', '?', '#']).next()?;
    let host = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
    // Without the port; a bracketed IPv6 address keeps its brackets.
    let host = match host.strip_prefix('[') {
        Some(inner) => &host[..inner.find(']')? + 2],
        None => host.split(':').next()?,
    };
    let host = host.trim_end_matches('.');
    let host = host.strip_prefix("www.").unwrap_or(host);
    let valid = !host.is_empty()
        && host.len() <= crate::model::MAX_BREAKDOWN_VALUE_LEN
        && host.bytes().all(|b| {
            b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b'_' | b'[' | b']' | b':')
        });
    valid.then(|| host.to_ascii_lowercase())
}

/// The primary subtag of the first `Accept-Language` entry, lower case, when it is two or
/// three letters (a language code); `None` otherwise.
pub(crate) fn primary_language(accept_language: &[u8]) -> Option<Language> {
    // Bytes, not text: every visit reads it, and only ASCII letters can make a language, so
    // nothing past the subtag needs decoding (splitting it as `str`s cost 200 instructions).
    let first = up_to(accept_language, b",;").trim_ascii();
    Language::from_bytes(up_to(first, b"-_"))
}

/// `bytes` up to the first of `stops`, or whole.
fn up_to<'b>(bytes: &'b [u8], stops: &[u8]) -> &'b [u8] {
    let end = bytes.iter().position(|b| stops.contains(b));
    &bytes[..end.unwrap_or(bytes.len())]
}

/// A language code of two or three ASCII letters, lower case.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct Language {
    letters: [u8; 3],
    len: u8,
}

impl Language {
    /// Reads a code of two or three ASCII letters.
    pub(crate) fn new(code: &str) -> Option<Self> {
        Self::from_bytes(code.as_bytes())
    }

    /// [`Language::new`] of bytes.
    fn from_bytes(bytes: &[u8]) -> Option<Self> {
        if !(2..=3).contains(&bytes.len()) || !bytes.iter().all(u8::is_ascii_alphabetic) {
            return None;
        }
        let mut letters = [0; 3];
        for (to, from) in letters.iter_mut().zip(bytes) {
            *to = from.to_ascii_lowercase();
        }
        Some(Language {
            letters,
            len: bytes.len() as u8,
        })
    }

    pub(crate) fn as_str(&self) -> &str {
        // Only ASCII letters are ever stored.
        std::str::from_utf8(&self.letters[..usize::from(self.len)]).unwrap_or("")
    }
}

/// A country: ISO 3166-1 alpha-2, upper case.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct Country([u8; 2]);

impl Country {
    /// Reads a code of two ASCII letters.
    pub(crate) fn new(code: &str) -> Option<Self> {
        match code.as_bytes() {
            [a, b] if a.is_ascii_alphabetic() && b.is_ascii_alphabetic() => {
                Some(Country([a.to_ascii_uppercase(), b.to_ascii_uppercase()]))
            }
            _ => None,
        }
    }

    pub(crate) fn as_str(&self) -> &str {
        std::str::from_utf8(&self.0).unwrap_or("")
    }
}

/// Countries of client addresses, from a MaxMind-format database (GeoLite2 or GeoIP2 Country
/// or City, DB-IP's lite databases, ...), read into memory at start.
pub struct GeoDatabase {
    reader: maxminddb::Reader<Vec<u8>>,
}

/// A geolocation database that could not be read.
#[derive(Debug, thiserror::Error)]
#[error("reading the geolocation database {path}: {source}")]
pub struct GeoDatabaseError {
    path: String,
    #[source]
    source: maxminddb::MaxMindDbError,
}

impl GeoDatabase {
    /// Reads the database at `path`.
    ///
    /// # Errors
    /// When the file cannot be read or is not a MaxMind-format database.
    pub fn open(path: &Path) -> Result<Self, GeoDatabaseError> {
        maxminddb::Reader::open_readfile(path)
            .map(|reader| GeoDatabase { reader })
            .map_err(|source| GeoDatabaseError {
                path: path.display().to_string(),
                source,
            })
    }

    /// The country of `address`, when the database has one for it.
    pub(crate) fn country(&self, address: IpAddr) -> Option<Country> {
        let found = self.reader.lookup(address.to_canonical()).ok()?;
        let code: Option<&str> = found
            .decode_path(&[
                maxminddb::PathElement::Key("country"),
                maxminddb::PathElement::Key("iso_code"),
            ])
            .ok()?;
        Country::new(code?)
    }
}

impl std::fmt::Debug for GeoDatabase {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GeoDatabase")
            .field("type", &self.reader.metadata().database_type)
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const IPHONE: &str = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) \
        AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1";
    const IPAD: &str = "Mozilla/5.0 (iPad; CPU OS 16_6 like Mac OS X) AppleWebKit/605.1.15 \
        (KHTML, like Gecko) Version/16.6 Mobile/15E148 Safari/604.1";
    const ANDROID_PHONE: &str = "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 \
        (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36";
    const ANDROID_TABLET: &str = "Mozilla/5.0 (Linux; Android 13; SM-X710) AppleWebKit/537.36 \
        (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36";
    const WINDOWS_FIREFOX: &str =
        "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:121.0) Gecko/20100101 Firefox/121.0";
    const MAC_CHROME: &str = "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) \
        AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36";

    fn class(agent: &str) -> (DeviceClass, String, String) {
        let c = classify_agent(agent.as_bytes());
        (c.device, c.os.to_string(), c.browser.to_string())
    }

    #[test]
    fn agents_fall_into_devices_and_families() {
        let expect = |agent, device, os: &str, browser: &str| {
            assert_eq!(
                class(agent),
                (device, os.to_owned(), browser.to_owned()),
                "{agent}"
            );
        };
        expect(IPHONE, DeviceClass::Mobile, "iOS", "Safari");
        expect(IPAD, DeviceClass::Tablet, "iOS", "Safari");
        expect(ANDROID_PHONE, DeviceClass::Mobile, "Android", "Chrome");
        expect(ANDROID_TABLET, DeviceClass::Tablet, "Android", "Chrome");
        expect(WINDOWS_FIREFOX, DeviceClass::Desktop, "Windows", "Firefox");
        expect(MAC_CHROME, DeviceClass::Desktop, "macOS", "Chrome");
        assert_eq!(class("curl/8.5.0").0, DeviceClass::Bot);
        assert_eq!(class("").0, DeviceClass::Bot);
        assert_eq!(
            class("Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)").0,
            DeviceClass::Bot
        );
        assert_eq!(
            class("something nobody knows/1.0"),
            (DeviceClass::Other, "other".to_owned(), "other".to_owned())
        );
    }

    #[test]
    fn remembered_classes_are_the_parsers_however_many_agents_pass() {
        let agents = Agents::new();
        for i in 0..AGENTS_KEPT * 2 {
            let agent = format!("Mozilla/5.0 (Windows NT 10.0; rv:{i}) Gecko/20100101 Firefox/{i}");
            assert_eq!(
                *agents.class(agent.as_bytes()),
                classify_agent(agent.as_bytes())
            );
        }
        let long = format!("{IPHONE} {}", "x".repeat(LONGEST_KEPT_AGENT));
        assert_eq!(&*agents.class(long.as_bytes()).os, "iOS");
        assert_eq!(&*agents.class(IPHONE.as_bytes()).os, "iOS");
        assert_eq!(&*agents.class(IPHONE.as_bytes()).os, "iOS");
    }

    #[test]
    fn referrers_are_hosts() {
        let host = |r: &str| referrer_host(r.as_bytes());
        assert_eq!(
            host("https://www.Google.com/search?q=x").as_deref(),
            Some("google.com")
        );
        assert_eq!(host("http://t.co/abc").as_deref(), Some("t.co"));
        assert_eq!(
            host("https://user:pw@news.example.org:8443/a#b").as_deref(),
            Some("news.example.org")
        );
        assert_eq!(
            host("android-app://com.google.android.gm/").as_deref(),
            Some("com.google.android.gm")
        );
        assert_eq!(
            host("https://[2001:db8::1]:8080/").as_deref(),
            Some("[2001:db8::1]")
        );
        assert_eq!(host(""), None);
        assert_eq!(host("not a url"), None);
        assert_eq!(host("https:///path"), None);
        assert_eq!(host("https://exa mple.com/"), None);
        assert_eq!(host(&format!("https://{}.com/", "a".repeat(300))), None);
    }

    #[test]
    fn languages_are_the_first_entrys_primary_subtag() {
        let lang = |h: &str| primary_language(h.as_bytes()).map(|l| l.as_str().to_owned());
        assert_eq!(lang("zh-CN,zh;q=0.9,en;q=0.8").as_deref(), Some("zh"));
        assert_eq!(lang("EN-us").as_deref(), Some("en"));
        assert_eq!(lang(" fr ; q=1").as_deref(), Some("fr"));
        assert_eq!(lang("fil-PH").as_deref(), Some("fil"));
        assert_eq!(lang("*"), None);
        assert_eq!(lang(""), None);
        assert_eq!(lang("english"), None);
        assert_eq!(lang("x1"), None);
        assert_eq!(lang("de_AT").as_deref(), Some("de"));
        assert_eq!(lang("\tpt-BR;q=0.9").as_deref(), Some("pt"));
        assert_eq!(lang(",en").as_deref(), None);
        assert_eq!(lang("en -US"), None);
    }

    #[test]
    fn countries_are_two_letters() {
        assert_eq!(
            Country::new("cn").map(|c| c.as_str().to_owned()).as_deref(),
            Some("CN")
        );
        assert_eq!(Country::new("CHN"), None);
        assert_eq!(Country::new("1A"), None);
    }
}
