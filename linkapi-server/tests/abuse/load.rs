//! The well-behaved tenants and what they get: each sends one small request every 100 ms
//! (a create on the primary surface, a vendor-style create with its key in the body, a
//! redirect), to every instance in turn, and every answer is recorded with the phase it was
//! sent in. Beside them, the instances' memory is sampled.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::memory_probe::rss_anon;

/// What the tenants share with the test: the phase now, whether to stop, and the answers.
#[derive(Default)]
pub struct Board {
    started: std::sync::OnceLock<Instant>,
    pub phase: AtomicUsize,
    pub stop: AtomicBool,
    answers: Mutex<Vec<Answer>>,
    /// Per phase, the largest `RssAnon` of any instance.
    peaks: Mutex<Vec<u64>>,
}

/// One well-behaved request: its phase, what it was, how long it took, and what was wrong
/// with its answer, if anything.
#[derive(Debug, Clone)]
pub struct Answer {
    pub phase: usize,
    /// When it was sent, from the first tenant's start.
    pub at: Duration,
    pub kind: &'static str,
    pub took: Duration,
    pub wrong: Option<String>,
}

impl Board {
    pub fn in_phase(&self) -> usize {
        self.phase.load(Ordering::SeqCst)
    }

    fn record(&self, answer: Answer) {
        self.answers.lock().unwrap().push(answer);
    }

    /// The answers sent in `phase`.
    pub fn answers(&self, phase: usize) -> Vec<Answer> {
        let answers = self.answers.lock().unwrap();
        answers
            .iter()
            .filter(|a| a.phase == phase)
            .cloned()
            .collect()
    }

    /// The largest `RssAnon` seen in `phase`.
    pub fn peak(&self, phase: usize) -> u64 {
        self.peaks.lock().unwrap().get(phase).copied().unwrap_or(0)
    }
}

/// The `q`-quantile of the answers' durations.
pub fn quantile(answers: &[Answer], q: f64) -> Duration {
    let mut took: Vec<Duration> = answers.iter().map(|a| a.took).collect();
    took.sort();
    if took.is_empty() {
        return Duration::ZERO;
    }
    let at = ((took.len() as f64 * q).ceil() as usize).clamp(1, took.len()) - 1;
    took[at]
}

/// A well-behaved tenant's client: keep-alive, a timeout well past any bound.
pub fn client() -> reqwest::Client {
    let _ = rustls::crypto::ring::default_provider().install_default();
    reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .timeout(Duration::from_secs(20))
        .build()
        .unwrap()
}

/// What a well-behaved tenant sends.
#[derive(Clone)]
pub enum Tenant {
    /// `POST /chains` with a Bearer key.
    Creates { key: String },
    /// `POST /v1/chain/createChain` with `apikey` in the JSON body alone, as the vendor's
    /// client sends it.
    Vendor { key: String },
    /// `GET /{code}` of a chain that exists, on the short links' `host`.
    Visits { code: String, host: String },
}

impl Tenant {
    fn kind(&self) -> &'static str {
        match self {
            Tenant::Creates { .. } => "create",
            Tenant::Vendor { .. } => "vendor create",
            Tenant::Visits { .. } => "redirect",
        }
    }

    /// Sends one request to `base`; what was wrong with the answer, if anything.
    async fn once(&self, http: &reqwest::Client, base: &str, n: usize) -> Option<String> {
        let sent = match self {
            Tenant::Creates { key } => {
                http.post(format!("{base}/chains"))
                    .bearer_auth(key)
                    .json(&json!({"target_url": format!("https://example.com/calm/{n}")}))
                    .send()
                    .await
            }
            Tenant::Vendor { key } => {
                http.post(format!("{base}/v1/chain/createChain"))
                    .json(&json!({
                        "apikey": key,
                        "target_url": format!("https://example.com/vendor/{n}"),
                        "group_id": null, "domain": null, "chain_title": null, "valid_time": null,
                    }))
                    .send()
                    .await
            }
            Tenant::Visits { code, host } => {
                http.get(format!("{base}/{code}"))
                    .header("host", host)
                    .send()
                    .await
            }
        };
        let answer = match sent {
            Ok(answer) => answer,
            Err(err) => return Some(format!("no answer: {err}")),
        };
        let status = answer.status().as_u16();
        let text = answer.text().await.unwrap_or_default();
        let fine = match self {
            Tenant::Creates { .. } => status == 201,
            Tenant::Vendor { .. } => {
                status == 200
                    && serde_json::from_str::<Value>(&text).is_ok_and(|v| v["code"] == json!(1))
            }
            Tenant::Visits { .. } => status == 302,
        };
        (!fine).then(|| format!("{status} {}", text.chars().take(200).collect::<String>()))
    }
}

/// Runs `tenant` every 100 ms, against each of `bases` in turn, until the board says stop.
pub async fn run(board: Arc<Board>, tenant: Tenant, bases: Vec<String>) {
    let http = client();
    let mut tick = tokio::time::interval(Duration::from_millis(100));
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut n = 0;
    while !board.stop.load(Ordering::SeqCst) {
        tick.tick().await;
        let phase = board.in_phase();
        let started = Instant::now();
        let at = started.duration_since(*board.started.get_or_init(Instant::now));
        let wrong = tenant.once(&http, &bases[n % bases.len()], n).await;
        board.record(Answer {
            phase,
            at,
            kind: tenant.kind(),
            took: started.elapsed(),
            wrong,
        });
        n += 1;
    }
}

/// Samples the `pids`' memory every 20 ms into the board's peak of the phase, until stop.
pub async fn sample_memory(board: Arc<Board>, pids: Vec<u32>) {
    while !board.stop.load(Ordering::SeqCst) {
        let rss = pids.iter().map(|pid| rss_anon(*pid)).max().unwrap_or(0);
        let phase = board.in_phase();
        {
            let mut peaks = board.peaks.lock().unwrap();
            if peaks.len() <= phase {
                peaks.resize(phase + 1, 0);
            }
            peaks[phase] = peaks[phase].max(rss);
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}
