//! Integration tests of the HTTP API: a real server, a real SQLite file, real HTTP.

#![allow(clippy::unwrap_used, clippy::print_stderr)]

mod admin;
mod auth;
#[path = "../browser.rs"]
mod browser;
mod channels;
#[cfg(feature = "client")]
mod client;
mod compat;
mod conversions;
mod hardening;
mod hostile;
#[path = "../images.rs"]
mod images;
mod instances;
mod limits;
mod metrics;
mod openapi;
mod pages;
mod persistence;
#[path = "../pg_cluster.rs"]
mod pg_cluster;
mod primary;
mod qr;
mod redirect;
#[cfg(feature = "s3")]
#[path = "../s3_server.rs"]
mod s3_server;
mod server;
mod support;
mod templates;
mod uploads;
mod visits;
mod workchat;
mod wxchains;
