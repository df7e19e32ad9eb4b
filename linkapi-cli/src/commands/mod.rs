//! One module per command group; [`run`] dispatches.

mod auth;
mod chain;
mod conversion;
mod export;
mod import;
mod moving;
mod page_chains;
mod resources;
mod serve;
mod stats;
mod upload;
mod webhook;
mod workchat;

use anyhow::{Context as _, Result};

use crate::cli::{
    AdminCommand, Cli, Command, DomainArg, DomainCommand, GroupCommand, TemplateCommand,
};
use crate::context::Context;
use crate::exit::UsageError;
use crate::generate;

pub use serve::LOCAL_PROFILE;

/// Runs a parsed command line.
///
/// # Errors
/// Whatever the command fails with; [`crate::exit::report`] turns it into a message and a code.
pub async fn run(cli: Cli) -> Result<()> {
    // Built per arm so that completions and man pages need no (possibly broken) config.
    let global = cli.global;
    let ctx = move || Context::new(global);
    match cli.command {
        Command::Completions { shell } => generate::print_completion(shell),
        Command::Man { out_dir } => generate::man(out_dir.as_deref()),
        Command::Auth(command) => auth::run(ctx()?, command).await,
        Command::Chain(command) => chain::run(ctx()?, command).await,
        Command::Conversion(command) => conversion::run(ctx()?, command).await,
        Command::Wx(command) => page_chains::wx(ctx()?, command).await,
        Command::Card(command) => page_chains::card(ctx()?, command).await,
        Command::Workchat(command) => workchat::workchat(ctx()?, command).await,
        Command::Stats(args) => stats::run(ctx()?, args).await,
        Command::Import(args) => moving::run(ctx()?, args).await,
        Command::Upload(args) => upload::run(ctx()?, args).await,
        Command::Webhook(command) => webhook::run(ctx()?, command).await,
        Command::Template(TemplateCommand::List { page, limit, json }) => {
            resources::template_list(ctx()?, page, limit, json.json).await
        }
        Command::Group(GroupCommand::Create {
            name,
            chain_type,
            json,
        }) => resources::group_create(ctx()?, name, chain_type, json.json).await,
        Command::Group(GroupCommand::List { json }) => {
            resources::group_list(ctx()?, json.json).await
        }
        Command::Group(GroupCommand::Info { id, json }) => {
            resources::group_info(ctx()?, id, json.json).await
        }
        Command::Domain(DomainCommand::List { json }) => {
            resources::domain_list(ctx()?, json.json).await
        }
        Command::Admin(AdminCommand::User(command)) => resources::user(ctx()?, command).await,
        Command::Admin(AdminCommand::Key(command)) => resources::key(ctx()?, command).await,
        Command::Admin(AdminCommand::Domain(command)) => resources::domain(ctx()?, command).await,
        Command::Admin(AdminCommand::Template(command)) => {
            resources::template(ctx()?, command).await
        }
        Command::Admin(AdminCommand::Workchat(command)) => workchat::admin(ctx()?, command).await,
        Command::Admin(AdminCommand::RotateVisitorSecret) => {
            resources::rotate_visitor_secret(ctx()?).await
        }
        Command::Serve(args) => serve::serve(ctx()?, args).await,
        Command::Data(command) => linkapi_server::operate(&command, &mut std::io::stdout()).await,
    }
}

/// The id of the domain `domain` names: an id as given; a host name looked up among the
/// domains the key may use (`GET /domains`).
async fn domain_id(
    client: &linkapi_core::client::Client,
    domain: Option<&DomainArg>,
) -> Result<Option<i64>> {
    let host = match domain {
        None => return Ok(None),
        Some(DomainArg::Id(id)) => return Ok(Some(*id)),
        Some(DomainArg::Host(host)) => host,
    };
    let domains = client.domains().await.context("listing your domains")?;
    match domains.iter().find(|d| d.domain.eq_ignore_ascii_case(host)) {
        Some(found) => Ok(Some(found.id)),
        None => Err(UsageError(format!(
            "no domain {host} among the ones you may use; `linkapi domain list` shows them"
        ))
        .into()),
    }
}

/// [`domain_id`] for a create: the server is asked only for a host name, so that a create's
/// usage errors still come before any request.
async fn domain_id_of(ctx: &Context, domain: Option<&DomainArg>) -> Result<Option<i64>> {
    match domain {
        Some(DomainArg::Host(_)) => domain_id(&ctx.client()?, domain).await,
        Some(DomainArg::Id(id)) => Ok(Some(*id)),
        None => Ok(None),
    }
}

/// Says on stderr, when one page of a listing ended at row `seen` of `total`, how many rows
/// it left out and how to get them.
fn note_more(ctx: &Context, seen: i64, total: i64, page: i64) {
    if seen < total {
        ctx.out.note(&format!(
            "{} more of {total}: --page {} for the next page, --all for every one",
            total - seen,
            page + 1
        ));
    }
}

/// Chains per request of a listing: `--limit` when given, else 20 for one page and, for
/// `--all`, the largest page the server gives, so every page comes in the fewest requests.
fn page_size(limit: Option<i64>, all: bool) -> i64 {
    /// What one page shows when nothing else is asked.
    const DEFAULT_PAGE_SIZE: i64 = 20;
    limit.unwrap_or(if all {
        linkapi_core::model::limits::MAX_PAGE_SIZE
    } else {
        DEFAULT_PAGE_SIZE
    })
}
