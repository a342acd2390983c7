use crate::robots::files::{audited_files, lint_issues, lint_report};
use crate::support::profiles_meant_to_crawl;
use crawlgate_core::Site;
use crawlgate_core::declare_rule;
use crawlgate_core::rule::{Findings, Rule};
use crawlgate_core::site::RobotsEffect;

declare_rule! {
    /// ## What it does
    /// Finds an audited crawler that has a group of its own (such as `User-agent: Googlebot`) while
    /// the `*` group holds Disallow rules that its own group does not repeat. The finding lists
    /// those rules.
    ///
    /// ## Why is this bad?
    /// A crawler obeys one group only: the most specific one naming it. Google: "User agent
    /// specific groups and global groups (`*`) are not combined." Adding a `User-agent: Googlebot`
    /// group (say, to allow it one extra path) silently releases Googlebot from every `*` rule, so
    /// the areas blocked for everyone are open to it.
    ///
    /// ## Example
    /// ```text
    /// User-agent: *
    /// Disallow: /checkout/
    /// Disallow: /search
    ///
    /// User-agent: Googlebot
    /// Allow: /search/popular
    /// ```
    /// Googlebot may crawl `/checkout/` and all of `/search`.
    ///
    /// ## How to fix
    /// Repeat in the crawler's own group every `*` rule that should also apply to it (the finding
    /// lists them), or remove the specific group if the `*` group is enough.
    ///
    /// Not reported for crawlers declared expected-blocked (`--expect-blocked gptbot`): what
    /// their group lets through is reported page by page by `robots/expected-blocked-allowed`.
    pub struct GroupShadowsGlobal {
        code: crawlgate_core::robots::lint::Code::GroupShadowsGlobal,
        summary: "A crawler's own group makes it ignore the Disallow rules of the `*` group",
    }
}

impl Rule for GroupShadowsGlobal {
    fn check(&self, site: &Site, out: &mut Findings<'_>) {
        for file in audited_files(site) {
            if file.effect != RobotsEffect::Rules {
                continue;
            }
            for (_, profile) in profiles_meant_to_crawl(site) {
                let tokens: Vec<&str> = profile.robots_tokens.iter().map(String::as_str).collect();
                let agent = file.parsed.agent(&tokens);
                let selection = agent.selection();
                // robots lint places the finding at the first user-agent line of the group that
                // shadows `*`; keep the one this profile obeys.
                let (Some(_), Some(&first_line)) =
                    (&selection.token, selection.user_agent_lines.first())
                else {
                    continue;
                };
                for issue in lint_issues(site, file, Self::META.id)
                    .filter(|issue| issue.line == Some(first_line))
                {
                    out.report(lint_report(file, issue).profile(&profile.name));
                }
            }
        }
    }
}
