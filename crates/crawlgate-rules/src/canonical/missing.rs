use crate::support::{ok_pages, profiles, response_evidence};
use crawlgate_core::declare_rule;
use crawlgate_core::rule::{Findings, Occurrence, Rule};
use crawlgate_core::{Evidence, Site};

declare_rule! {
    /// ## What it does
    /// Lists indexable HTML pages (200, crawlable, no noindex) that declare no canonical at all:
    /// no `<link rel="canonical">` and no `Link: rel="canonical"` header.
    ///
    /// ## Why is this bad?
    /// A canonical is not required, and Google picks one itself when none is given. But URLs
    /// multiply (tracking parameters, sort orders, `http`/`https`, `www`, trailing slashes), and
    /// a self-referencing canonical is the simplest way to tell Google which form is the real
    /// one; Google recommends it. Without it, Google may choose a parameterised or
    /// non-preferred variant, and link signals are split.
    ///
    /// ## Example
    /// ```html
    /// <head><title>Shoes</title></head>   <!-- no rel=canonical -->
    /// ```
    ///
    /// ## How to fix
    /// Add a self-referencing canonical with the page's preferred absolute URL:
    /// `<link rel="canonical" href="https://example.com/shoes">`. Most CMSs and SEO plugins can
    /// output it for every page.
    pub struct Missing {
        id: "canonical/missing",
        severity: Notice,
        summary: "An indexable page declares no canonical",
    }
}

impl Rule for Missing {
    fn page_local(&self) -> bool {
        true
    }

    fn check(&self, site: &Site, out: &mut Findings<'_>) {
        for (resource, page) in ok_pages(site) {
            // A page read only in part may declare its canonical past the cut
            // (http/page-read-in-part says so).
            if !page.signals.is_html || !page.signals.canonicals.is_empty() || page.read_in_part() {
                continue;
            }
            let indexable = profiles(site).any(|(index, _)| {
                site.indexability_of(resource, Some(&page), index)
                    .is_indexable()
            });
            if !indexable {
                continue;
            }
            out.report(
                Occurrence::new(
                    resource.url.as_str(),
                    "no canonical is declared: Google chooses one itself; a self-referencing canonical is recommended",
                )
                .evidence(response_evidence(resource))
                .evidence(Evidence::Note {
                    text: "no <link rel=\"canonical\"> in the HTML and no Link: rel=\"canonical\" header"
                        .to_owned(),
                }),
            );
        }
    }
}
