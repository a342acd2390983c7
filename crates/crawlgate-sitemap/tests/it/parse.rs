//! What the parser reads: every kind of sitemap, the extensions as typed fields, positions,
//! namespaces however declared, and the three ways to get entries agreeing.

use crawlgate_sitemap::{
    self as sitemap, Alternate, Entry, Image, News, SitemapKind, SitemapOptions, Video,
};
use std::path::Path;

fn options() -> SitemapOptions {
    SitemapOptions::new("2026-11-30T12:00:00Z".parse().unwrap())
}

fn fixture(relative: &str) -> Vec<u8> {
    std::fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../fixtures/sitemaps")
            .join(relative),
    )
    .expect("fixture exists")
}

fn locs(entries: &[Entry]) -> Vec<&str> {
    entries.iter().map(|entry| entry.loc.as_str()).collect()
}

#[test]
fn extensions_are_typed_fields() {
    let parsed = sitemap::parse_bytes(&fixture("kinds/extensions.xml"), &options());
    assert_eq!(parsed.summary.kind, SitemapKind::UrlSet);
    let entry = &parsed.entries[0];
    assert_eq!(entry.loc, "https://example.com/en/page");
    assert_eq!((entry.line, entry.column), (4, 5));
    assert_eq!(entry.lastmod.as_deref(), Some("2026-11-01"));
    assert_eq!(entry.changefreq.as_deref(), Some("weekly"));
    assert_eq!(entry.priority.as_deref(), Some("0.5"));
    assert_eq!(
        entry.images,
        [Image {
            loc: "https://example.com/photo.jpg?w=800&h=600".to_owned(),
            caption: Some("A \"quoted\" caption".to_owned()),
            title: Some("Photo".to_owned()),
        }]
    );
    assert_eq!(
        entry.videos,
        [Video {
            thumbnail_loc: Some("https://example.com/t.jpg".to_owned()),
            title: Some("Grilling steaks".to_owned()),
            description: Some("How to grill.".to_owned()),
            content_loc: Some("https://example.com/v.mp4".to_owned()),
            player_loc: Some("https://example.com/player".to_owned()),
            duration: Some("600".to_owned()),
            publication_date: Some("2026-11-01".to_owned()),
            expiration_date: Some("2027-11-01".to_owned()),
            content_loc_count: 1,
            player_loc_count: 1,
            ..Video::default()
        }]
    );
    assert_eq!(
        entry.news,
        Some(News {
            publication_name: Some("Example Times".to_owned()),
            publication_language: Some("en".to_owned()),
            publication_date: Some("2026-11-29T08:00:00Z".to_owned()),
            title: Some("Big news".to_owned()),
        })
    );
    let alternates: Vec<_> = entry
        .alternates
        .iter()
        .map(
            |Alternate {
                 hreflang,
                 href,
                 line,
             }| (hreflang.as_str(), href.as_str(), *line),
        )
        .collect();
    assert_eq!(
        alternates,
        [
            ("en", "https://example.com/en/page", 31),
            ("de", "https://example.com/de/page", 32)
        ]
    );
    assert_eq!(parsed.entries[1].alternates.len(), 2);
}

#[test]
fn an_index_lists_child_sitemaps() {
    let parsed = sitemap::parse_bytes(&fixture("kinds/index.xml"), &options());
    assert_eq!(parsed.summary.kind, SitemapKind::Index);
    assert_eq!(
        locs(&parsed.entries),
        [
            "https://example.com/sitemap-products.xml",
            "https://example.com/sitemap-blog.xml"
        ]
    );
    assert_eq!(parsed.entries[1].line, 7);
}

#[test]
fn text_sitemaps_are_one_url_per_line() {
    let parsed = sitemap::parse_bytes(&fixture("kinds/text.txt"), &options());
    assert_eq!(parsed.summary.kind, SitemapKind::Text);
    assert_eq!(
        locs(&parsed.entries),
        [
            "https://example.com/",
            "https://example.com/about",
            "https://example.com/contact",
        ]
    );
    // Lines and columns of the URLs themselves (line 3 is blank; line 4 is indented). Line 5,
    // `not a url`, is reported, not an entry.
    let places: Vec<_> = parsed.entries.iter().map(|e| (e.line, e.column)).collect();
    assert_eq!(places, [(1, 1), (2, 1), (4, 3)]);
    let issue = &parsed.summary.issues[0];
    assert_eq!((issue.rule(), issue.line), ("sitemap/loc-invalid", Some(5)));
}

#[test]
fn rss_items_and_atom_entries_are_entries() {
    let rss = sitemap::parse_bytes(&fixture("kinds/rss.xml"), &options());
    assert_eq!(rss.summary.kind, SitemapKind::Rss);
    assert_eq!(
        locs(&rss.entries),
        ["https://example.com/posts/1", "https://example.com/posts/2"]
    );
    assert_eq!(
        rss.entries[0].lastmod.as_deref(),
        Some("Sun, 29 Nov 2026 08:00:00 GMT")
    );
    // RSS dates are RFC 822; a W3C date in <pubDate> is reported.
    let issue = &rss.summary.issues[0];
    assert_eq!(
        (issue.rule(), issue.line),
        ("sitemap/lastmod-invalid", Some(13))
    );
    assert!(issue.message.contains("RFC 822"));

    let atom = sitemap::parse_bytes(&fixture("kinds/atom.xml"), &options());
    assert_eq!(atom.summary.kind, SitemapKind::Atom);
    // The entry's page link, not its enclosure, nor the feed's own link.
    assert_eq!(locs(&atom.entries), ["https://example.com/posts/1"]);
    assert_eq!(atom.entries[0].line, 9);
    let issue = &atom.summary.issues[0];
    assert_eq!(
        (issue.rule(), issue.line),
        ("sitemap/loc-invalid", Some(12))
    );
}

#[test]
fn the_corpus_feed_with_a_sitemap_namespace_is_rss() {
    let bytes = std::fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../fixtures/corpus/sitemaps/news-crawl/feed-with-sitemap-namespace.xml"),
    )
    .unwrap();
    let parsed = sitemap::parse_bytes(&bytes, &options());
    assert_eq!(parsed.summary.kind, SitemapKind::Rss);
    assert_eq!(parsed.entries.len(), 2);
}

#[test]
fn namespaces_are_resolved_however_they_are_declared() {
    // Prefixes declared on <url> and a default namespace redeclared on the extension.
    let xml = r#"<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<url xmlns:img="http://www.google.com/schemas/sitemap-image/1.1">
  <loc>https://example.com/a</loc>
  <img:image><img:loc>https://example.com/a.jpg</img:loc></img:image>
  <image xmlns="http://www.google.com/schemas/sitemap-image/1.1"><loc>https://example.com/b.jpg</loc></image>
</url>
<url>
  <loc>https://example.com/b</loc>
  <img:image><img:loc>https://example.com/unbound.jpg</img:loc></img:image>
</url>
</urlset>"#;
    let parsed = sitemap::parse_bytes(xml.as_bytes(), &options());
    let images: Vec<_> = parsed.entries[0]
        .images
        .iter()
        .map(|i| i.loc.as_str())
        .collect();
    assert_eq!(
        images,
        ["https://example.com/a.jpg", "https://example.com/b.jpg"]
    );
    // Out of the <url> that declared it, `img:` is unbound: ignored and reported once.
    assert!(parsed.entries[1].images.is_empty());
    let issues: Vec<_> = parsed
        .summary
        .issues
        .iter()
        .map(crawlgate_sitemap::Issue::rule)
        .collect();
    assert_eq!(issues, ["sitemap/bad-root-or-namespace"]);
}

#[test]
fn elements_in_other_namespaces_are_not_sitemap_elements() {
    let xml = r#"<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:x="urn:other">
<url><x:loc>https://example.com/other</x:loc><loc>https://example.com/real</loc></url>
</urlset>"#;
    let parsed = sitemap::parse_bytes(xml.as_bytes(), &options());
    assert_eq!(locs(&parsed.entries), ["https://example.com/real"]);
}

#[test]
fn entities_character_references_and_line_endings() {
    let xml = "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\r\n<url>\r\n<loc>https://example.com/?a=1&amp;b=&#x32;&#51;&lt;</loc>\r\n<lastmod>2026-01-01</lastmod></url>\r\n</urlset>";
    let parsed = sitemap::parse_bytes(xml.as_bytes(), &options());
    assert_eq!(locs(&parsed.entries), ["https://example.com/?a=1&b=23<"]);
    assert_eq!(parsed.entries[0].line, 3);
    // `<` decoded from &lt; must be URL-escaped.
    assert_eq!(parsed.summary.issues[0].rule(), "sitemap/loc-invalid");
}

#[test]
fn utf8_bom_and_leading_whitespace_are_skipped() {
    let xml = "\u{feff}\n\n  <urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\"><url><loc>https://example.com/</loc></url></urlset>";
    let parsed = sitemap::parse_bytes(xml.as_bytes(), &options());
    assert_eq!(parsed.summary.kind, SitemapKind::UrlSet);
    assert!(
        parsed.summary.issues.is_empty(),
        "{:?}",
        parsed.summary.issues
    );
    assert_eq!((parsed.entries[0].line, parsed.entries[0].column), (3, 68));
}

#[test]
fn non_utf8_and_utf16_are_not_sitemaps() {
    let latin1 = b"<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\"><url><loc>https://example.com/caf\xe9</loc></url></urlset>";
    let parsed = sitemap::parse_bytes(latin1, &options());
    let issue = &parsed.summary.issues[0];
    assert_eq!(issue.rule(), "sitemap/not-xml");
    assert!(issue.message.contains("UTF-8"));
    let utf16: Vec<u8> = "\u{feff}<urlset/>"
        .encode_utf16()
        .flat_map(u16::to_le_bytes)
        .collect();
    let parsed = sitemap::parse_bytes(&utf16, &options());
    assert!(parsed.summary.issues[0].message.contains("UTF-16"));
}

#[test]
fn gzip_inside_gzip_is_not_decompressed_twice() {
    use flate2::{Compression, write::GzEncoder};
    use std::io::Write;
    let gzip = |bytes: &[u8]| {
        let mut encoder = GzEncoder::new(Vec::new(), Compression::default());
        encoder.write_all(bytes).unwrap();
        encoder.finish().unwrap()
    };
    let twice = gzip(&gzip(&fixture("empty/clean.xml")));
    let parsed = sitemap::parse_bytes(&twice, &options());
    assert!(parsed.summary.gzip);
    assert_eq!(parsed.summary.kind, SitemapKind::Unknown);
    assert!(
        parsed.summary.issues[0]
            .message
            .contains("gzip inside gzip")
    );
    // Once is fine, whatever the name: gzip is decided by the bytes.
    let once = sitemap::parse_bytes(&gzip(&fixture("empty/clean.xml")), &options());
    assert_eq!(
        (once.summary.kind, once.entries.len()),
        (SitemapKind::UrlSet, 1)
    );
}

#[test]
fn streaming_collecting_and_borrowing_agree() {
    for file in [
        "kinds/extensions.xml",
        "hreflang-invalid/fires.xml",
        "kinds/text.txt",
        "kinds/rss.xml",
    ] {
        let bytes = fixture(file);
        let collected = sitemap::parse_bytes(&bytes, &options());
        let mut streamed = Vec::new();
        let summary = sitemap::parse(&bytes[..], &options(), |entry| streamed.push(entry));
        let mut borrowed = Vec::new();
        let lent = sitemap::parse_borrowed(&bytes[..], &options(), |entry| {
            borrowed.push(entry.clone());
        });
        assert_eq!(streamed, collected.entries, "{file}");
        assert_eq!(borrowed, collected.entries, "{file}");
        assert_eq!(summary, collected.summary, "{file}");
        assert_eq!(lent, collected.summary, "{file}");
        assert_eq!(summary.entry_count, streamed.len() as u64);
    }
}

#[test]
fn summaries_serialise_with_lowercase_kinds() {
    let parsed = sitemap::parse_bytes(&fixture("kinds/index.xml"), &options());
    let json = serde_json::to_value(&parsed).unwrap();
    assert_eq!(json["summary"]["kind"], "index");
    assert_eq!(json["summary"]["entry_count"], 2);
    assert_eq!(
        json["entries"][0]["loc"],
        "https://example.com/sitemap-products.xml"
    );
}

#[test]
fn w3c_datetime_is_public_for_other_parts() {
    use sitemap::{W3cDatetime, parse_w3c_datetime};
    assert_eq!(
        parse_w3c_datetime("2026-11"),
        Some(W3cDatetime::YearMonth {
            year: 2026,
            month: 11
        })
    );
    let json = serde_json::to_value(parse_w3c_datetime("2026-11-30T10:00:00+01:00")).unwrap();
    assert_eq!(json["form"], "date_time");
    assert_eq!(json["timestamp"], "2026-11-30T09:00:00Z");
}

fn issues_of(xml: &str) -> Vec<(Option<u32>, Option<u32>, &'static str, String)> {
    let parsed = sitemap::parse_bytes(xml.as_bytes(), &options());
    parsed
        .summary
        .issues
        .iter()
        .map(|i| (i.line, i.column, i.rule(), i.message.clone()))
        .collect()
}

const URLSET: &str = "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\" \
                      xmlns:image=\"http://www.google.com/schemas/sitemap-image/1.1\" \
                      xmlns:xhtml=\"http://www.w3.org/1999/xhtml\">";

#[test]
fn an_unescaped_lt_is_reported_where_it_is_and_the_rest_reads_on() {
    let xml = format!(
        "<?xml version=\"1.0\"?>\n{URLSET}\n<url><loc>https://a.com/?a<b</loc></url>\n\
         <url><loc>https://a.com/</loc><image:image><image:loc>https://a.com/i.png</image:loc>\
         <image:title>A < B</image:title></image:image></url>\n\
         <url><loc>https://a.com/x</loc></url>\n</urlset>\n"
    );
    let parsed = sitemap::parse_bytes(xml.as_bytes(), &options());
    let found = issues_of(&xml);
    assert_eq!(found.len(), 3, "{found:#?}");
    assert_eq!(
        (found[1].0, found[1].1, found[1].2),
        (Some(3), Some(27), "sitemap/not-xml")
    );
    assert!(found[1].3.contains("unescaped `<` in <loc>"), "{found:#?}");
    assert_eq!((found[2].0, found[2].1), (Some(4), Some(101)));
    assert!(
        found[2].3.contains("unescaped `<` in <image:title>"),
        "{found:#?}"
    );
    // The loc with `<` is read as written, and reported as a loc that must be escaped.
    assert_eq!(found[0].2, "sitemap/loc-invalid");
    let locs: Vec<_> = parsed.entries.iter().map(|e| e.loc.as_str()).collect();
    assert_eq!(
        locs,
        ["https://a.com/?a<b", "https://a.com/", "https://a.com/x"]
    );
    assert_eq!(parsed.entries[1].images[0].title.as_deref(), Some("A < B"));

    let clean = format!(
        "<?xml version=\"1.0\"?>\n{URLSET}\n<url><loc>https://a.com/?a&lt;b</loc></url>\n</urlset>\n"
    );
    assert!(!issues_of(&clean).iter().any(|i| i.2 == "sitemap/not-xml"));
}

#[test]
fn white_space_before_the_xml_declaration_breaks_xml() {
    let body = "<?xml version=\"1.0\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n\
                <url><loc>https://a.com/</loc></url>\n</urlset>\n";
    for (before, line, column) in [("\n", 2, 1), ("  ", 1, 3), ("\u{feff}\n", 2, 1)] {
        let found = issues_of(&format!("{before}{body}"));
        assert_eq!(found.len(), 1, "{before:?}: {found:#?}");
        assert_eq!(
            (found[0].0, found[0].1, found[0].2),
            (Some(line), Some(column), "sitemap/not-xml")
        );
        assert!(
            found[0].3.contains("before the XML declaration"),
            "{found:#?}"
        );
    }
    // A byte order mark right before it is allowed; no declaration at all is too.
    assert!(issues_of(&format!("\u{feff}{body}")).is_empty());
    assert!(issues_of(body).is_empty());
    let no_declaration = body.split_once('\n').unwrap().1;
    assert!(issues_of(&format!("\n{no_declaration}")).is_empty());
    let late = format!("<!-- x -->{body}");
    assert!(issues_of(&late)[0].3.contains("after other markup"));
}

#[test]
fn unknown_and_out_of_namespace_sitemap_elements_are_reported() {
    let xml = format!(
        "{URLSET}\n<url xmlns=\"\"><loc>https://a.com/</loc></url>\n\
         <url><loc>https://a.com/b</loc><lastmodified>2024-01-01</lastmodified></url>\n\
         <url><loc>https://a.com/c</loc><lastmod xmlns=\"urn:x\">2024-01-01</lastmod></url>\n\
         <entry/>\n</urlset>\n"
    );
    let parsed = sitemap::parse_bytes(xml.as_bytes(), &options());
    let found = issues_of(&xml);
    let places: Vec<_> = found.iter().map(|i| (i.0, i.1, i.2)).collect();
    let rule = "sitemap/bad-root-or-namespace";
    assert_eq!(
        places,
        [
            (Some(2), Some(1), rule),
            (Some(3), Some(32), rule),
            (Some(4), Some(32), rule),
            (Some(5), Some(1), rule)
        ],
        "{found:#?}"
    );
    assert!(
        found[0]
            .3
            .contains("<url> is outside the sitemaps.org namespace")
    );
    assert!(found[0].3.contains("the entry is not read"));
    assert!(
        found[1]
            .3
            .contains("<lastmodified> is not a sitemaps.org element of <url>")
    );
    assert!(found[2].3.contains("its value is not read"));
    assert!(
        found[3]
            .3
            .contains("<entry> is not a sitemaps.org element of <urlset>")
    );
    assert_eq!(parsed.entries.len(), 2);

    // Extensions in their own namespaces are not sitemaps.org elements.
    let clean = format!(
        "{URLSET}\n<url><loc>https://a.com/</loc><image:image><image:loc>https://a.com/i.png\
         </image:loc></image:image><x:custom xmlns:x=\"urn:x\">1</x:custom>\
         <lastmod>2024-01-01</lastmod></url>\n</urlset>\n"
    );
    assert!(issues_of(&clean).is_empty(), "{:#?}", issues_of(&clean));
}

#[test]
fn xhtml_links_lacking_rel_hreflang_or_href_are_reported() {
    let xml = format!(
        "{URLSET}\n<url><loc>https://a.com/</loc>\n\
         <xhtml:link rel=\"alternate\" hreflang=\"en\" href=\"https://a.com/\"/>\n\
         <xhtml:link hreflang=\"de\" href=\"https://a.com/de\"/>\n\
         <xhtml:link rel=\"alternate\" href=\"https://a.com/fr\"/>\n\
         <xhtml:link rel=\"alternate\" hreflang=\"es\"/>\n\
         <xhtml:link rel=\"alternate\" media=\"only screen and (max-width: 640px)\" href=\"https://m.a.com/\"/>\n\
         <xhtml:link rel=\"alternate\" href=\"android-app://com.a/https/a.com/\"/>\n\
         </url>\n</urlset>\n"
    );
    let found = issues_of(&xml);
    let lines: Vec<_> = found.iter().map(|i| (i.0, i.2)).collect();
    let rule = "sitemap/hreflang-invalid";
    assert_eq!(
        lines,
        [(Some(4), rule), (Some(5), rule), (Some(6), rule)],
        "{found:#?}"
    );
    assert!(found[0].3.contains("no rel attribute"));
    assert!(found[1].3.contains("no hreflang attribute"));
    assert!(found[2].3.contains("no href attribute"));
}
