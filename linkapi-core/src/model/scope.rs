//! Scopes: what an API key may do, by resource and access (contract section 2).

use std::fmt;
use std::str::FromStr;

/// What a scope grants access to. `write` never implies `read` (contract section 2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Resource {
    /// Chains of every kind on the primary and compatibility surfaces.
    Chains,
    /// Groups of chains.
    Groups,
    /// Domain listings.
    Domains,
    /// Jump-page templates.
    Templates,
    /// Image uploads.
    Uploads,
    /// Chain statistics.
    Stats,
    /// Ad-conversion reports.
    Conversions,
    /// Work-chat assembly and transfer data.
    Workchat,
    /// The card namespace (`/card`).
    Card,
    /// Webhook endpoints and their deliveries.
    Webhooks,
}

impl Resource {
    /// Every resource: the contract's, in its order, then linkapi's own (webhooks).
    pub const ALL: [Resource; 10] = [
        Resource::Chains,
        Resource::Groups,
        Resource::Domains,
        Resource::Templates,
        Resource::Uploads,
        Resource::Stats,
        Resource::Conversions,
        Resource::Workchat,
        Resource::Card,
        Resource::Webhooks,
    ];

    /// The name used in scope strings.
    pub fn as_str(self) -> &'static str {
        match self {
            Resource::Chains => "chains",
            Resource::Groups => "groups",
            Resource::Domains => "domains",
            Resource::Templates => "templates",
            Resource::Uploads => "uploads",
            Resource::Stats => "stats",
            Resource::Conversions => "conversions",
            Resource::Workchat => "workchat",
            Resource::Card => "card",
            Resource::Webhooks => "webhooks",
        }
    }
}

/// A pattern of every scope's name, for the API's schemas (a test holds it to [`Scope`]'s parser).
pub const SCOPE_PATTERN: &str = "^(\\*|admin|(chains|groups|domains|templates|uploads|stats|conversions|workchat|card|webhooks):(read|write))$";

/// A permission carried by an API key.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Scope {
    /// `<resource>:read`
    Read(Resource),
    /// `<resource>:write`
    Write(Resource),
    /// `admin`: the `/admin` endpoints.
    Admin,
    /// `*`: everything.
    All,
}

impl Scope {
    /// Whether a key holding `held` may use an endpoint that requires `self`.
    pub fn is_granted_by(self, held: &[Scope]) -> bool {
        held.iter().any(|s| *s == Scope::All || *s == self)
    }
}

impl fmt::Display for Scope {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Scope::Read(r) => write!(f, "{}:read", r.as_str()),
            Scope::Write(r) => write!(f, "{}:write", r.as_str()),
            Scope::Admin => f.write_str("admin"),
            Scope::All => f.write_str("*"),
        }
    }
}

/// A scope string that names no scope of the contract.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown scope {0:?}")]
pub struct UnknownScope(pub String);

impl FromStr for Scope {
    type Err = UnknownScope;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "*" => return Ok(Scope::All),
            "admin" => return Ok(Scope::Admin),
            _ => {}
        }
        let unknown = || UnknownScope(s.to_owned());
        let (resource, access) = s.split_once(':').ok_or_else(unknown)?;
        let resource = Resource::ALL
            .into_iter()
            .find(|r| r.as_str() == resource)
            .ok_or_else(unknown)?;
        match access {
            "read" => Ok(Scope::Read(resource)),
            "write" => Ok(Scope::Write(resource)),
            _ => Err(unknown()),
        }
    }
}
