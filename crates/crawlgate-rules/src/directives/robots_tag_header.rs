use super::read::MAX_QUOTED_VALUE;
use crate::support::{MAX_SOURCES_QUOTED, ok_pages, shortened};
use crawlgate_core::declare_rule;
use crawlgate_core::rule::{Findings, Occurrence, Rule};
use crawlgate_core::{Evidence, Site};

declare_rule! {
    /// ## What it does
    /// Finds responses that send the draft `Robots-Tag` header (without the `X-` prefix), as
    /// proposed by the IETF draft draft-illyes-repext.
    ///
    /// ## Why is this bad?
    /// It may be the future: the draft standardises `Robots-Tag` (a structured header such as
    /// `Robots-Tag: *;nosnippet, ExampleBot;noindex`) and deprecates `X-Robots-Tag`. But Google's
    /// documentation still describes only `X-Robots-Tag`, so a rule sent only as `Robots-Tag` may
    /// not be applied by Google today. crawlgate reads it as the draft says, and adds its rules
    /// to the page's directives.
    ///
    /// ## Example
    /// ```text
    /// Robots-Tag: noindex
    /// ```
    ///
    /// ## How to fix
    /// Keep sending `X-Robots-Tag` with the same rules until Google documents `Robots-Tag`; the
    /// draft asks crawlers to keep supporting the old header.
    pub struct RobotsTagHeader {
        id: "directives/robots-tag-header",
        severity: Notice,
        summary: "The draft Robots-Tag header is sent; Google documents only X-Robots-Tag",
    }
}

impl Rule for RobotsTagHeader {
    fn page_local(&self) -> bool {
        true
    }

    fn check(&self, site: &Site, out: &mut Findings<'_>) {
        for (resource, page) in ok_pages(site) {
            let draft: Vec<_> = page
                .signals
                .robots_headers
                .iter()
                .filter(|header| header.is_draft_robots_tag())
                .collect();
            let Some(first) = draft.first() else {
                continue;
            };
            let also_x_robots_tag = page
                .signals
                .robots_headers
                .iter()
                .any(|header| !header.is_draft_robots_tag());
            let advice = if also_x_robots_tag {
                "an X-Robots-Tag header is sent too; check it carries the same rules"
            } else {
                "no X-Robots-Tag is sent, so Google may not apply these rules"
            };
            out.report(
                Occurrence::new(
                    resource.url.as_str(),
                    format!(
                        "the draft `Robots-Tag: {}` header is sent; {advice}",
                        shortened(&first.value, MAX_QUOTED_VALUE)
                    ),
                )
                .evidence_all(draft.iter().take(MAX_SOURCES_QUOTED).map(
                    |header| Evidence::HttpHeader {
                        url: resource.url.to_string(),
                        name: header.name.clone(),
                        value: header.value.clone(),
                    },
                )),
            );
        }
    }
}
