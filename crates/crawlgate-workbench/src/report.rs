//! The draft against an audit: per origin, the report's robots.txt (its listed body, or the
//! fetch outcome that decided everything) and the URLs the audit knows there; per check, the
//! flips ([`VerdictDiff`]) and the findings the draft would resolve or create (what is
//! approximated: the crate's docs).

use crate::check::{Decided, lines_of};
use crate::{Draft, MAX_FLIPS_LISTED, MAX_SAMPLE_PATHS};
use crawlgate_core::finding::Evidence;
use crawlgate_report::{
    FIXABLE_RULES, PageRecord, Report, ReportFinding, deciding_profile, named_urls,
};
use crawlgate_robots::diff::{Decider, Decision, Side, VerdictDiff};
use crawlgate_robots::lint::{Code, LintOptions};
use crawlgate_robots::{AgentRules, Directive, RobotsTxt, path_params_query};
use crawlgate_signals::Profile;
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};
use url::Url;

/// What an origin's verdicts were in the audit.
#[derive(Debug)]
enum Baseline {
    /// The rules of the file the report lists whole, and its lines.
    Rules(RobotsTxt, Vec<String>),
    /// The fetch outcome decided every verdict (no robots.txt: allowed; unreachable: not).
    Everything { allowed: bool },
    /// The report lists only part of the file: its verdicts cannot be recomputed.
    Unlisted,
}

/// One origin of the report.
#[derive(Debug)]
struct OriginView {
    origin: String,
    robots_url: String,
    effect: String,
    effect_reason: String,
    baseline: Baseline,
    /// The body, when the report lists it whole.
    body: Option<String>,
    /// The known URLs on the origin: URL, what the matcher reads, its page record.
    urls: Vec<(String, String, usize)>,
    /// Paths to start the matrix with.
    sample: Vec<String>,
}

/// A report, read for the workbench.
#[derive(Debug)]
pub(crate) struct ReportView {
    report: Report,
    /// The audited profiles, in the report's order.
    profiles: Vec<Profile>,
    origins: Vec<OriginView>,
    /// The start URL's origin, else the first.
    default_origin: Option<usize>,
}

fn origin_of(url: &str) -> Option<String> {
    Url::parse(url)
        .ok()
        .map(|u| u.origin().ascii_serialization())
}

/// The report part of `GET /api/state`.
#[derive(Debug, Serialize)]
pub(crate) struct ReportState {
    start_url: String,
    profiles: Vec<String>,
    origin: Option<String>,
    origins: Vec<OriginState>,
    #[serde(skip)]
    pub(crate) sample_paths: Option<Vec<String>>,
}

#[derive(Debug, Serialize)]
struct OriginState {
    origin: String,
    robots_url: String,
    effect: String,
    effect_reason: String,
    /// The body, when the report lists it whole (else the editor cannot start from it).
    body: Option<String>,
    /// Known URLs on the origin.
    urls: usize,
    paths: Vec<String>,
}

impl ReportView {
    pub(crate) fn new(report: Report) -> ReportView {
        let profiles: Vec<Profile> = report
            .target
            .profiles
            .iter()
            .map(|name| Profile::named(name))
            .collect();
        let origins: Vec<OriginView> = report
            .robots
            .iter()
            .map(|robots| {
                let body = robots.listed_body();
                let baseline = match (robots.effect.as_str(), &body) {
                    ("allow-all", _) => Baseline::Everything { allowed: true },
                    ("disallow-all", _) => Baseline::Everything { allowed: false },
                    (_, Some(body)) => {
                        Baseline::Rules(RobotsTxt::parse_fetched(body), lines_of(body))
                    }
                    (_, None) => Baseline::Unlisted,
                };
                let pages = report.pages.to_held();
                let urls = known_urls(&pages, &robots.origin);
                let sample = sample_paths(&pages, &urls);
                OriginView {
                    origin: robots.origin.clone(),
                    robots_url: robots.url.clone(),
                    effect: robots.effect.clone(),
                    effect_reason: robots.effect_reason.clone(),
                    baseline,
                    body: body.map(|body| String::from_utf8_lossy(&body).into_owned()),
                    urls,
                    sample,
                }
            })
            .collect();
        let start = origin_of(&report.target.start_url);
        let default_origin = origins
            .iter()
            .position(|o| Some(&o.origin) == start.as_ref())
            .or(if origins.is_empty() { None } else { Some(0) });
        ReportView {
            report,
            profiles,
            origins,
            default_origin,
        }
    }

    /// The report's robots.txt of the default origin, when it lists it whole.
    pub(crate) fn default_draft(&self) -> Option<Draft> {
        let origin = &self.origins[self.default_origin?];
        let body = origin.body.clone()?;
        Some(Draft::new(
            body,
            format!("the report's robots.txt of {}", origin.origin),
        ))
    }

    pub(crate) fn state(&self) -> ReportState {
        ReportState {
            start_url: self.report.target.start_url.clone(),
            profiles: self.report.target.profiles.clone(),
            origin: self.default_origin.map(|i| self.origins[i].origin.clone()),
            origins: self
                .origins
                .iter()
                .map(|o| OriginState {
                    origin: o.origin.clone(),
                    robots_url: o.robots_url.clone(),
                    effect: o.effect.clone(),
                    effect_reason: o.effect_reason.clone(),
                    body: o.body.clone(),
                    urls: o.urls.len(),
                    paths: o.sample.clone(),
                })
                .collect(),
            sample_paths: self.default_origin.map(|i| self.origins[i].sample.clone()),
        }
    }

    /// The index of `origin` (as `scheme://host[:port]`).
    pub(crate) fn origin(&self, origin: &str) -> Option<usize> {
        let wanted = origin_of(origin).unwrap_or_else(|| origin.to_owned());
        self.origins.iter().position(|o| o.origin == wanted)
    }

    /// The lint options the audit used (its profiles' tokens).
    pub(crate) fn lint_options(&self) -> LintOptions {
        crawlgate_core::site::lint_options_for(&self.profiles)
    }

    /// The draft against the report's robots.txt of origin `index`.
    pub(crate) fn check(
        &self,
        index: usize,
        draft: &RobotsTxt,
        lines: &[String],
        issues: &[crawlgate_robots::Issue],
    ) -> ReportCheck {
        let origin = &self.origins[index];
        let (old, old_lines, baseline): (Option<Side<'_>>, &[String], &'static str) =
            match &origin.baseline {
                Baseline::Rules(robots, lines) => (Some(Side::Rules(robots)), lines, "rules"),
                Baseline::Everything { allowed: true } => {
                    (Some(Side::Everything { allowed: true }), &[], "allow-all")
                }
                Baseline::Everything { allowed: false } => (
                    Some(Side::Everything { allowed: false }),
                    &[],
                    "disallow-all",
                ),
                Baseline::Unlisted => (None, &[], "unlisted"),
            };
        let mut check = ReportCheck {
            origin: origin.origin.clone(),
            robots_url: origin.robots_url.clone(),
            baseline,
            baseline_reason: origin.effect_reason.clone(),
            urls: origin.urls.len(),
            profiles: self
                .profiles
                .iter()
                .map(|profile| ProfileCount {
                    profile: profile.name.clone(),
                    label: crate::check::label_of(profile),
                    urls: origin.urls.len(),
                    newly_disallowed: 0,
                    newly_allowed: 0,
                })
                .collect(),
            flips: Vec::new(),
            flips_total: 0,
            resolved: Vec::new(),
            resolved_total: 0,
            created: Vec::new(),
            created_total: 0,
            lint: self.lint_changes(origin, issues),
        };
        if let Some(old) = old {
            self.flips(origin, old, (old_lines, draft, lines), &mut check);
        }
        if let Baseline::Rules(robots, old_lines) = &origin.baseline {
            self.resolved(origin, (robots, old_lines), (draft, lines), &mut check);
        }
        check
    }

    /// Every known URL of the origin whose verdict flips, per audited profile; newly
    /// disallowed ones are the findings the draft creates.
    fn flips(
        &self,
        origin: &OriginView,
        old: Side<'_>,
        (old_lines, draft, lines): (&[String], &RobotsTxt, &[String]),
        check: &mut ReportCheck,
    ) {
        let tokens: Vec<Vec<&str>> = self
            .profiles
            .iter()
            .map(|p| p.robots_tokens.iter().map(String::as_str).collect())
            .collect();
        let chains: Vec<&[&str]> = tokens.iter().map(Vec::as_slice).collect();
        let diff = VerdictDiff::new(old, Side::Rules(draft), &chains);
        for (url, path, page) in &origin.urls {
            diff.compare(path, |flip| {
                let profile = &self.profiles[flip.profile];
                let count = &mut check.profiles[flip.profile];
                if flip.newly_disallowed() {
                    count.newly_disallowed += 1;
                } else {
                    count.newly_allowed += 1;
                }
                check.flips_total += 1;
                let after = FlipSide::of(&flip.new, lines);
                if check.flips.len() < MAX_FLIPS_LISTED {
                    check.flips.push(FlipLine {
                        url: url.clone(),
                        profile: profile.name.clone(),
                        before: FlipSide::of(&flip.old, old_lines),
                        after: after.clone(),
                    });
                }
                if flip.newly_disallowed() {
                    check.created_total += 1;
                    if check.created.len() < MAX_FLIPS_LISTED {
                        check.created.push(CreatedFinding {
                            url: url.clone(),
                            profile: profile.name.clone(),
                            rules: self
                                .report
                                .pages
                                .get(*page)
                                .map(|page| likely_rules(&page, &profile.name))
                                .unwrap_or_default(),
                            after,
                        });
                    }
                }
            });
        }
    }

    /// The findings of fixable rules whose refused URL the draft allows.
    fn resolved(
        &self,
        origin: &OriginView,
        (old, old_lines): (&RobotsTxt, &[String]),
        (draft, lines): (&RobotsTxt, &[String]),
        check: &mut ReportCheck,
    ) {
        let mut agents: BTreeMap<&str, (AgentRules<'_>, AgentRules<'_>)> = BTreeMap::new();
        for finding in &self.report.findings {
            let Some((profile, line)) = fixable(finding, &origin.robots_url) else {
                continue;
            };
            let (old_agent, new_agent) = agents.entry(profile).or_insert_with(|| {
                let chain = Profile::named(profile).robots_tokens;
                let chain: Vec<&str> = chain.iter().map(String::as_str).collect();
                (old.agent(&chain), draft.agent(&chain))
            });
            let refused = named_urls(finding)
                .into_iter()
                .filter(|url| origin_of(url).as_deref() == Some(origin.origin.as_str()))
                .map(|url| (url, path_params_query(url)))
                .find(|(_, path)| {
                    old_agent.deciding_rule(path).is_some_and(|rule| {
                        rule.line == line && rule.directive == Directive::Disallow
                    })
                });
            let Some((refused_url, path)) = refused else {
                continue;
            };
            let after = Decision::of(new_agent, &path);
            if !after.allowed {
                continue;
            }
            check.resolved_total += 1;
            if check.resolved.len() < MAX_FLIPS_LISTED {
                check.resolved.push(ResolvedFinding {
                    rule: finding.finding.rule.clone(),
                    url: finding.finding.url.clone(),
                    profile: finding.finding.profile.clone().unwrap_or_default(),
                    severity: finding.finding.severity.as_str(),
                    refused_url: refused_url.to_owned(),
                    before: FlipSide::of(&Decision::of(old_agent, &path), old_lines),
                    after: FlipSide::of(&after, lines),
                });
            }
        }
    }

    /// The file's own checks: per rule the audit ran, its findings on this robots.txt against
    /// the draft's issues; only rules present on one side and not the other.
    fn lint_changes(
        &self,
        origin: &OriginView,
        issues: &[crawlgate_robots::Issue],
    ) -> Vec<LintChange> {
        let checked: BTreeSet<&str> = self
            .report
            .rules_checked
            .iter()
            .map(String::as_str)
            .collect();
        let ran = |rule: &str| checked.is_empty() || checked.contains(rule);
        let mut counts: BTreeMap<&'static str, (u64, u64)> = BTreeMap::new();
        for finding in &self.report.findings {
            if finding.finding.url != origin.robots_url {
                continue;
            }
            if let Some(code) = Code::from_id(&finding.finding.rule) {
                counts.entry(code.id()).or_default().0 += 1;
            }
        }
        for issue in issues {
            counts.entry(issue.code.id()).or_default().1 += 1;
        }
        counts
            .into_iter()
            .filter(|(rule, (before, after))| ran(rule) && (*before > 0) != (*after > 0))
            .map(|(rule, (before, after))| LintChange {
                rule,
                findings_before: before,
                issues_after: after,
                resolved: after == 0,
            })
            .collect()
    }
}

/// The profile a fixable finding is about and the `Disallow` line of `robots_url` its evidence
/// cites; `None` for any other finding (and for `robots/disallow-all`, a check of the file).
fn fixable<'a>(finding: &'a ReportFinding, robots_url: &str) -> Option<(&'a str, u32)> {
    let rule = finding.finding.rule.as_str();
    if !FIXABLE_RULES.contains(&rule) || rule == "robots/disallow-all" {
        return None;
    }
    let profile = deciding_profile(finding)?;
    let line = finding
        .finding
        .evidence
        .iter()
        .find_map(|evidence| match evidence {
            Evidence::RobotsRule {
                robots_url: url,
                line,
                directive,
                ..
            } if url == robots_url && directive.eq_ignore_ascii_case("disallow") => Some(*line),
            _ => None,
        })?;
    Some((profile, line))
}

/// The known URLs on `origin`, each once, in the report's (URL) order.
fn known_urls(pages: &[PageRecord], origin: &str) -> Vec<(String, String, usize)> {
    let mut seen = BTreeSet::new();
    pages
        .iter()
        .enumerate()
        .filter(|(_, page)| origin_of(&page.url).as_deref() == Some(origin))
        .filter(|(_, page)| seen.insert(page.url.as_str()))
        .map(|(index, page)| (page.url.clone(), path_params_query(&page.url), index))
        .collect()
}

/// At most [`MAX_SAMPLE_PATHS`] paths: those some audited profile may not fetch first (the
/// interesting rows), then the others.
fn sample_paths(pages: &[PageRecord], urls: &[(String, String, usize)]) -> Vec<String> {
    let refused = |page: usize| pages[page].profiles.values().any(|view| !view.allowed);
    let mut paths: Vec<String> = Vec::new();
    for wanted in [true, false] {
        for (_, path, page) in urls {
            if refused(*page) == wanted && !paths.contains(path) && paths.len() < MAX_SAMPLE_PATHS {
                paths.push(path.clone());
            }
        }
    }
    paths
}

/// The rules a URL newly refused to `profile` would likely fire, from its page record.
fn likely_rules(page: &PageRecord, profile: &str) -> Vec<&'static str> {
    let mut rules = match &*page.kind {
        "stylesheet" => vec!["robots/blocked-css"],
        "script" => vec!["robots/blocked-js"],
        "image" | "icon" => vec!["robots/blocked-image"],
        _ => Vec::new(),
    };
    if page.kind == "page" {
        if !page.in_sitemaps.is_empty() {
            rules.push("sitemap/url-blocked");
        }
        if page.profiles.get(profile).is_some_and(|view| view.noindex) {
            rules.push("robots/blocked-noindex");
        }
    }
    if rules.is_empty() {
        rules.push("diff/newly-blocked");
    }
    rules
}

/// The draft against the report's robots.txt of one origin.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ReportCheck {
    pub origin: String,
    pub robots_url: String,
    /// What the audit's verdicts came from: `rules` (the file, listed whole in the report),
    /// `allow-all` / `disallow-all` (the fetch outcome decided), `unlisted` (the report lists
    /// only part of the file: no flip can be computed).
    pub baseline: &'static str,
    /// The fetch outcome in words.
    pub baseline_reason: String,
    /// Known URLs compared.
    pub urls: usize,
    /// Per audited profile.
    pub profiles: Vec<ProfileCount>,
    /// The first [`MAX_FLIPS_LISTED`] flips, URL by URL, profiles in report order.
    pub flips: Vec<FlipLine>,
    pub flips_total: u64,
    /// Findings the draft would resolve (the first [`MAX_FLIPS_LISTED`]).
    pub resolved: Vec<ResolvedFinding>,
    pub resolved_total: usize,
    /// URLs the draft newly refuses, with the findings they would likely bring (the first
    /// [`MAX_FLIPS_LISTED`]).
    pub created: Vec<CreatedFinding>,
    pub created_total: usize,
    /// The file's own checks that appear or disappear.
    pub lint: Vec<LintChange>,
}

/// Flips for one audited profile.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ProfileCount {
    pub profile: String,
    /// Its display name.
    pub label: String,
    pub urls: usize,
    /// Allowed by the report's robots.txt, disallowed by the draft.
    pub newly_disallowed: u64,
    /// Disallowed by the report's robots.txt, allowed by the draft.
    pub newly_allowed: u64,
}

/// One verdict of a flip, and what decided it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FlipSide {
    pub allowed: bool,
    /// The deciding rule and its line, when a rule decided.
    pub decided_by: Option<Decided>,
    /// In words: `disallowed (line 7: Disallow: /shop)`, `allowed (no rule)`, `disallowed
    /// (robots.txt unreachable)`.
    pub reason: String,
}

impl FlipSide {
    fn of(decision: &Decision<'_>, lines: &[String]) -> FlipSide {
        FlipSide {
            allowed: decision.allowed,
            decided_by: match decision.decided_by {
                Decider::Rule(rule) => Some(Decided::new(
                    rule.line,
                    format!("{}: {}", rule.directive, rule.pattern),
                    lines,
                )),
                Decider::NoRule | Decider::FetchOutcome => None,
            },
            reason: decision.to_string(),
        }
    }
}

/// A URL whose verdict flips for a profile.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FlipLine {
    pub url: String,
    pub profile: String,
    /// With the report's robots.txt.
    pub before: FlipSide,
    /// With the draft.
    pub after: FlipSide,
}

/// A finding the draft would resolve.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ResolvedFinding {
    pub rule: String,
    pub url: String,
    pub profile: String,
    pub severity: &'static str,
    /// The URL robots.txt refused (the finding's, or the one its evidence names).
    pub refused_url: String,
    pub before: FlipSide,
    pub after: FlipSide,
}

/// A URL the draft newly refuses, and the findings it would likely bring.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CreatedFinding {
    pub url: String,
    pub profile: String,
    /// Likely rule ids (see the crate's docs).
    pub rules: Vec<&'static str>,
    pub after: FlipSide,
}

/// A check of the file itself that appears or disappears.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LintChange {
    pub rule: &'static str,
    /// Its findings on this robots.txt in the report.
    pub findings_before: u64,
    /// The draft's issues of the rule.
    pub issues_after: u64,
    /// Gone with the draft (else: new with it).
    pub resolved: bool,
}
