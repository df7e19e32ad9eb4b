//! linkapi-core: the short-link service as a library.
//!
//! It holds the service model, the storage boundary with its SQLite and PostgreSQL backends,
//! every decision of the API, and an embeddable hyper server. It never prints, reads the environment or exits; it
//! emits `tracing` events and returns typed errors.
//!
//! # Layout
//!
//! - [`model`]: domain types: newtype ids, the contract's integer codes as enums, records;
//!   [`model::limits`], the input limits services enforce and schemas state; the page texts
//!   of page chains, declared once ([`model::PageTexts`]).
//! - [`wire`]: JSON shapes of each surface, the envelopes, every operation's name, method and
//!   path ([`wire::operations`], which the route table and the client share), and webhook
//!   event bodies ([`wire::events`]).
//! - [`store`]: the storage traits, one read and one write trait per aggregate, joined by
//!   [`store::Store`] and [`store::Tx`]; the backends [`store::sqlite`] (one file, the default)
//!   and [`store::postgres`] (one database shared by several instances), each with a file per
//!   aggregate of the same name, and the machinery of its own beside them (SQLite: the writer
//!   thread, readers, checkpoints, snapshots, recent days, value numbers; PostgreSQL: the
//!   statements, link reads, the change listener).
//! - [`service`]: [`App`], what each operation decides: keys and scopes, short chains, messaging-app, card and
//!   work-chat chains and their channel rotation, groups, domains, templates, admin, the
//!   redirect cache, the visit pipeline, statistics, conversions, uploads, QR codes, work-chat
//!   data (behind a provider), rate limits and quotas, webhook endpoints with the events
//!   writes record and their delivery.
//! - [`http`]: [`serve`], the accept loop, the route table (one row per operation, naming its
//!   types, each row built from its [`wire::operations`] line), the matcher, the OpenAPI document built from the table, the keyed path (key,
//!   scope, rate, the memory budget of bodies), request decoding, envelopes, handlers.
//! - [`blob`]: where uploaded bytes live: a local directory or (feature `s3`) an
//!   S3-compatible bucket, both through `object_store`.
//! - [`image`]: deciding an upload's type by its bytes, and refusing truncated images.
//! - [`pages`]: jump pages: the built-in layouts and rendering with minijinja, escaped.
//! - [`qr`]: QR codes of links (PNG, SVG, terminal blocks).
//! - [`codes`]: what a short code and a target URL may be, and random codes.
//! - [`clock`]: the injectable clock, the calendar days are counted in, and the wire time
//!   formats.
//! - [`metrics`]: the counters and histograms `GET /metrics` exposes.
//! - [`error`]: [`Error`], each failure with its HTTP status and stable short name; the names
//!   themselves in [`error::names`], typed by their status.
//! - `heap`: giving memory freed after a burst back to the operating system (glibc keeps it),
//!   and large allocations mapped on their own so they go back when freed.
//! - `locks`: taking over a lock whose holder panicked, the one rule every lock here follows.
//! - [`signing`]: signing webhook messages (Standard Webhooks) and verifying them.
//! - `client` (feature `client`): a typed async HTTP client of the same API, one method per
//!   operation, each request naming its operation (`wire::operations::op`).
//! - `fuzzing` (feature `fuzzing`): the fuzz targets' entry points: decoders and page
//!   rendering driven from raw bytes, with the server's promises asserted.
//!
//! # Running a server
//!
//! ```no_run
//! use std::sync::Arc;
//! use linkapi_core::{App, AppConfig, ServerConfig, SqliteStore, SystemClock, serve};
//!
//! # async fn run() -> Result<(), Box<dyn std::error::Error>> {
//! let store = SqliteStore::open(std::path::Path::new("linkapi.db"))?;
//! let listener = tokio::net::TcpListener::bind("127.0.0.1:8080").await?;
//! let config = AppConfig {
//!     default_host: listener.local_addr()?.to_string(),
//!     ..AppConfig::default()
//! };
//! let app = App::start(Arc::new(store), Arc::new(SystemClock), config).await?;
//! if let Some(key) = app.bootstrap(None).await? {
//!     println!("admin key: {}", key.secret);
//! }
//! serve(listener, app, ServerConfig::default(), async {
//!     let _ = tokio::signal::ctrl_c().await;
//! })
//! .await?;
//! # Ok(())
//! # }
//! ```

pub mod blob;
#[cfg(feature = "client")]
pub mod client;
pub mod clock;
pub mod codes;
pub mod error;
#[cfg(any(test, feature = "fuzzing"))]
pub mod fuzzing;
mod heap;
pub mod http;
pub mod image;
mod locks;
pub mod metrics;
pub mod model;
pub mod pages;
pub mod qr;
pub mod service;
pub mod signing;
pub mod store;
pub mod wire;

pub use clock::{Clock, ManualClock, SystemClock};
pub use error::Error;
pub use heap::map_large_allocations;
pub use http::{MetricsAccess, ServerConfig, serve};
pub use service::{App, AppConfig, GeoDatabase};
pub use store::sqlite::SqliteStore;
