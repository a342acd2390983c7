//! Documents longer than one of the XML reader's blocks (128 KiB) read the same wherever the
//! blocks end: inside comments and CDATA sections holding `<`, between a reference and the
//! text after it, in a comment longer than a block. Built in code; positions are checked
//! against where the text really is.

use crawlgate_sitemap::{self as sitemap, Entry, SitemapOptions};

const ENTRIES: usize = 1_500;
/// The entry before which a comment longer than a block is inserted.
const LONG_COMMENT_AT: usize = 700;

fn options() -> SitemapOptions {
    SitemapOptions::new("2026-11-30T12:00:00Z".parse().unwrap())
}

/// A urlset of [`ENTRIES`] entries after a comment of `pad` bytes (which moves every block
/// boundary); `entry` writes entry `i`'s `<loc>` line.
fn document(pad: usize, loc_line: impl Fn(usize) -> String) -> String {
    let mut xml = String::from(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset \
         xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\"\n  \
         xmlns:image=\"http://www.google.com/schemas/sitemap-image/1.1\">\n",
    );
    xml.push_str("<!--");
    xml.push_str(&"x".repeat(pad));
    xml.push_str("-->\n");
    for i in 0..ENTRIES {
        if i == LONG_COMMENT_AT {
            xml.push_str("<!--");
            for _ in 0..15_000 {
                xml.push_str("<p>filler</p>\n");
            }
            xml.push_str("-->\n");
        }
        xml.push_str("<url>\n");
        xml.push_str(&loc_line(i));
        xml.push_str(
            "  <image:image><image:loc>https://example.com/i.jpg</image:loc>\
             <image:title>Tom &amp; Jerry</image:title>\
             <image:caption>a<![CDATA[<b>]]> x &#38; y</image:caption></image:image>\n\
             </url>\n<!-- between <url> and <loc> -->\n",
        );
    }
    xml.push_str("</urlset>\n");
    xml
}

fn plain_loc(i: usize) -> String {
    format!("  <loc>https://example.com/p{i}</loc>\n")
}

/// Maps byte offsets of a text to 1-based line and column.
struct Lines(Vec<usize>);

impl Lines {
    fn new(text: &str) -> Self {
        Self(text.match_indices('\n').map(|(at, _)| at).collect())
    }

    fn at(&self, offset: usize) -> (u32, u32) {
        let line = self.0.partition_point(|&newline| newline < offset);
        let line_start = if line == 0 { 0 } else { self.0[line - 1] + 1 };
        (
            u32::try_from(line + 1).unwrap(),
            u32::try_from(offset - line_start + 1).unwrap(),
        )
    }
}

fn parse(xml: &str) -> (sitemap::SitemapSummary, Vec<Entry>) {
    let mut entries = Vec::new();
    let summary = sitemap::parse(xml.as_bytes(), &options(), |entry| entries.push(entry));
    (summary, entries)
}

/// Asserts that the entries are exactly [`ENTRIES`], entry `i` being `https://example.com/p{i}`,
/// each placed where its `<loc>` is in `xml`.
fn assert_placed(xml: &str, entries: &[Entry], pad: usize) {
    assert_eq!(entries.len(), ENTRIES, "pad {pad}");
    let lines = Lines::new(xml);
    let mut search_from = 0;
    for (i, entry) in entries.iter().enumerate() {
        let loc = format!("https://example.com/p{i}");
        assert_eq!(entry.loc, loc, "pad {pad}");
        let tag = format!("<loc>{loc}<");
        let offset = search_from + xml[search_from..].find(&tag).unwrap();
        search_from = offset;
        assert_eq!(
            (entry.line, entry.column),
            lines.at(offset),
            "pad {pad}, entry {i}"
        );
    }
}

#[test]
fn entries_read_the_same_wherever_blocks_end() {
    for pad in (0..400).step_by(31) {
        let xml = document(pad, plain_loc);
        assert!(xml.len() > 4 * 128 * 1024, "{} bytes", xml.len());
        let (summary, entries) = parse(&xml);
        assert!(summary.issues.is_empty(), "pad {pad}: {:?}", summary.issues);
        assert_placed(&xml, &entries, pad);
        for entry in &entries {
            let image = &entry.images[0];
            assert_eq!(image.title.as_deref(), Some("Tom & Jerry"), "pad {pad}");
            assert_eq!(image.caption.as_deref(), Some("a<b> x & y"), "pad {pad}");
        }
    }
}

/// Minified sitemaps have few, long lines: a line goes on over block ends, and columns count
/// on across them.
#[test]
fn long_lines_count_columns_across_blocks() {
    for pad in (0..400).step_by(97) {
        let one_line = document(pad, plain_loc).replace('\n', " ");
        let mut xml = String::new();
        for (n, part) in one_line.split_inclusive("</url>").enumerate() {
            xml.push_str(part);
            // A line feed after every 100th entry: lines of about 20 KB.
            if (n + 1) % 100 == 0 {
                xml.push('\n');
            }
        }
        let (summary, entries) = parse(&xml);
        assert!(summary.issues.is_empty(), "pad {pad}: {:?}", summary.issues);
        assert!(entries.last().unwrap().line > 10);
        assert_placed(&xml, &entries, pad);
    }
}

#[test]
fn errors_are_placed_wherever_blocks_end() {
    let broken = |i: usize| match i {
        1_000 => format!("  <loc>https://example.com/p{i}?a=1&b=2</loc>\n"),
        1_200 => format!("  <loc>https://example.com/p{i}</lox >\n"),
        _ => plain_loc(i),
    };
    for pad in (0..400).step_by(37) {
        let xml = document(pad, broken);
        let (summary, entries) = parse(&xml);
        let lines = Lines::new(&xml);
        assert_eq!(entries.len(), ENTRIES, "pad {pad}");
        let found: Vec<_> = summary
            .issues
            .iter()
            .map(|issue| (issue.rule(), issue.line.unwrap(), issue.column.unwrap()))
            .collect();
        let amp = xml.find("&b=2").unwrap();
        let end_tag = xml.find("</lox >").unwrap();
        let at = |offset| {
            let (line, column) = lines.at(offset);
            ("sitemap/not-xml", line, column)
        };
        assert_eq!(found, [at(amp), at(end_tag)], "pad {pad}");
        assert!(
            summary.issues[1]
                .message
                .contains("expected `</loc>`, but `</lox>` was found"),
            "{}",
            summary.issues[1].message
        );
        // The mismatched end tag still closed `<loc>`.
        assert_eq!(entries[1_200].loc, "https://example.com/p1200");
        assert_eq!(entries[1_000].loc, "https://example.com/p1000?a=1&b=2");
    }
}

#[test]
fn a_truncated_gzip_is_a_read_failure_not_broken_xml() {
    use flate2::Compression;
    use flate2::write::GzEncoder;
    use std::io::Write;

    let xml = document(0, plain_loc);
    let mut encoder = GzEncoder::new(Vec::new(), Compression::fast());
    encoder.write_all(xml.as_bytes()).unwrap();
    let gzip = encoder.finish().unwrap();
    // Cut inside the XML declaration, inside the first block, and blocks later.
    for cut in [20, 2_000, gzip.len() / 2] {
        let summary = sitemap::parse_borrowed(&gzip[..cut], &options(), |_| {});
        let rules: Vec<_> = summary
            .issues
            .iter()
            .map(crawlgate_sitemap::Issue::rule)
            .collect();
        assert_eq!(rules, ["sitemap/gzip-invalid"], "cut at {cut}");
        assert!(summary.truncated, "cut at {cut}");
    }
}
