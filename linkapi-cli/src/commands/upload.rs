//! `linkapi upload FILE... | --dir DIR`, `linkapi upload list`, `linkapi upload delete`.
//!
//! Every file is checked first (size, and its bytes read as the server will read them), then
//! uploaded `--jobs` at a time, each streamed from disk. On a terminal an overall bar (files,
//! bytes, rate, ETA) and one bar per file in flight draw on stderr; elsewhere nothing does.
//! Results print as files finish: `FILE<TAB>URL` or `FILE<TAB>error<TAB>WHY`, or with `--json`
//! one JSON object per line. Ctrl-C stops at once and says what was uploaded.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context as _, Result};
use bytes::Bytes;
use futures_util::StreamExt;
use indicatif::{MultiProgress, ProgressBar, ProgressDrawTarget, ProgressStyle};
use linkapi_core::client::{Client, ClientError};
use linkapi_core::image::ImageCheck;
use linkapi_core::wire::primary;
use serde_json::json;
use tokio::io::AsyncReadExt;

use crate::cli::{UploadArgs, UploadCommand};
use crate::context::Context;
use crate::exit::{Interrupted, Reported, UsageError};

/// Bytes read from disk per chunk sent.
const CHUNK: usize = 64 << 10;
/// First wait before a retry; doubles each time.
const FIRST_BACKOFF: Duration = Duration::from_millis(500);
/// Longest wait before a retry, whatever the server asks.
const MAX_WAIT: Duration = Duration::from_secs(60);

/// Runs `linkapi upload ...`.
pub async fn run(ctx: Context, args: UploadArgs) -> Result<()> {
    match args.command {
        Some(UploadCommand::List { page, limit, json }) => {
            let client = ctx.client()?;
            let found = client.uploads(Some(page), Some(limit)).await?;
            ctx.out.records(&found.list, json.json.as_deref(), false)
        }
        Some(UploadCommand::Delete { ids, yes }) => delete(ctx, &ids, yes).await,
        None => upload_all(ctx, args).await,
    }
}

async fn delete(ctx: Context, ids: &[i64], yes: bool) -> Result<()> {
    let question = match ids {
        [one] => format!("Delete upload {one}?"),
        many => format!("Delete {} uploads?", many.len()),
    };
    if !ctx.confirm(&question, yes)? {
        ctx.out.note("Nothing deleted.");
        return Ok(());
    }
    let client = ctx.client()?;
    let mut failed = 0;
    for id in ids {
        match client.delete_upload(*id).await {
            Ok(upload) => ctx.out.done(&format!(
                "Deleted upload {} ({})",
                upload.file_id, upload.file_name
            )),
            Err(err) => {
                failed += 1;
                ctx.out.warn(&format!("upload {id}: {err}"));
            }
        }
    }
    if failed > 0 {
        return Err(Reported(format!("{failed} of {} deletions failed", ids.len())).into());
    }
    Ok(())
}

/// One file to send.
#[derive(Debug, Clone)]
struct Job {
    path: PathBuf,
    size: u64,
}

/// What became of one file.
enum Outcome {
    Uploaded(primary::Upload),
    Failed(String),
}

/// The files named, then those under `--dir`, in a stable order.
fn collect_files(args: &UploadArgs) -> Result<Vec<PathBuf>> {
    let mut files = args.files.clone();
    if let Some(dir) = &args.dir {
        let mut found = Vec::new();
        walk(dir, args.recursive, &mut found)
            .with_context(|| format!("reading directory {}", dir.display()))?;
        found.sort();
        files.extend(found);
    }
    if files.is_empty() {
        return Err(UsageError("no files to upload".into()).into());
    }
    Ok(files)
}

fn walk(dir: &Path, recursive: bool, found: &mut Vec<PathBuf>) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        let kind = entry.file_type()?;
        if kind.is_dir() {
            if recursive {
                walk(&entry.path(), recursive, found)?;
            }
        } else if kind.is_file() || kind.is_symlink() {
            found.push(entry.path());
        }
    }
    Ok(())
}

/// Checks a file before anything is sent: it exists, fits, and its bytes are an accepted image
/// (the same check the server runs).
async fn precheck(path: &Path, max_size: u64) -> Result<u64, String> {
    let meta = tokio::fs::metadata(path).await.map_err(|e| e.to_string())?;
    if !meta.is_file() {
        return Err("not a regular file".into());
    }
    if meta.len() > max_size {
        return Err(format!(
            "{} is larger than the {} limit",
            human_bytes(meta.len()),
            human_bytes(max_size)
        ));
    }
    let mut file = tokio::fs::File::open(path)
        .await
        .map_err(|e| e.to_string())?;
    let mut check = ImageCheck::new();
    let mut buf = vec![0u8; CHUNK];
    loop {
        let n = file.read(&mut buf).await.map_err(|e| e.to_string())?;
        if n == 0 {
            break;
        }
        check.feed(&buf[..n]).map_err(|e| e.to_string())?;
    }
    check.finish().map_err(|e| e.to_string())?;
    Ok(meta.len())
}

/// The file's bytes as a request body, counting each chunk on the bars as it is read.
async fn body(path: &Path, bars: [ProgressBar; 2]) -> std::io::Result<reqwest::Body> {
    let file = tokio::fs::File::open(path).await?;
    let chunks = futures_util::stream::unfold(file, |mut file| async move {
        let mut buf = vec![0u8; CHUNK];
        match file.read(&mut buf).await {
            Ok(0) => None,
            Ok(n) => {
                buf.truncate(n);
                Some((Ok::<_, std::io::Error>(Bytes::from(buf)), file))
            }
            Err(err) => Some((Err(err), file)),
        }
    })
    .inspect(move |chunk| {
        if let Ok(chunk) = chunk {
            for bar in &bars {
                bar.inc(chunk.len() as u64);
            }
        }
    });
    Ok(reqwest::Body::wrap_stream(chunks))
}

/// How long to wait before trying again after `err`, or `None` when trying again is futile.
fn retry_wait(err: &ClientError, attempt: u32) -> Option<Duration> {
    let backoff = FIRST_BACKOFF * 2u32.saturating_pow(attempt.saturating_sub(1));
    match err {
        ClientError::Api {
            status: 429 | 503,
            retry_after,
            ..
        } => Some(retry_after.map_or(backoff, Duration::from_secs)),
        ClientError::Connect { .. } | ClientError::Timeout { .. } => Some(backoff),
        ClientError::Transport { source, .. } if !source.is_body() && !source.is_decode() => {
            Some(backoff)
        }
        _ => None,
    }
    .map(|wait| wait.min(MAX_WAIT))
}

/// Uploads one file, trying again as [`retry_wait`] allows.
async fn upload_one(
    client: &Client,
    job: &Job,
    tries: u8,
    overall: &ProgressBar,
    bar: &ProgressBar,
) -> Outcome {
    let name = job
        .path
        .file_name()
        .map_or_else(|| "file".into(), |n| n.to_string_lossy().into_owned());
    let mut attempt = 1u32;
    loop {
        bar.set_position(0);
        let started = overall.position();
        let body = match body(&job.path, [overall.clone(), bar.clone()]).await {
            Ok(body) => body,
            Err(err) => return Outcome::Failed(err.to_string()),
        };
        match client.upload(&name, body, job.size).await {
            Ok(upload) => return Outcome::Uploaded(upload),
            Err(err) => {
                // What this attempt sent no longer counts towards the total.
                let sent = bar.position();
                overall.set_position(started.max(overall.position().saturating_sub(sent)));
                match retry_wait(&err, attempt) {
                    Some(wait) if attempt < u32::from(tries) => {
                        bar.set_message(format!("retrying in {} s: {err}", wait.as_secs_f32()));
                        tokio::time::sleep(wait).await;
                        bar.set_message(String::new());
                        attempt += 1;
                    }
                    _ => return Outcome::Failed(describe(&err)),
                }
            }
        }
    }
}

/// An error in one line: the server's message, or what failed on the way and why, with the
/// hint every command gives for it (a server that cannot be reached: is it running?).
fn describe(err: &ClientError) -> String {
    if !matches!(err, ClientError::Transport { .. }) {
        return crate::exit::one_line(err);
    }
    let mut text = err.to_string();
    let mut source = std::error::Error::source(err);
    while let Some(cause) = source {
        text.push_str(": ");
        text.push_str(&cause.to_string());
        source = cause.source();
    }
    text.replace(['\t', '\n'], " ")
}

fn style(template: &str) -> ProgressStyle {
    ProgressStyle::with_template(template)
        .unwrap_or_else(|_| ProgressStyle::default_bar())
        .progress_chars("█▉▊▋▌▍▎▏ ")
}

/// Prints one file's result on stdout, above the bars.
fn print_result(ctx: &Context, bars: &MultiProgress, file: &Path, outcome: &Outcome, json: bool) {
    let file = file.display().to_string();
    let line = match (outcome, json) {
        (Outcome::Uploaded(u), true) => json!({
            "file": file, "ok": true, "url": u.url, "file_id": u.file_id,
            "object_key": u.object_key, "size_bytes": u.size_bytes,
        })
        .to_string(),
        (Outcome::Failed(e), true) => json!({"file": file, "ok": false, "error": e}).to_string(),
        (Outcome::Uploaded(u), false) => format!("{file}\t{}", u.url),
        (Outcome::Failed(e), false) => format!("{file}\terror\t{e}"),
    };
    bars.suspend(|| ctx.out.line(&line));
}

async fn upload_all(ctx: Context, args: UploadArgs) -> Result<()> {
    let files = collect_files(&args)?;
    let client = ctx.client()?;
    let bars = MultiProgress::new();
    if !ctx.out.stderr_tty {
        bars.set_draw_target(ProgressDrawTarget::hidden());
    }
    let total = files.len();
    let (mut uploaded, mut uploaded_bytes) = (0usize, 0u64);
    // Every failure, named again in the summary: the lines above may have scrolled away.
    let mut failures: Vec<(PathBuf, String)> = Vec::new();

    // Check everything first; refused files are reported without being sent.
    let mut jobs = Vec::new();
    for path in files {
        match precheck(&path, args.max_size).await {
            Ok(size) => jobs.push(Job { path, size }),
            Err(why) => {
                print_result(&ctx, &bars, &path, &Outcome::Failed(why.clone()), args.json);
                failures.push((path, why));
            }
        }
    }
    let total_bytes: u64 = jobs.iter().map(|j| j.size).sum();
    let overall = bars.add(ProgressBar::new(total_bytes));
    overall.set_style(style(
        "{prefix} [{bar:30}] {bytes}/{total_bytes} {binary_bytes_per_sec} ETA {eta}",
    ));
    // Files are counted against every file named, from the start: the refused ones are done.
    overall.set_prefix(format!("{}/{total} files", failures.len()));
    if ctx.out.stderr_tty {
        // Redraw while waiting (retries, slow servers), so rate and ETA stay current.
        overall.enable_steady_tick(Duration::from_millis(200));
    }

    let slots = Arc::new(tokio::sync::Semaphore::new(usize::from(args.jobs)));
    let mut tasks = tokio::task::JoinSet::new();
    for job in jobs.iter().cloned() {
        let (client, slots, overall, bars) =
            (client.clone(), slots.clone(), overall.clone(), bars.clone());
        let tries = args.tries;
        tasks.spawn(async move {
            let _slot = slots.acquire_owned().await;
            let bar = bars.insert_before(&overall, ProgressBar::new(job.size));
            bar.set_style(style(
                "  ↑ {prefix:30!} [{bar:20}] {bytes}/{total_bytes} {wide_msg}",
            ));
            bar.set_prefix(
                job.path
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default(),
            );
            let outcome = upload_one(&client, &job, tries, &overall, &bar).await;
            bar.finish_and_clear();
            bars.remove(&bar);
            (job, outcome)
        });
    }

    let mut record = |job: Job, outcome: Outcome| {
        print_result(&ctx, &bars, &job.path, &outcome, args.json);
        match outcome {
            Outcome::Uploaded(u) => {
                uploaded += 1;
                uploaded_bytes += u64::try_from(u.size_bytes).unwrap_or(0);
            }
            Outcome::Failed(why) => failures.push((job.path, why)),
        }
        overall.set_prefix(format!("{}/{total} files", uploaded + failures.len()));
    };
    let interrupted = loop {
        tokio::select! {
            done = tasks.join_next() => {
                let Some(done) = done else { break false };
                let (job, outcome) = done.context("an upload task failed")?;
                record(job, outcome);
            }
            _ = tokio::signal::ctrl_c() => break true,
        }
    };
    if interrupted {
        tasks.abort_all();
        // Uploads that finished before the abort are done on the server: say so, as for the
        // rest. Then nothing draws again: the summary is the last thing on the terminal.
        while let Some(done) = tasks.join_next().await {
            if let Ok((job, outcome)) = done {
                record(job, outcome);
            }
        }
        overall.abandon();
        let _ = bars.clear();
        bars.set_draw_target(ProgressDrawTarget::hidden());
    } else {
        // The last frame shows every file and byte done, whatever the draw rate skipped.
        overall.set_position(total_bytes);
        overall.finish();
    }
    let failed = failures.len();
    let summary = format!(
        "Uploaded {uploaded} of {total} files ({}); {failed} failed.",
        human_bytes(uploaded_bytes)
    );
    if interrupted {
        let rest = total - uploaded - failed;
        let listed = match (uploaded + failed, ctx.out.stdout_tty) {
            (0, _) => "",
            (_, true) => " (each file's result is listed above)",
            (_, false) => " (each file's result went to standard output)",
        };
        ctx.out.warn(&format!(
            "interrupted: {summary} {rest} not uploaded{listed}."
        ));
        return Err(Interrupted("interrupted".into()).into());
    }
    ctx.out.note(&summary);
    if !failures.is_empty() {
        ctx.out.note("Failed:");
        for (path, why) in &failures {
            ctx.out.note(&format!("  {}: {why}", path.display()));
        }
    }
    if failed > 0 {
        return Err(Reported(format!("{failed} of {total} files failed")).into());
    }
    Ok(())
}

fn human_bytes(bytes: u64) -> String {
    indicatif::HumanBytes(bytes).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rate_limits_and_outages_are_retried_other_errors_not() {
        let api = |status, retry_after| ClientError::Api {
            status,
            code: String::new(),
            message: String::new(),
            retry_after,
            request_id: None,
        };
        assert_eq!(
            retry_wait(&api(429, Some(3)), 1),
            Some(Duration::from_secs(3))
        );
        assert_eq!(retry_wait(&api(429, Some(999)), 1), Some(MAX_WAIT));
        assert_eq!(retry_wait(&api(503, None), 3), Some(FIRST_BACKOFF * 4));
        assert_eq!(retry_wait(&api(413, None), 1), None);
        assert_eq!(retry_wait(&api(415, None), 1), None);
        let timeout = ClientError::Timeout { url: "u".into() };
        assert_eq!(retry_wait(&timeout, 2), Some(FIRST_BACKOFF * 2));
    }
}
