use super::document::{Anchor, report_issues};
use crawlgate_core::Site;
use crawlgate_core::declare_rule;
use crawlgate_core::rule::{Findings, Rule};

declare_rule! {
    /// ## What it does
    /// Finds entries whose `<loc>` is missing or empty, not an absolute `http(s)://` URL, longer
    /// than 2,048 characters, or not URL-escaped (spaces, raw characters that must be
    /// percent-encoded).
    ///
    /// ## Why is this bad?
    /// The protocol says a `<loc>` "must begin with the protocol (such as http)" and "must be
    /// less than 2,048 characters", and Google asks for fully-qualified, absolute URLs, which it
    /// crawls exactly as listed. A relative or malformed URL cannot be crawled, so the entry is
    /// lost, and many of them make the whole file look broken.
    ///
    /// ## Example
    /// ```xml
    /// <url><loc>/products/red shoes</loc></url>
    /// ```
    ///
    /// ## How to fix
    /// Write every URL in full, with scheme and host (`https://example.com/products/red%20shoes`),
    /// percent-encode spaces and other unsafe characters, and escape `&` as `&amp;` in the XML.
    pub struct LocInvalid {
        code: crawlgate_core::sitemap::Code::LocInvalid,
        summary: "A sitemap entry's URL is missing, relative, too long or not escaped",
    }
}

impl Rule for LocInvalid {
    fn check(&self, site: &Site, out: &mut Findings<'_>) {
        report_issues(site, Self::META.id, Anchor::Loc, out);
    }
}
