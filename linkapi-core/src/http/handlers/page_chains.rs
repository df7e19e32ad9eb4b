//! Chains with a jump page on both surfaces: `/wx-chains`, `/card`, `/card/createWxChain`,
//! `/openapi/v1/wxchain/*` and `/openapi/v1/workchat/chain/*` (work-chat data is in
//! `workchat`).

use std::collections::HashMap;

use super::compat::{listing, one_domain};
use crate::clock::format_sql;
use crate::error::{Error, Result, names};
use crate::http::call::{Call, answered};
use crate::http::request::{compat_input, json, path_id, query};
use crate::http::response::{Body, Reply};
use crate::model::{ChainId, ChainKind, Channel, ChannelId, DomainId, GroupId};
use crate::service::{
    App, ChainFilter, ChainListing, ChainView, ChannelSpec, KeptAnswer, PageChainInput,
    PageChainView, PageChains, Principal,
};
use crate::wire::{DomainRefs, compat, primary};

type Response = http::Response<Body>;

fn channel_out(c: &Channel) -> compat::Channel {
    compat::Channel {
        id: c.id.0,
        qrcode_name: c.name.clone(),
        qrcode_time: c.expires_at,
        ratio: c.ratio,
        sort: c.sort,
        status: i64::from(c.enabled),
        url: c.url.clone(),
        url2: c.url2.clone(),
        visit_limit: c.visit_limit,
        visit_count: c.visit_count,
    }
}

fn wx_chain_out(view: &ChainView, channels: Option<&[Channel]>) -> primary::WxChain {
    let jump = view.chain.jump.as_deref().cloned().unwrap_or_default();
    primary::WxChain {
        chain: primary::Chain::from(view),
        texts: primary::PageTextsView::from(&jump.texts),
        is_direct_jump: i64::from(jump.direct_jump),
        show_type: jump.show_type.code(),
        jump_template_id: jump.template_id.0,
        scan_tips: i64::from(jump.scan_tips),
        qrcode_vc_type: jump.visit_cap.code(),
        visit_type: jump.rotation.code(),
        wxwork_type: jump.workchat_kind.map(|k| k.code()),
        customer_id: jump.customer_id,
        channel_list: channels.map(|cs| cs.iter().map(channel_out).collect()),
    }
}

fn primary_channels(list: Option<Vec<primary::ChannelInput>>) -> Vec<ChannelSpec> {
    list.unwrap_or_default()
        .into_iter()
        .map(|c| ChannelSpec {
            id: c.id.map(ChannelId),
            delete: c.is_delete == Some(1),
            sort: c.sort,
            name: c.qrcode_name,
            url: c.url,
            url2: c.url2,
            qrcode_time: c.qrcode_time,
            ratio: c.ratio,
            visit_limit: c.visit_limit,
            status: c.status,
        })
        .collect()
}

fn compat_channels(list: Option<Vec<compat::ChannelInput>>) -> Vec<ChannelSpec> {
    list.unwrap_or_default()
        .into_iter()
        .map(|c| ChannelSpec {
            id: c.id.map(|i| ChannelId(i.0)),
            delete: c.is_delete.is_some_and(|d| d.0 == 1),
            sort: c.sort.map(|v| v.0),
            name: c.qrcode_name,
            url: c.url,
            url2: c.url2,
            qrcode_time: c.qrcode_time.map(|v| v.0),
            ratio: c.ratio.map(|v| v.0),
            visit_limit: c.visit_limit.map(|v| v.0),
            status: c.status.map(|v| v.0),
        })
        .collect()
}

fn primary_input(input: primary::WxChainInput) -> PageChainInput {
    let texts = input.texts();
    PageChainInput {
        domain_id: input.domain_id.map(DomainId),
        title: input.chain_title,
        code: input.code,
        valid_time: input.valid_time,
        group_ids: input.group_id.map(|g| vec![GroupId(g)]),
        sub_type: input.sub_type,
        texts,
        is_direct_jump: input.is_direct_jump,
        show_type: input.show_type,
        jump_template_id: input.jump_template_id,
        scan_tips: input.scan_tips,
        qrcode_vc_type: input.qrcode_vc_type,
        visit_type: input.visit_type,
        channels: primary_channels(input.channel_list),
        wxwork_type: input.wxwork_type,
        customer_id: input.customer_id,
        target_url: input.target_url,
        ..PageChainInput::default()
    }
}

/// The compatibility input as the service takes it; the domain list names one domain.
fn compat_input_of(
    app: &App,
    who: &Principal,
    input: compat::WxChainInput,
) -> Result<PageChainInput> {
    Ok(PageChainInput {
        chain_type: input.chain_type.map(|t| t.0),
        domain_id: one_domain(app, who, input.domain)?,
        title: input.chain_title,
        code: input.code,
        valid_time: input.valid_time.map(|t| t.0),
        group_ids: input
            .group_id
            .map(|g| g.0.into_iter().map(GroupId).collect()),
        sub_type: input.sub_type.map(|v| v.0).filter(|v| *v != 0),
        texts: input.texts.into(),
        is_direct_jump: input.is_direct_jump.map(|v| v.0),
        show_type: input.show_type.map(|v| v.0),
        jump_template_id: input.jump_template_id.map(|v| v.0),
        scan_tips: input.scan_tips.map(|v| v.0),
        qrcode_vc_type: input.qrcode_vc_type.map(|v| v.0),
        visit_type: input.visit_type.map(|v| v.0),
        channels: compat_channels(input.channel_list),
        ..PageChainInput::default()
    })
}

/// The compatibility operations name a chain to edit by code.
fn chain_code(chain: Option<String>) -> Result<String> {
    chain
        .filter(|c| !c.is_empty())
        .ok_or_else(|| Error::unprocessable(names::MISSING_CHAIN, "chain (the code) is required"))
}

fn created(view: &ChainView) -> compat::CreatedWxChain {
    compat::CreatedWxChain {
        chain: view.chain.code.clone(),
        render_url: view.chain.render_url(),
    }
}

/// The answer of the compatibility surface's page-chain creates.
fn created_answer(reply: Reply) -> impl Fn(&ChainView) -> KeptAnswer + Copy {
    move |view: &ChainView| reply.ok_answer(created(view))
}

// ---- primary surface ----------------------------------------------------------------------

/// # `POST /wx-chains` (`chains:write`)
pub(crate) async fn create_wx_chain(app: &App, call: Call) -> Result<Response> {
    let primary::NewWxChain(input) = json(&call.parts.headers, &call.body)?;
    let reply = call.reply;
    let answer = move |view: &ChainView| {
        let c = &view.chain;
        reply.created_answer(primary::CreatedWxChain {
            code: c.code.clone(),
            domain_id: c.domain.id.0,
            id: c.id.0,
            status: view.status.code(),
            sub_type: c.sub_type.unwrap_or(1),
            chain_type: c.kind.code(),
            render_url: c.render_url(),
        })
    };
    let receipt = call.receipt(answer);
    let view = app
        .create_messaging_chain(
            &call.who,
            ChainKind::Messaging,
            primary_input(input),
            receipt.as_ref(),
        )
        .await?;
    Ok(answered(receipt, &view.view, answer))
}

/// # `GET /wx-chains` (`chains:read`): the caller's external chains, or with
/// `?chain_type=3` work-chat chains, `?chain_type=4` card chains (also in `GET /card`).
pub(crate) async fn list_wx_chains(app: &App, call: Call) -> Result<Response> {
    let q: primary::ListWxChains = query(&call.parts)?;
    let (found, page, page_size) = app
        .list_page_chains(
            &call.who,
            q.chain_type,
            ChainListing {
                page: q.page,
                page_size: q.page_size,
                filter: ChainFilter {
                    group_id: q.group_id.map(GroupId),
                    text: q.q,
                    ..ChainFilter::default()
                },
                ..ChainListing::default()
            },
        )
        .await?;
    Ok(call.reply.ok(primary::WxChainPage {
        list: found.items.iter().map(|v| wx_chain_out(v, None)).collect(),
        total: found.total,
        page,
        page_size,
    }))
}

/// # `GET /wx-chains/{id}` (`chains:read`)
pub(crate) async fn get_wx_chain(app: &App, call: Call) -> Result<Response> {
    let id = ChainId(path_id(call.param(), "chain")?);
    let view = app.page_chain(&call.who, id, PageChains::All).await?;
    Ok(call
        .reply
        .ok(wx_chain_out(&view.view, Some(&view.channels))))
}

/// # `PATCH /wx-chains/{id}` (`chains:write`)
pub(crate) async fn update_wx_chain(app: &App, call: Call) -> Result<Response> {
    let id = ChainId(path_id(call.param(), "chain")?);
    let input: primary::WxChainInput = json(&call.parts.headers, &call.body)?;
    let view = app
        .edit_page_chain(&call.who, id, PageChains::All, primary_input(input))
        .await?;
    Ok(call
        .reply
        .ok(wx_chain_out(&view.view, Some(&view.channels))))
}

/// # `DELETE /wx-chains/{id}` (`chains:write`)
pub(crate) async fn delete_wx_chain(app: &App, call: Call) -> Result<Response> {
    let id = ChainId(path_id(call.param(), "chain")?);
    app.delete_page_chain(&call.who, id, PageChains::All)
        .await?;
    Ok(call.reply.ok(primary::DeletedChain {
        id: id.0,
        deleted: true,
    }))
}

/// # `GET /card` (`card:read`): up to 100 card chains, newest first.
pub(crate) async fn list_cards(app: &App, call: Call) -> Result<Response> {
    let found = app.list_cards(&call.who).await?;
    Ok(call.reply.ok(primary::CardList {
        list: found.items.iter().map(|v| wx_chain_out(v, None)).collect(),
        total: found.total,
    }))
}

/// # `POST /card/createWxChain` (`card:write`; compatibility envelope)
pub(crate) async fn create_card(app: &App, call: Call) -> Result<Response> {
    let compat::CardChainInput(input) = json(&call.parts.headers, &call.body)?;
    let answer = created_answer(call.reply);
    let receipt = call.receipt(answer);
    let view = app
        .create_messaging_chain(
            &call.who,
            ChainKind::Card,
            compat_input_of(app, &call.who, input)?,
            receipt.as_ref(),
        )
        .await?;
    Ok(answered(receipt, &view.view, answer))
}

// ---- compatibility surface ----------------------------------------------------------------

fn wx_info(view: &PageChainView) -> compat::WxChainInfo {
    let c = &view.view.chain;
    let jump = view.settings();
    compat::WxChainInfo {
        chain: c.code.clone(),
        chain_id: c.id.0,
        chain_title: c.title.clone(),
        chain_type: c.kind.code(),
        channel_list: view.channels.iter().map(channel_out).collect(),
        texts: compat::PageTextsInfo::from(&jump.texts),
        domain: c.domain.id.0,
        domain_url: c.domain.host.clone(),
        group_id: c.group_ids.first().map_or(0, |g| g.0),
        group_ids: c.group_ids.iter().map(|g| g.0).collect(),
        is_del: i64::from(c.deleted_at.is_some()),
        is_direct_jump: i64::from(jump.direct_jump),
        jump_template_id: jump.template_id.0,
        qrcode_vc_type: jump.visit_cap.code(),
        render_url: c.render_url(),
        scan_tips: i64::from(jump.scan_tips),
        show_type: jump.show_type.code(),
        status: view.view.status.code(),
        sub_type: c.sub_type.unwrap_or(1),
        target_url: c.target_url.clone(),
        visit_type: jump.rotation.code(),
        valid_time: if c.valid_time == 0 {
            String::new()
        } else {
            format_sql(c.valid_time)
        },
        pv_today: view.view.views.today,
        pv_history: view.view.views.history,
    }
}

/// # `POST /openapi/v1/wxchain/create` (`chains:write`)
pub(crate) async fn compat_create_wx_chain(app: &App, call: Call) -> Result<Response> {
    let input: compat::WxChainInput = compat_input(&call.parts, &call.body)?;
    let answer = created_answer(call.reply);
    let receipt = call.receipt(answer);
    let view = app
        .create_messaging_chain(
            &call.who,
            ChainKind::Messaging,
            compat_input_of(app, &call.who, input)?,
            receipt.as_ref(),
        )
        .await?;
    Ok(answered(receipt, &view.view, answer))
}

/// What the compatibility surface's two kinds of page chain differ in, messaging-app
/// (`/openapi/v1/wxchain/*`) and work-chat (`/openapi/v1/workchat/chain/*`): their edit is
/// one handler ([`compat_edit_page_chain`]) and their info one function ([`compat_info`]).
pub(crate) trait CompatPageChain:
    serde::de::DeserializeOwned + schemars::JsonSchema
{
    /// The chains its operations address.
    const CHAINS: PageChains;
    /// Takes the code and the domain naming the chain out of an edit.
    fn take_chain(&mut self) -> (Option<String>, Option<DomainRefs>);
    /// The rest of the input, as the service takes it.
    fn into_input(self, app: &App, who: &Principal) -> Result<PageChainInput>;
}

impl CompatPageChain for compat::WxChainInput {
    const CHAINS: PageChains = PageChains::Messaging;
    fn take_chain(&mut self) -> (Option<String>, Option<DomainRefs>) {
        (self.chain.take(), self.domain.take())
    }
    fn into_input(self, app: &App, who: &Principal) -> Result<PageChainInput> {
        compat_input_of(app, who, self)
    }
}

impl CompatPageChain for compat::WorkchatChainInput {
    const CHAINS: PageChains = PageChains::WorkChat;
    fn take_chain(&mut self) -> (Option<String>, Option<DomainRefs>) {
        (self.chain.take(), self.domain.take())
    }
    fn into_input(self, app: &App, who: &Principal) -> Result<PageChainInput> {
        workchat_input(app, who, self)
    }
}

/// # `POST /openapi/v1/wxchain/edit` and `/openapi/v1/workchat/chain/edit` (`chains:write`)
pub(crate) async fn compat_edit_page_chain<I: CompatPageChain>(
    app: &App,
    call: Call,
) -> Result<Response> {
    let mut input: I = compat_input(&call.parts, &call.body)?;
    let (code, domain) = input.take_chain();
    let code = chain_code(code)?;
    let domain = one_domain(app, &call.who, domain)?;
    let input = input.into_input(app, &call.who)?;
    let view = app
        .edit_page_chain_by_code(&call.who, &code, domain, I::CHAINS, input)
        .await?;
    Ok(call.reply.ok(created(&view.view)))
}

/// The compatibility surface's info of the chain a [`compat::ChainRef`] names among
/// `chains`, as `encode` shows it.
async fn compat_info<T: serde::Serialize>(
    app: &App,
    call: Call,
    chains: PageChains,
    encode: fn(&PageChainView) -> T,
) -> Result<Response> {
    let input: compat::ChainRef = compat_input(&call.parts, &call.body)?;
    let domain = one_domain(app, &call.who, input.domain)?;
    let view = app
        .page_chain_by_code(&call.who, &input.chain, domain, chains)
        .await?;
    Ok(call.reply.ok(encode(&view)))
}

/// # `GET|POST /openapi/v1/wxchain/info` (`chains:read`)
pub(crate) async fn compat_wx_chain_info(app: &App, call: Call) -> Result<Response> {
    compat_info(app, call, PageChains::Messaging, wx_info).await
}

/// Pages for `total` rows of `size`, at least 1.
pub(super) fn page_count(total: i64, size: i64) -> i64 {
    ((total + size - 1) / size.max(1)).max(1)
}

/// # `GET|POST /openapi/v1/wxchain/list` (`chains:read`): external chains (not card chains).
pub(crate) async fn compat_list_wx_chains(app: &App, call: Call) -> Result<Response> {
    let input: compat::ListWxChains = compat_input(&call.parts, &call.body)?;
    let (found, page, size) = app
        .list_chains_of_kind(&call.who, ChainKind::Messaging, listing(input, false))
        .await?;
    let groups: HashMap<GroupId, String> = app
        .groups(&call.who)
        .await?
        .into_iter()
        .map(|g| (g.id, g.name))
        .collect();
    let list = found
        .items
        .iter()
        .map(|v| {
            let c = &v.chain;
            let jump = c.jump.as_deref().cloned().unwrap_or_default();
            let group = c.group_ids.first().copied();
            compat::WxChainItem {
                chain: c.code.clone(),
                chain_id: c.id.0,
                chain_title: c.title.clone(),
                chain_type: c.kind.code(),
                create_time: format_sql(c.created_at),
                customer_id: jump.customer_id.unwrap_or(0),
                domain: c.domain.id.0,
                domain_status: c.domain.status.code(),
                domain_url: c.domain.host.clone(),
                group_id: group.map_or(0, |g| g.0),
                group_name: group
                    .and_then(|g| groups.get(&g).cloned())
                    .unwrap_or_default(),
                pv_history: v.views.history,
                pv_today: v.views.today,
                render_url: c.render_url(),
                show_type: jump.show_type.code(),
                status: v.status.label().into(),
                sub_type: c.sub_type.unwrap_or(1),
                target_url: c.target_url.clone(),
                template_id: jump.template_id.0,
            }
        })
        .collect();
    Ok(call.reply.ok(compat::WxChainList {
        list,
        page: page.to_string(),
        page_count: page_count(found.total, size).to_string(),
        total: found.total,
    }))
}

fn workchat_input(
    app: &App,
    who: &Principal,
    input: compat::WorkchatChainInput,
) -> Result<PageChainInput> {
    Ok(PageChainInput {
        chain_type: input.chain_type.map(|t| t.0),
        domain_id: one_domain(app, who, input.domain)?,
        title: input.chain_title,
        code: input.code,
        valid_time: input.valid_time.map(|t| t.0),
        group_ids: input
            .group_id
            .map(|g| g.0.into_iter().map(GroupId).collect()),
        is_direct_jump: input.is_direct_jump.map(|v| v.0),
        jump_template_id: input.jump_template_id.map(|v| v.0),
        wxwork_type: input.wxwork_type.map(|v| v.0),
        customer_id: input.customer_id.map(|v| v.0),
        target_url: input.target_url,
        channel_id: input
            .channel_id
            .map(|c| ChannelId(c.0))
            .filter(|c| c.0 != 0),
        ..PageChainInput::default()
    })
}

/// # `POST /openapi/v1/workchat/chain/create` (`chains:write`)
pub(crate) async fn compat_create_workchat_chain(app: &App, call: Call) -> Result<Response> {
    let input: compat::WorkchatChainInput = compat_input(&call.parts, &call.body)?;
    let answer = created_answer(call.reply);
    let receipt = call.receipt(answer);
    let view = app
        .create_workchat_chain(
            &call.who,
            workchat_input(app, &call.who, input)?,
            receipt.as_ref(),
        )
        .await?;
    Ok(answered(receipt, &view.view, answer))
}

/// # `GET|POST /openapi/v1/workchat/chain/info` (`chains:read`)
pub(crate) async fn compat_workchat_chain_info(app: &App, call: Call) -> Result<Response> {
    compat_info(app, call, PageChains::WorkChat, workchat_info).await
}

fn workchat_info(view: &PageChainView) -> compat::WorkchatChainInfo {
    let c = &view.view.chain;
    let jump = view.settings();
    compat::WorkchatChainInfo {
        chain: c.code.clone(),
        chain_id: c.id.0,
        chain_title: c.title.clone(),
        chain_type: c.kind.code(),
        channel_list: view
            .channels
            .iter()
            .map(|ch| compat::WorkchatChannel {
                id: ch.id.0,
                url: ch.url.clone(),
                visit_count: ch.visit_count,
            })
            .collect(),
        customer_id: jump.customer_id.unwrap_or(0),
        domain: c.domain.id.0,
        domain_url: c.domain.host.clone(),
        group_id: c.group_ids.first().map_or(0, |g| g.0),
        is_direct_jump: i64::from(jump.direct_jump),
        jump_template_id: jump.template_id.0,
        render_url: c.render_url(),
        status: view.view.status.code(),
        target_url: c.target_url.clone(),
        wxwork_type: jump.workchat_kind.map_or(0, |k| k.code()),
        pv_today: view.view.views.today,
        pv_history: view.view.views.history,
    }
}
