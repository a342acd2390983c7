use super::document::{Anchor, issues};
use crawlgate_core::declare_rule;
use crawlgate_core::rule::{Findings, Rule};
use crawlgate_core::sitemap::Entry;
use crawlgate_core::{Site, site::SitemapFile};
use std::collections::HashMap;

declare_rule! {
    /// ## What it does
    /// Finds URLs listed more than once in the same sitemap. The finding quotes the repeated
    /// entry and the first one.
    ///
    /// ## Why is this bad?
    /// A repeat adds nothing but bytes: search engines read the URL once. Repeats usually mean
    /// the generator joins lists that overlap (a page in two categories, paginated queries
    /// that return the same item twice), and the entries may disagree on `lastmod`, so one of
    /// them is wrong.
    ///
    /// ## Example
    /// ```xml
    /// <url><loc>https://example.com/shoes</loc><lastmod>2026-05-01</lastmod></url>
    /// <url><loc>https://example.com/shoes</loc><lastmod>2026-02-11</lastmod></url>
    /// ```
    ///
    /// ## How to fix
    /// Remove the repeats in the generator (deduplicate by URL before writing), keeping the
    /// entry with the right `lastmod`.
    pub struct DuplicateUrl {
        code: crawlgate_core::sitemap::Code::DuplicateUrl,
        summary: "A sitemap lists the same URL more than once",
    }
}

impl Rule for DuplicateUrl {
    fn check(&self, site: &Site, out: &mut Findings<'_>) {
        // The first entry of each URL, per sitemap, built only for sitemaps with repeats.
        let mut firsts: Option<(&SitemapFile, HashMap<&str, &Entry>)> = None;
        for found in issues(site, Self::META.id, Anchor::Loc) {
            let mut report = found.report();
            if let Some(entry) = found.entry {
                if firsts
                    .as_ref()
                    .is_none_or(|(sitemap, _)| !std::ptr::eq(*sitemap, found.sitemap))
                {
                    firsts = Some((found.sitemap, first_entries(found.sitemap)));
                }
                let first = firsts
                    .as_ref()
                    .and_then(|(_, map)| map.get(entry.loc.as_str()))
                    .filter(|first| first.line != entry.line || first.column != entry.column);
                if let Some(first) = first {
                    report = report.evidence(found.entry_evidence(first));
                }
            }
            out.report(report);
        }
    }
}

/// The first entry listing each URL of a sitemap.
fn first_entries(sitemap: &SitemapFile) -> HashMap<&str, &Entry> {
    let mut firsts = HashMap::new();
    for entry in sitemap.entries() {
        firsts.entry(entry.loc.as_str()).or_insert(entry);
    }
    firsts
}
