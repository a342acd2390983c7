//! Small hand-built reports for unit tests (the integration tests crawl real fixture sites).

use crate::model::{Report, SCHEMA_VERSION, Summary, Target, Tool};
use crawlgate_core::Severity;
use crawlgate_core::site::CrawlStats;

/// A report of an audit that found nothing.
pub(crate) fn minimal() -> Report {
    Report {
        schema_version: SCHEMA_VERSION,
        tool: Tool {
            name: "crawlgate".into(),
            version: "0.0.0-test".into(),
        },
        generated_at: None,
        target: Target {
            start_url: "https://example.test/".into(),
            profiles: vec!["googlebot".into()],
            obey_robots: false,
        },
        summary: Summary {
            pages_crawled: 1,
            urls_known: 1,
            findings: 0,
            by_severity: Severity::ALL.iter().map(|s| (*s, 0)).collect(),
            by_rule: Default::default(),
            by_family: Default::default(),
            partial: false,
            interrupted: false,
            bounds_hit: Vec::new(),
        },
        rules: Vec::new(),
        findings: Vec::new(),
        crawl: CrawlStats::default(),
        robots: Vec::new(),
        sitemaps: Vec::new(),
        pages: Vec::new(),
    }
}
