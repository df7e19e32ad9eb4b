//! What the services need to know about the deployment.

use std::sync::Arc;
use std::time::Duration;

use super::{GeoDatabase, RateLimit, UploadConfig, WebhookConfig};
use crate::clock::Calendar;
use crate::model::Scheme;

/// What the services need to know about the deployment.
#[derive(Debug, Clone)]
pub struct AppConfig {
    /// Host (with port when not the scheme's default) of the domain this server answers on;
    /// registered as a shared domain at start and used when a create names no domain.
    pub default_host: String,
    /// Scheme of the default domain.
    pub default_scheme: Scheme,
    /// Whether a default domain registered from an earlier listen address (a shared default
    /// domain whose host is an IP address and port) is renamed to `default_host` rather than
    /// `default_host` added beside it, so the links made there follow the server. Only for a
    /// store one process owns: instances sharing one each have an address of their own.
    pub follow_address_domain: bool,
    /// Length of generated codes.
    pub code_length: usize,
    /// Per-key request rate; `None` turns rate limiting off.
    pub rate_limit: Option<RateLimit>,
    /// Whether keys with scope `admin` (or `*`) are rate limited too; by default they are not.
    pub rate_limit_admin_keys: bool,
    /// Chains a user may create per day unless the user has a quota of its own.
    pub daily_create_quota: i64,
    /// Bytes the redirect cache's links may take in all (each costs about 240 bytes beyond
    /// its code and target URL).
    pub link_cache_bytes: u64,
    /// Authenticated keys kept in memory, so most API calls need no store read to
    /// authenticate.
    pub key_cache_capacity: usize,
    /// Conversion types that need `out_id`, besides `purchase`.
    pub out_id_required: Vec<String>,
    /// Where days begin, for daily counters, quotas and statistics.
    pub calendar: Calendar,
    /// Peers whose `X-Forwarded-For`/`Forwarded` header names the client (reverse proxies).
    pub trusted_proxies: Vec<ipnet::IpNet>,
    /// Which header a trusted proxy names the client in.
    pub client_address_header: ClientAddressHeader,
    /// How often counted visits are written to the store.
    pub visit_flush_interval: Duration,
    /// Pending visit entries (a chain-day or a chain-visitor) held in memory at most; visits
    /// needing more are not counted.
    pub max_pending_visits: usize,
    /// Where uploads live and how large they may be.
    pub uploads: UploadConfig,
    /// Templates (other than the generic one) each user's chains may use.
    pub template_limit: i64,
    /// Where `GET /` sends people (an http(s) URL: the operator's own site); `None` answers a
    /// plain page naming the service.
    pub home_url: Option<String>,
    /// The status short chains' redirects answer with, unless a chain sets its own.
    pub redirect_status: crate::model::RedirectStatus,
    /// Countries of client addresses; without one every visit's country is `unknown`.
    pub geo: Option<Arc<GeoDatabase>>,
    /// How webhooks are sent.
    pub webhooks: WebhookConfig,
}

/// The header a trusted reverse proxy names the client in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ClientAddressHeader {
    /// `X-Forwarded-For: client, proxy1, ...`.
    #[default]
    XForwardedFor,
    /// `Forwarded: for=client, for=proxy1` (RFC 7239).
    Forwarded,
}

impl Default for AppConfig {
    fn default() -> Self {
        AppConfig {
            default_host: "127.0.0.1:8080".into(),
            default_scheme: Scheme::Http,
            follow_address_domain: false,
            code_length: 6,
            rate_limit: Some(RateLimit::default()),
            rate_limit_admin_keys: false,
            daily_create_quota: 10_000,
            link_cache_bytes: 144 << 20,
            key_cache_capacity: 10_000,
            out_id_required: Vec::new(),
            calendar: Calendar::utc(),
            trusted_proxies: Vec::new(),
            client_address_header: ClientAddressHeader::default(),
            visit_flush_interval: Duration::from_secs(1),
            max_pending_visits: 2_000_000,
            uploads: UploadConfig::default(),
            template_limit: 10,
            home_url: None,
            redirect_status: crate::model::RedirectStatus::Found,
            geo: None,
            webhooks: WebhookConfig::default(),
        }
    }
}
