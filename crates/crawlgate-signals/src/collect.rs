//! From elements to signals: one place that reads `<a>`, `<link>`, `<meta>`, `<img>`,
//! `<picture><source>`, `<script>` and `<base>`, whether they come from the DOM or the scanner.

use super::limits::{MAX_ASSETS, MAX_LINKS, MAX_SRCSET_CANDIDATES, MAX_TAGS, MAX_URL_BYTES};
use super::raw::{LineIndex, RawLocator, rebuild};
use super::resolve::{document_base, resolve_in};
use super::types::{
    Asset, AssetKind, Canonical, Hreflang, LinkRel, LinkSource, MetaRefresh, MetaRobots, PageLink,
    Signals,
};
use encoding_rs::Encoding;
use hashbrown::HashTable;
use html5ever::{LocalName, local_name};
use scraper::node::Element;
use std::borrow::Cow;
use std::hash::BuildHasher;
use std::sync::Arc;
use url::Url;

/// Names of robots meta tags besides `robots`: crawlers that do not say "bot" in their name.
/// Names containing `bot`, `spider` or `crawler` are taken as crawler names too.
const CRAWLER_META_NAMES: [&str; 16] = [
    "slurp",
    "teoma",
    "yandex",
    "yeti",
    "mediapartners-google",
    "google-extended",
    "googleother",
    "google-inspectiontool",
    "chatgpt-user",
    "anthropic-ai",
    "claude-web",
    "cohere-ai",
    "facebookexternalhit",
    "meta-externalagent",
    "ia_archiver",
    "perplexity-user",
];

/// Whether a `<meta name>` (trimmed, lowercase) is a robots meta tag.
pub(crate) fn is_robots_meta_name(name: &str) -> bool {
    let is_token = !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'));
    is_token
        && (name.contains("bot")
            || name.contains("spider")
            || name.contains("crawler")
            || CRAWLER_META_NAMES.contains(&name))
}

/// The elements we extract from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Extracted {
    A,
    Link,
    Meta,
    Img,
    Script,
    Source,
    Base,
}

impl Extracted {
    /// From a lowercase tag name.
    pub(crate) fn from_name(name: &str) -> Option<Extracted> {
        Some(match name {
            "a" => Extracted::A,
            "link" => Extracted::Link,
            "meta" => Extracted::Meta,
            "img" => Extracted::Img,
            "script" => Extracted::Script,
            "source" => Extracted::Source,
            "base" => Extracted::Base,
            _ => return None,
        })
    }

    /// From an html5ever atom (no string comparison).
    pub(crate) fn from_local(name: &LocalName) -> Option<Extracted> {
        Some(match *name {
            local_name!("a") => Extracted::A,
            local_name!("link") => Extracted::Link,
            local_name!("meta") => Extracted::Meta,
            local_name!("img") => Extracted::Img,
            local_name!("script") => Extracted::Script,
            local_name!("source") => Extracted::Source,
            local_name!("base") => Extracted::Base,
            _ => return None,
        })
    }
}

/// Attribute access, for DOM elements and scanned tags alike.
pub(crate) trait TagAttributes {
    /// The value of the attribute named `name` (lowercase).
    fn attr(&self, name: &str) -> Option<&str>;
    /// Every attribute, `(name, value)`, names lowercase.
    fn attribute_list(&self) -> Vec<(&str, &str)>;
}

impl TagAttributes for Element {
    fn attr(&self, name: &str) -> Option<&str> {
        Element::attr(self, name)
    }

    fn attribute_list(&self) -> Vec<(&str, &str)> {
        self.attrs().collect()
    }
}

impl TagAttributes for Vec<(Cow<'_, str>, Cow<'_, str>)> {
    fn attr(&self, name: &str) -> Option<&str> {
        self.iter()
            .find(|(key, _)| key == name)
            .map(|(_, value)| value.as_ref())
    }

    fn attribute_list(&self) -> Vec<(&str, &str)> {
        self.iter()
            .map(|(key, value)| (key.as_ref(), value.as_ref()))
            .collect()
    }
}

/// Where an element's source text comes from, for evidence.
pub(crate) enum Evidence<'t> {
    /// Found from the line html5ever reported (DOM elements).
    Locate,
    /// Known exactly (scanned tags): the text and the byte offset it starts at.
    Exact { text: &'t str, start: usize },
}

/// What is known about one element besides its attributes.
pub(crate) struct Placement<'t> {
    pub kind: Extracted,
    /// 1-based line of the tag's end.
    pub line: Option<u32>,
    pub in_head: bool,
    pub in_picture: bool,
    pub evidence: Evidence<'t>,
}

/// Turns elements into signals.
pub(crate) struct Collector<'s, 't> {
    pub signals: &'s mut Signals,
    pub lines: LineIndex<'t>,
    raw: RawLocator<'t>,
    /// Index in `signals.links` of each distinct `(href, rel)`, hashed by `link_hasher`: the
    /// table holds indices only, so a link's URL is neither copied nor allocated to look it up.
    link_index: HashTable<usize>,
    link_hasher: foldhash::fast::RandomState,
    /// Bytes of `href` text kept so far (links, assets, canonicals, hreflang), against
    /// [`MAX_URL_BYTES`].
    url_bytes: usize,
}

impl<'s, 't> Collector<'s, 't> {
    pub(crate) fn new(text: &'t str, signals: &'s mut Signals) -> Self {
        Collector {
            signals,
            lines: LineIndex::new(text),
            raw: RawLocator::new(text),
            link_index: HashTable::new(),
            link_hasher: foldhash::fast::RandomState::default(),
            url_bytes: 0,
        }
    }

    /// Whether `href` fits in what the page may keep; past the bound, the page is marked
    /// truncated and the reference dropped.
    fn keeps(&mut self, href: &str) -> bool {
        if self.url_bytes.saturating_add(href.len()) > MAX_URL_BYTES {
            self.signals.truncated = true;
            return false;
        }
        self.url_bytes += href.len();
        true
    }

    /// Records what one element says.
    /// The first `<title>`'s text, from its text parts: whitespace collapsed, bounded.
    pub(crate) fn title<'a>(&mut self, parts: impl Iterator<Item = &'a str>) {
        if self.signals.title.is_some() {
            return;
        }
        let mut title = String::new();
        let mut kept = 0;
        for word in parts.flat_map(str::split_ascii_whitespace) {
            if kept >= crate::limits::MAX_TITLE_CHARS {
                break;
            }
            if !title.is_empty() {
                title.push(' ');
            }
            let room = crate::limits::MAX_TITLE_CHARS - kept;
            title.extend(word.chars().take(room));
            kept += word.chars().count().min(room) + 1;
        }
        self.signals.title = Some(title.into());
    }

    pub(crate) fn element(&mut self, place: &Placement<'t>, element: &impl TagAttributes) {
        let line = place.line;
        match place.kind {
            Extracted::A => self.anchor(element, line),
            Extracted::Link => self.link(element, place),
            Extracted::Meta => self.meta(element, place),
            Extracted::Img => {
                if let Some(src) = element.attr("src") {
                    self.asset(AssetKind::Image, src, line);
                }
                if let Some(srcset) = element.attr("srcset") {
                    self.srcset(srcset, line);
                }
            }
            Extracted::Source => {
                if place.in_picture
                    && let Some(srcset) = element.attr("srcset")
                {
                    self.srcset(srcset, line);
                }
            }
            Extracted::Script => {
                if let Some(src) = element.attr("src") {
                    self.asset(AssetKind::Script, src, line);
                }
            }
            Extracted::Base => {
                if self.signals.base_href.is_none()
                    && let Some(href) = element.attr("href")
                {
                    self.signals.base_href = Some(href.into());
                }
            }
        }
    }

    fn anchor(&mut self, element: &impl TagAttributes, line: Option<u32>) {
        let Some(href) = element.attr("href") else {
            return;
        };
        let rel = element.attr("rel").map(LinkRel::parse).unwrap_or_default();
        // One entry per distinct `(href, rel)`: pages repeat their navigation, and a site's
        // links must fit in memory.
        let hash = self.link_hasher.hash_one((href, rel));
        let links = &self.signals.links;
        let same = |&index: &usize| links[index].href == href && links[index].rel == rel;
        if let Some(&index) = self.link_index.find(hash, same) {
            let known = &mut self.signals.links[index];
            known.occurrences = known.occurrences.saturating_add(1);
            return;
        }
        if self.signals.links.len() >= MAX_LINKS {
            self.signals.truncated = true;
            return;
        }
        if !self.keeps(href) {
            return;
        }
        let hasher = &self.link_hasher;
        let links = &mut self.signals.links;
        links.push(PageLink {
            href: href.to_owned(),
            resolved: None,
            rel,
            line,
            occurrences: 1,
        });
        let rehash =
            |&index: &usize| hasher.hash_one((links[index].href.as_str(), links[index].rel));
        self.link_index.insert_unique(hash, links.len() - 1, rehash);
    }

    fn asset(&mut self, kind: AssetKind, href: &str, line: Option<u32>) {
        if self.signals.assets.len() >= MAX_ASSETS {
            self.signals.truncated = true;
            return;
        }
        if !self.keeps(href) {
            return;
        }
        self.signals.assets.push(Asset {
            kind,
            href: href.to_owned(),
            resolved: None,
            line,
        });
    }

    fn srcset(&mut self, srcset: &str, line: Option<u32>) {
        for candidate in srcset_urls(srcset).take(MAX_SRCSET_CANDIDATES) {
            self.asset(AssetKind::Image, candidate, line);
        }
    }

    fn link(&mut self, element: &impl TagAttributes, place: &Placement<'t>) {
        let line = place.line;
        let rel = element.attr("rel").unwrap_or_default();
        let has = |wanted: &str| {
            rel.split_ascii_whitespace()
                .any(|token| token.eq_ignore_ascii_case(wanted))
        };
        let href = element.attr("href");
        if has("canonical") || (has("alternate") && element.attr("hreflang").is_some()) {
            let source = self.html_source(element, place);
            if has("canonical") {
                self.push_canonical(href.unwrap_or_default(), source.clone());
            }
            if has("alternate")
                && let Some(hreflang) = element.attr("hreflang")
            {
                self.push_hreflang(hreflang, href.unwrap_or_default(), source);
            }
        }
        let Some(href) = href else {
            return;
        };
        let preload_as = || element.attr("as").unwrap_or_default().to_ascii_lowercase();
        if has("stylesheet") || (has("preload") && preload_as() == "style") {
            self.asset(AssetKind::Stylesheet, href, line);
        }
        if has("modulepreload") || (has("preload") && preload_as() == "script") {
            self.asset(AssetKind::Script, href, line);
        }
        if has("preload") && preload_as() == "image" {
            self.asset(AssetKind::Image, href, line);
        }
        if has("icon")
            || has("apple-touch-icon")
            || has("apple-touch-icon-precomposed")
            || has("mask-icon")
        {
            self.asset(AssetKind::Icon, href, line);
        }
    }

    fn push_canonical(&mut self, href: &str, source: LinkSource) {
        if self.signals.canonicals.len() >= MAX_TAGS {
            self.signals.truncated = true;
            return;
        }
        if !self.keeps(href) {
            return;
        }
        self.signals.canonicals.push(Canonical {
            href: href.into(),
            resolved: None,
            source,
        });
    }

    fn push_hreflang(&mut self, hreflang: &str, href: &str, source: LinkSource) {
        if self.signals.hreflang.len() >= MAX_TAGS {
            self.signals.truncated = true;
            return;
        }
        if !self.keeps(href) {
            return;
        }
        self.signals.hreflang.push(Hreflang {
            hreflang: hreflang.to_owned(),
            href: href.to_owned(),
            resolved: None,
            source,
        });
    }

    /// Evidence for a `<link>`: raw text, start line, extra attributes.
    fn html_source(&mut self, element: &impl TagAttributes, place: &Placement<'t>) -> LinkSource {
        let (raw, line) = self.raw_text(element, "link", place);
        let extra_attributes = element
            .attribute_list()
            .into_iter()
            .filter(|(name, _)| !matches!(*name, "rel" | "href"))
            .map(|(name, value)| (name.to_owned(), value.to_owned()))
            .collect();
        LinkSource::Html {
            line,
            in_head: place.in_head,
            raw: raw.into(),
            extra_attributes,
        }
    }

    /// The tag as written and the line it starts on, or the rebuilt tag and its end line.
    fn raw_text(
        &mut self,
        element: &impl TagAttributes,
        tag: &'static str,
        place: &Placement<'t>,
    ) -> (String, Option<u32>) {
        let attributes = element.attribute_list();
        match place.evidence {
            Evidence::Exact { text, start } => {
                return (text.to_owned(), Some(self.lines.line_of(start)));
            }
            Evidence::Locate => {
                if let Some(end_line) = place.line
                    && let Some(found) = self.raw.locate(&self.lines, tag, end_line, &attributes)
                {
                    return (found.text.to_owned(), Some(found.start_line));
                }
            }
        }
        (rebuild(tag, &attributes), place.line)
    }

    fn meta(&mut self, element: &impl TagAttributes, place: &Placement<'t>) {
        let (line, in_head) = (place.line, place.in_head);
        let name = element
            .attr("name")
            .map(|name| name.trim().to_ascii_lowercase());
        let content = element.attr("content");
        if let Some(name) = name.as_deref().filter(|name| is_robots_meta_name(name)) {
            if self.signals.meta_robots.len() >= MAX_TAGS {
                self.signals.truncated = true;
                return;
            }
            let (raw, line) = self.raw_text(element, "meta", place);
            self.signals.meta_robots.push(MetaRobots {
                name: name.to_owned(),
                content: content.unwrap_or_default().to_owned(),
                raw,
                line,
                in_head,
            });
            return;
        }
        let is_refresh = element
            .attr("http-equiv")
            .is_some_and(|value| value.trim().eq_ignore_ascii_case("refresh"));
        if is_refresh {
            if self.signals.meta_refresh.is_none() {
                let content = content.unwrap_or_default();
                let (delay, target) = parse_refresh(content);
                self.signals.meta_refresh = Some(Box::new(MetaRefresh {
                    content: content.to_owned(),
                    delay,
                    target: target.map(str::to_owned),
                    resolved: None,
                    line,
                    in_head,
                }));
            }
            return;
        }
        let property = element.attr("property").or(name.as_deref());
        if let (Some(property), Some(content)) = (property, content)
            && matches!(
                property.trim().to_ascii_lowercase().as_str(),
                "og:image" | "og:image:url" | "og:image:secure_url"
            )
        {
            self.asset(AssetKind::Image, content, line);
        }
    }
}

/// Resolves every reference against the document base (`<base href>`, then the final URL).
pub(crate) fn resolve_all(signals: &mut Signals, page_url: &Url, encoding: &'static Encoding) {
    let base = document_base(page_url, signals.base_href.as_deref());
    let resolve = |href: &str| resolve_in(&base, href, encoding);
    let resolve_annotation = |href: &str| {
        if href.trim().is_empty() {
            None
        } else {
            resolve(href)
        }
    };
    for link in &mut signals.links {
        link.resolved = resolve(&link.href);
    }
    for asset in &mut signals.assets {
        asset.resolved = resolve(&asset.href);
    }
    for canonical in &mut signals.canonicals {
        if matches!(canonical.source, LinkSource::Html { .. }) {
            canonical.resolved = resolve_annotation(&canonical.href).map(Arc::new);
        }
    }
    for alternate in &mut signals.hreflang {
        if matches!(alternate.source, LinkSource::Html { .. }) {
            alternate.resolved = resolve_annotation(&alternate.href);
        }
    }
    if let Some(refresh) = &mut signals.meta_refresh {
        refresh.resolved = refresh.target.as_deref().and_then(resolve);
    }
}

/// The URLs of a `srcset` (HTML spec "parse a srcset attribute", descriptors skipped).
fn srcset_urls(srcset: &str) -> impl Iterator<Item = &str> {
    let mut rest = srcset;
    std::iter::from_fn(move || {
        loop {
            rest = rest.trim_start_matches(|c: char| c.is_ascii_whitespace() || c == ',');
            if rest.is_empty() {
                return None;
            }
            let url_end = rest
                .find(|c: char| c.is_ascii_whitespace())
                .unwrap_or(rest.len());
            let (url, after) = rest.split_at(url_end);
            let trimmed = url.trim_end_matches(',');
            rest = if trimmed.len() < url.len() {
                // `a.png,b.png`: the commas end the candidate, no descriptors.
                after
            } else {
                skip_descriptors(after)
            };
            if !trimmed.is_empty() {
                return Some(trimmed);
            }
        }
    })
}

/// Skips a candidate's descriptors: up to a comma outside parentheses.
fn skip_descriptors(text: &str) -> &str {
    let mut depth = 0u32;
    for (index, c) in text.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => depth = depth.saturating_sub(1),
            ',' if depth == 0 => return text.get(index + 1..).unwrap_or_default(),
            _ => {}
        }
    }
    ""
}

/// `content` of a meta refresh (HTML spec "shared declarative refresh steps"): the delay, and
/// the target URL text if any.
fn parse_refresh(content: &str) -> (Option<u32>, Option<&str>) {
    let content = content.trim_start_matches(|c: char| c.is_ascii_whitespace());
    let digits_end = content
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(content.len());
    let (digits, rest) = content.split_at(digits_end);
    let delay = if digits.is_empty() {
        if !rest.starts_with('.') {
            return (None, None);
        }
        0
    } else {
        digits.parse::<u32>().unwrap_or(u32::MAX)
    };
    let mut rest = rest.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.');
    if let Some(first) = rest.chars().next() {
        if !(first == ';' || first == ',' || first.is_ascii_whitespace()) {
            // `5x`: browsers ignore the whole tag.
            return (None, None);
        }
        rest = rest.trim_start_matches(|c: char| c.is_ascii_whitespace());
        rest = rest.strip_prefix([';', ',']).unwrap_or(rest);
        rest = rest.trim_start_matches(|c: char| c.is_ascii_whitespace());
    }
    let mut target = rest;
    if target.len() >= 3
        && target
            .get(..3)
            .is_some_and(|p| p.eq_ignore_ascii_case("url"))
    {
        let after = target
            .get(3..)
            .unwrap_or_default()
            .trim_start_matches(|c: char| c.is_ascii_whitespace());
        if let Some(after) = after.strip_prefix('=') {
            target = after.trim_start_matches(|c: char| c.is_ascii_whitespace());
        }
    }
    let target = match target.chars().next() {
        Some(quote @ ('"' | '\'')) => {
            let inner = target.get(1..).unwrap_or_default();
            inner.split(quote).next().unwrap_or_default()
        }
        _ => target.trim_end_matches(|c: char| c.is_ascii_whitespace()),
    };
    (Some(delay), (!target.is_empty()).then_some(target))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn srcset_candidates() {
        let urls: Vec<&str> =
            srcset_urls(" a.png 1x, b.png 2x,c.png,, d,e.png f(1, 2) 3w , g.png").collect();
        // A comma inside a URL belongs to it (`d,e.png`); only trailing commas end a candidate.
        assert_eq!(urls, ["a.png", "b.png", "c.png", "d,e.png", "g.png"]);
        assert_eq!(srcset_urls("").count(), 0);
        assert_eq!(srcset_urls(" , ,").count(), 0);
    }

    #[test]
    fn refresh_content() {
        assert_eq!(parse_refresh("5; url=/next"), (Some(5), Some("/next")));
        assert_eq!(parse_refresh("0;URL='/q?a=b'x"), (Some(0), Some("/q?a=b")));
        assert_eq!(parse_refresh("3"), (Some(3), None));
        assert_eq!(
            parse_refresh("1.5, https://a.test/"),
            (Some(1), Some("https://a.test/"))
        );
        assert_eq!(parse_refresh("url=/x"), (None, None));
        assert_eq!(parse_refresh("10 /x"), (Some(10), Some("/x")));
        assert_eq!(parse_refresh("5x; url=/y"), (None, None));
        assert_eq!(parse_refresh(""), (None, None));
    }

    #[test]
    fn robots_meta_names() {
        for name in [
            "robots",
            "googlebot",
            "googlebot-news",
            "bingbot",
            "yandex",
            "baiduspider",
        ] {
            assert!(is_robots_meta_name(name), "{name}");
        }
        for name in ["description", "viewport", "twitter:card", "", "robots x"] {
            assert!(!is_robots_meta_name(name), "{name}");
        }
    }
}
