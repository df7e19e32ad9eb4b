//! Where a webhook may be sent: http(s) URLs whose host resolves only to public addresses
//! (unless the deployment allows private ones), checked when an endpoint is registered or
//! edited and again on every connection, so a name that later resolves elsewhere (DNS
//! rebinding) cannot reach the machine's own network.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use http_body_util::Full;
use hyper_rustls::HttpsConnector;
use hyper_util::client::legacy::Client;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::client::legacy::connect::dns::Name;
use hyper_util::rt::TokioExecutor;

use crate::codes::validate_target_url;
use crate::error::{Error, Result, names};

/// How long one attempt may take, connecting and answering.
pub(crate) const ATTEMPT_TIMEOUT: Duration = Duration::from_secs(10);

/// `url` checked: written as a chain's `target_url` must be (400 `invalid_webhook_url`
/// otherwise, as the schema states), and resolving now only to public addresses unless
/// `allow_private` (422 `webhook_url_not_public`: it depends on the world, not the request).
///
/// # Errors
/// As above, saying what is wrong.
pub(crate) async fn check_url(url: &str, allow_private: bool) -> Result<url::Url> {
    let checked = validate_target_url(url).map_err(|err| {
        Error::bad_request(
            names::INVALID_WEBHOOK_URL,
            err.to_string().replacen("target_url", "url", 1),
        )
    })?;
    let parsed = url::Url::parse(&checked)
        .map_err(|err| Error::bad_request(names::INVALID_WEBHOOK_URL, format!("url {err}")))?;
    if allow_private {
        return Ok(parsed);
    }
    let refuse = |why: String| Error::unprocessable(names::WEBHOOK_URL_NOT_PUBLIC, why);
    let port = parsed.port_or_known_default().unwrap_or(443);
    let addresses: Vec<IpAddr> = match parsed.host() {
        Some(url::Host::Ipv4(ip)) => vec![IpAddr::V4(ip)],
        Some(url::Host::Ipv6(ip)) => vec![IpAddr::V6(ip)],
        Some(url::Host::Domain(name)) => tokio::net::lookup_host((name, port))
            .await
            .map_err(|err| refuse(format!("url host {name} does not resolve: {err}")))?
            .map(|a| a.ip())
            .collect(),
        None => Vec::new(),
    };
    if addresses.is_empty() {
        return Err(refuse("url host has no address".into()));
    }
    if let Some(private) = addresses.iter().find(|ip| !is_public(**ip)) {
        return Err(refuse(format!(
            "url host is a loopback, private, link-local or otherwise non-public address \
             ({private}); webhooks go to public addresses only"
        )));
    }
    Ok(parsed)
}

/// Whether a URL's host is an address literal that may not be reached: the resolver below
/// never sees those.
pub(crate) fn literal_is_refused(url: &str, allow_private: bool) -> bool {
    if allow_private {
        return false;
    }
    match url::Url::parse(url)
        .ok()
        .and_then(|u| u.host().map(|h| h.to_owned()))
    {
        Some(url::Host::Ipv4(ip)) => !is_public(IpAddr::V4(ip)),
        Some(url::Host::Ipv6(ip)) => !is_public(IpAddr::V6(ip)),
        _ => false,
    }
}

/// Resolves host names for deliveries, keeping public addresses only unless the deployment
/// allows private ones: a connection can only go where the check at registration would have
/// allowed.
#[derive(Clone, Copy)]
pub(crate) struct Resolver {
    allow_private: bool,
}

/// A name that resolved to no address a webhook may go to.
#[derive(Debug, thiserror::Error)]
#[error("{0} resolves to no public address; webhooks go to public addresses only")]
struct NoPublicAddress(String);

type Resolving = std::pin::Pin<
    Box<dyn std::future::Future<Output = std::io::Result<std::vec::IntoIter<SocketAddr>>> + Send>,
>;

impl tower_service::Service<Name> for Resolver {
    type Response = std::vec::IntoIter<SocketAddr>;
    type Error = std::io::Error;
    type Future = Resolving;

    fn poll_ready(
        &mut self,
        _: &mut std::task::Context<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        std::task::Poll::Ready(Ok(()))
    }

    fn call(&mut self, name: Name) -> Resolving {
        let allow_private = self.allow_private;
        Box::pin(async move {
            let host = name.as_str().to_owned();
            let found: Vec<SocketAddr> = tokio::net::lookup_host((host.as_str(), 0))
                .await?
                .filter(|a| allow_private || is_public(a.ip()))
                .collect();
            if found.is_empty() {
                return Err(std::io::Error::other(NoPublicAddress(host)));
            }
            Ok(found.into_iter())
        })
    }
}

/// What deliveries are posted with.
pub(crate) type HttpClient = Client<HttpsConnector<HttpConnector<Resolver>>, Full<Bytes>>;

/// The HTTP client deliveries use: hyper's, with TLS on the web's roots, HTTP/1.1, a connect
/// timeout of [`ATTEMPT_TIMEOUT`], and names resolved through [`Resolver`]. It follows no
/// redirects (hyper's client never does).
///
/// # Errors
/// When TLS cannot be set up.
pub(crate) fn http_client(allow_private: bool) -> Result<HttpClient> {
    let roots = rustls::RootCertStore::from_iter(webpki_roots::TLS_SERVER_ROOTS.iter().cloned());
    let tls = rustls::ClientConfig::builder_with_provider(Arc::new(
        rustls::crypto::ring::default_provider(),
    ))
    .with_safe_default_protocol_versions()
    .map_err(|err| Error::Internal(Box::new(err)))?
    .with_root_certificates(roots)
    .with_no_client_auth();
    let mut http = HttpConnector::new_with_resolver(Resolver { allow_private });
    http.enforce_http(false);
    http.set_connect_timeout(Some(ATTEMPT_TIMEOUT));
    let https = hyper_rustls::HttpsConnectorBuilder::new()
        .with_tls_config(tls)
        .https_or_http()
        .enable_http1()
        .wrap_connector(http);
    Ok(Client::builder(TokioExecutor::new()).build(https))
}

/// Whether a webhook may be sent to `address`: a public unicast address. Loopback, private
/// (RFC 1918), shared (CGNAT), link-local (cloud metadata services among them: 169.254.169.254),
/// unique-local IPv6 (fd00:ec2::254 among them), unspecified, multicast, broadcast, reserved,
/// benchmarking and documentation ranges are not, nor an IPv6 address that embeds one of
/// those IPv4 addresses (mapped, compatible, NAT64, 6to4).
pub fn is_public(address: IpAddr) -> bool {
    match address {
        IpAddr::V4(v4) => is_public_v4(v4),
        IpAddr::V6(v6) => is_public_v6(v6),
    }
}

fn is_public_v4(a: Ipv4Addr) -> bool {
    let [first, second, third, _] = a.octets();
    let refused = a.is_unspecified()
        || a.is_loopback()
        || a.is_private()
        || a.is_link_local()
        || a.is_multicast()
        || a.is_broadcast()
        || a.is_documentation()
        || first == 0
        // Shared address space (carrier-grade NAT), 100.64.0.0/10.
        || (first == 100 && (64..128).contains(&second))
        // IETF protocol assignments, 192.0.0.0/24.
        || (first == 192 && second == 0 && third == 0)
        // Benchmarking, 198.18.0.0/15.
        || (first == 198 && (18..20).contains(&second))
        // Reserved, 240.0.0.0/4.
        || first >= 240;
    !refused
}

fn is_public_v6(a: Ipv6Addr) -> bool {
    if let Some(v4) = a.to_ipv4_mapped() {
        return is_public_v4(v4);
    }
    let segments = a.segments();
    // IPv4-compatible (::a.b.c.d, deprecated), NAT64 (64:ff9b::/96) and 6to4 (2002::/16)
    // addresses reach the IPv4 address they embed.
    let embedded = |high: u16, low: u16| {
        Ipv4Addr::new((high >> 8) as u8, high as u8, (low >> 8) as u8, low as u8)
    };
    if segments[..6] == [0, 0, 0, 0, 0, 0] && !a.is_unspecified() && !a.is_loopback() {
        return is_public_v4(embedded(segments[6], segments[7]));
    }
    if segments[..6] == [0x64, 0xff9b, 0, 0, 0, 0] {
        return is_public_v4(embedded(segments[6], segments[7]));
    }
    if segments[0] == 0x2002 {
        return is_public_v4(embedded(segments[1], segments[2]));
    }
    let refused = a.is_unspecified()
        || a.is_loopback()
        || a.is_multicast()
        // Unique local, fc00::/7.
        || (segments[0] & 0xfe00) == 0xfc00
        // Link-local, fe80::/10.
        || (segments[0] & 0xffc0) == 0xfe80
        // Site-local (deprecated), fec0::/10.
        || (segments[0] & 0xffc0) == 0xfec0
        // Documentation, 2001:db8::/32.
        || (segments[0] == 0x2001 && segments[1] == 0x0db8)
        // Discard-only, 100::/64.
        || segments[..4] == [0x100, 0, 0, 0];
    !refused
}

#[cfg(test)]
mod tests {
    use std::str::FromStr;

    use hyper_util::client::legacy::connect::dns::Name;
    use tower_service::Service as _;

    use super::{IpAddr, Resolver, is_public, literal_is_refused};

    #[tokio::test]
    async fn connections_resolve_to_public_addresses_only() {
        let localhost = Name::from_str("localhost").expect("a name");
        // What registration refused is refused again when connecting (DNS rebinding).
        let refused = Resolver {
            allow_private: false,
        }
        .call(localhost.clone())
        .await;
        assert!(refused.is_err_and(|e| e.to_string().contains("no public address")));
        let allowed = Resolver {
            allow_private: true,
        }
        .call(localhost)
        .await
        .expect("resolved");
        assert!(allowed.into_iter().any(|a| a.ip().is_loopback()));
        assert!(literal_is_refused("http://127.0.0.1:8080/x", false));
        assert!(literal_is_refused("http://[fd00:ec2::254]/x", false));
        assert!(!literal_is_refused("http://127.0.0.1:8080/x", true));
        assert!(!literal_is_refused("https://example.com/x", false));
    }

    #[test]
    fn only_public_unicast_addresses_are_targets() {
        let public = [
            "93.184.216.34",
            "8.8.8.8",
            "100.128.0.1",
            "172.32.0.1",
            "2606:4700::1111",
            "::ffff:8.8.8.8",
            "2002:0808:0808::1",
        ];
        for address in public {
            let ip: IpAddr = address.parse().expect("an address");
            assert!(is_public(ip), "{address} is public");
        }
        let refused = [
            "127.0.0.1",
            "127.1.2.3",
            "0.0.0.0",
            "0.1.2.3",
            "10.0.0.1",
            "172.16.5.4",
            "192.168.1.1",
            "100.64.0.1",
            "169.254.169.254",
            "192.0.0.1",
            "192.0.2.1",
            "198.18.0.1",
            "224.0.0.1",
            "240.0.0.1",
            "255.255.255.255",
            "::",
            "::1",
            "fe80::1",
            "fc00::1",
            "fd00:ec2::254",
            "fec0::1",
            "ff02::1",
            "2001:db8::1",
            "::ffff:127.0.0.1",
            "::ffff:169.254.169.254",
            "::10.0.0.1",
            "64:ff9b::7f00:1",
            "2002:7f00:0001::1",
            "100::1",
        ];
        for address in refused {
            let ip: IpAddr = address.parse().expect("an address");
            assert!(!is_public(ip), "{address} is refused");
        }
    }
}
