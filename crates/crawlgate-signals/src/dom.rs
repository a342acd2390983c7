//! Driving html5ever: scraper's DOM, with source lines, built up to where `<body>` begins (or
//! for the whole document, the reference the fast path is tested against).
//!
//! The parse is driven here rather than through `scraper::Html::parse_document`: the tree sink
//! records the line of each element we extract from and drops text nodes and parse errors we
//! never read (most of the parse's allocations), and a token watcher sees what ended `<head>`
//! early, which the DOM alone cannot tell, and when the scanner can take over.

use super::collect::Extracted;
use super::types::HeadBreak;
use ego_tree::NodeId;
use html5ever::tendril::StrTendril;
use html5ever::tokenizer::{
    BufferQueue, TagKind, Token, TokenSink, TokenSinkResult, Tokenizer, TokenizerOpts,
};
use html5ever::tree_builder::{
    ElementFlags, NodeOrText, QuirksMode, TreeBuilder, TreeBuilderOpts, TreeSink,
};
use html5ever::{Attribute, LocalName, QualName, TokenizerResult, local_name, ns};
use scraper::{Html, HtmlTreeSink};
use std::borrow::Cow;
use std::cell::{Cell, RefCell};

/// How much of the document html5ever parses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Extent {
    /// Up to the first point after `<body>` began where the scanner can take over.
    UntilBody,
    /// Everything (the reference for tests).
    #[cfg_attr(not(test), allow(dead_code))]
    Whole,
}

/// A parsed document (or its beginning) and what the parse observed on the way.
pub(crate) struct Parsed {
    pub html: Html,
    /// `(element, line)` for the elements we extract from, in creation (= `NodeId`) order.
    pub lines: Vec<(NodeId, u32)>,
    pub head_break: Option<HeadBreak>,
    /// Byte offset where html5ever stopped and the scanner continues, if it did.
    pub handed_over_at: Option<usize>,
    /// The charset label of the first `<meta charset>` (or `http-equiv` Content-Type) the tree
    /// builder met in `<head>`, wherever it is in the document.
    pub declared_encoding: Option<String>,
    /// The tree reached [`MAX_TREE_ELEMENTS`]: the rest of the document was not read.
    pub cut: bool,
    /// The text of the first HTML `<title>` the tree builder created, as written (bounded).
    pub title: Option<String>,
}

/// Bytes of `<title>` text kept from the tree builder (the signal keeps fewer characters).
const MAX_TITLE_TEXT_BYTES: usize = 8 * 1024;

/// Elements the tree builder may create for one page. A real page has a few thousand; each costs
/// hundreds of bytes in the DOM (more for a `<template>`, which brings a document fragment), so
/// a page of ten million bytes of nested tags would otherwise build a tree of hundreds of MB.
pub(crate) const MAX_TREE_ELEMENTS: usize = 50_000;

pub(crate) fn parse(text: &str, extent: Extent) -> Parsed {
    let sink = LineSink {
        inner: HtmlTreeSink::new(Html::new_document()),
        line: Cell::new(1),
        lines: RefCell::new(Vec::new()),
        body_started: Cell::new(false),
        title: Cell::new(None),
        title_text: RefCell::new(String::new()),
    };
    let watcher = HeadWatcher {
        builder: TreeBuilder::new(sink, TreeBuilderOpts::default()),
        state: RefCell::new(HeadState::default()),
        last_tag: RefCell::new(None),
        open_templates: Cell::new(0),
        open_pictures: Cell::new(0),
        frameset_seen: Cell::new(false),
        start_tags: Cell::new(0),
        cut: Cell::new(false),
    };
    // html5ever's tokenizer drops a U+FEFF at the start of every `feed` call, not only of the
    // document, and we feed many times (one tag at a time, and again after each `</script>`):
    // a U+FEFF after a tag is text (it ends `<head>`) and must reach the tree builder. The BOM
    // at the start of the body was already taken out by decoding (`decode.rs`, as the Encoding
    // standard's decode does), so nothing here needs dropping.
    let tokenizer = Tokenizer::new(
        watcher,
        TokenizerOpts {
            discard_bom: false,
            ..TokenizerOpts::default()
        },
    );
    let input = BufferQueue::default();
    let mut handed_over_at = None;
    let mut declared_encoding = None;
    match extent {
        Extent::Whole => feed(&tokenizer, &input, text, &mut declared_encoding),
        Extent::UntilBody => {
            // Feed one tag at a time (chunks end at each `>`) until the scanner can take over.
            let bytes = text.as_bytes();
            let mut fed = 0;
            while fed < text.len() {
                let chunk_end = bytes
                    .get(fed..)
                    .and_then(|rest| memchr::memchr(b'>', rest))
                    .map_or(text.len(), |offset| fed + offset + 1);
                *tokenizer.sink.last_tag.borrow_mut() = None;
                let chunk = text.get(fed..chunk_end).unwrap_or_default();
                feed(&tokenizer, &input, chunk, &mut declared_encoding);
                fed = chunk_end;
                if fed < text.len() && tokenizer.sink.can_hand_over() {
                    handed_over_at = Some(fed);
                    break;
                }
            }
        }
    }
    tokenizer.end();
    let watcher = tokenizer.sink;
    let cut = watcher.cut.get();
    let head_break = watcher.state.into_inner().head_break;
    let sink = watcher.builder.sink;
    let title = sink.title.get().map(|_| sink.title_text.into_inner());
    Parsed {
        title,
        lines: sink.lines.into_inner(),
        html: sink.inner.finish(),
        head_break,
        handed_over_at,
        declared_encoding,
        cut,
    }
}

/// Feeds `text`; keeps the first encoding a `<meta>` in `<head>` declared.
fn feed(
    tokenizer: &Tokenizer<HeadWatcher>,
    input: &BufferQueue,
    text: &str,
    declared: &mut Option<String>,
) {
    input.push_back(StrTendril::from(text));
    // `feed` pauses after each `</script>` (for script execution we do not do) and at each
    // declared encoding: resume.
    loop {
        match tokenizer.feed(input) {
            TokenizerResult::Done => break,
            TokenizerResult::EncodingIndicator(label) => {
                declared.get_or_insert_with(|| label.to_string());
            }
            TokenizerResult::Script(_) => {}
        }
    }
}

/// scraper's tree sink, plus element lines; text nodes and parse errors are dropped, but for the
/// first `<title>`'s text, kept aside.
struct LineSink {
    inner: HtmlTreeSink,
    line: Cell<u32>,
    lines: RefCell<Vec<(NodeId, u32)>>,
    /// The tree builder has created `<body>` (explicitly or not): nothing enters `<head>` now.
    body_started: Cell<bool>,
    /// The first HTML `<title>` outside templates that text was appended to, and its text.
    title: Cell<Option<NodeId>>,
    title_text: RefCell<String>,
}

impl LineSink {
    /// Whether `node` is an HTML `<title>` outside any template's contents (a template's is
    /// inert: no document title).
    fn is_document_title(&self, node: NodeId) -> bool {
        let html = self.inner.0.borrow();
        html.tree.get(node).is_some_and(|node| {
            node.value().as_element().is_some_and(|element| {
                element.name.ns == ns!(html) && element.name.local == local_name!("title")
            }) && !node
                .ancestors()
                .any(|ancestor| matches!(ancestor.value(), scraper::Node::Fragment))
        })
    }
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
        let is_html = name.ns == ns!(html);
        if is_html && name.local == local_name!("body") {
            self.body_started.set(true);
        }
        let keep_line = is_html && Extracted::from_local(&name.local).is_some();
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
        match child {
            NodeOrText::AppendNode(_) => self.inner.append(parent, child),
            NodeOrText::AppendText(text) => {
                if self.title.get().is_none() && self.is_document_title(*parent) {
                    self.title.set(Some(*parent));
                }
                if self.title.get() == Some(*parent) {
                    let mut title = self.title_text.borrow_mut();
                    if title.len() + text.len() <= MAX_TITLE_TEXT_BYTES {
                        title.push_str(&text);
                    }
                }
            }
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
    /// `<head>` ended (properly or not): nothing more to watch.
    settled: bool,
    head_break: Option<HeadBreak>,
}

impl HeadState {
    /// Before the tree builder sees `token`: the tags that end `<head>` properly, and otherwise
    /// what to blame if this token makes the tree builder start `<body>`.
    fn before(&mut self, token: &Token, line: u64) -> Option<HeadBreak> {
        if self.settled {
            return None;
        }
        let line = u32::try_from(line).ok();
        match token {
            Token::TagToken(tag) => {
                let proper_end = match tag.kind {
                    TagKind::StartTag => {
                        matches!(tag.name, local_name!("body") | local_name!("frameset"))
                    }
                    TagKind::EndTag => matches!(
                        tag.name,
                        local_name!("head") | local_name!("body") | local_name!("html")
                    ),
                };
                if proper_end {
                    self.settled = true;
                    return None;
                }
                let cause = match tag.kind {
                    TagKind::StartTag => tag.name.to_string(),
                    TagKind::EndTag => format!("/{}", tag.name),
                };
                Some(HeadBreak { cause, line })
            }
            Token::CharacterTokens(text) => {
                // The token ends on `line`; its text starts that many line breaks earlier.
                let first = text.find(|c: char| !c.is_ascii_whitespace()).unwrap_or(0);
                let breaks = text.get(first..).unwrap_or_default().matches('\n').count();
                let start =
                    line.map(|end| end.saturating_sub(u32::try_from(breaks).unwrap_or(u32::MAX)));
                Some(HeadBreak {
                    cause: "#text".to_owned(),
                    line: start,
                })
            }
            Token::NullCharacterToken => Some(HeadBreak {
                cause: "#text".to_owned(),
                line,
            }),
            _ => None,
        }
    }

    /// After the tree builder processed the token: if it started `<body>`, `<head>` was broken
    /// by that token.
    fn after(&mut self, candidate: Option<HeadBreak>, body_started: bool) {
        if !self.settled && body_started {
            self.settled = true;
            self.head_break = candidate;
        }
    }
}

/// Passes tokens to the tree builder, watching for what ends `<head>` and for a point where
/// the rest of the document can be left to the scanner.
struct HeadWatcher {
    builder: TreeBuilder<NodeId, LineSink>,
    state: RefCell<HeadState>,
    /// The last token of the current feed, if it was a tag: `(is start tag, name)`.
    last_tag: RefCell<Option<(bool, LocalName)>>,
    /// `<template>` start tags minus end tags.
    open_templates: Cell<u32>,
    /// `<picture>` start tags minus end tags (the scanner continues the count).
    open_pictures: Cell<u32>,
    /// A `<frameset>` start tag was seen: after an implied `<body>` it replaces the body, and
    /// from then on the tree builder is in frameset modes, which the scanner does not follow.
    frameset_seen: Cell<bool>,
    /// Start tags handed to the tree builder; past [`MAX_TREE_ELEMENTS`] the rest of the
    /// document is tokenized but builds nothing, and `cut` is set.
    start_tags: Cell<usize>,
    cut: Cell<bool>,
}

impl HeadWatcher {
    /// Whether the tokenizer stands right after a tag, in data state, in HTML content outside
    /// any template, with `<body>` begun: the scanner can take over from here.
    fn can_hand_over(&self) -> bool {
        let last_tag = self.last_tag.borrow();
        let Some((is_start, name)) = last_tag.as_ref() else {
            return false;
        };
        let switches_tokenizer = *is_start
            && matches!(
                *name,
                local_name!("script")
                    | local_name!("style")
                    | local_name!("xmp")
                    | local_name!("iframe")
                    | local_name!("noembed")
                    | local_name!("noframes")
                    | local_name!("noscript")
                    | local_name!("textarea")
                    | local_name!("title")
                    | local_name!("plaintext")
                    | local_name!("template")
                    | local_name!("svg")
                    | local_name!("math")
            );
        self.builder.sink.body_started.get()
            && !self.frameset_seen.get()
            && !switches_tokenizer
            && self.open_templates.get() == 0
            && self.open_pictures.get() == 0
            && !self
                .builder
                .adjusted_current_node_present_but_not_in_html_namespace()
    }
}

impl TokenSink for HeadWatcher {
    type Handle = NodeId;

    fn process_token(&self, token: Token, line_number: u64) -> TokenSinkResult<NodeId> {
        if self.start_tags.get() >= MAX_TREE_ELEMENTS {
            // The tree is full: what follows is read no further (`Parsed::cut`).
            self.cut.set(true);
            return TokenSinkResult::Continue;
        }
        let candidate = self.state.borrow_mut().before(&token, line_number);
        match &token {
            Token::TagToken(tag) => {
                let is_start = tag.kind == TagKind::StartTag;
                if is_start {
                    self.start_tags.set(self.start_tags.get() + 1);
                }
                if is_start && tag.name == local_name!("frameset") {
                    self.frameset_seen.set(true);
                }
                let counter = match tag.name {
                    local_name!("template") => Some(&self.open_templates),
                    local_name!("picture") => Some(&self.open_pictures),
                    _ => None,
                };
                if let Some(counter) = counter {
                    let open = counter.get();
                    counter.set(if is_start {
                        open.saturating_add(1)
                    } else {
                        open.saturating_sub(1)
                    });
                }
                *self.last_tag.borrow_mut() = Some((is_start, tag.name.clone()));
            }
            Token::ParseError(_) => {}
            _ => *self.last_tag.borrow_mut() = None,
        }
        let result = self.builder.process_token(token, line_number);
        self.state
            .borrow_mut()
            .after(candidate, self.builder.sink.body_started.get());
        result
    }

    fn end(&self) {
        self.builder.end();
    }

    fn adjusted_current_node_present_but_not_in_html_namespace(&self) -> bool {
        self.builder
            .adjusted_current_node_present_but_not_in_html_namespace()
    }
}
