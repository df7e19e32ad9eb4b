//! `linkapi chain import`: CSV or JSON lines, sent 2,000 lines to a bulk request under an
//! idempotency key per batch, each line's result reported in order.

use std::io::Read;
use std::path::Path;

use anyhow::{Context as _, Result};
use linkapi_core::wire::primary::{self, CreateChain};
use serde_json::json;

use crate::cli::ImportFormat;
use crate::context::Context;
use crate::exit::{Reported, UsageError};

/// The longest `--idempotency-key` of an import: room is left for the batch number.
const MAX_IMPORT_KEY_PREFIX: usize = 240;

/// An `--idempotency-key` as given, if the server will take it (with `/N` after it, for an
/// import).
pub(super) fn checked_idempotency_key(key: String) -> Result<String> {
    if key.len() > MAX_IMPORT_KEY_PREFIX
        || !linkapi_core::service::is_idempotency_key(key.as_bytes())
    {
        return Err(UsageError(format!(
            "--idempotency-key must be 1 to {MAX_IMPORT_KEY_PREFIX} printable ASCII characters, \
             not starting or ending with a space"
        ))
        .into());
    }
    Ok(key)
}

/// Lines `import` sends in one bulk request: a progress step every few hundred milliseconds,
/// well under the server's 10,000 a request.
const IMPORT_BATCH: usize = 2_000;

/// The Idempotency-Key of an import's `index`th batch: `prefix/index`, or a digest of the
/// batch's number and lines, so that running the same import again sends the same keys.
fn batch_key(prefix: Option<&str>, index: usize, batch: &primary::BulkCreateChains) -> String {
    use sha2::{Digest, Sha256};
    match prefix {
        Some(prefix) => format!("{prefix}/{index}"),
        None => {
            let mut digest = Sha256::new();
            digest.update((index as u64).to_be_bytes());
            digest.update(serde_json::to_vec(batch).unwrap_or_default());
            let hex: String = digest
                .finalize()
                .iter()
                .map(|b| format!("{b:02x}"))
                .collect();
            format!("linkapi-import:{hex}")
        }
    }
}

/// One input line of `import`, parsed or not.
struct Line {
    number: usize,
    input: Result<CreateChain, String>,
}

/// The format of `text` read from `path`: by its name, else by its first character.
fn detect_format(path: &Path, text: &str) -> ImportFormat {
    match format_of_name(path) {
        Some(format) => format,
        None if text.trim_start().starts_with('{') => ImportFormat::Jsonl,
        None => ImportFormat::Csv,
    }
}

/// The format a file's name says by its extension (`csv`; `jsonl`, `ndjson` or `json`), for
/// the file `chain import` reads or `chain export` writes.
pub(super) fn format_of_name(path: &Path) -> Option<ImportFormat> {
    match path.extension()?.to_str()? {
        "csv" => Some(ImportFormat::Csv),
        "jsonl" | "ndjson" | "json" => Some(ImportFormat::Jsonl),
        _ => None,
    }
}

fn parse_jsonl(text: &str) -> Vec<Line> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| Line {
            number: i + 1,
            input: serde_json::from_str::<CreateChain>(l).map_err(|e| file_position(&e, i + 1)),
        })
        .collect()
}

/// A JSON error of one line of a JSON-lines file, placed in the file: serde counts lines
/// within the one it read, which is always line 1.
fn file_position(err: &serde_json::Error, file_line: usize) -> String {
    let message = err.to_string();
    let suffix = format!(" at line {} column {}", err.line(), err.column());
    let message = message.strip_suffix(&suffix).unwrap_or(&message);
    format!("{message} (line {file_line}, column {})", err.column())
}

fn parse_csv(text: &str) -> Result<Vec<Line>> {
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(true)
        .flexible(true)
        .trim(csv::Trim::All)
        .from_reader(text.as_bytes());
    let headers: Vec<String> = reader
        .headers()
        .context("reading the CSV header row")?
        .iter()
        .map(|h| h.to_ascii_lowercase())
        .collect();
    let known = [
        "target_url",
        "title",
        "chain_title",
        "code",
        "domain_id",
        "group_id",
        "valid_time",
    ];
    if let Some(unknown) = headers.iter().find(|h| !known.contains(&h.as_str())) {
        return Err(UsageError(format!(
            "unknown CSV column {unknown:?}; columns: target_url, title, code, domain_id, group_id, valid_time"
        ))
        .into());
    }
    if !headers.iter().any(|h| h == "target_url") {
        return Err(UsageError("the CSV header row has no target_url column".into()).into());
    }
    let mut lines = Vec::new();
    let mut numbers = LineNumbers::new(text);
    for record in reader.records() {
        let (number, input) = match record {
            Ok(record) => {
                let number = record.position().map_or(0, |p| numbers.at(p.byte()));
                if record.iter().all(str::is_empty) {
                    continue;
                }
                (number, csv_chain(&headers, &record))
            }
            Err(e) => (
                e.position().map_or(0, |p| numbers.at(p.byte())),
                Err(e.to_string()),
            ),
        };
        lines.push(Line { number, input });
    }
    Ok(lines)
}

/// The line numbers of records in `text`, asked for in order: each count goes on from the
/// last, so numbering a file is linear in its size (counting from the start for every record
/// made a million-line import spend minutes before its first request).
struct LineNumbers<'t> {
    text: &'t str,
    /// The byte counted up to, and the newlines before it.
    counted: usize,
    newlines: usize,
}

impl<'t> LineNumbers<'t> {
    fn new(text: &'t str) -> Self {
        LineNumbers {
            text,
            counted: 0,
            newlines: 0,
        }
    }

    /// The 1-based line of the record starting at `byte`. The csv crate reports where it
    /// began reading, before the blank lines it skips, so those are skipped here too.
    fn at(&mut self, byte: u64) -> usize {
        let text = self.text;
        let mut start = usize::try_from(byte).unwrap_or(usize::MAX).min(text.len());
        while let Some(rest) = text.get(start..) {
            let skip = if rest.starts_with("\r\n") {
                2
            } else if rest.starts_with('\n') {
                1
            } else {
                break;
            };
            start += skip;
        }
        if start < self.counted {
            // Asked out of order: count again from the start.
            (self.counted, self.newlines) = (0, 0);
        }
        self.newlines += text
            .get(self.counted..start)
            .map_or(0, |between| between.matches('\n').count());
        self.counted = start;
        1 + self.newlines
    }
}

fn csv_chain(headers: &[String], record: &csv::StringRecord) -> Result<CreateChain, String> {
    let mut chain = CreateChain::default();
    let int = |name: &str, v: &str| {
        v.parse::<i64>()
            .map_err(|_| format!("{name} {v:?} is not an integer"))
    };
    for (header, value) in headers.iter().zip(record.iter()) {
        if value.is_empty() {
            continue;
        }
        match header.as_str() {
            "target_url" => chain.target_url = value.to_owned(),
            "title" | "chain_title" => chain.chain_title = Some(value.to_owned()),
            "code" => chain.code = Some(value.to_owned()),
            "domain_id" => chain.domain_id = Some(int("domain_id", value)?),
            "group_id" => chain.group_id = Some(int("group_id", value)?),
            "valid_time" => {
                chain.valid_time =
                    Some(linkapi_core::clock::parse_flexible(value).ok_or_else(|| {
                        format!("valid_time {value:?} is not a date-time or Unix seconds")
                    })?);
            }
            _ => {}
        }
    }
    if chain.target_url.is_empty() {
        return Err("target_url is empty".into());
    }
    Ok(chain)
}

/// A bar of `len` chains on standard error (hidden when that is no terminal), and the task
/// that says on it when the client is waiting out the key's rate limit (abort it at the end).
pub(super) fn progress_bar(
    ctx: &Context,
    client: &linkapi_core::client::Client,
    len: u64,
) -> (indicatif::ProgressBar, tokio::task::JoinHandle<()>) {
    let bar = indicatif::ProgressBar::new(len);
    bar.set_style(
        indicatif::ProgressStyle::with_template(
            "{bar:40} {pos}/{len} chains ({rate}, {eta} left) {msg}",
        )
        .map(|style| {
            // Whole chains a second: indicatif's own {per_sec} shows four decimals.
            style.with_key(
                "rate",
                |state: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
                    let _ = write!(w, "{:.0}/s", state.per_sec());
                },
            )
        })
        .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    if !ctx.out.stderr_tty {
        bar.set_draw_target(indicatif::ProgressDrawTarget::hidden());
    }
    // A bar that stops moving says why: the client is waiting out the key's rate limit.
    let waiting = tokio::spawn({
        let (bar, client) = (bar.clone(), client.clone());
        async move {
            loop {
                let left = client
                    .rate_limit_waits()
                    .until
                    .map(|until| until.saturating_duration_since(std::time::Instant::now()));
                bar.set_message(match left {
                    Some(left) if !left.is_zero() => {
                        format!("waiting {} s for the rate limit", left.as_secs() + 1)
                    }
                    _ => String::new(),
                });
                tokio::time::sleep(std::time::Duration::from_millis(250)).await;
            }
        }
    });
    (bar, waiting)
}

/// Says how long the client waited for the key's rate limit, if it did.
pub(super) fn note_waits(ctx: &Context, client: &linkapi_core::client::Client) {
    let waits = client.rate_limit_waits();
    if waits.count > 0 {
        ctx.out.note(&format!(
            "Waited {} s in all for the key's rate limit ({} times). Keys with scope admin are \
             not limited unless the server sets rate_limit_admin_keys; rate_limit_per_second \
             raises everyone's limit.",
            waits.total.as_secs(),
            waits.count
        ));
    }
}

/// `linkapi chain import`
pub(super) async fn import(
    ctx: Context,
    file: &Path,
    format: Option<ImportFormat>,
    json: bool,
    idempotency_key: Option<&str>,
) -> Result<()> {
    let prefix = idempotency_key
        .map(|key| checked_idempotency_key(key.to_owned()))
        .transpose()?;
    let text = if file == Path::new("-") {
        let mut text = String::new();
        std::io::stdin()
            .read_to_string(&mut text)
            .context("reading standard input")?;
        text
    } else {
        std::fs::read_to_string(file).with_context(|| format!("reading {}", file.display()))?
    };
    let lines = match format.unwrap_or_else(|| detect_format(file, &text)) {
        ImportFormat::Jsonl => parse_jsonl(&text),
        ImportFormat::Csv => parse_csv(&text)?,
    };
    let client = ctx.client()?;
    let (bar, waiting) = progress_bar(&ctx, &client, lines.len() as u64);
    let (mut created, mut failed, mut created_before) = (0usize, 0usize, 0usize);
    for (index, batch) in lines.chunks(IMPORT_BATCH).enumerate() {
        // Lines that did not parse are reported as they are; the others go in one request.
        let items: Vec<primary::BulkChain> = batch
            .iter()
            .filter_map(|line| line.input.as_ref().ok())
            .map(|input| primary::BulkChain(input.clone()))
            .collect();
        let mut replayed = false;
        let mut answers = if items.is_empty() {
            Vec::new()
        } else {
            let request = primary::BulkCreateChains { chains: items };
            let keyed = client.with_idempotency_key(&batch_key(prefix.as_deref(), index, &request));
            let answer = keyed
                .create_chains(&request)
                .await
                .context("creating the chains")?;
            replayed = keyed.was_replayed();
            answer.results
        }
        .into_iter();
        for line in batch {
            let result = match &line.input {
                Err(e) => Err(e.clone()),
                Ok(_) => match answers.next() {
                    Some(primary::BulkItemResult {
                        chain: Some(chain), ..
                    }) => Ok(chain),
                    Some(primary::BulkItemResult {
                        error: Some(error), ..
                    }) => Err(format!("{} ({})", error.message, error.code)),
                    _ => Err("the server answered no result for this line".to_owned()),
                },
            };
            let text = match (&result, json) {
                (Ok(chain), true) => {
                    json!({"line": line.number, "ok": true, "chain": chain}).to_string()
                }
                (Err(e), true) => json!({"line": line.number, "ok": false, "error": e}).to_string(),
                (Ok(chain), false) => {
                    format!("{}\tok\t{}\t{}", line.number, chain.code, chain.render_url)
                }
                (Err(e), false) => {
                    format!("{}\terror\t{}", line.number, e.replace(['\t', '\n'], " "))
                }
            };
            bar.suspend(|| ctx.out.line(&text));
            match result {
                Ok(_) if replayed => created_before += 1,
                Ok(_) => created += 1,
                Err(_) => failed += 1,
            }
        }
        bar.inc(batch.len() as u64);
    }
    waiting.abort();
    bar.finish_and_clear();
    ctx.out
        .note(&format!("Created {created} chains; {failed} failed."));
    note_waits(&ctx, &client);
    if created_before > 0 {
        ctx.out.note(&format!(
            "{created_before} more had been created by an earlier run of this import (the same \
             lines within 24 hours): their results are shown again. To create them anew, give \
             a new --idempotency-key."
        ));
    }
    let total = created + created_before + failed;
    if failed > 0 {
        return Err(Reported(format!("{failed} of {total} lines failed")).into());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_lines_keep_their_numbers_and_errors() {
        let lines = parse_csv(
            "target_url,title,valid_time\nhttps://a.com,A,\n\nhttps://b.com,B,2030-01-01 00:00:00\n,no target,\nhttps://c.com,C,soon\n",
        )
        .expect("parses");
        let numbers: Vec<usize> = lines.iter().map(|l| l.number).collect();
        assert_eq!(numbers, [2, 4, 5, 6]);
        assert!(lines[0].input.is_ok());
        assert_eq!(
            lines[1].input.as_ref().expect("ok").valid_time,
            Some(1_893_456_000)
        );
        assert!(
            lines[2]
                .input
                .as_ref()
                .is_err_and(|e| e.contains("target_url"))
        );
        assert!(
            lines[3]
                .input
                .as_ref()
                .is_err_and(|e| e.contains("valid_time"))
        );
        assert!(parse_csv("url\nhttps://a.com\n").is_err(), "unknown column");
    }

    #[test]
    fn jsonl_lines_are_strict_and_numbered() {
        let lines = parse_jsonl("{\"target_url\":\"https://a.com\"}\n\n{\"target\":\"x\"}\n");
        assert_eq!(lines.len(), 2);
        assert_eq!(lines[1].number, 3);
        assert!(lines[1].input.is_err());
    }

    #[test]
    fn formats_are_detected() {
        assert_eq!(detect_format(Path::new("a.csv"), "{"), ImportFormat::Csv);
        assert_eq!(
            detect_format(Path::new("-"), "  {\"a\":1}"),
            ImportFormat::Jsonl
        );
        assert_eq!(
            detect_format(Path::new("-"), "target_url\n"),
            ImportFormat::Csv
        );
    }
}
