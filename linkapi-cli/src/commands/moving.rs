//! `linkapi import --from PEER FILE...`: another shortener's links read from its files
//! (`crate::peers`) and sent to `POST /chains/import` 2,000 at a time, with a progress bar and
//! a report of what did not come over as it was.

use std::io::Read;
use std::path::Path;

use anyhow::{Context as _, Result};
use linkapi_core::wire::primary::{ImportChain, ImportChains, ImportItemResult, ImportOutcome};
use serde_json::json;

use super::import::{note_waits, progress_bar};
use crate::cli::ImportArgs;
use crate::context::Context;
use crate::exit::Reported;
use crate::peers::{self, PeerLink};

/// Links one request carries: a step of the bar every second or so, well under the server's
/// 10,000.
const BATCH: usize = 2_000;

/// How one link ended, on the client's side or the server's.
struct Ended {
    link: PeerLink,
    result: Option<ImportItemResult>,
}

impl Ended {
    /// `imported`, `exists`, `clash`, `refused`, or `not carried` (decided before sending).
    fn outcome(&self) -> &'static str {
        match self.result.as_ref().map(|r| r.result) {
            None => "not carried",
            Some(ImportOutcome::Imported) => "imported",
            Some(ImportOutcome::Exists) => "exists",
            Some(ImportOutcome::Clash) => "clash",
            Some(ImportOutcome::Refused) => "refused",
        }
    }

    /// Every note on the link: the reader's, then the server's.
    fn notes(&self) -> Vec<String> {
        let mut notes = self.link.notes.clone();
        if let Some(result) = &self.result {
            notes.extend(result.notes.iter().cloned());
        }
        notes
    }

    /// Why it did not come over, or what changed on the way.
    fn why(&self) -> String {
        let mut parts = Vec::new();
        match (&self.link.item, &self.result) {
            (Err(why), _) => parts.push(why.clone()),
            (_, Some(ImportItemResult { error: Some(e), .. })) => {
                parts.push(format!("{} ({})", e.message, e.code));
            }
            _ => {}
        }
        parts.extend(self.notes());
        parts.join("; ").replace(['\t', '\n'], " ")
    }
}

/// The text of `path`, or of standard input for `-`.
fn read_file(path: &Path) -> Result<String> {
    if path == Path::new("-") {
        let mut text = String::new();
        std::io::stdin()
            .read_to_string(&mut text)
            .context("reading standard input")?;
        return Ok(text);
    }
    std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))
}

/// `linkapi import`
pub(super) async fn run(ctx: Context, args: ImportArgs) -> Result<()> {
    let mut links = Vec::new();
    for file in &args.files {
        let name = file.display().to_string();
        links.extend(peers::read(args.from, &name, &read_file(file)?)?);
    }
    for link in &mut links {
        let Ok(item) = &mut link.item else {
            continue;
        };
        if let Some(domain) = &args.domain {
            item.domain = Some(domain.clone());
        } else if let Some(host) = &item.domain {
            let host = host.to_ascii_lowercase();
            if let Some((_, to)) = args.map_domain.iter().find(|(from, _)| *from == host) {
                item.domain = Some(to.clone());
            }
        }
    }
    let client = ctx.client()?;
    let (bar, waiting) = progress_bar(&ctx, &client, links.len() as u64);
    let mut ended: Vec<Ended> = Vec::with_capacity(links.len());
    let mut counts = std::collections::BTreeMap::<&'static str, usize>::new();
    let mut links = links.into_iter().peekable();
    while links.peek().is_some() {
        let batch: Vec<PeerLink> = links.by_ref().take(BATCH).collect();
        let items: Vec<ImportChain> = batch
            .iter()
            .filter_map(|link| link.item.as_ref().ok().cloned())
            .collect();
        let mut results = if items.is_empty() {
            Vec::new()
        } else {
            client
                .import_chains(&ImportChains { chains: items }, args.dry_run)
                .await
                .context("importing the links")?
                .results
        }
        .into_iter();
        let count = batch.len() as u64;
        for link in batch {
            let result = if link.item.is_ok() {
                results.next()
            } else {
                None
            };
            let one = Ended { link, result };
            *counts.entry(one.outcome()).or_default() += 1;
            let text = report_line(&one, args.json);
            if let Some(text) = text {
                bar.suspend(|| ctx.out.line(&text));
            }
            ended.push(one);
        }
        bar.inc(count);
    }
    waiting.abort();
    bar.finish_and_clear();
    let count = |outcome: &str| counts.get(outcome).copied().unwrap_or(0);
    let verb = if args.dry_run {
        "Would import"
    } else {
        "Imported"
    };
    ctx.out.note(&format!(
        "{verb} {} of {} links from {}; {} there already, {} clashes, {} refused, {} not carried{}.",
        count("imported"),
        ended.len(),
        args.from.name(),
        count("exists"),
        count("clash"),
        count("refused"),
        count("not carried"),
        if args.dry_run {
            " (a dry run: nothing was imported)"
        } else {
            ""
        }
    ));
    for caveat in args.from.caveats() {
        ctx.out.note(&format!("Note: {caveat}"));
    }
    let elsewhere = ended.iter().any(|one| {
        one.result
            .as_ref()
            .and_then(|r| r.error.as_ref())
            .is_some_and(|e| e.code == "invalid_domain")
    });
    if elsewhere {
        ctx.out.note(
            "Links on domains you do not have here were refused: add the domain (linkapi admin \
             domain create HOST), or move its links with --map-domain HOST=YOURS.",
        );
    }
    note_waits(&ctx, &client);
    let missing = count("clash") + count("refused") + count("not carried");
    if missing > 0 {
        return Err(Reported(format!(
            "{missing} of {} links were not imported",
            ended.len()
        ))
        .into());
    }
    Ok(())
}

/// The line `link` prints: every link with `--json`; otherwise those not imported, or
/// imported with a change, as `SOURCE RESULT CODE WHY`.
fn report_line(link: &Ended, json: bool) -> Option<String> {
    let result = link.result.as_ref();
    if json {
        return Some(
            json!({
                "source": link.link.source,
                "code": link.link.code,
                "result": link.outcome(),
                "domain": result.map(|r| r.domain.clone()),
                "chain_id": result.and_then(|r| r.chain_id),
                "error": match (&link.link.item, result.and_then(|r| r.error.as_ref())) {
                    (Err(why), _) => Some(json!({"code": "not_carried", "message": why})),
                    (_, Some(e)) => Some(json!({"code": e.code, "message": e.message})),
                    _ => None,
                },
                "notes": link.notes(),
            })
            .to_string(),
        );
    }
    let plain = matches!(link.outcome(), "imported" | "exists") && link.notes().is_empty();
    (!plain).then(|| {
        format!(
            "{}\t{}\t{}\t{}",
            link.link.source,
            link.outcome(),
            link.link.code,
            link.why()
        )
    })
}
