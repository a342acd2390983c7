use super::targets::{distinct_targets, listed};
use crate::support::{canonical_evidence, ok_pages};
use crawlgate_core::Site;
use crawlgate_core::declare_rule;
use crawlgate_core::rule::{Findings, Occurrence, Rule};
use crawlgate_core::signals::{Canonical, LinkSource};

/// Canonical declarations quoted as evidence of one finding.
const MAX_QUOTED: usize = 20;

declare_rule! {
    /// ## What it does
    /// Finds pages whose HTTP `Link: <…>; rel="canonical"` header names a different URL than
    /// their `<link rel="canonical">` element.
    ///
    /// ## Why is this bad?
    /// Google: "Don't specify different URLs as canonical for the same page", and about the two
    /// methods, "using both methods at the same time is more error prone". The header is
    /// usually set by the server, a CDN or a framework, the element by the CMS; nobody sees both
    /// at once, so they drift apart. With contradictory canonicals Google is likely to ignore
    /// both and choose itself.
    ///
    /// ## Example
    /// ```text
    /// Link: <https://example.com/shoes>; rel="canonical"
    /// <link rel="canonical" href="https://example.com/shoes/">
    /// ```
    ///
    /// ## How to fix
    /// Use one method. For HTML pages, remove the header rule from the server or CDN
    /// configuration and keep the `<link>` element; for files (PDFs), keep the header.
    pub struct HeaderHtmlMismatch {
        id: "canonical/header-html-mismatch",
        severity: Error,
        summary: "The Link header canonical differs from the HTML canonical",
    }
}

impl Rule for HeaderHtmlMismatch {
    fn page_local(&self) -> bool {
        true
    }

    fn check(&self, site: &Site, out: &mut Findings<'_>) {
        for (resource, page) in ok_pages(site) {
            let effective = page.signals.effective_canonicals();
            let (html, header): (Vec<&Canonical>, Vec<&Canonical>) = effective
                .iter()
                .partition(|canonical| matches!(canonical.source, LinkSource::Html { .. }));
            if html.is_empty() || header.is_empty() {
                continue;
            }
            let html_targets = distinct_targets(&html);
            let header_targets = distinct_targets(&header);
            // Some header target differs from some HTML target exactly when, both being
            // declared, they name more than one URL between them.
            let disagree = !html_targets.is_empty()
                && !header_targets.is_empty()
                && distinct_targets(&effective).len() > 1;
            if !disagree {
                continue;
            }
            out.report(
                Occurrence::new(
                    resource.url.as_str(),
                    format!(
                        "the Link header names {} as canonical, the HTML names {}: Google is likely to ignore both",
                        listed(&header_targets),
                        listed(&html_targets)
                    ),
                )
                .evidence_all(
                    header
                        .iter()
                        .chain(&html)
                        .take(MAX_QUOTED)
                        .map(|canonical| canonical_evidence(&resource.url, canonical)),
                ),
            );
        }
    }
}
