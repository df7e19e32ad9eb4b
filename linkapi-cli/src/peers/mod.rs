//! What other shorteners give their operators, read into the chains `POST /chains/import`
//! takes: one reader per peer, each turning the peer's own fields, time formats and zones into
//! ours, and saying what the peer keeps that cannot come over.
//!
//! A reader answers every link it found, in the file's order, each as the chain to import or
//! the reason it is not carried (a password link, until links have passwords). Anything the
//! server must judge (codes, targets, domains) is left to the server, which reports it.

mod bitly;
mod chhoto;
mod kutt;
mod shlink;
mod sql;
mod yourls;

use anyhow::{Context as _, Result, bail};
use clap::ValueEnum;
use linkapi_core::wire::primary::{
    EXPORT_CSV_COLUMNS, EXPORT_CSV_COLUMNS_BEFORE_OPTIONS, ImportChain, RedirectRule,
};

/// The shorteners `linkapi import --from` reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Peer {
    /// chhoto-url: its `GET /api/all` JSON
    Chhoto,
    /// Kutt: its `GET /api/v2/links` JSON pages (the user's or the admin listing)
    Kutt,
    /// YOURLS: a `mysqldump`/`mariadb-dump` of its `yourls_url` table
    Yourls,
    /// Shlink: its `GET /rest/v3/short-urls` JSON pages
    Shlink,
    /// Bitly: its links CSV export
    Bitly,
    /// linkapi: `linkapi chain export` (JSON lines or CSV)
    Linkapi,
}

impl Peer {
    /// The peer's name as people write it.
    pub fn name(self) -> &'static str {
        match self {
            Peer::Chhoto => "chhoto-url",
            Peer::Kutt => "Kutt",
            Peer::Yourls => "YOURLS",
            Peer::Shlink => "Shlink",
            Peer::Bitly => "Bitly",
            Peer::Linkapi => "linkapi",
        }
    }

    /// What the peer itself lost or rewrote before its data reached the file, or keeps and
    /// an import cannot carry: said once at the end of an import from it.
    pub fn caveats(self) -> &'static [&'static str] {
        match self {
            Peer::Chhoto => &[
                "chhoto-url keeps no creation time: its links get the time of the import.",
                "chhoto-url leaves expired links out of /api/all, so they are not imported.",
            ],
            Peer::Kutt => &[
                "Kutt keeps visits as hourly counters; the totals (visit_count) come over as \
                 imported visits, not the hours.",
                "Kutt deletes expired links every 30 s, so those are gone from its listing.",
            ],
            Peer::Yourls => &[
                "YOURLS stripped HTML tags from titles and dropped characters other than \
                 letters and digits from keywords when the links were made; they come over as \
                 YOURLS stored them.",
                "YOURLS keeps no expiry; its click totals come over as imported visits, not \
                 the yourls_log rows.",
            ],
            Peer::Shlink => &[
                "Shlink's tags are not carried yet; each link that has them says so.",
                "Shlink counts every visit, bots included, against maxVisits; a link comes \
                 over with maxVisits and the visits Shlink had left.",
            ],
            Peer::Bitly => &[
                "Bitly's links are on its own domains: give --domain to put them on one of \
                 yours, else each is reported.",
            ],
            Peer::Linkapi => &[],
        }
    }
}

/// One link found in a peer's file.
#[derive(Debug, Clone)]
pub struct PeerLink {
    /// Where it was found: `FILE:LINE` or `FILE#N`.
    pub source: String,
    /// Its code as the peer had it.
    pub code: String,
    /// The chain to import, or why it is not carried.
    pub item: std::result::Result<ImportChain, String>,
    /// What the reader changed or left behind (the server adds its own).
    pub notes: Vec<String>,
}

impl PeerLink {
    fn carried(source: String, item: ImportChain, notes: Vec<String>) -> Self {
        PeerLink {
            source,
            code: item.code.clone(),
            item: Ok(item),
            notes,
        }
    }

    fn not_carried(source: String, code: &str, why: impl Into<String>) -> Self {
        PeerLink {
            source,
            code: code.to_owned(),
            item: Err(why.into()),
            notes: Vec::new(),
        }
    }
}

/// The links of `text`, read from the file `name` as `peer` writes it.
///
/// # Errors
/// When the file is not what `peer` writes at all (not JSON, no table, no header); a link
/// that cannot be read is that link's reason.
pub fn read(peer: Peer, name: &str, text: &str) -> Result<Vec<PeerLink>> {
    let links = match peer {
        Peer::Chhoto => chhoto::read(name, text),
        Peer::Kutt => kutt::read(name, text),
        Peer::Yourls => yourls::read(name, text),
        Peer::Shlink => shlink::read(name, text),
        Peer::Bitly => bitly::read(name, text),
        Peer::Linkapi => read_linkapi(name, text),
    }
    .with_context(|| format!("reading {name} as {} wrote it", peer.name()))?;
    Ok(links)
}

/// A time the peer wrote as Unix seconds, `YYYY-MM-DD HH:MM:SS` in UTC or RFC 3339, as the
/// import reads it (RFC 3339); `None` for an empty one.
fn utc_text(text: &str) -> Option<String> {
    let at = linkapi_core::clock::parse_flexible(text)?;
    (at != 0).then(|| linkapi_core::clock::format_rfc3339(at))
}

/// A linkapi export: JSON lines (each line an exported chain) or its CSV.
fn read_linkapi(name: &str, text: &str) -> Result<Vec<PeerLink>> {
    if text.trim_start().starts_with('{') || text.trim().is_empty() {
        return Ok(text
            .lines()
            .enumerate()
            .filter(|(_, line)| !line.trim().is_empty())
            .map(|(at, line)| {
                let source = format!("{name}:{}", at + 1);
                match serde_json::from_str::<ImportChain>(line) {
                    Ok(item) => PeerLink::carried(source, item, Vec::new()),
                    Err(err) => PeerLink::not_carried(source, "", err.to_string()),
                }
            })
            .collect());
    }
    let mut reader = csv::ReaderBuilder::new().from_reader(text.as_bytes());
    let headers: Vec<String> = reader.headers()?.iter().map(str::to_owned).collect();
    // An export made before (some of) the link options has their columns missing, and
    // imports too.
    let columns = headers.len();
    if !(EXPORT_CSV_COLUMNS_BEFORE_OPTIONS..=EXPORT_CSV_COLUMNS.len()).contains(&columns)
        || headers != EXPORT_CSV_COLUMNS[..columns]
    {
        bail!(
            "the CSV header is not a linkapi export's ({})",
            EXPORT_CSV_COLUMNS.join(",")
        );
    }
    let mut links = Vec::new();
    for record in reader.records() {
        let record = record?;
        let line = record.position().map_or(0, |p| p.line());
        let source = format!("{name}:{line}");
        let cell = |column: &str| {
            let at = headers.iter().position(|c| c == column);
            at.and_then(|at| record.get(at)).unwrap_or_default()
        };
        let read = || -> std::result::Result<ImportChain, String> {
            let number = |column: &str| {
                cell(column)
                    .parse::<i64>()
                    .map_err(|_| format!("{column} {:?} is not a number", cell(column)))
            };
            let groups: Vec<String> =
                serde_json::from_str(cell("groups")).map_err(|e| format!("groups: {e}"))?;
            let rules: Vec<RedirectRule> =
                serde_json::from_str(cell("rules")).map_err(|e| format!("rules: {e}"))?;
            let text = |column: &str| Some(cell(column).to_owned()).filter(|t| !t.is_empty());
            let option = |column: &str| text(column).map(|_| number(column)).transpose();
            Ok(ImportChain {
                code: cell("code").to_owned(),
                domain: text("domain"),
                target_url: cell("target_url").to_owned(),
                chain_title: text("chain_title"),
                status: Some(number("status")?),
                valid_time: Some(number("valid_time")?),
                created_at: text("created_at"),
                archived_at: text("archived_at"),
                groups,
                rules,
                pv_history: Some(number("pv_history")?),
                redirect_status: option("redirect_status")?,
                valid_since: option("valid_since")?,
                max_visits: option("max_visits")?,
                visits_left: option("visits_left")?,
                preview_title: text("preview_title"),
                preview_description: text("preview_description"),
                preview_image: text("preview_image"),
            })
        };
        links.push(match read() {
            Ok(item) => PeerLink::carried(source, item, Vec::new()),
            Err(why) => PeerLink::not_carried(source, cell("code"), why),
        });
    }
    Ok(links)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn peer_times_are_read_in_utc() {
        assert_eq!(
            utc_text("2026-12-01 22:52:46").as_deref(),
            Some("2026-12-01T22:52:46Z")
        );
        assert_eq!(
            utc_text("2016-08-21T20:34:16+02:00").as_deref(),
            Some("2016-08-21T18:34:16Z")
        );
        assert_eq!(
            utc_text("1764629566").as_deref(),
            Some("2025-12-01T22:52:46Z")
        );
        assert_eq!(utc_text("0"), None);
        assert_eq!(utc_text(""), None);
    }

    #[test]
    fn exports_from_before_each_link_option_still_read() {
        let header = EXPORT_CSV_COLUMNS[..EXPORT_CSV_COLUMNS_BEFORE_OPTIONS].join(",");
        let row = "abc,,https://example.com/,Title,0,0,2026-12-01T00:00:00Z,,\"[]\",\"[]\",4";
        let links = read_linkapi("old.csv", &format!("{header}\n{row}\n")).expect("an old export");
        let [link] = &links[..] else {
            panic!("one link: {links:?}")
        };
        let item = link.item.as_ref().expect("carried");
        assert_eq!(item.code, "abc");
        assert_eq!(item.pv_history, Some(4));
        assert_eq!((item.redirect_status, item.max_visits), (None, None));

        let header = EXPORT_CSV_COLUMNS[..15].join(",");
        let row = format!("{row},308,1000,5,2");
        let links = read_linkapi("options.csv", &format!("{header}\n{row}\n")).expect("older");
        let item = links[0].item.as_ref().expect("carried");
        assert_eq!(item.redirect_status, Some(308));
        assert_eq!(item.valid_since, Some(1000));
        assert_eq!((item.max_visits, item.visits_left), (Some(5), Some(2)));
        assert_eq!(item.preview_title, None);

        let header = EXPORT_CSV_COLUMNS.join(",");
        let row = format!("{row},\"Sale, \"\"now\"\"\",,https://example.com/i.png");
        let links = read_linkapi("new.csv", &format!("{header}\n{row}\n")).expect("an export");
        let item = links[0].item.as_ref().expect("carried");
        assert_eq!(item.preview_title.as_deref(), Some("Sale, \"now\""));
        assert_eq!(item.preview_description, None);
        assert_eq!(
            item.preview_image.as_deref(),
            Some("https://example.com/i.png")
        );

        let shuffled = "code,target_url\nabc,https://example.com/\n";
        assert!(read_linkapi("other.csv", shuffled).is_err());
    }
}
