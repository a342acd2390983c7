use crate::support::{canonical_evidence, ok_pages};
use crawlgate_core::Site;
use crawlgate_core::declare_rule;
use crawlgate_core::rule::{Findings, Occurrence, Rule};

declare_rule! {
    /// ## What it does
    /// Finds `<link rel="canonical">` elements in `<head>` that also carry an `hreflang`, `lang`,
    /// `media` or `type` attribute.
    ///
    /// ## Why is this bad?
    /// Google documents that such links are not used for canonicalization: a canonical with
    /// `hreflang` reads as a language alternate, one with `media` as a mobile alternate. The
    /// canonical preference the author meant to give is lost. It usually comes from mixing up
    /// `rel="canonical"` with `rel="alternate"` in a template.
    ///
    /// ## Example
    /// ```html
    /// <link rel="canonical" hreflang="en" href="https://example.com/en/shoes">
    /// ```
    ///
    /// ## How to fix
    /// Remove the extra attribute from the canonical link. If a language or mobile alternate was
    /// meant, write it as `<link rel="alternate" hreflang="en" href="…">` (or `media="…"`) and keep
    /// a separate, plain `<link rel="canonical" href="…">`.
    pub struct IgnoredAttributes {
        id: "canonical/ignored-attributes",
        severity: Warning,
        summary: "A rel=canonical link with hreflang, lang, media or type is not used for canonicalization",
    }
}

impl Rule for IgnoredAttributes {
    fn page_local(&self) -> bool {
        true
    }

    fn check(&self, site: &Site, out: &mut Findings<'_>) {
        for (resource, page) in ok_pages(site) {
            for canonical in &page.signals.canonicals {
                if !canonical.source.is_effective() {
                    continue; // canonical/outside-head reports it
                }
                let attributes: Vec<String> = canonical
                    .ignored_attributes()
                    .into_iter()
                    .map(|name| {
                        let value = canonical.source.attribute(name).unwrap_or_default();
                        format!("`{name}=\"{value}\"`")
                    })
                    .collect();
                if attributes.is_empty() {
                    continue;
                }
                out.report(
                    Occurrence::new(
                        resource.url.as_str(),
                        format!(
                            "the canonical link to `{}` carries {}, so Google does not use it for canonicalization",
                            canonical.href,
                            attributes.join(" and ")
                        ),
                    )
                    .evidence(canonical_evidence(&resource.url, canonical)),
                );
            }
        }
    }
}
