use super::targets::targets;
use crate::support::{canonical_evidence, ok_pages, response_evidence};
use crawlgate_core::Site;
use crawlgate_core::declare_rule;
use crawlgate_core::rule::{Findings, Occurrence, Rule};
use crawlgate_core::site::ResourceState;

declare_rule! {
    /// ## What it does
    /// Finds pages whose canonical URL answers with an error: a 4xx or 5xx status, or no response
    /// at all (timeout, DNS or connection failure, a redirect loop), directly or at the end of its
    /// redirects. Canonicals to other sites are checked when the crawl fetched them; canonicals
    /// outside the crawl's scope are not fetched and not reported.
    ///
    /// ## Why is this bad?
    /// A canonical says "index that URL instead of this one". When that URL is broken, Google
    /// has nothing valid to index in its place: it ignores the hint and chooses a canonical
    /// itself, or, if it trusts the hint, drops the page for a URL that does not work. Typical
    /// causes are a deleted or moved target, a typo in a template, or a canonical built from the
    /// wrong host.
    ///
    /// ## Example
    /// ```text
    /// /shoes?colour=red    <link rel="canonical" href="https://example.com/shoes-old">
    /// /shoes-old           404 Not Found
    /// ```
    ///
    /// ## How to fix
    /// Point the canonical at the working, indexable URL of the content, usually the page
    /// itself (a self-referencing canonical) or its current main version.
    pub struct TargetError {
        id: "canonical/target-error",
        severity: Error,
        summary: "The canonical URL answers 4xx/5xx or no response",
    }
}

impl Rule for TargetError {
    fn page_local(&self) -> bool {
        true
    }

    fn check(&self, site: &Site, out: &mut Findings<'_>) {
        for (resource, page) in ok_pages(site) {
            for (canonical, target_url) in targets(&resource.url, &page.signals) {
                let Some(target) = site.resource(target_url) else {
                    continue;
                };
                let outcome = match &target.state {
                    ResourceState::Fetched(target_page) if target_page.status() >= 400 => {
                        format!("answers {}", target_page.status())
                    }
                    ResourceState::Redirected {
                        final_url,
                        final_status: Some(status),
                        ..
                    } if *status >= 400 => {
                        format!("redirects to `{final_url}`, which answers {status}")
                    }
                    ResourceState::Failed { kind, message, .. } => {
                        format!("gets no response ({}: {message})", kind.as_str())
                    }
                    _ => continue,
                };
                let mut report = Occurrence::new(
                    resource.url.as_str(),
                    format!("the canonical `{target_url}` {outcome}"),
                )
                .evidence(canonical_evidence(&resource.url, canonical))
                .evidence(response_evidence(target));
                if let ResourceState::Redirected { final_url, .. } = &target.state
                    && let Some(end) = site.resource(final_url)
                {
                    report = report.evidence(response_evidence(end));
                }
                out.report(report);
            }
        }
    }
}
