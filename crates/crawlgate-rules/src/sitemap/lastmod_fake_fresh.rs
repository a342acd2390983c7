use crate::support::ok_page;
use crawlgate_core::declare_rule;
use crawlgate_core::rule::{Findings, Occurrence, Rule};
use crawlgate_core::site::SitemapFile;
use crawlgate_core::sitemap::{Entry, SitemapKind, parse_rfc2822, parse_w3c_datetime};
use crawlgate_core::{Evidence, Site};
use jiff::{SignedDuration, Timestamp};

/// A `<lastmod>` this much later than the page's `Last-Modified` is a claim the server denies.
const NEWER_THAN_SERVER: SignedDuration = SignedDuration::from_hours(365 * 24);
/// Sitemaps with fewer dated entries are not judged on the crawl-day stamp: a small site may
/// well have changed every page today.
const CRAWL_DAY_MIN_ENTRIES: usize = 20;

declare_rule! {
    /// ## What it does
    /// Compares each sitemap `<lastmod>` with what the audit saw of the page. It finds entries
    /// whose `lastmod` is more than a year later than the page's own `Last-Modified` header, and
    /// sitemaps (of at least 20 dated entries, news sitemaps aside) where every `lastmod` is the
    /// day of the crawl: a sitemap generated on request, stamping "now" on every URL.
    ///
    /// ## Why is this bad?
    /// Google uses `lastmod` only if it is "consistently and verifiably accurate", and verifies
    /// it by crawling. A date the server itself contradicts, or a date that is always today,
    /// says every page changed when none did; Google then learns to ignore the site's `lastmod`,
    /// and real updates are found later.
    ///
    /// ## Example
    /// ```text
    /// sitemap.xml   <loc>https://example.com/guide</loc><lastmod>2026-05-30</lastmod>
    /// /guide        Last-Modified: Tue, 04 Feb 2020 10:00:00 GMT
    /// ```
    ///
    /// ## How to fix
    /// Fill `lastmod` from each page's last significant change (the date the CMS keeps, the
    /// date the server sends as `Last-Modified`), never from the time the sitemap is built; or
    /// leave it out. If the header is the wrong one, fix the header instead.
    pub struct LastmodFakeFresh {
        id: "sitemap/lastmod-fake-fresh",
        severity: Warning,
        summary: "A sitemap lastmod is contradicted by the page's Last-Modified or is always the crawl day",
    }
}

impl Rule for LastmodFakeFresh {
    fn check(&self, site: &Site, out: &mut Findings<'_>) {
        for sitemap in &site.sitemaps {
            let kind = sitemap.summary().map(|summary| summary.kind);
            if kind.is_none_or(|kind| kind == SitemapKind::Index) {
                continue;
            }
            for entry in sitemap.entries() {
                newer_than_server(site, sitemap, entry, out);
            }
            stamped_on_crawl_day(site, sitemap, out);
        }
    }
}

/// Days since the Unix epoch, in UTC.
fn utc_day(time: Timestamp) -> i64 {
    time.as_second().div_euclid(86_400)
}

fn lastmod_of(entry: &Entry) -> Option<(&str, Timestamp)> {
    let written = entry.lastmod.as_deref()?;
    Some((written, parse_w3c_datetime(written)?.earliest()))
}

fn entry_evidence(sitemap: &SitemapFile, entry: &Entry) -> Evidence {
    Evidence::SitemapEntry {
        sitemap_url: sitemap.url.to_string(),
        line: entry.line,
        loc: entry.loc.clone(),
    }
}

fn newer_than_server(site: &Site, sitemap: &SitemapFile, entry: &Entry, out: &mut Findings<'_>) {
    let Some((written, lastmod)) = lastmod_of(entry) else {
        return;
    };
    let Some(page) = url::Url::parse(&entry.loc)
        .ok()
        .and_then(|url| site.resource(&url))
        .and_then(|resource| ok_page(site, resource))
    else {
        return;
    };
    let Some(header) = page.headers.iter().find(|h| h.is("last-modified")) else {
        return;
    };
    let Some(server) = parse_rfc2822(header.value.trim()) else {
        return;
    };
    let gap = lastmod.duration_since(server);
    if gap <= NEWER_THAN_SERVER {
        return;
    }
    let days = gap.as_hours() / 24;
    out.report(
        Occurrence::new(
            entry.loc.as_str(),
            format!(
                "{} line {}: lastmod {written} is {days} days later than the page's \
                 Last-Modified ({}); the server says the page has not changed since",
                sitemap.url, entry.line, header.value
            ),
        )
        .evidence(entry_evidence(sitemap, entry))
        .evidence(Evidence::HttpHeader {
            url: entry.loc.clone(),
            name: header.name.to_owned(),
            value: header.value.to_owned(),
        }),
    );
}

fn stamped_on_crawl_day(site: &Site, sitemap: &SitemapFile, out: &mut Findings<'_>) {
    let crawl_day = utc_day(site.audit_time);
    let mut dated = 0usize;
    let mut first: Option<&Entry> = None;
    for entry in sitemap.entries() {
        if entry.news.is_some() {
            // A news sitemap lists today's articles by design.
            return;
        }
        let Some((_, lastmod)) = lastmod_of(entry) else {
            continue;
        };
        if utc_day(lastmod) != crawl_day {
            return;
        }
        dated += 1;
        first.get_or_insert(entry);
    }
    let Some(first) = first.filter(|_| dated >= CRAWL_DAY_MIN_ENTRIES) else {
        return;
    };
    let audit_time = site.audit_time.to_string();
    let crawl_day = audit_time.get(..10).unwrap_or(&audit_time);
    out.report(
        Occurrence::new(
            sitemap.url.as_str(),
            format!(
                "every one of the {dated} lastmod values is the day of the crawl ({crawl_day}): \
                 the sitemap stamps the time it was generated, not when pages changed"
            ),
        )
        .evidence(entry_evidence(sitemap, first))
        .evidence(Evidence::Note {
            text: format!("crawled at {}", site.audit_time),
        }),
    );
}
