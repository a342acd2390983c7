use crate::support::{head_break_evidence, ok_pages};
use crawlgate_core::declare_rule;
use crawlgate_core::rule::{Findings, Occurrence, Rule};
use crawlgate_core::{Evidence, Site};

declare_rule! {
    /// ## What it does
    /// Finds robots meta tags (`<meta name="robots">`, `<meta name="googlebot">`, …) that the
    /// HTML parser places in `<body>`: written in the body, or written in `<head>` after an
    /// element that ends the head early (an `<img>`, a `<div>`, stray text).
    ///
    /// ## Why is this bad?
    /// Google still honours a robots meta tag in the body (unlike a canonical, which it ignores
    /// there). But the IETF draft that extends the Robots Exclusion Protocol
    /// (draft-illyes-repext) tells crawlers to consider only meta tags in `<head>`, so other
    /// search engines and AI crawlers may not see the rule. A `noindex` meant for everyone may
    /// then keep only Google out.
    ///
    /// ## Example
    /// ```html
    /// <head><title>Offer</title><div class="banner"></div>
    ///   <meta name="robots" content="noindex"></head>
    /// ```
    ///
    /// ## How to fix
    /// Move the meta tag to the top of `<head>`, before any element not allowed there (`title,
    /// meta, link, script, style, base, noscript, template` are). If a plugin injects it into the
    /// body, configure the plugin, or send the rule as an `X-Robots-Tag` header instead.
    pub struct MetaInBody {
        id: "directives/meta-in-body",
        severity: Notice,
        summary: "A robots meta tag outside `<head>`: Google reads it, other crawlers may not",
    }
}

impl Rule for MetaInBody {
    fn page_local(&self) -> bool {
        true
    }

    fn check(&self, site: &Site, out: &mut Findings<'_>) {
        for (resource, page) in ok_pages(site) {
            for meta in page.signals.meta_robots.iter().filter(|meta| !meta.in_head) {
                let line = meta
                    .line
                    .map_or_else(String::new, |line| format!(" (line {line})"));
                let mut report = Occurrence::new(
                    resource.url.as_str(),
                    format!(
                        "the `{}` meta tag{line} is in <body>: Google honours it, crawlers following the REP extension draft only read <head>",
                        meta.name
                    ),
                )
                .evidence(Evidence::MetaTag {
                    url: resource.url.to_string(),
                    name: meta.name.clone(),
                    content: meta.content.clone(),
                    line: meta.line,
                    in_head: meta.in_head,
                    raw: meta.raw.clone(),
                });
                if let Some(head_break) = &page.signals.head_break {
                    report = report.evidence(head_break_evidence(head_break));
                }
                out.report(report);
            }
        }
    }
}
