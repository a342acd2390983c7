//! Small hand-built reports for unit tests (the integration tests crawl real fixture sites).

use crate::model::Report;

/// A report of an audit that found nothing. Read from JSON, as a plugin author's tool would, so
/// it needs no change when the model gains a defaulted field.
pub(crate) fn minimal() -> Report {
    let json = serde_json::json!({
        "schema_version": 1,
        "tool": { "name": "crawlgate", "version": "0.0.0-test" },
        "target": { "start_url": "https://example.test/", "profiles": ["googlebot"], "obey_robots": false },
        "summary": {
            "pages_crawled": 1, "urls_known": 1, "findings": 0,
            "by_severity": { "critical": 0, "error": 0, "warning": 0, "notice": 0 },
            "by_rule": {}, "by_family": {},
            "partial": false, "interrupted": false, "bounds_hit": []
        },
        "rules": [], "findings": [],
        "crawl": {
            "pages_fetched": 1, "assets_fetched": 0, "sitemaps_fetched": 0, "robots_fetched": 1,
            "bounds_hit": [], "interrupted": false, "urls_not_recorded": 0
        },
        "robots": [], "sitemaps": [], "pages": []
    });
    serde_json::from_value(json).expect("the minimal report matches the model")
}
