//! The CLI's output as the programs people use read it: the committed fish completions in
//! fish, and the README's examples in bash with curl and jq. A harness of its own
//! (`needs.rs`), so that where a program is missing the test is listed as ignored in the
//! summary rather than passing unrun; with `CI` set it fails.

#![allow(clippy::unwrap_used, clippy::print_stderr)]

mod fish;
#[path = "../../../linkapi-core/tests/needs.rs"]
mod needs;
#[path = "../../../linkapi-core/tests/pg_cluster.rs"]
mod pg_cluster;
mod readme;
#[allow(dead_code)] // the CLI tests' support; these use a part
#[path = "../cli/support.rs"]
mod support;

use needs::{BASH_CURL_JQ, FISH, trial};

fn main() -> std::process::ExitCode {
    needs::run(vec![
        trial(
            "fish::fish_offers_subcommands_positional_values_and_options_at_every_depth",
            &[&FISH],
            fish::fish_offers_subcommands_positional_values_and_options_at_every_depth,
        ),
        trial(
            "readme::the_readme_examples_run_in_order_on_a_fresh_server",
            &[&BASH_CURL_JQ],
            readme::the_readme_examples_run_in_order_on_a_fresh_server,
        ),
    ])
}
