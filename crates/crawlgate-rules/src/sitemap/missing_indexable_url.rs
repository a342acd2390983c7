use super::evidence::MAX_QUOTED;
use crate::support::{link_evidence, profiles, response_evidence};
use crawlgate_core::declare_rule;
use crawlgate_core::rule::{Findings, Occurrence, Rule};
use crawlgate_core::site::{Bound, ResourceKind, SitemapFile, SitemapState, origin_of};
use crawlgate_core::sitemap::SitemapKind;
use crawlgate_core::{Evidence, Site};
use std::collections::BTreeSet;

declare_rule! {
    /// ## What it does
    /// Finds crawled HTML pages that could be indexed (200, crawlable, no noindex, canonical
    /// absent or pointing to themselves) but that no sitemap lists. Only when the site has at
    /// least one sitemap of URLs, and only on the hosts the sitemaps cover. When some sitemaps
    /// could not be read, the evidence says so: the page may be listed in one of them.
    ///
    /// ## Why is this bad?
    /// A sitemap is most useful when it is complete: it is how search engines learn about new
    /// and changed pages quickly, and Search Console's indexing report is read against it. A
    /// page missing from it is found only through links, later; many missing pages usually
    /// mean a section the generator does not know about.
    ///
    /// ## Example
    /// ```text
    /// https://example.com/blog/launch   200, indexable, linked from /blog
    /// sitemap.xml                       lists /, /pricing, /about, but not /blog/launch
    /// ```
    ///
    /// ## How to fix
    /// Add the page (or its whole section) to the sitemap generator. If the page should not be
    /// in search results, give it a `noindex` or a canonical to the page that should.
    pub struct MissingIndexableUrl {
        id: "sitemap/missing-indexable-url",
        severity: Notice,
        summary: "An indexable page is missing from every sitemap",
    }
}

impl Rule for MissingIndexableUrl {
    fn check(&self, site: &Site, out: &mut Findings<'_>) {
        let url_sitemaps: Vec<&SitemapFile> = site
            .sitemaps
            .iter()
            .filter(|sitemap| sitemap.summary().is_some_and(|s| lists_pages(s.kind)))
            .collect();
        if url_sitemaps.is_empty() {
            return;
        }
        // The hosts the sitemaps speak for: the audited one, and any whose URLs they list.
        let mut origins: BTreeSet<_> = site
            .resources()
            .iter()
            .filter(|resource| resource.is_listed())
            .map(|resource| origin_of(&resource.url))
            .collect();
        origins.insert(origin_of(&site.start_url));
        let in_sitemaps = match url_sitemaps.len() {
            1 => "the sitemap".to_owned(),
            n => format!("any of the {n} sitemaps"),
        };
        let read = sitemaps_read_note(&url_sitemaps);
        let unread = unread_note(site);
        // Each page is read once for every profile: it may be in the page store.
        for resource in site.resources() {
            if resource.kind != ResourceKind::Page
                || resource.is_listed()
                || !origins.contains(&origin_of(&resource.url))
            {
                continue;
            }
            let page = site.page(resource);
            if !page.as_ref().is_some_and(|page| page.signals.is_html) {
                continue;
            }
            for (index, profile) in profiles(site) {
                if !site
                    .indexability_of(resource, page.as_deref(), index)
                    .is_indexable()
                {
                    continue;
                }
                let mut report = Occurrence::new(
                    resource.url.as_str(),
                    format!(
                        "indexable for {} but not listed in {in_sitemaps}",
                        profile.display_name()
                    ),
                )
                .profile(&profile.name)
                .evidence(response_evidence(resource))
                .evidence_all(
                    site.link_samples(resource)
                        .first()
                        .map(|sample| link_evidence(sample, &resource.url)),
                )
                .evidence(read.clone());
                if let Some(unread) = &unread {
                    report = report.evidence(unread.clone());
                }
                out.report(report);
            }
        }
    }
}

/// Whether a sitemap of this kind lists pages (not sitemaps, and was recognised).
fn lists_pages(kind: SitemapKind) -> bool {
    matches!(
        kind,
        SitemapKind::UrlSet | SitemapKind::Text | SitemapKind::Rss | SitemapKind::Atom
    )
}

/// The sitemaps that were read, named (the first few).
fn sitemaps_read_note(sitemaps: &[&SitemapFile]) -> Evidence {
    let names: Vec<&str> = sitemaps
        .iter()
        .take(MAX_QUOTED)
        .map(|sitemap| sitemap.url.as_str())
        .collect();
    let more = sitemaps.len().saturating_sub(names.len());
    Evidence::Note {
        text: format!(
            "sitemaps read: {}{}",
            names.join(", "),
            if more > 0 {
                format!(" and {more} more")
            } else {
                String::new()
            }
        ),
    }
}

/// A caveat when the inventory is incomplete: sitemaps not read, cut short, or a sitemap bound.
fn unread_note(site: &Site) -> Option<Evidence> {
    let unread = site
        .sitemaps
        .iter()
        .filter(|sitemap| match &sitemap.state {
            SitemapState::Parsed { summary, .. } => summary.truncated,
            SitemapState::Cycle { .. } => false,
            _ => true,
        })
        .count();
    let bound = site.stats.bounds_hit.iter().find(|bound| {
        matches!(
            bound,
            Bound::SitemapDepth(_) | Bound::MaxSitemaps(_) | Bound::SitemapUrls(_)
        )
    });
    let text = match (unread, bound) {
        (0, None) => return None,
        (0, Some(bound)) => format!("the {bound} was reached: it may be listed past it"),
        (n, None) => format!(
            "{n} sitemap{} could not be read completely: it may be listed there",
            if n == 1 { "" } else { "s" }
        ),
        (n, Some(bound)) => format!(
            "{n} sitemap{} could not be read completely and the {bound} was reached: it may \
             be listed there",
            if n == 1 { "" } else { "s" }
        ),
    };
    Some(Evidence::Note { text })
}
