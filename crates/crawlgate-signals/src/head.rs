//! The plain-head fast path: most pages open with a `<head>` holding nothing but `<meta>`,
//! `<link>`, `<base>`, `<title>`, `<script>` and `<style>` elements, comments and white space,
//! closed by `</head>` and `<body>`. For such a head, HTML tree construction has nothing to
//! decide (every one of those elements lands in `<head>`, and `<body>` starts where the source
//! says), so the tags are read with the scanner and html5ever is not started at all: on a
//! small page, setting it up and tokenizing the head one character at a time was half the
//! extraction time.
//!
//! Anything else before `<body>` (text, another element, `<noscript>`, `<template>`, a second
//! `<head>`, a stray end tag, a `<meta http-equiv="Content-Type">`, a document that ends first)
//! returns `None`, and the caller parses with html5ever as before. Tests hold both paths to the
//! same signals on every fixture page and on generated heads.

use super::collect::Extracted;
use super::scan::{ScannedTag, Scanner, is_space, scan_attributes};
use memchr::memchr;

/// What a plain head gave.
pub(crate) struct PlainHead<'t> {
    /// The extracted start tags of `<head>`, in source order.
    pub tags: Vec<ScannedTag<'t>>,
    /// Byte offset just past the `<body …>` tag: the scanner continues from there.
    pub body_at: usize,
    /// The `charset` of the first `<meta charset>` in `<head>` (what html5ever reports).
    pub declared_encoding: Option<String>,
    /// The first `<title>`'s text, as written (character references not yet decoded).
    pub title: Option<&'t str>,
}

/// The head elements whose content is text up to their end tag.
const RAW_TEXT_IN_HEAD: [&str; 3] = ["script", "style", "title"];

/// Where the source stands with respect to `<head>`.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Stage {
    /// Before `<head>` (and maybe before `<html>`).
    Before,
    Inside,
    /// After `</head>`: only white space and comments may come before `<body>`.
    After,
}

/// Reads the document's head without tree construction, if it is plain (see the module docs).
pub(crate) fn plain_head(text: &str) -> Option<PlainHead<'_>> {
    let bytes = text.as_bytes();
    // Only the scanner's tokenizer rules are used (tag names, comments, raw text ends); its
    // position and nesting state are not: this loop keeps its own.
    let scanner = Scanner::new(text, 0);
    let mut position = 0;
    let mut stage = Stage::Before;
    let mut seen_html = false;
    let mut tags = Vec::new();
    let mut declared_encoding = None;
    let mut title: Option<&str> = None;
    // After a raw text element (`<script>`, `<style>`, `<title>`), the only token possible next
    // is its end tag.
    let mut awaited_end_tag: Option<&'static str> = None;
    loop {
        let rest = bytes.get(position..)?;
        let open = position + memchr(b'<', rest)?;
        if !bytes
            .get(position..open)?
            .iter()
            .all(|byte| is_space(*byte))
        {
            return None;
        }
        match *bytes.get(open + 1)? {
            b'/' => {
                let (name_end, name) = scanner.tag_name(open + 2)?;
                let (gt, _) = scan_attributes(text, name_end, None)?;
                position = gt + 1;
                match awaited_end_tag.take() {
                    Some(awaited) if name == awaited => {}
                    None if name == "head" && stage == Stage::Inside => stage = Stage::After,
                    _ => return None,
                }
            }
            _ if awaited_end_tag.is_some() => return None,
            b'!' if bytes.get(open..)?.starts_with(b"<!--") || stage == Stage::Before => {
                // A comment, or the doctype (a markup declaration elsewhere is a bogus comment,
                // also ignored, but rare enough to leave to html5ever).
                position = scanner.markup_declaration(open);
            }
            byte if byte.is_ascii_alphabetic() => {
                let (name_end, name) = scanner.tag_name(open + 1)?;
                let kind = Extracted::from_name(&name);
                let mut attributes = Vec::new();
                let (gt, _) =
                    scan_attributes(text, name_end, kind.is_some().then_some(&mut attributes))?;
                position = gt + 1;
                match (stage, name.as_ref()) {
                    (_, "body") => {
                        return Some(PlainHead {
                            tags,
                            body_at: position,
                            declared_encoding,
                            title,
                        });
                    }
                    (Stage::Before, "html") if !seen_html => seen_html = true,
                    (Stage::Before, "head") => stage = Stage::Inside,
                    (Stage::Before | Stage::Inside, "meta" | "link" | "base") => {
                        // A head element before `<head>` opens it implicitly.
                        stage = Stage::Inside;
                    }
                    (Stage::Before | Stage::Inside, "script" | "style" | "title") => {
                        stage = Stage::Inside;
                        let element = RAW_TEXT_IN_HEAD.into_iter().find(|raw| *raw == name)?;
                        let content = position;
                        position = if element == "script" {
                            scanner.script_end(position)
                        } else {
                            scanner.raw_text_end(position, element)
                        };
                        if element == "title" && title.is_none() {
                            title = text.get(content..position);
                        }
                        awaited_end_tag = Some(element);
                    }
                    _ => return None,
                }
                if let Some(kind) = kind {
                    if kind == Extracted::Meta
                        && !note_declared_encoding(&attributes, &mut declared_encoding)
                    {
                        return None;
                    }
                    tags.push(ScannedTag {
                        kind,
                        attributes,
                        start: open,
                        end: gt,
                        in_picture: false,
                    });
                }
            }
            _ => return None,
        }
    }
}

/// Keeps the first `<meta charset>` value, as html5ever reports it. `false` for a
/// `<meta http-equiv="Content-Type" content=…>`: extracting its charset is html5ever's job, so
/// the caller takes the html5ever path.
fn note_declared_encoding(
    attributes: &[(std::borrow::Cow<'_, str>, std::borrow::Cow<'_, str>)],
    declared: &mut Option<String>,
) -> bool {
    let value = |wanted: &str| {
        attributes
            .iter()
            .find(|(name, _)| name == wanted)
            .map(|(_, value)| value.as_ref())
    };
    if let Some(charset) = value("charset") {
        declared.get_or_insert_with(|| charset.to_owned());
        return true;
    }
    let content_type = value("http-equiv")
        .is_some_and(|equiv| equiv.eq_ignore_ascii_case("content-type"))
        && value("content").is_some();
    !content_type
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_typical_head_is_plain() {
        let text = "<!DOCTYPE html>\n<html lang=en>\n<head>\n<meta charset=\"utf-8\">\n\
                    <title>A <b> title</title>\n<!-- note -->\n<link rel=canonical href=/c>\n\
                    <script>if (a </b) {}</script>\n<style>p{}</style>\n</head>\n<body class=x>\n<p>";
        let head = plain_head(text).expect("plain");
        let kinds: Vec<_> = head.tags.iter().map(|tag| tag.kind).collect();
        assert_eq!(kinds, [Extracted::Meta, Extracted::Link, Extracted::Script]);
        assert_eq!(&text[head.body_at..], "\n<p>");
        assert_eq!(head.declared_encoding.as_deref(), Some("utf-8"));
    }

    #[test]
    fn head_elements_without_head_tags_are_plain() {
        let head = plain_head("<meta name=robots content=noindex><body>").expect("plain");
        assert_eq!(head.tags.len(), 1);
        assert!(plain_head("<body><meta name=robots content=noindex>").is_some());
    }

    #[test]
    fn anything_tree_construction_must_decide_is_not_plain() {
        for text in [
            "<head>text<body>",
            "<head><noscript></noscript><body>",
            "<head><template></template><body>",
            "<head><img src=i><body>",
            "<head></head><link rel=canonical href=/c><body>",
            "<head><head><body>",
            "<head></title><body>",
            "<head><meta http-equiv=Content-Type content=\"text/html; charset=utf-8\"><body>",
            "<head><title>never closed",
            "<head><meta charset=utf-8>",
            "<head><?pi?><body>",
            "<head><!doctype html><body>",
            "<head>&amp;<body>",
            "<frameset>",
        ] {
            assert!(plain_head(text).is_none(), "{text}");
        }
    }
}
