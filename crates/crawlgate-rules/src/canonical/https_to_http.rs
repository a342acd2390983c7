use super::targets::targets;
use crate::support::{canonical_evidence, ok_pages};
use crawlgate_core::Site;
use crawlgate_core::declare_rule;
use crawlgate_core::rule::{Findings, Occurrence, Rule};

declare_rule! {
    /// ## What it does
    /// Finds `https://` pages whose canonical URL is an `http://` URL.
    ///
    /// ## Why is this bad?
    /// Google prefers HTTPS URLs as canonicals, unless the site signals otherwise, and a
    /// canonical to `http://` is exactly such a signal: it asks Google to index the insecure
    /// version. Google then weighs it against the HTTPS redirects and links, and the outcome is
    /// hard to predict. It is nearly always a leftover from before the move to HTTPS (a
    /// hard-coded site URL in the CMS or the template).
    ///
    /// ## Example
    /// ```html
    /// <!-- on https://example.com/shoes -->
    /// <link rel="canonical" href="http://example.com/shoes">
    /// ```
    ///
    /// ## How to fix
    /// Change the site URL setting (or the template) to `https://`, so canonicals name the HTTPS
    /// URLs.
    pub struct HttpsToHttp {
        id: "canonical/https-to-http",
        severity: Warning,
        summary: "An HTTPS page names an HTTP URL as canonical",
    }
}

impl Rule for HttpsToHttp {
    fn page_local(&self) -> bool {
        true
    }

    fn check(&self, site: &Site, out: &mut Findings<'_>) {
        for (resource, page) in ok_pages(site) {
            let url = &resource.url;
            if url.scheme() != "https" {
                continue;
            }
            for (canonical, target) in targets(url, &page.signals) {
                if target.scheme() != "http" {
                    continue;
                }
                out.report(
                    Occurrence::new(
                        url.as_str(),
                        format!(
                            "this HTTPS page names the HTTP URL `{target}` as canonical, asking Google to index the insecure version"
                        ),
                    )
                    .evidence(canonical_evidence(url, canonical)),
                );
            }
        }
    }
}
