//! The robots family beyond `fires.toml` / `clean.toml`: the further cases kept beside them in
//! `fixtures/rules/robots/<name>/` (each snapshot-tested and checked for its point), every robots
//! rule over every robots fixture, and the real robots.txt files of `fixtures/corpus/robots/`.

use crawlgate_core::crawl::{
    BodyPart, CannedResponse, CrawlConfig, OfflineSite, Request, Response, run_offline,
};
use crawlgate_core::finding::RedirectHop;
use crawlgate_core::site::{FailureKind, Received};
use crawlgate_core::{Evidence, Finding, Rule, Severity, Site};
use crawlgate_rules::RULES;
use crawlgate_test_support::fixture;
use std::collections::BTreeSet;
use std::path::PathBuf;

/// A further fixture: the rule, the file's name, and what must hold of the findings.
struct Case {
    rule: &'static str,
    file: &'static str,
    check: fn(&[Finding]),
}

const CASES: &[Case] = &[
    Case {
        rule: "robots/unreachable",
        file: "timeout",
        check: |findings| {
            assert_eq!(findings.len(), 1);
            assert!(findings[0].message.contains("timeout"), "{findings:#?}");
        },
    },
    Case {
        rule: "robots/redirect-too-long",
        file: "loop",
        check: |findings| {
            assert_eq!(findings.len(), 1);
            assert!(findings[0].message.contains("loop"), "{findings:#?}");
            assert!(matches!(findings[0].evidence[0], Evidence::Redirect { .. }));
        },
    },
    Case {
        rule: "robots/served-as-html",
        file: "declared-html",
        check: |findings| {
            assert_eq!(findings.len(), 1);
            assert!(
                matches!(&findings[0].evidence[0], Evidence::HttpHeader { value, .. } if value == "text/html")
            );
        },
    },
    Case {
        rule: "robots/oversize",
        file: "comments-past-cut",
        check: |findings| {
            assert_eq!(findings.len(), 1);
            assert_eq!(findings[0].severity, Severity::Warning);
        },
    },
    Case {
        rule: "robots/not-utf8",
        file: "utf16",
        check: |findings| {
            assert_eq!(findings.len(), 1);
            assert!(findings[0].message.contains("UTF-16LE"), "{findings:#?}");
        },
    },
    Case {
        rule: "robots/disallow-all",
        file: "start-url",
        check: |findings| {
            assert_eq!(findings.len(), 1);
            assert_eq!(findings[0].severity, Severity::Critical);
            assert!(findings[0].message.contains("http://site.test/en/"));
        },
    },
    Case {
        rule: "robots/disallow-all",
        file: "shared-group",
        check: |findings| {
            let profiles: Vec<_> = findings.iter().map(|f| f.profile.as_deref()).collect();
            assert_eq!(profiles, [Some("*"), Some("googlebot")]);
            // Each crawler gets the wording about itself.
            assert!(
                findings[1].message.contains("for googlebot by"),
                "{findings:#?}"
            );
            assert!(findings[0].message.contains("(`*`)"), "{findings:#?}");
        },
    },
    Case {
        rule: "robots/disallow-all",
        file: "expected-blocked",
        check: |findings| {
            assert_eq!(findings.len(), 1, "{findings:#?}");
            assert_eq!(findings[0].profile.as_deref(), Some("gptbot"));
            assert_eq!(findings[0].severity, Severity::Notice);
            assert!(
                findings[0]
                    .message
                    .contains("disallowed for GPTBot by `Disallow: /`, as declared"),
                "{findings:#?}"
            );
        },
    },
    Case {
        rule: "robots/ua-divergence",
        file: "expected-blocked",
        check: |findings| assert!(findings.is_empty(), "{findings:#?}"),
    },
    Case {
        rule: "robots/expected-blocked-allowed",
        file: "missing-robots",
        check: |findings| {
            assert_eq!(findings.len(), 1, "{findings:#?}");
            assert_eq!(findings[0].url, "http://site.test/robots.txt");
            assert!(
                findings[0].message.starts_with(
                    "GPTBot is declared expected-blocked, but robots.txt answered 404, which \
                     leaves no rule to keep it from 2 crawled indexable pages: "
                ),
                "{findings:#?}"
            );
            assert!(matches!(
                findings[0].evidence[0],
                Evidence::RobotsFetch { .. }
            ));
        },
    },
    Case {
        rule: "robots/expected-blocked-allowed",
        file: "on-purpose",
        check: |findings| assert!(findings.is_empty(), "{findings:#?}"),
    },
    Case {
        rule: "robots/ua-divergence",
        file: "one-profile",
        check: |findings| assert!(findings.is_empty(), "{findings:#?}"),
    },
    Case {
        rule: "robots/rule-matches-nothing",
        file: "partial-crawl",
        check: |findings| assert!(findings.is_empty(), "{findings:#?}"),
    },
    Case {
        rule: "robots/blocked-image",
        file: "bingbot-only",
        check: |findings| assert!(findings.is_empty(), "{findings:#?}"),
    },
    Case {
        rule: "robots/blocked-image",
        file: "both-google-profiles",
        check: |findings| {
            assert_eq!(findings.len(), 1);
            assert_eq!(findings[0].profile.as_deref(), Some("googlebot-image"));
        },
    },
    Case {
        rule: "robots/redirect-to-blocked",
        file: "through-a-hop",
        check: |findings| {
            assert_eq!(findings.len(), 1);
            assert!(
                findings[0]
                    .message
                    .contains("redirects through http://site.test/go/promo"),
                "{findings:#?}"
            );
        },
    },
];

fn rule(id: &str) -> &'static dyn Rule {
    crawlgate_rules::find(id).unwrap_or_else(|| panic!("no rule {id}"))
}

fn robots_rules() -> impl Iterator<Item = &'static dyn Rule> {
    RULES
        .iter()
        .copied()
        .filter(|rule| rule.meta().family() == "robots")
}

#[test]
fn further_cases_hold_and_are_snapshot_tested() {
    for case in CASES {
        let path = fixture::rule_dir(case.rule).join(format!("{}.toml", case.file));
        let site = fixture::load_site(&path).unwrap_or_else(|e| panic!("{e}"));
        let findings = fixture::run(rule(case.rule), &site);
        (case.check)(&findings);
        let name = format!("{}__{}", case.rule.replace('/', "__"), case.file);
        insta::assert_json_snapshot!(name, findings);
    }
}

/// Every fixture of the family: `fires`, `clean` and the further cases.
fn family_fixtures() -> Vec<PathBuf> {
    let root = crawlgate_test_support::fixtures_dir().join("rules/robots");
    let mut files = Vec::new();
    for dir in std::fs::read_dir(&root).expect("fixtures/rules/robots") {
        let dir = dir.expect("entry").path();
        for file in std::fs::read_dir(&dir).expect("rule folder") {
            files.push(file.expect("entry").path());
        }
    }
    files.sort();
    files
}

#[test]
fn every_further_fixture_is_a_listed_case() {
    let listed: BTreeSet<PathBuf> = CASES
        .iter()
        .map(|case| fixture::rule_dir(case.rule).join(format!("{}.toml", case.file)))
        .collect();
    for path in family_fixtures() {
        let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or("");
        if stem == "fires" || stem == "clean" {
            continue;
        }
        assert!(listed.contains(&path), "{} is not in CASES", path.display());
    }
}

/// What every finding of every robots rule must be, on any site.
fn assert_well_formed(findings: &[Finding], context: &str) {
    for finding in findings {
        assert!(
            !finding.evidence.is_empty(),
            "{context}: no evidence: {finding:#?}"
        );
        assert!(
            url::Url::parse(&finding.url).is_ok(),
            "{context}: subject is not a URL: {finding:#?}"
        );
        assert!(!finding.message.is_empty(), "{context}: no message");
    }
}

#[test]
fn every_robots_rule_on_every_robots_fixture_gives_well_formed_findings() {
    for path in family_fixtures() {
        let site = fixture::load_site(&path).unwrap_or_else(|e| panic!("{e}"));
        for rule in robots_rules() {
            let findings = fixture::run(rule, &site);
            assert_well_formed(
                &findings,
                &format!("{} on {}", rule.meta().id, path.display()),
            );
        }
    }
}

/// A site whose robots.txt is `body`, served as plain text.
fn site_with_robots(body: &[u8]) -> Site {
    let robots = CannedResponse {
        status: 200,
        headers: vec!["Content-Type: text/plain".to_owned()],
        parts: vec![BodyPart {
            bytes: body.to_vec(),
            repeat: 1,
            ..BodyPart::default()
        }],
        ..CannedResponse::default()
    };
    OfflineSite::default()
        .with("http://site.test/robots.txt", robots)
        .with(
            "http://site.test/",
            CannedResponse::ok("text/html", "<!doctype html><title>Home</title>"),
        )
        .crawl(config())
        .expect("crawl")
}

fn config() -> CrawlConfig {
    CrawlConfig::new(
        url::Url::parse("http://site.test/").expect("URL"),
        "2026-06-01T12:00:00Z".parse().expect("time"),
    )
}

/// The rules that read both the lint and the fetch facts of a file, reported once per file.
const ONCE_PER_FILE: [&str; 4] = [
    "robots/served-as-html",
    "robots/oversize",
    "robots/bom",
    "robots/not-utf8",
];

fn findings_of(site: &Site, id: &str) -> Vec<Finding> {
    fixture::run(rule(id), site)
}

#[test]
fn body_facts_are_reported_once_each_when_they_all_hold() {
    // An HTML page, with a BOM, a Latin-1 byte, and past 500 KiB with a rule beyond the cut.
    let mut body = b"\xEF\xBB\xBF<!doctype html><html><title>Caf\xE9</title>\n".to_vec();
    body.resize(600_000, b'\n');
    body.extend_from_slice(b"Disallow: /late/\n");
    let site = site_with_robots(&body);
    for id in ONCE_PER_FILE {
        let findings = findings_of(&site, id);
        assert_eq!(findings.len(), 1, "{id}: {findings:#?}");
    }
    assert_eq!(
        findings_of(&site, "robots/oversize")[0].severity,
        Severity::Error
    );
}

struct CorpusFile {
    file: String,
    features: Vec<String>,
    body: Vec<u8>,
}

fn corpus() -> Vec<CorpusFile> {
    let dir = crawlgate_test_support::fixtures_dir().join("corpus/robots");
    let manifest = std::fs::read_to_string(dir.join("MANIFEST.tsv")).expect("MANIFEST.tsv");
    manifest
        .lines()
        .skip(1)
        .map(|line| {
            let fields: Vec<&str> = line.split('\t').collect();
            let file = fields[0].to_owned();
            CorpusFile {
                body: std::fs::read(dir.join(&file)).expect("corpus file"),
                features: fields
                    .get(8)
                    .unwrap_or(&"")
                    .split(',')
                    .filter(|f| !f.is_empty())
                    .map(str::to_owned)
                    .collect(),
                file,
            }
        })
        .collect()
}

#[test]
fn real_robots_files_give_well_formed_findings_and_the_body_facts_the_manifest_lists() {
    let corpus = corpus();
    assert!(corpus.len() > 300);
    let mut checked = 0;
    for entry in &corpus {
        let site = site_with_robots(&entry.body);
        let mut fired = BTreeSet::new();
        for rule in robots_rules() {
            let findings = fixture::run(rule, &site);
            assert_well_formed(&findings, &format!("{} on {}", rule.meta().id, entry.file));
            if ONCE_PER_FILE.contains(&rule.meta().id) {
                assert!(findings.len() <= 1, "{}: {findings:#?}", entry.file);
            }
            if !findings.is_empty() {
                fired.insert(rule.meta().id);
            }
        }
        let has = |feature: &str| entry.features.iter().any(|f| f == feature);
        let expected = [
            (
                has("bom") && entry.body.starts_with(b"\xEF\xBB\xBF"),
                "robots/bom",
            ),
            (has("html_not_robots"), "robots/served-as-html"),
            (has("non_utf8"), "robots/not-utf8"),
            (has("gt500KiB"), "robots/oversize"),
        ];
        for (listed, id) in expected {
            if listed {
                assert!(fired.contains(id), "{}: {id} expected", entry.file);
                checked += 1;
            }
        }
    }
    assert!(checked >= 40, "only {checked} feature checks ran");
}

/// The rules about how robots.txt was fetched.
const FETCH_RULES: [&str; 5] = [
    "robots/unreachable",
    "robots/auth-or-forbidden",
    "robots/missing",
    "robots/redirect-too-long",
    "robots/redirect-cross-origin",
];

/// What a robots.txt request ends in: a status at a final URL, or no response.
type Outcome = Result<(u16, &'static str), FailureKind>;

/// A site whose robots.txt request gets `hops` redirects, then `outcome`.
fn site_with_robots_outcome(hops: usize, outcome: Outcome) -> Site {
    let home = OfflineSite::default().with(
        "http://site.test/",
        CannedResponse::ok("text/html", "<!doctype html><title>Home</title>"),
    );
    let fetch = |request: &Request| -> Response {
        if request.url.path() != "/robots.txt" {
            return home.respond(request);
        }
        let hops: Vec<RedirectHop> = (0..hops)
            .map(|i| RedirectHop {
                url: format!("http://site.test/r{i}/robots.txt"),
                status: 301,
                location: Some(format!("/r{}/robots.txt", i + 1)),
            })
            .collect();
        let outcome = match outcome {
            Ok((status, final_url)) => Ok(Received {
                final_url: url::Url::parse(final_url).expect("URL"),
                status,
                headers: Vec::new(),
                body: b"User-agent: *\nDisallow: /private/\n".to_vec(),
                body_truncated: false,
            }),
            Err(kind) => Err((kind, format!("{} (test)", kind.as_str()))),
        };
        Response { hops, outcome }
    };
    run_offline(config(), fetch).expect("crawl")
}

#[test]
fn each_robots_fetch_outcome_gives_the_fetch_finding_google_s_status_table_implies() {
    const ROBOTS: &str = "http://site.test/robots.txt";
    const ELSEWHERE: &str = "https://www.site.test/robots.txt";
    let cases: [(&str, usize, Outcome, &[&str]); 15] = [
        ("200", 0, Ok((200, ROBOTS)), &[]),
        ("204", 0, Ok((204, ROBOTS)), &[]),
        ("401", 0, Ok((401, ROBOTS)), &["robots/auth-or-forbidden"]),
        ("403", 0, Ok((403, ROBOTS)), &["robots/auth-or-forbidden"]),
        ("404", 0, Ok((404, ROBOTS)), &["robots/missing"]),
        ("410", 0, Ok((410, ROBOTS)), &["robots/missing"]),
        ("429", 0, Ok((429, ROBOTS)), &["robots/unreachable"]),
        ("500", 0, Ok((500, ROBOTS)), &["robots/unreachable"]),
        ("dns", 0, Err(FailureKind::Dns), &["robots/unreachable"]),
        ("reset", 0, Err(FailureKind::Reset), &["robots/unreachable"]),
        // The audit was stopped while robots.txt was in flight: nothing to say about the site.
        ("interrupted", 0, Err(FailureKind::Interrupted), &[]),
        ("5 hops to 200", 5, Ok((200, ROBOTS)), &[]),
        // Past Google's five hops the final status is never seen: only the chain is reported.
        (
            "6 hops to 404",
            6,
            Ok((404, ROBOTS)),
            &["robots/redirect-too-long"],
        ),
        (
            "6 hops to 403",
            6,
            Ok((403, ROBOTS)),
            &["robots/redirect-too-long"],
        ),
        (
            "1 hop to another origin",
            1,
            Ok((200, ELSEWHERE)),
            &["robots/redirect-cross-origin"],
        ),
    ];
    for (name, hops, outcome, expected) in cases {
        let site = site_with_robots_outcome(hops, outcome);
        let fired: Vec<&str> = FETCH_RULES
            .into_iter()
            .filter(|id| !findings_of(&site, id).is_empty())
            .collect();
        assert_eq!(fired, expected, "{name}");
    }
}

#[test]
fn file_rules_look_only_at_the_audited_site_s_robots_txt() {
    // The stylesheet lives on a CDN whose robots.txt shuts everyone out and names no sitemap.
    let site = OfflineSite::default()
        .with(
            "http://site.test/robots.txt",
            CannedResponse::ok(
                "text/plain",
                "User-agent: *\nDisallow: /cart/\nSitemap: http://site.test/sitemap.xml\n",
            ),
        )
        .with(
            "http://site.test/",
            CannedResponse::ok(
                "text/html",
                r#"<!doctype html><link rel="stylesheet" href="http://cdn.test/site.css">"#,
            ),
        )
        .with(
            "http://cdn.test/robots.txt",
            CannedResponse::ok("text/plain", "User-agent: *\nDisallow: /\n"),
        )
        .with(
            "http://cdn.test/site.css",
            CannedResponse::ok("text/css", "a{}"),
        )
        .crawl(config())
        .expect("crawl");
    assert!(site.robots.contains_key("http://cdn.test"));
    for id in ["robots/disallow-all", "robots/no-sitemap-field"] {
        assert!(
            findings_of(&site, id).is_empty(),
            "{id} on the CDN's robots.txt"
        );
    }
    // Its verdicts still count where the audited site depends on them.
    let blocked = findings_of(&site, "robots/blocked-css");
    assert_eq!(blocked.len(), 1);
    assert_eq!(blocked[0].url, "http://cdn.test/site.css");
}
