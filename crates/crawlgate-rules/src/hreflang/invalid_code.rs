use super::annotations;
use crate::support::ok_pages;
use crawlgate_core::Site;
use crawlgate_core::declare_rule;
use crawlgate_core::rule::{Findings, Occurrence, Rule};
use crawlgate_core::sitemap::hreflang_problem;

declare_rule! {
    /// ## What it does
    /// Checks the code of every hreflang alternate a page declares (`<link>` in `<head>`, `Link`
    /// header): `x-default`, or an ISO 639-1 language, optionally followed by an ISO 15924 script
    /// and/or an ISO 3166-1 alpha-2 region (`en`, `en-GB`, `zh-Hant-TW`). Sitemap alternates have
    /// `sitemap/hreflang-invalid`; both use the same code lists.
    ///
    /// ## Why is this bad?
    /// Google, "Tell Google about localized versions of your page": the value is "a supported
    /// language/region code targeted by this version of the page": an ISO 639-1 language,
    /// optionally with an ISO 3166-1 alpha-2 region; a region alone is not one. An alternate
    /// with an invalid code is ignored, so that version is missing from the set; `en-UK` is the
    /// usual one (the United Kingdom's code is `GB`).
    ///
    /// ## Example
    /// ```html
    /// <link rel="alternate" hreflang="en-UK" href="https://example.com/uk/">
    /// <link rel="alternate" hreflang="es-419" href="https://example.com/latam/">
    /// ```
    ///
    /// ## How to fix
    /// Use the ISO codes: `en-GB`; for Latin America, one alternate per country (`es-MX`,
    /// `es-AR`…) or the language alone (`es`).
    pub struct InvalidCode {
        id: "hreflang/invalid-code",
        severity: Error,
        summary: "A page's hreflang alternate has an invalid language or region code",
    }
}

impl Rule for InvalidCode {
    fn page_local(&self) -> bool {
        true
    }

    fn check(&self, site: &Site, out: &mut Findings<'_>) {
        for (resource, page) in ok_pages(site) {
            for annotation in annotations::on_page(&page) {
                let Some(problem) = hreflang_problem(annotation.code.trim()) else {
                    continue;
                };
                out.report(
                    Occurrence::new(
                        resource.url.as_str(),
                        format!(
                            "hreflang `{}` on the alternate `{}` is invalid: {problem}; Google ignores the alternate",
                            annotation.code, annotation.href
                        ),
                    )
                    .evidence(annotation.evidence(&resource.url)),
                );
            }
        }
    }
}
