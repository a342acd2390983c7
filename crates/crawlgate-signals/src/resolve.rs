//! Resolving references as a browser does (WHATWG URL, through the `url` crate).

use encoding_rs::{Encoding, UTF_8};
use std::borrow::Cow;
use url::Url;

/// `href` resolved against `base`; `None` if it does not parse.
pub(crate) fn resolve(base: &Url, href: &str) -> Option<Url> {
    base.join(href).ok()
}

/// `href` from a document in `encoding` resolved against `base`: as browsers do, a non-ASCII
/// query is percent-encoded in the document's encoding (UTF-8 for UTF-16 documents), the rest
/// of the URL in UTF-8.
pub(crate) fn resolve_in(base: &Url, href: &str, encoding: &'static Encoding) -> Option<Url> {
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
}
