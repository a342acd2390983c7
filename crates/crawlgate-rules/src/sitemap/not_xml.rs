use super::document::{Anchor, issues};
use crawlgate_core::declare_rule;
use crawlgate_core::rule::{Findings, Rule};
use crawlgate_core::site::SitemapState;
use crawlgate_core::{Evidence, Site};

declare_rule! {
    /// ## What it does
    /// Finds sitemaps that are neither well-formed XML (a `<urlset>`, a `<sitemapindex>`, an RSS
    /// or Atom feed) nor a plain-text list of URLs: broken markup, an HTML page served in the
    /// sitemap's place (a "page not found" or login page answered with 200), a UTF-16 file, a
    /// file compressed twice. The `Content-Type` it was served with is quoted.
    ///
    /// ## Why is this bad?
    /// Search engines cannot read any URL from it: Search Console reports the sitemap as
    /// unreadable, and the pages it should announce are found later, if at all. The protocol
    /// requires UTF-8 and well-formed XML, with `&`, `<`, `>`, `'` and `"` escaped.
    ///
    /// ## Example
    /// ```text
    /// https://example.com/sitemap.xml   200   Content-Type: text/html
    /// <!doctype html><title>Page not found</title>…
    /// ```
    ///
    /// ## How to fix
    /// Serve the sitemap itself at that URL, as UTF-8 XML starting with
    /// `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`. Escape `&` in URLs as
    /// `&amp;`. Check the result with `crawlgate sitemap check <URL>`.
    pub struct NotXml {
        code: crawlgate_core::sitemap::Code::NotXml,
        summary: "The sitemap is not a document search engines can read as a sitemap",
    }
}

impl Rule for NotXml {
    fn check(&self, site: &Site, out: &mut Findings<'_>) {
        for found in issues(site, Self::META.id, Anchor::Document) {
            let mut report = found.report();
            if let SitemapState::Parsed {
                final_url,
                content_type: Some(content_type),
                ..
            } = &found.sitemap.state
            {
                report = report.evidence(Evidence::HttpHeader {
                    url: final_url.to_string(),
                    name: "Content-Type".to_owned(),
                    value: content_type.clone(),
                });
            }
            out.report(report);
        }
    }
}
