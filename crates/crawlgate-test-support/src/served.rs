//! The fixture sites of `fixtures/sites/`, served on 127.0.0.1.

use crawlgate_serve::{ServedSite, SiteServer};

/// The site of `fixtures/sites/<name>/`, read from its folder (`_routes.toml` included).
pub fn fixture_site(name: &str) -> ServedSite {
    let dir = crate::fixtures_dir().join("sites").join(name);
    ServedSite::from_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
}

/// The site of `fixtures/sites/<name>/`, served from a thread of its own (for tests without a
/// runtime) until the server is dropped.
pub fn serve_fixture_site(name: &str) -> SiteServer {
    SiteServer::start_in_background(fixture_site(name))
        .unwrap_or_else(|e| panic!("serving fixtures/sites/{name}: {e}"))
}
