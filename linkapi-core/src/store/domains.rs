//! Domains: the hosts chains are served on.

use async_trait::async_trait;

use super::{StoreResult, StoredRow, bad_value};
use crate::model::{Domain, DomainId, DomainStatus, Scheme, Timestamp, UserId};

/// A new domain.
#[derive(Debug, Clone)]
pub struct NewDomain {
    /// Host, lower case, port included when not the default.
    pub host: String,
    /// Scheme of rendered URLs.
    pub scheme: Scheme,
    /// Label.
    pub scene: String,
    /// Offered to everyone.
    pub shared: bool,
    /// Owner of a private domain.
    pub user_id: Option<UserId>,
    /// Initial status.
    pub status: DomainStatus,
    /// Creation time.
    pub created_at: Timestamp,
}

/// The columns of a domain, in the order [`domain_at`] reads them.
pub(crate) const DOMAIN_COLUMNS: &str =
    "id, host, scheme, scene, shared, user_id, status, created_at";

/// [`DOMAIN_COLUMNS`] of a domain named `d` in a join.
pub(crate) const DOMAIN_COLUMNS_OF_D: &str =
    "d.id, d.host, d.scheme, d.scene, d.shared, d.user_id, d.status, d.created_at";

/// Every domain, oldest first.
pub(crate) static ALL_DOMAINS: std::sync::LazyLock<String> =
    std::sync::LazyLock::new(|| format!("SELECT {DOMAIN_COLUMNS} FROM domains ORDER BY id"));

/// One domain by id (`$1`).
pub(crate) static DOMAIN_BY_ID: std::sync::LazyLock<String> =
    std::sync::LazyLock::new(|| format!("SELECT {DOMAIN_COLUMNS} FROM domains WHERE id = $1"));

/// Reads a domain from the eight columns of [`DOMAIN_COLUMNS`] starting at `at`.
pub(crate) fn domain_at(row: &dyn StoredRow, at: usize) -> StoreResult<Domain> {
    let scheme = row.text(at + 2)?;
    let status = row.int(at + 6)?;
    Ok(Domain {
        id: DomainId(row.int(at)?),
        host: row.text(at + 1)?,
        scheme: Scheme::parse(&scheme).ok_or_else(|| bad_value("scheme", &scheme))?,
        scene: row.text(at + 3)?,
        shared: row.flag(at + 4)?,
        user_id: row.opt_int(at + 5)?.map(UserId),
        status: DomainStatus::from_code(status)
            .ok_or_else(|| bad_value("domain status", status))?,
        created_at: row.int(at + 7)?,
    })
}

pub(crate) fn domain_from_row(row: &dyn StoredRow) -> StoreResult<Domain> {
    domain_at(row, 0)
}

/// Domains.
#[async_trait]
pub trait DomainStore: Send + Sync {
    /// Every domain, oldest first.
    async fn domains(&self) -> StoreResult<Vec<Domain>>;
}

/// Writes to domains.
#[async_trait]
pub trait DomainWrites: Send {
    /// Inserts a domain.
    async fn insert_domain(&mut self, new: NewDomain) -> StoreResult<Domain>;
    /// Gives a domain another host and scheme (a conflict when another domain has the host).
    async fn set_domain_host(
        &mut self,
        id: DomainId,
        host: &str,
        scheme: Scheme,
    ) -> StoreResult<()>;
    /// Sets a domain's status; returns it as it now stands.
    async fn set_domain_status(
        &mut self,
        id: DomainId,
        status: DomainStatus,
    ) -> StoreResult<Option<Domain>>;
}
