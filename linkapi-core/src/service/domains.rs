//! The domains a user may use, the default domain, and host names.

use super::{AppConfig, Principal};
use crate::clock::Clock;
use crate::error::{Error, Result, names};
use crate::model::limits::MAX_HOST_NAME;
use crate::model::{Domain, DomainId, DomainStatus, UserId};
use crate::store::{Invalidation, NewDomain, Store, StoreError, Unique};

/// `scene` of the domains the server registers as its default.
const DEFAULT_SCENE: &str = "default";

impl super::App {
    /// Domains the user may use: shared ones and the user's own, oldest first.
    ///
    /// # Errors
    /// When the store fails.
    pub async fn domains_for(&self, user: UserId) -> Result<Vec<Domain>> {
        let mut domains = self.store().domains().await?;
        domains.retain(|d| d.is_visible_to(user));
        Ok(domains)
    }

    /// The domain the caller names by its host (`s.example`, `s.example:8080`, or as a URL,
    /// `https://s.example/`), among those it may use: how the original vendor's clients name
    /// a chain's domain (contract section 5).
    ///
    /// # Errors
    /// 422 `invalid_domain` when the caller may use no domain of that host.
    pub fn domain_named(&self, who: &Principal, name: &str) -> Result<DomainId> {
        let bare = name.trim();
        let bare = ["https://", "http://"]
            .iter()
            .find_map(|scheme| {
                bare.get(..scheme.len())
                    .filter(|p| p.eq_ignore_ascii_case(scheme))
                    .map(|_| &bare[scheme.len()..])
            })
            .unwrap_or(bare);
        let bare = bare.strip_suffix('/').unwrap_or(bare);
        normalize_host(bare)
            .and_then(|host| self.inner.links.domain_at(&host))
            .filter(|d| d.is_visible_to(who.user_id))
            .map(|d| d.id)
            .ok_or_else(|| {
                Error::unprocessable(names::INVALID_DOMAIN, format!("no domain {name:?} for you"))
            })
    }
}

/// The default domain's id, registering it when it is new. Several instances may start at
/// once: the one that loses the race to insert it reads the winner's row.
///
/// With [`AppConfig::follow_address_domain`] (one process owns the store), a default domain
/// registered from an earlier listen address is renamed to `host` instead, so the links made
/// there follow the server to its next address or to its public URL.
pub(super) async fn register_default_domain(
    store: &dyn Store,
    clock: &dyn Clock,
    config: &AppConfig,
    host: String,
) -> Result<DomainId> {
    let domains = store.domains().await?;
    if let Some(d) = domains.iter().find(|d| d.host == host) {
        return Ok(d.id);
    }
    let earlier_address = domains
        .iter()
        .filter(|d| is_address_default(d))
        .max_by_key(|d| d.id.0);
    if let Some(old) = earlier_address.filter(|_| config.follow_address_domain) {
        let (id, scheme, to) = (old.id, config.default_scheme, host.clone());
        crate::store::transact(store, move |tx| {
            let to = to.clone();
            Box::pin(async move {
                tx.set_domain_host(id, &to, scheme).await?;
                tx.publish(Invalidation::Domains).await?;
                Ok(())
            })
        })
        .await?;
        tracing::info!(
            from = %old.host,
            to = %host,
            "the default domain follows the server: links made at its earlier address now name this one"
        );
        return Ok(id);
    }
    let new = NewDomain {
        host: host.clone(),
        scheme: config.default_scheme,
        scene: DEFAULT_SCENE.into(),
        shared: true,
        user_id: None,
        status: DomainStatus::Effective,
        created_at: clock.now(),
    };
    let inserted = crate::store::transact(store, move |tx| {
        let new = new.clone();
        Box::pin(async move {
            let domain = tx.insert_domain(new).await?;
            tx.publish(Invalidation::Domains).await?;
            Ok(domain.id)
        })
    })
    .await;
    match inserted {
        Ok((id, _)) => Ok(id),
        Err(StoreError::Conflict(Unique::DomainHost)) => store
            .domains()
            .await?
            .into_iter()
            .find(|d| d.host == host)
            .map(|d| d.id)
            .ok_or(Error::NotFound("domain")),
        Err(e) => Err(e.into()),
    }
}

/// Whether the server registered `domain` as its default from the address it listened on (no
/// public URL): a shared default domain whose host is an IP address and port.
fn is_address_default(domain: &Domain) -> bool {
    domain.scene == DEFAULT_SCENE
        && domain.shared
        && domain.user_id.is_none()
        && domain.host.parse::<std::net::SocketAddr>().is_ok()
}

/// Lower-cases a host (with optional port) and checks its characters; `None` when it is not a
/// plausible host. An IPv6 address is written in brackets, as in URLs (`[::1]:8080`). Ports 80
/// and 443 are kept as written: the scheme decides what is default.
pub fn normalize_host(raw: &str) -> Option<String> {
    let host = raw.trim().to_ascii_lowercase();
    let (name_ok, port) = match host.strip_prefix('[') {
        Some(rest) => {
            let (address, after) = rest.split_once(']')?;
            let port = match after {
                "" => None,
                _ => Some(after.strip_prefix(':')?),
            };
            (address.parse::<std::net::Ipv6Addr>().is_ok(), port)
        }
        // A name holds at most one colon, the one before its port.
        None => match host.split_once(':') {
            Some((name, port)) => (is_host_name(name), Some(port)),
            None => (is_host_name(&host), None),
        },
    };
    (name_ok && port_ok(port)).then_some(host)
}

fn is_host_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= MAX_HOST_NAME
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'.')
        && !name.starts_with(['-', '.'])
        && !name.ends_with(['-', '.'])
}

fn port_ok(port: Option<&str>) -> bool {
    port.is_none_or(|p| p.parse::<u16>().is_ok_and(|p| p != 0))
}

#[cfg(test)]
mod tests {
    use super::normalize_host;

    #[test]
    fn hosts_are_normalised_and_checked() {
        assert_eq!(
            normalize_host("S.Example.COM").as_deref(),
            Some("s.example.com")
        );
        assert_eq!(
            normalize_host("127.0.0.1:8080").as_deref(),
            Some("127.0.0.1:8080")
        );
        assert_eq!(normalize_host("a.b:0"), None);
        assert_eq!(normalize_host("a.b:99999"), None);
        assert_eq!(normalize_host("bad host"), None);
        assert_eq!(normalize_host("-x.com"), None);
        assert_eq!(normalize_host(""), None);
        assert_eq!(normalize_host("x.com/path"), None);
        assert_eq!(normalize_host("[::1]:8080").as_deref(), Some("[::1]:8080"));
        assert_eq!(normalize_host("[FE80::1]").as_deref(), Some("[fe80::1]"));
        assert_eq!(normalize_host("[::1]:0"), None);
        assert_eq!(normalize_host("[nope]:80"), None);
        assert_eq!(normalize_host("::1"), None);
        assert_eq!(normalize_host("[::1]x"), None);
    }
}
