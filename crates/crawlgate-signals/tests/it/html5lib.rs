//! Head or body, as the HTML standard decides it: html5lib-tests' tree-construction suite
//! (`fixtures/html5lib-tests/`, MIT, commit named in its README).
//!
//! Every `<meta` and `<link` start tag in a test's input gets robots and canonical attributes put
//! first (` name=robots content=x` / ` rel=canonical href=x`: unquoted, so an occurrence inside a
//! quoted attribute value or raw text changes only text; attributes do not steer tree
//! construction for these elements); `<base>`, `<basefont>` and `<bgsound>`, which tree
//! construction treats as it treats `<link>`, become canonical `<link>`s; and a self-closing
//! canonical goes right before each `<title>`, `<style>`, `<script>` and `<template>` start tag,
//! to land where that element lands (it changes no insertion mode). 404 of the 1,573 tests run
//! have such elements. The expected tree (`#document`) then says how many HTML
//! `<meta>` and `<link>` elements end up inside `<head>` and how many elsewhere (outside template
//! contents, which are inert); crawlgate's robots metas (`in_head`) and canonicals (effective or
//! not) must come to the same counts. The counts, not each element: the tree lists elements in
//! tree order, crawlgate in source order, and foster parenting makes them differ.
//!
//! A second test compares crawlgate with html5ever's full parse (the whole document fed at once,
//! no U+FEFF dropped) on every input with a robots meta and a canonical inserted after each tag,
//! alone and after a U+FEFF.
//!
//! Skipped, and why: `#document-fragment` tests (a fragment has no head or body of its own);
//! `#script-off` tests (crawlgate reads as a scripting browser does: `<noscript>` is raw text,
//! html5ever's default); the `scripted/` folder (needs a script engine, not shipped).

use crawlgate_signals::{HeaderLine, PageInput, Signals, extract};
use std::path::PathBuf;
use url::Url;

/// One tree-construction test.
struct Case {
    file: String,
    data: String,
    document: Option<String>,
    fragment: bool,
    script_off: bool,
}

fn cases() -> Vec<Case> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../fixtures/html5lib-tests/tree-construction");
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&root)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "dat"))
        .collect();
    paths.sort();
    assert_eq!(paths.len(), 55, "html5lib-tests fixtures");
    let mut cases = Vec::new();
    for path in paths {
        let file = path.file_name().unwrap().to_string_lossy().into_owned();
        let text = std::fs::read_to_string(&path).unwrap();
        // Each test starts with `#data` on a line of its own; the input runs to `#errors`, then
        // sections, each a heading line and its lines, `#document` last.
        for chunk in text.split("#data\n").skip(1) {
            let (data, rest) = match chunk.strip_prefix("#errors\n") {
                Some(rest) => ("", rest),
                None => chunk
                    .split_once("\n#errors\n")
                    .unwrap_or_else(|| panic!("{file}: a test without #errors")),
            };
            let mut sections: Vec<(&str, String)> = Vec::new();
            for line in rest.split_inclusive('\n') {
                let heading = line.trim_end_matches('\n');
                if matches!(
                    heading,
                    "#new-errors"
                        | "#document"
                        | "#document-fragment"
                        | "#script-off"
                        | "#script-on"
                ) {
                    sections.push((heading, String::new()));
                } else if let Some((_, body)) = sections.last_mut() {
                    body.push_str(line);
                }
            }
            let section = |name: &str| {
                sections
                    .iter()
                    .find(|(heading, _)| *heading == name)
                    .map(|(_, body)| body.clone())
            };
            let data = data.to_owned();
            cases.push(Case {
                file: file.clone(),
                data,
                document: section("#document"),
                fragment: section("#document-fragment").is_some(),
                script_off: section("#script-off").is_some(),
            });
        }
    }
    cases
}

/// `<meta` and `<link` start tags (as the tokenizer would open them) get our attributes first.
fn inject(data: &str) -> String {
    let mut out = String::with_capacity(data.len() + 64);
    let mut rest = data;
    while let Some(at) = rest.find('<') {
        out.push_str(&rest[..at]);
        let tail = &rest[at..];
        // `<base>`, `<basefont>` and `<bgsound>` are in `<link>`'s rule group in every insertion
        // mode (and none is a foreign-content breakout), so they become canonicals too.
        let matched = [
            ("<meta", "<meta name=robots content=x "),
            ("<link", "<link rel=canonical href=x "),
            ("<basefont", "<link rel=canonical href=x "),
            ("<base", "<link rel=canonical href=x "),
            ("<bgsound", "<link rel=canonical href=x "),
            // A self-closing canonical right before these start tags lands where they land:
            // the same rule group in head, after head, in body and in template; in a table
            // (inserted there, or foster-parented) and in foreign content (not HTML) the
            // answer is the same too, and a `<link>` changes no insertion mode. `<noframes>`
            // is left out: in a frameset it is kept, a `<link>` dropped.
            ("<title", "<link rel=canonical href=p /><title"),
            ("<style", "<link rel=canonical href=p /><style"),
            ("<script", "<link rel=canonical href=p /><script"),
            ("<template", "<link rel=canonical href=p /><template"),
        ]
        .into_iter()
        .find(|(tag, _)| {
            tail.get(..tag.len())
                .is_some_and(|head| head.eq_ignore_ascii_case(tag))
                && tail.as_bytes().get(tag.len()).is_some_and(|b| {
                    matches!(b, b'\t' | b'\n' | b'\x0C' | b'\r' | b' ' | b'/' | b'>')
                })
        });
        if let Some((tag, replacement)) = matched {
            out.push_str(replacement);
            rest = &tail[tag.len()..];
        } else {
            out.push('<');
            rest = &tail[1..];
        }
    }
    out.push_str(rest);
    out
}

/// `(metas in head, metas elsewhere, links in head, links elsewhere)`.
type Placement = (usize, usize, usize, usize);

/// Placement read from an expected `#document` tree: the metas and links, and (as links) the
/// probes put before `<title>`, `<style>`, `<script>` and `<template>`.
fn expected_placement(document: &str) -> (Placement, Placement) {
    let mut placement = (0, 0, 0, 0);
    let mut probes = (0, 0, 0, 0);
    // Open nodes by depth: (depth, name as the tree prints it).
    let mut open: Vec<(usize, String)> = Vec::new();
    for line in document.lines() {
        let Some(node) = line.strip_prefix("| ") else {
            continue; // a line inside a multi-line text node
        };
        let trimmed = node.trim_start_matches(' ');
        let depth = (node.len() - trimmed.len()) / 2;
        while open.last().is_some_and(|(d, _)| *d >= depth) {
            open.pop();
        }
        let name =
            if let Some(element) = trimmed.strip_prefix('<').and_then(|n| n.strip_suffix('>')) {
                element.to_owned()
            } else if trimmed == "content" {
                "#content".to_owned()
            } else {
                continue; // text, attributes, comments: no children we care about
            };
        if matches!(name.as_str(), "title" | "style" | "script" | "template")
            && !open.iter().any(|(_, n)| n == "#content")
        {
            if open.iter().any(|(_, n)| n == "head") {
                probes.2 += 1;
            } else {
                probes.3 += 1;
            }
        }
        if matches!(
            name.as_str(),
            "meta" | "link" | "base" | "basefont" | "bgsound"
        ) {
            let in_template = open.iter().any(|(_, n)| n == "#content");
            if !in_template {
                let in_head = open.iter().any(|(_, n)| n == "head");
                match (name.as_str(), in_head) {
                    ("meta", true) => placement.0 += 1,
                    ("meta", false) => placement.1 += 1,
                    (_, true) => placement.2 += 1,
                    (_, false) => placement.3 += 1,
                }
            }
        }
        open.push((depth, name));
    }
    (placement, probes)
}

fn crawlgate(data: &str) -> Signals {
    let url = Url::parse("https://example.com/").unwrap();
    let headers = [HeaderLine::new("Content-Type", "text/html; charset=utf-8")];
    extract(&PageInput {
        url: &url,
        status: 200,
        headers: &headers,
        body: data.as_bytes(),
    })
}

fn crawlgate_placement(signals: &Signals, marker: &str) -> Placement {
    let metas = signals
        .meta_robots
        .iter()
        .filter(|meta| meta.content == marker);
    let links = signals.canonicals.iter().filter(|c| &*c.href == marker);
    let metas_in_head = metas.clone().filter(|meta| meta.in_head).count();
    let links_in_head = links.clone().filter(|c| c.source.is_effective()).count();
    (
        metas_in_head,
        metas.count() - metas_in_head,
        links_in_head,
        links.count() - links_in_head,
    )
}

/// The same count from html5ever's full parse of `data` (scraper's DOM), fed at once with no
/// U+FEFF dropped but the one at byte 0 (decoding takes that one out).
fn html5ever_placement(data: &str, marker: &str) -> Placement {
    use html5ever::tendril::TendrilSink;
    use scraper::Node;
    let text = data.strip_prefix('\u{FEFF}').unwrap_or(data);
    let opts = html5ever::ParseOpts {
        tokenizer: html5ever::tokenizer::TokenizerOpts {
            discard_bom: false,
            ..Default::default()
        },
        ..Default::default()
    };
    let html = html5ever::parse_document(
        scraper::HtmlTreeSink::new(scraper::Html::new_document()),
        opts,
    )
    .one(text);
    let mut placement = (0, 0, 0, 0);
    for node in html.tree.root().descendants() {
        let Node::Element(element) = node.value() else {
            continue;
        };
        if element.name.ns != html5ever::ns!(html) {
            continue;
        }
        let (is_meta, wanted) = match &*element.name.local {
            "meta" => (
                true,
                element
                    .attr("name")
                    .is_some_and(|n| n.eq_ignore_ascii_case("robots"))
                    && element.attr("content") == Some(marker),
            ),
            "link" => (
                false,
                element
                    .attr("rel")
                    .is_some_and(|r| r.eq_ignore_ascii_case("canonical"))
                    && element.attr("href") == Some(marker),
            ),
            _ => continue,
        };
        if !wanted {
            continue;
        }
        let mut in_head = false;
        let mut in_template = false;
        for ancestor in node.ancestors() {
            match ancestor.value() {
                Node::Fragment => in_template = true,
                Node::Element(parent)
                    if parent.name.ns == html5ever::ns!(html) && &*parent.name.local == "head" =>
                {
                    in_head = true;
                }
                _ => {}
            }
        }
        match (in_template, is_meta, in_head) {
            (true, ..) => {}
            (false, true, true) => placement.0 += 1,
            (false, true, false) => placement.1 += 1,
            (false, false, true) => placement.2 += 1,
            (false, false, false) => placement.3 += 1,
        }
    }
    placement
}

/// Crawlgate's placement of every meta and link agrees with the standard's expected tree.
#[test]
fn placement_agrees_with_html5lib_tree_construction_tests() {
    let mut run = 0;
    let mut with_elements = 0;
    let mut skipped_fragment = 0;
    let mut skipped_script_off = 0;
    let mut failures = Vec::new();
    for case in cases() {
        if case.fragment {
            skipped_fragment += 1;
            continue;
        }
        if case.script_off {
            skipped_script_off += 1;
            continue;
        }
        let document = case.document.as_deref().expect("a #document section");
        run += 1;
        let expected = expected_placement(document);
        if expected != ((0, 0, 0, 0), (0, 0, 0, 0)) {
            with_elements += 1;
        }
        let signals = crawlgate(&inject(&case.data));
        let found = (
            crawlgate_placement(&signals, "x"),
            crawlgate_placement(&signals, "p"),
        );
        if found != expected {
            failures.push(format!(
                "{}: {:?}: expected {expected:?}, crawlgate {found:?}",
                case.file, case.data
            ));
        }
    }
    // The suite as shipped: 1,645 tests, of which 45 fragment and 27 `#script-off` tests are
    // skipped; 404 of those run have metas, links or probed elements outside template contents.
    assert_eq!(
        (run, with_elements, skipped_fragment, skipped_script_off),
        (1573, 404, 45, 27)
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// At every tag boundary of every html5lib input, a robots meta and a canonical land where
/// html5ever's full parse puts them.
#[test]
fn inserted_tags_agree_with_the_full_html5ever_parse() {
    const PROBE: &str = "<meta name=robots content=probe><link rel=canonical href=probe>";
    let mut documents = 0;
    let mut failures = Vec::new();
    for case in cases() {
        if case.fragment || case.script_off {
            continue;
        }
        let mut points: Vec<usize> = case.data.match_indices('>').map(|(at, _)| at + 1).collect();
        points.push(0);
        points.push(case.data.len());
        for point in points {
            // The probe alone, then after a U+FEFF (text wherever it is but at byte 0, where
            // decoding takes it as the byte order mark).
            for prefix in ["", "\u{FEFF}"] {
                let (before, after) = case.data.split_at(point);
                let document = format!("{before}{prefix}{PROBE}{after}");
                documents += 1;
                let found = crawlgate_placement(&crawlgate(&document), "probe");
                let reference = html5ever_placement(&document, "probe");
                if found != reference {
                    failures.push(format!(
                        "{}: {document:?}: html5ever {reference:?}, crawlgate {found:?}",
                        case.file
                    ));
                }
            }
        }
    }
    assert_eq!(documents, 2 * 9785, "documents with inserted tags compared");
    assert!(
        failures.is_empty(),
        "{} failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
