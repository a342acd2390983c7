//! HTML signals: html5ever builds scraper's DOM up to where `<body>` begins, which decides what
//! is in `<head>`; the scanner reads the rest, where everything is in `<body>`.

use super::collect::{Collector, Evidence, Extracted, Placement, resolve_all};
use super::dom::{Extent, Parsed, parse};
use super::scan::Scanner;
use super::types::Signals;
use ego_tree::iter::Edge;
use encoding_rs::Encoding;
use html5ever::{local_name, ns};
use scraper::Node;
use url::Url;

/// Parses `text` and adds its signals to `signals`. Returns the charset label a `<meta>` in
/// `<head>` declared, if any (it may lie past the prescan's first 1024 bytes).
pub(crate) fn extract_html(
    text: &str,
    encoding: &'static Encoding,
    page_url: &Url,
    signals: &mut Signals,
) -> Option<String> {
    extract_html_with(text, encoding, page_url, signals, Extent::UntilBody)
}

/// [`extract_html`], choosing how much html5ever parses (tests compare both extents).
pub(crate) fn extract_html_with(
    text: &str,
    encoding: &'static Encoding,
    page_url: &Url,
    signals: &mut Signals,
    extent: Extent,
) -> Option<String> {
    let parsed = parse(text, extent);
    signals.head_break.clone_from(&parsed.head_break);
    let mut collector = Collector::new(text, signals);
    walk_dom(&parsed, &mut collector);
    if let Some(offset) = parsed.handed_over_at {
        let mut scanner = Scanner::new(text, offset);
        while let Some(tag) = scanner.next_tag() {
            let place = Placement {
                kind: tag.kind,
                line: Some(collector.lines.line_of(tag.end)),
                in_head: false,
                in_picture: tag.in_picture,
                evidence: Evidence::Exact {
                    text: text.get(tag.start..=tag.end).unwrap_or_default(),
                    start: tag.start,
                },
            };
            collector.element(&place, &tag.attributes);
        }
    }
    resolve_all(signals, page_url, encoding);
    parsed.declared_encoding
}

/// One depth-first walk of the DOM; template contents are skipped (inert until script uses
/// them), and so is foreign (SVG, `MathML`) content.
fn walk_dom<'t>(parsed: &Parsed, collector: &mut Collector<'_, 't>) {
    let mut head_depth = 0u32;
    let mut template_depth = 0u32;
    for edge in parsed.html.tree.root().traverse() {
        match edge {
            Edge::Open(node) => match node.value() {
                Node::Fragment => template_depth += 1,
                Node::Element(element) if element.name.ns == ns!(html) => {
                    if element.name.local == local_name!("head") {
                        head_depth += 1;
                    }
                    let Some(kind) = Extracted::from_local(&element.name.local) else {
                        continue;
                    };
                    if template_depth > 0 {
                        continue;
                    }
                    let in_picture = node
                        .parent()
                        .and_then(|parent| parent.value().as_element())
                        .is_some_and(|parent| parent.name.local == local_name!("picture"));
                    let line = parsed
                        .lines
                        .binary_search_by_key(&node.id(), |(id, _)| *id)
                        .ok()
                        .and_then(|index| parsed.lines.get(index))
                        .map(|(_, line)| *line);
                    let place: Placement<'t> = Placement {
                        kind,
                        line,
                        in_head: head_depth > 0,
                        in_picture,
                        evidence: Evidence::Locate,
                    };
                    collector.element(&place, element);
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

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::strategy::Strategy;
    use std::path::{Path, PathBuf};

    fn both_ways(text: &str) -> (Signals, Signals) {
        let url = Url::parse("https://example.com/dir/page.html").unwrap();
        let mut fast = Signals::default();
        extract_html_with(text, encoding_rs::UTF_8, &url, &mut fast, Extent::UntilBody);
        let mut reference = Signals::default();
        extract_html_with(
            text,
            encoding_rs::UTF_8,
            &url,
            &mut reference,
            Extent::Whole,
        );
        (fast, reference)
    }

    fn real_pages() -> Vec<PathBuf> {
        fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
            for entry in std::fs::read_dir(dir).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    collect(&path, out);
                } else if path.extension().is_some_and(|ext| ext == "html") {
                    out.push(path);
                }
            }
        }
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/pages");
        let mut paths = Vec::new();
        collect(&root, &mut paths);
        paths.sort();
        paths
    }

    /// The scanner hand-over changes nothing on any fixture page, real or hand-written.
    #[test]
    fn hand_over_matches_the_full_parse_on_every_fixture_page() {
        let pages = real_pages();
        assert!(pages.len() >= 30, "fixture pages missing");
        let mut handed_over = 0;
        for path in pages {
            let text = String::from_utf8_lossy(&std::fs::read(&path).unwrap()).into_owned();
            let (fast, reference) = both_ways(&text);
            assert_eq!(fast, reference, "{}", path.display());
            if parse(&text, Extent::UntilBody).handed_over_at.is_some() {
                handed_over += 1;
            }
        }
        assert!(handed_over >= 30, "the fast path was not taken");
    }

    #[test]
    fn hand_over_waits_for_raw_text_foreign_content_and_templates() {
        for text in [
            "<body><script><a href=1></script><a href=2>",
            "<body><svg><a href=1></a></svg><a href=2>",
            "<body><template><a href=1></template><a href=2>",
            "<body><textarea><a href=1></textarea><a href=2>",
            "<body><plaintext><a href=1>",
            "<div><a href=1><!-- <a href=2> --><a href=3>",
        ] {
            let (fast, reference) = both_ways(text);
            assert_eq!(fast, reference, "{text}");
        }
    }

    /// What the differential test compares: everything but evidence text and lines (the
    /// reference finds those by searching the source, and the adoption agency may clone an
    /// `<a>` in the DOM where the source has one tag), as sorted sets.
    fn comparable(signals: &Signals) -> Vec<String> {
        let mut facts: Vec<String> = Vec::new();
        facts.extend(
            signals
                .links
                .iter()
                .map(|l| format!("link {} {:?}", l.href, l.rel)),
        );
        facts.extend(
            signals
                .assets
                .iter()
                .map(|a| format!("asset {:?} {}", a.kind, a.href)),
        );
        facts.extend(
            signals
                .meta_robots
                .iter()
                .map(|m| format!("meta {} {} {}", m.name, m.content, m.in_head)),
        );
        facts.extend(
            signals
                .canonicals
                .iter()
                .map(|c| format!("canonical {} {}", c.href, c.source.is_effective())),
        );
        facts.extend(signals.hreflang.iter().map(|h| {
            format!(
                "hreflang {} {} {}",
                h.hreflang,
                h.href,
                h.source.is_effective()
            )
        }));
        facts.push(format!("base {:?}", signals.base_href));
        facts.push(format!(
            "refresh {:?}",
            signals
                .meta_refresh
                .as_ref()
                .map(|r| (&r.content, r.in_head))
        ));
        facts.push(format!("head break {:?}", signals.head_break));
        facts.sort();
        facts.dedup();
        facts
    }

    const FRAGMENTS: &[&str] = &[
        "<!doctype html>",
        "<html>",
        "<head>",
        "</head>",
        "<body>",
        "</body>",
        "<div>",
        "</div>",
        "<p>",
        "<a href=",
        "<a href='x'>",
        "<A HREF=\"/y\" REL=nofollow>",
        "</a>",
        "<b>",
        "<link rel=canonical href=",
        "<link rel=alternate hreflang=fr href=/fr>",
        "<link rel=stylesheet href=s.css>",
        "<meta name=robots content=",
        "<meta name=googlebot content=\"noindex\">",
        "<meta http-equiv=refresh content=\"0; url=/x\">",
        "<base href=",
        "<img src=i.png srcset=\"a 1x, b 2x\">",
        "<picture>",
        "<source srcset=c>",
        "</picture>",
        "<image src=z>",
        "<script>",
        "</script>",
        "<script src=j.js>",
        "<style>",
        "</style>",
        "<template>",
        "</template>",
        "<title>",
        "</title>",
        "<textarea>",
        "</textarea>",
        "<noscript>",
        "</noscript>",
        "<iframe>",
        "</iframe>",
        "<xmp>",
        "</xmp>",
        "<table>",
        "<select>",
        "</select>",
        "<option>",
        "<td>",
        "<!--",
        "-->",
        "--!>",
        "<!-->",
        "<![CDATA[",
        "]]>",
        "<?",
        "</",
        "<",
        ">",
        "/>",
        "=",
        "\"",
        "'",
        "&amp;",
        "&#x41;",
        "&notin",
        "&copy=",
        "&#",
        "\n",
        "\r\n",
        "\r",
        "\0",
        " ",
        "text",
        "é",
        "日本",
        "noindex",
        "#f",
    ];

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(512))]

        /// On generated documents the fast path finds exactly what the full parse finds
        /// (outside the scanner's documented approximations: foreign content, `<picture>`
        /// parentage).
        #[test]
        fn hand_over_matches_the_full_parse_on_generated_documents(
            parts in proptest::collection::vec(
                proptest::prop_oneof![
                    4 => proptest::sample::select(FRAGMENTS).prop_map(str::to_owned),
                    1 => "[a-zA-Z0-9<>/=\"' &#;!?-]{0,10}",
                ],
                0..80,
            )
        ) {
            let text = parts.concat();
            // Steer clear of the approximation: which `<source>` is a child of `<picture>`
            // needs tree construction.
            let text = text.replace("<picture", "<xicture");
            let (fast, reference) = both_ways(&text);
            proptest::prop_assert_eq!(comparable(&fast), comparable(&reference), "{:?}", text);
        }
    }
}
