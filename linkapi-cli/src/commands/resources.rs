//! `linkapi group ...`, `linkapi domain ...`, `linkapi template ...` and `linkapi admin ...`.

use anyhow::{Context as _, Result};
use linkapi_core::model::{Resource, Scope};
use linkapi_core::wire::{admin, primary};

use crate::cli::{
    AdminDomainCommand, AdminKeyCommand, AdminTemplateCommand, AdminUserCommand, DomainSwitch,
    Quota,
};
use crate::context::{Context, parse_time};
use crate::exit::UsageError;

/// `linkapi group create`
pub async fn group_create(
    ctx: Context,
    name: String,
    chain_type: i64,
    json: Option<String>,
) -> Result<()> {
    let group = ctx
        .create_client()?
        .create_group(&primary::CreateGroup { name, chain_type })
        .await?;
    ctx.out
        .success(&format!("Created group {} ({})", group.name, group.id));
    ctx.out.record(&group, json.as_deref())
}

/// `linkapi group list`
pub async fn group_list(ctx: Context, json: Option<String>) -> Result<()> {
    let groups = ctx.client()?.groups().await?;
    ctx.out.records(&groups, json.as_deref(), false)
}

/// `linkapi group info`
pub async fn group_info(ctx: Context, id: i64, json: Option<String>) -> Result<()> {
    let group = ctx.client()?.group(id).await?;
    ctx.out.record(&group, json.as_deref())
}

/// `linkapi domain list`
pub async fn domain_list(ctx: Context, json: Option<String>) -> Result<()> {
    let domains = ctx.client()?.domains().await?;
    ctx.out.records(&domains, json.as_deref(), false)
}

/// `linkapi admin user ...`
pub async fn user(ctx: Context, command: AdminUserCommand) -> Result<()> {
    let client = ctx.client()?;
    match command {
        AdminUserCommand::Create {
            name,
            daily_quota,
            json,
        } => {
            let user = client
                .create_user(&admin::CreateUser { name, daily_quota })
                .await?;
            ctx.out
                .success(&format!("Created user {} ({})", user.name, user.id));
            ctx.out.record(&user, json.json.as_deref())
        }
        AdminUserCommand::List { json } => {
            ctx.out
                .records(&client.users().await?, json.json.as_deref(), false)
        }
        AdminUserCommand::Show { id, json } => ctx
            .out
            .record(&client.user(id).await?, json.json.as_deref()),
        AdminUserCommand::Edit {
            id,
            name,
            daily_quota,
            json,
        } => {
            if name.is_none() && daily_quota.is_none() {
                return Err(UsageError("give --name or --daily-quota (or both)".into()).into());
            }
            let edit = admin::EditUser {
                name,
                daily_quota: daily_quota.map(|q| match q {
                    Quota::Chains(n) => Some(n),
                    Quota::ServerDefault => None,
                }),
                ..admin::EditUser::default()
            };
            let user = client.edit_user(id, &edit).await?;
            ctx.out
                .success(&format!("Updated user {} ({})", user.name, user.id));
            ctx.out.record(&user, json.json.as_deref())
        }
        AdminUserCommand::Suspend {
            id,
            redirects,
            yes,
            json,
        } => {
            let effect = if redirects {
                "their keys stop working and their links answer 404"
            } else {
                "their keys stop working; their links go on redirecting"
            };
            if !ctx.confirm(&format!("Suspend user {id}? {effect}"), yes)? {
                ctx.out.note("Nothing suspended.");
                return Ok(());
            }
            let edit = admin::EditUser {
                suspended: Some(true),
                suspend_redirects: Some(redirects),
                ..admin::EditUser::default()
            };
            let user = client.edit_user(id, &edit).await?;
            ctx.out.success(&format!(
                "Suspended user {} ({}): {effect}",
                user.name, user.id
            ));
            ctx.out.record(&user, json.json.as_deref())
        }
        AdminUserCommand::Resume { id, json } => {
            let edit = admin::EditUser {
                suspended: Some(false),
                ..admin::EditUser::default()
            };
            let user = client.edit_user(id, &edit).await?;
            ctx.out.success(&format!(
                "Resumed user {} ({}): their keys and links work again",
                user.name, user.id
            ));
            ctx.out.record(&user, json.json.as_deref())
        }
    }
}

/// The scopes a key is created with: `user` stands for every scope but `admin` and `*`, each
/// resource's read and write, so least privilege short of naming each is one word.
fn key_scopes(given: Vec<String>) -> Vec<String> {
    let mut scopes = Vec::with_capacity(given.len());
    for scope in given {
        if scope == USER_SCOPES {
            for resource in Resource::ALL {
                scopes.push(Scope::Read(resource).to_string());
                scopes.push(Scope::Write(resource).to_string());
            }
        } else {
            scopes.push(scope);
        }
    }
    let mut seen = std::collections::HashSet::new();
    scopes.retain(|s| seen.insert(s.clone()));
    scopes
}

/// The word `--scope` takes for every user scope (see [`key_scopes`]).
const USER_SCOPES: &str = "user";

/// `linkapi admin key ...`
pub async fn key(ctx: Context, command: AdminKeyCommand) -> Result<()> {
    let client = ctx.client()?;
    match command {
        AdminKeyCommand::Create {
            user,
            scopes,
            name,
            expires,
            json,
        } => {
            let expires_at = expires
                .as_deref()
                .map(|t| parse_time("--expires", t))
                .transpose()?;
            let scopes = key_scopes(scopes);
            if scopes.iter().any(|s| s == "*") {
                ctx.out.warn(
                    "scope * is everything, /admin included: this key can create keys and                      users. For a program that only manages links, --scope user gives every                      scope but admin",
                );
            }
            let created = client
                .create_key(&admin::CreateKey {
                    user_id: user,
                    scopes,
                    name,
                    expires_at,
                })
                .await?;
            ctx.out.success(&format!(
                "Created key {} for user {}; its secret is shown this once",
                created.key.id, created.key.user_id
            ));
            ctx.out.record(&created, json.json.as_deref())
        }
        AdminKeyCommand::List { user, json } => {
            ctx.out
                .records(&client.keys(user).await?, json.json.as_deref(), false)
        }
        AdminKeyCommand::Revoke { id, yes, json } => {
            if !ctx.confirm(
                &format!("Revoke key {id}? Programs using it stop working"),
                yes,
            )? {
                ctx.out.note("Nothing revoked.");
                return Ok(());
            }
            let key = client.revoke_key(id).await?;
            ctx.out.success(&format!("Revoked key {}", key.id));
            ctx.out.record(&key, json.json.as_deref())
        }
    }
}

/// `linkapi admin domain ...`
pub async fn domain(ctx: Context, command: AdminDomainCommand) -> Result<()> {
    let client = ctx.client()?;
    match command {
        AdminDomainCommand::Create {
            domain,
            scheme,
            scene,
            shared,
            user,
            json,
        } => {
            let created = client
                .create_domain(&admin::CreateDomain {
                    domain,
                    scheme,
                    scene,
                    shared: Some(shared),
                    user_id: user,
                })
                .await?;
            ctx.out
                .success(&format!("Registered {} ({})", created.domain, created.id));
            ctx.out.record(&created, json.json.as_deref())
        }
        AdminDomainCommand::List { json } => {
            ctx.out
                .records(&client.admin_domains().await?, json.json.as_deref(), false)
        }
        AdminDomainCommand::SetStatus { id, status, json } => {
            let code = match status {
                DomainSwitch::Effective => 1,
                DomainSwitch::NotEffective => 99,
            };
            let updated = client.set_domain_status(id, code).await?;
            ctx.out
                .success(&format!("{} is now {:?}", updated.domain, status));
            ctx.out.record(&updated, json.json.as_deref())
        }
    }
}

/// `linkapi admin rotate-visitor-secret`.
pub async fn rotate_visitor_secret(ctx: Context) -> Result<()> {
    let rotated = ctx.client()?.rotate_visitor_secret().await?;
    ctx.out.done(&format!(
        "Visitors are counted with a new secret since {}",
        rotated.rotated_at
    ));
    Ok(())
}

/// `linkapi template list`
pub async fn template_list(
    ctx: Context,
    page: i64,
    limit: i64,
    json: Option<String>,
) -> Result<()> {
    let found = ctx.client()?.templates(Some(page), Some(limit)).await?;
    ctx.out.records(&found.list, json.as_deref(), false)?;
    if json.is_none() {
        ctx.out.note(&format!(
            "Your chains use {} of {} templates (the generic one does not count).",
            found.used_num, found.template_limit
        ));
    }
    Ok(())
}

fn read_body(file: Option<&std::path::Path>) -> Result<Option<String>> {
    file.map(|path| {
        std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))
    })
    .transpose()
}

/// `linkapi admin template ...`
pub async fn template(ctx: Context, command: AdminTemplateCommand) -> Result<()> {
    let client = ctx.client()?;
    match command {
        AdminTemplateCommand::Add {
            name,
            style,
            thumb,
            body_file,
            user,
            json,
        } => {
            let created = client
                .create_template(&admin::CreateTemplate {
                    name,
                    style,
                    thumb,
                    body: read_body(body_file.as_deref())?,
                    user_id: user,
                })
                .await?;
            ctx.out
                .success(&format!("Added template {} ({})", created.name, created.id));
            ctx.out.record(&created, json.json.as_deref())
        }
        AdminTemplateCommand::List { json } => ctx.out.records(
            &client.admin_templates().await?,
            json.json.as_deref(),
            false,
        ),
        AdminTemplateCommand::Edit {
            id,
            name,
            style,
            thumb,
            body_file,
            json,
        } => {
            let updated = client
                .update_template(
                    id,
                    &admin::UpdateTemplate {
                        name,
                        style,
                        thumb,
                        body: read_body(body_file.as_deref())?,
                    },
                )
                .await?;
            ctx.out.success(&format!("Changed template {}", updated.id));
            ctx.out.record(&updated, json.json.as_deref())
        }
        AdminTemplateCommand::Retire { id } => {
            let retired = client.retire_template(id).await?;
            ctx.out.done(&format!(
                "Retired template {} ({})",
                retired.name, retired.id
            ));
            Ok(())
        }
    }
}
