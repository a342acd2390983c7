use crate::robots::files::{audited_files, line_evidence, lint_issues, lint_report_with};
use crate::support::{profiles, verdict_evidence};
use crawlgate_core::declare_rule;
use crawlgate_core::robots::Directive;
use crawlgate_core::rule::{Findings, Occurrence, Rule};
use crawlgate_core::signals::Profile;
use crawlgate_core::site::{RobotsEffect, RobotsFile, UrlVerdict, path_and_query};
use crawlgate_core::{Severity, Site};

declare_rule! {
    /// ## What it does
    /// Finds a robots.txt that disallows the whole site for an audited crawler: `/` (or the start
    /// URL of the audit) is disallowed for it, typically by a `Disallow: /` left over from a
    /// staging site or a launch.
    ///
    /// ## Why is this bad?
    /// The crawler may fetch no page of the site. For Googlebot that means no new or updated
    /// content is read, and over time pages drop out of search results or are shown without a
    /// description ("No information is available for this page"). It is the single most damaging
    /// line a robots.txt can hold, and it is easy to deploy by accident.
    ///
    /// ## Example
    /// ```text
    /// User-agent: *
    /// Disallow: /
    /// ```
    ///
    /// ## How to fix
    /// Remove the `Disallow: /` line quoted in the evidence (or narrow it to the areas that really
    /// must not be crawled), and make sure the staging configuration cannot reach production again.
    /// To keep a private site out of search, use authentication instead.
    ///
    /// For a crawler declared expected-blocked (`--expect-blocked gptbot`, `expect_blocked` in
    /// crawlgate.toml) the whole site disallowed is the wanted state: the finding is then a
    /// notice that confirms the block and quotes the line that makes it.
    pub struct DisallowAll {
        code: crawlgate_core::robots::lint::Code::DisallowAll,
        summary: "robots.txt disallows the whole site (or the start URL) for an audited crawler",
    }
}

impl Rule for DisallowAll {
    fn check(&self, site: &Site, out: &mut Findings<'_>) {
        for file in audited_files(site) {
            if file.effect != RobotsEffect::Rules {
                continue; // unreachable says what a failed fetch means
            }
            let Ok(root) = file.url.join("/") else {
                continue;
            };
            for (index, profile) in profiles(site) {
                let agent = file.parsed.agent(&tokens(profile));
                let expected = site.expects_blocked(index);
                // `/` itself: robots lint words it, naming the group that decides.
                if let Some(rule) = agent
                    .deciding_rule("/")
                    .filter(|rule| rule.directive == Directive::Disallow)
                {
                    if expected {
                        out.report(confirmation(
                            file,
                            rule.line,
                            &format!(
                                "`/` is disallowed for {} by `Disallow: {}`, as declared \
                                 (expected blocked): robots.txt keeps it out of the site",
                                profile.display_name(),
                                rule.pattern
                            ),
                            verdict_evidence(site, index, &root),
                            profile,
                        ));
                        continue;
                    }
                    // One line can decide for `*` and for named crawlers alike (a group with
                    // several user-agent lines); prefer the wording naming this crawler.
                    let at_line: Vec<_> = lint_issues(site, file, Self::META.id)
                        .filter(|issue| issue.line == Some(rule.line))
                        .collect();
                    let named = agent.selection().token.as_ref().and_then(|token| {
                        let wording = format!("for {token} by");
                        at_line
                            .iter()
                            .find(|issue| issue.message.contains(&wording))
                    });
                    if let Some(issue) = named.or(at_line.first()) {
                        out.report(
                            lint_report_with(file, issue, verdict_evidence(site, index, &root))
                                .profile(&profile.name),
                        );
                    }
                    continue;
                }
                // The start URL, which robots lint cannot know.
                if site.robots_for(&site.start_url).map(|f| &f.origin) != Some(&file.origin) {
                    continue;
                }
                let start = &site.start_url;
                let Some(rule) = agent
                    .deciding_rule(path_and_query(start))
                    .filter(|rule| rule.directive == Directive::Disallow)
                else {
                    continue;
                };
                if expected {
                    out.report(confirmation(
                        file,
                        rule.line,
                        &format!(
                            "the start URL {start} is disallowed for {} by `Disallow: {}`, as \
                             declared (expected blocked)",
                            profile.display_name(),
                            rule.pattern
                        ),
                        start_verdict(file, profile, start),
                        profile,
                    ));
                    continue;
                }
                out.report(
                    Occurrence::new(
                        file.url.as_str(),
                        format!(
                            "line {}: the start URL {start} is disallowed for {} by `Disallow: {}`: \
                             it cannot enter the site there",
                            rule.line,
                            profile.display_name(),
                            rule.pattern
                        ),
                    )
                    .severity(Severity::Critical)
                    .profile(&profile.name)
                    .evidence(line_evidence(file, rule.line))
                    .evidence(start_verdict(file, profile, start)),
                );
            }
        }
    }
}

/// The notice confirming that an expected-blocked crawler is kept out (`text` without the line
/// number, which leads).
fn confirmation(
    file: &RobotsFile,
    line: u32,
    text: &str,
    verdict: crawlgate_core::Evidence,
    profile: &Profile,
) -> Occurrence {
    Occurrence::new(file.url.as_str(), format!("line {line}: {text}"))
        .severity(Severity::Notice)
        .profile(&profile.name)
        .evidence(verdict)
}

fn tokens(profile: &Profile) -> Vec<&str> {
    profile.robots_tokens.iter().map(String::as_str).collect()
}

/// The start URL's verdict as evidence (the deciding rule with its group).
fn start_verdict(
    file: &RobotsFile,
    profile: &Profile,
    start: &url::Url,
) -> crawlgate_core::Evidence {
    UrlVerdict::compute(Some(file), profile, start).evidence(&profile.name, Some(file))
}
