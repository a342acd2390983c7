//! robots.txt matcher: crawlgate against `texting_robots` on the same inputs, in the same run.
//!
//! `cargo bench -p crawlgate-benches --bench robots`
//!
//! Inputs (generated deterministically, as ROBOTS-REFERENCE.md §3 describes):
//! - a synthetic robots.txt of 441 rules in four groups (BadBot+EvilScraper, Bingbot 40 rules,
//!   Googlebot 200 rules, `*` 200 rules) with prefixes, `*`, `$`, `/x/*?p=`, `/x/*/print$`,
//!   `/*.ext$`, `/s*t*.ext`;
//! - 100,000 URL paths of 1–5 segments, 30% with an extension, 35% with 1–3 query parameters;
//! - the 10 real files of `fixtures/corpus/robots/texting_robots/` against the first 10,000 paths;
//! - the pathological case: a 1,001-character `/*a*a…*b` pattern against a 4,000-character path.
//!
//! Both libraries compile the file once (crawlgate: `RobotsTxt::parse` + `agent`; `texting_robots`:
//! `Robot::new`) and then answer allowed/disallowed per path. After divan's table, a summary
//! measures both over the 100k paths again and prints checks/s and the ratio, and counts the paths
//! on which the two disagree.

// A benchmark reports on stdout; the workspace lint guards library crates.
#![allow(clippy::print_stdout)]

use crawlgate_core::robots::{RobotsTxt, path_params_query};
use divan::counter::ItemsCount;
use std::fmt::Write as _;
use std::hint::black_box;
use std::path::PathBuf;
use std::sync::LazyLock;
use std::time::{Duration, Instant};
use texting_robots::Robot;

fn main() {
    divan::main();
    summary();
}

const URL_COUNT: usize = 100_000;
const CORPUS_URL_COUNT: usize = 10_000;
const AGENT: &str = "Googlebot";

/// `SplitMix64`: a tiny deterministic generator, so every run benches the same inputs.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        usize::try_from(self.next() % n as u64).unwrap_or(0)
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }

    fn percent(&mut self, p: usize) -> bool {
        self.below(100) < p
    }
}

const SEGMENTS: &[&str] = &[
    "products", "category", "search", "account", "cart", "blog", "news", "static", "images", "api",
    "user", "help", "docs", "tag", "archive", "shop", "item", "list", "page", "media", "x", "s",
    "t", "print", "en", "de", "fr", "2024", "2025", "old",
];
const EXTENSIONS: &[&str] = &["html", "php", "pdf", "json", "jpg", "ext", "xml", "aspx"];
const PARAMS: &[&str] = &[
    "p",
    "q",
    "sort",
    "page",
    "ref",
    "sessionid",
    "utm_source",
    "filter",
];

fn rule_pattern(rng: &mut Rng) -> String {
    let a = rng.pick(SEGMENTS);
    let b = rng.pick(SEGMENTS);
    let ext = rng.pick(EXTENSIONS);
    let param = rng.pick(PARAMS);
    match rng.below(10) {
        0..=3 => format!("/{a}/{b}"),
        4 => format!("/{a}/"),
        5 => format!("/{a}/*?{param}="),
        6 => format!("/{a}/*/print$"),
        7 => format!("/*.{ext}$"),
        8 => format!("/{a}*{b}*.{ext}"),
        _ => format!("/{a}/*{b}"),
    }
}

fn group(rng: &mut Rng, agents: &[&str], rules: usize) -> String {
    let mut text = String::new();
    for agent in agents {
        writeln!(text, "User-agent: {agent}").expect("write to a String");
    }
    for _ in 0..rules {
        let directive = if rng.percent(25) { "Allow" } else { "Disallow" };
        writeln!(text, "{directive}: {}", rule_pattern(rng)).expect("write to a String");
    }
    text.push('\n');
    text
}

/// The synthetic robots.txt: 441 rules, 200 of them in the Googlebot group.
static SYNTHETIC: LazyLock<String> = LazyLock::new(|| {
    let mut rng = Rng(0x000C_0FFE_E0DD_BA11);
    let mut text = String::from("# synthetic benchmark robots.txt\n");
    text.push_str("User-agent: BadBot\nUser-agent: EvilScraper\nDisallow: /\n\n");
    text.push_str(&group(&mut rng, &["Bingbot"], 40));
    text.push_str(&group(&mut rng, &["Googlebot"], 200));
    text.push_str(&group(&mut rng, &["*"], 200));
    text.push_str("Sitemap: https://example.com/sitemap.xml\n");
    text
});

/// 100,000 paths: 1–5 segments, 30% with an extension, 35% with 1–3 query parameters.
static PATHS: LazyLock<Vec<String>> = LazyLock::new(|| {
    let mut rng = Rng(0x005E_ED0F_0A7B);
    (0..URL_COUNT)
        .map(|_| {
            let mut path = String::new();
            for _ in 0..=rng.below(5) {
                path.push('/');
                path.push_str(rng.pick(SEGMENTS));
            }
            if rng.percent(30) {
                path.push('.');
                path.push_str(rng.pick(EXTENSIONS));
            }
            if rng.percent(35) {
                for i in 0..=rng.below(3) {
                    path.push(if i == 0 { '?' } else { '&' });
                    path.push_str(rng.pick(PARAMS));
                    path.push('=');
                    path.push_str(&rng.below(1000).to_string());
                }
            }
            path
        })
        .collect()
});

static ABSOLUTE_URLS: LazyLock<Vec<String>> = LazyLock::new(|| {
    PATHS
        .iter()
        .map(|path| format!("https://example.com{path}#top"))
        .collect()
});

fn corpus_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../fixtures/corpus/robots/texting_robots")
}

const CORPUS_FILES: &[&str] = &[
    "aviation-safety.net.robots.txt",
    "cnet.robots.txt",
    "ebay.robots.txt",
    "ipwatchdog.robots.txt",
    "quora.robots.txt",
    "reddit.robots.txt",
    "sgppto.robots.txt",
    "substack.robots.txt",
    "twitter.robots.txt",
    "zillow.robots.txt",
];

fn corpus_file(name: &str) -> Vec<u8> {
    std::fs::read(corpus_dir().join(name)).expect("corpus file")
}

/// `/` + `*a` × 499 + `*b`: 1,001 characters.
fn pathological_pattern() -> String {
    format!("/{}*b", "*a".repeat(499))
}

/// 4,000 characters with no `b`: every piece but the last is found, the last is not.
fn pathological_path() -> String {
    format!("/{}", "a".repeat(3_999))
}

mod synthetic {
    use super::{AGENT, ItemsCount, PATHS, Robot, RobotsTxt, SYNTHETIC, URL_COUNT, black_box};

    #[divan::bench]
    fn crawlgate_100k(bencher: divan::Bencher) {
        let robots = RobotsTxt::parse(SYNTHETIC.as_bytes());
        let agent = robots.agent(&[AGENT]);
        bencher.counter(ItemsCount::new(URL_COUNT)).bench(|| {
            PATHS
                .iter()
                .filter(|path| agent.is_allowed(black_box(path)))
                .count()
        });
    }

    /// With the evidence (deciding line, pattern, group) built for every path.
    #[divan::bench]
    fn crawlgate_verdict_100k(bencher: divan::Bencher) {
        let robots = RobotsTxt::parse(SYNTHETIC.as_bytes());
        let agent = robots.agent(&[AGENT]);
        bencher.counter(ItemsCount::new(URL_COUNT)).bench(|| {
            PATHS
                .iter()
                .filter(|path| agent.verdict(black_box(path)).allowed)
                .count()
        });
    }

    #[divan::bench]
    fn texting_robots_100k(bencher: divan::Bencher) {
        let robot = Robot::new(AGENT, SYNTHETIC.as_bytes()).expect("texting_robots parses");
        bencher.counter(ItemsCount::new(URL_COUNT)).bench(|| {
            PATHS
                .iter()
                .filter(|path| robot.allowed(black_box(path)))
                .count()
        });
    }

    /// Absolute URLs, reduced with Google's `GetPathParamsQuery` first.
    #[divan::bench]
    fn crawlgate_from_absolute_urls_100k(bencher: divan::Bencher) {
        let robots = RobotsTxt::parse(SYNTHETIC.as_bytes());
        let agent = robots.agent(&[AGENT]);
        bencher.counter(ItemsCount::new(URL_COUNT)).bench(|| {
            super::ABSOLUTE_URLS
                .iter()
                .filter(|url| agent.is_allowed(&super::path_params_query(black_box(url))))
                .count()
        });
    }

    #[divan::bench]
    fn crawlgate_parse_and_compile() -> usize {
        let robots = RobotsTxt::parse(black_box(SYNTHETIC.as_bytes()));
        robots.agent(&[AGENT]).rules().len()
    }

    #[divan::bench]
    fn texting_robots_parse_and_compile() -> bool {
        Robot::new(AGENT, black_box(SYNTHETIC.as_bytes()))
            .expect("texting_robots parses")
            .allowed("/")
    }
}

mod corpus {
    use super::{
        AGENT, CORPUS_FILES, CORPUS_URL_COUNT, ItemsCount, PATHS, Robot, RobotsTxt, black_box,
        corpus_file,
    };

    #[divan::bench(args = CORPUS_FILES)]
    fn crawlgate_10k(bencher: divan::Bencher, file: &str) {
        let body = corpus_file(file);
        let robots = RobotsTxt::parse(&body);
        let agent = robots.agent(&[AGENT]);
        bencher
            .counter(ItemsCount::new(CORPUS_URL_COUNT))
            .bench(|| {
                PATHS[..CORPUS_URL_COUNT]
                    .iter()
                    .filter(|path| agent.is_allowed(black_box(path)))
                    .count()
            });
    }

    #[divan::bench(args = CORPUS_FILES)]
    fn texting_robots_10k(bencher: divan::Bencher, file: &str) {
        let body = corpus_file(file);
        let robot = Robot::new(AGENT, &body).expect("texting_robots parses");
        bencher
            .counter(ItemsCount::new(CORPUS_URL_COUNT))
            .bench(|| {
                PATHS[..CORPUS_URL_COUNT]
                    .iter()
                    .filter(|path| robot.allowed(black_box(path)))
                    .count()
            });
    }
}

mod pathological {
    use super::{Robot, RobotsTxt, black_box, pathological_path, pathological_pattern};

    /// One check of the 1,001-character pattern against the 4,000-character path.
    #[divan::bench]
    fn crawlgate_one_check(bencher: divan::Bencher) {
        let body = format!("User-agent: *\nDisallow: {}\n", pathological_pattern());
        let robots = RobotsTxt::parse(body.as_bytes());
        let agent = robots.agent(&["anybot"]);
        let path = pathological_path();
        bencher.bench(|| agent.is_allowed(black_box(&path)));
    }

    #[divan::bench]
    fn texting_robots_one_check(bencher: divan::Bencher) {
        let body = format!("User-agent: *\nDisallow: {}\n", pathological_pattern());
        let robot = Robot::new("anybot", body.as_bytes()).expect("texting_robots parses");
        let path = pathological_path();
        bencher.bench(|| robot.allowed(black_box(&path)));
    }
}

/// Best of `rounds` timings of `check` over every path.
fn best_time(rounds: usize, mut check: impl FnMut(&str) -> bool) -> Duration {
    (0..rounds)
        .map(|_| {
            let start = Instant::now();
            let allowed = PATHS.iter().filter(|path| check(black_box(path))).count();
            black_box(allowed);
            start.elapsed()
        })
        .min()
        .unwrap_or_default()
}

fn as_f64(count: usize) -> f64 {
    f64::from(u32::try_from(count).unwrap_or(u32::MAX))
}

fn per_second(count: usize, time: Duration) -> f64 {
    as_f64(count) / time.as_secs_f64()
}

/// The ratio crawlgate / `texting_robots` measured in this run, and their agreement.
fn summary() {
    let robots = RobotsTxt::parse(SYNTHETIC.as_bytes());
    let agent = robots.agent(&[AGENT]);
    let robot = Robot::new(AGENT, SYNTHETIC.as_bytes()).expect("texting_robots parses");
    let disagreements = PATHS
        .iter()
        .filter(|path| agent.is_allowed(path) != robot.allowed(path))
        .count();
    let disallowed = PATHS.iter().filter(|path| !agent.is_allowed(path)).count();
    let ours = best_time(5, |path| agent.is_allowed(path));
    let theirs = best_time(5, |path| robot.allowed(path));
    let ours_rate = per_second(URL_COUNT, ours);
    let theirs_rate = per_second(URL_COUNT, theirs);

    let body = format!("User-agent: *\nDisallow: {}\n", pathological_pattern());
    let worst = RobotsTxt::parse(body.as_bytes());
    let worst_agent = worst.agent(&["anybot"]);
    let path = pathological_path();
    let rounds = 2_000u32;
    let start = Instant::now();
    for _ in 0..rounds {
        black_box(worst_agent.is_allowed(black_box(&path)));
    }
    let worst_micros = start.elapsed().as_secs_f64() * 1e6 / f64::from(rounds);

    println!();
    println!(
        "robots.txt matcher summary (synthetic file: {} bytes, 441 rules; {URL_COUNT} paths; Googlebot group of 200 rules)",
        SYNTHETIC.len()
    );
    println!(
        "  crawlgate       {ours_rate:>12.0} checks/s ({:.3} µs/check)",
        ours.as_secs_f64() * 1e6 / as_f64(URL_COUNT)
    );
    println!(
        "  texting_robots  {theirs_rate:>12.0} checks/s ({:.3} µs/check)",
        theirs.as_secs_f64() * 1e6 / as_f64(URL_COUNT)
    );
    println!(
        "  ratio crawlgate / texting_robots: {:.1}x",
        ours_rate / theirs_rate
    );
    println!(
        "  verdicts: {disallowed} of {URL_COUNT} disallowed; crawlgate and texting_robots disagree on {disagreements}"
    );
    println!(
        "  pathological 1,001-char pattern vs 4,000-char path: {worst_micros:.2} µs/check (crawlgate)"
    );
}
