//! `AuditorBuilder::ca_cert`: a site behind a CA the system does not know is audited once its
//! root certificate is given; a file that is not a certificate fails the build, naming it.

use crawlgate::site::{FailureKind, ResourceState};
use crawlgate::{Auditor, ConfigError};
use crawlgate_serve::{LOOPBACK_CA_PEM, ServedSite, SiteServer};

fn https_site() -> SiteServer {
    let site = ServedSite::new()
        .file("robots.txt", "User-agent: *\nDisallow:\n")
        .file("index.html", "<title>Sign in</title>")
        .https();
    SiteServer::start_in_background(site).unwrap()
}

fn start_state(auditor: &Auditor, server: &SiteServer) -> ResourceState {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let start = server.url("/");
    let audit = runtime.block_on(auditor.audit(start.as_str())).unwrap();
    audit.site.resource(&start).unwrap().state.clone()
}

#[test]
fn a_site_behind_an_unknown_ca_is_audited_once_its_root_is_given() {
    let server = https_site();
    let trusting = Auditor::builder().ca_cert(LOOPBACK_CA_PEM).build().unwrap();
    assert!(
        matches!(start_state(&trusting, &server), ResourceState::Fetched(_)),
        "the page is fetched over HTTPS"
    );

    let not_trusting = Auditor::builder().build().unwrap();
    match start_state(&not_trusting, &server) {
        ResourceState::Failed { kind, .. } => assert_eq!(kind, FailureKind::Tls),
        other => panic!("expected a TLS failure, got {other:?}"),
    }
}

#[test]
fn a_certificate_that_is_not_one_fails_the_build() {
    let error = Auditor::builder()
        .ca_cert(LOOPBACK_CA_PEM)
        .ca_cert(&b"-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n"[..])
        .build()
        .unwrap_err();
    assert!(
        matches!(error, ConfigError::CaCert { index: 2, .. }),
        "{error}"
    );
    assert!(error.to_string().contains("CA certificate 2"), "{error}");
}
