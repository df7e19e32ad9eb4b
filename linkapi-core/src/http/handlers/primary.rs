//! Primary surface: `/chains`, `/groups`, `/domains`.

use std::sync::Arc;

use crate::clock::format_rfc3339;
use crate::error::Result;

use crate::http::call::{Call, answered};
use crate::http::request::{json, large_json, path_id, query};
use crate::http::response::{self, Body, Reply};
use crate::model::{ChainId, Dimension, Domain, DomainId, Group, GroupId, UserId};
use crate::service::{
    App, BulkAnswer, BulkItem, ChainFilter, ChainListing, CreatedChain, ExportedChain, ImportChain,
    ImportOutcome, NewShortChain, OptionsInput, RuleInput, ShortChainPatch,
};
use crate::wire::primary as wire;

type Response = http::Response<Body>;

fn rules_in(rules: Vec<wire::RedirectRule>) -> Vec<RuleInput> {
    rules
        .into_iter()
        .map(|rule| RuleInput {
            device: rule.device,
            country: rule.country,
            language: rule.language,
            query: rule.query,
            target_url: rule.target_url,
        })
        .collect()
}

pub(crate) fn group_out(g: &Group) -> wire::Group {
    wire::Group {
        chain_count: g.chain_count,
        chain_type: g.chain_type.code(),
        created_at: format_rfc3339(g.created_at),
        id: g.id.0,
        name: g.name.clone(),
    }
}

fn domain_out(d: &Domain, user: UserId) -> wire::Domain {
    wire::Domain {
        domain: d.host.clone(),
        id: d.id.0,
        scene: d.scene.clone(),
        scheme: d.scheme.as_str().into(),
        domain_status: d.status.code(),
        is_my: i64::from(d.user_id == Some(user)),
    }
}

/// # `POST /chains` (`chains:write`)
pub(crate) async fn create_chain(app: &App, call: Call) -> Result<Response> {
    let input: wire::CreateChain = json(&call.parts.headers, &call.body)?;
    let reply = call.reply;
    let answer =
        move |created: &CreatedChain| reply.created_answer(wire::Chain::from(&created.view));
    let receipt = call.receipt(answer);
    let created = app
        .create_short_chain(&call.who, new_short_chain(input), receipt.as_ref())
        .await?;
    Ok(answered(receipt, &created, answer))
}

/// # `POST /chains/bulk` (`chains:write`)
pub(crate) async fn create_chains(app: &App, mut call: Call) -> Result<Response> {
    // Decoded off the serving threads; the items hold what the body said, so its bytes go
    // before the work starts.
    let body = std::mem::take(&mut call.body);
    let input: wire::BulkCreateChains = large_json(&call.parts.headers, body).await?;
    let items = input
        .chains
        .into_iter()
        .map(|item| new_short_chain(item.0))
        .collect();
    let receipt = call.run_receipt();
    let answered = app
        .create_short_chains(&call.who, items, &bulk_answer(call.reply), receipt.as_ref())
        .await?;
    Ok(response::json_pieces(answered.status, answered.pieces))
}

/// How a bulk create's answer is written: `{.., "data": {"created", "failed", "results":
/// [..]}}` in the route's envelope, the results run by run.
fn bulk_answer(reply: Reply) -> BulkAnswer {
    BulkAnswer {
        items: Arc::new(|results: &[(usize, BulkItem)], first: bool| {
            let mut out = Vec::new();
            for (n, (index, result)) in results.iter().enumerate() {
                if n > 0 || !first {
                    out.push(b',');
                }
                // A result always serializes: it is strings and numbers.
                let _ = serde_json::to_writer(&mut out, &bulk_item_out(*index, result));
            }
            out
        }),
        frame: Box::new(move |created, failed| {
            let whole = reply.ok_answer(wire::BulkCreated {
                created,
                failed,
                results: Vec::new(),
            });
            // The results are the envelope's last field: split where their list is.
            let split = whole
                .body
                .windows(2)
                .rposition(|w| w == b"[]")
                .map_or(whole.body.len(), |at| at + 1);
            (whole.body[..split].to_vec(), whole.body[split..].to_vec())
        }),
        status: 200,
    }
}

/// One item's result as the answer gives it.
fn bulk_item_out(index: usize, result: &BulkItem) -> wire::BulkItemResult {
    match result {
        Ok(view) => wire::BulkItemResult {
            index,
            ok: true,
            chain: Some(wire::Chain::from(view)),
            error: None,
        },
        Err(err) => wire::BulkItemResult {
            index,
            ok: false,
            chain: None,
            error: Some(wire::BulkItemError {
                code: err.code.to_owned(),
                message: err.message.clone(),
            }),
        },
    }
}

/// The link options of a create, an edit or an import item, which name them alike.
macro_rules! options_in {
    ($input:ident) => {
        OptionsInput {
            redirect_status: $input.redirect_status,
            valid_since: $input.valid_since,
            max_visits: $input.max_visits,
            preview_title: $input.preview_title,
            preview_description: $input.preview_description,
            preview_image: $input.preview_image,
        }
    };
}

/// What `POST /chains` (and each item of `POST /chains/bulk`) asks the service for.
fn new_short_chain(input: wire::CreateChain) -> NewShortChain {
    NewShortChain {
        target_url: input.target_url,
        domain_id: input.domain_id.map(DomainId),
        title: input.chain_title,
        code: input.code,
        valid_time: input.valid_time.unwrap_or(0),
        group_id: input.group_id.map(GroupId),
        rules: input.rules.map(rules_in).unwrap_or_default(),
        options: options_in!(input),
    }
}

/// # `POST /chains/import` (`chains:write`)
pub(crate) async fn import_chains(app: &App, mut call: Call) -> Result<Response> {
    let q: wire::ImportQuery = query(&call.parts)?;
    let body = std::mem::take(&mut call.body);
    let input: wire::ImportChains = large_json(&call.parts.headers, body).await?;
    let items = input
        .chains
        .into_iter()
        .map(|item| ImportChain {
            code: item.code,
            domain: item.domain,
            target_url: item.target_url,
            title: item.chain_title,
            status: item.status,
            valid_time: item.valid_time.unwrap_or(0),
            created_at: item.created_at,
            archived_at: item.archived_at,
            groups: item.groups,
            rules: rules_in(item.rules),
            visits: item.pv_history.unwrap_or(0),
            options: options_in!(item),
            visits_left: item.visits_left,
        })
        .collect();
    let dry_run = q.dry_run.unwrap_or(false);
    let results = app.import_short_chains(&call.who, items, dry_run).await?;
    let count = |outcome| results.iter().filter(|r| r.outcome == outcome).count();
    let answer = wire::ImportAnswer {
        dry_run,
        imported: count(ImportOutcome::Imported),
        existing: count(ImportOutcome::Exists),
        clashes: count(ImportOutcome::Clash),
        refused: count(ImportOutcome::Refused),
        results: results
            .into_iter()
            .enumerate()
            .map(|(index, r)| wire::ImportItemResult {
                index,
                code: r.code,
                domain: r.domain,
                result: match r.outcome {
                    ImportOutcome::Imported => wire::ImportOutcome::Imported,
                    ImportOutcome::Exists => wire::ImportOutcome::Exists,
                    ImportOutcome::Clash => wire::ImportOutcome::Clash,
                    ImportOutcome::Refused => wire::ImportOutcome::Refused,
                },
                chain_id: r.chain_id.map(|id| id.0),
                error: r.error.map(|e| wire::BulkItemError {
                    code: e.code.to_owned(),
                    message: e.message,
                }),
                notes: r.notes,
            })
            .collect(),
    };
    Ok(call.reply.ok(answer))
}

/// # `GET /chains` (`chains:read`)
pub(crate) async fn list_chains(app: &App, call: Call) -> Result<Response> {
    let q: wire::ListChains = query(&call.parts)?;
    let (found, page, page_size) = app
        .list_short_chains(
            &call.who,
            ChainListing {
                page: q.page,
                page_size: q.page_size,
                filter: ChainFilter {
                    group_id: q.group_id.map(GroupId),
                    text: q.q,
                    archived: q.archived.unwrap_or_default().archived(),
                    ..ChainFilter::default()
                },
                ..ChainListing::default()
            },
        )
        .await?;
    Ok(call.reply.ok(wire::ChainPage {
        list: found.items.iter().map(wire::Chain::from).collect(),
        total: found.total,
        page,
        page_size,
    }))
}

/// # `GET /chains/{id}` (`chains:read`)
pub(crate) async fn get_chain(app: &App, call: Call) -> Result<Response> {
    let id = ChainId(path_id(call.param(), "chain")?);
    Ok(call
        .reply
        .ok(wire::Chain::from(&app.short_chain(&call.who, id).await?)))
}

/// # `PATCH /chains/{id}` (`chains:write`)
pub(crate) async fn update_chain(app: &App, call: Call) -> Result<Response> {
    let id = ChainId(path_id(call.param(), "chain")?);
    let input: wire::UpdateChain = json(&call.parts.headers, &call.body)?;
    let view = app
        .update_short_chain(
            &call.who,
            id,
            ShortChainPatch {
                title: input.chain_title,
                target_url: input.target_url,
                valid_time: input.valid_time,
                rules: input.rules.map(rules_in),
                options: options_in!(input),
            },
        )
        .await?;
    Ok(call.reply.ok(wire::Chain::from(&view)))
}

/// # `GET /chains/export` (`chains:read`)
pub(crate) async fn export_chains(app: &App, call: Call) -> Result<Response> {
    use futures_util::StreamExt;
    let q: wire::ExportQuery = query(&call.parts)?;
    let format = q.format.unwrap_or_default();
    let mut pages = Box::pin(app.export_short_chains(&call.who));
    // The first page is read before answering, so a store that cannot be read is an error in
    // the envelope rather than a 200 cut short.
    let first = pages.next().await.transpose()?;
    let encode = move |page: Vec<ExportedChain>| {
        let lines: Vec<u8> = page
            .into_iter()
            .flat_map(|c| wire::ExportedChain::new(c.view, c.groups).line(format))
            .collect();
        bytes::Bytes::from(lines)
    };
    let header = (format == wire::ExportFormat::Csv).then(wire::export_csv_header);
    let rest = pages.map(move |page| match page {
        Ok(page) => Ok(encode(page)),
        Err(err) => {
            tracing::warn!(error = %err, "an export was cut short");
            Err(std::io::Error::other(err.to_string()))
        }
    });
    let head = header
        .map(bytes::Bytes::from)
        .into_iter()
        .chain(first.map(encode))
        .map(Ok);
    Ok(response::download(
        format.media_type(),
        format.file_name(),
        futures_util::stream::iter(head).chain(rest),
    ))
}

/// # `POST /chains/{id}/archive` (`chains:write`)
pub(crate) async fn archive_chain(app: &App, call: Call) -> Result<Response> {
    set_archived(app, call, true).await
}

/// # `DELETE /chains/{id}/archive` (`chains:write`)
pub(crate) async fn unarchive_chain(app: &App, call: Call) -> Result<Response> {
    set_archived(app, call, false).await
}

async fn set_archived(app: &App, call: Call, archived: bool) -> Result<Response> {
    let id = ChainId(path_id(call.param(), "chain")?);
    let view = app.archive_short_chain(&call.who, id, archived).await?;
    Ok(call.reply.ok(wire::Chain::from(&view)))
}

/// # `DELETE /chains/{id}` (`chains:write`)
pub(crate) async fn delete_chain(app: &App, call: Call) -> Result<Response> {
    let id = ChainId(path_id(call.param(), "chain")?);
    app.delete_short_chain(&call.who, id).await?;
    Ok(call.reply.ok(wire::DeletedChain {
        id: id.0,
        deleted: true,
    }))
}

/// # `POST /groups` (`groups:write`)
pub(crate) async fn create_group(app: &App, call: Call) -> Result<Response> {
    let input: wire::CreateGroup = json(&call.parts.headers, &call.body)?;
    let reply = call.reply;
    let answer = move |group: &Group| reply.created_answer(group_out(group));
    let receipt = call.receipt(answer);
    let group = app
        .create_group(&call.who, &input.name, input.chain_type, receipt.as_ref())
        .await?;
    Ok(answered(receipt, &group, answer))
}

/// # `GET /groups` (`groups:read`)
pub(crate) async fn list_groups(app: &App, call: Call) -> Result<Response> {
    let groups = app.groups(&call.who).await?;
    Ok(call
        .reply
        .ok(groups.iter().map(group_out).collect::<Vec<_>>()))
}

/// # `GET /groups/{id}` (`groups:read`)
pub(crate) async fn get_group(app: &App, call: Call) -> Result<Response> {
    let id = GroupId(path_id(call.param(), "group")?);
    let group = app.group(&call.who, id).await?;
    Ok(call.reply.ok(group_out(&group)))
}

/// # `GET /domains` (`domains:read`)
pub(crate) async fn list_domains(app: &App, call: Call) -> Result<Response> {
    let domains = app.domains_for(call.who.user_id).await?;
    Ok(call.reply.ok(domains
        .iter()
        .map(|d| domain_out(d, call.who.user_id))
        .collect::<Vec<_>>()))
}

/// # `GET /chains/{id}/conversions` (`conversions:read`)
pub(crate) async fn list_conversions(app: &App, call: Call) -> Result<Response> {
    let id = ChainId(path_id(call.param(), "chain")?);
    let q: wire::ListConversions = query(&call.parts)?;
    let (found, page, page_size) = app.conversions(&call.who, id, q.page, q.page_size).await?;
    Ok(call.reply.ok(wire::ConversionPage {
        list: found
            .items
            .into_iter()
            .map(|c| wire::Conversion::from(&c))
            .collect(),
        total: found.total,
        page,
        page_size,
    }))
}

/// # `GET /chains/{id}/stats`
pub(crate) async fn chain_stats(app: &App, call: Call) -> Result<Response> {
    let id = ChainId(path_id(call.param(), "chain")?);
    let q: wire::StatsQuery = query(&call.parts)?;
    let stats = app.chain_stats(&call.who, id, q.days).await?;
    Ok(call.reply.ok(wire::ChainStats {
        chain_id: stats.chain_id.0,
        total_clicks: stats.total_clicks,
        bot_clicks: stats.bot_clicks,
        unique_visitors: stats.unique_visitors,
        imported_visits: stats.imported_visits,
        trend_days: stats.daily.len() as i64,
        daily_trend: stats
            .daily
            .into_iter()
            .map(|day| wire::DayClicks {
                day: day.date,
                clicks: day.clicks,
                bot_clicks: day.bot_clicks,
            })
            .collect(),
    }))
}

/// # `GET /chains/{id}/stats/{dimension}?days=N&limit=M`: one route per dimension, which the
/// path's last segment names.
pub(crate) async fn chain_breakdown(app: &App, call: Call) -> Result<Response> {
    let id = ChainId(path_id(call.param(), "chain")?);
    let dimension = call
        .parts
        .uri
        .path()
        .rsplit('/')
        .next()
        .and_then(Dimension::from_name)
        .ok_or(crate::error::Error::NotFound("breakdown"))?;
    let q: wire::TopQuery = query(&call.parts)?;
    let breakdown = app
        .chain_breakdown(&call.who, id, dimension, q.days, q.limit)
        .await?;
    Ok(call.reply.ok(wire::ChainBreakdown {
        chain_id: breakdown.chain_id.0,
        dimension: breakdown.dimension.name().to_owned(),
        days: breakdown.days,
        items: breakdown
            .items
            .into_iter()
            .map(|item| wire::BreakdownItem {
                value: item.value,
                clicks: item.clicks,
            })
            .collect(),
        other_clicks: breakdown.other_clicks,
    }))
}

/// # `GET /stats?days=N&limit=M` (`stats:read`)
pub(crate) async fn user_stats(app: &App, call: Call) -> Result<Response> {
    let q: wire::TopQuery = query(&call.parts)?;
    let stats = app.user_stats(&call.who, q.days, q.limit).await?;
    Ok(call.reply.ok(wire::UserStats {
        days: stats.days,
        total_clicks: stats.total_clicks,
        bot_clicks: stats.bot_clicks,
        top_chains: stats
            .top_chains
            .iter()
            .map(|(chain, clicks)| wire::TopChain {
                chain_id: chain.id.0,
                code: chain.code.clone(),
                chain_title: chain.title.clone(),
                render_url: chain.render_url(),
                chain_type: chain.kind.code(),
                clicks: *clicks,
            })
            .collect(),
    }))
}

/// # `GET /chains/{id}/qr?format=png|svg&size=N` (`chains:read`): a QR code of the chain's
/// `render_url`.
pub(crate) async fn chain_qr(app: &App, call: Call) -> Result<Response> {
    let id = ChainId(path_id(call.param(), "chain")?);
    let q: wire::QrQuery = query(&call.parts)?;
    let (format, image) = app
        .chain_qr(&call.who, id, q.format.as_deref(), q.size)
        .await?;
    let mut response = crate::http::response::bytes(format.mime(), "private, max-age=3600", image);
    // An SVG opened directly runs nothing.
    response.headers_mut().insert(
        http::header::CONTENT_SECURITY_POLICY,
        http::HeaderValue::from_static("default-src 'none'; style-src 'unsafe-inline'; sandbox"),
    );
    Ok(response)
}
