use super::evidence::{sitemap_fetch_evidence, source_evidence};
use crawlgate_core::Site;
use crawlgate_core::declare_rule;
use crawlgate_core::rule::{Findings, Occurrence, Rule};
use crawlgate_core::site::{SitemapCycle, SitemapSource, SitemapState};

declare_rule! {
    /// ## What it does
    /// Finds sitemap references that lead back where they came from: an index that lists
    /// itself or one of the indexes above it (directly, or through a redirect), and robots.txt
    /// `Sitemap:` lines (or index entries) that name a robots.txt. Each loop is read once.
    ///
    /// ## Why is this bad?
    /// A loop adds nothing to the inventory and shows the sitemap structure is not what was
    /// intended: typically an index generator that includes its own file, or a sitemap URL
    /// that redirects to the index after a migration. Some crawlers loop on it or give up on
    /// the whole tree.
    ///
    /// ## Example
    /// ```xml
    /// <!-- https://example.com/sitemap_index.xml -->
    /// <sitemap><loc>https://example.com/sitemap_index.xml</loc></sitemap>
    /// ```
    ///
    /// ## How to fix
    /// Remove the entry (or `Sitemap:` line) quoted in the evidence, or point it at the child
    /// sitemap it was meant to name. An index lists only sitemaps of URLs, never indexes.
    pub struct Cycle {
        code: crawlgate_core::sitemap::Code::Cycle,
        summary: "A sitemap reference leads back to itself or to an index above it",
    }
}

impl Rule for Cycle {
    fn check(&self, site: &Site, out: &mut Findings<'_>) {
        for cycle in &site.sitemap_cycles {
            let (subject, in_words) = match &cycle.source {
                SitemapSource::RobotsTxt { robots_url, line } => {
                    (robots_url.clone(), format!("robots.txt line {line}"))
                }
                SitemapSource::Index { index_url, line } => {
                    (index_url.clone(), format!("line {line} of the index"))
                }
                SitemapSource::Configured => {
                    (cycle.named.to_string(), "the configuration".to_owned())
                }
                SitemapSource::Probe => (cycle.named.to_string(), "the probe".to_owned()),
            };
            let mut report = Occurrence::new(subject.as_str(), message(cycle, &subject, &in_words))
                .evidence(source_evidence(site, &cycle.named, &cycle.source));
            // Through a redirect: the chain that closes the loop.
            if let Some(sitemap) = site
                .sitemaps
                .iter()
                .find(|sitemap| sitemap.url == cycle.named)
                .filter(|sitemap| matches!(sitemap.state, SitemapState::Cycle { .. }))
            {
                report = report.evidence_all(sitemap_fetch_evidence(sitemap));
            }
            out.report(report);
        }
    }
}

fn message(cycle: &SitemapCycle, subject: &str, in_words: &str) -> String {
    if cycle.repeats.path() == "/robots.txt" {
        format!(
            "{in_words} names {} as a sitemap: it is a robots.txt",
            cycle.named
        )
    } else if cycle.named != cycle.repeats {
        format!(
            "{in_words} names {}, which redirects to {}: an index above it, so the tree loops",
            cycle.named, cycle.repeats
        )
    } else if cycle.named.as_str() == subject {
        format!("{in_words} names the index itself, {}", cycle.named)
    } else {
        format!(
            "{in_words} names {}, an index above it, so the tree loops",
            cycle.named
        )
    }
}
