//! Bitly's links CSV export, read by its header row, whose names are matched without regard
//! to case, spaces or punctuation: the short link (`Bitlink` or `link`, `bit.ly/3AbC` with or
//! without a scheme), `Long URL`, `Title`, the creation time (`Created`, `Date Created` or
//! `created_at`: `YYYY-MM-DD HH:MM:SS` in UTC or ISO 8601, Bitly's `+0000` offsets included),
//! the clicks (`Clicks`, `Engagements` or their totals), `Tags` and `Archived`.

use anyhow::{Result, bail};
use linkapi_core::wire::primary::ImportChain;

use super::{PeerLink, utc_text};

/// A header name as it is matched: lower-case letters and digits only.
fn key(header: &str) -> String {
    header
        .chars()
        .filter(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_lowercase())
        .collect()
}

/// The column of the first of `names` the header has.
fn column(headers: &[String], names: &[&str]) -> Option<usize> {
    names
        .iter()
        .find_map(|name| headers.iter().position(|h| h == name))
}

/// A time as Bitly writes it, `+0000` offsets given their colon.
fn bitly_time(text: &str) -> Option<String> {
    let text = text.trim();
    let bytes = text.as_bytes();
    let n = bytes.len();
    let offset = n > 5
        && matches!(bytes[n - 5], b'+' | b'-')
        && bytes[n - 4..].iter().all(u8::is_ascii_digit);
    if offset {
        utc_text(&format!("{}:{}", &text[..n - 2], &text[n - 2..]))
    } else {
        utc_text(text)
    }
}

pub(super) fn read(name: &str, text: &str) -> Result<Vec<PeerLink>> {
    let mut reader = csv::ReaderBuilder::new()
        .flexible(true)
        .trim(csv::Trim::All)
        .from_reader(text.as_bytes());
    let headers: Vec<String> = reader.headers()?.iter().map(key).collect();
    let Some(short) = column(&headers, &["bitlink", "link", "shortlink", "shorturl"]) else {
        bail!("the CSV header has no Bitlink (or link) column");
    };
    let Some(long) = column(&headers, &["longurl", "destination", "destinationurl"]) else {
        bail!("the CSV header has no Long URL column");
    };
    let title = column(&headers, &["title"]);
    let created = column(
        &headers,
        &[
            "created",
            "createdat",
            "datecreated",
            "createdutc",
            "creationdate",
        ],
    );
    let clicks = column(
        &headers,
        &["clicks", "totalclicks", "engagements", "totalengagements"],
    );
    let tags = column(&headers, &["tags"]);
    let archived = column(&headers, &["archived"]);
    let mut links = Vec::new();
    for record in reader.records() {
        let record = record?;
        let source = format!("{name}:{}", record.position().map_or(0, |p| p.line()));
        let cell = |at: Option<usize>| at.and_then(|at| record.get(at)).filter(|c| !c.is_empty());
        let bitlink = cell(Some(short)).unwrap_or_default();
        let bare = ["https://", "http://"]
            .iter()
            .find_map(|scheme| bitlink.strip_prefix(scheme))
            .unwrap_or(bitlink);
        let Some((host, code)) = bare.split_once('/') else {
            links.push(PeerLink::not_carried(
                source,
                bitlink,
                format!("{bitlink:?} is not a short link (domain/code)"),
            ));
            continue;
        };
        let Some(target) = cell(Some(long)) else {
            links.push(PeerLink::not_carried(
                source,
                code,
                "the row has no Long URL",
            ));
            continue;
        };
        let mut notes = Vec::new();
        if let Some(tags) = cell(tags) {
            notes.push(format!("tags not carried: {tags}"));
        }
        let created_at = cell(created).and_then(bitly_time);
        // Bitly says whether a link is archived, not since when: from its creation on.
        let archived = cell(archived).is_some_and(|a| a.eq_ignore_ascii_case("true") || a == "1");
        if archived && created_at.is_none() {
            notes.push("archived in Bitly, but with no creation time: not archived".to_owned());
        }
        let item = ImportChain {
            code: code.trim_end_matches('/').to_owned(),
            domain: Some(host.to_owned()),
            target_url: target.to_owned(),
            chain_title: cell(title).map(str::to_owned),
            archived_at: created_at.clone().filter(|_| archived),
            created_at,
            pv_history: cell(clicks).and_then(|c| c.replace(',', "").parse().ok()),
            ..ImportChain::default()
        };
        links.push(PeerLink::carried(source, item, notes));
    }
    Ok(links)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bitly_offsets_read_without_their_colon() {
        assert_eq!(
            bitly_time("2024-05-01T10:00:00+0000").as_deref(),
            Some("2024-05-01T10:00:00Z")
        );
        assert_eq!(
            bitly_time("2024-05-01T12:00:00+0200").as_deref(),
            Some("2024-05-01T10:00:00Z")
        );
        assert_eq!(
            bitly_time("2024-05-01 10:00:00").as_deref(),
            Some("2024-05-01T10:00:00Z")
        );
        assert_eq!(key("Date Created (UTC)"), "datecreatedutc");
    }
}
