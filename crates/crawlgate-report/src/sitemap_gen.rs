//! XML sitemaps generated from an audit's [`Report`]: the URLs a search engine should index, as
//! the audit saw them (`crawlgate sitemap generate`, `crawlgate audit --write-sitemaps`).
//!
//! A URL is listed when its page record was fetched, answered 200 with HTML, is indexable for
//! the chosen profile (so not disallowed, not noindex, and canonical to itself) and is on the
//! start URL's scheme, host and port. A page whose canonical points elsewhere is replaced by its
//! target only when the target is itself such a page; since that target qualifies on its own,
//! this adds no URL, and a canonical to a page the audit did not see adds none either.
//!
//! Files follow the sitemaps.org protocol: at most [`MAX_URLS`] URLs and [`MAX_BYTES`]
//! uncompressed per file, split on whichever comes first; one file is `sitemap.xml`, several
//! are `sitemap-1.xml`, `sitemap-2.xml`, … listed by `sitemap-index.xml` (`.xml.gz` with gzip).
//! `<lastmod>` comes only from the page's `Last-Modified` header, never from the audit's time.
//! With [`SitemapGenOptions::hreflang`], each `<url>` carries the page's hreflang alternates
//! as `<xhtml:link rel="alternate">` (Google's sitemap form of hreflang), when the page's set is
//! one Google uses: it names the page itself, every alternate listed in the sitemap declares the
//! same set back, and none is a page the audit saw but does not list. Nothing is invented: a
//! page whose set falls short is listed without alternates, and counted (the `hreflang/…`
//! findings say what is wrong with it).

use crate::model::{Alternate, PageRecord, Report};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use url::Url;

/// URLs per sitemap file at most (sitemaps.org).
pub const MAX_URLS: usize = 50_000;

/// Uncompressed bytes per sitemap file at most: 50 MiB (sitemaps.org).
pub const MAX_BYTES: usize = 52_428_800;

/// The longest `<loc>` a sitemap may hold (sitemaps.org); longer URLs are left out.
pub const MAX_LOC_CHARS: usize = 2_048;

const URLSET_OPEN: &str = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n";
const URLSET_OPEN_XHTML: &str = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\" xmlns:xhtml=\"http://www.w3.org/1999/xhtml\">\n";
const URLSET_CLOSE: &str = "</urlset>\n";
const INDEX_OPEN: &str = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<sitemapindex xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n";
const INDEX_CLOSE: &str = "</sitemapindex>\n";

/// What to generate.
#[derive(Debug, Clone, Default)]
pub struct SitemapGenOptions {
    /// The profile whose indexability decides; the report's first profile when `None`.
    pub profile: Option<String>,
    /// Where the files will be served, for the index's `<loc>`s and the `Sitemap:` lines; the
    /// start URL's origin when `None`. A path not ending in `/` is taken as a folder.
    pub base_url: Option<Url>,
    /// Write `.xml.gz` files.
    pub gzip: bool,
    /// List each URL's hreflang alternates (`<xhtml:link rel="alternate" hreflang=…>`).
    pub hreflang: bool,
}

/// Why sitemaps cannot be generated from a report.
#[derive(Debug, thiserror::Error)]
pub enum SitemapGenError {
    /// The profile asked for was not audited.
    #[error("the report has no profile `{asked}` (it audited: {known})")]
    UnknownProfile { asked: String, known: String },
    /// The report audited no profile.
    #[error("the report names no audited profile")]
    NoProfile,
    /// The start URL is no absolute http(s) URL.
    #[error("the report's start URL `{0}` is not an absolute URL")]
    BadStartUrl(String),
    /// The base URL cannot hold files (`mailto:`, `data:`).
    #[error("`{0}` cannot be a base URL for sitemaps")]
    BadBaseUrl(String),
    /// More child sitemaps than one index may list.
    #[error("{0} sitemaps are more than one sitemap index lists (50,000)")]
    TooManyFiles(usize),
    /// Compressing or writing a file failed.
    #[error(transparent)]
    Io(#[from] io::Error),
}

/// A URL to list, with its `<lastmod>` when the page said when it last changed, and its
/// hreflang alternates.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SitemapUrl {
    pub loc: String,
    pub lastmod: Option<String>,
    /// The alternates a sitemap can hold: a valid hreflang code (BCP 47 as Google reads it, or
    /// `x-default`) and an http(s) URL of at most [`MAX_LOC_CHARS`].
    pub alternates: Vec<Alternate>,
    /// The page's alternates left out for an invalid code or URL.
    pub alternates_dropped: usize,
    /// The page's valid alternates are not a set Google uses (see [`sitemap_urls`]), so none
    /// is listed.
    pub set_unconfirmed: bool,
}

/// One generated file.
#[derive(Debug, Clone)]
pub struct SitemapFile {
    /// Its file name (`sitemap.xml`, `sitemap-2.xml.gz`, `sitemap-index.xml`).
    pub name: String,
    /// Where it will be served: the base URL joined with the name.
    pub url: Url,
    /// URLs it lists (child sitemaps, for the index).
    pub entries: usize,
    /// The XML, before compression.
    pub xml: Vec<u8>,
}

/// Everything generated from one report.
#[derive(Debug, Clone)]
pub struct GeneratedSitemaps {
    /// The profile whose indexability decided.
    pub profile: String,
    /// The URL-set files, in order.
    pub files: Vec<SitemapFile>,
    /// The index, when there is more than one file.
    pub index: Option<SitemapFile>,
    /// Whether the files are written gzipped.
    pub gzip: bool,
    /// Indexable URLs left out for being longer than [`MAX_LOC_CHARS`].
    pub too_long: usize,
    /// With hreflang: alternates left out for an invalid code or URL.
    pub alternates_dropped: usize,
    /// With hreflang: URLs listed without their alternates, their set not being one Google
    /// uses (no self-reference, a code twice, no return link, an alternate not listed).
    pub sets_unconfirmed: usize,
}

impl GeneratedSitemaps {
    /// URLs listed over all files.
    pub fn urls(&self) -> usize {
        self.files.iter().map(|file| file.entries).sum()
    }

    /// The file robots.txt should name: the index, or the one file.
    pub fn entry_point(&self) -> &SitemapFile {
        self.index.as_ref().unwrap_or(&self.files[0])
    }

    /// The `Sitemap:` line to add to robots.txt.
    pub fn robots_line(&self) -> String {
        format!("Sitemap: {}", self.entry_point().url)
    }

    /// Write every file into `dir` (created when missing), each atomically, the index last so
    /// that it never names a file not yet written; the paths written, in that order.
    pub fn write_to(&self, dir: &Path) -> io::Result<Vec<PathBuf>> {
        std::fs::create_dir_all(dir)?;
        let mut written = Vec::new();
        for file in self.files.iter().chain(&self.index) {
            let path = dir.join(&file.name);
            crate::write_file_atomically(&path, |out| write_file(out, &file.xml, self.gzip))?;
            written.push(path);
        }
        Ok(written)
    }
}

/// `xml` into `out`, gzipped when asked.
fn write_file(out: &mut dyn Write, xml: &[u8], gzip: bool) -> io::Result<()> {
    if gzip {
        let mut encoder = flate2::write::GzEncoder::new(out, flate2::Compression::default());
        encoder.write_all(xml)?;
        encoder.finish()?;
        Ok(())
    } else {
        out.write_all(xml)
    }
}

/// The profile `asked` (or the report's first), checked against the report.
pub fn chosen_profile(report: &Report, asked: Option<&str>) -> Result<String, SitemapGenError> {
    let known = &report.target.profiles;
    match asked {
        Some(name) if known.iter().any(|known| known == name) => Ok(name.to_owned()),
        Some(name) => Err(SitemapGenError::UnknownProfile {
            asked: name.to_owned(),
            known: known.join(", "),
        }),
        None => known.first().cloned().ok_or(SitemapGenError::NoProfile),
    }
}

/// Whether a content type is HTML (`text/html; charset=utf-8`, XHTML).
fn is_html(content_type: Option<&str>) -> bool {
    content_type.is_some_and(|value| {
        let essence = value.split(';').next().unwrap_or("").trim();
        essence.eq_ignore_ascii_case("text/html")
            || essence.eq_ignore_ascii_case("application/xhtml+xml")
    })
}

/// Whether `url` is on `origin`'s scheme, host and port.
fn in_scope(url: &str, origin: &url::Origin) -> bool {
    Url::parse(url).is_ok_and(|url| url.origin() == *origin)
}

/// Whether a page record is one a sitemap lists for `profile`: a page fetched with 200 and
/// HTML, indexable for the profile, in scope.
fn listable(page: &PageRecord, profile: &str, origin: &url::Origin) -> bool {
    page.kind == "page"
        && page.state == "fetched"
        && page.status == Some(200)
        && is_html(page.content_type.as_deref())
        && page
            .profiles
            .get(profile)
            .is_some_and(|view| view.indexable)
        && in_scope(&page.url, origin)
}

/// The URLs a sitemap should list for `profile`, sorted and without repeats.
pub fn sitemap_urls(report: &Report, profile: &str) -> Result<Vec<SitemapUrl>, SitemapGenError> {
    let start = Url::parse(&report.target.start_url)
        .map_err(|_| SitemapGenError::BadStartUrl(report.target.start_url.clone()))?;
    let origin = start.origin();
    // Each listable page is listed for itself. A page canonicalised elsewhere adds nothing:
    // its target is listed when it qualifies itself, as a known page of its own.
    let mut listed: BTreeMap<String, Listed> = BTreeMap::new();
    for page in &report.pages {
        if listable(&page, profile, &origin) {
            let set: BTreeSet<Alternate> = page
                .alternates
                .iter()
                .filter(|alternate| listable_alternate(alternate))
                .cloned()
                .collect();
            listed.insert(
                page.url.clone(),
                Listed {
                    lastmod: page.last_modified.as_deref().map(str::to_owned),
                    alternates_dropped: page.alternates.len() - set.len(),
                    set,
                },
            );
        }
    }
    // The alternates not listed that the audit saw: each breaks the sets naming it.
    let unlisted: BTreeSet<&str> = listed
        .values()
        .flat_map(|page| page.set.iter().map(|alternate| alternate.href.as_str()))
        .filter(|href| !listed.contains_key(*href))
        .collect();
    let mut seen: BTreeSet<&str> = BTreeSet::new();
    if !unlisted.is_empty() {
        for page in &report.pages {
            if let Some(href) = unlisted.get(page.url.as_str()) {
                seen.insert(href);
            }
        }
    }
    Ok(listed
        .iter()
        .map(|(loc, page)| {
            let confirmed = is_confirmed(loc, &page.set, &listed, &seen);
            SitemapUrl {
                loc: loc.clone(),
                lastmod: page.lastmod.clone(),
                alternates: if confirmed {
                    page.set.iter().cloned().collect()
                } else {
                    Vec::new()
                },
                alternates_dropped: page.alternates_dropped,
                set_unconfirmed: !confirmed,
            }
        })
        .collect())
}

/// What a listed page brings to its sitemap entry.
struct Listed {
    lastmod: Option<String>,
    /// Its alternates a sitemap may carry, each once.
    set: BTreeSet<Alternate>,
    /// Its alternates not in `set`.
    alternates_dropped: usize,
}

/// Whether the hreflang set `set` of listed URL `loc` is one Google uses, so that a sitemap can
/// carry it: it names `loc` itself, no code twice, and each alternate is either listed too with
/// the same set (the return links) or a URL the audit did not see (another site's; not
/// checkable here). An alternate the audit saw but does not list (noindex, redirected,
/// missing) breaks the set. An empty set is confirmed (there is nothing to write).
fn is_confirmed(
    loc: &str,
    set: &BTreeSet<Alternate>,
    listed: &BTreeMap<String, Listed>,
    seen: &BTreeSet<&str>,
) -> bool {
    if set.is_empty() {
        return true;
    }
    let codes: BTreeSet<String> = set
        .iter()
        .map(|alternate| alternate.hreflang.to_ascii_lowercase())
        .collect();
    codes.len() == set.len()
        && set.iter().any(|alternate| alternate.href == loc)
        && set
            .iter()
            .all(|alternate| match listed.get(alternate.href.as_str()) {
                Some(theirs) => theirs.set == *set,
                None => !seen.contains(alternate.href.as_str()),
            })
}

/// Whether a sitemap may carry `alternate`: a code `sitemap check` accepts, an http(s) URL
/// short enough to be a `<loc>`.
fn listable_alternate(alternate: &Alternate) -> bool {
    crawlgate_core::sitemap::is_valid_hreflang(&alternate.hreflang)
        && alternate.href.len() <= MAX_LOC_CHARS
        && Url::parse(&alternate.href).is_ok_and(|url| matches!(url.scheme(), "http" | "https"))
}

/// Escape `text` for XML character data and attribute values.
fn escape(text: &str, out: &mut String) {
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c => out.push(c),
        }
    }
}

/// One `<url>` (or `<sitemap>`) element.
fn entry(element: &str, loc: &str, lastmod: Option<&str>, alternates: &[Alternate]) -> String {
    let mut text = format!("  <{element}>\n    <loc>");
    escape(loc, &mut text);
    text.push_str("</loc>\n");
    if let Some(lastmod) = lastmod {
        text.push_str("    <lastmod>");
        escape(lastmod, &mut text);
        text.push_str("</lastmod>\n");
    }
    for alternate in alternates {
        text.push_str("    <xhtml:link rel=\"alternate\" hreflang=\"");
        escape(&alternate.hreflang, &mut text);
        text.push_str("\" href=\"");
        escape(&alternate.href, &mut text);
        text.push_str("\"/>\n");
    }
    let _ = writeln!(text, "  </{element}>");
    text
}

/// The base URL as a folder: its path ends in `/`, so names join beneath it.
fn folder_url(base: &Url) -> Result<Url, SitemapGenError> {
    if base.cannot_be_a_base() {
        return Err(SitemapGenError::BadBaseUrl(base.to_string()));
    }
    let mut base = base.clone();
    base.set_query(None);
    base.set_fragment(None);
    if !base.path().ends_with('/') {
        let path = format!("{}/", base.path());
        base.set_path(&path);
    }
    Ok(base)
}

/// The URL-set documents listing `urls` (those of at most [`MAX_LOC_CHARS`]), each of at most
/// [`MAX_URLS`] URLs and [`MAX_BYTES`] bytes, with how many URLs each lists.
fn urlset_bodies(urls: &[SitemapUrl], hreflang: bool) -> Vec<(String, usize)> {
    let urlset_open = if hreflang {
        URLSET_OPEN_XHTML
    } else {
        URLSET_OPEN
    };
    let mut bodies: Vec<(String, usize)> = Vec::new();
    let mut body = String::from(urlset_open);
    let mut count = 0;
    for url in urls.iter().filter(|url| url.loc.len() <= MAX_LOC_CHARS) {
        let alternates = if hreflang {
            url.alternates.as_slice()
        } else {
            &[]
        };
        let element = entry("url", &url.loc, url.lastmod.as_deref(), alternates);
        if count == MAX_URLS || body.len() + element.len() + URLSET_CLOSE.len() > MAX_BYTES {
            body.push_str(URLSET_CLOSE);
            bodies.push((
                std::mem::replace(&mut body, String::from(urlset_open)),
                count,
            ));
            count = 0;
        }
        body.push_str(&element);
        count += 1;
    }
    body.push_str(URLSET_CLOSE);
    bodies.push((body, count));
    bodies
}

/// Generate the sitemaps of `report`: the URLs of [`sitemap_urls`], split into files of at most
/// [`MAX_URLS`] URLs and [`MAX_BYTES`] bytes, with an index when there is more than one file.
/// With no URL to list, one empty `sitemap.xml`.
pub fn generate_sitemaps(
    report: &Report,
    options: &SitemapGenOptions,
) -> Result<GeneratedSitemaps, SitemapGenError> {
    let profile = chosen_profile(report, options.profile.as_deref())?;
    let base = if let Some(base) = &options.base_url {
        folder_url(base)?
    } else {
        let mut root = Url::parse(&report.target.start_url)
            .map_err(|_| SitemapGenError::BadStartUrl(report.target.start_url.clone()))?;
        root.set_path("/");
        folder_url(&root)?
    };
    let at = |name: &str| {
        base.join(name)
            .map_err(|_| SitemapGenError::BadBaseUrl(base.to_string()))
    };
    let urls = sitemap_urls(report, &profile)?;
    let too_long = urls
        .iter()
        .filter(|url| url.loc.len() > MAX_LOC_CHARS)
        .count();
    let bodies = urlset_bodies(&urls, options.hreflang);

    let extension = if options.gzip { "xml.gz" } else { "xml" };
    let single = bodies.len() == 1;
    if bodies.len() > MAX_URLS {
        return Err(SitemapGenError::TooManyFiles(bodies.len()));
    }
    let files = bodies
        .into_iter()
        .enumerate()
        .map(|(number, (xml, entries))| {
            let name = if single {
                format!("sitemap.{extension}")
            } else {
                format!("sitemap-{}.{extension}", number + 1)
            };
            Ok(SitemapFile {
                url: at(&name)?,
                name,
                entries,
                xml: xml.into_bytes(),
            })
        })
        .collect::<Result<Vec<_>, SitemapGenError>>()?;
    let index = if single {
        None
    } else {
        let mut xml = String::from(INDEX_OPEN);
        for file in &files {
            xml.push_str(&entry("sitemap", file.url.as_str(), None, &[]));
        }
        xml.push_str(INDEX_CLOSE);
        let name = format!("sitemap-index.{extension}");
        Some(SitemapFile {
            url: at(&name)?,
            name,
            entries: files.len(),
            xml: xml.into_bytes(),
        })
    };
    let (alternates_dropped, sets_unconfirmed) = if options.hreflang {
        (
            urls.iter().map(|url| url.alternates_dropped).sum(),
            urls.iter().filter(|url| url.set_unconfirmed).count(),
        )
    } else {
        (0, 0)
    };
    Ok(GeneratedSitemaps {
        profile,
        files,
        index,
        gzip: options.gzip,
        too_long,
        alternates_dropped,
        sets_unconfirmed,
    })
}

/// A `Last-Modified` value (an HTTP date) as a W3C datetime (`2019-02-04T10:00:00Z`); `None`
/// when it is no HTTP date.
pub fn last_modified_w3c(value: &str) -> Option<String> {
    let time = httpdate::parse_http_date(value.trim()).ok()?;
    jiff::Timestamp::try_from(time).ok().map(|t| t.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page(url: &str, indexable: bool) -> PageRecord {
        serde_json::from_value(serde_json::json!({
            "url": url, "kind": "page", "depth": 1, "state": "fetched", "status": 200,
            "content_type": "text/html; charset=utf-8", "in_sitemaps": [], "inbound_links": 1,
            "profiles": { "googlebot": {
                "allowed": true, "directives": [], "noindex": false, "indexable": indexable
            } }
        }))
        .expect("a page record")
    }

    fn report(pages: Vec<PageRecord>) -> Report {
        let mut report = crate::test_report::minimal();
        report.target.start_url = "https://www.example.com/".to_owned();
        report.target.profiles = vec!["googlebot".to_owned()];
        report.pages = pages.into();
        report
    }

    fn locs(xml: &[u8]) -> Vec<String> {
        let text = std::str::from_utf8(xml).unwrap();
        text.split("<loc>")
            .skip(1)
            .map(|rest| rest.split("</loc>").next().unwrap().to_owned())
            .collect()
    }

    #[test]
    fn only_fetched_200_html_indexable_in_scope_pages_are_listed() {
        let mut pdf = page("https://www.example.com/a.pdf", true);
        pdf.content_type = Some("application/pdf".into());
        let mut missing = page("https://www.example.com/gone", true);
        missing.status = Some(404);
        let mut moved = page("https://www.example.com/moved", true);
        moved.state = "redirected".into();
        let mut copy = page("https://www.example.com/copy", false);
        copy.canonical = Some("https://www.example.com/b?x=1&y=2".into());
        let mut to_noindex = page("https://www.example.com/c2", false);
        to_noindex.canonical = Some("https://www.example.com/noindex".into());
        let mut asset = page("https://www.example.com/style.css", true);
        asset.kind = "stylesheet".into();
        let report = report(vec![
            page("https://www.example.com/b?x=1&y=2", true),
            page("https://www.example.com/", true),
            page("https://other.example.com/", true),
            page("http://www.example.com/", true),
            page("https://www.example.com/noindex", false),
            pdf,
            missing,
            moved,
            copy,
            to_noindex,
            asset,
        ]);
        let generated = generate_sitemaps(&report, &SitemapGenOptions::default()).unwrap();
        assert_eq!(generated.files.len(), 1);
        assert!(generated.index.is_none());
        assert_eq!(generated.files[0].name, "sitemap.xml");
        assert_eq!(
            locs(&generated.files[0].xml),
            [
                "https://www.example.com/",
                "https://www.example.com/b?x=1&amp;y=2"
            ]
        );
        assert_eq!(
            generated.robots_line(),
            "Sitemap: https://www.example.com/sitemap.xml"
        );
    }

    #[test]
    fn unknown_profile_is_refused() {
        let report = report(vec![]);
        let options = SitemapGenOptions {
            profile: Some("bingbot".to_owned()),
            ..SitemapGenOptions::default()
        };
        let error = generate_sitemaps(&report, &options).unwrap_err();
        assert_eq!(
            error.to_string(),
            "the report has no profile `bingbot` (it audited: googlebot)"
        );
    }

    fn alternate(code: &str, href: &str) -> Alternate {
        Alternate {
            hreflang: code.to_owned(),
            href: href.to_owned(),
        }
    }

    fn with_alternates(url: &str, alternates: &[(&str, &str)]) -> PageRecord {
        let mut page = page(url, true);
        page.alternates = alternates
            .iter()
            .map(|(code, href)| alternate(code, href))
            .collect();
        page.alternates.sort();
        page
    }

    #[test]
    fn hreflang_alternates_only_when_asked_and_only_sets_google_uses() {
        const EN: &str = "https://www.example.com/en/?a=1&b=2";
        const DE: &str = "https://www.example.com/de/";
        const ELSEWHERE: &str = "https://www.example.fr/";
        let cluster = [
            ("en", EN),
            ("de", DE),
            ("fr", ELSEWHERE),
            ("en-UK", "https://www.example.com/uk/"),
        ];
        let report = report(vec![
            with_alternates(EN, &cluster),
            with_alternates(DE, &cluster),
            // No self-reference.
            with_alternates("https://www.example.com/it/", &[("en", EN)]),
            // One-way: /es/ names /pt/, /pt/ names only itself.
            with_alternates(
                "https://www.example.com/es/",
                &[
                    ("es", "https://www.example.com/es/"),
                    ("pt", "https://www.example.com/pt/"),
                ],
            ),
            with_alternates(
                "https://www.example.com/pt/",
                &[("pt", "https://www.example.com/pt/")],
            ),
            // Names a page the audit saw that is not listed (noindex).
            with_alternates(
                "https://www.example.com/nl/",
                &[
                    ("nl", "https://www.example.com/nl/"),
                    ("be", "https://www.example.com/hidden"),
                ],
            ),
            page("https://www.example.com/hidden", false),
        ]);
        let plain = generate_sitemaps(&report, &SitemapGenOptions::default()).unwrap();
        let xml = String::from_utf8(plain.files[0].xml.clone()).unwrap();
        assert!(!xml.contains("xhtml"), "{xml}");
        assert_eq!((plain.alternates_dropped, plain.sets_unconfirmed), (0, 0));

        let options = SitemapGenOptions {
            hreflang: true,
            ..SitemapGenOptions::default()
        };
        let generated = generate_sitemaps(&report, &options).unwrap();
        let xml = String::from_utf8(generated.files[0].xml.clone()).unwrap();
        assert!(
            xml.contains("xmlns:xhtml=\"http://www.w3.org/1999/xhtml\""),
            "{xml}"
        );
        assert!(
            xml.contains(
                "<loc>https://www.example.com/en/?a=1&amp;b=2</loc>\n    \
                 <xhtml:link rel=\"alternate\" hreflang=\"de\" href=\"https://www.example.com/de/\"/>\n    \
                 <xhtml:link rel=\"alternate\" hreflang=\"en\" \
                 href=\"https://www.example.com/en/?a=1&amp;b=2\"/>\n    \
                 <xhtml:link rel=\"alternate\" hreflang=\"fr\" href=\"https://www.example.fr/\"/>\n  </url>"
            ),
            "{xml}"
        );
        // The en/de cluster only (three links each); /pt/ names only itself, which is a set.
        assert_eq!(xml.matches("<xhtml:link").count(), 7, "{xml}");
        assert!(!xml.contains("hreflang=\"en-UK\""), "{xml}");
        assert_eq!(generated.alternates_dropped, 2, "en-UK on two pages");
        assert_eq!(generated.sets_unconfirmed, 3, "/it/, /es/ and /nl/");
        // What `sitemap check` says of it: no error (the en/de pair names each other back).
        let checked = crawlgate_core::sitemap::parse_bytes(
            &generated.files[0].xml,
            &crawlgate_core::sitemap::SitemapOptions::new(jiff::Timestamp::UNIX_EPOCH)
                .with_url(Url::parse("https://www.example.com/sitemap.xml").unwrap()),
        );
        assert_eq!(checked.entries.len(), 6);
        let errors: Vec<_> = checked
            .summary
            .issues
            .iter()
            .filter(|issue| issue.severity >= crawlgate_core::Severity::Error)
            .collect();
        assert!(errors.is_empty(), "{errors:?}");
    }

    #[test]
    fn lastmod_only_from_last_modified() {
        let mut dated = page("https://www.example.com/dated", true);
        dated.last_modified = Some("2019-02-04T10:00:00Z".into());
        let report = report(vec![dated, page("https://www.example.com/plain", true)]);
        let generated = generate_sitemaps(&report, &SitemapGenOptions::default()).unwrap();
        let xml = String::from_utf8(generated.files[0].xml.clone()).unwrap();
        assert_eq!(xml.matches("<lastmod>").count(), 1, "{xml}");
        assert!(xml.contains(
            "<loc>https://www.example.com/dated</loc>\n    <lastmod>2019-02-04T10:00:00Z</lastmod>"
        ));
        assert_eq!(
            last_modified_w3c("Mon, 04 Feb 2019 10:00:00 GMT").as_deref(),
            Some("2019-02-04T10:00:00Z")
        );
        assert_eq!(last_modified_w3c("yesterday"), None);
    }

    #[test]
    fn split_at_50000_urls_with_an_index_under_the_base_url() {
        let pages = (0..120_001)
            .map(|n| page(&format!("https://www.example.com/p/{n:06}"), true))
            .collect();
        let report = report(pages);
        let options = SitemapGenOptions {
            base_url: Some(Url::parse("https://cdn.example.com/maps").unwrap()),
            ..SitemapGenOptions::default()
        };
        let generated = generate_sitemaps(&report, &options).unwrap();
        let counts: Vec<usize> = generated.files.iter().map(|f| f.entries).collect();
        assert_eq!(counts, [50_000, 50_000, 20_001]);
        for file in &generated.files {
            assert_eq!(locs(&file.xml).len(), file.entries);
        }
        assert_eq!(
            locs(&generated.files[2].xml)[0],
            "https://www.example.com/p/100000"
        );
        let index = generated.index.as_ref().unwrap();
        assert_eq!(index.name, "sitemap-index.xml");
        assert_eq!(
            locs(&index.xml),
            [
                "https://cdn.example.com/maps/sitemap-1.xml",
                "https://cdn.example.com/maps/sitemap-2.xml",
                "https://cdn.example.com/maps/sitemap-3.xml"
            ]
        );
        assert_eq!(
            generated.robots_line(),
            "Sitemap: https://cdn.example.com/maps/sitemap-index.xml"
        );
    }

    #[test]
    fn split_at_50_mib() {
        // 2,000-character URLs: about 2,040 bytes an entry, so 25,700 fit in 50 MiB.
        let tail = "x".repeat(1_970);
        let pages = (0..30_000)
            .map(|n| page(&format!("https://www.example.com/{n:05}/{tail}"), true))
            .collect();
        let mut report = report(pages);
        report
            .pages
            .push(page(
                &format!("https://www.example.com/{}", "y".repeat(MAX_LOC_CHARS)),
                true,
            ))
            .unwrap();
        let generated = generate_sitemaps(&report, &SitemapGenOptions::default()).unwrap();
        assert_eq!(generated.files.len(), 2);
        assert_eq!(generated.too_long, 1);
        assert_eq!(generated.urls(), 30_000);
        let first = &generated.files[0];
        assert!(first.xml.len() <= MAX_BYTES);
        // Full: one more entry would not have fitted.
        let one = entry("url", &locs(&first.xml)[0], None, &[]).len();
        assert!(first.xml.len() + one > MAX_BYTES, "{}", first.xml.len());
        assert!(first.entries < MAX_URLS);
        assert!(first.xml.ends_with(URLSET_CLOSE.as_bytes()));
    }

    #[test]
    fn gzip_files_decompress_to_the_same_xml() {
        use std::io::Read;
        let report = report(vec![page("https://www.example.com/", true)]);
        let options = SitemapGenOptions {
            gzip: true,
            ..SitemapGenOptions::default()
        };
        let generated = generate_sitemaps(&report, &options).unwrap();
        assert_eq!(generated.files[0].name, "sitemap.xml.gz");
        let dir =
            std::env::temp_dir().join(format!("crawlgate-sitemap-gen-{}", std::process::id()));
        let written = generated.write_to(&dir).unwrap();
        let mut xml = Vec::new();
        flate2::read::GzDecoder::new(std::fs::File::open(&written[0]).unwrap())
            .read_to_end(&mut xml)
            .unwrap();
        assert_eq!(xml, generated.files[0].xml);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
