//! A corpus of the user agents visitors send today (browsers of 2025 and 2026 on every
//! platform, in-app browsers, and the crawlers, previewers and scripts that fetch links),
//! each with the class [`super::classify::classify_agent`] must give it: the user-agent parser
//! and the bot list answer for these, not only for the agents they were written against.

use super::classify::classify_agent;
use crate::model::DeviceClass::{self, Bot, Desktop, Mobile, Tablet};

/// (agent, device, OS family, browser family); a bot's OS and browser are not checked.
const CORPUS: &[(&str, DeviceClass, &str, &str)] = &[
    // Desktop browsers.
    (
        "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
        Desktop,
        "Windows",
        "Chrome",
    ),
    (
        "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/138.0.0.0 Safari/537.36 Edg/138.0.0.0",
        Desktop,
        "Windows",
        "Edge",
    ),
    (
        "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:140.0) Gecko/20100101 Firefox/140.0",
        Desktop,
        "Windows",
        "Firefox",
    ),
    (
        "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.5 Safari/605.1.15",
        Desktop,
        "macOS",
        "Safari",
    ),
    (
        "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/137.0.0.0 Safari/537.36",
        Desktop,
        "macOS",
        "Chrome",
    ),
    (
        "Mozilla/5.0 (Macintosh; Intel Mac OS X 14.5; rv:139.0) Gecko/20100101 Firefox/139.0",
        Desktop,
        "macOS",
        "Firefox",
    ),
    (
        "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/136.0.0.0 Safari/537.36",
        Desktop,
        "Linux",
        "Chrome",
    ),
    (
        "Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:138.0) Gecko/20100101 Firefox/138.0",
        Desktop,
        "Linux",
        "Firefox",
    ),
    (
        "Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/135.0.0.0 Safari/537.36",
        Desktop,
        "ChromeOS",
        "Chrome",
    ),
    (
        "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36 OPR/115.0.0.0",
        Desktop,
        "Windows",
        "Opera",
    ),
    // Phones.
    (
        "Mozilla/5.0 (iPhone; CPU iPhone OS 18_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.5 Mobile/15E148 Safari/604.1",
        Mobile,
        "iOS",
        "Safari",
    ),
    (
        "Mozilla/5.0 (iPhone; CPU iPhone OS 17_7 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/137.0.7151.79 Mobile/15E148 Safari/604.1",
        Mobile,
        "iOS",
        "Chrome",
    ),
    (
        "Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/137.0.0.0 Mobile Safari/537.36",
        Mobile,
        "Android",
        "Chrome",
    ),
    (
        "Mozilla/5.0 (Linux; Android 14; SM-S928B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/27.0 Chrome/125.0.0.0 Mobile Safari/537.36",
        Mobile,
        "Android",
        "Samsung Internet",
    ),
    (
        "Mozilla/5.0 (Android 15; Mobile; rv:139.0) Gecko/139.0 Firefox/139.0",
        Mobile,
        "Android",
        "Firefox",
    ),
    (
        "Mozilla/5.0 (Linux; Android 13; CUBOT KINGKONG 9) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.6099.230 Mobile Safari/537.36",
        Mobile,
        "Android",
        "Chrome",
    ),
    // Tablets.
    (
        "Mozilla/5.0 (iPad; CPU OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1",
        Tablet,
        "iOS",
        "Safari",
    ),
    (
        "Mozilla/5.0 (Linux; Android 14; SM-X710) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/136.0.0.0 Safari/537.36",
        Tablet,
        "Android",
        "Chrome",
    ),
    // In-app browsers, opened from chats and feeds: their family is `Webview` (WeChat's
    // XWEB names Chrome too, but what a visitor used is the app's view, not a browser).
    (
        "Mozilla/5.0 (iPhone; CPU iPhone OS 18_3 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 MicroMessenger/8.0.56(0x18003836) NetType/WIFI Language/zh_CN",
        Mobile,
        "iOS",
        "Webview",
    ),
    (
        "Mozilla/5.0 (Linux; Android 14; 23127PN0CC Build/UKQ1.230804.001; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/130.0.6723.103 Mobile Safari/537.36 XWEB/1300199 MMWEBSDK/20241202 MMWEBID/2307 MicroMessenger/8.0.56.2800(0x2800383D) WeChat/arm64 Weixin NetType/WIFI Language/zh_CN ABI/arm64",
        Mobile,
        "Android",
        "Webview",
    ),
    (
        "Mozilla/5.0 (iPhone; CPU iPhone OS 18_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Instagram 379.0.0.28.82 (iPhone15,3; iOS 18_4; en_US; en; scale=3.00; 1290x2796; 728457312)",
        Mobile,
        "iOS",
        "Webview",
    ),
    // Crawlers, previewers and scripts: bots, whatever else they say.
    (
        "Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/137.0.7151.103 Mobile Safari/537.36 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
        Bot,
        "",
        "",
    ),
    (
        "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)",
        Bot,
        "",
        "",
    ),
    (
        "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)",
        Bot,
        "",
        "",
    ),
    (
        "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)",
        Bot,
        "",
        "",
    ),
    (
        "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; PerplexityBot/1.0; +https://perplexity.ai/perplexitybot)",
        Bot,
        "",
        "",
    ),
    (
        "facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)",
        Bot,
        "",
        "",
    ),
    (
        "meta-externalagent/1.1 (+https://developers.facebook.com/docs/sharing/webmasters/crawler)",
        Bot,
        "",
        "",
    ),
    ("Twitterbot/1.0", Bot, "", ""),
    (
        "Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)",
        Bot,
        "",
        "",
    ),
    (
        "Mozilla/5.0 (compatible; Discordbot/2.0; +https://discordapp.com)",
        Bot,
        "",
        "",
    ),
    ("WhatsApp/2.23.20.0", Bot, "", ""),
    ("TelegramBot (like TwitterBot)", Bot, "", ""),
    (
        "LinkedInBot/1.0 (compatible; Mozilla/5.0; Apache-HttpClient +http://www.linkedin.com)",
        Bot,
        "",
        "",
    ),
    (
        "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_11_1) AppleWebKit/601.2.4 (KHTML, like Gecko) Version/9.0.1 Safari/601.2.4 facebookexternalhit/1.1 Facebot Twitterbot/1.0",
        Bot,
        "",
        "",
    ),
    (
        "Mozilla/5.0 (compatible; YandexBot/3.0; +http://yandex.com/bots)",
        Bot,
        "",
        "",
    ),
    (
        "Mozilla/5.0 (compatible; Baiduspider/2.0; +http://www.baidu.com/search/spider.html)",
        Bot,
        "",
        "",
    ),
    (
        "Mozilla/5.0 (compatible; AhrefsBot/7.0; +http://ahrefs.com/robot/)",
        Bot,
        "",
        "",
    ),
    (
        "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/137.0.0.0 Safari/537.36",
        Bot,
        "",
        "",
    ),
    ("curl/8.14.1", Bot, "", ""),
    ("Wget/1.25.0", Bot, "", ""),
    ("python-requests/2.32.4", Bot, "", ""),
    ("Go-http-client/2.0", Bot, "", ""),
    ("okhttp/4.12.0", Bot, "", ""),
    ("axios/1.10.0", Bot, "", ""),
    (
        "node-fetch/1.0 (+https://github.com/bitinn/node-fetch)",
        Bot,
        "",
        "",
    ),
    ("", Bot, "", ""),
];

#[test]
fn todays_agents_are_classified_as_they_are() {
    let mut wrong = Vec::new();
    for (agent, device, os, browser) in CORPUS {
        let class = classify_agent(agent.as_bytes());
        let got = (class.device, &*class.os, &*class.browser);
        let right = if *device == Bot {
            class.bot && class.device == Bot
        } else {
            !class.bot && got == (*device, *os, *browser)
        };
        if !right {
            wrong.push(format!(
                "{agent}\n  got {got:?} (bot {}), want {device:?} {os} {browser}",
                class.bot
            ));
        }
    }
    assert!(
        wrong.is_empty(),
        "{} of {}:\n{}",
        wrong.len(),
        CORPUS.len(),
        wrong.join("\n")
    );
}
