use crate::robots::files::{audited_files, line_evidence, lint_issues, lint_report};
use crawlgate_core::declare_rule;
use crawlgate_core::robots::LineKind;
use crawlgate_core::rule::{Findings, Occurrence, Rule};
use crawlgate_core::site::{RobotsEffect, RobotsFile};
use crawlgate_core::{Evidence, Site};

declare_rule! {
    /// ## What it does
    /// Finds a robots.txt URL that answers `200` with an HTML page instead of a robots.txt: the
    /// body is markup (`<!doctype html>`, `<html>`, …), or it is served as `text/html` and holds no
    /// line a crawler reads as a robots.txt field. Typical causes are a single-page app or CMS
    /// route that answers every URL with the same page, and a "not found" page sent with status
    /// 200.
    ///
    /// ## Why is this bad?
    /// Google parses whatever it gets and keeps only the lines that look like rules; an HTML page
    /// has none, so in effect the site has no robots.txt: everything may be crawled, and crawlers
    /// learn of no sitemap from it. If you meant to publish rules, they are not there.
    ///
    /// ## Example
    /// ```text
    /// GET https://example.com/robots.txt   →   200, Content-Type: text/html
    /// <!doctype html><html><head><title>My shop</title>…
    /// ```
    ///
    /// ## How to fix
    /// Serve a real robots.txt file at `/robots.txt` (`Content-Type: text/plain`), ahead of the
    /// application's catch-all route. If you want no rules, make the URL answer `404`.
    pub struct ServedAsHtml {
        code: crawlgate_core::robots::lint::Code::ServedAsHtml,
        summary: "robots.txt answers with an HTML page, so in effect the site has no rules",
    }
}

impl Rule for ServedAsHtml {
    fn check(&self, site: &Site, out: &mut Findings<'_>) {
        for file in audited_files(site) {
            if file.effect != RobotsEffect::Rules {
                continue;
            }
            let header = content_type_evidence(file);
            // The body decides (robots lint sniffs it); the declared type backs it up.
            if let Some(issue) = lint_issues(site, file, Self::META.id).next() {
                out.report(lint_report(file, issue).evidence_all(header));
                continue;
            }
            if !declared_html(file) || reads_any_field(file) || blank(file) {
                continue;
            }
            let Some(header) = header else { continue };
            out.report(
                Occurrence::new(
                    file.url.as_str(),
                    format!(
                        "{} is served as HTML and holds no line Google reads as a robots.txt \
                         field; in effect the site has no robots.txt rules",
                        file.url
                    ),
                )
                .evidence(header)
                .evidence(line_evidence(file, 1)),
            );
        }
    }
}

/// The `Content-Type` header of the response, as evidence.
fn content_type_evidence(file: &RobotsFile) -> Option<Evidence> {
    let received = file.outcome.as_ref().ok()?;
    let header = received.headers.iter().find(|h| h.is("content-type"))?;
    Some(Evidence::HttpHeader {
        url: received.final_url.to_string(),
        name: header.name.clone(),
        value: header.value.clone(),
    })
}

fn declared_html(file: &RobotsFile) -> bool {
    let Ok(received) = &file.outcome else {
        return false;
    };
    received.content_type().is_some_and(|value| {
        let media_type = value.split(';').next().unwrap_or_default().trim();
        media_type.eq_ignore_ascii_case("text/html")
            || media_type.eq_ignore_ascii_case("application/xhtml+xml")
    })
}

fn reads_any_field(file: &RobotsFile) -> bool {
    file.parsed.lines().iter().any(|line| {
        matches!(
            line.kind,
            LineKind::UserAgent | LineKind::Allow | LineKind::Disallow | LineKind::Sitemap
        )
    })
}

fn blank(file: &RobotsFile) -> bool {
    file.body().is_none_or(|body| body.trim_ascii().is_empty())
}
