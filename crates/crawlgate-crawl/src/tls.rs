//! The TLS settings of the HTTP clients, with the system's root certificates read on the first
//! HTTPS connection instead of when a client is built.
//!
//! reqwest's own rustls setup builds a `rustls_platform_verifier::Verifier` per client, which
//! reads and parses every certificate of the system store (`/etc/ssl/certs`) there and then: the
//! fetcher's two clients did it twice before the first request, on every crawl, HTTP only or
//! not (BENCHMARKS.md, "The machine's ceiling"). Here both clients share one verifier that builds
//! the platform one when a certificate is first to be checked. The settings are reqwest's
//! defaults for rustls: every protocol version the provider supports, SNI, ALPN `h2` then
//! `http/1.1`, no client certificate.

use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::crypto::CryptoProvider;
use rustls::pki_types::{CertificateDer, ServerName, UnixTime};
use rustls::{DigitallySignedStruct, SignatureScheme};
use rustls_platform_verifier::Verifier;
use std::sync::{Arc, OnceLock};

/// The client configuration both clients use: the platform's roots and `extra_roots`, checked
/// by one lazily built verifier.
pub(crate) fn client_config(
    provider: Arc<CryptoProvider>,
    extra_roots: Vec<CertificateDer<'static>>,
) -> Result<rustls::ClientConfig, rustls::Error> {
    let verifier = Arc::new(LazyVerifier {
        provider: Arc::clone(&provider),
        extra_roots,
        built: OnceLock::new(),
    });
    let mut config = rustls::ClientConfig::builder_with_provider(provider)
        .with_protocol_versions(rustls::ALL_VERSIONS)?
        .dangerous()
        .with_custom_certificate_verifier(verifier)
        .with_no_client_auth();
    config.alpn_protocols = vec![b"h2".to_vec(), b"http/1.1".to_vec()];
    Ok(config)
}

/// The platform verifier (system roots plus `extra_roots`), built on first use. A failure to
/// build it (no readable system certificate and no extra root) fails each certificate check
/// with its error: HTTPS fails, HTTP is unaffected.
#[derive(Debug)]
struct LazyVerifier {
    provider: Arc<CryptoProvider>,
    extra_roots: Vec<CertificateDer<'static>>,
    built: OnceLock<Result<Verifier, rustls::Error>>,
}

impl LazyVerifier {
    fn verifier(&self) -> Result<&Verifier, rustls::Error> {
        self.built
            .get_or_init(|| {
                if self.extra_roots.is_empty() {
                    Verifier::new(Arc::clone(&self.provider))
                } else {
                    Verifier::new_with_extra_roots(
                        self.extra_roots.iter().cloned(),
                        Arc::clone(&self.provider),
                    )
                }
            })
            .as_ref()
            .map_err(Clone::clone)
    }
}

impl ServerCertVerifier for LazyVerifier {
    fn verify_server_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        intermediates: &[CertificateDer<'_>],
        server_name: &ServerName<'_>,
        ocsp_response: &[u8],
        now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        self.verifier()?.verify_server_cert(
            end_entity,
            intermediates,
            server_name,
            ocsp_response,
            now,
        )
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        self.verifier()?.verify_tls12_signature(message, cert, dss)
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        self.verifier()?.verify_tls13_signature(message, cert, dss)
    }

    // Asked for every ClientHello; the provider answers it as the platform verifier would,
    // without the roots.
    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.provider
            .signature_verification_algorithms
            .supported_schemes()
    }
}
