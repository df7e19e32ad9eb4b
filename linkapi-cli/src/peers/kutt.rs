//! Kutt's `GET /api/v2/links` pages, `{total, limit, skip, data: [...]}` (or the bare list),
//! from the user's listing or the admin one (`/api/v2/links/admin`), which writes the same
//! links differently: `banned` 0/1, `visit_count` a formatted string ("1,234") and `domain`
//! the default domain's host with `domain_id` null.
//!
//! `created_at` is ISO 8601 in UTC; `expire_in` is `YYYY-MM-DD HH:MM:SS` in UTC or null;
//! `password` says whether the link is protected (the hash stays in Kutt's database).

use anyhow::{Context as _, Result};
use linkapi_core::wire::primary::ImportChain;
use serde::Deserialize;
use serde_json::Value;

use super::{PeerLink, utc_text};

#[derive(Deserialize)]
#[serde(untagged)]
enum Listing {
    Page { data: Vec<Value> },
    Bare(Vec<Value>),
}

pub(super) fn read(name: &str, text: &str) -> Result<Vec<PeerLink>> {
    let listing: Listing = serde_json::from_str(text)
        .context("expected a page of /api/v2/links: {\"total\", \"data\": [...]}")?;
    let (Listing::Page { data } | Listing::Bare(data)) = listing;
    Ok(data
        .iter()
        .enumerate()
        .map(|(at, link)| one(format!("{name}#{}", at + 1), link))
        .collect())
}

fn one(source: String, link: &Value) -> PeerLink {
    let text = |field: &str| link.get(field).and_then(Value::as_str);
    let code = text("address").unwrap_or_default();
    let Some(target) = text("target") else {
        return PeerLink::not_carried(source, code, "the link has no target");
    };
    if link.get("password").and_then(Value::as_bool) == Some(true) {
        return PeerLink::not_carried(
            source,
            code,
            "it is password-protected, and linkapi links have no passwords yet: imported, it \
             would open to everyone",
        );
    }
    let mut notes = Vec::new();
    // The admin listing names the default domain by its host, with no domain id.
    let admin = link.get("domain_id").is_some();
    let domain = match (admin, link.get("domain_id")) {
        (true, Some(Value::Null)) => None,
        _ => text("domain").map(str::to_owned),
    };
    let visits = match link.get("visit_count") {
        Some(Value::Number(n)) => n.as_i64(),
        Some(Value::String(s)) => s.replace([',', '.', ' '], "").parse().ok(),
        _ => None,
    };
    let banned = matches!(link.get("banned"), Some(Value::Bool(true)))
        || link.get("banned").and_then(Value::as_i64) == Some(1);
    if banned {
        notes.push("banned in Kutt: imported disabled".to_owned());
    }
    let item = ImportChain {
        code: code.to_owned(),
        domain,
        target_url: target.to_owned(),
        chain_title: text("description").map(str::to_owned),
        status: banned.then_some(3),
        valid_time: text("expire_in")
            .and_then(linkapi_core::clock::parse_flexible)
            .filter(|at| *at != 0),
        created_at: text("created_at").and_then(utc_text),
        pv_history: visits,
        ..ImportChain::default()
    };
    PeerLink::carried(source, item, notes)
}
