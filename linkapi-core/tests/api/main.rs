//! Integration tests of the HTTP API: a real server, a real SQLite file, real HTTP.

#![allow(clippy::unwrap_used, clippy::print_stderr)]

mod admin;
mod archive;
mod auth;
mod breakdowns;
mod bulk;
mod cards;
mod channels;
#[cfg(feature = "client")]
mod client;
mod compat;
mod connections;
mod conversions;
mod export;
mod html;
mod idempotency;
#[path = "../images.rs"]
mod images;
mod import;
mod input;
mod instances;
mod limits;
mod link_options;
mod metrics;
mod migration;
mod mmdb;
mod openapi;
mod orphans;
mod page_chains;
mod page_chains_compat;
mod persistence;
#[path = "../pg_cluster.rs"]
mod pg_cluster;
mod previews;
mod primary;
mod qr;
mod redirect;
mod rules;
#[cfg(feature = "s3")]
mod server;
mod support;
mod templates;
mod text;
#[path = "../tools.rs"]
mod tools;
mod upload_bodies;
mod uploads;
mod uploads_shared;
mod users;
mod vendor_clients;
mod visits;
mod webhook_fairness;
mod webhooks;
mod workchat;
mod wx_support;
