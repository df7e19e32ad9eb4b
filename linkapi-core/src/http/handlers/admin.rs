//! Administration: `/admin/users`, `/admin/keys`, `/admin/domains`, `/admin/orphan-visits`
//! (scope `admin`).

use crate::clock::format_rfc3339;
use crate::error::Result;
use crate::http::call::Call;
use crate::http::request::{json, path_id, query};
use crate::http::response::Body;
use crate::model::{ApiKeyRecord, Domain, DomainId, KeyId, User, UserId};
use crate::service::{App, UserEdit, UserOverview};
use crate::wire::admin as wire;

type Response = http::Response<Body>;

fn user_out(u: &User) -> wire::User {
    wire::User {
        id: u.id.0,
        name: u.name.clone(),
        daily_quota: u.daily_quota,
        created_at: format_rfc3339(u.created_at),
        suspended: u.suspended_at.is_some(),
        suspended_at: u.suspended_at.map(format_rfc3339),
        suspend_redirects: u.redirects_suspended,
    }
}

fn key_out(k: &ApiKeyRecord, now: i64) -> wire::Key {
    let state = if k.revoked_at.is_some() {
        "revoked"
    } else if k.expires_at.is_some_and(|t| t <= now) {
        "expired"
    } else {
        "active"
    };
    wire::Key {
        id: k.id.0,
        user_id: k.user_id.0,
        name: k.name.clone(),
        prefix: k.prefix.clone(),
        scopes: k.scopes.iter().map(ToString::to_string).collect(),
        created_at: format_rfc3339(k.created_at),
        expires_at: k.expires_at,
        revoked_at: k.revoked_at.map(format_rfc3339),
        state: state.into(),
    }
}

fn domain_out(d: &Domain) -> wire::Domain {
    wire::Domain {
        id: d.id.0,
        domain: d.host.clone(),
        scheme: d.scheme.as_str().into(),
        scene: d.scene.clone(),
        shared: d.shared,
        user_id: d.user_id.map(|u| u.0),
        status: d.status.code(),
        created_at: format_rfc3339(d.created_at),
    }
}

/// # `GET /admin/orphan-visits`
pub(crate) async fn orphan_visits(app: &App, call: Call) -> Result<Response> {
    let q: crate::wire::primary::StatsQuery = query(&call.parts)?;
    let stats = app.orphan_visits(q.days).await?;
    let list = stats
        .items
        .into_iter()
        .map(|item| wire::OrphanVisitCount {
            domain_id: item.domain_id.0,
            domain: item.host,
            kind: item.kind.name().into(),
            visits: item.visits,
            daily_trend: item
                .daily
                .into_iter()
                .map(|(day, visits)| wire::OrphanDay { day, visits })
                .collect(),
        })
        .collect();
    Ok(call.reply.ok(wire::OrphanVisits {
        days: stats.days,
        list,
    }))
}

/// # `POST /admin/users`
pub(crate) async fn create_user(app: &App, call: Call) -> Result<Response> {
    let input: wire::CreateUser = json(&call.parts.headers, &call.body)?;
    let user = app.create_user(&input.name, input.daily_quota).await?;
    Ok(call.reply.created(user_out(&user)))
}

/// # `GET /admin/users`
pub(crate) async fn list_users(app: &App, call: Call) -> Result<Response> {
    let users = app.users().await?;
    Ok(call
        .reply
        .ok(users.iter().map(user_out).collect::<Vec<_>>()))
}

/// # `GET /admin/users/{id}`
pub(crate) async fn get_user(app: &App, call: Call) -> Result<Response> {
    let id = UserId(path_id(call.param(), "user")?);
    let UserOverview {
        user,
        usage,
        daily_quota,
    } = app.user_overview(id).await?;
    Ok(call.reply.ok(wire::UserDetail {
        user: user_out(&user),
        usage: wire::Usage {
            chains: usage.chains,
            created_today: usage.created_today,
            daily_quota,
            upload_bytes: usage.upload_bytes,
            uploads: usage.uploads,
            active_keys: usage.active_keys,
            keys: usage.keys,
        },
    }))
}

/// # `PATCH /admin/users/{id}`
pub(crate) async fn edit_user(app: &App, call: Call) -> Result<Response> {
    let id = UserId(path_id(call.param(), "user")?);
    let input: wire::EditUser = json(&call.parts.headers, &call.body)?;
    let edit = UserEdit {
        name: input.name,
        daily_quota: input.daily_quota,
        suspended: input.suspended,
        suspend_redirects: input.suspend_redirects,
    };
    let user = app.edit_user(&call.who, id, edit).await?;
    Ok(call.reply.ok(user_out(&user)))
}

/// # `POST /admin/keys`
pub(crate) async fn create_key(app: &App, call: Call) -> Result<Response> {
    let input: wire::CreateKey = json(&call.parts.headers, &call.body)?;
    let (key, secret) = app
        .create_key(
            UserId(input.user_id),
            &input.scopes,
            input.name.as_deref(),
            input.expires_at,
        )
        .await?;
    Ok(call.reply.created(wire::CreatedKey {
        key: key_out(&key, app.now()),
        api_key: secret,
    }))
}

/// Query of `GET /admin/keys`.
/// # `GET /admin/keys`
pub(crate) async fn list_keys(app: &App, call: Call) -> Result<Response> {
    let filter: wire::ListKeys = query(&call.parts)?;
    let keys = app.keys(filter.user_id.map(UserId)).await?;
    let now = app.now();
    Ok(call
        .reply
        .ok(keys.iter().map(|k| key_out(k, now)).collect::<Vec<_>>()))
}

/// # `DELETE /admin/keys/{id}`
pub(crate) async fn revoke_key(app: &App, call: Call) -> Result<Response> {
    let id = KeyId(path_id(call.param(), "key")?);
    let key = app.revoke_key(id).await?;
    Ok(call.reply.ok(key_out(&key, app.now())))
}

/// # `POST /admin/domains`
pub(crate) async fn create_domain(app: &App, call: Call) -> Result<Response> {
    let input: wire::CreateDomain = json(&call.parts.headers, &call.body)?;
    let domain = app
        .create_domain(
            &call.who,
            &input.domain,
            &input.scheme,
            input.scene.as_deref(),
            input.shared.unwrap_or(false),
            input.user_id.map(UserId),
        )
        .await?;
    Ok(call.reply.created(domain_out(&domain)))
}

/// # `GET /admin/domains`
pub(crate) async fn list_domains(app: &App, call: Call) -> Result<Response> {
    let domains = app.all_domains().await?;
    Ok(call
        .reply
        .ok(domains.iter().map(domain_out).collect::<Vec<_>>()))
}

/// # `PATCH /admin/domains/{id}`
pub(crate) async fn update_domain(app: &App, call: Call) -> Result<Response> {
    let id = DomainId(path_id(call.param(), "domain")?);
    let input: wire::UpdateDomain = json(&call.parts.headers, &call.body)?;
    let domain = app.set_domain_status(id, input.status).await?;
    Ok(call.reply.ok(domain_out(&domain)))
}

/// # `POST /admin/visitor-secret`: visitors are keyed with a new secret from now on.
pub(crate) async fn rotate_visitor_secret(app: &App, call: Call) -> Result<Response> {
    let at = app.rotate_visitor_secret().await?;
    Ok(call.reply.ok(wire::VisitorSecretRotated {
        rotated_at: format_rfc3339(at),
    }))
}

/// # `GET /metrics` with a key of scope `admin` (`metrics_access = "admin"`).
pub(crate) async fn metrics(app: &App, call: Call) -> Result<Response> {
    Ok(crate::http::response::metrics(
        app.metrics(),
        &call.parts.headers,
    ))
}
