use crate::support::{canonical_evidence, head_break_evidence, head_break_words, ok_pages};
use crawlgate_core::declare_rule;
use crawlgate_core::rule::{Findings, Occurrence, Rule};
use crawlgate_core::signals::LinkSource;
use crawlgate_core::{Evidence, Site};

/// Declarations quoted as evidence of one finding.
const MAX_QUOTED: usize = 20;

declare_rule! {
    /// ## What it does
    /// Finds pages whose `<head>` is ended early by an element that is not allowed there (an
    /// `<img>`, `<iframe>`, `<div>`, `<input>`, or stray text), when a canonical or hreflang
    /// `<link>` comes after that element. It names the element responsible; the canonical itself
    /// is also reported by `canonical/outside-head`.
    ///
    /// ## Why is this bad?
    /// Google: `<head>` may only contain `title, meta, link, script, style, base, noscript,
    /// template`, and after an invalid element Google ignores the rest of the head. Browsers do
    /// the same: the HTML parser closes `<head>` at the first such element and puts everything
    /// after it into `<body>`. So the canonical and hreflang links written below it are ignored,
    /// although they look right in the source. The culprit is often a tracking pixel, a
    /// consent-banner `<div>`, or an `<iframe>` injected by a tag manager at the top of the page.
    ///
    /// ## Example
    /// ```html
    /// <head>
    ///   <title>Shoes</title>
    ///   <img src="https://tracker.example/pixel.gif">
    ///   <link rel="canonical" href="https://example.com/shoes">
    /// </head>
    /// ```
    ///
    /// ## How to fix
    /// Move the element named in the evidence into `<body>` (a tracking `<img>` or `<iframe>`
    /// belongs inside `<noscript>` in the body), or move the canonical and hreflang links above
    /// it, at the top of `<head>`.
    pub struct AfterInvalidHeadElement {
        id: "canonical/after-invalid-head-element",
        severity: Error,
        summary: "An element not allowed in `<head>` ends it early; canonical and hreflang links after it are ignored",
    }
}

impl Rule for AfterInvalidHeadElement {
    fn page_local(&self) -> bool {
        true
    }

    fn check(&self, site: &Site, out: &mut Findings<'_>) {
        for (resource, page) in ok_pages(site) {
            let Some(head_break) = &page.signals.head_break else {
                continue;
            };
            let after_break =
                |source: &LinkSource| matches!(source, LinkSource::Html { in_head: false, .. });
            let canonicals: Vec<_> = page
                .signals
                .canonicals
                .iter()
                .filter(|canonical| after_break(&canonical.source))
                .collect();
            let alternates: Vec<_> = page
                .signals
                .hreflang
                .iter()
                .filter(|alternate| after_break(&alternate.source))
                .collect();
            if canonicals.is_empty() && alternates.is_empty() {
                continue;
            }
            let mut ignored = Vec::new();
            if !canonicals.is_empty() {
                ignored.push(format!("{} canonical link(s)", canonicals.len()));
            }
            if !alternates.is_empty() {
                ignored.push(format!("{} hreflang link(s)", alternates.len()));
            }
            out.report(
                Occurrence::new(
                    resource.url.as_str(),
                    format!(
                        "{} is not allowed in <head> and ends it early: Google ignores the {} after it",
                        head_break_words(head_break),
                        ignored.join(" and ")
                    ),
                )
                .evidence(head_break_evidence(head_break))
                .evidence_all(
                    canonicals
                        .iter()
                        .map(|canonical| canonical_evidence(&resource.url, canonical))
                        .chain(alternates.iter().map(|alternate| Evidence::Hreflang {
                            url: resource.url.to_string(),
                            hreflang: alternate.hreflang.clone(),
                            href: alternate.href.clone(),
                            via: "html".to_owned(),
                            line: alternate.source.line(),
                        }))
                        .take(MAX_QUOTED),
                ),
            );
        }
    }
}
