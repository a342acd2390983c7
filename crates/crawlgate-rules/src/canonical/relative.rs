use super::targets::declared;
use crate::support::{canonical_evidence, ok_pages, relative_kind};
use crawlgate_core::Site;
use crawlgate_core::declare_rule;
use crawlgate_core::rule::{Findings, Occurrence, Rule};

declare_rule! {
    /// ## What it does
    /// Finds canonicals written as a relative URL (`/shoes`, `shoes.html`) or a
    /// protocol-relative one (`//example.com/shoes`), in `<head>` or in a `Link` header.
    ///
    /// ## Why is this bad?
    /// Google resolves them and uses them, but its guidelines say "Use absolute paths rather
    /// than relative paths" with `rel="canonical"`. A relative canonical follows the URL it is
    /// read from: on a copy of the page served from another host (staging, a mirror, an `http://`
    /// or `www` variant, a scraper) it names that copy as canonical instead of the original. A
    /// `<base href>` changes what it resolves to as well.
    ///
    /// ## Example
    /// ```html
    /// <link rel="canonical" href="/shoes">
    /// ```
    ///
    /// ## How to fix
    /// Write the full URL, with scheme and host:
    /// `<link rel="canonical" href="https://example.com/shoes">`. Most CMSs have a "site URL"
    /// setting that makes their canonicals absolute.
    pub struct Relative {
        id: "canonical/relative",
        severity: Warning,
        summary: "The canonical URL is relative or protocol-relative",
    }
}

impl Rule for Relative {
    fn page_local(&self) -> bool {
        true
    }

    fn check(&self, site: &Site, out: &mut Findings<'_>) {
        for (resource, page) in ok_pages(site) {
            for canonical in declared(&page.signals) {
                let Some(resolved) = &canonical.resolved else {
                    continue; // canonical/invalid reports it
                };
                let Some(kind) = relative_kind(&canonical.href) else {
                    continue;
                };
                out.report(
                    Occurrence::new(
                        resource.url.as_str(),
                        format!(
                            "the canonical `{}` is {kind} (here it resolves to `{resolved}`): supported, but Google recommends absolute URLs",
                            canonical.href
                        ),
                    )
                    .evidence(canonical_evidence(&resource.url, canonical)),
                );
            }
        }
    }
}
