//! What the hreflang rules share: a page's alternates from its three possible sources (`<link>`
//! in `<head>`, the `Link` header, its sitemap entries' `xhtml:link`s), one shape for all three,
//! quoted the same way.

use crate::support::{hreflang_evidence, ok_page};
use crawlgate_core::Evidence;
use crawlgate_core::signals::{Hreflang, LinkSource};
use crawlgate_core::site::{FetchedPage, Resource, Site, normalized_for_compare};
use crawlgate_core::sitemap::Alternate;
use std::borrow::Cow;
use std::collections::BTreeMap;
use url::Url;

/// Alternates quoted as evidence of one finding; past this, a note counts the rest.
pub(super) const MAX_QUOTED: usize = 10;

/// Where an alternate was declared.
#[derive(Debug, Clone, Copy)]
pub(super) enum Origin<'a> {
    /// A `<link rel=alternate hreflang>` in `<head>` or a `Link` header of the page.
    Page(&'a Hreflang),
    /// An `xhtml:link` of the page's `<url>` entry in a sitemap.
    Sitemap {
        sitemap: &'a Url,
        alternate: &'a Alternate,
        /// The line of the entry's `<loc>`: which `<url>` the alternate belongs to.
        entry_line: u32,
    },
}

/// Which of the three places an alternate comes from (the conflict rule compares them).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Via {
    Html,
    Header,
    Sitemap,
}

impl Via {
    /// In words, for messages: "the HTML `<link>`s".
    pub(super) fn words(self) -> &'static str {
        match self {
            Via::Html => "the HTML `<link>`s",
            Via::Header => "the `Link` header",
            Via::Sitemap => "the sitemap",
        }
    }
}

/// One hreflang alternate of a page, whatever declared it.
#[derive(Debug, Clone)]
pub(super) struct Annotation<'a> {
    /// The `hreflang` value as written.
    pub(super) code: &'a str,
    /// The URL as written.
    pub(super) href: &'a str,
    /// The URL it names (pages: resolved as a browser would; sitemaps: absolute URLs only),
    /// `None` when it does not resolve to an `http(s)` URL.
    pub(super) target: Option<&'a Url>,
    /// `target` normalised for comparison ([`normalized_for_compare`]).
    pub(super) key: Option<String>,
    pub(super) origin: Origin<'a>,
}

impl<'a> Annotation<'a> {
    fn new(code: &'a str, href: &'a str, target: Option<&'a Url>, origin: Origin<'a>) -> Self {
        let target = target.filter(|url| matches!(url.scheme(), "http" | "https"));
        Annotation {
            code,
            href,
            target,
            key: target.map(normalized_for_compare),
            origin,
        }
    }

    pub(super) fn via(&self) -> Via {
        match self.origin {
            Origin::Page(alternate) => match alternate.source {
                LinkSource::Html { .. } => Via::Html,
                LinkSource::Header { .. } => Via::Header,
            },
            Origin::Sitemap { .. } => Via::Sitemap,
        }
    }

    pub(super) fn is_x_default(&self) -> bool {
        self.code.trim().eq_ignore_ascii_case("x-default")
    }

    /// The code compared case-insensitively (`en-GB` and `en-gb` are one code).
    pub(super) fn code_key(&self) -> String {
        self.code.trim().to_ascii_lowercase()
    }

    /// Whether it names `url` (compared as [`crawlgate_core::site::same_document`] does).
    pub(super) fn names(&self, url: &Url) -> bool {
        self.names_key(&normalized_for_compare(url))
    }

    /// Whether it names the URL normalised as `key` (for loops comparing one URL many times).
    pub(super) fn names_key(&self, key: &str) -> bool {
        self.key.as_deref() == Some(key)
    }

    /// The declaration, quoted: the page's tag or header (`url` is the page), or the sitemap's
    /// `xhtml:link` line (the sitemap URL).
    pub(super) fn evidence(&self, page: &Url) -> Evidence {
        match self.origin {
            Origin::Page(alternate) => hreflang_evidence(page, alternate),
            Origin::Sitemap {
                sitemap, alternate, ..
            } => Evidence::Hreflang {
                url: sitemap.to_string(),
                hreflang: alternate.hreflang.clone(),
                href: alternate.href.clone(),
                via: "sitemap".to_owned(),
                line: Some(alternate.line),
            },
        }
    }
}

/// The alternates a page declares itself, in `<head>` or `Link` headers, in source order (HTML
/// first): those Google reads, resolvable or not.
pub(super) fn on_page(page: &FetchedPage) -> Vec<Annotation<'_>> {
    page.signals
        .hreflang
        .iter()
        .filter(|alternate| alternate.source.is_effective())
        .map(|alternate| {
            Annotation::new(
                &alternate.hreflang,
                &alternate.href,
                alternate.resolved.as_ref(),
                Origin::Page(alternate),
            )
        })
        .collect()
}

/// A sitemap `<url>` entry, as the hreflang rules need it.
struct ListedEntry<'a> {
    sitemap: &'a Url,
    line: u32,
    alternates: Vec<(&'a Alternate, Option<Url>)>,
}

/// The sitemaps' `<url>` entries by URL, built once per rule run: which entries list a page and
/// the `xhtml:link` alternates they give it.
pub(super) struct SitemapAlternates<'a> {
    by_loc: BTreeMap<String, Vec<ListedEntry<'a>>>,
}

impl<'a> SitemapAlternates<'a> {
    /// Every `<url>` entry of the site's parsed urlsets. Empty (and cheap) when no entry has
    /// alternates: then no sitemap says anything about hreflang.
    pub(super) fn new(site: &'a Site) -> Self {
        let mut by_loc: BTreeMap<String, Vec<ListedEntry<'a>>> = BTreeMap::new();
        let any = site
            .sitemaps
            .iter()
            .filter(|file| !file.is_index())
            .any(|file| file.entries().iter().any(|e| !e.alternates.is_empty()));
        if !any {
            return SitemapAlternates { by_loc };
        }
        for file in site.sitemaps.iter().filter(|file| !file.is_index()) {
            for entry in file.entries() {
                let Ok(loc) = Url::parse(entry.loc.trim()) else {
                    continue;
                };
                let alternates = entry
                    .alternates
                    .iter()
                    .map(|alternate| (alternate, Url::parse(alternate.href.trim()).ok()))
                    .collect();
                by_loc
                    .entry(normalized_for_compare(&loc))
                    .or_default()
                    .push(ListedEntry {
                        sitemap: &file.url,
                        line: entry.line,
                        alternates,
                    });
            }
        }
        SitemapAlternates { by_loc }
    }

    /// The alternates the sitemaps give `url`, sitemap by sitemap, in document order.
    pub(super) fn of(&self, url: &Url) -> Vec<Annotation<'_>> {
        // Most sites give no alternates in sitemaps: then no key needs computing per page.
        if self.by_loc.is_empty() {
            return Vec::new();
        }
        let Some(entries) = self.by_loc.get(&normalized_for_compare(url)) else {
            return Vec::new();
        };
        entries
            .iter()
            .flat_map(|entry| {
                entry.alternates.iter().map(move |(alternate, target)| {
                    Annotation::new(
                        &alternate.hreflang,
                        &alternate.href,
                        target.as_ref(),
                        Origin::Sitemap {
                            sitemap: entry.sitemap,
                            alternate,
                            entry_line: entry.line,
                        },
                    )
                })
            })
            .collect()
    }

    /// Whether `sitemap` has a `<url>` entry of its own for `url`: then the sitemap's document
    /// check (`sitemap/hreflang-invalid`) pairs the two entries' alternates itself.
    pub(super) fn has_entry_in(&self, url: &Url, sitemap: &Url) -> bool {
        self.by_loc
            .get(&normalized_for_compare(url))
            .is_some_and(|entries| entries.iter().any(|entry| entry.sitemap == sitemap))
    }
}

/// Every alternate of a page: its own, then its sitemap entries'.
pub(super) fn all<'a>(
    resource: &Resource,
    page: &'a FetchedPage,
    sitemaps: &'a SitemapAlternates<'a>,
) -> Vec<Annotation<'a>> {
    let mut annotations = on_page(page);
    annotations.extend(sitemaps.of(&resource.url));
    annotations
}

/// The alternates grouped by the URL they name (those that name one), in order of first
/// appearance, each group in declaration order.
pub(super) fn by_target<'b, 'a>(
    annotations: &'b [Annotation<'a>],
) -> Vec<(&'a Url, Vec<&'b Annotation<'a>>)> {
    let mut groups: Vec<(&'a Url, Vec<&'b Annotation<'a>>)> = Vec::new();
    let mut position: BTreeMap<&str, usize> = BTreeMap::new();
    for annotation in annotations {
        let (Some(target), Some(key)) = (annotation.target, annotation.key.as_deref()) else {
            continue;
        };
        if let Some(&at) = position.get(key) {
            groups[at].1.push(annotation);
        } else {
            position.insert(key, groups.len());
            groups.push((target, vec![annotation]));
        }
    }
    groups
}

/// The annotations quoted (at most [`MAX_QUOTED`], then a note counting the rest).
pub(super) fn quoted(page: &Url, annotations: &[&Annotation<'_>]) -> Vec<Evidence> {
    let mut evidence: Vec<Evidence> = annotations
        .iter()
        .take(MAX_QUOTED)
        .map(|annotation| annotation.evidence(page))
        .collect();
    if annotations.len() > MAX_QUOTED {
        evidence.push(Evidence::Note {
            text: format!(
                "and {} more hreflang alternates",
                annotations.len() - MAX_QUOTED
            ),
        });
    }
    evidence
}

/// The distinct codes, as written (first spelling), in order: "`de`, `en` and `x-default`".
pub(super) fn codes_listed(annotations: &[&Annotation<'_>]) -> String {
    let mut seen = Vec::new();
    let mut codes: Vec<String> = Vec::new();
    for annotation in annotations {
        let key = annotation.code_key();
        if !seen.contains(&key) {
            seen.push(key);
            codes.push(format!("`{}`", annotation.code));
        }
    }
    let shown = codes.len().min(MAX_QUOTED);
    let mut words: Vec<String> = codes.drain(..shown).collect();
    if !codes.is_empty() {
        words.push(format!("{} more", codes.len()));
    }
    match words.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        _ => words.join(""),
    }
}

/// The final 2xx response of `url`, when the crawl fetched one for it directly (no redirect).
pub(super) fn fetched_ok<'s>(
    site: &'s Site,
    url: &Url,
) -> Option<(&'s Resource, Cow<'s, FetchedPage>)> {
    let resource = site.resource(url)?;
    Some((resource, ok_page(site, resource)?))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn declared(code: &str, href: &str) -> Hreflang {
        Hreflang {
            hreflang: code.to_owned(),
            href: href.to_owned(),
            resolved: Url::parse(href).ok(),
            source: LinkSource::Header {
                value: format!("<{href}>; rel=alternate; hreflang={code}"),
            },
        }
    }

    #[test]
    fn alternates_group_by_the_document_they_name_and_codes_are_listed_once() {
        let tags = [
            declared("de", "HTTP://Site.test/de/"),
            declared("DE", "http://site.test/de/#top"),
            declared("fr", "http://site.test/fr/"),
            declared("x-default", "mailto:someone@site.test"),
        ];
        let annotations: Vec<Annotation<'_>> = tags
            .iter()
            .map(|tag| {
                Annotation::new(
                    &tag.hreflang,
                    &tag.href,
                    tag.resolved.as_ref(),
                    Origin::Page(tag),
                )
            })
            .collect();
        let groups = by_target(&annotations);
        assert_eq!(groups.len(), 2, "{groups:?}"); // the mailto: names no page
        assert_eq!(groups[0].1.len(), 2);
        assert!(annotations[1].names(&Url::parse("http://site.test/de/").unwrap()));
        assert!(annotations[3].is_x_default() && annotations[3].target.is_none());
        let all: Vec<&Annotation<'_>> = annotations.iter().collect();
        assert_eq!(codes_listed(&all), "`de`, `fr` and `x-default`");
        assert_eq!(annotations[0].via(), Via::Header);
    }
}
