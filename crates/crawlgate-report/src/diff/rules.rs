//! The `diff/` rules: what `crawlgate diff` reports between two audits. They read two reports,
//! not a site, so they are not in the audit's rule list; their docs reach the report the same
//! way ([`crate::rule_doc`]).

use crawlgate_core::declare_rule;
use crawlgate_core::rule::RuleMeta;

declare_rule! {
    /// ## What it does
    /// Compares the robots.txt verdict of every page known to both audits, per crawler profile,
    /// and reports each page that was allowed before and is disallowed after, with the deciding
    /// robots.txt line on each side.
    ///
    /// ## Why is this bad?
    /// A page a crawler may no longer fetch drops out of its crawl: its content is no longer read,
    /// its links no longer followed, and after a while it leaves the index or stays as a bare
    /// URL. After a migration this is usually a robots.txt from staging, or a rule that now
    /// matches more than intended.
    ///
    /// ## Example
    /// ```text
    /// before: allowed (no rule)
    /// after:  disallowed (https://www.example.com/robots.txt line 7: Disallow: /shop)
    /// ```
    ///
    /// ## How to fix
    /// Remove or narrow the rule quoted on the `after` side (test the change with `crawlgate
    /// robots diff` before deploying it).
    pub struct NewlyBlocked {
        id: "diff/newly-blocked",
        severity: Error,
        summary: "A page allowed by robots.txt before is disallowed after",
    }
}

declare_rule! {
    /// ## What it does
    /// Reports each page known to both audits that was not noindex for a profile before and is
    /// after (meta robots or `X-Robots-Tag`), quoting the directives on each side.
    ///
    /// ## Why is this bad?
    /// A noindex removes the page from search results at the next crawl. A new one after a
    /// migration is almost always a staging header or template setting that came along.
    ///
    /// ## Example
    /// ```text
    /// before: indexable directives (none)
    /// after:  noindex, nofollow
    /// ```
    ///
    /// ## How to fix
    /// Remove the noindex from the page template or the server configuration that sends
    /// `X-Robots-Tag`, unless the page is meant to leave the index.
    pub struct NewlyNoindex {
        id: "diff/newly-noindex",
        severity: Error,
        summary: "A page that could be indexed before is noindex after",
    }
}

declare_rule! {
    /// ## What it does
    /// Reports each page known to both audits whose declared canonical changed (the earlier one
    /// mapped onto the new host first, so a move from staging or to https is not a change); an
    /// error when the new target is a page no audited profile can index.
    ///
    /// ## Why is this bad?
    /// The canonical tells Google which URL to index. A changed canonical moves the page's
    /// signals to another URL; a missing one leaves Google to choose.
    ///
    /// ## Example
    /// ```text
    /// before: canonical https://www.example.com/boots
    /// after:  canonical https://www.example.com/
    /// ```
    ///
    /// ## How to fix
    /// Check the canonical on the `after` side: point it back to the page itself, or to the
    /// page that is meant to replace it.
    pub struct CanonicalChanged {
        id: "diff/canonical-changed",
        severity: Warning,
        summary: "A page's canonical changed between the audits",
    }
}

declare_rule! {
    /// ## What it does
    /// Reports each page known to both audits that answered 2xx before and answers an error
    /// (4xx, 5xx) or nothing after, or now redirects to the home page (the usual catch-all for
    /// URLs a migration did not map).
    ///
    /// ## Why is this bad?
    /// A page that stops answering loses its rankings; its links and traffic go nowhere. A
    /// migration that should redirect old URLs often leaves some as 404.
    ///
    /// ## Example
    /// ```text
    /// before: answered 200
    /// after:  answered 404
    /// ```
    ///
    /// ## How to fix
    /// Restore the page or redirect it (301) to its replacement.
    pub struct StatusRegressed {
        id: "diff/status-regressed",
        severity: Error,
        summary: "A page that answered 2xx before answers an error after",
    }
}

declare_rule! {
    /// ## What it does
    /// Reports each page listed in a sitemap in the earlier audit and in none in the later one
    /// (unless it now redirects to a page a sitemap lists).
    ///
    /// ## Why is this bad?
    /// Sitemaps tell search engines which URLs matter and when they change. A page dropped from
    /// every sitemap is discovered and recrawled more slowly, and may be a page that was lost in
    /// the migration.
    ///
    /// ## Example
    /// ```text
    /// before: listed in https://www.example.com/sitemap.xml
    /// after:  in no sitemap
    /// ```
    ///
    /// ## How to fix
    /// Add the page back to the sitemap generator's input, or redirect it if it is gone.
    pub struct SitemapDropped {
        id: "diff/sitemap-dropped",
        severity: Warning,
        summary: "A page listed in a sitemap before is in none after",
    }
}

declare_rule! {
    /// ## What it does
    /// Compares the sitemaps each audit met (named by robots.txt, by an index, or probed), URLs
    /// mapped, and reports the ones that appear or disappear.
    ///
    /// ## Why is this bad?
    /// A sitemap that disappears takes its URLs out of search engines' discovery; one that
    /// appears may list URLs of the wrong host or environment.
    ///
    /// ## Example
    /// ```text
    /// before: https://www.example.com/sitemap-products.xml
    /// after:  (not met)
    /// ```
    ///
    /// ## How to fix
    /// Check that the sitemaps named by robots.txt and by the index are the intended ones, and
    /// resubmit them in Search Console.
    pub struct SitemapSetChanged {
        id: "diff/sitemap-set-changed",
        severity: Notice,
        summary: "The set of sitemaps changed between the audits",
    }
}

declare_rule! {
    /// ## What it does
    /// Reports each page known to both audits whose snippet and preview directives changed for a
    /// profile (`nosnippet`, `max-snippet`, `max-image-preview`, `max-video-preview`,
    /// `noimageindex`, `notranslate`, `unavailable_after`, `indexifembedded`).
    ///
    /// ## Why is this bad?
    /// These directives shape how the page appears in results: a new `nosnippet` or
    /// `max-snippet:0` removes its description, `max-image-preview:none` its large image. They
    /// are easy to change by accident with a template or header.
    ///
    /// ## Example
    /// ```text
    /// before: max-image-preview:large
    /// after:  max-image-preview:none, nosnippet
    /// ```
    ///
    /// ## How to fix
    /// Restore the directives of the `before` side unless the change was intended.
    pub struct SnippetDirectivesChanged {
        id: "diff/snippet-directives-changed",
        severity: Notice,
        summary: "A page's snippet or preview directives changed",
    }
}

/// Every `diff/` rule, in documentation order.
pub static DIFF_RULES: [&RuleMeta; 7] = [
    &NewlyBlocked::META,
    &NewlyNoindex::META,
    &CanonicalChanged::META,
    &StatusRegressed::META,
    &SitemapDropped::META,
    &SitemapSetChanged::META,
    &SnippetDirectivesChanged::META,
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_diff_rule_documents_what_why_example_and_fix() {
        for meta in DIFF_RULES {
            assert!(meta.id.starts_with("diff/"));
            for section in ["What it does", "Why is this bad?", "Example", "How to fix"] {
                assert!(
                    meta.doc_section(section).is_some_and(|t| !t.is_empty()),
                    "{} lacks {section}",
                    meta.id
                );
            }
        }
    }
}
