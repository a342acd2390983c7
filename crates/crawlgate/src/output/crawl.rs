//! What `crawlgate crawl` writes: one JSON line per resource (`--jsonl`), sorted by URL, with
//! the keys `url`, `kind`, `state`, `final_url`, `hops`, `status`, `content_type`, `bytes`,
//! `truncated`, `failure`, `not_fetched`, `depth`, `discovered_from`, `inbound_links`, `robots` (a
//! verdict per profile) and `signals`; and the text summary of a crawl.

use crawlgate_core::Site;
use crawlgate_core::crawl::CrawlMode;
use crawlgate_core::finding::RedirectHop;
use crawlgate_core::site::{
    CrawlStats, HonouredCrawlDelay, NotFetchedReason, Reference, ReferenceKind, Resource,
    ResourceKind, ResourceState, RobotsEffect,
};
use crawlgate_crawl::HttpOptions;
use serde::Serialize;
use std::collections::BTreeMap;
use std::io::{self, Write};
use std::time::Duration;

/// One JSON line.
#[derive(Debug, Serialize)]
struct Record<'a> {
    url: &'a str,
    /// `page`, or the asset kind (`stylesheet`, `script`, `image`, `icon`).
    kind: &'static str,
    /// `fetched`, `redirected`, `failed` or `not-fetched`.
    state: &'static str,
    final_url: Option<&'a str>,
    hops: &'a [RedirectHop],
    status: Option<u16>,
    content_type: Option<String>,
    /// Body bytes read (after content decoding, up to the cap).
    bytes: Option<u64>,
    truncated: bool,
    failure: Option<FailureRecord<'a>>,
    not_fetched: Option<NotFetchedReason>,
    depth: Option<u32>,
    discovered_from: Vec<SourceRecord>,
    inbound_links: InboundRecord,
    robots: Vec<VerdictRecord<'a>>,
    signals: Option<SignalsRecord>,
}

#[derive(Debug, Serialize)]
struct FailureRecord<'a> {
    kind: &'static str,
    message: &'a str,
}

#[derive(Debug, Serialize)]
struct SourceRecord {
    /// `start`, `link`, `sitemap`, `canonical`, `hreflang`, `redirect` or `asset`.
    via: &'static str,
    from: String,
    line: Option<u32>,
}

#[derive(Debug, Serialize)]
struct InboundRecord {
    followed: u32,
    qualified: u32,
}

#[derive(Debug, Serialize)]
struct VerdictRecord<'a> {
    profile: &'a str,
    allowed: bool,
    /// What the robots.txt fetch means (`rules`, `allow-all`, `disallow-all`); null when the
    /// URL's robots.txt was not fetched.
    effect: Option<&'static str>,
    line: Option<u32>,
    directive: Option<String>,
    pattern: Option<&'a str>,
}

#[derive(Debug, Serialize)]
struct SignalsRecord {
    /// Whether the profile (in `robots` order) sees an effective noindex / nofollow.
    noindex: BTreeMap<String, bool>,
    nofollow: BTreeMap<String, bool>,
    canonical: Vec<String>,
    meta_robots: usize,
    robots_headers: usize,
    internal_links: u32,
    assets: usize,
    hreflang: usize,
    html: bool,
}

/// Lines serialised in one batch by each of the two threads of [`write_jsonl`].
const JSONL_BATCH: usize = 512;

/// Every resource of `site` as one JSON line, sorted by URL, then a flush.
pub fn write_jsonl(site: &Site, out: &mut dyn Write) -> io::Result<()> {
    // The lines are written once the crawl is done, when nothing else runs: two threads
    // serialise alternate batches, written in order, so memory holds two batches at most.
    let (mut first_lines, mut second_lines) = (Vec::new(), Vec::new());
    for batch in site.resources().chunks(2 * JSONL_BATCH) {
        let (first, second) = batch.split_at(batch.len().min(JSONL_BATCH));
        std::thread::scope(|scope| {
            let helper = scope.spawn(|| serialise_lines(site, second, &mut second_lines));
            let mine = serialise_lines(site, first, &mut first_lines);
            let theirs = helper
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
            mine.and(theirs)
        })?;
        out.write_all(&first_lines)?;
        out.write_all(&second_lines)?;
    }
    out.flush()?;
    Ok(())
}

/// One JSON line per resource into `lines` (cleared first). Serialising into a `Vec`, not
/// through `dyn Write`, made it about four times cheaper: `serde_json` writes each token
/// separately (callgrind, 5,000-page crawl).
fn serialise_lines(
    site: &Site,
    resources: &[Resource],
    lines: &mut Vec<u8>,
) -> serde_json::Result<()> {
    lines.clear();
    for resource in resources {
        serde_json::to_writer(&mut *lines, &record(site, resource))?;
        lines.push(b'\n');
    }
    Ok(())
}

fn record<'a>(site: &'a Site, resource: &'a Resource) -> Record<'a> {
    let kind = match resource.kind {
        ResourceKind::Page => "page",
        ResourceKind::Asset(asset) => asset.as_str(),
    };
    let mut record = Record {
        url: resource.url.as_str(),
        kind,
        state: "not-fetched",
        final_url: None,
        hops: &[],
        status: None,
        content_type: None,
        bytes: None,
        truncated: false,
        failure: None,
        not_fetched: None,
        depth: resource.depth,
        discovered_from: sources(site, resource),
        inbound_links: InboundRecord {
            followed: resource.inbound_links.followed,
            qualified: resource.inbound_links.qualified,
        },
        robots: verdicts(site, resource),
        signals: None,
    };
    match &resource.state {
        ResourceState::Fetched(slot) => {
            record.state = "fetched";
            record.final_url = Some(resource.url.as_str());
            record.status = Some(slot.status());
            // A stored page that could not be read back: the site says why.
            let Some(page) = site.page(resource) else {
                return record;
            };
            record.content_type = page.content_type().map(str::to_owned);
            record.bytes = Some(page.body_len);
            record.truncated = page.body_truncated;
            let profiles = &site.profiles;
            let directives: Vec<_> = profiles
                .iter()
                .map(|p| (p.name.clone(), page.signals.directives(p, site.audit_time)))
                .collect();
            record.signals = Some(SignalsRecord {
                noindex: directives
                    .iter()
                    .map(|(name, d)| (name.clone(), d.is_noindex()))
                    .collect(),
                nofollow: directives
                    .iter()
                    .map(|(name, d)| (name.clone(), d.is_nofollow()))
                    .collect(),
                canonical: page
                    .signals
                    .effective_canonicals()
                    .iter()
                    .filter_map(|c| c.resolved.as_ref().map(ToString::to_string))
                    .collect(),
                meta_robots: page.signals.meta_robots.len(),
                robots_headers: page.signals.robots_headers.len(),
                internal_links: page.internal_outlinks,
                assets: page.assets_found as usize,
                hreflang: page.signals.hreflang.len(),
                html: page.signals.is_html,
            });
        }
        ResourceState::Redirected {
            hops,
            final_url,
            final_status,
        } => {
            record.state = "redirected";
            record.final_url = Some(final_url.as_str());
            record.hops = hops;
            record.status = *final_status;
        }
        ResourceState::Failed {
            hops,
            kind,
            message,
        } => {
            record.state = "failed";
            record.hops = hops;
            record.failure = Some(FailureRecord {
                kind: kind.as_str(),
                message,
            });
        }
        ResourceState::NotFetched(reason) => record.not_fetched = Some(*reason),
    }
    record
}

fn sources(site: &Site, resource: &Resource) -> Vec<SourceRecord> {
    let references = site.references(resource);
    let links = site.link_samples(resource);
    let listings = site.listings(resource);
    let references = references.iter().map(|r: &Reference| SourceRecord {
        via: match r.kind {
            ReferenceKind::Start => "start",
            ReferenceKind::Listed => "listed",
            ReferenceKind::Asset(_) => "asset",
            ReferenceKind::Canonical => "canonical",
            ReferenceKind::Hreflang => "hreflang",
            ReferenceKind::Redirect => "redirect",
        },
        from: r.from.to_string(),
        line: r.line.map(u32::from),
    });
    let links = links.iter().map(|l| SourceRecord {
        via: "link",
        from: l.from.to_string(),
        line: l.line.map(u32::from),
    });
    let sitemaps = listings.iter().map(|s| SourceRecord {
        via: "sitemap",
        from: s.sitemap.to_string(),
        line: Some(s.line),
    });
    references.chain(links).chain(sitemaps).collect()
}

fn verdicts<'a>(site: &'a Site, resource: &'a Resource) -> Vec<VerdictRecord<'a>> {
    site.profiles
        .iter()
        .zip(resource.verdicts.iter())
        .map(|(profile, verdict)| VerdictRecord {
            profile: &profile.name,
            allowed: verdict.allowed,
            effect: verdict.effect.map(RobotsEffect::as_str),
            line: verdict.decided_by.as_ref().map(|r| r.line),
            directive: verdict.decided_by.as_ref().map(|r| r.directive.to_string()),
            pattern: verdict.decided_by.as_ref().map(|r| r.pattern.as_str()),
        })
        .collect()
}

/// `200 ×5, 404 ×1`.
fn counted<K: std::fmt::Display>(counts: &BTreeMap<K, u64>) -> String {
    let parts: Vec<String> = counts.iter().map(|(k, n)| format!("{k} ×{n}")).collect();
    parts.join(", ")
}

/// The text summary of a crawl that took `elapsed` at `pace`: counts, pace, robots.txt,
/// statuses, bounds.
pub fn summary(site: &Site, elapsed: Duration, http: &HttpOptions) -> String {
    use std::fmt::Write as _;
    let mut statuses: BTreeMap<u16, u64> = BTreeMap::new();
    let mut failures: BTreeMap<&str, u64> = BTreeMap::new();
    let mut skipped: BTreeMap<String, u64> = BTreeMap::new();
    let mut redirects = 0u64;
    for resource in site.resources() {
        match &resource.state {
            ResourceState::Fetched(page) => *statuses.entry(page.status()).or_default() += 1,
            ResourceState::Redirected { .. } => redirects += 1,
            ResourceState::Failed { kind, .. } => *failures.entry(kind.as_str()).or_default() += 1,
            ResourceState::NotFetched(reason) => {
                let name = serde_json::to_value(reason)
                    .ok()
                    .and_then(|v| v.as_str().map(str::to_owned))
                    .unwrap_or_default();
                *skipped.entry(name).or_default() += 1;
            }
        }
    }
    let stats = &site.stats;
    let mut text = String::new();
    // Writing to a String cannot fail.
    let _ = writeln!(
        text,
        "crawled {}: {} pages, {} assets, {} sitemaps, {} robots.txt in {:.1} s",
        site.start_url,
        stats.pages_fetched,
        stats.assets_fetched,
        stats.sitemaps_fetched,
        stats.robots_fetched,
        elapsed.as_secs_f64()
    );
    scope_lines(site.mode, stats.urls_excluded, &mut text);
    politeness_lines(http, &site.stats, &mut text);
    for (origin, robots) in &site.robots {
        let answer = robots
            .status()
            .map_or_else(|| "no response".to_owned(), |s| s.to_string());
        let answer = match &robots.overridden_by {
            Some(file) => format!("read from `{file}` (--robots-override), not fetched"),
            None => answer,
        };
        let _ = writeln!(
            text,
            "robots.txt {origin}: {} ({answer})",
            robots.effect.as_str()
        );
    }
    let _ = writeln!(text, "statuses: {}", counted(&statuses));
    if redirects > 0 {
        let _ = writeln!(text, "redirects: {redirects}");
    }
    if !failures.is_empty() {
        let _ = writeln!(text, "failed: {}", counted(&failures));
    }
    if !skipped.is_empty() {
        let _ = writeln!(text, "not fetched: {}", counted(&skipped));
    }
    if stats.interrupted {
        let _ = writeln!(text, "interrupted: the crawl is partial");
    }
    for bound in &stats.bounds_hit {
        let _ = writeln!(text, "bound hit: {bound}; the crawl is partial");
    }
    text
}

/// How the crawl asked: `pace: …`, what access settings were sent (names only: never a
/// value), then each `Crawl-delay` honoured and each host backed off.
pub(crate) fn politeness_lines(http: &HttpOptions, stats: &CrawlStats, text: &mut String) {
    use std::fmt::Write as _;
    let _ = writeln!(text, "pace: {}", http.pace);
    if !http.access.is_empty() {
        let _ = writeln!(
            text,
            "access: {} (sent to the crawl's hosts only)",
            http.access.describe()
        );
    }
    crawl_delay_lines(&stats.crawl_delays, text);
    for backoff in &stats.backoffs {
        let mut parts = Vec::new();
        if backoff.overloaded > 0 {
            parts.push(format!(
                "{} 429/503 {}",
                backoff.overloaded,
                plural(backoff.overloaded, "answer", "answers")
            ));
        }
        if backoff.repeated_failures > 0 {
            parts.push(format!(
                "{} repeated {}",
                backoff.repeated_failures,
                plural(
                    backoff.repeated_failures,
                    "timeout or server error",
                    "timeouts or server errors"
                )
            ));
        }
        if backoff.retries > 0 {
            parts.push(format!(
                "{} {} asked again",
                backoff.retries,
                plural(backoff.retries, "request", "requests")
            ));
        }
        parts.push(format!(
            "paused up to {} s",
            Duration::from_millis(backoff.longest_pause_millis).as_secs_f64()
        ));
        if let Some(millis) = backoff.slowed_to_millis {
            parts.push(format!(
                "slowed to one request every {} s",
                Duration::from_millis(millis).as_secs_f64()
            ));
        }
        let _ = writeln!(text, "back-off: {}: {}", backoff.origin, parts.join(", "));
    }
}

fn plural(count: u64, one: &'static str, many: &'static str) -> &'static str {
    if count == 1 { one } else { many }
}

/// What narrowed the crawl, when something did: the mode (list, sitemap-only) and the pages
/// the include/exclude patterns left out.
pub(crate) fn scope_lines(mode: CrawlMode, excluded: u64, text: &mut String) {
    use std::fmt::Write as _;
    match mode {
        CrawlMode::FollowLinks => {}
        CrawlMode::List => {
            let _ = writeln!(
                text,
                "list mode: only the listed URLs were fetched as pages (links and sitemap URLs \
                 recorded, not followed)"
            );
        }
        CrawlMode::SitemapOnly => {
            let _ = writeln!(
                text,
                "sitemap-only: only the URLs the sitemaps list were fetched as pages (links \
                 recorded, not followed)"
            );
        }
    }
    if excluded > 0 {
        let pages = if excluded == 1 { "page" } else { "pages" };
        let _ = writeln!(
            text,
            "excluded by the include/exclude patterns: {excluded} {pages} (known, not fetched)"
        );
    }
}

/// `crawl-delay: ORIGIN 5 s (robots.txt line 14)` for each `Crawl-delay` honoured.
fn crawl_delay_lines(delays: &[HonouredCrawlDelay], text: &mut String) {
    use std::fmt::Write as _;
    for delay in delays {
        let seconds = Duration::from_millis(delay.millis).as_secs_f64();
        let _ = writeln!(
            text,
            "crawl-delay: {} {seconds} s (robots.txt line {})",
            delay.origin, delay.line
        );
    }
}

/// When the start URL's host gave no HTTP response at all: the message `crawlgate crawl` prints
/// on standard error instead of writing anything (it exits 3). `None` when the host answered.
pub fn start_unreachable_message(site: &Site) -> Option<String> {
    crate::output::report::unreachable_message(site, "nothing was crawled, so nothing was written")
}

/// When the start URL answered with an error (4xx, 5xx, a redirect loop, …): the line
/// `crawlgate crawl` prints on standard error besides its output (it exits 3).
pub fn start_error_message(site: &Site) -> Option<String> {
    crate::output::report::error_message(
        site,
        "the crawl is inconclusive (exit status 3); the output holds what was seen",
    )
}
