//! Page signals on real pages: 31 HTML files from Debian documentation packages
//! (`fixtures/pages/real/`, see its README for sources and licences), served as `text/html`
//! from `https://docs.example/<package>/<path>`.

use crawlgate_signals::HeaderLine;
use crawlgate_signals::{
    AssetKind, CharsetSource, LinkSource, PageInput, Profile, Signals, extract,
};
use std::path::{Path, PathBuf};
use url::Url;

fn real_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/pages/real")
}

fn html_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            html_files(&path, out);
        } else if path.extension().is_some_and(|ext| ext == "html") {
            out.push(path);
        }
    }
}

/// Every real page: `(path relative to the root, body, signals)`.
fn real_pages() -> Vec<(String, Vec<u8>, Signals)> {
    let root = real_root();
    let mut paths = Vec::new();
    html_files(&root, &mut paths);
    paths.sort();
    let headers = [HeaderLine::new("Content-Type", "text/html")];
    paths
        .into_iter()
        .map(|path| {
            let relative = path
                .strip_prefix(&root)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            let body = std::fs::read(&path).unwrap();
            let url = Url::parse(&format!("https://docs.example/{relative}")).unwrap();
            let signals = extract(&PageInput {
                url: &url,
                status: 200,
                headers: &headers,
                body: &body,
            });
            (relative, body, signals)
        })
        .collect()
}

fn page(relative: &str) -> Signals {
    real_pages()
        .into_iter()
        .find(|(path, _, _)| path == relative)
        .map_or_else(
            || panic!("no real page {relative}"),
            |(_, _, signals)| signals,
        )
}

#[test]
fn every_real_page_reads_cleanly() {
    let pages = real_pages();
    assert_eq!(pages.len(), 31);
    let audit_time = "2026-06-01T00:00:00Z".parse().unwrap();
    for (path, _, signals) in &pages {
        assert!(signals.is_html, "{path}");
        assert_eq!(signals.charset.as_deref(), Some("UTF-8"), "{path}");
        assert_eq!(
            signals.charset_source,
            Some(CharsetSource::MetaTag),
            "{path}"
        );
        assert_eq!(signals.head_break, None, "{path}");
        assert_eq!(signals.not_html, None, "{path} sniffs as HTML");
        assert!(signals.meta_robots.is_empty(), "{path}");
        assert!(!signals.truncated, "{path}");
        assert!(!signals.links.is_empty(), "{path}");
        assert!(
            signals.links.iter().all(|link| link.resolved.is_some()),
            "{path}: every link resolves"
        );
        for profile in Profile::builtins() {
            let directives = signals.directives(&profile, audit_time);
            assert!(
                !directives.is_noindex() && !directives.is_nofollow(),
                "{path}"
            );
        }
    }
}

/// The line reported for a link is the line of its tag's `>`: the href is written on it or on
/// one of the few lines before (tags spanning lines).
#[test]
fn link_lines_point_at_the_source() {
    for (path, body, signals) in real_pages() {
        let text = String::from_utf8(body).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        for link in &signals.links {
            let line = usize::try_from(link.line.expect("line known")).unwrap();
            let tag_text = lines[line.saturating_sub(4)..line].join("\n");
            let written = link.href.replace('&', "&amp;");
            // An href written with character references (`&#64;`) reads differently decoded.
            let has_references = tag_text.contains("&#");
            assert!(
                lines[line - 1].contains('>')
                    && (tag_text.contains(&link.href)
                        || tag_text.contains(&written)
                        || has_references),
                "{path}:{line}: {:?} not in {tag_text:?}",
                link.href
            );
        }
    }
}

/// `(page, distinct links, <a href> tags)`: repeats of one href and rel are counted, not stored.
#[test]
fn link_counts_per_page() {
    let counts: Vec<(String, usize, u32)> = real_pages()
        .into_iter()
        .map(|(path, _, signals)| {
            let tags = signals.links.iter().map(|link| link.occurrences).sum();
            (path, signals.links.len(), tags)
        })
        .collect();
    let expected = [
        ("debian-reference-en/apa.en.html", 16, 17),
        ("debian-reference-en/ch03.en.html", 121, 141),
        ("debian-reference-en/ch04.en.html", 126, 143),
        ("debian-reference-en/ch08.en.html", 100, 110),
        ("debian-reference-en/pr01.en.html", 64, 73),
        ("developers-reference-ja/index.html", 277, 284),
        ("developers-reference-ja/l10n.html", 26, 48),
        ("developers-reference-ja/new-maintainer.html", 31, 48),
        ("developers-reference-ja/resources.html", 81, 129),
        ("developers-reference-ja/scope.html", 20, 30),
        ("developers-reference-ja/tools.html", 67, 128),
        ("git-doc/git-clone.html", 11, 15),
        ("git-doc/git-commit.html", 20, 39),
        ("git-doc/git-push.html", 15, 27),
        ("git-doc/git-status.html", 7, 12),
        ("git-doc/git.html", 195, 258),
        ("git-doc/giteveryday.html", 32, 35),
        ("git-doc/githooks.html", 22, 40),
        ("git-doc/gittutorial.html", 16, 24),
        ("python3.11-doc/faq/general.html", 105, 161),
        ("python3.11-doc/glossary.html", 314, 539),
        ("python3.11-doc/howto/urllib2.html", 67, 123),
        ("python3.11-doc/index.html", 38, 56),
        ("python3.11-doc/library/functions.html", 259, 684),
        ("python3.11-doc/library/index.html", 406, 421),
        ("python3.11-doc/library/json.html", 90, 240),
        ("python3.11-doc/library/os.path.html", 67, 215),
        ("python3.11-doc/library/re.html", 114, 397),
        ("python3.11-doc/reference/lexical_analysis.html", 121, 221),
        ("python3.11-doc/tutorial/controlflow.html", 81, 160),
        ("python3.11-doc/tutorial/introduction.html", 50, 82),
    ];
    let expected: Vec<(String, usize, u32)> = expected
        .iter()
        .map(|(path, distinct, tags)| ((*path).to_owned(), *distinct, *tags))
        .collect();
    assert_eq!(counts, expected);
}

#[test]
fn python_docs_declare_a_file_canonical_and_sphinx_assets() {
    let signals = page("python3.11-doc/library/functions.html");
    let canonicals = &signals.canonicals;
    assert_eq!(canonicals.len(), 1);
    let canonical = canonicals[0].resolved.as_ref().unwrap();
    // Debian builds the docs for local reading: the canonical is a file URL, which Google
    // ignores (not effective; `canonical/invalid` reports it).
    assert!(signals.effective_canonicals().is_empty());
    assert_eq!(
        canonical.as_str(),
        "file:///usr/share/doc/python3.11/html/library/functions.html"
    );
    let LinkSource::Html {
        line, in_head, raw, ..
    } = &canonicals[0].source
    else {
        panic!("html canonical expected");
    };
    assert_eq!(*line, Some(32));
    assert!(*in_head);
    assert_eq!(
        &**raw,
        r#"<link rel="canonical" href="file:///usr/share/doc/python3.11/html/library/functions.html" />"#
    );

    let of_kind = |kind| {
        signals
            .assets
            .iter()
            .filter(|asset| asset.kind == kind)
            .map(|asset| asset.resolved.as_ref().unwrap().as_str())
            .collect::<Vec<_>>()
    };
    assert_eq!(
        of_kind(AssetKind::Stylesheet),
        [
            "https://docs.example/python3.11-doc/_static/pygments.css",
            "https://docs.example/python3.11-doc/_static/pydoctheme.css?2022.1"
        ]
    );
    assert_eq!(of_kind(AssetKind::Script).len(), 9);
    assert_eq!(
        of_kind(AssetKind::Icon),
        ["https://docs.example/python3.11-doc/_static/py.svg"]
    );
    assert!(
        of_kind(AssetKind::Image).contains(&"https://docs.example/python3.11-doc/_static/py.svg")
    );
}

#[test]
fn a_multi_line_nofollow_link_is_read_with_its_end_line() {
    let signals = page("python3.11-doc/faq/general.html");
    let nofollow: Vec<(&str, Option<u32>)> = signals
        .links
        .iter()
        .filter(|link| link.rel.nofollow)
        .map(|link| (link.href.as_str(), link.line))
        .collect();
    // Two tags, at lines 101 and 586: one entry, first line, two occurrences.
    assert_eq!(
        nofollow,
        [(
            "https://github.com/python/cpython/blob/3.11/Doc/faq/general.rst",
            Some(101)
        )]
    );
    let repeated = signals.links.iter().find(|link| link.rel.nofollow).unwrap();
    assert_eq!(repeated.occurrences, 2);
}

#[test]
fn asciidoc_pages_have_inline_styles_and_relative_links() {
    let signals = page("git-doc/git-push.html");
    assert!(signals.assets.is_empty(), "styles are inline");
    assert!(signals.canonicals.is_empty());
    let to_git_pages = signals
        .links
        .iter()
        .filter_map(|link| link.resolved.as_ref())
        .filter(|url| url.as_str().starts_with("https://docs.example/git-doc/git"))
        .count();
    assert!(to_git_pages >= 10, "{to_git_pages}");
}

#[test]
fn japanese_sphinx_pages_keep_their_links() {
    let signals = page("developers-reference-ja/l10n.html");
    assert_eq!(
        signals.links[0].resolved.as_ref().unwrap().as_str(),
        "https://docs.example/developers-reference-ja/index.html"
    );
    let nofollow: Vec<&str> = signals
        .links
        .iter()
        .filter(|link| link.rel.nofollow)
        .map(|link| link.href.as_str())
        .collect();
    assert_eq!(nofollow, ["_sources/l10n.rst.txt"]);
    assert_eq!(
        signals
            .assets
            .iter()
            .filter(|asset| asset.kind == AssetKind::Script)
            .count(),
        8
    );
}

#[test]
fn docbook_pages_have_navigation_images() {
    let signals = page("debian-reference-en/ch08.en.html");
    assert_eq!(
        signals.assets[0].resolved.as_ref().unwrap().as_str(),
        "https://docs.example/debian-reference-en/debian-reference.css"
    );
    let images: Vec<&str> = signals
        .assets
        .iter()
        .filter(|asset| asset.kind == AssetKind::Image)
        .take(2)
        .map(|asset| asset.href.as_str())
        .collect();
    assert_eq!(images, ["images/prev.png", "images/next.png"]);
}

/// A site of 100,000 pages × 50 `<a>` tags must fit well under 1 GiB. Estimated from the real
/// pages: bytes per stored link (the struct, its two strings, 16 bytes of allocator overhead per
/// string) times stored links per `<a>` tag (repeats are counted, not stored).
#[test]
fn links_of_a_large_site_fit_in_memory() {
    let mut tags = 0u64;
    let mut bytes = 0u64;
    for (_, _, signals) in real_pages() {
        for link in &signals.links {
            tags += u64::from(link.occurrences);
            let resolved = link.resolved.as_ref().map_or(0, |url| url.as_str().len());
            let heap = link.href.capacity() + resolved + 2 * 16;
            bytes += (size_of::<crawlgate_signals::PageLink>() + heap) as u64;
        }
    }
    #[allow(clippy::cast_precision_loss)]
    let per_tag = bytes as f64 / tags as f64;
    let site = per_tag * 5_000_000.0;
    let gib = f64::from(1u32 << 30);
    assert!(
        site < 0.8 * gib,
        "{per_tag:.0} bytes per <a> tag: {site:.0} bytes"
    );
    assert!(size_of::<crawlgate_signals::PageLink>() <= 136);
}
