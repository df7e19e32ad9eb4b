//! Domains: the hosts chains are served on, their status and scheme.

use super::{DomainId, Timestamp, UserId};

/// `domain_status`: 1 effective, 99 not effective.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DomainStatus {
    /// 1: chains on it are served.
    Effective,
    /// 99: chains on it answer 404 and new chains are refused.
    NotEffective,
}

impl DomainStatus {
    /// The wire integer.
    pub fn code(self) -> i64 {
        match self {
            DomainStatus::Effective => 1,
            DomainStatus::NotEffective => 99,
        }
    }

    /// Reads a wire integer.
    pub fn from_code(code: i64) -> Option<Self> {
        match code {
            1 => Some(DomainStatus::Effective),
            99 => Some(DomainStatus::NotEffective),
            _ => None,
        }
    }
}

/// The scheme a domain is served on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scheme {
    /// `http`
    Http,
    /// `https`
    Https,
}

impl Scheme {
    /// The scheme's name.
    pub fn as_str(self) -> &'static str {
        match self {
            Scheme::Http => "http",
            Scheme::Https => "https",
        }
    }

    /// Reads a scheme name.
    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "http" => Some(Scheme::Http),
            "https" => Some(Scheme::Https),
            _ => None,
        }
    }
}

/// A domain chains are served on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Domain {
    /// Row id.
    pub id: DomainId,
    /// Host, lower case, with a port when it is not the scheme's default.
    pub host: String,
    /// The scheme `render_url` uses.
    pub scheme: Scheme,
    /// Free-form label of what the domain is for.
    pub scene: String,
    /// Offered to every user when true; otherwise only to `user_id`.
    pub shared: bool,
    /// The owner of a private domain.
    pub user_id: Option<UserId>,
    /// Effective or not.
    pub status: DomainStatus,
    /// When the domain was registered.
    pub created_at: Timestamp,
}

impl Domain {
    /// `scheme://host/code`.
    pub fn render_url(&self, code: &str) -> String {
        format!("{}://{}/{}", self.scheme.as_str(), self.host, code)
    }

    /// Whether `user` may create chains on and list this domain.
    pub fn is_visible_to(&self, user: UserId) -> bool {
        self.shared || self.user_id == Some(user)
    }
}
