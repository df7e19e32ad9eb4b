//! chhoto-url's `GET /api/all`: a JSON array of `{shortlink, longlink, hits, expiry_time,
//! notes}`, in creation order. `expiry_time` is Unix seconds (UTC), 0 for never; `notes` is
//! printable ASCII, `""` for none. It keeps no creation time, domain or password.

use anyhow::{Context as _, Result};
use linkapi_core::wire::primary::ImportChain;
use serde::Deserialize;

use super::PeerLink;

#[derive(Deserialize)]
struct Link {
    shortlink: String,
    longlink: String,
    #[serde(default)]
    hits: i64,
    #[serde(default)]
    expiry_time: i64,
    #[serde(default)]
    notes: Option<String>,
}

pub(super) fn read(name: &str, text: &str) -> Result<Vec<PeerLink>> {
    let links: Vec<Link> =
        serde_json::from_str(text).context("expected the JSON array /api/all answers")?;
    Ok(links
        .into_iter()
        .enumerate()
        .map(|(at, link)| {
            let item = ImportChain {
                code: link.shortlink,
                target_url: link.longlink,
                chain_title: link.notes.filter(|n| !n.is_empty()),
                valid_time: (link.expiry_time > 0).then_some(link.expiry_time),
                pv_history: Some(link.hits),
                ..ImportChain::default()
            };
            PeerLink::carried(format!("{name}#{}", at + 1), item, Vec::new())
        })
        .collect())
}
