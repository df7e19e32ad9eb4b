//! Shlink's `GET /rest/v3/short-urls` pages, `{"shortUrls": {"data": [...], "pagination":
//! {...}}}`. Each short URL has `shortCode`, `longUrl`, `dateCreated` (ISO 8601 with the
//! server's offset), `visitsSummary.total` (`visitsCount` before Shlink 3), `tags`, `meta`
//! (`validSince`, `validUntil`, `maxVisits`), `domain` (null for the default domain), `title`
//! and, since 3.5, `deviceLongUrls` (`android`, `ios`, `desktop`).

use anyhow::{Context as _, Result};
use linkapi_core::wire::primary::{ImportChain, RedirectRule};
use serde::Deserialize;
use serde_json::Value;

use super::{PeerLink, utc_text};

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Listing {
    short_urls: Page,
}

#[derive(Deserialize)]
struct Page {
    data: Vec<Value>,
}

pub(super) fn read(name: &str, text: &str) -> Result<Vec<PeerLink>> {
    let listing: Listing = serde_json::from_str(text)
        .context("expected a page of /rest/v3/short-urls: {\"shortUrls\": {\"data\": [...]}}")?;
    Ok(listing
        .short_urls
        .data
        .iter()
        .enumerate()
        .map(|(at, link)| one(format!("{name}#{}", at + 1), link))
        .collect())
}

fn one(source: String, link: &Value) -> PeerLink {
    let text =
        |value: &Value, field: &str| value.get(field).and_then(Value::as_str).map(str::to_owned);
    let code = text(link, "shortCode").unwrap_or_default();
    let Some(target) = text(link, "longUrl") else {
        return PeerLink::not_carried(source, &code, "the short URL has no longUrl");
    };
    let meta = link.get("meta").cloned().unwrap_or(Value::Null);
    let mut notes = Vec::new();
    if let Some(tags) = link
        .get("tags")
        .and_then(Value::as_array)
        .filter(|t| !t.is_empty())
    {
        let tags: Vec<&str> = tags.iter().filter_map(Value::as_str).collect();
        notes.push(format!("tags not carried: {}", tags.join(", ")));
    }
    let visits = link
        .pointer("/visitsSummary/total")
        .or_else(|| link.get("visitsCount"))
        .and_then(Value::as_i64);
    // Shlink counts every visit so far against `maxVisits`.
    let max_visits = meta.get("maxVisits").and_then(Value::as_i64);
    let visits_left = max_visits.map(|max| (max - visits.unwrap_or(0)).max(0));
    // A device's own target is a rule for that device.
    let rules = ["android", "ios", "desktop"]
        .iter()
        .filter_map(|device| {
            let target = link
                .pointer(&format!("/deviceLongUrls/{device}"))?
                .as_str()?;
            Some(RedirectRule {
                device: Some((*device).to_owned()),
                target_url: target.to_owned(),
                ..RedirectRule::default()
            })
        })
        .collect();
    let item = ImportChain {
        code,
        domain: text(link, "domain"),
        target_url: target,
        chain_title: text(link, "title"),
        valid_time: text(&meta, "validUntil")
            .as_deref()
            .and_then(linkapi_core::clock::parse_flexible)
            .filter(|at| *at != 0),
        created_at: text(link, "dateCreated").as_deref().and_then(utc_text),
        rules,
        pv_history: visits,
        valid_since: text(&meta, "validSince")
            .as_deref()
            .and_then(linkapi_core::clock::parse_flexible),
        max_visits,
        visits_left,
        ..ImportChain::default()
    };
    PeerLink::carried(source, item, notes)
}
