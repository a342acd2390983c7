use super::document::{Anchor, issues};
use super::evidence::{MAX_QUOTED, source_evidence};
use crawlgate_core::declare_rule;
use crawlgate_core::rule::{Findings, Occurrence, Rule};
use crawlgate_core::site::{Bound, NotFetchedReason, SitemapFile, SitemapSource, SitemapState};
use crawlgate_core::{Evidence, Site};
use std::collections::BTreeMap;

declare_rule! {
    /// ## What it does
    /// Reports where one of crawlgate's own safety bounds on sitemaps cut the audit short: the
    /// index nesting depth, the number of sitemaps read, the number of sitemap URLs taken into
    /// the crawl, or a size limit while reading one sitemap. The audit is then partial: the
    /// sitemaps or URLs past the bound were not checked.
    ///
    /// ## Why is this bad?
    /// It is not a problem search engines see, but the audit's sitemap findings are incomplete,
    /// and checks such as "indexable page missing from the sitemaps" may be wrong. Hitting a
    /// bound often points at a real problem too: an index tree deeper than the protocol's one
    /// level, or a generator that produces far more sitemaps than pages.
    ///
    /// ## Example
    /// ```text
    /// https://example.com/sitemap_index.xml   lists 1,800 sitemaps; the sitemap count bound
    /// (1,000) stops reading after the first 1,000
    /// ```
    ///
    /// ## How to fix
    /// If the sitemap tree really is that large, raise the bound in the audit's configuration
    /// and run it again. Otherwise fix the tree the evidence points at (nested indexes, loops,
    /// duplicated sitemaps).
    pub struct LimitsExceeded {
        code: crawlgate_core::sitemap::Code::LimitsExceeded,
        summary: "A sitemap safety bound of the audit was reached, so the sitemap checks are partial",
    }
}

impl Rule for LimitsExceeded {
    fn check(&self, site: &Site, out: &mut Findings<'_>) {
        let bounds: Vec<String> = site
            .stats
            .bounds_hit
            .iter()
            .filter(|bound| matches!(bound, Bound::SitemapDepth(_) | Bound::MaxSitemaps(_)))
            .map(ToString::to_string)
            .collect();
        let bound_words = if bounds.is_empty() {
            "a sitemap bound".to_owned()
        } else {
            format!("the {}", bounds.join(" and the "))
        };
        for (named_in, unread) in unread_by_referrer(site) {
            let count = unread.len();
            let mut report = Occurrence::new(
                named_in.as_str(),
                format!(
                    "{count} sitemap{} named here {} not read: {bound_words} was reached, so \
                     {} URLs are not in the audit",
                    plural(count),
                    if count == 1 { "was" } else { "were" },
                    if count == 1 { "its" } else { "their" }
                ),
            );
            for sitemap in unread.iter().take(MAX_QUOTED) {
                if let Some(source) = sitemap.sources.first() {
                    report = report.evidence(source_evidence(site, &sitemap.url, source));
                }
            }
            out.report(report.evidence(Evidence::Note {
                text: format!("{bound_words} was reached"),
            }));
        }
        for bound in &site.stats.bounds_hit {
            let message = match bound {
                Bound::SitemapUrls(limit) => format!(
                    "the {bound} was reached: URLs listed after the first {limit} were neither \
                     crawled nor checked against the crawl"
                ),
                Bound::SitemapEntryBytes(_) => format!(
                    "the {bound} was reached: the entries read after it were crawled but not \
                     kept, so their own checks (loc, lastmod, images, video, news, hreflang) \
                     were not made"
                ),
                _ => continue,
            };
            out.report(Occurrence::new(site.start_url.as_str(), message).evidence(
                Evidence::Note {
                    text: format!("{bound} was reached"),
                },
            ));
        }
        // A size limit hit while reading one sitemap (the parser's own issues).
        for found in issues(site, Self::META.id, Anchor::Document) {
            out.report(found.report());
        }
    }
}

/// Sitemaps left unread by a sitemap bound, grouped by where they were first named (an index,
/// a robots.txt, or themselves when configured).
fn unread_by_referrer(site: &Site) -> BTreeMap<String, Vec<&SitemapFile>> {
    let mut unread: BTreeMap<String, Vec<&SitemapFile>> = BTreeMap::new();
    for sitemap in &site.sitemaps {
        if !matches!(
            sitemap.state,
            SitemapState::NotFetched(NotFetchedReason::SitemapBound)
        ) {
            continue;
        }
        let named_in = match sitemap.sources.first() {
            Some(SitemapSource::Index { index_url, .. }) => index_url.clone(),
            Some(SitemapSource::RobotsTxt { robots_url, .. }) => robots_url.clone(),
            _ => sitemap.url.to_string(),
        };
        unread.entry(named_in).or_default().push(sitemap);
    }
    unread
}

fn plural(count: usize) -> &'static str {
    if count == 1 { "" } else { "s" }
}
