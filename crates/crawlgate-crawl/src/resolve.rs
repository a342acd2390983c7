//! Host names answered from a fixed address instead of DNS ([`crate::HttpOptions::resolve`]),
//! like curl's `--resolve`: audit a new server under the production host name before the DNS
//! switch, or sites served on 127.0.0.1 under real-looking names (the demo). Only the address
//! changes: URLs, `Host` headers and TLS name checks keep the host name.

use std::net::{IpAddr, SocketAddr};
use thiserror::Error;

/// The system's resolver (`getaddrinfo`, on a blocking thread, as reqwest's default does), except
/// for names under the special-use `.invalid` domain, which fail at once without a query: RFC
/// 6761 §6.4 says resolver APIs "SHOULD recognize 'invalid' names as special and SHOULD always
/// return immediately with a negative response". A mistyped start URL gets the same DNS
/// failure as any unknown name, and tests can produce one without a network.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct SystemResolver;

impl reqwest::dns::Resolve for SystemResolver {
    fn resolve(&self, name: reqwest::dns::Name) -> reqwest::dns::Resolving {
        let host = name.as_str().to_owned();
        Box::pin(async move {
            if is_invalid_name(&host) {
                return Err(std::io::Error::new(
                    std::io::ErrorKind::NotFound,
                    format!("`{host}` is under the special-use .invalid domain, which never resolves (RFC 6761)"),
                )
                .into());
            }
            let addrs: Vec<SocketAddr> =
                tokio::net::lookup_host((host.as_str(), 0)).await?.collect();
            Ok(Box::new(addrs.into_iter()) as reqwest::dns::Addrs)
        })
    }
}

/// `invalid`, `shop.invalid`, `shop.INVALID.` — names RFC 6761 reserves never to resolve.
fn is_invalid_name(host: &str) -> bool {
    let host = host.strip_suffix('.').unwrap_or(host);
    let last = host.rsplit('.').next().unwrap_or(host);
    last.eq_ignore_ascii_case("invalid")
}

/// The longest `HOST=ADDR[:PORT]` accepted (a host name is at most 253 bytes).
const MAX_SPEC_LEN: usize = 512;

/// Why a host-name override is unusable.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ResolveError {
    #[error(
        "`{0}` is not HOST=ADDR[:PORT] (e.g. `www.example.com=10.0.0.5` or `www.example.com=10.0.0.5:8443`)"
    )]
    Syntax(String),
    #[error("`{host}` is not a host name to resolve: {reason}")]
    Host { host: String, reason: String },
    #[error(
        "`{0}` is not an IP address with an optional port (`10.0.0.5`, `10.0.0.5:8443`, `[::1]:8443`)"
    )]
    Address(String),
}

/// Read `HOST=ADDR[:PORT]` (`--resolve`, `resolve = [...]` in crawlgate.toml): the host name,
/// normalised as in a URL (lower case, IDNA as punycode), and the address to connect to. Without
/// a port (or with port 0) the URL's port is used, or its scheme's default; with one, URLs that
/// name no port connect to it.
pub fn parse_resolve(spec: &str) -> Result<(String, SocketAddr), ResolveError> {
    if spec.len() > MAX_SPEC_LEN {
        return Err(ResolveError::Syntax(format!(
            "{}…",
            spec.get(..32).unwrap_or_default()
        )));
    }
    let Some((host, address)) = spec.split_once('=') else {
        return Err(ResolveError::Syntax(spec.to_owned()));
    };
    let host = resolvable_host(host.trim())?;
    let address = address.trim();
    let addr = address
        .parse::<SocketAddr>()
        .ok()
        .or_else(|| {
            let bare = address
                .strip_prefix('[')
                .and_then(|inner| inner.strip_suffix(']'))
                .unwrap_or(address);
            bare.parse::<IpAddr>().ok().map(|ip| SocketAddr::new(ip, 0))
        })
        .ok_or_else(|| ResolveError::Address(address.to_owned()))?;
    Ok((host, addr))
}

/// `host` as a URL writes it (`WWW.Example.com` → `www.example.com`, IDNA → punycode), when it
/// is a domain name that can be resolved: an IP address is never looked up, and overrides match
/// by exact name, so a wildcard would never match. [`crate::Fetcher::new`] applies it to
/// [`crate::HttpOptions::resolve`].
pub fn resolvable_host(host: &str) -> Result<String, ResolveError> {
    let error = |reason: &str| ResolveError::Host {
        host: host.to_owned(),
        reason: reason.to_owned(),
    };
    if host.is_empty() {
        return Err(error("it is empty"));
    }
    if host.contains('*') {
        return Err(error("wildcards are not supported; list each host"));
    }
    match url::Host::parse(host) {
        Ok(url::Host::Domain(domain)) => Ok(domain),
        Ok(url::Host::Ipv4(_) | url::Host::Ipv6(_)) => {
            Err(error("an IP address is connected to as it is"))
        }
        Err(parse) => Err(error(&format!(
            "{parse} (give a bare host name: no scheme, port or path)"
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_names_under_invalid_are_refused_without_a_query() {
        for host in [
            "invalid",
            "shop.invalid",
            "www.Shop.INVALID.",
            "a.b.invalid",
        ] {
            assert!(is_invalid_name(host), "{host}");
        }
        for host in [
            "invalid.example.com",
            "example.com",
            "localhost",
            "invalidx",
            "test",
        ] {
            assert!(!is_invalid_name(host), "{host}");
        }
    }

    fn parsed(spec: &str) -> (String, SocketAddr) {
        parse_resolve(spec).unwrap_or_else(|error| panic!("{spec}: {error}"))
    }

    #[test]
    fn host_and_address_with_or_without_a_port() {
        assert_eq!(
            parsed("www.example.com=10.0.0.5"),
            ("www.example.com".to_owned(), "10.0.0.5:0".parse().unwrap())
        );
        assert_eq!(
            parsed("staging.example.com=10.0.0.6:8443"),
            (
                "staging.example.com".to_owned(),
                "10.0.0.6:8443".parse().unwrap()
            )
        );
        assert_eq!(parsed("a.test=::1").1, "[::1]:0".parse().unwrap());
        assert_eq!(parsed("a.test=[::1]").1, "[::1]:0".parse().unwrap());
        assert_eq!(parsed("a.test=[::1]:8080").1, "[::1]:8080".parse().unwrap());
        assert_eq!(parsed(" a.test = 127.0.0.1:80 ").0, "a.test");
    }

    #[test]
    fn host_names_are_written_as_in_urls() {
        assert_eq!(parsed("WWW.Example.COM=10.0.0.5").0, "www.example.com");
        assert_eq!(parsed("bücher.example=10.0.0.5").0, "xn--bcher-kva.example");
        assert_eq!(parsed("localhost=10.0.0.5").0, "localhost");
    }

    #[test]
    fn bad_entries_are_errors_saying_what_is_expected() {
        let error = |spec: &str| parse_resolve(spec).unwrap_err();
        for spec in ["www.example.com", "", "www.example.com:10.0.0.5"] {
            assert!(
                matches!(error(spec), ResolveError::Syntax(_)),
                "{spec}: {}",
                error(spec)
            );
        }
        for spec in [
            "=10.0.0.5",
            "127.0.0.1=10.0.0.5",
            "[::1]=10.0.0.5",
            "*.example.com=10.0.0.5",
            "https://www.example.com=10.0.0.5",
            "www.example.com:443=10.0.0.5",
            "a b=10.0.0.5",
        ] {
            assert!(
                matches!(error(spec), ResolveError::Host { .. }),
                "{spec}: {}",
                error(spec)
            );
        }
        for spec in [
            "a.test=",
            "a.test=10.0.0",
            "a.test=10.0.0.5:99999",
            "a.test=10.0.0.5:",
            "a.test=server.internal",
            "a.test=10.0.0.5=10.0.0.6",
        ] {
            assert!(
                matches!(error(spec), ResolveError::Address(_)),
                "{spec}: {}",
                error(spec)
            );
        }
        let long = format!("{}=10.0.0.5", "a".repeat(1000));
        assert!(matches!(error(&long), ResolveError::Syntax(_)));
        assert!(error("www.example.com").to_string().contains("HOST=ADDR"));
    }
}
