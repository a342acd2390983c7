//! Where a sitemap may point: the sitemaps.org location rules, relative to the sitemap's own URL.
//!
//! "All URLs in a Sitemap must be from a single host", and a sitemap at `/catalog/sitemap.xml`
//! may only list URLs under `/catalog/`. An index's children must be on the same site, in the
//! index's directory or deeper.

use super::loc::{CheckedUrl, PlainUrl};
use url::Url;

/// How a listed URL sits relative to the sitemap.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Placement {
    /// Same scheme, host and port, inside the sitemap's directory.
    Inside,
    /// Same origin, outside the sitemap's directory.
    OutsideDirectory,
    /// Another scheme, host or port, with no cross-submit proof.
    OtherOrigin,
}

/// The sitemap's origin and directory.
#[derive(Debug, Clone)]
pub(crate) struct Scope {
    sitemap: Url,
    /// The path up to and including its last `/`.
    directory: String,
    cross_submit: Vec<url::Origin>,
}

impl Scope {
    pub(crate) fn new(sitemap: &Url, cross_submit: &[url::Origin]) -> Self {
        let path = sitemap.path();
        let directory = path
            .rfind('/')
            .and_then(|last| path.get(..=last))
            .unwrap_or("/")
            .to_owned();
        Self {
            sitemap: sitemap.clone(),
            directory,
            cross_submit: cross_submit.to_vec(),
        }
    }

    /// The sitemap's directory, as a path (`/` at the root).
    pub(crate) fn directory(&self) -> &str {
        &self.directory
    }

    /// The sitemap's origin, serialised (`https://example.com`).
    pub(crate) fn origin(&self) -> String {
        self.sitemap.origin().ascii_serialization()
    }

    pub(crate) fn place(&self, url: &CheckedUrl<'_>) -> Placement {
        match url {
            CheckedUrl::Plain(plain) => self.place_plain(plain),
            CheckedUrl::Parsed(url) => self.place_parsed(url),
        }
    }

    fn place_plain(&self, url: &PlainUrl<'_>) -> Placement {
        let same_origin = (if url.https { "https" } else { "http" }) == self.sitemap.scheme()
            && self
                .sitemap
                .host_str()
                .is_some_and(|host| host.eq_ignore_ascii_case(url.host))
            && Some(url.port) == self.sitemap.port_or_known_default();
        if !same_origin {
            if self.cross_submit.is_empty() {
                return Placement::OtherOrigin;
            }
            // Rare: compare origins the parser's way.
            let scheme = if url.https { "https" } else { "http" };
            let rebuilt = format!("{scheme}://{}:{}/", url.host, url.port);
            return match Url::parse(&rebuilt) {
                Ok(parsed) => self.place_parsed(&parsed),
                Err(_) => Placement::OtherOrigin,
            };
        }
        if url.path.starts_with(&self.directory) {
            Placement::Inside
        } else {
            Placement::OutsideDirectory
        }
    }

    fn place_parsed(&self, url: &Url) -> Placement {
        let same_origin = url.scheme() == self.sitemap.scheme()
            && url.host() == self.sitemap.host()
            && url.port_or_known_default() == self.sitemap.port_or_known_default();
        if !same_origin {
            if !self.cross_submit.is_empty() && self.cross_submit.contains(&url.origin()) {
                return Placement::Inside;
            }
            return Placement::OtherOrigin;
        }
        if url.path().starts_with(&self.directory) {
            Placement::Inside
        } else {
            Placement::OutsideDirectory
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The placement through the parser, checked to equal the direct reading's.
    fn both(scope: &Scope, text: &str) -> Placement {
        let parsed = scope.place(&CheckedUrl::Parsed(Url::parse(text).unwrap()));
        let checked = super::super::loc::check_loc(text).unwrap();
        assert!(matches!(checked, CheckedUrl::Plain(_)), "{text} is plain");
        assert_eq!(scope.place(&checked), parsed, "{text}");
        parsed
    }

    #[test]
    fn root_sitemaps_cover_their_whole_origin() {
        let scope = Scope::new(&Url::parse("https://example.com/sitemap.xml").unwrap(), &[]);
        assert_eq!(both(&scope, "https://example.com/a/b"), Placement::Inside);
        assert_eq!(both(&scope, "https://EXAMPLE.com:443/"), Placement::Inside);
        assert_eq!(both(&scope, "http://example.com/"), Placement::OtherOrigin);
        assert_eq!(
            both(&scope, "https://www.example.com/"),
            Placement::OtherOrigin
        );
        assert_eq!(
            both(&scope, "https://example.com:8443/"),
            Placement::OtherOrigin
        );
    }

    #[test]
    fn sitemaps_in_a_directory_cover_only_it() {
        let scope = Scope::new(
            &Url::parse("https://example.com/catalog/sitemap.xml").unwrap(),
            &[],
        );
        assert_eq!(scope.directory(), "/catalog/");
        assert_eq!(
            both(&scope, "https://example.com/catalog/item"),
            Placement::Inside
        );
        assert_eq!(
            both(&scope, "https://example.com/catalogue"),
            Placement::OutsideDirectory
        );
        assert_eq!(
            both(&scope, "https://example.com/"),
            Placement::OutsideDirectory
        );
    }

    #[test]
    fn cross_submitted_origins_are_in_scope() {
        let other = Url::parse("https://shop.example.net/").unwrap();
        let scope = Scope::new(
            &Url::parse("https://example.com/sitemap.xml").unwrap(),
            &[other.origin()],
        );
        assert_eq!(
            both(&scope, "https://shop.example.net/p/1"),
            Placement::Inside
        );
        assert_eq!(scope.origin(), "https://example.com");
    }
}
