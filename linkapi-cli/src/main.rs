//! `linkapi`: the command-line tool. Today it runs the server locally (`linkapi serve`); the
//! remote commands of issue #3 join it on the same conventions.

use std::process::ExitCode;

use clap::{Parser, Subcommand};
use linkapi_server::{INITIAL_KEY_ENV, ServeArgs, Server, bootstrap_notice, init_logging};

/// Programmatic short links: run and drive a linkapi deployment.
#[derive(Parser)]
#[command(name = "linkapi", version, about, propagate_version = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run the server locally (same flags as linkapi-server)
    #[command(
        after_help = "Examples:\n  linkapi serve\n  linkapi serve --listen 127.0.0.1:9000 --data-dir ./data"
    )]
    Serve(ServeArgs),
}

#[allow(clippy::print_stderr)] // a binary reports to its user on stderr
fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Serve(args) => serve(&args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("linkapi: error: {err:#}");
            ExitCode::FAILURE
        }
    }
}

#[allow(clippy::print_stderr)]
fn serve(args: &ServeArgs) -> anyhow::Result<()> {
    init_logging();
    let runtime = tokio::runtime::Runtime::new()?;
    runtime.block_on(async {
        let initial = std::env::var(INITIAL_KEY_ENV).ok();
        let server = Server::bind(args, initial.as_deref()).await?;
        if let Some(notice) = bootstrap_notice(&server) {
            eprintln!("{notice}");
        }
        eprintln!(
            "linkapi: listening on http://{} (short links: {})",
            server.local_addr, server.public_url
        );
        server.run(linkapi_server::shutdown_signal()).await
    })
}
