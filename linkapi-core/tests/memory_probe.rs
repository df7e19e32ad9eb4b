//! What the memory tests of the real binaries share (included with `#[path]`): a process's
//! anonymous resident memory, and the largest bulk create there is.

#![allow(dead_code, clippy::unwrap_used)]

use serde_json::{Value, json};

pub const MIB: u64 = 1 << 20;

/// The process's anonymous resident memory (`RssAnon` of `/proc/PID/status`), in bytes.
pub fn rss_anon(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let line = status
        .lines()
        .find(|l| l.starts_with("RssAnon:"))
        .expect("RssAnon in /proc/PID/status");
    let kib: u64 = line
        .split_whitespace()
        .nth(1)
        .and_then(|n| n.parse().ok())
        .unwrap();
    kib * 1024
}

/// The largest bulk create: 10,000 chains of 1,400-character targets with a rule each
/// (about 27 MiB), their targets marked with `tag`.
pub fn largest_bulk(tag: &str) -> bytes::Bytes {
    let long = "a".repeat(1_350);
    let rule = "r".repeat(1_250);
    let chains: Vec<Value> = (0..10_000)
        .map(|i| {
            json!({
                "target_url": format!("https://example.com/{tag}/{long}/{i:05}"),
                "rules": [{"device": "ios", "target_url": format!("https://apps.example/{rule}")}],
            })
        })
        .collect();
    let body = serde_json::to_vec(&json!({ "chains": chains })).unwrap();
    assert!(
        body.len() > 25 * MIB as usize && body.len() < 32 * MIB as usize,
        "{}",
        body.len()
    );
    body.into()
}
