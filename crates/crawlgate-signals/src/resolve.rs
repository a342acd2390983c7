//! Resolving references as a browser does (WHATWG URL, through the `url` crate).

use encoding_rs::{Encoding, UTF_8};
use std::borrow::Cow;
use std::cell::RefCell;
use std::hash::BuildHasher as _;
use url::Url;

/// `href` resolved against `base`; `None` if it does not parse.
pub(crate) fn resolve(base: &Url, href: &str) -> Option<Url> {
    base.join(href).ok()
}

/// `href` from a document in `encoding` resolved against `base`: as browsers do, a non-ASCII
/// query is percent-encoded in the document's encoding (UTF-8 for UTF-16 documents), the rest
/// of the URL in UTF-8.
pub(crate) fn resolve_in(base: &Url, href: &str, encoding: &'static Encoding) -> Option<Url> {
    if href.is_ascii() && Resolved::may_keep(base, href) {
        return Resolved::get_or_resolve(base, href);
    }
    if encoding.output_encoding() == UTF_8 || href.is_ascii() {
        return resolve(base, href);
    }
    let encode: &dyn Fn(&str) -> Cow<'_, [u8]> = &|text| encoding.encode(text).0;
    Url::options()
        .base_url(Some(base))
        .encoding_override(Some(encode))
        .parse(href)
        .ok()
}

/// References resolved per thread at most before the cache starts over.
const RESOLVED_KEPT: usize = 1_024;
/// Longest reference kept.
const MAX_KEPT_HREF: usize = 256;

thread_local! {
    static RESOLVED: RefCell<Resolved> = RefCell::new(Resolved::default());
}

/// References resolved on this thread, for those whose resolution depends on the base's
/// scheme, credentials, host and port only: the links a site's template repeats on every page
/// (navigation, footer, stylesheets) are resolved once per crawl instead of once per page. A
/// reference is kept the second time it is met (most are met once: a page's own canonical, links
/// to its children), so that those cost a hash and no copies. Bounded ([`RESOLVED_KEPT`] entries
/// of at most [`MAX_KEPT_HREF`] bytes); what it answers is what [`resolve`] would.
#[derive(Default)]
struct Resolved {
    table: hashbrown::HashTable<KeptResolution>,
    /// The hashes of references met once (a collision only keeps a reference early).
    met: hashbrown::HashTable<u64>,
    hasher: foldhash::fast::FixedState,
}

struct KeptResolution {
    hash: u64,
    /// The base's text before its path (`http://user@host:port`), a line feed, the reference.
    key: Box<str>,
    resolved: Option<Url>,
}

impl Resolved {
    /// Whether the resolution of `href` against `base` depends on nothing past the base's port,
    /// so that it may be kept: an http(s) base (a `file:` base lends its drive letter to
    /// path-absolute references) and a reference that is absolute (`http://`, `https://`) or
    /// path-absolute (`/a`, not `//host` nor `/\host`), without tabs or line breaks (the parser
    /// drops them, so `/\t/host` is scheme-relative).
    fn may_keep(base: &Url, href: &str) -> bool {
        let bytes = href.as_bytes();
        let path_absolute =
            bytes.first() == Some(&b'/') && !matches!(bytes.get(1), Some(b'/' | b'\\'));
        matches!(base.scheme(), "http" | "https")
            && href.len() <= MAX_KEPT_HREF
            && (path_absolute || href.starts_with("http://") || href.starts_with("https://"))
            && !bytes.iter().any(|b| matches!(b, b'\t' | b'\n' | b'\r'))
    }

    fn get_or_resolve(base: &Url, href: &str) -> Option<Url> {
        let origin = &base[..url::Position::BeforePath];
        RESOLVED.with(|kept| {
            let mut kept = kept.borrow_mut();
            let hash = kept.hasher.hash_one((origin, href));
            let matches = |entry: &KeptResolution| {
                entry.hash == hash
                    && entry.key.len() == origin.len() + 1 + href.len()
                    && entry.key.starts_with(origin)
                    && entry.key.as_bytes().get(origin.len()) == Some(&b'\n')
                    && entry.key.ends_with(href)
            };
            if let Some(entry) = kept.table.find(hash, matches) {
                return entry.resolved.clone();
            }
            let resolved = resolve(base, href);
            if kept.met.find(hash, |&met| met == hash).is_none() {
                if kept.met.len() >= RESOLVED_KEPT * 4 {
                    kept.met.clear();
                }
                kept.met.insert_unique(hash, hash, |&met| met);
                return resolved;
            }
            if kept.table.len() >= RESOLVED_KEPT {
                kept.table.clear();
            }
            let key = format!("{origin}\n{href}").into_boxed_str();
            kept.table.insert_unique(
                hash,
                KeptResolution {
                    hash,
                    key,
                    resolved: resolved.clone(),
                },
                |entry| entry.hash,
            );
            resolved
        })
    }
}

/// Like [`resolve`], but an empty (or all-whitespace) reference is `None` rather than the base
/// itself: an empty canonical or hreflang href is ignored by search engines, not self-referential.
pub(crate) fn resolve_annotation(base: &Url, href: &str) -> Option<Url> {
    if href.trim().is_empty() {
        None
    } else {
        resolve(base, href)
    }
}

/// The document base URL: the first `<base href>` resolved against the final URL, unless it
/// does not parse or is a `data:` or `javascript:` URL (HTML spec, "frozen base URL").
pub(crate) fn document_base(page_url: &Url, base_href: Option<&str>) -> Url {
    base_href
        .and_then(|href| resolve(page_url, href))
        .filter(|base| !matches!(base.scheme(), "data" | "javascript"))
        .unwrap_or_else(|| page_url.clone())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base_rules() {
        let page = Url::parse("https://example.com/a/b?q").unwrap();
        assert_eq!(document_base(&page, None), page);
        assert_eq!(
            document_base(&page, Some("/root/")).as_str(),
            "https://example.com/root/"
        );
        assert_eq!(document_base(&page, Some("javascript:void(0)")), page);
        assert_eq!(document_base(&page, Some("http://[::1")), page);
        assert_eq!(resolve_annotation(&page, "  "), None);
        assert_eq!(
            resolve(&page, "").map(String::from),
            Some("https://example.com/a/b?q".to_owned())
        );
        assert_eq!(
            resolve(&page, "//cdn.test/x").map(String::from),
            Some("https://cdn.test/x".to_owned())
        );
    }

    #[test]
    fn queries_use_the_document_encoding() {
        let page = Url::parse("https://example.com/").unwrap();
        let sjis = resolve_in(&page, "/検索?q=検索", encoding_rs::SHIFT_JIS).unwrap();
        assert_eq!(
            sjis.as_str(),
            "https://example.com/%E6%A4%9C%E7%B4%A2?q=%8C%9F%8D%F5"
        );
        let utf16 = resolve_in(&page, "/?q=é", encoding_rs::UTF_16LE).unwrap();
        assert_eq!(utf16.as_str(), "https://example.com/?q=%C3%A9");
    }

    #[test]
    fn kept_resolutions_are_what_resolving_gives() {
        let bases = [
            "https://example.com/a/b?q#f",
            "https://example.com/c/",
            "https://user:pw@example.com/a/",
            "https://example.com:8443/a/",
            "http://example.com/a/",
            "http://EXAMPLE.com:80/x",
            "file:///C:/dir/page.html",
            "ftp://example.com/a/",
        ];
        let hrefs = [
            "/",
            "/p/1.html",
            "/a/../b?x=1#y",
            "/%7e/ a",
            "//cdn.test/x",
            "/\\cdn.test/x",
            "/\t/cdn.test/x",
            "/a\nb",
            "http://other.test/a",
            "https://other.test/b/../c",
            "http:relative",
            "page.html",
            "?q",
            "#frag",
            "",
            " /a",
            "/C:/x",
            "/a?é",
        ];
        // Met, kept, answered from the table.
        for _ in 0..3 {
            for base in bases {
                let base = Url::parse(base).unwrap();
                for href in hrefs {
                    for encoding in [encoding_rs::UTF_8, encoding_rs::SHIFT_JIS] {
                        let expected = if href.is_ascii() || encoding == encoding_rs::UTF_8 {
                            base.join(href).ok()
                        } else {
                            let encode: &dyn Fn(&str) -> Cow<'_, [u8]> =
                                &|text| encoding.encode(text).0;
                            Url::options()
                                .base_url(Some(&base))
                                .encoding_override(Some(encode))
                                .parse(href)
                                .ok()
                        };
                        assert_eq!(
                            resolve_in(&base, href, encoding),
                            expected,
                            "{href:?} against {base}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn the_kept_resolutions_stay_bounded() {
        let base = Url::parse("https://example.com/").unwrap();
        for i in 0..RESOLVED_KEPT * 6 {
            let href = format!("/p/{}", i / 2);
            assert_eq!(
                resolve_in(&base, &href, encoding_rs::UTF_8).unwrap().path(),
                href
            );
        }
        RESOLVED.with(|kept| {
            let kept = kept.borrow();
            assert!(kept.table.len() <= RESOLVED_KEPT);
            assert!(kept.met.len() <= RESOLVED_KEPT * 4);
        });
    }
}
