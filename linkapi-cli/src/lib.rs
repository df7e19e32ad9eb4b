//! linkapi-cli: the `linkapi` command. It drives a linkapi server over HTTP with the typed
//! client of `linkapi-core`, keeps API keys in the OS keyring, and runs the server locally.
//!
//! # Layout
//!
//! - [`cli`]: the clap command tree; help, completions and man pages all come from it.
//! - [`commands`]: one module per command group (auth, chain and its import, page chains,
//!   work chat, group/domain/admin, stats, conversions, uploads, webhooks, serve).
//! - [`context`]: profile, host and key resolution, the client, prompts.
//! - [`config`]: `config.toml` and its profiles.
//! - [`credentials`]: keys at rest: the OS keyring behind a trait, the 0600 file fallback.
//! - [`peers`]: readers of other shorteners' exports and dumps, for `linkapi import`.
//! - [`output`] and [`records`]: tables, tab-separated rows, `--json[=FIELDS]`.
//! - [`chart`]: bars and sparklines of figures, drawn with block characters.
//! - [`exit`]: exit codes and friendly messages for failures.
//! - [`generate`]: completion scripts and man pages.

pub mod chart;
pub mod cli;
pub mod commands;
pub mod config;
pub mod context;
pub mod credentials;
pub mod exit;
pub mod generate;
pub mod output;
pub mod peers;
pub mod records;

use std::process::ExitCode;

use clap::FromArgMatches;

/// Parses the command line, runs it, and maps the outcome to an exit code. Runs `serve` on a
/// multi-threaded runtime and everything else on a single thread.
#[allow(clippy::print_stderr)] // the binary's one place to report failures
pub fn main() -> ExitCode {
    let cli = match cli::Cli::from_arg_matches(&cli::command().get_matches()) {
        Ok(cli) => cli,
        Err(err) => err.exit(),
    };
    let runtime = if matches!(cli.command, cli::Command::Serve(_)) {
        // Before the runtime's threads: a setting of the allocator for the whole process.
        linkapi_core::map_large_allocations();
        tokio::runtime::Builder::new_multi_thread()
            .enable_all()
            .build()
    } else {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
    };
    let runtime = match runtime {
        Ok(rt) => rt,
        Err(err) => {
            eprintln!("linkapi: error: starting the runtime: {err}");
            return exit::code(exit::FAILURE);
        }
    };
    let outcome = runtime.block_on(async {
        match commands::run(cli).await {
            Err(err) => Err(context::unreachable_rather_than_logged_out(err).await),
            done => done,
        }
    });
    match outcome {
        Ok(()) => exit::code(exit::OK),
        Err(err) if exit::is_broken_pipe(&err) => exit::code(exit::OK),
        Err(err) => {
            let report = exit::report(&err);
            eprintln!("linkapi: error: {}", report.message);
            if let Some(hint) = report.hint {
                eprintln!("hint: {hint}");
            }
            exit::code(report.code)
        }
    }
}
