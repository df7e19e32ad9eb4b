//! `linkapi-server`: the standalone server, and the operator's commands on its data.

use std::process::ExitCode;

use clap::Parser;
use linkapi_server::{
    DataCommand, HealthcheckArgs, INITIAL_KEY_ENV, ServeArgs, Server, bootstrap_notice,
    init_logging,
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
    command: Option<Command>,
}

#[derive(clap::Subcommand)]
enum Command {
    #[command(flatten)]
    Data(DataCommand),
    /// Ask the server on this machine for /healthz: exit 0 when it answers 200
    #[command(after_help = "\
For probes with nothing but the binary, such as the container image's HEALTHCHECK. Reads the
address as the server does: --listen, LINKAPI_LISTEN, the configuration file, 127.0.0.1:8080.")]
    Healthcheck(HealthcheckArgs),
}

#[allow(clippy::print_stderr, clippy::print_stdout)] // a binary reports to its user
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
        match &cli.command {
            Some(Command::Data(command)) => {
                return linkapi_server::operate(command, &mut std::io::stdout()).await;
            }
            Some(Command::Healthcheck(args)) => {
                let url = linkapi_server::healthcheck(args).await?;
                println!("{url}: 200");
                return Ok(());
            }
            None => {}
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
