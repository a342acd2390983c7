use super::targets::targets;
use crate::support::{canonical_evidence, ok_pages, response_evidence};
use crawlgate_core::Site;
use crawlgate_core::declare_rule;
use crawlgate_core::rule::{Findings, Occurrence, Rule};
use crawlgate_core::site::ResourceState;

declare_rule! {
    /// ## What it does
    /// Finds pages whose canonical URL redirects (3xx) to another URL, and names the final URL.
    ///
    /// ## Why is this bad?
    /// The canonical and the redirect give Google two different answers to "which URL is the
    /// main one?": the canonical names the redirecting URL, the redirect says it is not a page
    /// at all. Google may follow the redirect and settle on the final URL, or distrust the
    /// canonical altogether; either way the signal is weaker than a canonical pointing straight at
    /// the final URL. It is common after migrations (`http` to `https`, trailing-slash changes)
    /// when templates keep the old URL form.
    ///
    /// ## Example
    /// ```text
    /// /shoes/red   <link rel="canonical" href="http://example.com/shoes">
    /// http://example.com/shoes   301 → https://example.com/shoes
    /// ```
    ///
    /// ## How to fix
    /// Update the canonical to the final URL quoted in the message (the end of the redirect
    /// chain), and check the template builds canonicals from the current scheme, host and path
    /// form.
    pub struct TargetRedirects {
        id: "canonical/target-redirects",
        severity: Warning,
        summary: "The canonical URL redirects",
    }
}

impl Rule for TargetRedirects {
    fn page_local(&self) -> bool {
        true
    }

    fn check(&self, site: &Site, out: &mut Findings<'_>) {
        for (resource, page) in ok_pages(site) {
            for (canonical, target_url) in targets(&resource.url, &page.signals) {
                let Some(target) = site.resource(target_url) else {
                    continue;
                };
                let ResourceState::Redirected {
                    hops,
                    final_url,
                    final_status,
                } = &target.state
                else {
                    continue;
                };
                let statuses: Vec<String> = hops.iter().map(|hop| hop.status.to_string()).collect();
                let end =
                    final_status.map_or_else(String::new, |status| format!(" (answers {status})"));
                out.report(
                    Occurrence::new(
                        resource.url.as_str(),
                        format!(
                            "the canonical `{target_url}` redirects ({}) to `{final_url}`{end}; point the canonical at the final URL",
                            statuses.join(" → ")
                        ),
                    )
                    .evidence(canonical_evidence(&resource.url, canonical))
                    .evidence(response_evidence(target)),
                );
            }
        }
    }
}
