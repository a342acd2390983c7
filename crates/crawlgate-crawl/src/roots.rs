//! Root certificates trusted besides the system's: auditing a staging site behind an internal
//! CA, or a site served over HTTPS on 127.0.0.1 (`crawlgate_serve::LOOPBACK_CA_PEM`).

use crate::ClientError;
use rustls::pki_types::CertificateDer;
use rustls::pki_types::pem::PemObject;

/// Certificates read from one file at most (a system bundle holds about 150).
const MAX_CERTIFICATES: usize = 10_000;

/// The certificates in `bytes`, each checked to be usable as a trust anchor: every
/// `CERTIFICATE` block of PEM text (other blocks, such as a key, are skipped), or one
/// DER-encoded certificate.
pub(crate) fn root_certificates(bytes: &[u8]) -> Result<Vec<CertificateDer<'static>>, ClientError> {
    let invalid = |message: String| ClientError::RootCertificate(message);
    let certificates = if memchr::memmem::find(bytes, b"-----BEGIN").is_some() {
        let mut certificates = Vec::new();
        for certificate in CertificateDer::pem_slice_iter(bytes) {
            if certificates.len() == MAX_CERTIFICATES {
                return Err(invalid(format!(
                    "more than {MAX_CERTIFICATES} certificates in one file"
                )));
            }
            certificates.push(certificate.map_err(|error| invalid(format!("bad PEM: {error}")))?);
        }
        if certificates.is_empty() {
            return Err(invalid(
                "PEM text without a `BEGIN CERTIFICATE` block (a key or a request?)".to_owned(),
            ));
        }
        certificates
    } else if bytes.is_empty() {
        return Err(invalid("the file is empty".to_owned()));
    } else {
        vec![CertificateDer::from(bytes.to_vec())]
    };
    for (index, certificate) in certificates.iter().enumerate() {
        rustls::RootCertStore::empty()
            .add(certificate.clone())
            .map_err(|error| {
                invalid(format!(
                    "certificate {} is not a usable X.509 certificate (PEM or DER expected): {error}",
                    index + 1
                ))
            })?;
    }
    Ok(certificates)
}

/// Check that `bytes` hold root certificates the HTTP client can trust (PEM, one or more, or
/// DER): the check [`crate::Fetcher::new`] makes, for reporting a bad file before a crawl
/// starts. Returns how many certificates they hold.
pub fn check_root_certificates(bytes: &[u8]) -> Result<usize, ClientError> {
    root_certificates(bytes).map(|certificates| certificates.len())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crawlgate_serve::LOOPBACK_CA_PEM;

    #[test]
    fn pem_and_der_certificates_are_read() {
        let pem = root_certificates(LOOPBACK_CA_PEM.as_bytes()).unwrap();
        assert_eq!(pem.len(), 1);
        let der = root_certificates(pem[0].as_ref()).unwrap();
        assert_eq!(der, pem);
        // A bundle: every certificate, whatever else the file holds.
        let bundle = format!(
            "# internal CAs\n{LOOPBACK_CA_PEM}\n-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n{LOOPBACK_CA_PEM}"
        );
        assert_eq!(check_root_certificates(bundle.as_bytes()).unwrap(), 2);
    }

    #[test]
    fn what_is_not_a_certificate_is_an_error_saying_why() {
        let message = |bytes: &[u8]| check_root_certificates(bytes).unwrap_err().to_string();
        assert!(message(b"").contains("empty"), "{}", message(b""));
        let key = b"-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n";
        assert!(
            message(key).contains("BEGIN CERTIFICATE"),
            "{}",
            message(key)
        );
        let garbage = b"\x30\x03\x02\x01\x05 not a certificate";
        assert!(message(garbage).contains("X.509"), "{}", message(garbage));
        let broken = LOOPBACK_CA_PEM.replace("MII", "M!I");
        assert!(check_root_certificates(broken.as_bytes()).is_err());
    }
}
