//! Suggested robots.txt fixes: for the findings a robots.txt edit resolves, the smallest edit
//! of the file as read, as a unified diff, proven over every URL the audit knows with the
//! robots diff engine ([`crawlgate_core::robots::suggest`]).
//!
//! Each finding of a [`FIXABLE_RULES`] rule names the `Disallow` rule that refuses a URL (its
//! `robots_rule` evidence); that URL, for the finding's profile, is a target. For
//! `robots/disallow-all` the targets are every known URL of the origin the rule refuses. The
//! engine proposes one edit per refusing rule; the report keeps each with the findings it
//! resolves, its own diff and proof, and the diff and proof of all of them together. A finding
//! whose URL is refused by the fetch outcome (robots.txt unreachable) is counted apart: no edit
//! of the file resolves it.

use crate::model::Report;
use crawlgate_core::finding::Evidence;
use crawlgate_core::robots::path_params_query;
use crawlgate_core::robots::suggest::{self, Edit, Proof, ProposalKind, Target};
use crawlgate_core::signals::Profile;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};
use url::Url;

/// The rules whose findings a robots.txt edit can resolve: each reports a URL that robots.txt
/// refuses and that should be crawlable.
pub const FIXABLE_RULES: [&str; 11] = [
    "canonical/target-blocked",
    "robots/blocked-canonicalised",
    "robots/blocked-css",
    "robots/blocked-image",
    "robots/blocked-js",
    "robots/blocked-noindex",
    "robots/disallow-all",
    "robots/redirect-to-blocked",
    "sitemap/blocked-by-robots",
    "sitemap/image-blocked",
    "sitemap/url-blocked",
];

/// Lines of context around each change in a suggested diff.
const DIFF_CONTEXT: usize = 2;

/// The suggested robots.txt fixes of a report.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RobotsSuggestions {
    /// One per robots.txt with something to change, by URL.
    pub files: Vec<FileSuggestion>,
    /// Findings no edit of the file resolves (its fetch outcome refuses everything), per
    /// robots.txt URL.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub not_by_edit: Vec<NotByEdit>,
    /// robots.txt files with findings to resolve whose body was not at hand, by URL.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unread: Vec<String>,
}

impl RobotsSuggestions {
    /// Nothing suggested and nothing counted.
    pub fn is_empty(&self) -> bool {
        self.files.is_empty() && self.not_by_edit.is_empty() && self.unread.is_empty()
    }
}

/// The edits suggested for one robots.txt.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileSuggestion {
    pub robots_url: String,
    /// The crawlers the proof compared: the audited profiles and those findings name.
    pub profiles: Vec<String>,
    /// Every edit applied, as a unified diff of the file as read.
    pub diff: String,
    /// The proof of all edits together.
    pub proof: ProofRecord,
    /// One per refusing rule, in line order.
    pub edits: Vec<SuggestedEdit>,
}

impl FileSuggestion {
    /// `body` (the file as read) with every edit applied.
    pub fn suggested_body(&self, body: &[u8]) -> Vec<u8> {
        let changes: Vec<Edit> = self
            .edits
            .iter()
            .flat_map(|edit| edit.changes.iter().cloned())
            .collect();
        suggest::apply(body, &changes)
    }
}

/// One edit: what it changes, the findings it resolves, its diff and its proof.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SuggestedEdit {
    /// The refusing rule, as `line N: Disallow: pattern`.
    pub rule: String,
    /// `remove_rule`, `allow_extensions` or `allow_exact`.
    pub kind: String,
    /// What the edit does, in words.
    pub summary: String,
    /// The line edits (line numbers of the file as read).
    pub changes: Vec<Edit>,
    /// This edit alone, as a unified diff.
    pub diff: String,
    /// The findings it resolves: `rule`, `url`, `profile`.
    pub resolves: Vec<ResolvedFinding>,
    pub proof: ProofRecord,
}

/// A finding an edit resolves.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct ResolvedFinding {
    pub rule: String,
    pub url: String,
    pub profile: String,
}

/// What an edit changes over the known URLs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProofRecord {
    /// URLs compared, and crawlers each.
    pub urls: u64,
    /// Refused URLs the edit frees, as intended (URL × crawler).
    pub intended: u64,
    /// Every other verdict it changes (URL × crawler): zero when the edit is exact.
    pub other: u64,
    /// The edit frees every target and changes nothing else.
    pub exact: bool,
    /// The first flips of each kind, intended first.
    pub flips: Vec<FlipRecord>,
    /// Targets it leaves refused, as `URL (profile)`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub still_refused: Vec<String>,
}

/// One URL whose verdict an edit changes for one profile.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FlipRecord {
    pub url: String,
    pub profile: String,
    pub intended: bool,
    pub before: String,
    pub after: String,
}

/// Findings of a robots.txt that no edit resolves.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct NotByEdit {
    pub robots_url: String,
    pub findings: u64,
    /// Why, in words (the fetch outcome's reason).
    pub reason: String,
}

/// One finding's part in the suggestions: which robots.txt, and which targets.
struct Fixable<'a> {
    rule: &'a str,
    url: &'a str,
    /// The finding's profile.
    profile: &'a str,
    /// The crawler whose verdict the finding reports (see [`deciding_profile`]).
    crawler: usize,
    line: u32,
    /// Paths on the robots.txt's origin.
    paths: Vec<String>,
}

/// The suggested fixes for `report`'s findings. `body_of` gives each robots.txt's body as read
/// (by robots.txt URL); a file it has no body for gets no suggestion.
pub fn suggest_robots_fixes(
    report: &Report,
    body_of: &dyn Fn(&str) -> Option<Vec<u8>>,
) -> RobotsSuggestions {
    let mut by_file: BTreeMap<&str, Vec<&crate::ReportFinding>> = BTreeMap::new();
    let mut not_by_edit: BTreeMap<&str, (u64, &str)> = BTreeMap::new();
    for finding in &report.findings {
        let finding_rule = finding.finding.rule.as_str();
        if !FIXABLE_RULES.contains(&finding_rule) || finding.finding.profile.is_none() {
            continue;
        }
        let decided = finding.finding.evidence.iter().find_map(|e| match e {
            Evidence::RobotsRule {
                robots_url,
                directive,
                ..
            } if directive.eq_ignore_ascii_case("disallow") => Some(Ok(robots_url.as_str())),
            Evidence::RobotsFetch {
                robots_url, detail, ..
            } => Some(Err((robots_url.as_str(), detail.as_str()))),
            _ => None,
        });
        match decided {
            Some(Ok(robots_url)) => by_file.entry(robots_url).or_default().push(finding),
            Some(Err((robots_url, reason))) => {
                not_by_edit.entry(robots_url).or_insert((0, reason)).0 += 1;
            }
            None => {}
        }
    }
    let mut unread = Vec::new();
    let files = by_file
        .into_iter()
        .filter_map(|(robots_url, findings)| {
            let Some(body) = body_of(robots_url) else {
                unread.push(robots_url.to_owned());
                return None;
            };
            file_suggestion(report, robots_url, &body, &findings)
        })
        .collect();
    RobotsSuggestions {
        files,
        unread,
        not_by_edit: not_by_edit
            .into_iter()
            .map(|(robots_url, (findings, reason))| NotByEdit {
                robots_url: robots_url.to_owned(),
                findings,
                reason: reason.to_owned(),
            })
            .collect(),
    }
}

/// The profile whose robots.txt verdict a finding reports: its own, but Google's image crawler
/// for `robots/blocked-image`, which is reported under the audited Google profile.
pub fn deciding_profile(finding: &crate::ReportFinding) -> Option<&str> {
    let profile = finding.finding.profile.as_deref()?;
    Some(if finding.finding.rule == "robots/blocked-image" {
        "googlebot-image"
    } else {
        profile
    })
}

fn origin_of(url: &str) -> Option<String> {
    Url::parse(url)
        .ok()
        .map(|u| u.origin().ascii_serialization())
}

/// Every URL the report knows on `origin`: pages, assets, sitemaps, final URLs of redirects.
fn known_paths(report: &Report, origin: &str) -> BTreeSet<String> {
    let mut paths = BTreeSet::new();
    let mut add = |url: &str| {
        if origin_of(url).as_deref() == Some(origin) {
            paths.insert(path_params_query(url));
        }
    };
    for page in &report.pages {
        add(&page.url);
        if let Some(final_url) = page.final_url.as_deref() {
            add(final_url);
        }
    }
    for sitemap in &report.sitemaps {
        add(&sitemap.url);
    }
    paths
}

/// The URLs a finding's evidence names that robots.txt may refuse: the finding's own, then the
/// canonical target, the redirect's end, the asset, the sitemap entry.
pub fn named_urls(finding: &crate::ReportFinding) -> Vec<&str> {
    let mut urls = vec![finding.finding.url.as_str()];
    for evidence in &finding.finding.evidence {
        match evidence {
            Evidence::Canonical { href, .. } => urls.push(href),
            Evidence::Redirect { final_url, .. } => urls.push(final_url),
            Evidence::AssetRef { asset, .. } => urls.push(asset),
            Evidence::SitemapEntry { loc, .. } => urls.push(loc),
            _ => {}
        }
    }
    urls
}

/// One robots.txt under suggestion: its origin, the audited profiles (plus those that decide a
/// finding's verdict) and their group chains, and the parsed file.
struct FileContext<'a> {
    origin: String,
    profiles: Vec<&'a str>,
    chains: Vec<Vec<String>>,
}

impl<'a> FileContext<'a> {
    fn new(
        report: &'a Report,
        robots_url: &str,
        findings: &[&'a crate::ReportFinding],
    ) -> Option<Self> {
        let origin = origin_of(robots_url)?;
        let mut profiles: BTreeSet<&str> =
            report.target.profiles.iter().map(String::as_str).collect();
        profiles.extend(findings.iter().filter_map(|f| deciding_profile(f)));
        let profiles: Vec<&str> = profiles.into_iter().collect();
        let chains = profiles
            .iter()
            .map(|name| Profile::named(name).robots_tokens)
            .collect();
        Some(Self {
            origin,
            profiles,
            chains,
        })
    }

    fn crawler_of(&self, profile: &str) -> Option<usize> {
        self.profiles.iter().position(|p| *p == profile)
    }

    /// The findings an edit could resolve, each with the paths on this origin that the cited line
    /// refuses for the deciding crawler.
    fn fixables(
        &self,
        agents: &[crawlgate_core::robots::AgentRules<'_>],
        known: &BTreeSet<String>,
        findings: &[&'a crate::ReportFinding],
    ) -> Vec<Fixable<'a>> {
        findings
            .iter()
            .filter_map(|finding| {
                let profile = finding.finding.profile.as_deref()?;
                let crawler = self.crawler_of(deciding_profile(finding)?)?;
                let line = finding.finding.evidence.iter().find_map(|e| match e {
                    Evidence::RobotsRule { line, .. } => Some(*line),
                    _ => None,
                })?;
                let refused_by_line = |path: &str| {
                    agents[crawler]
                        .deciding_rule(path)
                        .is_some_and(|rule| rule.line == line)
                };
                let paths: Vec<String> = if finding.finding.rule == "robots/disallow-all" {
                    known
                        .iter()
                        .filter(|p| refused_by_line(p))
                        .cloned()
                        .collect()
                } else {
                    named_urls(finding)
                        .into_iter()
                        .filter(|url| origin_of(url).as_deref() == Some(self.origin.as_str()))
                        .map(path_params_query)
                        .find(|path| refused_by_line(path))
                        .into_iter()
                        .collect()
                };
                Some(Fixable {
                    rule: &finding.finding.rule,
                    url: &finding.finding.url,
                    profile,
                    crawler,
                    line,
                    paths,
                })
            })
            .filter(|fixable| !fixable.paths.is_empty())
            .collect()
    }

    fn record(&self, proof: &Proof, targets: &[Target<'_>]) -> ProofRecord {
        let origin = &self.origin;
        ProofRecord {
            urls: proof.compared / self.profiles.len().max(1) as u64,
            intended: proof.intended,
            other: proof.other,
            exact: proof.is_exact(),
            flips: proof
                .listed
                .iter()
                .map(|flip| FlipRecord {
                    url: format!("{origin}{}", flip.path),
                    profile: self.profiles[flip.crawler].to_owned(),
                    intended: flip.intended,
                    before: flip.before.clone(),
                    after: flip.after.clone(),
                })
                .collect(),
            still_refused: proof
                .still_refused
                .iter()
                .map(|&index| {
                    let target = targets[index];
                    format!(
                        "{origin}{} ({})",
                        target.path, self.profiles[target.crawler]
                    )
                })
                .collect(),
        }
    }
}

/// The findings of `fixables` that `proposal` resolves: every refused path of theirs freed.
fn resolved_by(
    proposal: &suggest::Proposal,
    targets: &[Target<'_>],
    fixables: &[Fixable<'_>],
) -> Vec<ResolvedFinding> {
    let freed: BTreeSet<Target<'_>> = proposal
        .targets
        .iter()
        .filter(|index| !proposal.proof.still_refused.contains(index))
        .map(|&index| targets[index])
        .collect();
    let mut resolves: Vec<ResolvedFinding> = fixables
        .iter()
        .filter(|fixable| fixable.line == proposal.rule_line)
        .filter(|fixable| {
            fixable.paths.iter().all(|path| {
                freed.contains(&Target {
                    crawler: fixable.crawler,
                    path,
                })
            })
        })
        .map(|fixable| ResolvedFinding {
            rule: fixable.rule.to_owned(),
            url: fixable.url.to_owned(),
            profile: fixable.profile.to_owned(),
        })
        .collect();
    resolves.sort();
    resolves.dedup();
    resolves
}

fn file_suggestion(
    report: &Report,
    robots_url: &str,
    body: &[u8],
    findings: &[&crate::ReportFinding],
) -> Option<FileSuggestion> {
    let context = FileContext::new(report, robots_url, findings)?;
    let robots = crawlgate_core::robots::RobotsTxt::parse_fetched(body);
    let chains: Vec<Vec<&str>> = context
        .chains
        .iter()
        .map(|chain| chain.iter().map(String::as_str).collect())
        .collect();
    let crawlers: Vec<&[&str]> = chains.iter().map(Vec::as_slice).collect();
    let agents: Vec<_> = crawlers.iter().map(|chain| robots.agent(chain)).collect();
    let known = known_paths(report, &context.origin);
    let fixables = context.fixables(&agents, &known, findings);
    if fixables.is_empty() {
        return None;
    }
    let mut targets: BTreeSet<Target<'_>> = BTreeSet::new();
    for fixable in &fixables {
        let crawler = fixable.crawler;
        targets.extend(fixable.paths.iter().map(|path| Target { crawler, path }));
    }
    let targets: Vec<Target<'_>> = targets.into_iter().collect();
    let known_refs: Vec<&str> = known.iter().map(String::as_str).collect();
    let found = suggest::propose(body, &crawlers, &targets, &known_refs);
    if found.proposals.is_empty() {
        return None;
    }
    let all_edits: Vec<Edit> = found
        .proposals
        .iter()
        .flat_map(|proposal| proposal.edits.iter().cloned())
        .collect();
    let edits = found
        .proposals
        .iter()
        .map(|proposal| SuggestedEdit {
            summary: summary(
                proposal.kind,
                proposal.rule_line,
                &proposal.rule_pattern,
                &proposal.edits,
            ),
            rule: format!(
                "line {}: Disallow: {}",
                proposal.rule_line, proposal.rule_pattern
            ),
            kind: kind_name(proposal.kind).to_owned(),
            diff: unified_diff(robots_url, body, &proposal.edits),
            changes: proposal.edits.clone(),
            resolves: resolved_by(proposal, &targets, &fixables),
            proof: context.record(&proposal.proof, &targets),
        })
        .collect();
    let combined = suggest::prove_edits(body, &all_edits, &crawlers, &targets, &known_refs);
    Some(FileSuggestion {
        robots_url: robots_url.to_owned(),
        profiles: context.profiles.iter().map(|p| (*p).to_owned()).collect(),
        diff: unified_diff(robots_url, body, &all_edits),
        proof: context.record(&combined, &targets),
        edits,
    })
}

fn kind_name(kind: ProposalKind) -> &'static str {
    match kind {
        ProposalKind::RemoveRule => "remove_rule",
        ProposalKind::AllowExtensions => "allow_extensions",
        ProposalKind::AllowExact => "allow_exact",
    }
}

fn summary(kind: ProposalKind, line: u32, pattern: &str, edits: &[Edit]) -> String {
    let added = edits
        .iter()
        .filter_map(|edit| match edit {
            Edit::Insert { text, .. } => Some(format!("`{text}`")),
            Edit::Remove { .. } => None,
        })
        .collect::<Vec<_>>()
        .join(", ");
    let rule = format!("line {line} `Disallow: {pattern}`");
    match kind {
        ProposalKind::RemoveRule => format!(
            "remove {rule}: every URL it refuses becomes crawlable, those this audit did not see \
             included"
        ),
        ProposalKind::AllowExtensions => {
            format!("allow the refused files by extension before {rule}: {added}")
        }
        ProposalKind::AllowExact => {
            format!("allow exactly the refused URLs before {rule}: {added}")
        }
    }
}

/// `edits` on `body` as a unified diff (lines decoded lossily, line ends shown as `\n`).
pub fn unified_diff(robots_url: &str, body: &[u8], edits: &[Edit]) -> String {
    let text = |bytes: &[u8]| {
        let mut text = String::new();
        for line in crawlgate_core::robots::split_lines(bytes) {
            text.push_str(&String::from_utf8_lossy(line));
            text.push('\n');
        }
        text
    };
    let (old, new) = (text(body), text(&suggest::apply(body, edits)));
    similar::TextDiff::from_lines(&old, &new)
        .unified_diff()
        .context_radius(DIFF_CONTEXT)
        .header(
            &format!("{robots_url} (as read)"),
            &format!("{robots_url} (suggested)"),
        )
        .to_string()
}
