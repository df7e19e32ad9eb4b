//! Compatibility surface: `/openapi/v1/chain/*`, `group/*`, `domain/list`.

use crate::clock::format_sql;
use crate::error::{Error, Result, names};
use crate::http::call::{Call, answered};
use crate::http::request::compat_input;
use crate::http::response::Body;
use crate::model::{ChainId, DomainId, Group, GroupId};
use crate::service::{
    App, ChainFilter, ChainListing, ChainView, ConversionReport, CreatedChain, NewShortChain,
    OptionsInput, Principal, ShortChainPatch,
};
use crate::wire::compat as wire;
use crate::wire::envelope::Empty;
use crate::wire::{DomainRef, DomainRefs, LenientInt};

type Response = http::Response<Body>;

/// The compatibility surface sends domains as a list; a chain lives on one, named by its id
/// or (as the vendor's clients do) by its host name.
pub(crate) fn one_domain(
    app: &App,
    who: &Principal,
    domain: Option<DomainRefs>,
) -> Result<Option<DomainId>> {
    match domain.map(|d| d.0).as_deref() {
        None | Some([]) | Some([DomainRef::Id(0)]) => Ok(None),
        Some([DomainRef::Id(id)]) => Ok(Some(DomainId(*id))),
        Some([DomainRef::Host(host)]) => app.domain_named(who, host).map(Some),
        Some(_) => Err(Error::bad_request(
            names::INVALID_DOMAIN_MALFORMED,
            "domain takes one domain id or host name",
        )),
    }
}

/// 0 means "no group" on this surface.
fn group(id: Option<LenientInt>) -> Option<GroupId> {
    id.map(|g| g.0).filter(|g| *g != 0).map(GroupId)
}

fn item(view: &ChainView) -> wire::ChainItem {
    let c = &view.chain;
    wire::ChainItem {
        chain: c.code.clone(),
        chain_id: c.id.0,
        chain_title: c.title.clone(),
        create_time: format_sql(c.created_at),
        domain: c.domain.id.0,
        domain_status: c.domain.status.code(),
        domain_url: c.domain.host.clone(),
        group_id: c.group_ids.first().map_or(0, |g| g.0),
        pv_history: view.views.history,
        pv_today: view.views.today,
        render_url: c.render_url(),
        status: view.status.label().into(),
        sub_type: c.sub_type.unwrap_or(0),
        chain_type: c.kind.code(),
        target_url: c.target_url.clone(),
        valid_time: if c.valid_time == 0 {
            String::new()
        } else {
            format_sql(c.valid_time)
        },
    }
}

/// # `POST /openapi/v1/chain/create` (`chains:write`)
pub(crate) async fn create_chain(app: &App, call: Call) -> Result<Response> {
    let input: wire::CreateChain = compat_input(&call.parts, &call.body)?;
    let reply = call.reply;
    let answer = move |created: &CreatedChain| {
        let chain = &created.view.chain;
        reply.ok_answer(wire::CreatedChain {
            chain: chain.code.clone(),
            chain_title: chain.title.clone(),
            created_today: created.created_today,
            group_id: chain.group_ids.first().map_or(0, |g| g.0),
            render_url: chain.render_url(),
        })
    };
    let receipt = call.receipt(answer);
    let created = app
        .create_short_chain(
            &call.who,
            NewShortChain {
                target_url: input.target_url,
                domain_id: one_domain(app, &call.who, input.domain)?,
                title: input.chain_title,
                code: input.code.filter(|c| !c.is_empty()),
                valid_time: input.valid_time.map_or(0, |t| t.0),
                group_id: group(input.group_id),
                rules: Vec::new(),
                options: OptionsInput::default(),
            },
            receipt.as_ref(),
        )
        .await?;
    Ok(answered(receipt, &created, answer))
}

/// # `POST /openapi/v1/chain/edit` (`chains:write`)
pub(crate) async fn edit_chain(app: &App, call: Call) -> Result<Response> {
    let input: wire::EditChain = compat_input(&call.parts, &call.body)?;
    let view = app
        .update_short_chain_by_code(
            &call.who,
            &input.chain.chain,
            one_domain(app, &call.who, input.chain.domain)?,
            ShortChainPatch {
                title: input.chain_title,
                target_url: input.target_url,
                valid_time: input.valid_time.map(|t| t.0),
                rules: None,
                options: OptionsInput::default(),
            },
        )
        .await?;
    Ok(call.reply.ok(wire::EditedChain {
        render_url: view.chain.render_url(),
        target_url: view.chain.target_url,
    }))
}

/// # `POST /openapi/v1/chain/delete` (`chains:write`)
pub(crate) async fn delete_chains(app: &App, call: Call) -> Result<Response> {
    let input: wire::DeleteChains = compat_input(&call.parts, &call.body)?;
    let domain = one_domain(app, &call.who, input.domain)?;
    app.delete_short_chains_by_code(&call.who, &input.chains, domain)
        .await?;
    Ok(call.reply.ok(Empty))
}

/// A compatibility listing's input as the service takes it; `by_rows`: rows by `start` and
/// `count` unless a page is asked for (the vendor's `getChainList`).
pub(crate) fn listing(input: wire::ListChains, by_rows: bool) -> ChainListing {
    let int = |v: Option<LenientInt>| v.map(|v| v.0);
    let mut listing = ChainListing {
        page: int(input.page),
        page_size: int(input.page_size),
        start: int(input.start),
        count: int(input.count),
        filter: ChainFilter {
            group_id: group(input.group_id),
            text: input.keyword,
            created_from: int(input.begin_date),
            created_until: int(input.end_date),
            ..ChainFilter::default()
        },
    };
    if by_rows && listing.page.is_none() && listing.page_size.is_none() {
        listing.start.get_or_insert(0);
    }
    listing
}

/// # `GET|POST /openapi/v1/chain/list` (`chains:read`), the vendor's `getChainList`
pub(crate) async fn list_chains(app: &App, call: Call) -> Result<Response> {
    let input: wire::ListChains = compat_input(&call.parts, &call.body)?;
    let listing = listing(input, call.vendor.is_some());
    let (found, _, _) = app.list_short_chains(&call.who, listing).await?;
    let list: Vec<_> = found.items.iter().map(item).collect();
    Ok(call.reply.ok(wire::ChainList {
        list_num: list.len() as i64,
        list,
        total: found.total,
    }))
}

/// # `GET|POST /openapi/v1/chain/info` (`chains:read`)
pub(crate) async fn chain_info(app: &App, call: Call) -> Result<Response> {
    let input: wire::ChainInfo = compat_input(&call.parts, &call.body)?;
    let view = app
        .short_chain_by_code(
            &call.who,
            &input.chain,
            one_domain(app, &call.who, input.domain)?,
        )
        .await?;
    Ok(call.reply.ok(item(&view)))
}

/// # `POST /openapi/v1/group/create` (`groups:write`)
pub(crate) async fn create_group(app: &App, call: Call) -> Result<Response> {
    let input: wire::CreateGroup = compat_input(&call.parts, &call.body)?;
    let reply = call.reply;
    let answer = move |group: &Group| {
        reply.ok_answer(wire::CreatedGroup {
            group_id: group.id.0.to_string(),
        })
    };
    let receipt = call.receipt(answer);
    let group = app
        .create_group(
            &call.who,
            &input.name,
            input.chain_type.map_or(0, |t| t.0),
            receipt.as_ref(),
        )
        .await?;
    Ok(answered(receipt, &group, answer))
}

/// # `GET|POST /openapi/v1/group/list` (`groups:read`), the vendor's `getChainGroup`
///
/// The vendor's operation answers the list alone, an array (contract section 5).
pub(crate) async fn list_groups(app: &App, call: Call) -> Result<Response> {
    let input: wire::ListGroups = compat_input(&call.parts, &call.body)?;
    let groups = app
        .groups_of_type(&call.who, input.chain_type.map(|t| t.0))
        .await?;
    let list: Vec<_> = groups
        .iter()
        .map(|g| wire::GroupItem {
            chain_num: g.chain_count,
            chain_type: g.chain_type.code(),
            group_id: g.id.0,
            group_name: g.name.clone(),
        })
        .collect();
    if call.vendor.is_some() {
        return Ok(call.reply.ok(list));
    }
    Ok(call.reply.ok(wire::GroupList {
        total: list.len() as i64,
        list,
    }))
}

/// # `GET|POST /openapi/v1/domain/list` (`domains:read`)
pub(crate) async fn list_domains(app: &App, call: Call) -> Result<Response> {
    let user = call.who.user_id;
    let domains = app.domains_for(user).await?;
    Ok(call.reply.ok(wire::DomainList {
        domain_list: domains
            .iter()
            .map(|d| wire::DomainItem {
                id: d.id.0,
                is_my: i64::from(d.user_id == Some(user)),
                url: format!("{}://{}", d.scheme.as_str(), d.host),
                domain_status: d.status.code(),
                scheme: d.scheme.as_str().into(),
                scene: d.scene.clone(),
            })
            .collect(),
    }))
}

/// # `POST /openapi/v1/adcallback/{ad_platform_name}/conversions` (`conversions:write`)
pub(crate) async fn report_conversion(app: &App, call: Call) -> Result<Response> {
    let input: wire::ConversionReport = compat_input(&call.parts, &call.body)?;
    let platform = call.param().unwrap_or_default();
    let reported = app
        .report_conversion(
            &call.who,
            platform,
            ConversionReport {
                chain: input.chain,
                chain_id: input.chain_id.map(|id| ChainId(id.0)),
                conv_type: input.conv_type,
                out_id: input.out_id,
                clickid: input.clickid,
                platform: input.platform,
                external_userid: input.external_userid,
                value_cents: input.value_cents.map(|v| v.0),
            },
        )
        .await?;
    Ok(call.reply.ok(wire::ConversionResult {
        chain_id: reported.event.chain_id.0,
        conv_type: reported.event.conv_type,
        duplicate: reported.duplicate,
        event_id: reported.event.event_id,
    }))
}
