//! Add a rule of your own to an audit: flag pages whose URL path has uppercase letters, with the
//! response as evidence. Run with `cargo run -p crawlgate --example custom_rule`.

// An example program reports on standard output.
#![allow(clippy::print_stdout)]

use crawlgate::crawl::{CannedResponse, CrawlConfig, OfflineSite};
use crawlgate::rule::{Findings, Occurrence};
use crawlgate::{Evidence, Rule, Site, declare_rule};

declare_rule! {
    /// ## What it does
    /// Finds crawled pages whose path has uppercase letters.
    ///
    /// ## Why is this bad?
    /// URL paths are case-sensitive; mixed case invites duplicates (`/Shoes` and `/shoes`).
    ///
    /// ## Example
    /// `https://example.com/Shoes/Red`
    ///
    /// ## How to fix
    /// Use lowercase paths and redirect the mixed-case ones.
    pub(crate) struct UppercasePath {
        id: "custom/uppercase-path",
        severity: Notice,
        summary: "The URL path has uppercase letters",
    }
}

impl Rule for UppercasePath {
    // Each finding comes from one page alone: on a large audit whose pages are in the page
    // store, the rule then runs a window of pages at a time with the built-in ones.
    fn page_local(&self) -> bool {
        true
    }

    fn check(&self, site: &Site, out: &mut Findings<'_>) {
        for (resource, page) in site.fetched() {
            if resource.url.path().chars().any(|c| c.is_ascii_uppercase()) {
                out.report(
                    Occurrence::new(resource.url.as_str(), "the path has uppercase letters")
                        .evidence(Evidence::Response {
                            url: resource.url.to_string(),
                            status: Some(page.status),
                            detail: format!("answered {}", page.status),
                        }),
                );
            }
        }
    }
}

/// Audit a small in-memory shop with the built-in rules plus `UppercasePath`; the custom
/// findings as `rule url message` lines.
pub(crate) fn custom_findings() -> Result<Vec<String>, Box<dyn std::error::Error>> {
    let site = OfflineSite::default()
        .with(
            "http://shop.test/",
            CannedResponse::ok("text/html", r#"<a href="/Shoes">Shoes</a>"#),
        )
        .with(
            "http://shop.test/Shoes",
            CannedResponse::ok("text/html", "<title>Shoes</title>"),
        );
    let config = CrawlConfig::new(
        "http://shop.test/".parse()?,
        "2026-06-01T00:00:00Z".parse()?,
    );
    let crawled = site.crawl(config)?;

    let auditor = crawlgate::Auditor::builder().rule(UppercasePath).build()?;
    let report = auditor.check(&crawled);
    Ok(report
        .findings
        .iter()
        .filter(|f| f.finding.rule.starts_with("custom/"))
        .map(|f| format!("{} {} {}", f.finding.rule, f.finding.url, f.finding.message))
        .collect())
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    for line in custom_findings()? {
        println!("{line}");
    }
    Ok(())
}
