//! The real `linkapi` binary against a real server.

#![allow(clippy::unwrap_used, clippy::print_stderr)]

mod admin;
mod archive;
mod auth;
mod chains;
mod coverage;
mod data;
mod exit_codes;
mod export;
mod first_hour;
mod generated;
#[path = "../../../linkapi-core/tests/images.rs"]
mod images;
mod memory;
#[path = "../../../linkapi-core/tests/memory_probe.rs"]
mod memory_probe;
mod moving;
mod options;
mod orphans;
mod page_chains;
#[path = "../../../linkapi-core/tests/pg_cluster.rs"]
mod pg_cluster;
pub(crate) mod serve;
mod support;
mod uploads;
mod webhooks;
