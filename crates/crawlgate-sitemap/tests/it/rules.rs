//! One fixture that fires and one that stays clean per sitemap issue kind
//! (`fixtures/sitemaps/<rule-name>/fires*` and `clean*`), plus the exact positions of what fires.
//!
//! Every fixture is checked as served at `https://example.com/sitemap.xml` (the scope fixtures
//! say where else) at 2026-11-30T12:00:00Z. Rules that need big inputs (too-many-urls,
//! too-large, the size guard) are built in code in `sitemap_limits.rs`.

use crawlgate_sitemap::{self as sitemap, SitemapOptions, SitemapSummary};
use crawlgate_sitemap::{Issue, Severity};
use std::path::{Path, PathBuf};

const CHECK_TIME: &str = "2026-11-30T12:00:00Z";

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/sitemaps")
}

/// Where each fixture folder's sitemap is served.
fn served_at(rule_folder: &str) -> &'static str {
    match rule_folder {
        "out-of-path-scope" => "https://example.com/catalog/sitemap.xml",
        "index-child-out-of-scope" => "https://example.com/sitemaps/index.xml",
        _ => "https://example.com/sitemap.xml",
    }
}

fn check(relative: &str) -> SitemapSummary {
    let folder = relative.split('/').next().unwrap_or_default();
    let options = SitemapOptions::new(CHECK_TIME.parse().unwrap())
        .with_url(served_at(folder).parse().unwrap());
    let bytes = std::fs::read(fixtures().join(relative)).expect("fixture exists");
    sitemap::parse_bytes(&bytes, &options).summary
}

/// `(line, column)` of the issues of `rule`, in order.
fn positions(summary: &SitemapSummary, rule: &str) -> Vec<(Option<u32>, Option<u32>)> {
    summary
        .issues
        .iter()
        .filter(|issue| issue.rule() == rule)
        .map(|issue| (issue.line, issue.column))
        .collect()
}

fn with_rule<'a>(summary: &'a SitemapSummary, rule: &str) -> Vec<&'a Issue> {
    summary
        .issues
        .iter()
        .filter(|issue| issue.rule() == rule)
        .collect()
}

/// The rule folders: every rule this module reports from a document that fits in a fixture.
/// Besides the rule folders: `kinds/` (one document per kind), `examples/` (README.md's example).
const RULE_FOLDERS: [&str; 23] = [
    "not-xml",
    "bad-root-or-namespace",
    "gzip-invalid",
    "empty",
    "unsafe-xml",
    "loc-invalid",
    "cross-host-url",
    "out-of-path-scope",
    "index-child-out-of-scope",
    "lastmod-invalid",
    "lastmod-future",
    "lastmod-uniform",
    "changefreq-priority",
    "duplicate-url",
    "hreflang-invalid",
    "image-limit",
    "image-invalid",
    "video-invalid",
    "news-invalid",
    "news-stale",
    "kinds",
    "examples",
    "README.md",
];

#[test]
fn every_fires_fixture_fires_and_every_clean_fixture_stays_clean() {
    let mut checked = 0;
    for folder in RULE_FOLDERS
        .iter()
        .filter(|f| !matches!(**f, "kinds" | "examples" | "README.md"))
    {
        let rule = format!("sitemap/{folder}");
        let mut files: Vec<_> = std::fs::read_dir(fixtures().join(folder))
            .unwrap_or_else(|_| panic!("fixtures/sitemaps/{folder} exists"))
            .map(|entry| entry.unwrap().file_name().into_string().unwrap())
            .collect();
        files.sort();
        assert!(
            files.iter().any(|f| f.starts_with("fires"))
                && files.iter().any(|f| f.starts_with("clean")),
            "{folder} has a fires and a clean fixture"
        );
        for file in files {
            let summary = check(&format!("{folder}/{file}"));
            let fired = !with_rule(&summary, &rule).is_empty();
            if file.starts_with("fires") {
                assert!(
                    fired,
                    "{folder}/{file} must fire {rule}: {:#?}",
                    summary.issues
                );
            } else {
                assert!(
                    summary.issues.is_empty(),
                    "{folder}/{file} must be clean: {:#?}",
                    summary.issues
                );
            }
            checked += 1;
        }
    }
    assert!(checked >= 40, "{checked} fixtures checked");
}

#[test]
fn the_fixture_folders_are_the_listed_rules() {
    let mut folders: Vec<_> = std::fs::read_dir(fixtures())
        .unwrap()
        .map(|entry| entry.unwrap().file_name().into_string().unwrap())
        .collect();
    folders.sort();
    let mut listed = RULE_FOLDERS.to_vec();
    listed.sort_unstable();
    assert_eq!(folders, listed);
}

#[test]
fn not_xml_points_at_the_offending_character() {
    let at = |file, line, column| {
        let summary = check(&format!("not-xml/{file}"));
        assert_eq!(
            positions(&summary, "sitemap/not-xml"),
            vec![(Some(line), Some(column))],
            "{file}: {:#?}",
            summary.issues
        );
        summary
    };
    // `    <loc>https://example.com/caf&nbsp;e</loc>`: the `&` is column 33.
    let entity = at("fires-undefined-entity.xml", 4, 33);
    assert!(entity.issues[0].message.contains("&nbsp;"));
    // `    <loc>https://example.com/search?a=1&b=2</loc>`: the bare `&` is column 40.
    let bare = at("fires-bare-ampersand.xml", 4, 40);
    assert!(bare.issues[0].message.contains("&amp;"));
    let mismatched = at("fires-mismatched-tag.xml", 5, 3);
    assert!(mismatched.issues[0].message.contains("</urll>"));
    // Reading went on after the broken tag: both URLs are there.
    assert_eq!(mismatched.entry_count, 2);
    let truncated = at("fires-truncated.xml", 7, 31);
    assert!(truncated.truncated);
    assert_eq!(truncated.entry_count, 1);
    let html = at("fires-html.html", 1, 1);
    assert!(html.issues[0].message.contains("HTML"));
    assert_eq!(html.kind, sitemap::SitemapKind::Unknown);
    let junk = at("fires-not-a-sitemap.txt", 1, 1);
    assert!(
        junk.issues[0]
            .message
            .contains("neither XML nor a text sitemap")
    );
    let second_root = at("fires-content-after-root.xml", 7, 1);
    assert!(second_root.issues[0].message.contains("second root"));
}

#[test]
fn escaped_and_cdata_urls_come_through_decoded() {
    let options = SitemapOptions::new(CHECK_TIME.parse().unwrap());
    let bytes = std::fs::read(fixtures().join("not-xml/clean.xml")).unwrap();
    let parsed = sitemap::parse_bytes(&bytes, &options);
    let locs: Vec<_> = parsed.entries.iter().map(|e| e.loc.as_str()).collect();
    assert_eq!(
        locs,
        [
            "https://example.com/search?a=1&b=2&c=3",
            "https://example.com/cdata?x=1&y=2"
        ]
    );
}

#[test]
fn bad_root_or_namespace_says_what_was_found() {
    let wrong = check("bad-root-or-namespace/fires-wrong-namespace.xml");
    assert_eq!(
        positions(&wrong, "sitemap/bad-root-or-namespace"),
        vec![(Some(2), Some(1))]
    );
    assert!(wrong.issues[0].message.contains("0.84"));
    // A wrong namespace is reported once; the entries are still read.
    assert_eq!(wrong.entry_count, 1);
    let none = check("bad-root-or-namespace/fires-no-namespace.xml");
    assert!(none.issues[0].message.contains("no namespace"));
    let root = check("bad-root-or-namespace/fires-unknown-root.xml");
    assert!(root.issues[0].message.contains("<sitemaps>"));
    assert_eq!(
        (root.kind, root.entry_count),
        (sitemap::SitemapKind::Unknown, 0)
    );
    let prefix = check("bad-root-or-namespace/fires-unbound-prefix.xml");
    assert!(prefix.issues[0].message.contains("`image:`"));
    // A prefixed sitemaps.org root is fine.
    assert_eq!(
        check("bad-root-or-namespace/clean.xml").kind,
        sitemap::SitemapKind::Index
    );
}

#[test]
fn gzip_invalid_keeps_what_was_decompressed() {
    let truncated = check("gzip-invalid/fires-truncated.xml.gz");
    assert!(truncated.gzip && truncated.truncated);
    assert_eq!(
        positions(&truncated, "sitemap/gzip-invalid"),
        vec![(None, None)]
    );
    // The cut stream is not also blamed on the XML.
    assert!(with_rule(&truncated, "sitemap/not-xml").is_empty());
    let corrupt = check("gzip-invalid/fires-corrupt.xml.gz");
    assert_eq!(with_rule(&corrupt, "sitemap/gzip-invalid").len(), 1);
    let clean = check("gzip-invalid/clean.xml.gz");
    assert!(clean.gzip && !clean.truncated);
    assert_eq!(clean.entry_count, 2);
    assert!(clean.bytes_read < clean.bytes_uncompressed);
}

#[test]
fn empty_is_a_notice_for_news_sitemaps() {
    let severity = |file: &str| with_rule(&check(file), "sitemap/empty")[0].severity;
    assert_eq!(severity("empty/fires.xml"), Severity::Warning);
    assert_eq!(severity("empty/fires-news.xml"), Severity::Notice);
    assert_eq!(severity("empty/fires-zero-bytes.xml"), Severity::Warning);
}

#[test]
fn unsafe_xml_is_refused_not_parsed() {
    for file in [
        "unsafe-xml/fires-billion-laughs.xml",
        "unsafe-xml/fires-external-dtd.xml",
    ] {
        let summary = check(file);
        assert_eq!(
            positions(&summary, "sitemap/unsafe-xml"),
            vec![(Some(2), Some(1))],
            "{file}"
        );
        assert_eq!(summary.entry_count, 0, "nothing after the DOCTYPE is read");
        assert!(summary.truncated);
    }
    assert!(
        check("unsafe-xml/fires-billion-laughs.xml").issues[0]
            .message
            .contains("ENTITY")
    );
}

#[test]
fn loc_invalid_covers_each_way_a_loc_goes_wrong() {
    let summary = check("loc-invalid/fires.xml");
    let found: Vec<_> = with_rule(&summary, "sitemap/loc-invalid")
        .iter()
        .map(|issue| (issue.line.unwrap(), issue.message.clone()))
        .collect();
    let expect = [
        (3, "is missing"),
        (7, "is empty"),
        (10, "not an absolute URL"),
        (13, "space"),
        (16, "caf%C3%A9"),
        (19, "not an http or https URL"),
        (22, "2120 characters"),
    ];
    assert_eq!(found.len(), expect.len(), "{found:#?}");
    for ((line, message), (want_line, want_text)) in found.iter().zip(expect) {
        assert_eq!(*line, want_line);
        assert!(message.contains(want_text), "line {line}: {message}");
    }
    // A loc that only lacks escaping (the space, `café`) is still a URL, handed on; one that is
    // no http(s) URL at all (relative, `ftp:`, over-long) is reported and not an entry.
    assert_eq!(summary.entry_count, 2);
    for (line, message) in &found {
        let dropped = message.contains("not read as an entry");
        assert_eq!(
            dropped,
            [10, 19, 22].contains(line),
            "line {line}: {message}"
        );
    }
}

#[test]
fn what_is_no_http_url_is_no_entry() {
    use std::fmt::Write as _;
    let schemes = [
        "file:///etc/passwd",
        "javascript:alert(1)",
        "data:text/html,hi",
        "ftp://example.com/a.xml",
        "mailto:a@example.com",
        "//example.com/protocol-relative.xml",
        "https://",
    ];
    let mut xml = String::from(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<sitemapindex \
         xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n",
    );
    for loc in schemes {
        writeln!(xml, "<sitemap><loc>{loc}</loc></sitemap>").unwrap();
    }
    xml.push_str("<sitemap><loc>https://example.com/a.xml</loc></sitemap>\n</sitemapindex>\n");
    let parsed = sitemap::parse_bytes(
        xml.as_bytes(),
        &SitemapOptions::new(CHECK_TIME.parse().unwrap()),
    );
    let locs: Vec<_> = parsed.entries.iter().map(|e| e.loc.as_str()).collect();
    assert_eq!(locs, ["https://example.com/a.xml"]);
    assert_eq!(parsed.summary.entry_count, 1);
    assert_eq!(
        with_rule(&parsed.summary, "sitemap/loc-invalid").len(),
        schemes.len()
    );

    let text = b"https://example.com/\nfile:///etc/passwd\njust words\nhttps://example.com/b\n";
    let parsed = sitemap::parse_bytes(text, &SitemapOptions::new(CHECK_TIME.parse().unwrap()));
    let locs: Vec<_> = parsed.entries.iter().map(|e| e.loc.as_str()).collect();
    assert_eq!(locs, ["https://example.com/", "https://example.com/b"]);
    assert_eq!(
        with_rule(&parsed.summary, "sitemap/loc-invalid")
            .iter()
            .map(|issue| issue.line)
            .collect::<Vec<_>>(),
        [Some(2), Some(3)]
    );
}

#[test]
fn location_rules_follow_the_sitemap_url() {
    assert_eq!(
        positions(&check("cross-host-url/fires.xml"), "sitemap/cross-host-url"),
        vec![
            (Some(4), Some(5)),
            (Some(7), Some(5)),
            (Some(10), Some(5)),
            (Some(13), Some(5))
        ]
    );
    assert_eq!(
        positions(
            &check("out-of-path-scope/fires.xml"),
            "sitemap/out-of-path-scope"
        ),
        vec![(Some(7), Some(5)), (Some(10), Some(5))]
    );
    assert_eq!(
        positions(
            &check("index-child-out-of-scope/fires.xml"),
            "sitemap/index-child-out-of-scope"
        ),
        vec![(Some(7), Some(5)), (Some(10), Some(5))]
    );
    // Without a URL the location rules are skipped.
    let bytes = std::fs::read(fixtures().join("cross-host-url/fires.xml")).unwrap();
    let unplaced = sitemap::parse_bytes(&bytes, &SitemapOptions::new(CHECK_TIME.parse().unwrap()));
    assert!(unplaced.summary.issues.is_empty());
}

#[test]
fn cross_submitted_hosts_are_not_cross_host() {
    let bytes = std::fs::read(fixtures().join("cross-host-url/fires.xml")).unwrap();
    let mut options = SitemapOptions::new(CHECK_TIME.parse().unwrap())
        .with_url("https://example.com/sitemap.xml".parse().unwrap());
    options.cross_submit_origins = vec![url::Url::parse("https://example.org/").unwrap().origin()];
    let summary = sitemap::parse_bytes(&bytes, &options).summary;
    assert_eq!(
        positions(&summary, "sitemap/cross-host-url"),
        vec![(Some(4), Some(5)), (Some(7), Some(5)), (Some(10), Some(5))]
    );
}

#[test]
fn lastmod_rules() {
    assert_eq!(
        positions(
            &check("lastmod-invalid/fires.xml"),
            "sitemap/lastmod-invalid"
        ),
        [5, 9, 13, 17, 21, 25]
            .map(|line| (Some(line), Some(5)))
            .to_vec()
    );
    let zone = &check("lastmod-invalid/fires.xml").issues[0];
    assert!(zone.message.contains("zone designator"), "{}", zone.message);
    assert_eq!(
        positions(&check("lastmod-future/fires.xml"), "sitemap/lastmod-future"),
        vec![(Some(5), Some(5)), (Some(9), Some(5))]
    );
    let uniform = check("lastmod-uniform/fires.xml");
    let issue = with_rule(&uniform, "sitemap/lastmod-uniform")[0];
    assert_eq!(issue.severity, Severity::Notice);
    assert!(
        issue.message.starts_with("114 of 120 entries"),
        "{}",
        issue.message
    );
}

#[test]
fn changefreq_and_priority() {
    let summary = check("changefreq-priority/fires.xml");
    let found: Vec<_> = with_rule(&summary, "sitemap/changefreq-priority")
        .iter()
        .map(|issue| (issue.line, issue.severity))
        .collect();
    assert_eq!(
        found,
        vec![
            (Some(5), Severity::Notice),
            (Some(10), Severity::Warning),
            (Some(14), Severity::Warning),
        ]
    );
}

#[test]
fn duplicates_name_the_first_listing() {
    let summary = check("duplicate-url/fires.xml");
    let issue = with_rule(&summary, "sitemap/duplicate-url")[0];
    assert_eq!((issue.line, issue.column), (Some(10), Some(5)));
    assert!(issue.message.contains("first at line 4"));
    assert_eq!(summary.entry_count, 3, "duplicates are still entries");
}

#[test]
fn hreflang_invalid_cases() {
    let summary = check("hreflang-invalid/fires.xml");
    let found: Vec<_> = with_rule(&summary, "sitemap/hreflang-invalid")
        .iter()
        .map(|issue| (issue.line.unwrap(), issue.message.clone()))
        .collect();
    let expect = [
        (6, "`GB`"),
        (7, "not a fully-qualified"),
        (11, "do not include the URL itself"),
        (11, "line 4"),
        (16, "line 19"),
        (25, "no href"),
    ];
    assert_eq!(found.len(), expect.len(), "{found:#?}");
    for ((line, message), (want_line, want_text)) in found.iter().zip(expect) {
        assert_eq!(*line, want_line);
        assert!(message.contains(want_text), "line {line}: {message}");
    }
}

/// Many pairs, some one-way, some links listed twice: each one-way link is reported once, in
/// document order (return links are matched by merging sorted lists).
#[test]
fn one_way_hreflang_pairs_among_many() {
    let mut xml = String::from(
        r#"<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">
"#,
    );
    let page = |n: u32| format!("https://example.com/{n}");
    let link = |n: u32, lang: &str| {
        format!(
            "    <xhtml:link rel=\"alternate\" hreflang=\"{lang}\" href=\"{}\"/>\n",
            page(n)
        )
    };
    for pair in 0..150 {
        let (first, second) = (2 * pair, 2 * pair + 1);
        // The first lists its partner twice; the second lists it back unless pair % 10 == 0.
        xml += &(String::from("  <url>\n    <loc>") + &page(first) + "</loc>\n");
        xml += &(link(first, "en") + &link(second, "de") + &link(second, "de"));
        xml += "  </url>\n";
        xml += &(String::from("  <url>\n    <loc>") + &page(second) + "</loc>\n");
        xml += &link(second, "de");
        if pair % 10 == 0 {
            xml += "    <!-- no return link -->\n";
        } else {
            xml += &link(first, "en");
        }
        xml += "  </url>\n";
    }
    xml += "</urlset>\n";
    let options = SitemapOptions::new(CHECK_TIME.parse().unwrap());
    let summary = sitemap::parse_bytes(xml.as_bytes(), &options).summary;
    let one_way: Vec<_> = with_rule(&summary, "sitemap/hreflang-invalid")
        .iter()
        .map(|issue| (issue.line.unwrap(), issue.message.clone()))
        .collect();
    // Each pair takes 11 lines from line 3 (`top`): the partner links are at `top + 3` and
    // `top + 4`, the second `<loc>` at `top + 7`.
    let expect: Vec<_> = (0..150)
        .filter(|pair| pair % 10 == 0)
        .flat_map(|pair| {
            let top = 3 + 11 * pair;
            [(top + 3, top + 7), (top + 4, top + 7)]
        })
        .collect();
    assert_eq!(one_way.len(), expect.len(), "{one_way:#?}");
    for ((line, message), (want_line, target_line)) in one_way.iter().zip(expect) {
        assert_eq!(*line, want_line, "{message}");
        assert!(
            message.contains(&format!("line {target_line},")),
            "{message}"
        );
    }
}

#[test]
fn media_and_app_alternates_are_not_hreflang() {
    let options = SitemapOptions::new(CHECK_TIME.parse().unwrap());
    let bytes = std::fs::read(fixtures().join("hreflang-invalid/clean.xml")).unwrap();
    let parsed = sitemap::parse_bytes(&bytes, &options);
    let codes: Vec<_> = parsed.entries[1]
        .alternates
        .iter()
        .map(|alternate| alternate.hreflang.as_str())
        .collect();
    assert_eq!(codes, ["en", "de-AT", "x-default"]);
}

#[test]
fn extension_rules() {
    let images = check("image-limit/fires.xml");
    let issue = with_rule(&images, "sitemap/image-limit")[0];
    assert_eq!((issue.line, issue.column), (Some(3), Some(3)));
    assert!(issue.message.starts_with("1001 image:image"));
    assert_eq!(
        positions(&check("video-invalid/fires.xml"), "sitemap/video-invalid"),
        vec![(Some(5), Some(5)), (Some(12), Some(5)), (Some(20), Some(5))]
    );
    let news = check("news-invalid/fires.xml");
    let messages: Vec<_> = with_rule(&news, "sitemap/news-invalid")
        .iter()
        .map(|issue| issue.message.clone())
        .collect();
    assert!(
        messages[0].ends_with("lacks news:publication/news:name"),
        "{messages:?}"
    );
    assert!(messages[1].contains("news:publication/news:language, news:title"));
    assert!(messages[2].contains("`29 Nov 2026`"));
    assert_eq!(
        positions(&check("news-stale/fires.xml"), "sitemap/news-stale"),
        vec![(Some(5), Some(5)), (Some(16), Some(5))]
    );
}

fn video_issues(video: &str) -> Vec<String> {
    let description = if video.contains("<video:description>") {
        ""
    } else {
        "<video:description>D</video:description>"
    };
    let xml = format!(
        "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\" \
         xmlns:video=\"http://www.google.com/schemas/sitemap-video/1.1\">\n\
         <url><loc>https://example.com/page</loc>\n<video:video>\
         <video:thumbnail_loc>https://example.com/t.jpg</video:thumbnail_loc>\
         <video:title>T</video:title>{description}\
         <video:content_loc>https://example.com/v.mp4</video:content_loc>{video}</video:video>\
         </url>\n</urlset>\n"
    );
    let summary = sitemap::parse_bytes(
        xml.as_bytes(),
        &SitemapOptions::new(CHECK_TIME.parse().unwrap()),
    )
    .summary;
    with_rule(&summary, "sitemap/video-invalid")
        .iter()
        .map(|issue| issue.message.clone())
        .collect()
}

#[test]
fn video_values_are_held_to_googles_limits() {
    let clean = "<video:duration>28800</video:duration><video:rating>4.2</video:rating>\
                 <video:view_count>12345</video:view_count>\
                 <video:publication_date>2026-11-01T10:00:00+01:00</video:publication_date>\
                 <video:expiration_date>2027-11-01</video:expiration_date>\
                 <video:family_friendly>yes</video:family_friendly>\
                 <video:restriction relationship=\"allow\">IE GB US CA</video:restriction>\
                 <video:platform relationship=\"deny\">tv</video:platform>\
                 <video:requires_subscription>no</video:requires_subscription>\
                 <video:uploader info=\"https://example.com/u\">Grill Masters</video:uploader>\
                 <video:live>No</video:live><video:tag>steak</video:tag><video:tag>grill</video:tag>";
    assert_eq!(video_issues(clean), Vec::<String>::new());
    let tags = "<video:tag>t</video:tag>".repeat(33);
    let long = "d".repeat(2_049);
    let cases = [
        (
            "<video:duration>0</video:duration>".to_owned(),
            "video:duration `0`",
        ),
        (
            "<video:duration>28801</video:duration>".to_owned(),
            "from 1 to 28800",
        ),
        (
            "<video:duration>1:30</video:duration>".to_owned(),
            "video:duration `1:30`",
        ),
        (
            "<video:rating>5.1</video:rating>".to_owned(),
            "video:rating `5.1`",
        ),
        ("<video:rating>-1</video:rating>".to_owned(), "0.0 to 5.0"),
        (
            "<video:view_count>many</video:view_count>".to_owned(),
            "video:view_count",
        ),
        (tags, "33 video:tag; Google reads at most 32"),
        (
            format!("<video:description>{long}</video:description>"),
            "video:description is 2049 characters",
        ),
        (
            "<video:publication_date>05/11/2026</video:publication_date>".to_owned(),
            "video:publication_date `05/11/2026` is not W3C Datetime",
        ),
        (
            "<video:expiration_date>2026-11-01T10:00</video:expiration_date>".to_owned(),
            "video:expiration_date",
        ),
        (
            "<video:family_friendly>true</video:family_friendly>".to_owned(),
            "video:family_friendly `true`",
        ),
        (
            "<video:live>maybe</video:live>".to_owned(),
            "video:live `maybe`",
        ),
        (
            "<video:restriction>US GB</video:restriction>".to_owned(),
            "video:restriction has no relationship attribute",
        ),
        (
            "<video:restriction relationship=\"block\">US</video:restriction>".to_owned(),
            "relationship=`block`",
        ),
        (
            "<video:restriction relationship=\"deny\">US,GB</video:restriction>".to_owned(),
            "video:restriction `US,GB` is not a space-separated list of ISO 3166",
        ),
        (
            "<video:platform relationship=\"allow\">web desktop</video:platform>".to_owned(),
            "video:platform `desktop`",
        ),
        (
            "<video:platform relationship=\"allow\">web</video:platform>\
             <video:platform relationship=\"deny\">tv</video:platform>"
                .to_owned(),
            "2 video:platform in one video",
        ),
        (
            "<video:content_loc>https://example.com/w.mp4</video:content_loc>".to_owned(),
            "2 video:content_loc in one video",
        ),
        (
            "<video:player_loc>javascript:play()</video:player_loc>".to_owned(),
            "video:player_loc `javascript:play()` is not an http(s) URL",
        ),
        (
            format!("<video:uploader>{}</video:uploader>", "u".repeat(256)),
            "video:uploader is 256 characters",
        ),
    ];
    for (video, expected) in cases {
        let found = video_issues(&video);
        assert_eq!(found.len(), 1, "{video}: {found:#?}");
        assert!(found[0].contains(expected), "{video}: {found:#?}");
    }
}

#[test]
fn news_language_is_an_iso_639_code() {
    let news = |language: &str| {
        let xml = format!(
            "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\" \
             xmlns:news=\"http://www.google.com/schemas/sitemap-news/0.9\">\n\
             <url><loc>https://example.com/a</loc><news:news><news:publication>\
             <news:name>Example Times</news:name><news:language>{language}</news:language>\
             </news:publication><news:publication_date>2026-11-30</news:publication_date>\
             <news:title>A</news:title></news:news></url>\n</urlset>\n"
        );
        let summary = sitemap::parse_bytes(
            xml.as_bytes(),
            &SitemapOptions::new(CHECK_TIME.parse().unwrap()),
        )
        .summary;
        with_rule(&summary, "sitemap/news-invalid")
            .iter()
            .map(|issue| issue.message.clone())
            .collect::<Vec<_>>()
    };
    for good in ["en", "de", "fil", "zh-cn", "zh-tw"] {
        assert_eq!(news(good), Vec::<String>::new(), "{good}");
    }
    for bad in ["English", "en-US", "EN", "e"] {
        let found = news(bad);
        assert_eq!(found.len(), 1, "{bad}: {found:#?}");
        assert!(
            found[0].contains("is not an ISO 639 language code"),
            "{bad}"
        );
    }
}

#[test]
fn images_need_an_http_image_loc() {
    let summary = check("image-invalid/fires.xml");
    let found: Vec<_> = with_rule(&summary, "sitemap/image-invalid")
        .iter()
        .map(|issue| (issue.line, issue.column, issue.message.clone()))
        .collect();
    assert_eq!(found.len(), 2, "{found:#?}");
    assert_eq!((found[0].0, found[0].1), (Some(5), Some(5)));
    assert!(found[0].2.contains("has no image:loc"));
    assert_eq!(found[1].0, Some(6));
    assert!(
        found[1]
            .2
            .contains("`/img/relative.jpg` is not an absolute http(s) URL")
    );
}
