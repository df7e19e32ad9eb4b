//! One module per command group; [`run`] dispatches.

mod auth;
mod chain;
mod resources;
mod serve;

use anyhow::Result;

use crate::cli::{
    AdminCommand, AuthCommand, ChainCommand, Cli, Command, DomainCommand, GroupCommand,
};
use crate::context::Context;
use crate::generate;

pub use serve::LOCAL_PROFILE;

/// Runs a parsed command line.
///
/// # Errors
/// Whatever the command fails with; [`crate::exit::report`] turns it into a message and a code.
pub async fn run(cli: Cli) -> Result<()> {
    // Commands that need no configuration.
    match &cli.command {
        Command::Completions { shell } => return generate::print_completion(*shell),
        Command::Man { out_dir } => return generate::man(out_dir.as_deref()),
        _ => {}
    }
    let ctx = Context::new(cli.global)?;
    match cli.command {
        Command::Auth(command) => match command {
            AuthCommand::Login {
                with_key,
                insecure_storage,
            } => auth::login(ctx, with_key, insecure_storage).await,
            AuthCommand::Status { show_key } => auth::status(ctx, show_key).await,
            AuthCommand::Logout => auth::logout(ctx),
            AuthCommand::Token => auth::token(ctx),
        },
        Command::Chain(command) => match command {
            ChainCommand::Create {
                target_url,
                title,
                custom_code,
                domain,
                group,
                expires,
                json,
            } => {
                chain::create(
                    ctx,
                    target_url,
                    title,
                    custom_code,
                    domain,
                    group,
                    expires,
                    json.json,
                )
                .await
            }
            ChainCommand::Import { file, format, json } => {
                chain::import(ctx, &file, format, json).await
            }
            ChainCommand::List {
                page,
                limit,
                all,
                group,
                query,
                json,
            } => chain::list(ctx, page, limit, all, group, query, json.json).await,
            ChainCommand::Info { chain, json } => chain::info(ctx, chain, json.json).await,
            ChainCommand::Edit {
                chain,
                title,
                target_url,
                expires,
                json,
            } => chain::edit(ctx, chain, title, target_url, expires, json.json).await,
            ChainCommand::Delete {
                chains,
                code,
                domain,
                yes,
            } => chain::delete(ctx, chains, code, domain, yes).await,
        },
        Command::Group(GroupCommand::Create {
            name,
            chain_type,
            json,
        }) => resources::group_create(ctx, name, chain_type, json.json).await,
        Command::Group(GroupCommand::List { json }) => resources::group_list(ctx, json.json).await,
        Command::Domain(DomainCommand::List { json }) => {
            resources::domain_list(ctx, json.json).await
        }
        Command::Admin(AdminCommand::User(command)) => resources::user(ctx, command).await,
        Command::Admin(AdminCommand::Key(command)) => resources::key(ctx, command).await,
        Command::Admin(AdminCommand::Domain(command)) => resources::domain(ctx, command).await,
        Command::Serve(args) => serve::serve(ctx, args).await,
        Command::Completions { .. } | Command::Man { .. } => Ok(()),
    }
}
