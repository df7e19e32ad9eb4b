//! Integration tests of the HTTP API: a real server, a real SQLite file, real HTTP.

#![allow(clippy::unwrap_used)]

mod admin;
mod auth;
#[cfg(feature = "client")]
mod client;
mod compat;
mod limits;
mod persistence;
mod primary;
mod redirect;
mod server;
mod support;
