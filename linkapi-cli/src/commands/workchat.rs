//! `linkapi workchat ...` and `linkapi admin workchat ...`.

use std::path::Path;

use anyhow::{Context as _, Result};
use linkapi_core::client::Client;
use linkapi_core::wire::{DomainRefs, IntList, LenientInt, admin, compat};

use super::page_chains::{delete_all, list_of, read_input};
use crate::cli::{AdminWorkchatCommand, WorkchatCommand, WorkchatFields};
use crate::context::{Context, parse_time};
use crate::exit::UsageError;
use crate::output::{Column, Record, col};

/// Transfer records sent per request (the server's limit).
const TRANSFERS_PER_LOAD: usize = 1000;

/// The id of the work-chat chain `chain` names.
async fn resolve_workchat(client: &Client, chain: &str, force_code: bool) -> Result<i64> {
    if !force_code && let Ok(id) = chain.parse::<i64>() {
        return Ok(id);
    }
    let info = client
        .workchat_chain_info(&compat::ChainRef {
            chain: chain.to_owned(),
            domain: None,
        })
        .await
        .with_context(|| format!("looking up chain {chain:?}"))?;
    Ok(info.chain_id)
}

fn workchat_input(fields: WorkchatFields) -> Result<compat::WorkchatChainInput> {
    let int = |v: Option<i64>| v.map(LenientInt);
    let wxwork_type = if fields.customer.is_some() {
        Some(1)
    } else if fields.url.is_some() {
        Some(2)
    } else {
        None
    };
    Ok(compat::WorkchatChainInput {
        chain_title: fields.title,
        customer_id: int(fields.customer),
        target_url: fields.url,
        wxwork_type: int(wxwork_type),
        is_direct_jump: if fields.direct_jump {
            Some(LenientInt(1))
        } else if fields.page {
            Some(LenientInt(0))
        } else {
            None
        },
        jump_template_id: int(fields.template),
        group_id: fields.group.map(|g| IntList(vec![g])),
        valid_time: fields
            .expires
            .as_deref()
            .map(|t| parse_time("--expires", t))
            .transpose()?
            .map(linkapi_core::wire::FlexibleTime),
        ..compat::WorkchatChainInput::default()
    })
}

/// Runs `linkapi workchat ...`.
pub async fn workchat(ctx: Context, command: WorkchatCommand) -> Result<()> {
    match command {
        WorkchatCommand::Create {
            fields,
            custom_code,
            domain,
            json,
        } => {
            if fields.customer.is_none() && fields.url.is_none() {
                return Err(UsageError(
                    "give --customer ID (an assembly-list entry) or --url URL".into(),
                )
                .into());
            }
            let mut input = workchat_input(fields)?;
            input.code = custom_code;
            let domain = super::domain_id_of(&ctx, domain.as_ref()).await?;
            input.domain = domain.map(|d| DomainRefs::from(vec![d]));
            let created = ctx.create_client()?.create_workchat_chain(&input).await?;
            ctx.out.success(&format!("Created {}", created.render_url));
            ctx.out.record(&created, json.json.as_deref())
        }
        WorkchatCommand::Edit {
            chain,
            channel,
            fields,
            json,
        } => {
            let mut input = workchat_input(fields)?;
            input.chain = Some(chain);
            input.channel_id = channel.map(LenientInt);
            let client = ctx.client()?;
            let edited = client.edit_workchat_chain(&input).await?;
            ctx.out.success(&format!("Updated {}", edited.render_url));
            let info = client
                .workchat_chain_info(&compat::ChainRef {
                    chain: edited.chain,
                    domain: None,
                })
                .await?;
            ctx.out.record(&info, json.json.as_deref())
        }
        WorkchatCommand::Info { chain, json } => {
            let info = ctx
                .client()?
                .workchat_chain_info(&compat::ChainRef {
                    chain,
                    domain: None,
                })
                .await?;
            ctx.out.record(&info, json.json.as_deref())
        }
        WorkchatCommand::List { page, limit, json } => {
            let chains = list_of(&ctx, 3, page, limit, false, None).await?;
            ctx.out.records(&chains, json.json.as_deref(), false)
        }
        WorkchatCommand::Delete { chains, code, yes } => {
            let client = ctx.client()?;
            let mut ids = Vec::with_capacity(chains.len());
            for chain in chains {
                let id = resolve_workchat(&client, &chain, code).await?;
                ids.push((chain, id));
            }
            delete_all(ctx, ids, yes).await
        }
        WorkchatCommand::Assemblies { page, limit, json } => {
            let found = ctx
                .client()?
                .assemblies(&compat::ListAssemblies {
                    page: Some(LenientInt(page)),
                    page_size: Some(LenientInt(limit)),
                })
                .await?;
            ctx.out.records(&found.list, json.json.as_deref(), false)
        }
        WorkchatCommand::Transfers {
            corp,
            handover,
            takeover,
            cursor,
            all,
            json,
        } => transfers(ctx, corp, handover, takeover, cursor, all, json.json).await,
    }
}

/// `linkapi workchat transfers`: one page, or with `all` every page to the end.
async fn transfers(
    ctx: Context,
    corp: String,
    handover: Option<String>,
    takeover: Option<String>,
    cursor: Option<String>,
    all: bool,
    json: Option<String>,
) -> Result<()> {
    let client = ctx.client()?;
    let mut request = compat::TransferRequest {
        cursor: cursor.unwrap_or_default(),
        handover_userid: handover.unwrap_or_default(),
        takeover_userid: takeover.unwrap_or_default(),
    };
    let mut rows = Vec::new();
    let next = loop {
        let page = client.transfer_result(&corp, &request).await?;
        rows.extend(page.results.into_iter().map(|t| {
            TransferRow {
                name: page
                    .names
                    .get(&t.external_userid)
                    .cloned()
                    .unwrap_or_default(),
                reason: page
                    .reasons
                    .get(&t.external_userid)
                    .cloned()
                    .unwrap_or_default(),
                external_userid: t.external_userid,
                status: t.status,
                takeover_time: t.takeover_time,
                errcode: t.errcode,
            }
        }));
        if !all || page.next_cursor.is_empty() {
            break page.next_cursor;
        }
        request.cursor = page.next_cursor;
    };
    ctx.out.records(&rows, json.as_deref(), false)?;
    if !next.is_empty() {
        ctx.out.note(&format!(
            "More: linkapi workchat transfers --corp {corp} --cursor {next}"
        ));
    }
    Ok(())
}

/// One transfer as the CLI prints it: the result with its customer's name and reason.
#[derive(Debug, serde::Serialize, schemars::JsonSchema)]
struct TransferRow {
    /// The customer.
    pub external_userid: String,
    /// The customer's name.
    pub name: String,
    /// 1 to 5.
    pub status: i64,
    /// Unix seconds, 0 if not taken over.
    pub takeover_time: i64,
    /// The work-chat's error code.
    pub errcode: i64,
    /// Why it failed.
    pub reason: String,
}

impl Record for TransferRow {
    fn columns() -> Vec<Column<Self>> {
        vec![
            col("CUSTOMER", |t| t.external_userid.clone()),
            col("NAME", |t| t.name.clone()),
            col("STATUS", |t| {
                match t.status {
                    1 => "taken over",
                    2 => "waiting",
                    3 => "refused",
                    4 => "taker at limit",
                    _ => "no record",
                }
                .to_owned()
            }),
            col("TAKEN OVER", |t| {
                if t.takeover_time == 0 {
                    String::new()
                } else {
                    linkapi_core::clock::format_rfc3339(t.takeover_time)
                }
            }),
            col("REASON", |t| t.reason.clone()),
        ]
    }
}

/// Runs `linkapi admin workchat ...`.
pub async fn admin(ctx: Context, command: AdminWorkchatCommand) -> Result<()> {
    let client = ctx.client()?;
    match command {
        AdminWorkchatCommand::AddAssembly {
            user,
            link_id,
            name,
            url,
            auth_status,
            invalid,
            json,
        } => {
            let entry = client
                .put_assembly(&admin::PutAssembly {
                    user_id: user,
                    link_id,
                    link_name: name,
                    url,
                    auth_status,
                    invalid,
                })
                .await?;
            ctx.out.success(&format!(
                "Assembly entry {} ({}) of user {}",
                entry.id, entry.link_id, entry.user_id
            ));
            ctx.out.record(&entry, json.json.as_deref())
        }
        AdminWorkchatCommand::Assemblies {
            user,
            page,
            limit,
            json,
        } => {
            let found = client
                .admin_assemblies(&admin::ListAssemblies {
                    user_id: user,
                    page: Some(page),
                    page_size: Some(limit),
                })
                .await?;
            ctx.out.records(&found.list, json.json.as_deref(), false)
        }
        AdminWorkchatCommand::LoadTransfers {
            user,
            corp,
            handover,
            takeover,
            file,
        } => {
            let records = transfer_records(&file)?;
            let mut stored = 0;
            for batch in records.chunks(TRANSFERS_PER_LOAD) {
                let loaded = client
                    .load_transfers(&admin::LoadTransfers {
                        user_id: user,
                        corp_id: corp.clone(),
                        handover_userid: handover.clone(),
                        takeover_userid: takeover.clone(),
                        records: batch.to_vec(),
                    })
                    .await
                    .with_context(|| {
                        format!("after {stored} of {} records were stored", records.len())
                    })?;
                stored += loaded.stored;
            }
            ctx.out
                .success(&format!("Stored {stored} transfer records"));
            Ok(())
        }
    }
}

/// Transfer records from a JSON array or JSON lines; errors name the line.
fn transfer_records(path: &Path) -> Result<Vec<admin::TransferRecord>> {
    let text = read_input(path)?;
    if text.trim_start().starts_with('[') {
        return serde_json::from_str(&text)
            .map_err(|e| UsageError(format!("{}: {e}", path.display())).into());
    }
    text.lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty())
        .map(|(n, line)| {
            serde_json::from_str(line)
                .map_err(|e| UsageError(format!("{} line {}: {e}", path.display(), n + 1)).into())
        })
        .collect()
}
