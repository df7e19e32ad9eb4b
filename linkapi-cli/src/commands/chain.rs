//! `linkapi chain create|list|info|qr|edit|delete` (import is `commands::import`, export
//! `commands::export`).

use std::io::Read;
use std::path::{Path, PathBuf};

use anyhow::{Context as _, Result};
use linkapi_core::client::{Client, ClientError};
use linkapi_core::wire::primary::{self, ArchivedFilter, CreateChain, ListChains, UpdateChain};
use linkapi_core::wire::{DomainRefs, compat};

use super::export::export;
use super::import::{checked_idempotency_key, import};
use super::page_size;
use crate::cli::{
    ChainCommand, ChainRef, DomainArg, LinkOptionArgs, QrArgs, QrImageFormat, RuleArgs,
};
use crate::context::{Context, parse_time};
use crate::exit::{NoChainWithId, UsageError};

/// Runs `linkapi chain ...`.
pub async fn run(ctx: Context, command: ChainCommand) -> Result<()> {
    match command {
        ChainCommand::Create {
            target_url,
            title,
            custom_code,
            domain,
            group,
            expires,
            rules,
            options,
            idempotency_key,
            json,
        } => {
            let domain_id = super::domain_id_of(&ctx, domain.as_ref()).await?;
            create(
                ctx,
                CreateChain {
                    target_url,
                    domain_id,
                    chain_title: title,
                    code: custom_code,
                    valid_time: None,
                    group_id: group,
                    rules: read_rules(rules)?,
                    redirect_status: options.redirect_status,
                    valid_since: valid_since(&options)?,
                    max_visits: options.max_visits,
                    preview_title: options.preview_title,
                    preview_description: options.preview_description,
                    preview_image: options.preview_image,
                },
                expires,
                idempotency_key,
                json.json,
            )
            .await
        }
        ChainCommand::Import {
            file,
            format,
            json,
            idempotency_key,
        } => import(ctx, &file, format, json, idempotency_key.as_deref()).await,
        ChainCommand::Export { output, format } => export(ctx, output, format).await,
        ChainCommand::List {
            page,
            limit,
            all,
            group,
            query,
            archived,
            include_archived,
            json,
        } => {
            let archived = match (archived, include_archived) {
                (true, _) => ArchivedFilter::Only,
                (false, true) => ArchivedFilter::Include,
                (false, false) => ArchivedFilter::Exclude,
            };
            let request = ListChains {
                page: Some(page),
                page_size: Some(page_size(limit, all)),
                group_id: group,
                q: query,
                archived: Some(archived),
            };
            list(ctx, request, all, json.json).await
        }
        ChainCommand::Info { chain, json } => info(ctx, chain, json.json).await,
        ChainCommand::Qr { chain, image } => qr(ctx, chain, image).await,
        ChainCommand::Edit {
            chain,
            title,
            target_url,
            expires,
            rules,
            clear_rules,
            options,
            json,
        } => {
            let rules = if clear_rules {
                Some(Vec::new())
            } else {
                read_rules(rules)?
            };
            let changes = UpdateChain {
                chain_title: title,
                target_url,
                valid_time: None,
                rules,
                redirect_status: options.redirect_status,
                valid_since: valid_since(&options)?,
                max_visits: options.max_visits,
                preview_title: options.preview_title,
                preview_description: options.preview_description,
                preview_image: options.preview_image,
            };
            edit(ctx, chain, changes, expires, json.json).await
        }
        ChainCommand::Archive { chain, json } => archive(ctx, chain, true, json.json).await,
        ChainCommand::Unarchive { chain, json } => archive(ctx, chain, false, json.json).await,
        ChainCommand::Delete {
            chains,
            code,
            domain,
            yes,
        } => delete(ctx, chains, code, domain, yes).await,
    }
}

/// The chain id named by `chain`: all digits is an id unless `force_code`; otherwise a code
/// looked up on the compatibility surface.
pub(super) async fn resolve(
    client: &Client,
    chain: &str,
    force_code: bool,
    domain: Option<&DomainArg>,
) -> Result<i64> {
    if !force_code && let Ok(id) = chain.parse::<i64>() {
        return Ok(id);
    }
    let domain = super::domain_id(client, domain).await?;
    let item = client
        .compat_chain_info(&compat::ChainRef {
            chain: chain.to_owned(),
            domain: domain.map(|d| DomainRefs::from(vec![d])),
        })
        .await
        .with_context(|| format!("looking up chain {chain:?}"))?;
    Ok(item.chain_id)
}

/// A call about the chain `chain` named: a 404 when an all-digit CHAIN was taken as an id
/// says so and suggests `--code`.
pub(super) fn named<T>(chain: &str, force_code: bool, result: Result<T, ClientError>) -> Result<T> {
    match result {
        Err(ClientError::Api { status: 404, .. })
            if !force_code && chain.bytes().all(|b| b.is_ascii_digit()) =>
        {
            Err(NoChainWithId(chain.to_owned()).into())
        }
        other => Ok(other?),
    }
}

/// The rules `--rule` or `--rules-file` give; `None` when neither is given.
fn read_rules(args: RuleArgs) -> Result<Option<Vec<primary::RedirectRule>>> {
    let Some(path) = args.rules_file else {
        return Ok((!args.rule.is_empty()).then_some(args.rule));
    };
    let text = if path == Path::new("-") {
        let mut text = String::new();
        std::io::stdin()
            .read_to_string(&mut text)
            .context("reading rules from standard input")?;
        text
    } else {
        std::fs::read_to_string(&path).with_context(|| format!("reading {}", path.display()))?
    };
    let rules = serde_json::from_str(&text).map_err(|e| {
        UsageError(format!(
            "--rules-file {}: not a JSON array of rules ({{\"device\": \"ios\", \
             \"target_url\": \"https://...\"}}): {e}",
            path.display()
        ))
    })?;
    Ok(Some(rules))
}

/// A destination typed without its scheme (`example.com/x`) is a usage error with the fix,
/// found before anything is sent.
fn check_scheme(flag: &str, target: &str) -> Result<()> {
    let target = target.trim();
    if target.contains("://") || target.is_empty() {
        return Ok(());
    }
    // Offer the fix only for what looks like a host name with a dot (`example.com/x`);
    // `not-a-url` with a scheme added would be a link to nowhere.
    let host = target.split(['/', '?', '#']).next().unwrap_or_default();
    let looks_like_host = host.contains('.')
        && !host.starts_with('.')
        && host
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_' | ':'));
    let message = if looks_like_host {
        format!("{flag} {target:?} has no scheme; add https:// (https://{target})")
    } else {
        format!(
            "{flag} {target:?} is not a URL; give an http(s) URL such as https://example.com/page"
        )
    };
    Err(UsageError(message).into())
}

/// `linkapi chain create`
#[allow(clippy::too_many_arguments)]
async fn create(
    ctx: Context,
    mut input: CreateChain,
    expires: Option<String>,
    idempotency_key: Option<String>,
    json: Option<String>,
) -> Result<()> {
    check_scheme("TARGET_URL", &input.target_url)?;
    input.valid_time = expires
        .as_deref()
        .map(|t| parse_time("--expires", t))
        .transpose()?;
    let key = match idempotency_key {
        Some(key) => checked_idempotency_key(key)?,
        None => crate::context::fresh_idempotency_key(),
    };
    let client = ctx.client()?.with_idempotency_key(&key);
    let chain = client.create_chain(&input).await?;
    if client.was_replayed() {
        ctx.out.note(&format!(
            "{} was created by an earlier request with this idempotency key; nothing new was \
             created",
            chain.render_url
        ));
    } else {
        ctx.out.success(&format!(
            "Created {} → {}",
            chain.render_url, chain.target_url
        ));
    }
    ctx.out.record(&chain, json.as_deref())
}

/// `linkapi chain list`
#[allow(clippy::too_many_arguments)]
async fn list(
    ctx: Context,
    mut request: ListChains,
    all: bool,
    json: Option<String>,
) -> Result<()> {
    let client = ctx.client()?;
    let mut chains = Vec::new();
    loop {
        let found = client.list_chains(&request).await?;
        let fetched = found.list.len() as i64;
        chains.extend(found.list);
        let seen = (found.page - 1) * found.page_size + fetched;
        if !all {
            super::note_more(&ctx, seen, found.total, found.page);
        }
        if !all || fetched == 0 || seen >= found.total {
            break;
        }
        request.page = Some(found.page + 1);
    }
    if chains.is_empty() && json.is_none() && ctx.out.stderr_tty {
        ctx.out.note("No chains.");
    }
    ctx.out.records(&chains, json.as_deref(), false)
}

/// `linkapi chain info`
async fn info(ctx: Context, chain: ChainRef, json: Option<String>) -> Result<()> {
    let client = ctx.client()?;
    let id = resolve(&client, &chain.chain, chain.code, chain.domain.as_ref()).await?;
    let found = named(&chain.chain, chain.code, client.chain(id).await)?;
    ctx.out.record(&found, json.as_deref())
}

/// `linkapi chain qr`: block characters on a terminal, else the image from the server.
async fn qr(ctx: Context, chain: ChainRef, image: QrArgs) -> Result<()> {
    let client = ctx.client()?;
    let id = resolve(&client, &chain.chain, chain.code, chain.domain.as_ref()).await?;
    match qr_output(&ctx, &image) {
        None => {
            let link = named(&chain.chain, chain.code, client.chain(id).await)?.render_url;
            draw_qr(&ctx, &link)
        }
        Some(format) => {
            let found = client.chain_qr(id, format, Some(image.size)).await;
            write_qr(&ctx, image.output, &named(&chain.chain, chain.code, found)?)
        }
    }
}

/// The image format a QR command writes, or `None` to draw the code on the terminal: with
/// neither `--output` nor `--format`, on a terminal.
pub(super) fn qr_output(ctx: &Context, image: &QrArgs) -> Option<&'static str> {
    if image.output.is_none() && image.format.is_none() && ctx.out.stdout_tty {
        return None;
    }
    let svg = image.format == Some(QrImageFormat::Svg)
        || (image.format.is_none()
            && image
                .output
                .as_ref()
                .and_then(|p| p.extension())
                .is_some_and(|e| e.eq_ignore_ascii_case("svg")));
    Some(if svg { "svg" } else { "png" })
}

/// Draws the QR code of `link` with block characters, the link under it.
pub(super) fn draw_qr(ctx: &Context, link: &str) -> Result<()> {
    let drawn = linkapi_core::qr::terminal(link)?;
    ctx.out.line(&format!("{drawn}\n{link}"));
    Ok(())
}

/// Writes a QR image to `output`, or to stdout.
pub(super) fn write_qr(ctx: &Context, output: Option<PathBuf>, image: &[u8]) -> Result<()> {
    match output {
        Some(path) => {
            std::fs::write(&path, image).with_context(|| format!("writing {}", path.display()))?;
            ctx.out.success(&format!("Wrote {}", path.display()));
        }
        None => {
            use std::io::Write;
            let mut stdout = std::io::stdout().lock();
            stdout.write_all(image)?;
            stdout.flush()?;
        }
    }
    Ok(())
}

/// `--valid-since` as Unix seconds.
fn valid_since(options: &LinkOptionArgs) -> Result<Option<i64>> {
    options
        .valid_since
        .as_deref()
        .map(|t| parse_time("--valid-since", t))
        .transpose()
}

/// `linkapi chain edit`
async fn edit(
    ctx: Context,
    chain: ChainRef,
    mut changes: UpdateChain,
    expires: Option<String>,
    json: Option<String>,
) -> Result<()> {
    if changes.chain_title.is_none()
        && changes.target_url.is_none()
        && changes.rules.is_none()
        && changes.redirect_status.is_none()
        && changes.valid_since.is_none()
        && changes.max_visits.is_none()
        && changes.preview_title.is_none()
        && changes.preview_description.is_none()
        && changes.preview_image.is_none()
        && expires.is_none()
    {
        return Err(UsageError(
            "nothing to change: give --title, --target-url, --expires, --rule, --rules-file, \
             --clear-rules, --redirect-status, --valid-since, --max-visits, --preview-title, \
             --preview-description or --preview-image"
                .into(),
        )
        .into());
    }
    if let Some(target) = &changes.target_url {
        check_scheme("--target-url", target)?;
    }
    changes.valid_time = expires
        .as_deref()
        .map(|t| parse_time("--expires", t))
        .transpose()?;
    let client = ctx.client()?;
    let id = resolve(&client, &chain.chain, chain.code, chain.domain.as_ref()).await?;
    let updated = named(
        &chain.chain,
        chain.code,
        client.update_chain(id, &changes).await,
    )?;
    ctx.out.success(&format!("Updated {}", updated.render_url));
    ctx.out.record(&updated, json.as_deref())
}

/// `linkapi chain archive` and `unarchive`
async fn archive(
    ctx: Context,
    chain: ChainRef,
    archived: bool,
    json: Option<String>,
) -> Result<()> {
    let client = ctx.client()?;
    let id = resolve(&client, &chain.chain, chain.code, chain.domain.as_ref()).await?;
    let found = client.archive_chain(id, archived).await;
    let changed = named(&chain.chain, chain.code, found)?;
    let done = if archived { "Archived" } else { "Unarchived" };
    ctx.out.success(&format!("{done} {}", changed.render_url));
    ctx.out.record(&changed, json.as_deref())
}

/// `linkapi chain delete`
async fn delete(
    ctx: Context,
    chains: Vec<String>,
    code: bool,
    domain: Option<DomainArg>,
    yes: bool,
) -> Result<()> {
    let client = ctx.client()?;
    // A host name is looked up once, not once a chain.
    let domain = super::domain_id(&client, domain.as_ref())
        .await?
        .map(DomainArg::Id);
    let mut targets = Vec::with_capacity(chains.len());
    for chain in &chains {
        let id = resolve(&client, chain, code, domain.as_ref()).await?;
        let found = client
            .chain(id)
            .await
            .with_context(|| format!("chain {chain:?}"))?;
        targets.push(found);
    }
    let names: Vec<&str> = targets.iter().map(|c| c.render_url.as_str()).collect();
    let question = match names.as_slice() {
        [one] => format!("Delete {one}? Its code can never be used again"),
        many => format!(
            "Delete {}? Their codes can never be used again",
            many.join(", ")
        ),
    };
    if !ctx.confirm(&question, yes)? {
        ctx.out.note("Nothing deleted.");
        return Ok(());
    }
    for chain in &targets {
        client.delete_chain(chain.id).await?;
        ctx.out.done(&format!("Deleted {}", chain.render_url));
    }
    Ok(())
}
