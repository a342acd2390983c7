//! Page signal extraction throughput on real pages (`cargo bench -p crawlgate-benches --bench
//! signals`): the 31 Debian documentation pages in `fixtures/pages/real/` (output of Sphinx,
//! `AsciiDoc` and `DocBook`, English and Japanese), each extracted as a `text/html` response.

use crawlgate_core::http::HeaderLine;
use crawlgate_core::signals::{PageInput, Profile, Signals, extract};
use divan::counter::BytesCount;
use divan::{Bencher, black_box};
use std::path::{Path, PathBuf};
use std::sync::LazyLock;
use url::Url;

fn main() {
    divan::main();
}

/// Every `.html` file under `fixtures/pages/real/`, sorted by path.
static PAGES: LazyLock<Vec<Vec<u8>>> = LazyLock::new(|| {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/pages/real");
    let mut paths = Vec::new();
    collect_html(&root, &mut paths);
    paths.sort();
    assert!(
        paths.len() >= 30,
        "real pages missing under {}",
        root.display()
    );
    paths
        .iter()
        .map(|path| std::fs::read(path).expect("readable fixture"))
        .collect()
});

fn collect_html(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("fixture directory") {
        let path = entry.expect("directory entry").path();
        if path.is_dir() {
            collect_html(&path, out);
        } else if path.extension().is_some_and(|ext| ext == "html") {
            out.push(path);
        }
    }
}

static URL: LazyLock<Url> =
    LazyLock::new(|| Url::parse("https://docs.example/section/page.html").expect("valid URL"));
static HEADERS: LazyLock<Vec<HeaderLine>> =
    LazyLock::new(|| vec![HeaderLine::new("Content-Type", "text/html")]);

fn extract_page(body: &[u8]) -> Signals {
    extract(&PageInput {
        url: &URL,
        status: 200,
        headers: &HEADERS,
        body,
    })
}

/// All real pages, one after another: the MB/s figure in BENCHMARKS.md.
#[divan::bench(sample_count = 20)]
fn extract_real_page_mix(bencher: Bencher) {
    let total: usize = PAGES.iter().map(Vec::len).sum();
    bencher.counter(BytesCount::new(total)).bench(|| {
        for page in PAGES.iter() {
            black_box(extract_page(black_box(page)));
        }
    });
}

/// The same pages through a full html5ever parse into scraper's DOM (`Html::parse_document`, the
/// reference `extract` is tested against), on text decoded before timing: the denominator of the
/// "× a full parse" ratio in BENCHMARKS.md, measured in the same run as `extract_real_page_mix`.
#[divan::bench(sample_count = 20)]
fn full_html5ever_parse_real_page_mix(bencher: Bencher) {
    let texts: Vec<String> = PAGES
        .iter()
        .map(|page| String::from_utf8_lossy(page).into_owned())
        .collect();
    let total: usize = PAGES.iter().map(Vec::len).sum();
    bencher.counter(BytesCount::new(total)).bench(|| {
        for text in &texts {
            black_box(scraper::Html::parse_document(black_box(text)));
        }
    });
}

/// Effective directives for Googlebot from already extracted signals.
#[divan::bench]
fn directives_for_googlebot(bencher: Bencher) {
    let signals: Vec<Signals> = PAGES.iter().map(|page| extract_page(page)).collect();
    let googlebot = Profile::googlebot();
    let now = jiff::Timestamp::UNIX_EPOCH;
    bencher.bench(|| {
        for page in &signals {
            black_box(page.directives(&googlebot, now).is_noindex());
        }
    });
}
