use super::targets::declared;
use crate::support::{canonical_evidence, ok_pages};
use crawlgate_core::Site;
use crawlgate_core::declare_rule;
use crawlgate_core::rule::{Findings, Occurrence, Rule};

declare_rule! {
    /// ## What it does
    /// Finds canonicals (in `<head>` or a `Link` header) that cannot name a web page: an empty or
    /// missing `href`, a value that is not a URL (`http://[broken`, `https://exa mple.com`), or a
    /// URL with another scheme than `http` or `https` (`file:`, `mailto:`, `javascript:`).
    ///
    /// ## Why is this bad?
    /// Google ignores such a canonical, so the page has no canonical preference at all, although
    /// the template clearly meant to give one. Typical causes: a template variable that came out
    /// empty, a documentation build made for local reading (`file:///…`), a JavaScript
    /// placeholder.
    ///
    /// ## Example
    /// ```html
    /// <link rel="canonical" href="">
    /// <link rel="canonical" href="file:///usr/share/doc/guide/index.html">
    /// ```
    ///
    /// ## How to fix
    /// Output the page's full, absolute `https://` URL (or that of the page it duplicates). If the
    /// template has no value to give, leave the element out rather than emit an empty one.
    pub struct Invalid {
        id: "canonical/invalid",
        severity: Error,
        summary: "The canonical is empty, not a URL, or not an http(s) URL: ignored",
    }
}

impl Rule for Invalid {
    fn page_local(&self) -> bool {
        true
    }

    fn check(&self, site: &Site, out: &mut Findings<'_>) {
        for (resource, page) in ok_pages(site) {
            for canonical in declared(&page.signals) {
                let problem = match &canonical.resolved {
                    _ if canonical.href.trim().is_empty() => {
                        "the canonical has an empty href".to_owned()
                    }
                    None => format!("the canonical `{}` is not a valid URL", canonical.href),
                    Some(url) if !matches!(url.scheme(), "http" | "https") => format!(
                        "the canonical `{}` is a `{}:` URL, not a web page",
                        canonical.href,
                        url.scheme()
                    ),
                    Some(_) => continue,
                };
                out.report(
                    Occurrence::new(
                        resource.url.as_str(),
                        format!("{problem}: Google ignores it, and the page has no canonical"),
                    )
                    .evidence(canonical_evidence(&resource.url, canonical)),
                );
            }
        }
    }
}
