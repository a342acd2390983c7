//! `AuditorBuilder::resolve`: a site is audited under a host name DNS does not know, answered
//! from the address given (like curl's `--resolve`); a host that cannot be resolved fails the
//! build.

use crawlgate::site::ResourceState;
use crawlgate::{Auditor, ConfigError, HttpOptions, ResolveError};
use crawlgate_serve::{ServedSite, SiteServer};

#[test]
fn a_site_is_audited_under_a_made_up_host_name() {
    let site = ServedSite::new()
        .file("robots.txt", "User-agent: *\nDisallow: /private\n")
        .file(
            "index.html",
            "<title>Shop</title><a href='/private'>p</a><a href='/about'>about</a>",
        )
        .file("about", "<title>About</title>")
        .file("private", "<meta name=robots content=noindex>");
    let server = SiteServer::start_in_background(site).unwrap();
    let auditor = Auditor::builder()
        .resolve("Shop.Crawlgate.test", server.addr())
        // HTTP options given after keep the host names.
        .http(HttpOptions::default())
        .build()
        .unwrap();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let audit = runtime
        .block_on(auditor.audit("http://shop.crawlgate.test/"))
        .unwrap();
    for path in ["/", "/about", "/private"] {
        let url = audit.site.start_url.join(path).unwrap();
        let resource = audit.site.resource(&url).unwrap();
        assert!(
            matches!(resource.state, ResourceState::Fetched(_)),
            "{url}: {:?}",
            resource.state
        );
    }
    // The findings name the host, never the address.
    assert!(
        audit
            .report
            .findings
            .iter()
            .any(|f| f.finding.rule == "robots/blocked-noindex"
                && f.finding.url == "http://shop.crawlgate.test/private")
    );
    let mut requests = server.requests();
    requests.sort();
    assert!(requests.contains(&"/about".to_owned()), "{requests:?}");
}

#[test]
fn a_host_that_cannot_be_resolved_fails_the_build() {
    let addr = "10.0.0.5:0".parse().unwrap();
    let error = Auditor::builder()
        .resolve("*.example.com", addr)
        .build()
        .unwrap_err();
    assert!(
        matches!(error, ConfigError::Resolve(ResolveError::Host { .. })),
        "{error}"
    );
    assert!(error.to_string().contains("wildcards"), "{error}");
}
