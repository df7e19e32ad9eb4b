//! What the abusive parties do, each within its limits: bulk creates of the largest size one
//! after another, bodies trickled in a byte a second (with a key, or with none), and
//! concurrent uploads of files near the size limit. Each runs until told to stop and says how
//! the server answered it.

use std::collections::BTreeMap;
use std::net::{IpAddr, SocketAddr};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// How many answers of each status an attack got (0: the connection closed unanswered).
#[derive(Default, Clone)]
pub struct Tally(Arc<Mutex<BTreeMap<u16, usize>>>);

impl Tally {
    fn add(&self, status: u16) {
        *self.0.lock().unwrap().entry(status).or_default() += 1;
    }

    pub fn counts(&self) -> BTreeMap<u16, usize> {
        self.0.lock().unwrap().clone()
    }
}

impl std::fmt::Debug for Tally {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:?}", self.counts())
    }
}

fn attacker() -> reqwest::Client {
    let _ = rustls::crypto::ring::default_provider().install_default();
    reqwest::Client::builder()
        .timeout(Duration::from_secs(300))
        .build()
        .unwrap()
}

/// Posts `body` to `POST /chains/bulk` with `key`, one request after another (to each base in
/// turn), until `stop`.
pub async fn bulks(
    stop: Arc<AtomicBool>,
    bases: Vec<String>,
    key: String,
    body: bytes::Bytes,
) -> Tally {
    let http = attacker();
    let tally = Tally::default();
    let mut n = 0;
    while !stop.load(Ordering::SeqCst) {
        let answer = http
            .post(format!("{}/chains/bulk", bases[n % bases.len()]))
            .bearer_auth(&key)
            .header("content-type", "application/json")
            .body(body.clone())
            .send()
            .await;
        match answer {
            Ok(answer) => {
                tally.add(answer.status().as_u16());
                let _ = answer.bytes().await;
            }
            Err(_) => tally.add(0),
        }
        n += 1;
    }
    tally
}

/// A request whose body trickles: its head (declaring `declared` bytes of JSON) and then one
/// byte a second.
#[derive(Clone)]
pub struct Trickle {
    pub path: &'static str,
    /// The key sent in `Authorization`, if any.
    pub key: Option<String>,
    pub declared: usize,
}

impl Trickle {
    fn head(&self, host: SocketAddr) -> String {
        let auth = self
            .key
            .as_ref()
            .map(|key| format!("Authorization: Bearer {key}\r\n"))
            .unwrap_or_default();
        format!(
            "POST {} HTTP/1.1\r\nHost: {host}\r\n{auth}Content-Type: application/json\r\n\
             Content-Length: {}\r\n\r\n{{\"target_url\": \"",
            self.path, self.declared
        )
    }
}

/// Holds `count` trickling requests open against `to` (from the local address `from`): one
/// the server answers or closes is opened again at once, until `stop`. Answers go to `tally`.
pub async fn trickles(
    stop: Arc<AtomicBool>,
    to: Vec<SocketAddr>,
    from: IpAddr,
    trickle: Trickle,
    count: usize,
    tally: Tally,
) {
    let mut tasks = tokio::task::JoinSet::new();
    for i in 0..count {
        let (stop, tally, trickle) = (stop.clone(), tally.clone(), trickle.clone());
        let to = to[i % to.len()];
        tasks.spawn(async move {
            while !stop.load(Ordering::SeqCst) {
                let status = trickle_once(&stop, to, from, &trickle).await;
                tally.add(status);
                // Told to come back later (its key's rate), it does, a second later: the
                // abuse is the trickling, not a flood of requests.
                if status == 429 {
                    tokio::time::sleep(Duration::from_secs(1)).await;
                }
            }
        });
    }
    while tasks.join_next().await.is_some() {}
}

/// One trickling request: the status the server answered (0 if it closed without one, or the
/// test stopped first).
async fn trickle_once(stop: &AtomicBool, to: SocketAddr, from: IpAddr, trickle: &Trickle) -> u16 {
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    socket.bind(SocketAddr::new(from, 0)).unwrap();
    let Ok(mut stream) = socket.connect(to).await else {
        tokio::time::sleep(Duration::from_millis(100)).await;
        return 0;
    };
    if stream.write_all(trickle.head(to).as_bytes()).await.is_err() {
        return 0;
    }
    let mut answer = Vec::new();
    let mut buf = [0u8; 4096];
    while !stop.load(Ordering::SeqCst) {
        tokio::select! {
            read = stream.read(&mut buf) => match read {
                Ok(0) | Err(_) => break,
                Ok(n) => {
                    answer.extend_from_slice(&buf[..n]);
                    if answer.windows(4).any(|w| w == b"\r\n\r\n") {
                        break;
                    }
                }
            },
            () = tokio::time::sleep(Duration::from_secs(1)) => {
                if stream.write_all(b"a").await.is_err() {
                    break;
                }
            }
        }
    }
    let text = String::from_utf8_lossy(&answer);
    text.split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0)
}

/// `count` clients uploading a file of their own (`files`, one each) to `POST /uploads`, one
/// upload after another, until `stop`.
pub async fn uploads(
    stop: Arc<AtomicBool>,
    bases: Vec<String>,
    key: String,
    files: Vec<Vec<u8>>,
) -> Tally {
    let tally = Tally::default();
    let mut tasks = tokio::task::JoinSet::new();
    for (i, file) in files.into_iter().enumerate() {
        let (stop, tally, key) = (stop.clone(), tally.clone(), key.clone());
        // Sent from one copy, as a client streaming a file would.
        let file = bytes::Bytes::from(file);
        let base = bases[i % bases.len()].clone();
        tasks.spawn(async move {
            let http = attacker();
            while !stop.load(Ordering::SeqCst) {
                let length = file.len() as u64;
                let body = reqwest::Body::from(file.clone());
                let part = reqwest::multipart::Part::stream_with_length(body, length)
                    .file_name(format!("big{i}.png"))
                    .mime_str("image/png")
                    .unwrap();
                let form = reqwest::multipart::Form::new().part("file", part);
                let answer = http
                    .post(format!("{base}/uploads"))
                    .bearer_auth(&key)
                    .multipart(form)
                    .send()
                    .await;
                match answer {
                    Ok(answer) => {
                        tally.add(answer.status().as_u16());
                        let _ = answer.bytes().await;
                    }
                    Err(_) => tally.add(0),
                }
            }
        });
    }
    while tasks.join_next().await.is_some() {}
    tally
}
