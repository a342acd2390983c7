use super::targets::targets;
use crate::support::{canonical_evidence, ok_pages};
use crawlgate_core::Site;
use crawlgate_core::declare_rule;
use crawlgate_core::rule::{Findings, Occurrence, Rule};

declare_rule! {
    /// ## What it does
    /// Lists pages whose canonical URL is on another host name (another domain, or another
    /// subdomain such as `www` against the bare domain).
    ///
    /// ## Why is this bad?
    /// It is legitimate for syndicated content (an article republished with a canonical to the
    /// original) and for sites moving to a new domain. It is a serious mistake otherwise: the
    /// page hands its place in search to another host, often a staging or development host left
    /// in the configuration, or the `www` / non-`www` variant the site does not use. The list
    /// lets you confirm each one is intended.
    ///
    /// ## Example
    /// ```html
    /// <!-- on https://www.example.com/shoes -->
    /// <link rel="canonical" href="https://staging.example.com/shoes">
    /// ```
    ///
    /// ## How to fix
    /// If the other host is not the intended main version, set the site URL in the CMS (or the
    /// canonical template) to the production host.
    pub struct CrossDomain {
        id: "canonical/cross-domain",
        severity: Notice,
        summary: "The canonical URL is on another host",
    }
}

impl Rule for CrossDomain {
    fn page_local(&self) -> bool {
        true
    }

    fn check(&self, site: &Site, out: &mut Findings<'_>) {
        for (resource, page) in ok_pages(site) {
            let url = &resource.url;
            for (canonical, target) in targets(url, &page.signals) {
                let (Some(host), Some(target_host)) = (url.host_str(), target.host_str()) else {
                    continue;
                };
                if host == target_host {
                    continue;
                }
                out.report(
                    Occurrence::new(
                        url.as_str(),
                        format!(
                            "the canonical `{target}` is on another host, `{target_host}`: right for syndicated content, a mistake otherwise"
                        ),
                    )
                    .evidence(canonical_evidence(url, canonical)),
                );
            }
        }
    }
}
