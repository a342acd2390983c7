//! Building a [`Report`] from an audited site and its findings.

use crate::model::{
    Alternate, MAX_ALTERNATES, NumberedLine, PageRecord, PageSignals, PageTable, ProfileView,
    RenderedRecord, Report, ReportFinding, RobotsReport, RuleDoc, SCHEMA_VERSION, SitemapReport,
    Summary, Target, Tool,
};
use crate::suggest::{RobotsSuggestions, suggest_robots_fixes};
use crawlgate_core::finding::Evidence;
use crawlgate_core::signals::{Directives, RobotsRule, Signals};
use crawlgate_core::site::robots_file::split_lines as robots_split_lines;
use crawlgate_core::site::{
    FetchedPage, Indexability, NotIndexable, RenderOutcome, Resource, ResourceKind, ResourceState,
    RobotsFile, SitemapFile, SitemapSource, SitemapState,
};
use crawlgate_core::{Finding, RuleMeta, Severity, Site};
use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet};

/// Options for [`build`].
#[derive(Debug, Clone, Default)]
pub struct BuildOptions {
    /// The producing tool's version (the CLI passes its own).
    pub tool_version: String,
    /// When the audit ran, RFC 3339; only set when the user asks (reports are deterministic
    /// otherwise).
    pub generated_at: Option<String>,
}

/// Build the report: findings sorted, counts, the docs of the rules that fired, the ids of all
/// `rules` (the rules that ran), robots.txt and sitemaps as met, and the per-URL inventory.
pub fn build(
    site: &Site,
    findings: Vec<Finding>,
    rules: &[&RuleMeta],
    options: &BuildOptions,
) -> Report {
    let mut report = build_without_pages(site, findings, rules, options);
    report.pages = site
        .resources()
        .iter()
        .map(|r| page_record(site, r))
        .collect();
    report.crawl.page_store_read_error = site.page_store_error().map(str::to_owned);
    with_robots_suggestions(report, site)
}

/// [`build`], taking the site: each resource is dropped once its page record is made, so the
/// site's records and the report's are never all held at once (on a large crawl each is most of
/// the memory). When the site's pages went to its page store, the page records go there too
/// ([`PageTable::in_store`]) and the report holds a key per URL. The same report.
pub fn build_owned(
    mut site: Site,
    findings: Vec<Finding>,
    rules: &[&RuleMeta],
    options: &BuildOptions,
) -> Report {
    let mut report = build_without_pages(&site, findings, rules, options);
    let store = site
        .page_store()
        .filter(|_| site.stats.pages_stored > 0)
        .cloned();
    let (resources, ranks) = site.take_resources_ranked();
    report.pages = match store {
        Some(store) => {
            let mut pages = PageTable::in_store(store);
            for resource in resources {
                if let Err(error) = pages.push(page_record(&site, &resource)) {
                    report
                        .crawl
                        .page_store_write_error
                        .get_or_insert_with(|| format!("the report's page records: {error}"));
                }
            }
            pages
        }
        None => records_in_memory(&site, resources, &ranks).into(),
    };
    let mut report = with_robots_suggestions(report, &site);
    // A page the rules could not read, or a record of the report's own.
    report.crawl.page_store_read_error = site
        .page_store_error()
        .or(report.pages.read_error())
        .map(str::to_owned);
    report
}

/// The page records of `resources` (in URL order), each resource dropped once its record is
/// made, in the order the crawl found them (`ranks`, the order their memory was taken in,
/// which gives it back in whole blocks); the records in URL order.
fn records_in_memory(site: &Site, resources: Vec<Resource>, ranks: &[u32]) -> Vec<PageRecord> {
    let mut at_rank = vec![0u32; ranks.len()];
    for (at, &rank) in ranks.iter().enumerate() {
        if let Some(slot) = at_rank.get_mut(rank as usize) {
            *slot = u32::try_from(at).unwrap_or(u32::MAX);
        }
    }
    let mut resources: Vec<Option<Resource>> = resources.into_iter().map(Some).collect();
    let mut pages: Vec<PageRecord> = Vec::with_capacity(resources.len());
    for &at in &at_rank {
        if let Some(resource) = resources.get_mut(at as usize).and_then(Option::take) {
            pages.push(page_record(site, &resource));
        }
    }
    drop(resources);
    // `pages[k]` belongs at `at_rank[k]`.
    for start in 0..pages.len() {
        while at_rank[start] as usize != start {
            let to = at_rank[start] as usize;
            pages.swap(start, to);
            at_rank.swap(start, to);
        }
    }
    pages
}

/// The robots.txt edits that would resolve the report's findings, proven over its pages.
fn with_robots_suggestions(mut report: Report, site: &Site) -> Report {
    report.robots_suggestions = suggest_robots_fixes(&report, &|robots_url| {
        site.robots
            .values()
            .find(|file| file.url.as_str() == robots_url)
            .and_then(|file| file.body())
            .map(<[u8]>::to_vec)
    });
    report
}

/// Everything [`build`] makes but the page records and the robots.txt suggestions.
fn build_without_pages(
    site: &Site,
    findings: Vec<Finding>,
    rules: &[&RuleMeta],
    options: &BuildOptions,
) -> Report {
    let mut findings = findings;
    findings.sort_by(Finding::report_order);
    let fired: BTreeSet<&str> = findings.iter().map(|f| f.rule.as_str()).collect();
    let mut rule_docs: Vec<RuleDoc> = rules
        .iter()
        .filter(|meta| fired.contains(meta.id))
        .map(|meta| rule_doc(meta))
        .collect();
    rule_docs.sort_by(|a, b| a.id.cmp(&b.id));
    rule_docs.dedup_by(|a, b| a.id == b.id);
    let rules_checked: BTreeSet<String> = rules.iter().map(|meta| meta.id.to_owned()).collect();

    let summary = summary(site, &findings);
    let robots = site
        .robots
        .values()
        .map(|file| robots_report(file, &findings))
        .collect();
    let sitemaps = site.sitemaps.iter().map(sitemap_report).collect();
    let findings = findings.into_iter().map(ReportFinding::new).collect();
    Report {
        schema_version: SCHEMA_VERSION,
        tool: Tool {
            name: "crawlgate".to_owned(),
            version: options.tool_version.clone(),
        },
        generated_at: options.generated_at.clone(),
        target: Target {
            start_url: site.start_url.to_string(),
            profiles: site.profiles.iter().map(|p| p.name.clone()).collect(),
            expected_blocked: site
                .profiles
                .iter()
                .filter(|p| site.expected_blocked.contains(&p.name))
                .map(|p| p.name.clone())
                .collect(),
            obey_robots: site.obey_robots,
            mode: (!site.mode.follows_links()).then_some(site.mode),
        },
        summary,
        rules: rule_docs,
        rules_checked: rules_checked.into_iter().collect(),
        findings,
        crawl: site.stats.clone(),
        robots,
        sitemaps,
        pages: PageTable::default(),
        diff: None,
        robots_suggestions: RobotsSuggestions::default(),
    }
}

/// A rule's docs split into their sections.
pub fn rule_doc(meta: &RuleMeta) -> RuleDoc {
    let section = |name: &str| meta.doc_section(name).unwrap_or_default();
    RuleDoc {
        id: meta.id.to_owned(),
        family: meta.family().to_owned(),
        default_severity: meta.default_severity,
        summary: meta.summary.to_owned(),
        what_it_does: section("What it does"),
        why_is_this_bad: section("Why is this bad?"),
        example: section("Example"),
        how_to_fix: section("How to fix"),
    }
}

/// Findings counted by severity (every severity present, zero or not), by rule, and by family
/// and severity: the counts of a [`Summary`].
#[allow(clippy::struct_field_names)] // the names of the Summary fields they fill
pub struct Tally {
    pub by_severity: BTreeMap<Severity, u64>,
    pub by_rule: BTreeMap<String, u64>,
    pub by_family: BTreeMap<String, BTreeMap<Severity, u64>>,
}

impl Tally {
    /// The counts of `findings`.
    pub fn of(findings: &[Finding]) -> Self {
        let mut tally = Tally {
            by_severity: Severity::ALL.iter().map(|s| (*s, 0)).collect(),
            by_rule: BTreeMap::new(),
            by_family: BTreeMap::new(),
        };
        for finding in findings {
            *tally.by_severity.entry(finding.severity).or_default() += 1;
            *tally.by_rule.entry(finding.rule.clone()).or_default() += 1;
            *tally
                .by_family
                .entry(finding.family().to_owned())
                .or_default()
                .entry(finding.severity)
                .or_default() += 1;
        }
        tally
    }
}

fn summary(site: &Site, findings: &[Finding]) -> Summary {
    let Tally {
        by_severity,
        by_rule,
        by_family,
    } = Tally::of(findings);
    Summary {
        pages_crawled: site.stats.pages_fetched,
        urls_known: site.resources().len() as u64,
        pages_failed: site
            .resources()
            .iter()
            .filter(|r| {
                r.kind == ResourceKind::Page && matches!(r.state, ResourceState::Failed { .. })
            })
            .count() as u64,
        findings: findings.len() as u64,
        by_severity,
        by_rule,
        by_family,
        partial: site.stats.is_partial(),
        interrupted: site.stats.interrupted,
        bounds_hit: site
            .stats
            .bounds_hit
            .iter()
            .map(ToString::to_string)
            .collect(),
        suppressed: 0,
        findings_omitted: BTreeMap::new(),
        baseline: None,
    }
}

/// A robots.txt line is shown up to this many characters, then cut with `…`: a padded or minified
/// line (half a megabyte of spaces, an HTML page on one line) would otherwise fill the report.
const MAX_SHOWN_LINE_CHARS: usize = 1_000;

/// Lines of a robots.txt listed in full in a report ([`RobotsReport::lines`]).
pub const MAX_LISTED_LINES: usize = 1_000;

/// Lines shown around each cited line past [`MAX_LISTED_LINES`].
const EXCERPT_CONTEXT: u32 = 2;

/// A robots.txt line as the report shows it: cut after [`MAX_SHOWN_LINE_CHARS`].
fn shown_line(line: &str) -> String {
    match line.char_indices().nth(MAX_SHOWN_LINE_CHARS) {
        Some((at, _)) => format!("{}…", &line[..at]),
        None => line.to_owned(),
    }
}

impl RobotsReport {
    /// The body rebuilt from the listed lines (ended with `\n`), when they are all of it as
    /// received: a robots.txt of more than [`MAX_LISTED_LINES`] lines, with a line longer than
    /// the report shows, or with bytes that are not UTF-8 (listed as U+FFFD) is not wholly in
    /// the report.
    pub fn listed_body(&self) -> Option<Vec<u8>> {
        let whole = self.excerpt.is_empty()
            && self.lines.len() == self.lines_total as usize
            && self.lines.iter().all(|line| {
                line.chars().nth(MAX_SHOWN_LINE_CHARS).is_none() && !line.contains('\u{FFFD}')
            });
        whole.then(|| {
            self.lines
                .iter()
                .flat_map(|line| line.bytes().chain(std::iter::once(b'\n')))
                .collect()
        })
    }
}

fn robots_report(file: &RobotsFile, findings: &[Finding]) -> RobotsReport {
    let robots_url = file.url.as_str();
    let mut cited: BTreeSet<u32> = BTreeSet::new();
    for evidence in findings.iter().flat_map(|f| &f.evidence) {
        match evidence {
            Evidence::RobotsRule {
                robots_url: u,
                line,
                ..
            }
            | Evidence::RobotsLine {
                robots_url: u,
                line,
                ..
            } if u == robots_url => {
                cited.insert(*line);
            }
            _ => {}
        }
    }
    let mut lines = Vec::new();
    let mut excerpt = Vec::new();
    let mut lines_total = 0;
    if let Ok(received) = &file.outcome
        && (200..300).contains(&received.status)
    {
        // The first lines in full; past them only the cited lines and their context, so a
        // robots.txt of a million blank lines makes a report of a thousand.
        let near_cited = |number: u32| {
            cited
                .range(
                    number.saturating_sub(EXCERPT_CONTEXT)..=number.saturating_add(EXCERPT_CONTEXT),
                )
                .next()
                .is_some()
        };
        for (number, line) in (1u32..).zip(robots_split_lines(&received.body)) {
            lines_total = number;
            if lines.len() < MAX_LISTED_LINES {
                lines.push(shown_line(&String::from_utf8_lossy(line)));
            } else if near_cited(number) {
                excerpt.push(NumberedLine {
                    number,
                    text: shown_line(&String::from_utf8_lossy(line)),
                });
            }
        }
    }
    RobotsReport {
        origin: file.origin.clone(),
        url: file.url.to_string(),
        status: file.status(),
        hops: file.hops.clone(),
        effect: file.effect.as_str().to_owned(),
        effect_reason: file.effect_reason.clone(),
        overridden_by: file.overridden_by.clone(),
        lines,
        excerpt,
        lines_total,
        cited_lines: cited.into_iter().collect(),
        sitemaps: file
            .parsed
            .sitemaps()
            .iter()
            .map(|s| s.url.clone())
            .collect(),
    }
}

fn sitemap_report(file: &SitemapFile) -> SitemapReport {
    let sources = file
        .sources
        .iter()
        .map(|source| match source {
            SitemapSource::RobotsTxt { robots_url, line } => format!("{robots_url} line {line}"),
            SitemapSource::Index { index_url, line } => format!("{index_url} line {line}"),
            SitemapSource::Configured => "given on the command line".to_owned(),
            SitemapSource::Probe => "found at /sitemap.xml (not in robots.txt)".to_owned(),
        })
        .collect();
    let mut report = SitemapReport {
        url: file.url.to_string(),
        sources,
        depth: file.depth,
        state: sitemap_state_name(&file.state).to_owned(),
        status: None,
        final_url: None,
        kind: None,
        entries: 0,
        gzip: false,
        bytes_uncompressed: 0,
        issues: 0,
        detail: None,
    };
    match &file.state {
        SitemapState::Parsed {
            final_url,
            status,
            summary,
            ..
        } => {
            report.status = Some(*status);
            report.final_url = Some(final_url.to_string());
            report.kind = Some(summary.kind.as_str().to_owned());
            report.entries = summary.entry_count;
            report.gzip = summary.gzip;
            report.bytes_uncompressed = summary.bytes_uncompressed;
            report.issues = summary.issues.len() as u64;
        }
        SitemapState::HttpError {
            final_url, status, ..
        } => {
            report.status = Some(*status);
            report.final_url = Some(final_url.to_string());
        }
        SitemapState::Failed { kind, message, .. } => {
            report.detail = Some(format!("{}: {message}", kind.as_str()));
        }
        SitemapState::Cycle { repeats, .. } => {
            report.detail = Some(format!("repeats {repeats}"));
        }
        SitemapState::NotFetched(reason) => {
            report.detail = Some(format!("{reason:?}"));
        }
    }
    report
}

fn sitemap_state_name(state: &SitemapState) -> &'static str {
    match state {
        SitemapState::Parsed { .. } => "parsed",
        SitemapState::HttpError { .. } => "http-error",
        SitemapState::Failed { .. } => "failed",
        SitemapState::Cycle { .. } => "cycle",
        SitemapState::NotFetched(_) => "not-fetched",
    }
}

fn page_record(site: &Site, resource: &Resource) -> PageRecord {
    let kind = match resource.kind {
        ResourceKind::Page => "page",
        ResourceKind::Asset(kind) => kind.as_str(),
    };
    let page = site.page(resource);
    let page = page.as_deref();
    let (state, status, final_url, detail, content_type) = match &resource.state {
        ResourceState::Fetched(slot) => (
            "fetched",
            Some(slot.status()),
            None,
            None,
            page.and_then(FetchedPage::content_type).map(str::to_owned),
        ),
        ResourceState::Redirected {
            final_url,
            final_status,
            ..
        } => (
            "redirected",
            *final_status,
            Some(final_url.to_string()),
            None,
            None,
        ),
        ResourceState::Failed { kind, message, .. } => (
            "failed",
            None,
            None,
            Some(format!("{}: {message}", kind.as_str())),
            None,
        ),
        ResourceState::NotFetched(reason) => (
            "not-fetched",
            None,
            None,
            Some(reason.words().to_owned()),
            None,
        ),
    };
    let canonical = page.and_then(|p| {
        p.signals
            .effective_canonicals()
            .into_iter()
            .find_map(|c| c.resolved.as_ref().map(ToString::to_string))
    });
    let profiles = site
        .profiles
        .iter()
        .enumerate()
        .map(|(index, profile)| {
            let verdict = resource.verdict(index);
            let directives = page.map(|p| p.signals.directives(profile, site.audit_time));
            let view = ProfileView {
                allowed: verdict.is_none_or(|v| v.allowed),
                robots_rule: verdict
                    .and_then(|v| v.decided_by.as_ref())
                    .map(ToString::to_string),
                directives: directives.as_ref().map(directive_words).unwrap_or_default(),
                noindex: directives.as_ref().is_some_and(Directives::is_noindex),
                indexable: false,
                why_not: None,
            };
            let view = match site.indexability_of(resource, page, index) {
                Indexability::Indexable => ProfileView {
                    indexable: true,
                    ..view
                },
                Indexability::NotIndexable(reason) => ProfileView {
                    why_not: Some(why_not_words(
                        resource,
                        &reason,
                        view.robots_rule.as_deref(),
                    )),
                    ..view
                },
            };
            (profile.name.clone(), view)
        })
        .collect();
    let (alternates, alternates_cut) = page.map(alternates).unwrap_or_default();
    PageRecord {
        url: resource.url.to_string(),
        kind: Cow::Borrowed(kind),
        depth: resource.depth,
        state: Cow::Borrowed(state),
        status,
        final_url: final_url.map(String::into_boxed_str),
        detail: detail.map(String::into_boxed_str),
        content_type: content_type.map(String::into_boxed_str),
        canonical: canonical.map(String::into_boxed_str),
        last_modified: page.and_then(last_modified).map(String::into_boxed_str),
        alternates,
        alternates_cut,
        in_sitemaps: listing_sitemaps(site, resource),
        inbound_links: resource.inbound_links.followed,
        profiles,
        rendered: page.and_then(|p| rendered_record(site, p)).map(Box::new),
    }
}

/// The page's effective hreflang alternates, sorted and each once, at most [`MAX_ALTERNATES`];
/// and whether it declared more.
fn alternates(page: &FetchedPage) -> (Vec<Alternate>, bool) {
    let all: BTreeSet<Alternate> = page
        .signals
        .effective_hreflang()
        .into_iter()
        .filter_map(|alternate| {
            Some(Alternate {
                hreflang: alternate.hreflang.clone(),
                href: alternate.resolved.as_ref()?.to_string(),
            })
        })
        .collect();
    let cut = all.len() > MAX_ALTERNATES;
    (all.into_iter().take(MAX_ALTERNATES).collect(), cut)
}

/// The page's `Last-Modified` header as a W3C datetime, when it sent a valid one.
fn last_modified(page: &FetchedPage) -> Option<String> {
    page.headers
        .first("last-modified")
        .and_then(crate::sitemap_gen::last_modified_w3c)
}

/// The sitemaps listing `resource`, sorted, each once.
fn listing_sitemaps(site: &Site, resource: &Resource) -> Vec<String> {
    site.listings(resource)
        .iter()
        .map(|l| l.sitemap.to_string())
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect()
}

/// Error text kept per rendered page in the report (the rules quote more).
const FIRST_ERROR_CHARS: usize = 300;

/// The rendered side of a page, when it was rendered.
fn rendered_record(site: &Site, page: &FetchedPage) -> Option<RenderedRecord> {
    let rendered = page.rendered.as_deref()?;
    let (outcome, failure) = match &rendered.outcome {
        RenderOutcome::Settled => ("settled", None),
        RenderOutcome::TimedOut => ("timed-out", None),
        RenderOutcome::Failed { reason } => ("failed", Some(reason.clone())),
    };
    let signals_of = |signals: &Signals, links: u32| PageSignals {
        title: signals.title.as_deref().map(str::to_owned),
        canonical: signals
            .effective_canonicals()
            .into_iter()
            .find_map(|c| c.resolved.as_ref().map(ToString::to_string)),
        robots: site
            .profiles
            .iter()
            .map(|profile| {
                let directives = signals.directives(profile, site.audit_time);
                (profile.name.clone(), directive_words(&directives))
            })
            .collect(),
        hreflang: u32::try_from(signals.hreflang.len()).unwrap_or(u32::MAX),
        links: Some(links),
    };
    Some(RenderedRecord {
        outcome: outcome.to_owned(),
        failure,
        raw: signals_of(&page.signals, rendered.raw_links),
        rendered: signals_of(&rendered.signals, rendered.rendered_links),
        links_added: rendered
            .links_added
            .iter()
            .map(ToString::to_string)
            .collect(),
        links_added_count: rendered.links_added_count,
        text_length: rendered.text_length,
        text_length_unblocked: rendered.text_length_unblocked,
        requests: rendered.requests,
        requests_cut: rendered.requests_cut,
        blocked: rendered.blocked.iter().map(|b| b.url.to_string()).collect(),
        blocked_count: rendered.blocked_count,
        errors: u32::try_from(rendered.errors.len()).unwrap_or(u32::MAX),
        first_error: rendered
            .errors
            .first()
            .map(|e| e.chars().take(FIRST_ERROR_CHARS).collect()),
    })
}

/// Why a profile's search engine would not index `resource`, in words.
fn why_not_words(resource: &Resource, reason: &NotIndexable, robots_rule: Option<&str>) -> String {
    match reason {
        NotIndexable::Disallowed => match robots_rule {
            Some(rule) => format!("disallowed by robots.txt ({rule})"),
            None => "disallowed by robots.txt".to_owned(),
        },
        NotIndexable::NotFetched => match &resource.state {
            ResourceState::Failed { kind, message, .. } => {
                format!("no response ({}: {message})", kind.as_str())
            }
            ResourceState::NotFetched(reason) => format!("not fetched: {}", reason.words()),
            ResourceState::Fetched(_) | ResourceState::Redirected { .. } => {
                "no response".to_owned()
            }
        },
        NotIndexable::Redirects => match &resource.state {
            ResourceState::Redirected { final_url, .. } => format!("redirects to {final_url}"),
            _ => "redirects".to_owned(),
        },
        NotIndexable::Status(status) => format!("answers HTTP {status}"),
        NotIndexable::Noindex => "noindex".to_owned(),
        NotIndexable::CanonicalElsewhere(target) => format!("canonical points to {target}"),
    }
}

/// The effective restrictions as short words, sorted: `noindex`, `nofollow`, `nosnippet`,
/// `max-snippet:N`, `max-image-preview:…`, `max-video-preview:N`, `noimageindex`, `notranslate`,
/// `indexifembedded`, `unavailable_after:…`.
fn directive_words(directives: &Directives) -> Vec<String> {
    let mut words = BTreeSet::new();
    for directive in &directives.rules {
        let word = match &directive.rule {
            RobotsRule::NoIndex => "noindex".to_owned(),
            RobotsRule::NoFollow => "nofollow".to_owned(),
            RobotsRule::None => {
                words.insert("nofollow".to_owned());
                "noindex".to_owned()
            }
            RobotsRule::NoSnippet => "nosnippet".to_owned(),
            RobotsRule::IndexIfEmbedded => "indexifembedded".to_owned(),
            RobotsRule::NoTranslate => "notranslate".to_owned(),
            RobotsRule::NoImageIndex => "noimageindex".to_owned(),
            RobotsRule::MaxSnippet(n) => format!("max-snippet:{n}"),
            RobotsRule::MaxImagePreview(p) => format!(
                "max-image-preview:{}",
                format!("{p:?}").to_ascii_lowercase()
            ),
            RobotsRule::MaxVideoPreview(n) => format!("max-video-preview:{n}"),
            RobotsRule::UnavailableAfter(at) => format!("unavailable_after:{at}"),
            _ => continue,
        };
        words.insert(word);
    }
    words.into_iter().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_robots_lines_are_cut_for_the_report() {
        assert_eq!(shown_line("Disallow: /a"), "Disallow: /a");
        let padded = format!("Disallow: /a{}", " ".repeat(520_000));
        let shown = shown_line(&padded);
        assert_eq!(shown.chars().count(), MAX_SHOWN_LINE_CHARS + 1);
        assert!(shown.starts_with("Disallow: /a") && shown.ends_with('…'));
    }

    #[test]
    fn rule_docs_split_into_their_own_sections() {
        static META: RuleMeta = RuleMeta {
            id: "example/doc",
            default_severity: Severity::Notice,
            summary: "An example",
            docs: concat!(
                " ## What it does\n Finds `x`.\n\n ## Why is this bad?\n It is.\n",
                " ## Example\n ```text\n x\n ```\n ## How to fix\n Remove `x`.\n",
            ),
            source: file!(),
        };
        let doc = rule_doc(&META);
        assert_eq!(doc.what_it_does, "Finds `x`.");
        assert_eq!(doc.why_is_this_bad, "It is.");
        assert_eq!(doc.example, "```text\nx\n```");
        assert_eq!(doc.how_to_fix, "Remove `x`.");
    }
}
