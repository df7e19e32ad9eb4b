//! Handlers, one module per API area. Each decodes its input, calls one service method and
//! encodes the answer; what is allowed and what happens is decided in [`crate::service`].

pub(crate) mod admin;
pub(crate) mod compat;
pub(crate) mod page_chains;
pub(crate) mod primary;
pub(crate) mod public;
pub(crate) mod templates;
pub(crate) mod uploads;
pub(crate) mod webhooks;
pub(crate) mod workchat;
