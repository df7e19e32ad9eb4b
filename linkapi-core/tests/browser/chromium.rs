//! A real headless Chromium, driven over the DevTools protocol, for tests of the pages people
//! see. Debian's `chromium` package; `LINKAPI_CHROMIUM` names another binary. When `CI` or
//! `LINKAPI_TEST_BROWSER` is set the browser is required, otherwise the tests that need it
//! are listed as ignored when it is missing ([`missing`]).

use std::path::PathBuf;
use std::process::Stdio;
use std::time::Duration;

use base64::Engine;
use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

/// A phone's user agent: pages are visited as a person would, not as a headless bot.
pub const PHONE_AGENT: &str = "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 \
     (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36";
/// A phone-sized viewport, in CSS pixels.
pub const VIEWPORT: (u32, u32) = (390, 844);
const TIMEOUT: Duration = Duration::from_secs(20);

fn required() -> bool {
    ["CI", "LINKAPI_TEST_BROWSER"]
        .iter()
        .any(|v| std::env::var_os(v).is_some_and(|v| !v.is_empty()))
}

fn binary() -> Option<PathBuf> {
    if let Some(path) = std::env::var_os("LINKAPI_CHROMIUM") {
        return Some(PathBuf::from(path));
    }
    [
        "/usr/bin/chromium",
        "/usr/bin/chromium-browser",
        "/usr/bin/google-chrome",
    ]
    .into_iter()
    .map(PathBuf::from)
    .find(|p| p.exists())
}

/// Whether the tests are to be ignored: no browser is installed and none is required.
pub fn missing() -> bool {
    binary().is_none() && !required()
}

pub struct Browser {
    child: tokio::process::Child,
    socket: WebSocketStream<MaybeTlsStream<TcpStream>>,
    session: String,
    next_id: u64,
    /// Events received since the last page was opened.
    events: Vec<Value>,
    _profile: tempfile::TempDir,
}

/// What a page showed the browser.
#[derive(Debug)]
pub struct PageCheck {
    /// Every image's `src` and whether it loaded.
    pub images: Vec<(String, bool)>,
    /// The button's `href`, if there is a button.
    pub button: Option<String>,
    /// `<script>` elements in the document.
    pub scripts: i64,
    /// Elements carrying an `on*` attribute.
    pub handlers: i64,
    /// Whether any injected script ran (it would set `window.__pwned`).
    pub pwned: bool,
    /// The document's width: wider than the viewport means sideways scrolling on a phone.
    pub scroll_width: i64,
    /// The text a person reads.
    pub text: String,
    /// Elements drawn as a box (a background, border or shadow) with nothing in them: no text,
    /// no image. A person sees an empty card.
    pub empty_boxes: Vec<String>,
    /// Console errors, uncaught exceptions and errors the browser logged.
    pub errors: Vec<String>,
}

impl Browser {
    /// Starts a browser; `None` when there is none and none is required (the harness lists
    /// the tests as ignored then, unless asked to run them with `--include-ignored`).
    pub async fn launch() -> Option<Browser> {
        let Some(binary) = binary() else {
            assert!(
                !required(),
                "a headless Chromium is required for this run (apt-get install chromium)"
            );
            return None;
        };
        let profile = tempfile::TempDir::new().expect("profile dir");
        let mut child = tokio::process::Command::new(binary)
            .args([
                "--headless=new",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-dev-shm-usage",
                "--no-first-run",
                "--no-default-browser-check",
                "--disable-extensions",
                "--hide-scrollbars",
                "--remote-debugging-port=0",
                &format!("--user-data-dir={}", profile.path().display()),
                &format!("--user-agent={PHONE_AGENT}"),
                "about:blank",
            ])
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .kill_on_drop(true)
            .spawn()
            .expect("start chromium");
        let stderr = child.stderr.take().expect("stderr");
        let mut lines = BufReader::new(stderr).lines();
        let url = tokio::time::timeout(TIMEOUT, async {
            while let Some(line) = lines.next_line().await.expect("chromium output") {
                if let Some(at) = line.find("ws://") {
                    return line[at..].trim().to_owned();
                }
            }
            panic!("chromium exited before it listened");
        })
        .await
        .expect("chromium did not start in time");
        // Keep draining stderr so the browser never blocks on a full pipe.
        tokio::spawn(async move { while let Ok(Some(_)) = lines.next_line().await {} });
        let (socket, _) = tokio_tungstenite::connect_async(url.as_str())
            .await
            .expect("connect to the DevTools socket");
        let mut browser = Browser {
            child,
            socket,
            session: String::new(),
            next_id: 0,
            events: Vec::new(),
            _profile: profile,
        };
        let target = browser
            .call("Target.createTarget", json!({"url": "about:blank"}))
            .await;
        let attached = browser
            .call(
                "Target.attachToTarget",
                json!({"targetId": target["targetId"], "flatten": true}),
            )
            .await;
        browser.session = attached["sessionId"].as_str().expect("session").to_owned();
        for domain in ["Page.enable", "Runtime.enable", "Log.enable"] {
            browser.call(domain, json!({})).await;
        }
        browser
            .call(
                "Emulation.setDeviceMetricsOverride",
                json!({"width": VIEWPORT.0, "height": VIEWPORT.1, "deviceScaleFactor": 2,
                       "mobile": true}),
            )
            .await;
        Some(browser)
    }

    /// Sends a command (to the page once attached) and waits for its answer.
    async fn call(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        let mut message = json!({"id": id, "method": method, "params": params});
        if !self.session.is_empty() {
            message["sessionId"] = json!(self.session);
        }
        self.socket
            .send(Message::text(message.to_string()))
            .await
            .expect("send to chromium");
        loop {
            let value = self.receive().await;
            if value["id"] == json!(id) {
                assert!(value.get("error").is_none(), "{method}: {value}");
                return value["result"].clone();
            }
            self.events.push(value);
        }
    }

    async fn receive(&mut self) -> Value {
        loop {
            let message = tokio::time::timeout(TIMEOUT, self.socket.next())
                .await
                .expect("chromium answered in time")
                .expect("chromium is connected")
                .expect("a DevTools message");
            if let Message::Text(text) = message {
                return serde_json::from_str(text.as_str()).expect("DevTools JSON");
            }
        }
    }

    /// Evaluates `expression` in the page and returns its value.
    pub async fn eval(&mut self, expression: &str) -> Value {
        let result = self
            .call(
                "Runtime.evaluate",
                json!({"expression": expression, "returnByValue": true}),
            )
            .await;
        result["result"]["value"].clone()
    }

    /// Opens `url`, waits for it to load (images included), and reports what it showed.
    pub async fn open(&mut self, url: &str) -> PageCheck {
        self.events.clear();
        self.call("Page.navigate", json!({"url": url})).await;
        let loaded = self
            .events
            .iter()
            .any(|e| e["method"] == "Page.loadEventFired");
        if !loaded {
            loop {
                let event = self.receive().await;
                let done = event["method"] == "Page.loadEventFired";
                self.events.push(event);
                if done {
                    break;
                }
            }
        }
        let images = self
            .eval(
                "Array.from(document.images).map(i => [i.getAttribute('src'), \
                 i.complete && i.naturalWidth > 0])",
            )
            .await;
        let button = self
            .eval("(document.querySelector('a.button') || {getAttribute: () => null}).getAttribute('href')")
            .await;
        let scripts = self.eval("document.scripts.length").await;
        let handlers = self
            .eval(
                "Array.from(document.querySelectorAll('*')).filter(e => \
                 Array.from(e.attributes).some(a => a.name.startsWith('on'))).length",
            )
            .await;
        let pwned = self.eval("window.__pwned !== undefined").await;
        let scroll_width = self.eval("document.documentElement.scrollWidth").await;
        let text = self
            .eval("document.body ? document.body.innerText : ''")
            .await;
        let empty_boxes = self
            .eval(
                "Array.from(document.querySelectorAll('body *')).filter(e => { \
                   if (['IMG', 'SVG', 'VIDEO', 'CANVAS'].includes(e.tagName)) return false; \
                   const s = getComputedStyle(e), r = e.getBoundingClientRect(); \
                   if (s.display === 'none' || s.visibility === 'hidden' || !r.width || !r.height) return false; \
                   const boxed = s.boxShadow !== 'none' \
                     || !['rgba(0, 0, 0, 0)', 'transparent'].includes(s.backgroundColor) \
                     || s.backgroundImage !== 'none' \
                     || ['Top', 'Right', 'Bottom', 'Left'].some(side => parseFloat(s['border' + side + 'Width']) > 0); \
                   return boxed && e.innerText.trim() === '' && !e.querySelector('img, svg, video, canvas'); \
                 }).map(e => e.tagName.toLowerCase() + (e.className ? '.' + e.className : ''))",
            )
            .await;
        PageCheck {
            images: images
                .as_array()
                .map(|list| {
                    list.iter()
                        .map(|pair| {
                            (
                                pair[0].as_str().unwrap_or_default().to_owned(),
                                pair[1].as_bool().unwrap_or(false),
                            )
                        })
                        .collect()
                })
                .unwrap_or_default(),
            button: button.as_str().map(str::to_owned),
            scripts: scripts.as_i64().unwrap_or(-1),
            handlers: handlers.as_i64().unwrap_or(-1),
            pwned: pwned.as_bool().unwrap_or(true),
            scroll_width: scroll_width.as_i64().unwrap_or(i64::MAX),
            text: text.as_str().unwrap_or_default().to_owned(),
            empty_boxes: empty_boxes
                .as_array()
                .map(|list| {
                    list.iter()
                        .map(|e| e.as_str().unwrap_or_default().to_owned())
                        .collect()
                })
                .unwrap_or_else(|| vec![format!("not evaluated: {empty_boxes}")]),
            errors: self.errors(),
        }
    }

    fn errors(&self) -> Vec<String> {
        self.events
            .iter()
            .filter_map(|e| match e["method"].as_str() {
                Some("Runtime.exceptionThrown") => {
                    Some(e["params"]["exceptionDetails"].to_string())
                }
                Some("Runtime.consoleAPICalled") if e["params"]["type"] == "error" => {
                    Some(e["params"]["args"].to_string())
                }
                Some("Log.entryAdded") if e["params"]["entry"]["level"] == "error" => {
                    Some(format!(
                        "{} {}",
                        e["params"]["entry"]["text"], e["params"]["entry"]["url"]
                    ))
                }
                _ => None,
            })
            .collect()
    }

    /// A PNG of the viewport.
    pub async fn screenshot(&mut self) -> Vec<u8> {
        let shot = self
            .call("Page.captureScreenshot", json!({"format": "png"}))
            .await;
        base64::engine::general_purpose::STANDARD
            .decode(shot["data"].as_str().expect("image data"))
            .expect("base64 image")
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.child.start_kill();
    }
}
