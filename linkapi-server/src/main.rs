//! `linkapi-server`: the standalone server, and the operator's commands on its data.

use std::process::ExitCode;

use clap::Parser;
use linkapi_server::{
    DataCommand, INITIAL_KEY_ENV, ServeArgs, Server, bootstrap_notice, init_logging,
};

/// The linkapi short-link server.
#[derive(Parser)]
#[command(
    name = "linkapi-server",
    version = linkapi_server::VERSION,
    about,
    args_conflicts_with_subcommands = true,
    subcommand_negates_reqs = true
)]
struct Cli {
    #[command(flatten)]
    serve: ServeArgs,
    /// Without a command, serves.
    #[command(subcommand)]
    command: Option<DataCommand>,
}

#[allow(clippy::print_stderr)] // a binary reports to its user on stderr
fn main() -> ExitCode {
    let cli = Cli::parse();
    // Before the runtime's threads: a setting of the allocator for the whole process.
    linkapi_core::map_large_allocations();
    init_logging();
    let runtime = match tokio::runtime::Runtime::new() {
        Ok(rt) => rt,
        Err(err) => {
            eprintln!("linkapi-server: error: starting the runtime: {err}");
            return ExitCode::FAILURE;
        }
    };
    let result = runtime.block_on(async {
        if let Some(command) = &cli.command {
            return linkapi_server::operate(command, &mut std::io::stdout()).await;
        }
        let initial = std::env::var(INITIAL_KEY_ENV).ok();
        let server = Server::bind(&cli.serve, initial.as_deref()).await?;
        if let Some(notice) = bootstrap_notice(&server) {
            eprintln!("{notice}");
        }
        eprintln!(
            "linkapi-server: listening on http://{} (short links: {})",
            server.local_addr, server.public_url
        );
        server.run(linkapi_server::shutdown_signal()).await
    });
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("linkapi-server: error: {err:#}");
            ExitCode::FAILURE
        }
    }
}
