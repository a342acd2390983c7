use super::annotations;
use crate::support::{ok_pages, relative_kind};
use crawlgate_core::Site;
use crawlgate_core::declare_rule;
use crawlgate_core::rule::{Findings, Occurrence, Rule};

declare_rule! {
    /// ## What it does
    /// Finds hreflang alternates a page declares (`<link>` in `<head>`, `Link` header) whose URL
    /// is relative (`/de/`, `de.html`) or protocol-relative (`//example.com/de/`). Sitemap
    /// alternates have `sitemap/hreflang-invalid`.
    ///
    /// ## Why is this bad?
    /// Google, "Tell Google about localized versions of your page": "Alternate URLs must be
    /// fully-qualified, including the transport method (http/https)", so `https://example.com/foo`,
    /// "not `//example.com/foo` or `/foo`". A relative alternate follows the URL it is read from:
    /// on a copy of the page served elsewhere (staging, a mirror, an `http://` variant) it names
    /// that copy's pages, and a `<base href>` changes what it means.
    ///
    /// ## Example
    /// ```html
    /// <link rel="alternate" hreflang="de" href="/de/">
    /// ```
    ///
    /// ## How to fix
    /// Write the full URL, scheme and host included:
    /// `<link rel="alternate" hreflang="de" href="https://example.com/de/">`.
    pub struct RelativeUrl {
        id: "hreflang/relative-url",
        severity: Warning,
        summary: "A page's hreflang alternate URL is relative or protocol-relative",
    }
}

impl Rule for RelativeUrl {
    fn page_local(&self) -> bool {
        true
    }

    fn check(&self, site: &Site, out: &mut Findings<'_>) {
        for (resource, page) in ok_pages(site) {
            for annotation in annotations::on_page(&page) {
                let Some(kind) = relative_kind(annotation.href) else {
                    continue;
                };
                let resolved = annotation
                    .target
                    .map_or_else(String::new, |url| format!(" (here it resolves to `{url}`)"));
                out.report(
                    Occurrence::new(
                        resource.url.as_str(),
                        format!(
                            "the `{}` alternate `{}` is {kind}{resolved}: Google asks for fully-qualified alternate URLs",
                            annotation.code, annotation.href
                        ),
                    )
                    .evidence(annotation.evidence(&resource.url)),
                );
            }
        }
    }
}
