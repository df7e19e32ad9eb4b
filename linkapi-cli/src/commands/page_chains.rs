//! `linkapi wx ...` and `linkapi card ...` (`workchat` has the work-chat commands); the helpers
//! both use.

use std::io::Read;
use std::path::Path;

use anyhow::{Context as _, Result};
use linkapi_core::client::Client;
use linkapi_core::wire::{DomainRefs, IntList, LenientInt, compat, primary};

use super::page_size;
use crate::cli::{
    CapArg, CardCommand, DomainArg, RotationArg, ShowTypeArg, SubTypeArg, WxCommand, WxFields,
};
use crate::context::{Context, parse_time};
use crate::exit::UsageError;

pub(super) fn read_input(path: &Path) -> Result<String> {
    let mut text = String::new();
    if path == Path::new("-") {
        std::io::stdin()
            .read_to_string(&mut text)
            .context("reading standard input")?;
    } else {
        text =
            std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    }
    Ok(text)
}

/// The input the flags (over `--from-file`) describe, in the shape of `POST /wx-chains`.
fn wx_input(fields: WxFields) -> Result<primary::WxChainInput> {
    let mut input = match &fields.from_file {
        Some(path) => serde_json::from_str::<primary::WxChainInput>(&read_input(path)?)
            .map_err(|e| UsageError(format!("{}: {e}", path.display())))?,
        None => primary::WxChainInput::default(),
    };
    let set = |slot: &mut Option<String>, value: Option<String>| {
        if value.is_some() {
            *slot = value;
        }
    };
    set(&mut input.chain_title, fields.title);
    set(&mut input.scan_qr_url, fields.qr_url);
    set(&mut input.wx_id, fields.wx_id);
    set(&mut input.mini_appid, fields.mini_appid);
    set(&mut input.mini_path, fields.mini_path);
    set(&mut input.shop_appid, fields.shop_appid);
    set(&mut input.shop_path, fields.shop_path);
    set(&mut input.qwhk_url, fields.qwhk_url);
    set(&mut input.avatar, fields.avatar);
    set(&mut input.guide_text, fields.guide_text);
    set(&mut input.promo_desc, fields.desc);
    set(&mut input.sub_title, fields.sub_title);
    if let Some(sub_type) = fields.sub_type {
        input.sub_type = Some(match sub_type {
            SubTypeArg::ScanQr => 1,
            SubTypeArg::Account => 2,
            SubTypeArg::MiniProgram => 3,
            SubTypeArg::Shop => 4,
            SubTypeArg::WorkchatUrl => 5,
        });
    }
    if fields.direct_jump {
        input.is_direct_jump = Some(1);
    } else if fields.page {
        input.is_direct_jump = Some(0);
    }
    if let Some(show) = fields.show_type {
        input.show_type = Some(match show {
            ShowTypeArg::Small => 1,
            ShowTypeArg::Long => 2,
        });
    }
    if fields.template.is_some() {
        input.jump_template_id = fields.template;
    }
    if fields.scan_tips.is_some() {
        input.scan_tips = fields.scan_tips;
    }
    if let Some(rotation) = fields.rotation {
        input.visit_type = Some(match rotation {
            RotationArg::Sort => 1,
            RotationArg::Weighted => 3,
            RotationArg::RoundRobin => 4,
            RotationArg::Uniform => 5,
        });
    }
    if let Some(cap) = fields.cap {
        input.qrcode_vc_type = Some(match cap {
            CapArg::Total => 1,
            CapArg::Daily => 2,
        });
    }
    if let Some(expires) = fields.expires.as_deref() {
        input.valid_time = Some(parse_time("--expires", expires)?);
    }
    if fields.group.is_some() {
        input.group_id = fields.group;
    }
    if !fields.channels.is_empty() {
        let list = input.channel_list.get_or_insert_with(Vec::new);
        let base = list.len() as i64;
        list.extend(fields.channels.into_iter().enumerate().map(|(i, url)| {
            primary::ChannelInput {
                url: Some(url),
                sort: Some(base + i as i64 + 1),
                ..primary::ChannelInput::default()
            }
        }));
    }
    Ok(input)
}

/// `input` with the code and domain flags of a create applied over the file's.
fn placed(
    mut input: primary::WxChainInput,
    code: Option<String>,
    domain: Option<i64>,
) -> primary::WxChainInput {
    if code.is_some() {
        input.code = code;
    }
    if domain.is_some() {
        input.domain_id = domain;
    }
    input
}

/// The same input in the compatibility shape (`/card/createWxChain`).
fn card_input(input: primary::WxChainInput) -> compat::WxChainInput {
    let int = |v: Option<i64>| v.map(LenientInt);
    let texts = input.texts().into();
    compat::WxChainInput {
        chain: None,
        chain_title: input.chain_title,
        chain_type: Some(LenientInt(4)),
        code: input.code,
        domain: input.domain_id.map(|d| DomainRefs::from(vec![d])),
        group_id: input.group_id.map(|g| IntList(vec![g])),
        valid_time: input.valid_time.map(linkapi_core::wire::FlexibleTime),
        sub_type: int(input.sub_type),
        texts,
        is_direct_jump: int(input.is_direct_jump),
        jump_template_id: int(input.jump_template_id),
        qrcode_vc_type: int(input.qrcode_vc_type),
        scan_tips: int(input.scan_tips),
        show_type: int(input.show_type),
        visit_type: int(input.visit_type),
        channel_list: input.channel_list.map(|list| {
            list.into_iter()
                .map(|c| compat::ChannelInput {
                    id: int(c.id),
                    is_delete: int(c.is_delete),
                    qrcode_time: int(c.qrcode_time),
                    ratio: int(c.ratio),
                    sort: int(c.sort),
                    status: int(c.status),
                    visit_limit: int(c.visit_limit),
                    qrcode_name: c.qrcode_name,
                    url: c.url,
                    url2: c.url2,
                })
                .collect()
        }),
    }
}

/// The id of the messaging-app (or card) chain `chain` names: all digits is an id unless
/// `force_code`.
async fn resolve_wx(
    client: &Client,
    chain: &str,
    force_code: bool,
    domain: Option<&DomainArg>,
) -> Result<i64> {
    if !force_code && let Ok(id) = chain.parse::<i64>() {
        return Ok(id);
    }
    let domain = super::domain_id(client, domain).await?;
    let info = client
        .compat_wx_chain_info(&compat::ChainRef {
            chain: chain.to_owned(),
            domain: domain.map(|d| DomainRefs::from(vec![d])),
        })
        .await
        .with_context(|| format!("looking up chain {chain:?}"))?;
    Ok(info.chain_id)
}

/// Lists a page (or every page) of page chains of one type.
pub(super) async fn list_of(
    ctx: &Context,
    chain_type: i64,
    page: i64,
    limit: Option<i64>,
    all: bool,
    query: Option<String>,
) -> Result<Vec<primary::WxChain>> {
    let client = ctx.client()?;
    let mut request = primary::ListWxChains {
        chain_type: Some(chain_type),
        page: Some(page),
        page_size: Some(page_size(limit, all)),
        group_id: None,
        q: query,
    };
    let mut chains = Vec::new();
    loop {
        let found = client.list_wx_chains(&request).await?;
        let fetched = found.list.len() as i64;
        chains.extend(found.list);
        let seen = (found.page - 1) * found.page_size + fetched;
        if !all {
            super::note_more(ctx, seen, found.total, found.page);
        }
        if !all || fetched == 0 || seen >= found.total {
            break;
        }
        request.page = Some(found.page + 1);
    }
    Ok(chains)
}

/// Deletes page chains after one confirmation.
pub(super) async fn delete_all(ctx: Context, ids: Vec<(String, i64)>, yes: bool) -> Result<()> {
    let names: Vec<&str> = ids.iter().map(|(name, _)| name.as_str()).collect();
    let question = match names.as_slice() {
        [one] => format!("Delete chain {one}? Its link stops working"),
        many => format!(
            "Delete {} chains ({})? Their links stop working",
            many.len(),
            many.join(", ")
        ),
    };
    if !ctx.confirm(&question, yes)? {
        ctx.out.note("Nothing deleted.");
        return Ok(());
    }
    let client = ctx.client()?;
    for (name, id) in &ids {
        client.delete_wx_chain(*id).await?;
        ctx.out.done(&format!("Deleted {name}"));
    }
    Ok(())
}

/// Prints a chain, then (on a terminal) its channels as a table. Piped, the chain's row
/// alone, as every other record prints: its channels are in `--json`.
pub(super) fn show_chain(
    ctx: &Context,
    chain: &primary::WxChain,
    json: Option<&str>,
) -> Result<()> {
    ctx.out.record(chain, json)?;
    if json.is_none()
        && ctx.out.stdout_tty
        && let Some(channels) = &chain.channel_list
        && !channels.is_empty()
    {
        ctx.out.line("");
        ctx.out.records(channels, None, false)?;
    }
    Ok(())
}

/// Runs `linkapi wx ...`.
pub async fn wx(ctx: Context, command: WxCommand) -> Result<()> {
    match command {
        WxCommand::Create {
            fields,
            custom_code,
            domain,
            json,
        } => {
            let domain = super::domain_id_of(&ctx, domain.as_ref()).await?;
            let input = placed(wx_input(*fields)?, custom_code, domain);
            let created = ctx
                .create_client()?
                .create_wx_chain(&primary::NewWxChain(input))
                .await?;
            ctx.out.success(&format!("Created {}", created.render_url));
            ctx.out.record(&created, json.json.as_deref())
        }
        WxCommand::List {
            page,
            limit,
            all,
            query,
            json,
        } => {
            let chains = list_of(&ctx, 2, page, limit, all, query).await?;
            if chains.is_empty() && json.json.is_none() && ctx.out.stderr_tty {
                ctx.out.note("No messaging-app chains.");
            }
            ctx.out.records(&chains, json.json.as_deref(), false)
        }
        WxCommand::Info { chain, json } => {
            let client = ctx.client()?;
            let id = resolve_wx(&client, &chain.chain, chain.code, chain.domain.as_ref()).await?;
            show_chain(&ctx, &client.wx_chain(id).await?, json.json.as_deref())
        }
        WxCommand::Qr { chain, image } => {
            let client = ctx.client()?;
            let id = resolve_wx(&client, &chain.chain, chain.code, chain.domain.as_ref()).await?;
            match super::chain::qr_output(&ctx, &image) {
                None => super::chain::draw_qr(&ctx, &client.wx_chain(id).await?.chain.render_url),
                Some(format) => {
                    let found = client.wx_chain_qr(id, format, Some(image.size)).await?;
                    super::chain::write_qr(&ctx, image.output, &found)
                }
            }
        }
        WxCommand::Edit {
            chain,
            fields,
            json,
        } => {
            let input = wx_input(*fields)?;
            if input.domain_id.is_some() || input.code.is_some() {
                return Err(UsageError(
                    "domain_id and code cannot change; create a new chain instead".into(),
                )
                .into());
            }
            let client = ctx.client()?;
            let id = resolve_wx(&client, &chain.chain, chain.code, chain.domain.as_ref()).await?;
            let updated = client.update_wx_chain(id, &input).await?;
            ctx.out
                .success(&format!("Updated {}", updated.chain.render_url));
            show_chain(&ctx, &updated, json.json.as_deref())
        }
        WxCommand::Delete { chains, code, yes } => {
            let client = ctx.client()?;
            let mut ids = Vec::with_capacity(chains.len());
            for chain in chains {
                let id = resolve_wx(&client, &chain, code, None).await?;
                ids.push((chain, id));
            }
            delete_all(ctx, ids, yes).await
        }
    }
}

/// Runs `linkapi card ...`.
pub async fn card(ctx: Context, command: CardCommand) -> Result<()> {
    match command {
        CardCommand::List { json } => {
            let cards = ctx.client()?.cards().await?;
            if cards.list.is_empty() && json.json.is_none() && ctx.out.stderr_tty {
                ctx.out.note("No card chains.");
            }
            ctx.out.records(&cards.list, json.json.as_deref(), false)
        }
        CardCommand::Create {
            fields,
            custom_code,
            domain,
            json,
        } => {
            let domain = super::domain_id_of(&ctx, domain.as_ref()).await?;
            let input = placed(wx_input(*fields)?, custom_code, domain);
            let created = ctx.create_client()?.create_card(&card_input(input)).await?;
            ctx.out.success(&format!("Created {}", created.render_url));
            ctx.out.record(&created, json.json.as_deref())
        }
    }
}
