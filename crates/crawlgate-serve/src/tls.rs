//! HTTPS for served sites: a committed certificate for `secure.northwind.test` (the demo's HTTPS
//! site), 127.0.0.1 and `localhost` (`crates/crawlgate-serve/tls/`, its README says how it was
//! made and why it is committed), and the TLS acceptor built from it.

use crate::ServeError;
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};
use std::sync::Arc;
use tokio_rustls::TlsAcceptor;

/// The CA that signed the certificate sites are served over HTTPS with (PEM). Trust it in the
/// client that audits them (`HttpOptions::extra_root_certs`) and nowhere else: its name
/// constraints limit it to `secure.northwind.test`, `127.0.0.1` and `localhost`.
pub const LOOPBACK_CA_PEM: &str = include_str!("../tls/ca.pem");

/// The server certificate (`secure.northwind.test`, 127.0.0.1 and `localhost`), signed by
/// [`LOOPBACK_CA_PEM`].
const SERVER_CERT_PEM: &str = include_str!("../tls/server.pem");
/// Its private key (PKCS#8).
const SERVER_KEY_PEM: &str = include_str!("../tls/server.key");

/// An acceptor that speaks HTTP/1.1 over TLS with the loopback certificate, through rustls and
/// ring (never aws-lc: no C build).
pub(crate) fn loopback_acceptor() -> Result<TlsAcceptor, ServeError> {
    let tls =
        |what: &str, error: &dyn std::fmt::Display| ServeError::Tls(format!("{what}: {error}"));
    let chain = CertificateDer::pem_slice_iter(SERVER_CERT_PEM.as_bytes())
        .collect::<Result<Vec<_>, _>>()
        .map_err(|error| tls("the server certificate", &error))?;
    let key = PrivateKeyDer::from_pem_slice(SERVER_KEY_PEM.as_bytes())
        .map_err(|error| tls("the server key", &error))?;
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let mut config = rustls::ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|error| tls("the protocol versions", &error))?
        .with_no_client_auth()
        .with_single_cert(chain, key)
        .map_err(|error| tls("the server certificate", &error))?;
    // The server speaks HTTP/1.1 only; saying so keeps a client from choosing h2.
    config.alpn_protocols = vec![b"http/1.1".to_vec()];
    Ok(TlsAcceptor::from(Arc::new(config)))
}
