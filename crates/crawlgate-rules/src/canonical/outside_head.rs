use crate::support::{canonical_evidence, head_break_evidence, ok_pages};
use crawlgate_core::Site;
use crawlgate_core::declare_rule;
use crawlgate_core::rule::{Findings, Occurrence, Rule};
use crawlgate_core::signals::LinkSource;

declare_rule! {
    /// ## What it does
    /// Finds `<link rel="canonical">` elements that the HTML parser places in `<body>`: written in
    /// the body, or written in `<head>` after an element that ends the head early (an `<img>`,
    /// a `<div>`, stray text).
    ///
    /// ## Why is this bad?
    /// Google: "The `rel="canonical"` link element is only accepted if it appears in the `<head>`
    /// section of the HTML." A canonical the parser puts in the body is ignored, so the page's
    /// canonical preference is lost. (Robots meta tags in the body, by contrast, are honoured.)
    ///
    /// ## Example
    /// ```html
    /// <head><title>Shoes</title><img src="/pixel.gif">
    ///   <link rel="canonical" href="https://example.com/shoes"></head>
    /// ```
    ///
    /// ## How to fix
    /// Move the `<link rel="canonical">` to the top of `<head>`, before any element that is not
    /// allowed there (`title, meta, link, script, style, base, noscript, template` are).
    pub struct OutsideHead {
        id: "canonical/outside-head",
        severity: Error,
        summary: "rel=canonical is in `<body>`, where Google ignores it",
    }
}

impl Rule for OutsideHead {
    fn page_local(&self) -> bool {
        true
    }

    fn check(&self, site: &Site, out: &mut Findings<'_>) {
        for (resource, page) in ok_pages(site) {
            for canonical in &page.signals.canonicals {
                if !matches!(canonical.source, LinkSource::Html { in_head: false, .. }) {
                    continue;
                }
                let mut report = Occurrence::new(
                    resource.url.as_str(),
                    format!(
                        "the canonical link to `{}` is in <body>, where Google ignores it",
                        canonical.href
                    ),
                )
                .evidence(canonical_evidence(&resource.url, canonical));
                if let Some(head_break) = &page.signals.head_break {
                    report = report.evidence(head_break_evidence(head_break));
                }
                out.report(report);
            }
        }
    }
}
