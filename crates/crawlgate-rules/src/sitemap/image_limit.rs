use super::document::{Anchor, report_issues};
use crawlgate_core::Site;
use crawlgate_core::declare_rule;
use crawlgate_core::rule::{Findings, Rule};

declare_rule! {
    /// ## What it does
    /// Finds `<url>` entries with more than 1,000 `image:image` children.
    ///
    /// ## Why is this bad?
    /// Google's image sitemap documentation allows up to 1,000 images per page; images past the
    /// limit are not read from the sitemap, and the oversized entries bloat the file towards the
    /// 50 MB limit.
    ///
    /// ## Example
    /// ```text
    /// https://example.com/sitemap-images.xml   <url> for /gallery with 1,400 <image:image>
    /// ```
    ///
    /// ## How to fix
    /// List at most 1,000 images per page, the ones that matter in image search. Split very large
    /// galleries into several pages.
    pub struct ImageLimit {
        code: crawlgate_core::sitemap::Code::ImageLimit,
        summary: "A sitemap entry lists more than 1,000 images",
    }
}

impl Rule for ImageLimit {
    fn check(&self, site: &Site, out: &mut Findings<'_>) {
        report_issues(
            site,
            Self::META.id,
            Anchor::Record(|entry, _| !entry.images.is_empty()),
            out,
        );
    }
}
