use crawlgate_core::declare_rule;
use crawlgate_core::rule::{Findings, Occurrence, Rule};
use crawlgate_core::site::SitemapSource;
use crawlgate_core::{Evidence, Site};

declare_rule! {
    /// ## What it does
    /// Finds sitemap indexes that list another sitemap index. crawlgate still reads the nested
    /// index (within its depth bound) so the inventory is complete.
    ///
    /// ## Why is this bad?
    /// The protocol allows one level: an index lists sitemaps of URLs. Google does not follow
    /// an index inside an index (Search Console reports "nested indexing"), so every URL below
    /// the nested index may go unannounced.
    ///
    /// ## Example
    /// ```xml
    /// <!-- https://example.com/sitemap_index.xml -->
    /// <sitemap><loc>https://example.com/products/sitemap_index.xml</loc></sitemap>
    /// ```
    ///
    /// ## How to fix
    /// Flatten the tree: list the nested index's child sitemaps directly in the top index (up
    /// to 50,000 of them), or submit the nested index separately in robots.txt.
    pub struct NestedIndex {
        code: crawlgate_core::sitemap::Code::NestedIndex,
        summary: "A sitemap index lists another sitemap index, which Google does not follow",
    }
}

impl Rule for NestedIndex {
    fn check(&self, site: &Site, out: &mut Findings<'_>) {
        for child in site.sitemaps.iter().filter(|sitemap| sitemap.is_index()) {
            let entries = child.entries().len();
            for source in &child.sources {
                let SitemapSource::Index { index_url, line } = source else {
                    continue;
                };
                out.report(
                    Occurrence::new(
                        index_url.as_str(),
                        format!(
                            "line {line}: lists {}, which is itself a sitemap index ({entries} \
                             sitemap{}); Google does not follow nested indexes",
                            child.url,
                            if entries == 1 { "" } else { "s" }
                        ),
                    )
                    .evidence(Evidence::SitemapEntry {
                        sitemap_url: index_url.clone(),
                        line: *line,
                        loc: child.url.to_string(),
                    })
                    .evidence(Evidence::Note {
                        text: format!(
                            "{} is a <sitemapindex> listing {entries} sitemap{}",
                            child.url,
                            if entries == 1 { "" } else { "s" }
                        ),
                    }),
                );
            }
        }
    }
}
