//! Extraction never panics, whatever the bytes and headers (property tests).

use crawlgate_signals::HeaderLine;
use crawlgate_signals::{PageInput, Profile, extract, parse_link_header, parse_unavailable_after};
use proptest::prelude::*;
use std::fmt::Write;
use url::Url;

/// Fragments that steer the tokenizer and tree builder into their interesting states.
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
    "<link rel=canonical href=",
    "<link rel=alternate hreflang=fr href=/fr>",
    "<link rel=stylesheet href=s.css>",
    "<meta name=robots content=",
    "<meta name=googlebot content=\"noindex\">",
    "<meta http-equiv=refresh content=\"0; url=/x\">",
    "<meta charset=shift_jis>",
    "<base href=",
    "<img src=i.png srcset=\"a 1x, b 2x\">",
    "<picture>",
    "<source srcset=c>",
    "</picture>",
    "<script>",
    "</script>",
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
    "<svg>",
    "</svg>",
    "<math>",
    "<select>",
    "<table>",
    "<td>",
    "<plaintext>",
    "<frameset>",
    "<!--",
    "-->",
    "--!>",
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
    "none",
    "//",
    "#f",
    "http://[",
    "javascript:",
    "\u{FEFF}",
];

fn html_like() -> impl Strategy<Value = String> {
    prop::collection::vec(
        prop_oneof![
            4 => prop::sample::select(FRAGMENTS).prop_map(str::to_owned),
            1 => "[a-zA-Z0-9<>/=\"' &#;!?:,.-]{0,12}",
        ],
        0..120,
    )
    .prop_map(|parts| parts.concat())
}

fn header_lines() -> impl Strategy<Value = Vec<HeaderLine>> {
    let name = prop::sample::select(vec![
        "Content-Type",
        "X-Robots-Tag",
        "Robots-Tag",
        "Link",
        "x-robots-tag",
    ]);
    let value = prop_oneof![
        Just("text/html".to_owned()),
        Just("text/html; charset=windows-1252".to_owned()),
        Just("text/html; charset=\"utf-16\"".to_owned()),
        Just("application/pdf".to_owned()),
        Just("googlebot: noindex, unavailable_after: Friday, 25-Jun-10 15:00:00 GMT".to_owned()),
        Just("<https://a.test/>; rel=\"canonical alternate\"; hreflang=fr, <b>; anchor=\"#x\"; rel=canonical".to_owned()),
        Just("*;noindex;max-snippet=\"3\", bot;".to_owned()),
        "[ -~]{0,60}",
    ];
    prop::collection::vec(
        (name, value).prop_map(|(name, value)| HeaderLine::new(name, value)),
        0..6,
    )
}

fn check(body: &[u8], headers: &[HeaderLine]) {
    let url = Url::parse("https://example.com/a/b?c").unwrap();
    let signals = extract(&PageInput {
        url: &url,
        status: 200,
        headers,
        body,
    });
    for profile in Profile::builtins() {
        let directives = signals.directives(&profile, jiff::Timestamp::UNIX_EPOCH);
        let _ = (
            directives.is_noindex(),
            directives.max_snippet(),
            directives.unavailable_after(),
        );
    }
    let _ = (signals.effective_canonicals(), signals.effective_hreflang());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn arbitrary_bytes_never_panic(body in prop::collection::vec(any::<u8>(), 0..2048), headers in header_lines()) {
        check(&body, &headers);
    }

    #[test]
    fn html_like_documents_never_panic(text in html_like(), headers in header_lines()) {
        check(text.as_bytes(), &headers);
        check(text.as_bytes(), &[HeaderLine::new("Content-Type", "text/html")]);
    }

    #[test]
    fn header_parsers_never_panic(value in "\\PC{0,200}") {
        let _ = parse_link_header(&value);
        let _ = parse_unavailable_after(&value);
        check(b"", &[HeaderLine::new("X-Robots-Tag", value.clone()), HeaderLine::new("Robots-Tag", value.clone()), HeaderLine::new("Link", value)]);
    }
}

/// Deep nesting and huge tag counts stay bounded (no recursion, capped lists).
#[test]
fn pathological_documents() {
    let mut deep = "<div>".repeat(50_000);
    for index in 0..30_000 {
        writeln!(deep, "<a href=/{index}><a href=/same>").unwrap();
    }
    check(
        deep.as_bytes(),
        &[HeaderLine::new("Content-Type", "text/html")],
    );
    let url = Url::parse("https://example.com/").unwrap();
    let signals = extract(&PageInput {
        url: &url,
        status: 200,
        headers: &[],
        body: deep.as_bytes(),
    });
    assert!(signals.truncated);
    assert_eq!(signals.links.len(), crawlgate_signals::limits::MAX_LINKS);
    assert_eq!(signals.links[1].href, "/same");
    assert_eq!(signals.links[1].occurrences, 30_000);
    let misnested = "<b><i><a href=y><p>".repeat(2_000);
    check(misnested.as_bytes(), &[]);
    let many_metas = "<meta name=robots content=noindex>".repeat(5_000);
    check(many_metas.as_bytes(), &[]);
}

/// A page of long URLs keeps at most `MAX_URL_BYTES` of them, on the scanner path and on the
/// tree-builder path (a `<table>` sends the body to html5ever), and says it was cut.
#[test]
fn long_urls_are_bounded_in_bytes_per_page() {
    use crawlgate_signals::limits::{MAX_LINKS, MAX_URL_BYTES};
    let pad = "x".repeat(4_000);
    let url = Url::parse("https://example.com/").unwrap();
    for wrapper in ["", "<table><tr><td>"] {
        let mut page = format!("<!doctype html><title>t</title>{wrapper}");
        for n in 0..1_000 {
            write!(page, "<a href=/{n}?{pad}>{n}</a><img src=/i{n}?{pad}>").unwrap();
        }
        let signals = extract(&PageInput {
            url: &url,
            status: 200,
            headers: &[],
            body: page.as_bytes(),
        });
        let kept: usize = signals.links.iter().map(|l| l.href.len()).sum::<usize>()
            + signals.assets.iter().map(|a| a.href.len()).sum::<usize>();
        assert!(kept <= MAX_URL_BYTES, "{kept} bytes kept ({wrapper:?})");
        assert!(
            kept > MAX_URL_BYTES - 8_100,
            "{kept} bytes kept ({wrapper:?})"
        );
        assert!(signals.links.len() < MAX_LINKS);
        assert!(signals.truncated, "{wrapper:?}");
    }
}

/// The tree builder builds a bounded tree: a head of a million nested `<template>`s (each with
/// a document fragment) is cut, marked truncated, and what came before the cut is kept.
#[test]
fn a_flood_of_nested_elements_builds_a_bounded_tree() {
    let page = format!(
        "<!doctype html><head><link rel=canonical href=/kept>{}<link rel=canonical href=/lost>",
        "<template>".repeat(1_000_000)
    );
    let url = Url::parse("https://example.com/").unwrap();
    let signals = extract(&PageInput {
        url: &url,
        status: 200,
        headers: &[],
        body: page.as_bytes(),
    });
    assert!(signals.truncated);
    let canonicals: Vec<&str> = signals.canonicals.iter().map(|c| &*c.href).collect();
    assert_eq!(canonicals, ["/kept"]);
}
