use crate::support::response_evidence;
use crawlgate_core::declare_rule;
use crawlgate_core::rule::{Findings, Occurrence, Rule};
use crawlgate_core::{Evidence, Site};

declare_rule! {
    /// ## What it does
    /// Finds pages whose body is longer than the audit read (`--max-body-bytes`, 10 MiB by
    /// default): the rest of the page was not read. Rules that report what a page lacks (no
    /// canonical, no noindex, no return link) leave such a page out, since the rest of it may
    /// hold what they look for; what the read part holds is still checked.
    ///
    /// ## Why is this bad?
    /// The audit cannot vouch for what it did not read, and search engines stop too: Google
    /// documents a size limit per fetched file for Googlebot and considers only what comes
    /// before it for indexing (its Googlebot page gives the figure). Links, tags and text past
    /// a cut are invisible to the crawler that stopped there.
    ///
    /// ## Example
    /// ```text
    /// /catalogue/all   200   14.2 MB of HTML; the audit read 10 MiB
    /// ```
    ///
    /// ## How to fix
    /// Make the page smaller (paginate long lists, move inline data to separate resources), so
    /// that everything that matters comes early; or audit it with a larger `--max-body-bytes`.
    pub struct BodyTruncated {
        id: "http/body-truncated",
        severity: Notice,
        summary: "A page is longer than the audit read, so the rest of it was not checked",
    }
}

impl Rule for BodyTruncated {
    fn check(&self, site: &Site, out: &mut Findings<'_>) {
        for (resource, page) in site.fetched() {
            if !page.body_truncated {
                continue;
            }
            out.report(
                Occurrence::new(
                    resource.url.as_str(),
                    format!(
                        "only the first {} bytes of the body were read (the audit's body bound); \
                         nothing past them was checked, and findings about what the page lacks \
                         are not made for it",
                        page.body_len
                    ),
                )
                .evidence(response_evidence(resource))
                .evidence(Evidence::Note {
                    text: format!("the body was cut at {} bytes", page.body_len),
                }),
            );
        }
    }
}
