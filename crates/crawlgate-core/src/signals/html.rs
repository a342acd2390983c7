//! HTML signals: one html5ever parse into scraper's DOM, one walk of the DOM.
//!
//! The parse is driven here rather than through `scraper::Html::parse_document` for three
//! reasons: the tree sink records the source line of each element we keep; it drops text nodes
//! and parse errors we never read (most of the parse's allocations); and a token watcher sees
//! what ended `<head>` early, which the DOM alone cannot tell.

use super::limits::{MAX_ASSETS, MAX_LINKS, MAX_SRCSET_CANDIDATES, MAX_TAGS};
use super::raw::{RawLocator, rebuild};
use super::resolve::{document_base, resolve, resolve_annotation};
use super::types::{
    Asset, AssetKind, Canonical, HeadBreak, Hreflang, LinkRel, LinkSource, MetaRefresh, MetaRobots,
    PageLink, Signals,
};
use ego_tree::NodeId;
use ego_tree::iter::Edge;
use html5ever::tendril::StrTendril;
use html5ever::tokenizer::{
    BufferQueue, TagKind, Token, TokenSink, TokenSinkResult, Tokenizer, TokenizerOpts,
};
use html5ever::tree_builder::{
    ElementFlags, NodeOrText, QuirksMode, TreeBuilder, TreeBuilderOpts, TreeSink,
};
use html5ever::{Attribute, LocalName, QualName, local_name, ns};
use scraper::node::Element;
use scraper::{Html, HtmlTreeSink, Node};
use std::borrow::Cow;
use std::cell::{Cell, RefCell};
use url::Url;

/// Parses `text` and adds its signals to `signals`.
pub(crate) fn extract_html(text: &str, page_url: &Url, signals: &mut Signals) {
    let parsed = parse(text);
    signals.head_break = parsed.head_break;
    let mut collector = Collector {
        signals,
        raw: RawLocator::new(text),
        lines: &parsed.lines,
    };
    collector.walk(&parsed.html);
    resolve_all(signals, page_url);
}

/// A parsed document and what the parse observed on the way.
struct Parsed {
    html: Html,
    /// `(element, line)` for the elements we extract from, in creation (= `NodeId`) order.
    lines: Vec<(NodeId, u32)>,
    head_break: Option<HeadBreak>,
}

fn parse(text: &str) -> Parsed {
    let sink = LineSink {
        inner: HtmlTreeSink::new(Html::new_document()),
        line: Cell::new(1),
        lines: RefCell::new(Vec::new()),
    };
    let watcher = HeadWatcher {
        builder: TreeBuilder::new(sink, TreeBuilderOpts::default()),
        state: RefCell::new(HeadState::default()),
    };
    let tokenizer = Tokenizer::new(watcher, TokenizerOpts::default());
    let input = BufferQueue::default();
    input.push_back(StrTendril::from(text));
    // `feed` pauses after each `</script>` (for script execution we do not do): resume.
    while !matches!(tokenizer.feed(&input), html5ever::TokenizerResult::Done) {}
    tokenizer.end();
    let watcher = tokenizer.sink;
    let head_break = watcher.state.into_inner().head_break;
    let sink = watcher.builder.sink;
    let lines = sink.lines.into_inner();
    Parsed {
        html: sink.inner.finish(),
        lines,
        head_break,
    }
}

/// Elements whose attributes we read (their lines are recorded).
fn is_extracted(name: &LocalName) -> bool {
    matches!(
        *name,
        local_name!("a")
            | local_name!("link")
            | local_name!("meta")
            | local_name!("img")
            | local_name!("script")
            | local_name!("source")
            | local_name!("base")
    )
}

/// scraper's tree sink, plus element lines; text nodes and parse errors are dropped.
struct LineSink {
    inner: HtmlTreeSink,
    line: Cell<u32>,
    lines: RefCell<Vec<(NodeId, u32)>>,
}

impl TreeSink for LineSink {
    type Handle = NodeId;
    type Output = Self;
    type ElemName<'a>
        = <HtmlTreeSink as TreeSink>::ElemName<'a>
    where
        Self: 'a;

    fn finish(self) -> Self {
        self
    }

    fn parse_error(&self, _message: Cow<'static, str>) {}

    fn get_document(&self) -> NodeId {
        self.inner.get_document()
    }

    fn elem_name<'a>(&'a self, target: &'a NodeId) -> Self::ElemName<'a> {
        self.inner.elem_name(target)
    }

    fn create_element(&self, name: QualName, attrs: Vec<Attribute>, flags: ElementFlags) -> NodeId {
        let keep_line = name.ns == ns!(html) && is_extracted(&name.local);
        let id = self.inner.create_element(name, attrs, flags);
        if keep_line {
            self.lines.borrow_mut().push((id, self.line.get()));
        }
        id
    }

    fn create_comment(&self, text: StrTendril) -> NodeId {
        self.inner.create_comment(text)
    }

    fn create_pi(&self, target: StrTendril, data: StrTendril) -> NodeId {
        self.inner.create_pi(target, data)
    }

    fn append(&self, parent: &NodeId, child: NodeOrText<NodeId>) {
        if let NodeOrText::AppendNode(_) = child {
            self.inner.append(parent, child);
        }
    }

    fn append_based_on_parent_node(
        &self,
        element: &NodeId,
        prev_element: &NodeId,
        child: NodeOrText<NodeId>,
    ) {
        if let NodeOrText::AppendNode(_) = child {
            self.inner
                .append_based_on_parent_node(element, prev_element, child);
        }
    }

    fn append_doctype_to_document(
        &self,
        name: StrTendril,
        public_id: StrTendril,
        system_id: StrTendril,
    ) {
        self.inner
            .append_doctype_to_document(name, public_id, system_id);
    }

    fn get_template_contents(&self, target: &NodeId) -> NodeId {
        self.inner.get_template_contents(target)
    }

    fn same_node(&self, x: &NodeId, y: &NodeId) -> bool {
        x == y
    }

    fn set_quirks_mode(&self, mode: QuirksMode) {
        self.inner.set_quirks_mode(mode);
    }

    fn append_before_sibling(&self, sibling: &NodeId, new_node: NodeOrText<NodeId>) {
        if let NodeOrText::AppendNode(_) = new_node {
            self.inner.append_before_sibling(sibling, new_node);
        }
    }

    fn add_attrs_if_missing(&self, target: &NodeId, attrs: Vec<Attribute>) {
        self.inner.add_attrs_if_missing(target, attrs);
    }

    fn remove_from_parent(&self, target: &NodeId) {
        self.inner.remove_from_parent(target);
    }

    fn reparent_children(&self, node: &NodeId, new_parent: &NodeId) {
        self.inner.reparent_children(node, new_parent);
    }

    fn set_current_line(&self, line_number: u64) {
        self.line
            .set(u32::try_from(line_number).unwrap_or(u32::MAX));
    }
}

/// Where the token stream stands with respect to `<head>`.
#[derive(Default)]
struct HeadState {
    /// `</head>`, `<body>` or a break was seen: nothing more to watch.
    settled: bool,
    /// Inside `<title>`, `<script>`, `<style>`, `<noscript>`, `<noframes>`: text is fine.
    raw_text: Option<LocalName>,
    /// Inside `<template>` (its content may hold anything).
    template_depth: u32,
    head_break: Option<HeadBreak>,
}

impl HeadState {
    fn observe(&mut self, token: &Token, line: u64) {
        if self.settled {
            return;
        }
        let line = u32::try_from(line).ok();
        match token {
            Token::TagToken(tag) if tag.kind == TagKind::StartTag => {
                if self.raw_text.is_some() {
                    return;
                }
                match tag.name {
                    local_name!("template") => self.template_depth += 1,
                    _ if self.template_depth > 0 => {}
                    local_name!("title")
                    | local_name!("script")
                    | local_name!("style")
                    | local_name!("noscript")
                    | local_name!("noframes") => self.raw_text = Some(tag.name.clone()),
                    local_name!("html")
                    | local_name!("head")
                    | local_name!("base")
                    | local_name!("basefont")
                    | local_name!("bgsound")
                    | local_name!("link")
                    | local_name!("meta") => {}
                    local_name!("body") | local_name!("frameset") => self.settled = true,
                    _ => self.broken(tag.name.to_string(), line),
                }
            }
            Token::TagToken(tag) => {
                if self.raw_text.as_ref() == Some(&tag.name) {
                    self.raw_text = None;
                } else if tag.name == local_name!("template") {
                    self.template_depth = self.template_depth.saturating_sub(1);
                } else if self.raw_text.is_none()
                    && self.template_depth == 0
                    && matches!(
                        tag.name,
                        local_name!("head") | local_name!("body") | local_name!("html")
                    )
                {
                    self.settled = true;
                }
            }
            Token::CharacterTokens(text)
                if self.raw_text.is_none()
                    && self.template_depth == 0
                    && text.chars().any(|c| !c.is_ascii_whitespace()) =>
            {
                self.broken("#text".to_owned(), line);
            }
            _ => {}
        }
    }

    fn broken(&mut self, cause: String, line: Option<u32>) {
        self.head_break = Some(HeadBreak { cause, line });
        self.settled = true;
    }
}

/// Passes tokens to the tree builder, watching for what ends `<head>`.
struct HeadWatcher {
    builder: TreeBuilder<NodeId, LineSink>,
    state: RefCell<HeadState>,
}

impl TokenSink for HeadWatcher {
    type Handle = NodeId;

    fn process_token(&self, token: Token, line_number: u64) -> TokenSinkResult<NodeId> {
        self.state.borrow_mut().observe(&token, line_number);
        self.builder.process_token(token, line_number)
    }

    fn end(&self) {
        self.builder.end();
    }

    fn adjusted_current_node_present_but_not_in_html_namespace(&self) -> bool {
        self.builder
            .adjusted_current_node_present_but_not_in_html_namespace()
    }
}

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

struct Collector<'s, 't> {
    signals: &'s mut Signals,
    raw: RawLocator<'t>,
    lines: &'s [(NodeId, u32)],
}

impl Collector<'_, '_> {
    /// One depth-first walk; template contents are skipped (inert until script uses them).
    fn walk(&mut self, html: &Html) {
        let mut head_depth = 0u32;
        let mut template_depth = 0u32;
        for edge in html.tree.root().traverse() {
            match edge {
                Edge::Open(node) => match node.value() {
                    Node::Fragment => template_depth += 1,
                    Node::Element(element) if element.name.ns == ns!(html) => {
                        if element.name.local == local_name!("head") {
                            head_depth += 1;
                        }
                        if template_depth == 0 && is_extracted(&element.name.local) {
                            let parent_is_picture = node
                                .parent()
                                .and_then(|parent| parent.value().as_element())
                                .is_some_and(|parent| parent.name.local == local_name!("picture"));
                            self.element(element, node.id(), head_depth > 0, parent_is_picture);
                        }
                    }
                    _ => {}
                },
                Edge::Close(node) => match node.value() {
                    Node::Fragment => template_depth = template_depth.saturating_sub(1),
                    Node::Element(element)
                        if element.name.ns == ns!(html)
                            && element.name.local == local_name!("head") =>
                    {
                        head_depth = head_depth.saturating_sub(1);
                    }
                    _ => {}
                },
            }
        }
    }

    fn line_of(&self, id: NodeId) -> Option<u32> {
        self.lines
            .binary_search_by_key(&id, |(node, _)| *node)
            .ok()
            .and_then(|index| self.lines.get(index))
            .map(|(_, line)| *line)
    }

    fn element(&mut self, element: &Element, id: NodeId, in_head: bool, parent_is_picture: bool) {
        let line = self.line_of(id);
        match element.name.local {
            local_name!("a") => self.anchor(element, line),
            local_name!("link") => self.link(element, line, in_head),
            local_name!("meta") => self.meta(element, line, in_head),
            local_name!("img") => {
                if let Some(src) = element.attr("src") {
                    self.asset(AssetKind::Image, src, line);
                }
                if let Some(srcset) = element.attr("srcset") {
                    self.srcset(srcset, line);
                }
            }
            local_name!("source") if parent_is_picture => {
                if let Some(srcset) = element.attr("srcset") {
                    self.srcset(srcset, line);
                }
            }
            local_name!("script") => {
                if let Some(src) = element.attr("src") {
                    self.asset(AssetKind::Script, src, line);
                }
            }
            local_name!("base") => {
                if self.signals.base_href.is_none()
                    && let Some(href) = element.attr("href")
                {
                    self.signals.base_href = Some(href.to_owned());
                }
            }
            _ => {}
        }
    }

    fn anchor(&mut self, element: &Element, line: Option<u32>) {
        let Some(href) = element.attr("href") else {
            return;
        };
        if self.signals.links.len() >= MAX_LINKS {
            self.signals.truncated = true;
            return;
        }
        self.signals.links.push(PageLink {
            href: href.to_owned(),
            resolved: None,
            rel: element.attr("rel").map(LinkRel::parse).unwrap_or_default(),
            line,
        });
    }

    fn asset(&mut self, kind: AssetKind, href: &str, line: Option<u32>) {
        if self.signals.assets.len() >= MAX_ASSETS {
            self.signals.truncated = true;
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

    fn link(&mut self, element: &Element, line: Option<u32>, in_head: bool) {
        let rel = element.attr("rel").unwrap_or_default();
        let has = |wanted: &str| {
            rel.split_ascii_whitespace()
                .any(|token| token.eq_ignore_ascii_case(wanted))
        };
        let href = element.attr("href");
        if has("canonical") || (has("alternate") && element.attr("hreflang").is_some()) {
            let source = self.html_source(element, "link", line, in_head);
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
        self.signals.canonicals.push(Canonical {
            href: href.to_owned(),
            resolved: None,
            source,
        });
    }

    fn push_hreflang(&mut self, hreflang: &str, href: &str, source: LinkSource) {
        if self.signals.hreflang.len() >= MAX_TAGS {
            self.signals.truncated = true;
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
    fn html_source(
        &mut self,
        element: &Element,
        tag: &'static str,
        line: Option<u32>,
        in_head: bool,
    ) -> LinkSource {
        let (raw, line) = self.raw_text(element, tag, line);
        let extra_attributes = element
            .attrs()
            .filter(|(name, _)| !matches!(*name, "rel" | "href"))
            .map(|(name, value)| (name.to_ascii_lowercase(), value.to_owned()))
            .collect();
        LinkSource::Html {
            line,
            in_head,
            raw,
            extra_attributes,
        }
    }

    /// The tag as written and the line it starts on, or the rebuilt tag and its end line.
    fn raw_text(
        &mut self,
        element: &Element,
        tag: &'static str,
        line: Option<u32>,
    ) -> (String, Option<u32>) {
        let names: Vec<&str> = element.attrs().map(|(name, _)| name).collect();
        if let Some(end_line) = line
            && let Some(found) = self.raw.locate(tag, end_line, &names)
        {
            return (found.text.to_owned(), Some(found.start_line));
        }
        let attributes: Vec<(&str, &str)> = element.attrs().collect();
        (rebuild(tag, &attributes), line)
    }

    fn meta(&mut self, element: &Element, line: Option<u32>, in_head: bool) {
        let name = element
            .attr("name")
            .map(|name| name.trim().to_ascii_lowercase());
        let content = element.attr("content");
        if let Some(name) = name.as_deref().filter(|name| is_robots_meta_name(name)) {
            if self.signals.meta_robots.len() >= MAX_TAGS {
                self.signals.truncated = true;
                return;
            }
            let (raw, line) = self.raw_text(element, "meta", line);
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
                self.signals.meta_refresh = Some(MetaRefresh {
                    content: content.to_owned(),
                    delay,
                    target: target.map(str::to_owned),
                    resolved: None,
                    line,
                    in_head,
                });
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
fn resolve_all(signals: &mut Signals, page_url: &Url) {
    let base = document_base(page_url, signals.base_href.as_deref());
    for link in &mut signals.links {
        link.resolved = resolve(&base, &link.href);
    }
    for asset in &mut signals.assets {
        asset.resolved = resolve(&base, &asset.href);
    }
    for canonical in &mut signals.canonicals {
        if matches!(canonical.source, LinkSource::Html { .. }) {
            canonical.resolved = resolve_annotation(&base, &canonical.href);
        }
    }
    for alternate in &mut signals.hreflang {
        if matches!(alternate.source, LinkSource::Html { .. }) {
            alternate.resolved = resolve_annotation(&base, &alternate.href);
        }
    }
    if let Some(refresh) = &mut signals.meta_refresh {
        refresh.resolved = refresh
            .target
            .as_deref()
            .and_then(|target| resolve(&base, target));
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
