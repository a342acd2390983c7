//! A fast scanner for the part of a document after `<body>` has begun.
//!
//! Once html5ever's tree builder is in body mode nothing can enter `<head>` any more, so the rest
//! of the document needs no tree: only the start tags we extract from, with their attributes,
//! found the way the HTML tokenizer finds them (comments, raw text elements, quoted attribute
//! values, character references). This runs at memchr speed where the full parse is bounded by
//! html5ever's per-character tokenizer; `extract` is tested to give the same signals as the full
//! parse on the real pages in `fixtures/pages/real/` and on generated documents.
//!
//! Foreign content (`<svg>`, `<math>`) follows the standard's rules for it ("in foreign content"
//! and the tree construction dispatcher): namespaces inherited (an `<svg>` inside `MathML` is a
//! `MathML` element, a `<math>` inside SVG an SVG one), breakout start tags and `<font
//! color|face|size>` popping back to HTML, `</p>` and `</br>`, end tags matched against the open
//! foreign elements. Where the outcome depends on the HTML stack of open elements or the list of
//! active formatting elements, which the scanner does not keep, it stops and says so
//! ([`Scanner::needs_tree_builder`]), and the caller parses the whole document with html5ever:
//! any start tag or character in an integration point (`foreignObject`, `desc`, `title`, `mi`…,
//! `annotation-xml` with an HTML encoding), a breakout that lands in one, an end tag that reaches
//! an HTML ancestor (`</div>`, `</template>` inside `<svg>`), and `<frameset>` (after an implied
//! `<body>` it replaces the body and everything in it). Inline icons (`<svg><path/></svg>`) stay
//! on the fast path.
//!
//! Approximations (documented, outside what the differential tests generate; neither decides
//! head or body, which is settled before the scanner starts): a `<source>` is a `<picture>`
//! candidate when its parent in the source is `<picture>` (inside `<picture>`, implicit end tags
//! such as a `<div>` closing a `<p>`, and foster parenting out of tables, are not followed); and
//! `<template>` nesting is counted from the source, so content that foster parenting moves out of
//! a template among tables (`<table><template><table><a href=x>`) is still taken as inert.

use super::collect::Extracted;
use crate::limits::MAX_ATTRIBUTES;
use memchr::{memchr, memmem};
use std::borrow::Cow;

/// An extracted start tag, as the tokenizer reads it.
pub(crate) struct ScannedTag<'t> {
    pub kind: Extracted,
    /// Attributes in source order, names lowercase, values decoded; later duplicates dropped.
    pub attributes: Vec<(Cow<'t, str>, Cow<'t, str>)>,
    /// Byte offset of the `<`.
    pub start: usize,
    /// Byte offset of the `>`.
    pub end: usize,
    /// A child of `<picture>` (a `<source>` there is an image candidate).
    pub in_picture: bool,
}

/// Where the scanner stands between tags.
pub(crate) struct Scanner<'t> {
    text: &'t str,
    position: usize,
    /// Open `<svg>` / `<math>` elements and their foreign descendants, outermost first. Empty
    /// in HTML content. Only foreign elements are ever on it: HTML content inside an
    /// integration point stops the scanner.
    foreign: Vec<Foreign>,
    /// Set when the rest of the document needs the tree builder: `next_tag` then returns `None`.
    needs_tree: bool,
    template_depth: u32,
    /// Elements open inside the outermost open `<picture>`, innermost last (a `<source>` is an
    /// image candidate only as a child of `<picture>`).
    picture: Vec<String>,
}

/// Elements whose content is text up to their end tag.
const RAW_TEXT: [&str; 9] = [
    "script", "style", "xmp", "iframe", "noembed", "noframes", "noscript", "textarea", "title",
];

/// Elements without content (no end tag, never a parent).
const VOID: [&str; 16] = [
    "area", "base", "basefont", "bgsound", "br", "col", "embed", "hr", "img", "input", "keygen",
    "link", "meta", "param", "source", "track",
];

/// Deepest nesting tracked inside a `<picture>` (bounds memory on hostile input).
const MAX_PICTURE_NESTING: usize = 64;

/// Start tags that end `<svg>` / `<math>` content (HTML spec, "in foreign content").
const BREAKOUT: [&str; 44] = [
    "b",
    "big",
    "blockquote",
    "body",
    "br",
    "center",
    "code",
    "dd",
    "div",
    "dl",
    "dt",
    "em",
    "embed",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "head",
    "hr",
    "i",
    "img",
    "li",
    "listing",
    "menu",
    "meta",
    "nobr",
    "ol",
    "p",
    "pre",
    "ruby",
    "s",
    "small",
    "span",
    "strong",
    "strike",
    "sub",
    "sup",
    "table",
    "tt",
    "u",
    "ul",
    "var",
];

/// SVG elements whose content is HTML again (HTML integration points).
const SVG_INTEGRATION_POINTS: [&str; 3] = ["foreignobject", "desc", "title"];
/// `MathML` text integration points: start tags (but `mglyph`, `malignmark`) and text in them
/// are HTML.
const MATHML_TEXT_INTEGRATION_POINTS: [&str; 5] = ["mi", "mo", "mn", "ms", "mtext"];

/// One open foreign element.
struct Foreign {
    /// Lowercase tag name (the standard compares end tags with it lowercased).
    name: String,
    svg: bool,
    integration: Integration,
}

/// Whether (and how) an element's content is HTML again.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Integration {
    None,
    /// SVG `foreignObject`, `desc`, `title`; `MathML` `annotation-xml` with an HTML encoding.
    Html,
    /// `MathML` `mi`, `mo`, `mn`, `ms`, `mtext`.
    MathText,
}
/// Deepest foreign nesting tracked (bounds memory on hostile input).
const MAX_FOREIGN_NESTING: usize = 1024;

pub(super) fn is_space(byte: u8) -> bool {
    matches!(byte, b'\t' | b'\n' | b'\x0C' | b'\r' | b' ')
}

impl<'t> Scanner<'t> {
    /// A scanner starting at `position`, which must be in the tokenizer's data state (right
    /// after a tag, outside raw text, foreign content, templates and `<picture>`).
    pub(crate) fn new(text: &'t str, position: usize) -> Self {
        Scanner {
            text,
            position,
            foreign: Vec::new(),
            needs_tree: false,
            template_depth: 0,
            picture: Vec::new(),
        }
    }

    fn bytes(&self) -> &'t [u8] {
        self.text.as_bytes()
    }

    /// Whether the current token is read in HTML content: no foreign element open.
    fn in_html_content(&self) -> bool {
        self.foreign.is_empty()
    }

    /// Whether the current node is an integration point (its text and start tags are HTML).
    fn in_integration_point(&self) -> bool {
        self.foreign
            .last()
            .is_some_and(|top| top.integration != Integration::None)
    }

    /// Whether the rest of the document needs the tree builder (see the module docs); the
    /// scanner has stopped there.
    pub(crate) fn needs_tree_builder(&self) -> bool {
        self.needs_tree
    }

    /// Opens a foreign element: `<svg>` and `<math>` from HTML content set the namespace,
    /// anything in foreign content takes its parent's (the standard's "adjusted current node").
    fn push_foreign(&mut self, name: String, encoding_is_html: bool) {
        if self.foreign.len() >= MAX_FOREIGN_NESTING {
            return;
        }
        let svg = match self.foreign.last() {
            Some(parent) => parent.svg,
            None => name == "svg",
        };
        let integration = if svg {
            if SVG_INTEGRATION_POINTS.contains(&name.as_str()) {
                Integration::Html
            } else {
                Integration::None
            }
        } else if MATHML_TEXT_INTEGRATION_POINTS.contains(&name.as_str()) {
            Integration::MathText
        } else if name == "annotation-xml" && encoding_is_html {
            Integration::Html
        } else {
            Integration::None
        };
        self.foreign.push(Foreign {
            name,
            svg,
            integration,
        });
    }

    /// Pops foreign elements until the current node is an integration point or HTML. `true` if
    /// that left HTML content (no foreign element open).
    fn pop_to_integration_point(&mut self) -> bool {
        while let Some(top) = self.foreign.last() {
            if top.integration != Integration::None {
                return false;
            }
            self.foreign.pop();
        }
        true
    }

    /// The next start tag we extract from, or `None` at the end of the document.
    pub(crate) fn next_tag(&mut self) -> Option<ScannedTag<'t>> {
        let bytes = self.bytes();
        loop {
            if self.needs_tree {
                return None;
            }
            let open = self.position + memchr(b'<', bytes.get(self.position..)?)?;
            if open > self.position && self.in_integration_point() {
                // Text in an integration point is HTML text: it reconstructs the active
                // formatting elements, which may open HTML elements the scanner cannot see.
                self.needs_tree = true;
                return None;
            }
            self.position = open + 1;
            match bytes.get(open + 1) {
                Some(b'!') => {
                    if self.in_integration_point()
                        && bytes
                            .get(open..)
                            .is_some_and(|rest| rest.starts_with(b"<![CDATA["))
                    {
                        // CDATA is text, and text in an integration point is HTML text.
                        self.needs_tree = true;
                        return None;
                    }
                    self.position = self.markup_declaration(open);
                }
                Some(b'?') => self.position = self.after_next_gt(open),
                Some(b'/') => match bytes.get(open + 2) {
                    Some(b) if b.is_ascii_alphabetic() => self.end_tag(open + 2)?,
                    Some(b'>') => self.position = open + 3,
                    Some(_) => self.position = self.after_next_gt(open),
                    None => return None,
                },
                Some(b) if b.is_ascii_alphabetic() => {
                    if let Some(tag) = self.start_tag(open)? {
                        return Some(tag);
                    }
                }
                // A `<` that opens no tag is text.
                _ if self.in_integration_point() => {
                    self.needs_tree = true;
                    return None;
                }
                _ => {}
            }
        }
    }

    /// Past the first `>` from `from`, or the end.
    fn after_next_gt(&self, from: usize) -> usize {
        let bytes = self.bytes();
        bytes
            .get(from..)
            .and_then(|rest| memchr(b'>', rest))
            .map_or(bytes.len(), |offset| from + offset + 1)
    }

    /// `<!--…-->`, `<![CDATA[…]]>` in foreign content, or a bogus comment up to `>`.
    pub(super) fn markup_declaration(&self, open: usize) -> usize {
        let bytes = self.bytes();
        let rest = bytes.get(open..).unwrap_or_default();
        if rest.starts_with(b"<!--") {
            return comment_end(bytes, open + 4);
        }
        // The tokenizer allows CDATA whenever the current node is foreign, integration points
        // included.
        if rest.starts_with(b"<![CDATA[") && !self.foreign.is_empty() {
            return memmem::find(rest, b"]]>").map_or(bytes.len(), |end| open + end + 3);
        }
        self.after_next_gt(open)
    }

    /// Reads a tag name starting at `from`: its end offset and lowercase form.
    pub(super) fn tag_name(&self, from: usize) -> Option<(usize, Cow<'t, str>)> {
        let bytes = self.bytes();
        let length = bytes
            .get(from..)?
            .iter()
            .position(|b| is_space(*b) || matches!(b, b'/' | b'>'))?;
        let name = self.text.get(from..from + length)?;
        Some((from + length, lowercase(name)))
    }

    fn end_tag(&mut self, name_start: usize) -> Option<()> {
        let (name_end, name) = self.tag_name(name_start)?;
        let (gt, _) = scan_attributes(self.text, name_end, None)?;
        self.position = gt + 1;
        if !self.foreign.is_empty() {
            // End tags are always read by the rules for foreign content while a foreign element
            // is open, integration points included.
            if matches!(name.as_ref(), "p" | "br") {
                // Back to an integration point or HTML, then the HTML rules: `</p>` opens and
                // closes an empty `<p>`, which changes nothing open; `</br>` is a `<br>`, which
                // reconstructs the active formatting elements: harmless in HTML content (the
                // scanner keeps no HTML stack), not inside an integration point.
                if !self.pop_to_integration_point() && name == "br" {
                    self.needs_tree = true;
                }
            } else if let Some(index) = self.foreign.iter().rposition(|open| open.name == name) {
                self.foreign.truncate(index);
            } else {
                // The search for a matching element reached an HTML element: the HTML rules
                // for this end tag decide, against the HTML stack of open elements.
                self.needs_tree = true;
            }
            return Some(());
        }
        if name == "template" {
            self.template_depth = self.template_depth.saturating_sub(1);
        }
        if let Some(index) = self.picture.iter().rposition(|open| *open == name) {
            self.picture.truncate(index);
        }
        Some(())
    }

    /// Reads a start tag at `open`. `None`: end of input (a tag cut by EOF is dropped, as the
    /// tokenizer drops it). `Some(None)`: a tag we do not extract from.
    #[allow(clippy::option_option)]
    fn start_tag(&mut self, open: usize) -> Option<Option<ScannedTag<'t>>> {
        let (name_end, mut name) = self.tag_name(open + 1)?;
        // Attributes decide for `<font>` (a breakout with color, face or size) and
        // `annotation-xml` (an integration point with an HTML encoding) in foreign content.
        let foreign_needs_attributes =
            !self.foreign.is_empty() && matches!(name.as_ref(), "font" | "annotation-xml");
        let html = self.in_html_content();
        if html && name == "image" {
            name = Cow::Borrowed("img");
        }
        let kind = if html && self.template_depth == 0 {
            Extracted::from_name(&name)
        } else {
            None
        };
        let mut attributes = Vec::new();
        let (gt, self_closing) = scan_attributes(
            self.text,
            name_end,
            (kind.is_some() || foreign_needs_attributes).then_some(&mut attributes),
        )?;
        self.position = gt + 1;
        if let Some(top) = self.foreign.last() {
            let has = |wanted: &str| attributes.iter().any(|(name, _)| name == wanted);
            // The tree construction dispatcher: a start tag in an HTML integration point, or
            // in a MathML text integration point (but `mglyph`, `malignmark`), or `<svg>` in
            // `annotation-xml`, is read by the HTML rules.
            let by_html_rules = match top.integration {
                Integration::Html => true,
                Integration::MathText => !matches!(name.as_ref(), "mglyph" | "malignmark"),
                Integration::None => !top.svg && top.name == "annotation-xml" && name == "svg",
            };
            let breakout = !by_html_rules
                && (BREAKOUT.contains(&name.as_ref())
                    || (name == "font" && (has("color") || has("face") || has("size"))));
            if by_html_rules || (breakout && !self.pop_to_integration_point()) {
                // HTML content inside foreign content: the HTML stack of open elements and
                // the active formatting elements decide what follows.
                self.needs_tree = true;
                return Some(None);
            }
            if !breakout {
                if !self_closing {
                    let encoding_is_html = attributes.iter().any(|(name, value)| {
                        name == "encoding"
                            && (value.eq_ignore_ascii_case("text/html")
                                || value.eq_ignore_ascii_case("application/xhtml+xml"))
                    });
                    self.push_foreign(name.into_owned(), encoding_is_html);
                }
                return Some(None);
            }
            // A breakout back in HTML content: the tag is read again, as an HTML start tag.
            self.position = open;
            return Some(None);
        }
        let in_picture = self
            .picture
            .last()
            .is_some_and(|parent| parent == "picture");
        if (name == "picture" || !self.picture.is_empty())
            && !VOID.contains(&name.as_ref())
            && !matches!(
                name.as_ref(),
                "html" | "head" | "body" | "frameset" | "frame"
            )
            && self.picture.len() < MAX_PICTURE_NESTING
        {
            self.picture.push(name.clone().into_owned());
        }
        match name.as_ref() {
            "svg" | "math" if !self_closing => self.push_foreign(name.into_owned(), false),
            "frameset" => {
                // After an implied `<body>` (frameset-ok still set) a `<frameset>` removes the
                // body and all in it; after an explicit one it is ignored. Only the tree knows.
                self.needs_tree = true;
                return Some(None);
            }
            "template" => self.template_depth += 1,
            "plaintext" => self.position = self.text.len(),
            "script" => self.position = self.script_end(gt + 1),
            raw if RAW_TEXT.contains(&raw) => self.position = self.raw_text_end(gt + 1, raw),
            _ => {}
        }
        Some(kind.map(|kind| ScannedTag {
            kind,
            attributes,
            start: open,
            end: gt,
            in_picture,
        }))
    }

    /// The `<` of the `</script>` closing a script, following the tokenizer's script data
    /// states: inside `<!--` … `-->`, a `<script>` opens a "double escaped" stretch in which
    /// `</script>` does not end the script.
    pub(super) fn script_end(&self, from: usize) -> usize {
        #[derive(PartialEq)]
        enum State {
            Data,
            Escaped,
            DoubleEscaped,
        }
        let bytes = self.bytes();
        let is_script_tag = |at: usize| {
            bytes
                .get(at..at + 6)
                .is_some_and(|name| name.eq_ignore_ascii_case(b"script"))
                && bytes
                    .get(at + 6)
                    .is_some_and(|b| is_space(*b) || matches!(b, b'/' | b'>'))
        };
        let mut state = State::Data;
        let mut position = from;
        while let Some(offset) = bytes
            .get(position..)
            .and_then(|rest| memchr::memchr2(b'<', b'-', rest))
        {
            let at = position + offset;
            let rest = bytes.get(at..).unwrap_or_default();
            position = at + 1;
            if rest.starts_with(b"-->") {
                if state != State::Data {
                    state = State::Data;
                    position = at + 3;
                }
            } else if rest.starts_with(b"<!--") {
                if state == State::Data {
                    state = State::Escaped;
                    // The dashes may also close it at once (`<!-->`).
                    position = at + 2;
                }
            } else if rest.starts_with(b"</") && is_script_tag(at + 2) {
                match state {
                    State::DoubleEscaped => {
                        state = State::Escaped;
                        position = at + 8;
                    }
                    State::Data | State::Escaped => return at,
                }
            } else if rest.starts_with(b"<") && state == State::Escaped && is_script_tag(at + 1) {
                state = State::DoubleEscaped;
                position = at + 7;
            }
        }
        bytes.len()
    }

    /// The `<` of the end tag closing a raw text element, or the end of input.
    pub(super) fn raw_text_end(&self, from: usize, name: &str) -> usize {
        let bytes = self.bytes();
        let mut position = from;
        while let Some(offset) = bytes
            .get(position..)
            .and_then(|rest| memmem::find(rest, b"</"))
        {
            let candidate = position + offset;
            let name_start = candidate + 2;
            let name_end = name_start + name.len();
            if bytes
                .get(name_start..name_end)
                .is_some_and(|found| found.eq_ignore_ascii_case(name.as_bytes()))
                && bytes
                    .get(name_end)
                    .is_some_and(|b| is_space(*b) || matches!(b, b'/' | b'>'))
            {
                return candidate;
            }
            position = candidate + 2;
        }
        bytes.len()
    }
}

/// After `<!--` at `from`: the offset past the comment's end (`-->`, `--!>`, or `<!-->` /
/// `<!--->` closing at once), or the end of input.
fn comment_end(bytes: &[u8], from: usize) -> usize {
    let rest = bytes.get(from..).unwrap_or_default();
    if rest.starts_with(b">") {
        return from + 1;
    }
    if rest.starts_with(b"->") {
        return from + 2;
    }
    let mut position = from;
    while let Some(offset) = bytes
        .get(position..)
        .and_then(|rest| memmem::find(rest, b"--"))
    {
        let mut after = position + offset + 2;
        while bytes.get(after) == Some(&b'-') {
            after += 1;
        }
        match bytes.get(after) {
            Some(b'>') => return after + 1,
            Some(b'!') if bytes.get(after + 1) == Some(&b'>') => return after + 2,
            None => return bytes.len(),
            _ => position = after,
        }
    }
    bytes.len()
}

fn lowercase(text: &str) -> Cow<'_, str> {
    if text.bytes().any(|b| b.is_ascii_uppercase() || b == 0) {
        Cow::Owned(text.to_ascii_lowercase().replace('\0', "\u{FFFD}"))
    } else {
        Cow::Borrowed(text)
    }
}

/// Attributes a tag has before duplicates are checked in a set rather than the list.
const FEW_ATTRIBUTES: usize = 16;

/// Attributes from `position` (just after the tag name) to the closing `>`, per the tokenizer's
/// attribute states. Returns the `>` offset and whether the tag is self-closing; `None` if the
/// input ends first. Collects into `attributes` when given (first of duplicate names wins; at
/// most [`MAX_ATTRIBUTES`], the rest read past).
pub(super) fn scan_attributes<'t>(
    text: &'t str,
    mut position: usize,
    mut attributes: Option<&mut Vec<(Cow<'t, str>, Cow<'t, str>)>>,
) -> Option<(usize, bool)> {
    let bytes = text.as_bytes();
    let skip_spaces = |mut at: usize| {
        while bytes.get(at).is_some_and(|b| is_space(*b)) {
            at += 1;
        }
        at
    };
    // Names seen, once a tag has many attributes: checking each new one against a list would
    // cost the square of a flooded tag's attributes.
    let mut seen: Option<std::collections::HashSet<Cow<'t, str>>> = None;
    loop {
        position = skip_spaces(position);
        match *bytes.get(position)? {
            b'>' => return Some((position, false)),
            b'/' => {
                position += 1;
                if bytes.get(position) == Some(&b'>') {
                    return Some((position, true));
                }
                continue;
            }
            _ => {}
        }
        // The first character belongs to the name whatever it is (even `=`).
        let name_start = position;
        position += 1;
        while let Some(&byte) = bytes.get(position) {
            if is_space(byte) || matches!(byte, b'/' | b'>' | b'=') {
                break;
            }
            position += 1;
        }
        let name_end = position;
        position = skip_spaces(position);
        let mut value = (position, position);
        let mut ends_tag = false;
        if *bytes.get(position)? == b'=' {
            position = skip_spaces(position + 1);
            match *bytes.get(position)? {
                quote @ (b'"' | b'\'') => {
                    let start = position + 1;
                    let close = start + memchr(quote, bytes.get(start..)?)?;
                    value = (start, close);
                    position = close + 1;
                }
                b'>' => {
                    value = (position, position);
                    ends_tag = true;
                }
                _ => {
                    let start = position;
                    while let Some(&byte) = bytes.get(position) {
                        if is_space(byte) || byte == b'>' {
                            break;
                        }
                        position += 1;
                    }
                    value = (start, position);
                }
            }
        }
        if let Some(attributes) = attributes
            .as_deref_mut()
            .filter(|attributes| attributes.len() < MAX_ATTRIBUTES)
        {
            let name = lowercase(text.get(name_start..name_end)?);
            let known = match &mut seen {
                Some(seen) => !seen.insert(name.clone()),
                None if attributes.len() >= FEW_ATTRIBUTES => {
                    let mut names: std::collections::HashSet<Cow<'t, str>> =
                        attributes.iter().map(|(known, _)| known.clone()).collect();
                    let known = !names.insert(name.clone());
                    seen = Some(names);
                    known
                }
                None => attributes.iter().any(|(known, _)| *known == name),
            };
            if !known {
                let raw_value = text.get(value.0..value.1)?;
                attributes.push((name, super::entities::decode_attribute(raw_value)));
            }
        }
        if ends_tag {
            return Some((position, false));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scan(text: &str) -> Vec<(Extracted, Vec<(String, String)>)> {
        let mut scanner = Scanner::new(text, 0);
        std::iter::from_fn(|| scanner.next_tag())
            .map(|tag| {
                let attributes = tag
                    .attributes
                    .into_iter()
                    .map(|(name, value)| (name.into_owned(), value.into_owned()))
                    .collect();
                (tag.kind, attributes)
            })
            .collect()
    }

    fn hrefs(text: &str) -> Vec<String> {
        scan(text)
            .into_iter()
            .filter_map(|(_, attributes)| {
                attributes
                    .into_iter()
                    .find(|(name, _)| name == "href")
                    .map(|(_, value)| value)
            })
            .collect()
    }

    #[test]
    fn attribute_forms() {
        let tags = scan(r#"<A HREF=one TITLE='a>b' data-x = "q&amp;r" href=dup selected/>"#);
        assert_eq!(tags.len(), 1);
        assert_eq!(tags[0].0, Extracted::A);
        assert_eq!(
            tags[0].1,
            [
                ("href".into(), "one".into()),
                ("title".into(), "a>b".into()),
                ("data-x".into(), "q&r".into()),
                ("selected".into(), String::new()),
            ]
        );
        assert_eq!(hrefs("<a =x href=y>"), ["y"]);
        assert_eq!(hrefs("<a href=x/>"), ["x/"]);
        assert_eq!(hrefs("<a href=>"), [""]);
        assert_eq!(hrefs(r#"<a href="x"title=y>"#), ["x"]);
        assert_eq!(hrefs("<a/href=z>"), ["z"]);
    }

    #[test]
    fn comments_and_declarations_hide_tags() {
        assert_eq!(
            hrefs("<!-- <a href=1> --><a href=2><!--><a href=3><!---><a href=4>"),
            ["2", "3", "4"]
        );
        assert_eq!(
            hrefs("<!-- x --!><a href=5><!-- a -- b ---><a href=6>"),
            ["5", "6"]
        );
        assert_eq!(
            hrefs("<!DOCTYPE html><?php x ?><a href=7></ x><a href=8>"),
            ["7", "8"]
        );
        assert_eq!(hrefs("<!-- unterminated <a href=9>"), Vec::<String>::new());
        // Outside foreign content CDATA is a bogus comment, closed by the first `>`.
        assert_eq!(hrefs("<![CDATA[<a href=10>]]><a href=11>"), ["11"]);
    }

    #[test]
    fn raw_text_elements_hide_tags() {
        assert_eq!(
            hrefs(r#"<script>var a = "<a href=1>";</script ><a href=2>"#),
            ["2"]
        );
        assert_eq!(
            hrefs("<textarea><a href=1></textareax></TEXTAREA><a href=2>"),
            ["2"]
        );
        assert_eq!(hrefs("<title><a href=1></title><a href=2>"), ["2"]);
        assert_eq!(hrefs("<noscript><a href=1></noscript><a href=2>"), ["2"]);
        assert_eq!(
            hrefs("<plaintext></plaintext><a href=1>"),
            Vec::<String>::new()
        );
    }

    #[test]
    fn script_escapes() {
        assert_eq!(
            hrefs("<script><!-- document.write('<script></script>') --></script><a href=1>"),
            ["1"]
        );
        assert_eq!(
            hrefs("<script><!--<script></script><a href=0></script><a href=1>"),
            ["1"]
        );
        assert_eq!(hrefs("<script><!--></script><a href=2>"), ["2"]);
        assert_eq!(hrefs("<script>a-->b</script><a href=3>"), ["3"]);
        assert_eq!(hrefs("<script><!--<script>--></script><a href=4>"), ["4"]);
        assert_eq!(hrefs("<script><!--<script></script"), Vec::<String>::new());
    }

    /// Whether the scanner stops for the tree builder on `text`.
    fn needs_tree(text: &str) -> bool {
        let mut scanner = Scanner::new(text, 0);
        while scanner.next_tag().is_some() {}
        scanner.needs_tree_builder()
    }

    #[test]
    fn foreign_content_and_templates() {
        assert_eq!(
            hrefs("<svg><a href=1></a><style><a href=2></style></svg><a href=3>"),
            ["3"]
        );
        assert_eq!(hrefs("<svg><path/><div><a href=2>"), ["2"]);
        assert_eq!(hrefs("<svg><g><font color=red><a href=2>"), ["2"]);
        assert_eq!(
            hrefs("<svg><font><a href=1></a></font></svg><a href=2>"),
            ["2"]
        );
        // Inside SVG, `<math>` is an SVG element: its `<mi>` is no integration point.
        assert_eq!(
            hrefs("<svg><math><mi><a href=1></mi></math></svg><a href=2>"),
            ["2"]
        );
        assert_eq!(hrefs("<svg><title></title><path/></svg><a href=6>"), ["6"]);
        assert_eq!(
            hrefs("<math><title><a href=7></title></math><a href=8>"),
            ["8"]
        );
        // `</p>` leaves foreign content (it pops back to HTML).
        assert_eq!(
            hrefs("<svg><g></p><a href=1></g></svg><a href=2>"),
            ["1", "2"]
        );
        assert_eq!(hrefs("<svg><![CDATA[<a href=1>]]></svg><a href=4>"), ["4"]);
        assert_eq!(hrefs("<svg/><a href=5>"), ["5"]);
        assert_eq!(
            hrefs("<template><a href=1><template></template></template><a href=2>"),
            ["2"]
        );
        for stays in [
            "<svg><path d=x/><g></g></svg><a href=1>",
            "<svg><title></title></svg>",
            "<math><mi><mglyph></mglyph></mi></math>",
            "<svg><desc></p></desc></svg>",
        ] {
            assert!(!needs_tree(stays), "{stays}");
        }
        for stops in [
            // HTML content (start tags, text) in integration points.
            "<svg><foreignObject><a href=1></a></foreignObject></svg>",
            "<svg><desc><div>",
            // Text there may reopen formatting elements (`<b><p></b><svg><title>x`).
            "<svg><title>Icon</title></svg>",
            "<math><mi><a href=3></mi></math>",
            "<math><mi>x</mi></math>",
            "<math><annotation-xml encoding=text/html><div>",
            "<math><annotation-xml><svg>",
            "<svg><foreignObject><![CDATA[x]]>",
            // A breakout that lands in an integration point.
            "<svg><desc><svg><g><div>",
            // End tags that reach an HTML element.
            "<svg><g></div>",
            "<svg><desc></br>",
            "<math><mi><mglyph></br>",
            "<svg></template>",
            "<frameset>",
        ] {
            assert!(needs_tree(stops), "{stops}");
        }
        assert!(!needs_tree(
            "<math><annotation-xml encoding=x><mi2></mi2></annotation-xml>"
        ));
    }

    #[test]
    fn tags_cut_by_the_end_of_input_are_dropped() {
        assert_eq!(hrefs("<a href=1><a href=2"), ["1"]);
        assert_eq!(hrefs("<a href='2>"), Vec::<String>::new());
        assert_eq!(hrefs("<"), Vec::<String>::new());
        assert_eq!(hrefs("</"), Vec::<String>::new());
    }

    #[test]
    fn picture_context() {
        let mut scanner = Scanner::new(
            "<picture><source srcset=a></picture><source srcset=b>\
             <picture><div><source srcset=c></div><source srcset=d>",
            0,
        );
        let in_picture: Vec<bool> = std::iter::from_fn(|| scanner.next_tag())
            .map(|tag| tag.in_picture)
            .collect();
        assert_eq!(in_picture, [true, false, false, true]);
    }

    #[test]
    fn image_is_img() {
        assert_eq!(scan("<image src=x>")[0].0, Extracted::Img);
    }
}
