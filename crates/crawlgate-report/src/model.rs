//! The one serialisable report model. `report.json` is exactly this; HTML and Markdown templates
//! render it; SARIF and JUnit are derived from it. Bump [`SCHEMA_VERSION`] when a change breaks
//! readers.

pub use crate::page_table::PageTable;
use crate::suggest::RobotsSuggestions;
use crawlgate_core::Severity;
use crawlgate_core::crawl::CrawlMode;
use crawlgate_core::finding::{Finding, RedirectHop};
use crawlgate_core::site::CrawlStats;
use serde::{Deserialize, Serialize};
use std::borrow::Cow;
use std::collections::BTreeMap;

/// Version of the JSON schema of [`Report`].
pub const SCHEMA_VERSION: u32 = 1;

/// Everything an audit found, in the order a reader needs it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Report {
    pub schema_version: u32,
    pub tool: Tool,
    /// When the audit ran (RFC 3339), only when asked for: reports are deterministic otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub generated_at: Option<String>,
    pub target: Target,
    pub summary: Summary,
    /// The rules that fired, with their docs, in rule id order.
    pub rules: Vec<RuleDoc>,
    /// The ids of every rule that ran, fired or not, sorted (JUnit reports a passing test case
    /// for each that found nothing). Absent in reports written before it was added.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rules_checked: Vec<String>,
    /// Every finding: most severe first, then rule, URL, profile.
    pub findings: Vec<ReportFinding>,
    pub crawl: CrawlStats,
    /// robots.txt per origin, by origin.
    pub robots: Vec<RobotsReport>,
    /// Every sitemap met, by URL.
    pub sitemaps: Vec<SitemapReport>,
    /// Every known URL with its status, verdicts and directives per profile (the inventory that
    /// `crawlgate diff` compares), by URL. Held in memory, or, for an audit whose pages went
    /// to the page store, read back from it ([`PageTable`]).
    pub pages: PageTable,
    /// What changes between two audits, in a report written by `crawlgate diff` (whose findings
    /// are then the `diff/` findings).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub diff: Option<DiffSection>,
    /// robots.txt edits that resolve findings, each proven over the known URLs.
    #[serde(default, skip_serializing_if = "RobotsSuggestions::is_empty")]
    pub robots_suggestions: RobotsSuggestions,
}

/// What changes between two audits (`crawlgate diff BEFORE.json AFTER.json`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DiffSection {
    /// The start URL of the earlier audit.
    pub before: String,
    /// The start URL of the later audit.
    pub after: String,
    /// How URLs of the earlier audit were mapped onto the later one, in words, in order.
    pub url_map: Vec<String>,
    /// Pages (not assets) known to both audits, after mapping.
    pub pages_compared: u64,
    /// Pages known only to the earlier audit.
    pub pages_only_before: u64,
    /// Pages known only to the later audit.
    pub pages_only_after: u64,
    /// Audit findings that appear or disappear, per rule, in rule id order.
    pub rules: Vec<RuleChange>,
}

/// One rule's findings before and after (matched by fingerprint, URLs mapped).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RuleChange {
    pub rule: String,
    pub before: u64,
    pub after: u64,
    /// Findings only in the later audit.
    pub new: u64,
    /// Findings only in the earlier audit.
    pub fixed: u64,
    /// The URLs of the first new findings (at most [`RULE_CHANGE_URLS`]).
    pub new_urls: Vec<String>,
    /// The URLs of the first fixed findings, mapped (at most [`RULE_CHANGE_URLS`]).
    pub fixed_urls: Vec<String>,
}

/// URLs listed per rule and direction in [`RuleChange`].
pub const RULE_CHANGE_URLS: usize = 20;

/// Whether a finding was already in the baseline (`crawlgate audit --baseline`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum BaselineState {
    /// Not in the baseline: counts for `--fail-on`.
    New,
    /// In the baseline (same fingerprint, URLs mapped).
    Known,
}

/// The producing tool.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tool {
    pub name: String,
    pub version: String,
}

/// What was audited, and how.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Target {
    pub start_url: String,
    /// Crawler profiles evaluated, in order.
    pub profiles: Vec<String>,
    /// The profiles among them declared expected-blocked (`--expect-blocked`): robots.txt is
    /// meant to keep them out. Absent when none is.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub expected_blocked: Vec<String>,
    /// Whether disallowed URLs were left unfetched.
    pub obey_robots: bool,
    /// What was fetched as pages when not the pages reached by links: `list` (`--urls-from`) or
    /// `sitemap-only`. Absent for a crawl that followed links.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mode: Option<CrawlMode>,
}

impl Target {
    /// The profiles as a report lists them: `googlebot, gptbot (expected blocked)`.
    pub fn profiles_described(&self) -> String {
        self.profiles
            .iter()
            .map(|name| {
                if self.expected_blocked.contains(name) {
                    format!("{name} (expected blocked)")
                } else {
                    name.clone()
                }
            })
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// Counts for the top of a report.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Summary {
    /// Pages fetched (not assets, robots.txt or sitemaps).
    pub pages_crawled: u64,
    /// URLs known, fetched or not.
    pub urls_known: u64,
    /// Pages asked for that gave no usable response (a timeout, a refused or reset connection,
    /// a response that was not HTTP): the audit says nothing of them.
    #[serde(default)]
    pub pages_failed: u64,
    pub findings: u64,
    /// Findings per severity; every severity present, zero or not.
    pub by_severity: BTreeMap<Severity, u64>,
    /// Findings per rule id.
    pub by_rule: BTreeMap<String, u64>,
    /// Findings per rule family, then severity.
    pub by_family: BTreeMap<String, BTreeMap<Severity, u64>>,
    /// The crawl saw less than the whole site: a bound was hit or it was interrupted.
    pub partial: bool,
    pub interrupted: bool,
    /// The bounds hit, in words.
    pub bounds_hit: Vec<String>,
    /// Findings left out by configured suppressions.
    #[serde(default)]
    pub suppressed: u64,
    /// Findings a rule reported past the bound of 10,000 kept per rule, by rule id (the first in
    /// report order are kept); absent when none.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub findings_omitted: BTreeMap<String, u64>,
    /// New and known findings, when the audit was compared with a baseline.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub baseline: Option<BaselineCounts>,
}

/// Findings new and known against a baseline.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct BaselineCounts {
    pub new: u64,
    pub known: u64,
}

/// A finding as reported, with a stable fingerprint for baselines and diffs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReportFinding {
    #[serde(flatten)]
    pub finding: Finding,
    /// Stable across runs: rule id, URL, profile and a digest of the evidence.
    pub fingerprint: String,
    /// New or known, when the audit was compared with a baseline.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub baseline: Option<BaselineState>,
    /// Pieces of evidence left out past [`MAX_EVIDENCE`] (the first are kept).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub evidence_omitted: u64,
}

impl ReportFinding {
    /// A finding as reported: its evidence cut at [`MAX_EVIDENCE`] (the cut counted in
    /// `evidence_omitted`), then fingerprinted; not compared with a baseline yet.
    pub fn new(mut finding: Finding) -> ReportFinding {
        let omitted = finding.evidence.len().saturating_sub(MAX_EVIDENCE);
        finding.evidence.truncate(MAX_EVIDENCE);
        ReportFinding {
            fingerprint: crate::fingerprint::fingerprint(&finding),
            finding,
            baseline: None,
            evidence_omitted: u64::try_from(omitted).unwrap_or(u64::MAX),
        }
    }
}

/// The most evidence one finding keeps in a report. Rules quote fewer (a few samples of links,
/// sources or entries, with a note giving the full count); this bounds the rest.
pub const MAX_EVIDENCE: usize = 100;

#[allow(
    clippy::trivially_copy_pass_by_ref,
    reason = "serde's skip_serializing_if passes a reference"
)]
fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// A rule's documentation, as its `///` comment states it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RuleDoc {
    pub id: String,
    pub family: String,
    pub default_severity: Severity,
    pub summary: String,
    pub what_it_does: String,
    pub why_is_this_bad: String,
    pub example: String,
    pub how_to_fix: String,
}

/// A robots.txt as fetched, with its text for display.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RobotsReport {
    pub origin: String,
    pub url: String,
    /// Final status, when a response came.
    pub status: Option<u16>,
    pub hops: Vec<RedirectHop>,
    /// `rules`, `allow-all` or `disallow-all`.
    pub effect: String,
    pub effect_reason: String,
    /// The file read instead of the live one (`--robots-override`), when the audit asked.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub overridden_by: Option<String>,
    /// The body's first lines as received (lossily decoded), numbered from 1, when a 2xx came:
    /// at most [`MAX_LISTED_LINES`](crate::MAX_LISTED_LINES).
    pub lines: Vec<String>,
    /// Past those, the lines findings cite with two lines of context each, in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub excerpt: Vec<NumberedLine>,
    /// The body's lines, counted whole.
    #[serde(default)]
    pub lines_total: u32,
    /// Line numbers that findings point to.
    pub cited_lines: Vec<u32>,
    /// Sitemap URLs it names.
    pub sitemaps: Vec<String>,
}

/// A line of a file with its number (from 1).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct NumberedLine {
    pub number: u32,
    pub text: String,
}

/// A sitemap as met by the crawl.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SitemapReport {
    pub url: String,
    /// Where it was named, in words (`robots.txt line 3`, `index … line 12`, `--sitemap`, `probe`).
    pub sources: Vec<String>,
    pub depth: u32,
    /// `parsed`, `http-error`, `failed`, `cycle` or `not-fetched`.
    pub state: String,
    pub status: Option<u16>,
    pub final_url: Option<String>,
    /// `urlset`, `index`, `text`, `rss`, `atom`, `unknown` when parsed.
    pub kind: Option<String>,
    pub entries: u64,
    pub gzip: bool,
    pub bytes_uncompressed: u64,
    /// Document issues found (each is also a finding).
    pub issues: u64,
    /// Failure or skip reason, in words.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
}

/// One known URL: what the crawl saw and what each profile makes of it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PageRecord {
    pub url: String,
    /// `page`, or the asset kind (`stylesheet`, `script`, `image`, `icon`).
    pub kind: Cow<'static, str>,
    pub depth: Option<u32>,
    /// `fetched`, `redirected`, `failed` or `not-fetched`.
    pub state: Cow<'static, str>,
    /// Final status (after redirects), when a response came.
    pub status: Option<u16>,
    /// Where redirects led.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub final_url: Option<Box<str>>,
    /// Failure or skip reason, in words.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub detail: Option<Box<str>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content_type: Option<Box<str>>,
    /// The effective canonical target, when declared (in head or header).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub canonical: Option<Box<str>>,
    /// When the page last changed, from its `Last-Modified` header as a W3C datetime
    /// (`2019-02-04T10:00:00Z`): the `<lastmod>` of generated sitemaps. Absent when the page
    /// sent none or one that is no HTTP date.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_modified: Option<Box<str>>,
    /// Its effective hreflang alternates (in `<head>` or a `Link` header, resolved to absolute
    /// URLs), sorted, each once, at most [`MAX_ALTERNATES`]: the `<xhtml:link>`s of generated
    /// sitemaps (`sitemap generate --hreflang`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub alternates: Vec<Alternate>,
    /// The page declared more than [`MAX_ALTERNATES`] alternates; `alternates` has the first.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub alternates_cut: bool,
    /// Sitemaps listing it.
    pub in_sitemaps: Vec<String>,
    /// Followed internal links pointing at it.
    pub inbound_links: u32,
    /// Per profile name.
    pub profiles: ProfileViews,
    /// What the page became in headless Chromium (`--render`), beside its raw HTML.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rendered: Option<Box<RenderedRecord>>,
}

/// hreflang alternates kept per page record: more languages than any real site serves from
/// one page, few enough that a hostile page cannot grow the report by much.
pub const MAX_ALTERNATES: usize = 300;

/// One language alternate of a page.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Alternate {
    /// The `hreflang` value as written (`en-GB`, `x-default`).
    pub hreflang: String,
    /// The alternate's absolute URL.
    pub href: String,
}

/// A rendered page: its signals before and after its scripts ran, and how rendering went.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RenderedRecord {
    /// `settled`, `timed-out` or `failed`.
    pub outcome: String,
    /// Why rendering failed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failure: Option<String>,
    /// The raw HTML's signals (as the crawl read them).
    pub raw: PageSignals,
    /// The rendered DOM's signals.
    pub rendered: PageSignals,
    /// Link targets only in the rendered DOM: the first few, and how many.
    pub links_added: Vec<String>,
    pub links_added_count: u32,
    /// Length of the rendered body's text.
    pub text_length: u64,
    /// The same with the requests robots.txt refused served (rendered again to measure it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text_length_unblocked: Option<u64>,
    /// Requests the page made while rendering, and whether the per-page bound cut them.
    pub requests: u32,
    pub requests_cut: bool,
    /// Requests robots.txt kept from the page: the first few URLs, and how many.
    pub blocked: Vec<String>,
    pub blocked_count: u32,
    /// Script errors (uncaught exceptions, `console.error`), and the first one.
    pub errors: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first_error: Option<String>,
}

/// The signals of one version of a page that rendering can change.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PageSignals {
    /// The document's title.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// The first effective canonical's target.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub canonical: Option<String>,
    /// Effective robots rules per audited profile, as words (`noindex`, `nofollow`, …).
    pub robots: BTreeMap<String, Vec<String>>,
    /// hreflang alternates declared.
    pub hreflang: u32,
    /// Distinct `<a href>` links (raw: as the crawl counted them before recording them).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub links: Option<u32>,
}

/// Each profile's view of a URL, by profile name, sorted by name; written as a JSON object.
/// A sorted list, not a `BTreeMap`: a map's first node reserves room for eleven entries, and a
/// report holds one of these per known URL.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ProfileViews(Vec<(String, ProfileView)>);

impl ProfileViews {
    /// The view of profile `name`.
    pub fn get(&self, name: &str) -> Option<&ProfileView> {
        self.0
            .binary_search_by(|(known, _)| known.as_str().cmp(name))
            .ok()
            .map(|at| &self.0[at].1)
    }

    /// Sets the view of profile `name`, replacing one it had.
    pub fn insert(&mut self, name: String, view: ProfileView) {
        match self.0.binary_search_by(|(known, _)| known.cmp(&name)) {
            Ok(at) => self.0[at].1 = view,
            Err(at) => self.0.insert(at, (name, view)),
        }
    }

    /// `(name, view)` in name order.
    pub fn iter(&self) -> impl Iterator<Item = (&String, &ProfileView)> {
        self.0.iter().map(|(name, view)| (name, view))
    }

    /// The views, in name order.
    pub fn values(&self) -> impl Iterator<Item = &ProfileView> {
        self.0.iter().map(|(_, view)| view)
    }

    /// The views, in name order, to change.
    pub fn values_mut(&mut self) -> impl Iterator<Item = &mut ProfileView> {
        self.0.iter_mut().map(|(_, view)| view)
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl FromIterator<(String, ProfileView)> for ProfileViews {
    fn from_iter<I: IntoIterator<Item = (String, ProfileView)>>(items: I) -> Self {
        let mut views = ProfileViews::default();
        for (name, view) in items {
            views.insert(name, view);
        }
        views.0.shrink_to_fit();
        views
    }
}

impl<'a> IntoIterator for &'a ProfileViews {
    type Item = (&'a String, &'a ProfileView);
    type IntoIter = std::iter::Map<
        std::slice::Iter<'a, (String, ProfileView)>,
        fn(&'a (String, ProfileView)) -> (&'a String, &'a ProfileView),
    >;

    fn into_iter(self) -> Self::IntoIter {
        self.0.iter().map(|(name, view)| (name, view))
    }
}

impl std::ops::Index<&str> for ProfileViews {
    type Output = ProfileView;

    fn index(&self, name: &str) -> &ProfileView {
        self.get(name)
            .unwrap_or_else(|| panic!("no view for profile `{name}`"))
    }
}

impl Serialize for ProfileViews {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_map(self.iter())
    }
}

impl<'de> Deserialize<'de> for ProfileViews {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Ok(BTreeMap::<String, ProfileView>::deserialize(deserializer)?
            .into_iter()
            .collect())
    }
}

/// How one crawler profile sees a URL.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProfileView {
    pub allowed: bool,
    /// The deciding robots.txt rule as `line N: Directive: pattern`, when a rule decided.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub robots_rule: Option<String>,
    /// Effective directives when the page was fetched: `noindex`, `nofollow`, `nosnippet`,
    /// `max-snippet:N`, … sorted.
    pub directives: Vec<String>,
    pub noindex: bool,
    pub indexable: bool,
    /// Why the profile's search engine would not index it, in words (`disallowed by robots.txt
    /// (line 3: Disallow: /private/)`, `answers HTTP 404`, `noindex`, `canonical points to …`),
    /// when it would not. Absent in reports written before it was added.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub why_not: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn view(indexable: bool) -> ProfileView {
        ProfileView {
            allowed: true,
            robots_rule: None,
            directives: Vec::new(),
            noindex: false,
            indexable,
            why_not: None,
        }
    }

    #[test]
    fn profile_views_read_and_write_as_the_map_they_replace() {
        let views: ProfileViews = [
            ("gptbot".to_owned(), view(false)),
            ("bingbot".to_owned(), view(true)),
            ("googlebot".to_owned(), view(true)),
        ]
        .into_iter()
        .collect();
        let map: BTreeMap<String, ProfileView> = views
            .iter()
            .map(|(name, view)| (name.clone(), view.clone()))
            .collect();
        let json = serde_json::to_string(&views).unwrap();
        assert_eq!(json, serde_json::to_string(&map).unwrap());
        assert_eq!(serde_json::from_str::<ProfileViews>(&json).unwrap(), views);
        let names: Vec<&String> = views.iter().map(|(name, _)| name).collect();
        assert_eq!(names, ["bingbot", "googlebot", "gptbot"]);
        assert!(!views["gptbot"].indexable);
        assert!(views.get("other").is_none());
    }
}
