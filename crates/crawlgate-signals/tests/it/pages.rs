//! Page signals on the hand-written fixtures in `fixtures/pages/` (RULES.md §1.2, §1.3, §1.5):
//! each `NAME.html` is served from `https://www.example.com/section/page.html` with the header
//! lines of `NAME.headers` (default: `Content-Type: text/html`).

use crawlgate_signals::HeaderLine;
use crawlgate_signals::{
    AssetKind, CharsetSource, DirectiveSource, Directives, ImagePreview, LinkSource, PageInput,
    Profile, RobotsRule, Signals, extract,
};
use jiff::Timestamp;
use std::path::PathBuf;
use url::Url;

const PAGE_URL: &str = "https://www.example.com/section/page.html";

fn fixture_path(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../fixtures/pages")
        .join(name)
}

fn headers(name: &str) -> Vec<HeaderLine> {
    match std::fs::read_to_string(fixture_path(&format!("{name}.headers"))) {
        Ok(text) => text
            .lines()
            .filter_map(|line| line.split_once(':'))
            .map(|(name, value)| HeaderLine::new(name, value.trim_start()))
            .collect(),
        Err(_) => vec![HeaderLine::new("Content-Type", "text/html")],
    }
}

fn page(name: &str) -> Signals {
    let body = std::fs::read(fixture_path(&format!("{name}.html"))).expect("fixture page");
    let url = Url::parse(PAGE_URL).unwrap();
    extract(&PageInput {
        url: &url,
        status: 200,
        headers: &headers(name),
        body: &body,
    })
}

fn audit_time() -> Timestamp {
    "2026-06-01T00:00:00Z".parse().unwrap()
}

fn for_bot(signals: &Signals, profile: &str) -> Directives {
    signals.directives(&Profile::builtin(profile).unwrap(), audit_time())
}

fn resolved(url: Option<&Url>) -> &str {
    url.map_or("<none>", Url::as_str)
}

#[test]
fn multiple_robots_tags_sum_per_crawler() {
    let signals = page("multiple-meta");
    let names: Vec<&str> = signals
        .meta_robots
        .iter()
        .map(|meta| meta.name.as_str())
        .collect();
    assert_eq!(names, ["robots", "googlebot", "bingbot"]);
    assert!(signals.meta_robots.iter().all(|meta| meta.in_head));
    assert_eq!(
        signals.meta_robots[1].raw,
        r#"<meta name="GoogleBot" content="noindex">"#
    );
    assert_eq!(signals.meta_robots[1].line, Some(6));

    let googlebot = for_bot(&signals, "googlebot");
    assert!(googlebot.is_noindex() && googlebot.is_nofollow());
    assert!(!googlebot.is_nosnippet());
    let noindex = googlebot.noindex_sources();
    assert!(matches!(
        &noindex[0].source,
        DirectiveSource::MetaTag { name, line: Some(6), .. } if name == "googlebot"
    ));

    let bingbot = for_bot(&signals, "bingbot");
    assert!(!bingbot.is_noindex());
    assert!(bingbot.is_nofollow() && bingbot.is_nosnippet());
    assert_eq!(bingbot.max_image_preview(), Some(ImagePreview::Standard));

    let generic = for_bot(&signals, "*");
    assert!(!generic.is_noindex() && generic.is_nofollow() && !generic.is_nosnippet());
}

#[test]
fn robots_meta_in_body_is_honoured_but_flagged() {
    let signals = page("meta-in-body");
    assert_eq!(signals.meta_robots.len(), 1);
    assert!(!signals.meta_robots[0].in_head);
    assert_eq!(signals.meta_robots[0].line, Some(8));
    assert!(for_bot(&signals, "googlebot").is_noindex());
}

#[test]
fn canonical_in_body_is_recorded_but_not_effective() {
    let signals = page("canonical-in-body");
    assert_eq!(signals.canonicals.len(), 1);
    let LinkSource::Html { in_head, line, .. } = &signals.canonicals[0].source else {
        panic!("html canonical expected");
    };
    assert!(!in_head);
    assert_eq!(*line, Some(7));
    assert!(signals.effective_canonicals().is_empty());
    assert_eq!(signals.head_break, None);
}

#[test]
fn a_stray_img_ends_head_for_everything_after_it() {
    let signals = page("head-broken-by-img");
    let head_break = signals.head_break.as_ref().expect("head break");
    assert_eq!(
        (head_break.cause.as_str(), head_break.line),
        ("img", Some(6))
    );
    assert!(!signals.canonicals[0].source.is_effective());
    assert!(signals.effective_canonicals().is_empty());
    assert!(signals.effective_hreflang().is_empty());
    assert_eq!(signals.hreflang.len(), 1);
    // The robots meta after the image is in body too, and still counts.
    assert!(!signals.meta_robots[0].in_head);
    assert!(for_bot(&signals, "googlebot").is_noindex());
    // The pixel itself is an image asset.
    assert_eq!(signals.assets[0].kind, AssetKind::Image);
}

#[test]
fn text_in_head_ends_it_too() {
    let signals = page("head-broken-by-text");
    let head_break = signals.head_break.as_ref().expect("head break");
    assert_eq!(head_break.cause, "#text");
    assert_eq!(head_break.line, Some(2));
    assert!(signals.effective_canonicals().is_empty());
}

#[test]
fn a_link_between_head_and_body_goes_back_into_head() {
    // HTML5 "after head" mode: a <link> there is inserted into <head>.
    let signals = page("head-closed-then-link");
    assert_eq!(signals.head_break, None);
    assert_eq!(signals.effective_canonicals().len(), 1);
}

#[test]
fn relative_and_protocol_relative_canonicals_resolve_against_the_final_url() {
    let relative = page("relative-canonical");
    assert_eq!(&*relative.canonicals[0].href, "../other/page.html?x=1");
    assert_eq!(
        resolved(relative.canonicals[0].resolved.as_deref()),
        "https://www.example.com/other/page.html?x=1"
    );
    let protocol_relative = page("protocol-relative-canonical");
    assert_eq!(
        resolved(protocol_relative.canonicals[0].resolved.as_deref()),
        "https://www.example.com/section/page.html"
    );
}

#[test]
fn base_href_applies_to_every_reference_even_earlier_ones() {
    let signals = page("base-href");
    assert_eq!(
        signals.base_href.as_deref(),
        Some("https://cdn.example.net/root/")
    );
    assert_eq!(
        resolved(signals.canonicals[0].resolved.as_deref()),
        "https://cdn.example.net/root/page.html"
    );
    assert_eq!(
        resolved(signals.assets[0].resolved.as_ref()),
        "https://cdn.example.net/root/css/site.css"
    );
    let links: Vec<&str> = signals
        .links
        .iter()
        .map(|link| resolved(link.resolved.as_ref()))
        .collect();
    assert_eq!(
        links,
        [
            "https://cdn.example.net/root/about/",
            "https://cdn.example.net/top"
        ]
    );
}

#[test]
fn fragments_are_kept_for_the_lint() {
    let signals = page("fragment-canonical");
    let canonical = signals.effective_canonicals()[0]
        .resolved
        .as_deref()
        .unwrap();
    assert_eq!(canonical.fragment(), Some("part-2"));
}

#[test]
fn empty_invalid_and_disqualified_canonicals() {
    let signals = page("empty-canonical");
    assert_eq!(signals.canonicals.len(), 4);
    assert_eq!(signals.canonicals[0].resolved, None, "empty href");
    assert_eq!(&*signals.canonicals[1].href, "", "missing href");
    assert_eq!(signals.canonicals[1].resolved, None);
    assert_eq!(signals.canonicals[2].resolved, None, "unparseable href");
    assert_eq!(
        signals.canonicals[3].ignored_attributes(),
        ["hreflang", "media"]
    );
    assert!(signals.effective_canonicals().is_empty());
}

#[test]
fn header_noindex_beats_meta_index() {
    let signals = page("header-vs-meta");
    let googlebot = for_bot(&signals, "googlebot");
    assert!(googlebot.is_noindex());
    let noindex = googlebot.noindex_sources();
    assert_eq!(noindex.len(), 1);
    assert_eq!(
        noindex[0].source,
        DirectiveSource::Header {
            name: "X-Robots-Tag".into(),
            value: "noindex".into()
        }
    );
    let allows: Vec<&str> = googlebot
        .explicit_allows()
        .iter()
        .map(|d| d.token.as_str())
        .collect();
    assert_eq!(allows, ["index", "follow"]);
}

#[test]
fn bot_prefixed_headers_apply_only_to_that_bot() {
    let signals = page("googlebot-header");
    assert_eq!(signals.robots_headers.len(), 3);
    assert_eq!(
        signals.robots_headers[0].rules[0].bot.as_deref(),
        Some("googlebot")
    );
    let googlebot = for_bot(&signals, "googlebot");
    assert!(googlebot.is_noindex() && googlebot.is_nofollow() && !googlebot.is_nosnippet());
    let bingbot = for_bot(&signals, "bingbot");
    assert!(!bingbot.is_noindex() && bingbot.is_nofollow() && bingbot.is_nosnippet());
    assert_eq!(bingbot.obsolete()[0].token, "noarchive");
    let generic = for_bot(&signals, "*");
    assert!(!generic.is_noindex() && generic.is_nofollow() && !generic.is_nosnippet());
    // Googlebot-Image reads googlebot rules.
    assert!(for_bot(&signals, "googlebot-image").is_noindex());
}

#[test]
fn a_googlebot_index_does_not_override_a_generic_noindex() {
    let signals = page("bot-override");
    let googlebot = for_bot(&signals, "googlebot");
    assert!(googlebot.is_noindex());
    assert_eq!(googlebot.explicit_allows().len(), 2);
    assert!(for_bot(&signals, "gptbot").is_noindex());
}

#[test]
fn each_rule_says_which_crawler_it_is_addressed_to() {
    let meta = for_bot(&page("bot-override"), "googlebot");
    let addressed: Vec<(&str, Option<&str>)> = meta
        .rules
        .iter()
        .map(|d| (d.token.as_str(), d.bot.as_deref()))
        .collect();
    assert_eq!(
        addressed,
        [
            ("noindex", None),
            ("index", Some("googlebot")),
            ("follow", Some("googlebot"))
        ]
    );
    let headers = for_bot(&page("googlebot-header"), "googlebot");
    let addressed: Vec<(&str, Option<&str>)> = headers
        .rules
        .iter()
        .map(|d| (d.token.as_str(), d.bot.as_deref()))
        .collect();
    assert_eq!(
        addressed,
        [("noindex", Some("googlebot")), ("nofollow", None)]
    );
}

#[test]
fn unavailable_after_past_and_future() {
    let signals = page("unavailable-after");
    let googlebot = for_bot(&signals, "googlebot");
    assert!(googlebot.is_noindex(), "2020-09-21 is before the audit");
    let earliest = googlebot.unavailable_after().unwrap();
    assert!(earliest.is_past);
    assert_eq!(earliest.raw, "unavailable_after: 2020-09-21");
    assert_eq!(earliest.instant, "2020-09-21T00:00:00Z".parse().unwrap());
    // The header's RFC 850 date (with its comma) is one rule, in 2090.
    let header_rules = &signals.robots_headers[0].rules;
    assert_eq!(header_rules.len(), 1);
    assert!(matches!(
        googlebot.rules[1].rule,
        RobotsRule::UnavailableAfter(instant) if instant == "2090-01-01T00:00:00Z".parse().unwrap()
    ));

    let future = page("unavailable-after-future");
    let googlebot = for_bot(&future, "googlebot");
    assert!(!googlebot.is_noindex());
    let scheduled = googlebot.unavailable_after().unwrap();
    assert!(!scheduled.is_past);
    assert_eq!(scheduled.instant, "2090-06-25T23:00:00Z".parse().unwrap());
    // Bingbot does not read googlebot tags.
    assert!(for_bot(&future, "bingbot").unavailable_after().is_none());
    // After the date, the same page is noindex.
    let later = future.directives(
        &Profile::googlebot(),
        "2091-01-01T00:00:00Z".parse().unwrap(),
    );
    assert!(later.is_noindex());

    let invalid = for_bot(&page("unavailable-after-invalid"), "googlebot");
    assert!(!invalid.is_noindex());
    assert_eq!(
        invalid.invalid()[0].rule,
        RobotsRule::Invalid("unavailable_after".into())
    );
}

#[test]
fn link_headers_give_canonicals_and_hreflang_resolved_against_the_final_url() {
    let signals = page("link-header");
    let canonicals: Vec<(&str, bool)> = signals
        .canonicals
        .iter()
        .map(|c| {
            (
                resolved(c.resolved.as_deref()),
                matches!(c.source, LinkSource::Header { .. }),
            )
        })
        .collect();
    assert_eq!(
        canonicals,
        [
            ("https://www.example.com/from-html", false),
            ("https://www.example.com/from-header", true)
        ]
    );
    assert_eq!(signals.effective_canonicals().len(), 2);
    let hreflang: Vec<(&str, &str)> = signals
        .hreflang
        .iter()
        .map(|h| (h.hreflang.as_str(), resolved(h.resolved.as_ref())))
        .collect();
    assert_eq!(
        hreflang,
        [
            ("fr", "https://www.example.com/fr/"),
            ("de", "https://www.example.com/de/")
        ]
    );
    let LinkSource::Header { value } = &signals.hreflang[1].source else {
        panic!("header source expected");
    };
    assert!(value.starts_with("<https://www.example.com/de/>"));
}

#[test]
fn non_html_responses_have_header_signals_only() {
    let signals = page("pdf");
    assert!(!signals.is_html);
    assert!(signals.meta_robots.is_empty());
    let googlebot = for_bot(&signals, "googlebot");
    assert!(googlebot.is_noindex() && googlebot.is_nofollow());
    assert_eq!(
        resolved(signals.effective_canonicals()[0].resolved.as_deref()),
        "https://www.example.com/report.html"
    );
}

#[test]
fn hreflang_alternates_in_head_only_are_effective() {
    let signals = page("hreflang");
    let all: Vec<&str> = signals
        .hreflang
        .iter()
        .map(|h| h.hreflang.as_str())
        .collect();
    assert_eq!(all, ["en", "fr-CA", "x-default", "de"]);
    let effective: Vec<&str> = signals
        .effective_hreflang()
        .iter()
        .map(|h| resolved(h.resolved.as_ref()))
        .collect();
    assert_eq!(
        effective,
        [
            "https://www.example.com/en/",
            "https://www.example.com/fr-ca/",
            "https://www.example.com/"
        ]
    );
}

#[test]
fn links_assets_and_refresh() {
    let signals = page("links-and-assets");
    let links: Vec<(&str, bool, bool, bool)> = signals
        .links
        .iter()
        .map(|l| (l.href.as_str(), l.rel.nofollow, l.rel.ugc, l.rel.sponsored))
        .collect();
    assert_eq!(
        links,
        [
            ("/plain", false, false, false),
            ("https://ads.example.org/", false, false, true),
            ("/user", true, true, false),
            ("/café?q=1&r=2", false, false, false),
        ]
    );
    assert_eq!(signals.links[0].line, Some(15));
    assert_eq!(
        resolved(signals.links[3].resolved.as_ref()),
        "https://www.example.com/caf%C3%A9?q=1&r=2"
    );

    let assets: Vec<(AssetKind, &str)> = signals
        .assets
        .iter()
        .map(|a| (a.kind, a.href.as_str()))
        .collect();
    assert_eq!(
        assets,
        [
            (AssetKind::Image, "https://img.example.com/share.png"),
            (AssetKind::Stylesheet, "/css/main.css"),
            (AssetKind::Stylesheet, "/css/late.css"),
            (AssetKind::Script, "/js/early.js"),
            (AssetKind::Script, "/js/module.js"),
            (AssetKind::Icon, "/favicon.ico"),
            (AssetKind::Icon, "/touch.png"),
            (AssetKind::Script, "/js/app.js"),
            (AssetKind::Image, "/img/a.png"),
            (AssetKind::Image, "/img/a-2x.png"),
            (AssetKind::Image, "/img/a-3x.png"),
            (AssetKind::Image, "/img/b.webp"),
            (AssetKind::Image, "/img/b-2x.webp"),
            (AssetKind::Image, "/img/b.png"),
        ]
    );
    assert!(signals.assets.iter().all(|a| a.resolved.is_some()));

    let refresh = signals.meta_refresh.as_ref().unwrap();
    assert_eq!(refresh.delay, Some(5));
    assert_eq!(refresh.target.as_deref(), Some("/next-page"));
    assert_eq!(
        resolved(refresh.resolved.as_ref()),
        "https://www.example.com/next-page"
    );
    assert!(refresh.in_head);
}

#[test]
fn none_snippet_limits_and_lint_tokens() {
    let signals = page("none-and-snippets");
    let googlebot = for_bot(&signals, "googlebot");
    assert!(googlebot.is_noindex() && googlebot.is_nofollow());
    assert!(googlebot.is_nosnippet(), "nosnippet beats max-snippet:50");
    assert_eq!(googlebot.max_snippet(), Some(50));
    assert_eq!(googlebot.max_image_preview(), Some(ImagePreview::Large));
    assert_eq!(googlebot.max_video_preview(), Some(-1));
    assert!(googlebot.is_noimageindex() && googlebot.is_indexifembedded());
    assert!(googlebot.is_notranslate());
    let tokens = |list: Vec<&crawlgate_signals::Directive>| -> Vec<String> {
        list.into_iter().map(|d| d.token.clone()).collect()
    };
    assert_eq!(tokens(googlebot.unknown()), ["no-index"]);
    assert_eq!(tokens(googlebot.obsolete()), ["noarchive"]);
    assert_eq!(tokens(googlebot.invalid()), ["max-snippet:abc"]);
    assert_eq!(tokens(googlebot.noindex_sources()), ["none"]);
}

#[test]
fn draft_robots_tag_header() {
    let signals = page("robots-tag-draft");
    assert!(signals.robots_headers[0].is_draft_robots_tag());
    let googlebot = for_bot(&signals, "googlebot");
    assert!(googlebot.is_noindex() && googlebot.is_nosnippet() && !googlebot.is_nofollow());
    assert_eq!(googlebot.max_snippet(), Some(10));
    let generic = for_bot(&signals, "*");
    assert!(!generic.is_noindex() && generic.is_nosnippet());
    assert!(
        Profile::custom("otherbot")
            .reads_header_bot(signals.robots_headers[0].rules[3].bot.as_deref())
    );
    assert!(
        signals
            .directives(&Profile::custom("otherbot"), audit_time())
            .is_nofollow()
    );
}

#[test]
fn windows_1252_declared_by_meta() {
    let signals = page("windows-1252");
    assert_eq!(signals.charset.as_deref(), Some("windows-1252"));
    assert_eq!(signals.charset_source, Some(CharsetSource::MetaTag));
    assert_eq!(signals.links[0].href, "/café?q=crème");
    // Path in UTF-8, query in the document's encoding (as browsers send it).
    assert_eq!(
        resolved(signals.links[0].resolved.as_ref()),
        "https://www.example.com/caf%C3%A9?q=cr%E8me"
    );
    assert!(for_bot(&signals, "googlebot").is_noindex());
}

#[test]
fn shift_jis_declared_by_meta_or_header() {
    let signals = page("shift-jis");
    assert_eq!(signals.charset.as_deref(), Some("Shift_JIS"));
    assert_eq!(signals.charset_source, Some(CharsetSource::MetaTag));
    assert_eq!(signals.links[0].href, "/検索?q=検索");
    assert_eq!(
        resolved(signals.links[0].resolved.as_ref()),
        "https://www.example.com/%E6%A4%9C%E7%B4%A2?q=%8C%9F%8D%F5"
    );
    assert_eq!(
        resolved(signals.effective_canonicals()[0].resolved.as_deref()),
        "https://www.example.com/%E6%97%A5%E6%9C%AC%E8%AA%9E/"
    );
    assert!(for_bot(&signals, "googlebot").is_nofollow());

    let by_header = page("shift-jis-header");
    assert_eq!(by_header.charset_source, Some(CharsetSource::ContentType));
    assert_eq!(by_header.links[0].href, "/テスト");
}

#[test]
fn utf16_with_bom() {
    let signals = page("utf-16-bom");
    assert_eq!(signals.charset.as_deref(), Some("UTF-16LE"));
    assert_eq!(signals.charset_source, Some(CharsetSource::ByteOrderMark));
    let googlebot = for_bot(&signals, "googlebot");
    assert!(googlebot.is_noindex() && googlebot.is_nofollow());
    assert_eq!(
        resolved(signals.effective_canonicals()[0].resolved.as_deref()),
        "https://www.example.com/utf16/%C3%A9t%C3%A9"
    );
    assert_eq!(signals.links[0].href, "/été");
}

#[test]
fn undeclared_non_utf8_falls_back_to_windows_1252() {
    let signals = page("undeclared-latin1");
    assert_eq!(signals.charset_source, Some(CharsetSource::Fallback));
    assert_eq!(signals.links[0].href, "/naïve");
}

#[test]
fn signals_round_trip_through_json() {
    for name in ["links-and-assets", "link-header", "head-broken-by-img"] {
        let signals = page(name);
        let json = serde_json::to_string(&signals).unwrap();
        let back: Signals = serde_json::from_str(&json).unwrap();
        assert_eq!(back, signals, "{name}");
        let directives = for_bot(&signals, "googlebot");
        let json = serde_json::to_string(&directives).unwrap();
        assert_eq!(
            serde_json::from_str::<Directives>(&json).unwrap(),
            directives
        );
    }
}

#[test]
fn a_charset_declared_after_1024_bytes_reparses_the_page() {
    // Not valid UTF-8, so first read as windows-1252; the <meta> then switches to Shift_JIS.
    let signals = page("late-charset");
    assert_eq!(signals.charset.as_deref(), Some("Shift_JIS"));
    assert_eq!(signals.charset_source, Some(CharsetSource::MetaTag));
    assert_eq!(signals.links.len(), 1);
    assert_eq!(signals.links[0].href, "/日本");
    assert_eq!(signals.meta_robots.len(), 1);
    assert!(for_bot(&signals, "googlebot").is_noindex());
}

#[test]
fn every_hand_written_page_sniffs_as_html() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/pages");
    let mut checked = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let Some(name) = path
            .file_name()
            .and_then(|n| n.to_str())
            .and_then(|n| n.strip_suffix(".html"))
        else {
            continue;
        };
        assert_eq!(page(name).not_html, None, "{name}");
        checked += 1;
    }
    assert!(checked > 20, "{checked} pages");
}

#[test]
fn a_tag_flooded_with_attributes_is_read_to_the_cap_in_linear_time() {
    // 100,000 attributes on the robots meta (read by html5ever, in the head) and on a canonical
    // in the body (read by the scanner): each reader checks duplicates against the tag's earlier
    // attributes, so unbounded this took minutes; past the cap the rest of the tag is not read.
    let flood: Vec<String> = (0..100_000).map(|n| format!(" a{n}=x")).collect();
    let flood = flood.concat();
    // The plain head is read by the scanner; a `<noscript>` in the head sends it to html5ever.
    for head_extra in ["", "<noscript></noscript>"] {
        let body = format!(
            "<!doctype html><html><head><title>t</title>{head_extra}\
             <meta name=robots content=noindex{flood}></head><body>\
             <link rel=canonical href=/canonical{flood}><p>text</p></body></html>"
        );
        let url = Url::parse(PAGE_URL).unwrap();
        let signals = extract(&PageInput {
            url: &url,
            status: 200,
            headers: &[HeaderLine::new("Content-Type", "text/html")],
            body: body.as_bytes(),
        });
        assert!(signals.truncated, "{head_extra}");
        assert!(for_bot(&signals, "googlebot").is_noindex(), "{head_extra}");
        assert_eq!(signals.canonicals.len(), 1, "{head_extra}");
        assert_eq!(&*signals.canonicals[0].href, "/canonical", "{head_extra}");
    }
}

#[test]
fn the_title_is_the_first_titles_text_with_whitespace_collapsed_and_bounded() {
    let read = |html: &str| {
        extract(&PageInput {
            url: &Url::parse(PAGE_URL).unwrap(),
            status: 200,
            headers: &[HeaderLine::new("Content-Type", "text/html")],
            body: html.as_bytes(),
        })
        .title
    };
    assert_eq!(
        read(
            "<html><head><title>\n  Red   shoes\t| Shop </title><title>Second</title></head></html>"
        )
        .as_deref(),
        Some("Red shoes | Shop")
    );
    assert_eq!(read("<title>A &amp; B</title>").as_deref(), Some("A & B"));
    // Inside a template or an SVG it is no document title.
    assert_eq!(
        read(
            "<head><template><title>T</title></template></head><body><svg><title>S</title></svg></body>"
        ),
        None
    );
    assert_eq!(read("<head></head><body>no title</body>"), None);
    let long = format!("<title>{}</title>", "word ".repeat(1_000));
    let title = read(&long).unwrap();
    assert!(
        title.chars().count() <= crawlgate_signals::limits::MAX_TITLE_CHARS,
        "{}",
        title.len()
    );
}

#[test]
fn a_thousand_long_robots_and_link_header_lines_are_read_to_their_caps_in_linear_time() {
    // The most header lines a response may carry (crawlgate refuses more), each 8 KiB: X-Robots-Tag
    // lines of many rules and Link lines of many alternates and canonicals. Every list is capped;
    // a quadratic check anywhere (duplicates, merging rules per bot) would take minutes here.
    let robots = (0..1_000)
        .map(|n| format!("googlebot: noindex, nofollow, max-snippet:{n}"))
        .collect::<Vec<_>>()
        .join(", ");
    let robots = &robots[..8 * 1024];
    let links = (0..400)
        .map(|n| format!("<https://www.example.com/l{n}>; rel=alternate; hreflang=x{n}"))
        .collect::<Vec<_>>()
        .join(", ");
    let links = &links[..8 * 1024];
    let mut headers = vec![HeaderLine::new("Content-Type", "text/html")];
    for n in 0..500 {
        headers.push(HeaderLine::new("X-Robots-Tag", robots));
        headers.push(HeaderLine::new("Link", links));
        headers.push(HeaderLine::new(
            "Link",
            format!("<https://www.example.com/c{n}>; rel=canonical"),
        ));
    }
    let url = Url::parse(PAGE_URL).unwrap();
    let signals = extract(&PageInput {
        url: &url,
        status: 200,
        headers: &headers,
        body: b"<!doctype html><title>t</title>",
    });
    assert!(for_bot(&signals, "googlebot").is_noindex());
    assert_eq!(signals.robots_headers.len(), 500);
    assert!(signals.hreflang.len() <= crawlgate_signals::limits::MAX_TAGS);
    assert!(signals.canonicals.len() <= crawlgate_signals::limits::MAX_TAGS);
    assert!(!signals.canonicals.is_empty() && !signals.hreflang.is_empty());
}
