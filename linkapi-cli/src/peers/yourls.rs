//! YOURLS, which has no export: a dump of its `yourls_url` table (`mariadb-dump yourls
//! yourls_url`), whose columns are `keyword`, `url`, `title`, `timestamp` (creation, UTC in
//! dumps, which set `TIME_ZONE='+00:00'`), `ip` and `clicks`. Keywords are case-sensitive.

use anyhow::{Result, bail};
use linkapi_core::wire::primary::ImportChain;

use super::{PeerLink, sql, utc_text};

/// The table's columns in its own order, for statements that name none.
const COLUMNS: [&str; 6] = ["keyword", "url", "title", "timestamp", "ip", "clicks"];

pub(super) fn read(name: &str, text: &str) -> Result<Vec<PeerLink>> {
    let (named, rows) = sql::rows(text, "yourls_url")?;
    let columns: Vec<&str> = if named.is_empty() {
        COLUMNS.to_vec()
    } else {
        named.iter().map(String::as_str).collect()
    };
    let at = |column: &str| columns.iter().position(|c| *c == column);
    let (Some(keyword), Some(url)) = (at("keyword"), at("url")) else {
        bail!("the rows have no keyword or url column");
    };
    let (title, timestamp, clicks) = (at("title"), at("timestamp"), at("clicks"));
    Ok(rows
        .into_iter()
        .map(|row| {
            let value = |at: Option<usize>| at.and_then(|at| row.values.get(at).cloned().flatten());
            let source = format!("{name}:{}", row.line);
            let code = value(Some(keyword)).unwrap_or_default();
            let Some(target) = value(Some(url)) else {
                return PeerLink::not_carried(source, &code, "the row has no url");
            };
            let item = ImportChain {
                code,
                target_url: target,
                chain_title: value(title).filter(|t| !t.is_empty()),
                created_at: value(timestamp).as_deref().and_then(utc_text),
                pv_history: value(clicks).and_then(|c| c.parse().ok()),
                ..ImportChain::default()
            };
            PeerLink::carried(source, item, Vec::new())
        })
        .collect())
}
