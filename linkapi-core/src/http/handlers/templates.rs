//! Jump-page templates: `GET /templates`, the compatibility `template/list`, and the
//! administration of custom templates under `/admin/templates`.

use crate::clock::{format_rfc3339, format_sql};
use crate::error::Error;
use crate::error::Result;
use crate::http::call::Call;
use crate::http::request::{compat_input, json, query};
use crate::http::response::Body;
use crate::model::{Template, TemplateId, UserId};
use crate::service::{App, NewTemplateInput, TemplateListing};
use crate::wire::{admin, compat, primary};

type Response = http::Response<Body>;

fn is_use(listing: &TemplateListing, t: &Template) -> i64 {
    i64::from(listing.in_use.contains(&t.id))
}

/// # `GET /templates` (`templates:read`)
pub(crate) async fn list(app: &App, call: Call) -> Result<Response> {
    let q: primary::ListTemplates = query(&call.parts)?;
    let listing = app.templates(&call.who, q.page, q.page_size).await?;
    Ok(call.reply.ok(primary::TemplatePage {
        list: listing
            .page
            .items
            .iter()
            .map(|t| primary::Template {
                id: t.id.0,
                name: t.name.clone(),
                style: t.style.clone(),
                template_type: t.kind.code(),
                thumb: t.thumb.clone(),
                is_use: is_use(&listing, t),
                update_time: format_rfc3339(t.updated_at),
            })
            .collect(),
        total: listing.page.total,
        page: listing.page_number,
        page_size: listing.page_size,
        template_limit: listing.template_limit,
        used_num: listing.used_num,
    }))
}

/// # `GET|POST /openapi/v1/template/list` (`templates:read`)
pub(crate) async fn compat_list(app: &App, call: Call) -> Result<Response> {
    let input: compat::ListTemplates = compat_input(&call.parts, &call.body)?;
    let listing = app
        .templates(
            &call.who,
            input.page.map(|p| p.0),
            input.page_size.map(|p| p.0),
        )
        .await?;
    let pages = (listing.page.total + listing.page_size - 1) / listing.page_size;
    Ok(call.reply.ok(compat::TemplateList {
        list: listing
            .page
            .items
            .iter()
            .map(|t| compat::TemplateItem {
                id: t.id.0,
                is_use: is_use(&listing, t),
                name: t.name.clone(),
                thumb: t.thumb.clone(),
                template_type: t.kind.code(),
                update_time: format_sql(t.updated_at),
            })
            .collect(),
        page: listing.page_number.to_string(),
        page_count: pages.to_string(),
        template_limit: listing.template_limit,
        total: listing.page.total,
        used_num: listing.used_num,
    }))
}

/// A template id in the path: 0 (the generic template) is one too.
fn template_id(param: Option<&str>) -> Result<TemplateId> {
    param
        .and_then(|p| p.parse::<i64>().ok())
        .filter(|id| *id >= 0)
        .map(TemplateId)
        .ok_or(Error::NotFound("template"))
}

fn admin_out(t: &Template) -> admin::Template {
    admin::Template {
        id: t.id.0,
        user_id: t.user_id.map(|u| u.0),
        name: t.name.clone(),
        style: t.style.clone(),
        template_type: t.kind.code(),
        thumb: t.thumb.clone(),
        body: t.body.clone(),
        created_at: format_rfc3339(t.created_at),
        updated_at: format_rfc3339(t.updated_at),
        retired_at: t.retired_at.map(format_rfc3339),
    }
}

/// # `POST /admin/templates`
pub(crate) async fn create(app: &App, call: Call) -> Result<Response> {
    let input: admin::CreateTemplate = json(&call.parts.headers, &call.body)?;
    let template = app
        .add_template(NewTemplateInput {
            user_id: input.user_id.map(UserId),
            name: input.name,
            style: input.style,
            thumb: input.thumb,
            body: input.body,
        })
        .await?;
    Ok(call.reply.created(admin_out(&template)))
}

/// # `GET /admin/templates`: every template, retired ones included.
pub(crate) async fn admin_list(app: &App, call: Call) -> Result<Response> {
    let q: admin::ListTemplates = query(&call.parts)?;
    let (found, _, _) = app.all_templates(q.page, q.page_size).await?;
    Ok(call
        .reply
        .ok(found.items.iter().map(admin_out).collect::<Vec<_>>()))
}

/// # `PATCH /admin/templates/{id}`
pub(crate) async fn update(app: &App, call: Call) -> Result<Response> {
    let id = template_id(call.param())?;
    let input: admin::UpdateTemplate = json(&call.parts.headers, &call.body)?;
    let template = app
        .edit_template(id, input.name, input.style, input.thumb, input.body)
        .await?;
    Ok(call.reply.ok(admin_out(&template)))
}

/// # `DELETE /admin/templates/{id}`: retires it.
pub(crate) async fn retire(app: &App, call: Call) -> Result<Response> {
    let id = template_id(call.param())?;
    let template = app.retire_template(id).await?;
    Ok(call.reply.ok(admin_out(&template)))
}

/// # `GET /admin/templates/{id}/preview?image=&show_type=`: the template's page with sample
/// text, as visitors' browsers would get it.
pub(crate) async fn preview(app: &App, call: Call) -> Result<Response> {
    let id = template_id(call.param())?;
    let q: admin::PreviewTemplate = query(&call.parts)?;
    let html = app
        .preview_template(id, q.image.as_deref(), q.show_type)
        .await?;
    Ok(crate::http::response::jump_page(html))
}
