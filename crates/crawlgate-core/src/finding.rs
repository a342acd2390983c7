//! Findings and their evidence: what rules produce and every report renders.
//!
//! A [`Finding`] names its rule, its severity, the URL it is about (the subject: the page that carries
//! the problem, the robots.txt URL for file rules, the sitemap URL for sitemap document rules, the
//! asset URL for blocked assets) and never comes without [`Evidence`], primary first. Evidence quotes
//! what was received, as received: the robots.txt line, the header line, the tag.

use crate::Severity;
use serde::{Deserialize, Serialize};
use std::cmp::Ordering;

/// One problem found on the audited site.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Finding {
    /// Stable rule id, `family/kebab-name`.
    pub rule: String,
    pub severity: Severity,
    /// The subject of the finding (see the module docs).
    pub url: String,
    /// The crawler profile the finding was evaluated for (`googlebot`, …); `None` when the finding
    /// does not depend on one (a robots.txt syntax problem, a sitemap document problem).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub profile: Option<String>,
    /// One or two sentences for a human, naming the specific facts.
    pub message: String,
    /// The facts behind the finding, primary first. Never empty.
    pub evidence: Vec<Evidence>,
}

impl Finding {
    /// The report order: most severe first, then rule id, URL and profile (DESIGN.md §3).
    pub fn report_order(a: &Finding, b: &Finding) -> Ordering {
        b.severity
            .cmp(&a.severity)
            .then_with(|| a.rule.cmp(&b.rule))
            .then_with(|| a.url.cmp(&b.url))
            .then_with(|| a.profile.cmp(&b.profile))
            .then_with(|| a.message.cmp(&b.message))
    }

    /// The rule family: the part of the id before `/`.
    pub fn family(&self) -> &str {
        self.rule.split('/').next().unwrap_or(&self.rule)
    }
}

/// A fact behind a finding, quoted where it was found.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Evidence {
    /// The robots.txt rule that decided a verdict.
    RobotsRule {
        robots_url: String,
        line: u32,
        /// The user-agent values of the group that applied (`*` for the global group).
        group: Vec<String>,
        /// `Allow` or `Disallow`.
        directive: String,
        pattern: String,
    },
    /// A robots.txt verdict with no deciding rule (nothing matched, or the fetch outcome decided).
    RobotsVerdict {
        robots_url: String,
        profile: String,
        allowed: bool,
        /// Why, in words: "no rule matches", "robots.txt answered 503: Google stops crawling".
        reason: String,
    },
    /// A line of a robots.txt file, as written.
    RobotsLine {
        robots_url: String,
        line: u32,
        text: String,
    },
    /// How robots.txt was fetched, and what Google does with that outcome.
    RobotsFetch {
        robots_url: String,
        /// Final HTTP status, if a response came.
        status: Option<u16>,
        /// `rules`, `allow-all` or `disallow-all`.
        effect: String,
        detail: String,
    },
    /// A response header line, as received.
    HttpHeader {
        url: String,
        name: String,
        value: String,
    },
    /// A `<meta>` tag, quoted.
    MetaTag {
        url: String,
        name: String,
        content: String,
        line: Option<u32>,
        in_head: bool,
        raw: String,
    },
    /// A canonical declaration (HTML `<link>` or HTTP `Link` header).
    Canonical {
        url: String,
        href: String,
        /// `html` or `header`.
        via: String,
        line: Option<u32>,
        raw: String,
    },
    /// An hreflang alternate declaration.
    Hreflang {
        url: String,
        hreflang: String,
        href: String,
        via: String,
        line: Option<u32>,
    },
    /// An entry of a sitemap.
    SitemapEntry {
        sitemap_url: String,
        line: u32,
        loc: String,
    },
    /// A position in a sitemap document (parse or validation problem).
    SitemapPosition {
        sitemap_url: String,
        line: Option<u32>,
        column: Option<u32>,
    },
    /// An `<a href>` link from one page to another.
    Link {
        from: String,
        to: String,
        line: Option<u32>,
        /// The link's rel tokens, when any (`nofollow`, `ugc`, `sponsored`).
        rel: Vec<String>,
    },
    /// A page's reference to an asset (stylesheet, script, image).
    AssetRef {
        page: String,
        asset: String,
        /// `stylesheet`, `script`, `image`, `icon`.
        asset_kind: String,
        line: Option<u32>,
    },
    /// The outcome of fetching a URL: a status, or a failure in words.
    Response {
        url: String,
        status: Option<u16>,
        detail: String,
    },
    /// A redirect chain, hop by hop.
    Redirect {
        url: String,
        hops: Vec<RedirectHop>,
        final_url: String,
    },
    /// One side of a change between two audits (`crawlgate diff`): what the earlier audit
    /// (`before`) or the later one (`after`) saw, quoted. Diff findings carry one of each.
    Change {
        /// `before` or `after`.
        side: String,
        /// The document the fact was read from: a robots.txt, a page, a sitemap.
        url: String,
        /// Its line, when the fact sits on one.
        line: Option<u32>,
        /// The fact in a few words: `allowed (no rule)`, `noindex`, `answered 404`.
        state: String,
        /// The text quoted as received (`Disallow: /shop`, a meta tag, a header line), when
        /// there is one.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        quote: Option<String>,
    },
    /// Anything else worth quoting, in words.
    Note { text: String },
}

/// One hop of a redirect chain.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RedirectHop {
    pub url: String,
    pub status: u16,
    /// The `Location` header as received.
    pub location: Option<String>,
}
