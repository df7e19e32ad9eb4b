//! Work-chat data: `/openapi/v1/workchat/assembly/list`, `/openapi/v1/workchat/transfer/result`
//! and `/admin/workchat/*`.

use super::page_chains::page_count;
use crate::clock::format_rfc3339;
use crate::error::Result;
use crate::http::call::Call;
use crate::http::request::{compat_input, json, query};
use crate::http::response::Body;
use crate::model::{Assembly, UserId};
use crate::service::{App, TransferRecord};
use crate::wire::{admin, compat};

type Response = http::Response<Body>;

fn use_status_label(status: i64) -> &'static str {
    match status {
        crate::model::use_status::IN_USE => "in use",
        crate::model::use_status::INVALID => "invalid",
        _ => "not in use",
    }
}

/// # `GET|POST /openapi/v1/workchat/assembly/list` (`workchat:read`)
pub(crate) async fn compat_list_assemblies(app: &App, call: Call) -> Result<Response> {
    let input: compat::ListAssemblies = compat_input(&call.parts, &call.body)?;
    let (found, page, size) = app
        .assemblies(
            &call.who,
            input.page.map(|p| p.0),
            input.page_size.map(|p| p.0),
        )
        .await?;
    Ok(call.reply.ok(compat::AssemblyList {
        list: found
            .items
            .iter()
            .map(|a| compat::AssemblyItem {
                auth_status: a.auth_status.clone(),
                create_time: a.created_at,
                id: a.id,
                link_id: a.link_id.clone(),
                link_name: a.link_name.clone(),
                url: a.url.clone(),
                use_status: a.use_status,
                use_status_description: use_status_label(a.use_status).into(),
            })
            .collect(),
        page,
        page_count: page_count(found.total, size),
        total: found.total,
    }))
}

/// # `POST /openapi/v1/workchat/transfer/result?corp_id=` (`workchat:read`; `{status, result}`)
pub(crate) async fn transfer_result(app: &App, call: Call) -> Result<Response> {
    let q: compat::TransferQuery = query(&call.parts)?;
    let input: compat::TransferRequest = json(&call.parts.headers, &call.body)?;
    let found = app
        .transfer_results(
            &call.who,
            &q.corp_id,
            &input.handover_userid,
            &input.takeover_userid,
            &input.cursor,
        )
        .await?;
    Ok(call.reply.ok(compat::TransferResult {
        names: found.names,
        next_cursor: found.next_cursor,
        reasons: found.reasons,
        results: found
            .results
            .iter()
            .map(|t| compat::TransferItem {
                errcode: t.errcode,
                external_userid: t.external_userid.clone(),
                status: t.status,
                takeover_time: t.takeover_time,
            })
            .collect(),
    }))
}

// ---- administration -----------------------------------------------------------------------

fn assembly_out(a: &Assembly) -> admin::Assembly {
    admin::Assembly {
        id: a.id,
        user_id: a.user_id.0,
        link_id: a.link_id.clone(),
        link_name: a.link_name.clone(),
        url: a.url.clone(),
        auth_status: a.auth_status.clone(),
        use_status: a.use_status,
        created_at: format_rfc3339(a.created_at),
    }
}

/// # `POST /admin/workchat/assemblies` (`admin`)
pub(crate) async fn admin_put_assembly(app: &App, call: Call) -> Result<Response> {
    let input: admin::PutAssembly = json(&call.parts.headers, &call.body)?;
    let entry = app
        .put_assembly(
            UserId(input.user_id),
            &input.link_id,
            &input.link_name,
            &input.url,
            &input.auth_status,
            input.invalid,
        )
        .await?;
    Ok(call.reply.ok(assembly_out(&entry)))
}

/// # `GET /admin/workchat/assemblies?user_id=` (`admin`)
pub(crate) async fn admin_list_assemblies(app: &App, call: Call) -> Result<Response> {
    let q: admin::ListAssemblies = query(&call.parts)?;
    let (found, page, page_size) = app
        .assemblies_of(UserId(q.user_id), q.page, q.page_size)
        .await?;
    Ok(call.reply.ok(admin::AssemblyPage {
        list: found.items.iter().map(assembly_out).collect(),
        total: found.total,
        page,
        page_size,
    }))
}

/// # `POST /admin/workchat/transfers` (`admin`)
pub(crate) async fn admin_load_transfers(app: &App, call: Call) -> Result<Response> {
    let input: admin::LoadTransfers = json(&call.parts.headers, &call.body)?;
    let stored = app
        .load_transfers(
            UserId(input.user_id),
            &input.corp_id,
            &input.handover_userid,
            &input.takeover_userid,
            input
                .records
                .into_iter()
                .map(|r| TransferRecord {
                    external_userid: r.external_userid,
                    name: r.name,
                    status: r.status,
                    takeover_time: r.takeover_time,
                    errcode: r.errcode,
                    reason: r.reason,
                })
                .collect(),
        )
        .await?;
    Ok(call.reply.ok(admin::LoadedTransfers {
        stored: stored as i64,
    }))
}
