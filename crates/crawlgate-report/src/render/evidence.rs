//! Evidence in one line of plain text, and where it sits, for the formats written in code (SARIF
//! locations, JUnit failure bodies). The templates have one partial per evidence kind instead.

use crawlgate_core::Evidence;
use std::fmt::Write as _;

/// Where a piece of evidence was found: a document (robots.txt, sitemap, page) and a line in it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Position<'a> {
    pub(crate) uri: &'a str,
    pub(crate) line: Option<u32>,
}

/// The document and line a piece of evidence points at; `None` for notes.
pub(crate) fn position(evidence: &Evidence) -> Option<Position<'_>> {
    let (uri, line) = match evidence {
        Evidence::RobotsRule {
            robots_url, line, ..
        }
        | Evidence::RobotsLine {
            robots_url, line, ..
        } => (robots_url, Some(*line)),
        Evidence::RobotsVerdict { robots_url, .. } | Evidence::RobotsFetch { robots_url, .. } => {
            (robots_url, None)
        }
        Evidence::HttpHeader { url, .. }
        | Evidence::Response { url, .. }
        | Evidence::Redirect { url, .. } => (url, None),
        Evidence::MetaTag { url, line, .. }
        | Evidence::Canonical { url, line, .. }
        | Evidence::Hreflang { url, line, .. }
        | Evidence::Change { url, line, .. } => (url, *line),
        Evidence::SitemapEntry {
            sitemap_url, line, ..
        } => (sitemap_url, Some(*line)),
        Evidence::SitemapPosition {
            sitemap_url, line, ..
        } => (sitemap_url, *line),
        Evidence::Link { from, line, .. } => (from, *line),
        Evidence::AssetRef { page, line, .. } => (page, *line),
        Evidence::Note { .. } => return None,
    };
    Some(Position { uri, line })
}

/// The evidence as one line for a human, quoting what was received.
pub(crate) fn describe(evidence: &Evidence) -> String {
    match evidence {
        Evidence::RobotsRule {
            line,
            group,
            directive,
            pattern,
            ..
        } => format!(
            "robots.txt line {line}: {directive}: {pattern} (group: {})",
            group.join(", ")
        ),
        Evidence::RobotsVerdict {
            profile,
            allowed,
            reason,
            ..
        } => format!(
            "robots.txt {} {profile}: {reason}",
            if *allowed { "allows" } else { "disallows" }
        ),
        Evidence::RobotsLine { line, text, .. } => format!("robots.txt line {line}: {text}"),
        // The detail says what came back (`answered 503: …`, `no usable response (…)`).
        Evidence::RobotsFetch {
            robots_url,
            effect,
            detail,
            ..
        } => format!("{robots_url} ({effect}): {detail}"),
        Evidence::HttpHeader { name, value, .. } => format!("{name}: {value}"),
        Evidence::MetaTag { raw, line, .. } | Evidence::Canonical { raw, line, .. } => {
            with_line(raw, *line)
        }
        Evidence::Hreflang {
            hreflang,
            href,
            via,
            line,
            ..
        } => with_line(&format!("hreflang {hreflang} → {href} (via {via})"), *line),
        Evidence::SitemapEntry {
            sitemap_url,
            line,
            loc,
        } => format!("{sitemap_url} line {line}: <loc>{loc}</loc>"),
        Evidence::SitemapPosition {
            sitemap_url,
            line,
            column,
        } => match (line, column) {
            (Some(line), Some(column)) => format!("{sitemap_url} line {line}, column {column}"),
            (Some(line), None) => format!("{sitemap_url} line {line}"),
            _ => sitemap_url.clone(),
        },
        Evidence::Link {
            from,
            to,
            line,
            rel,
        } => describe_link(from, to, *line, rel),
        Evidence::AssetRef {
            page,
            asset,
            asset_kind,
            line,
        } => with_line(&format!("{asset_kind} {asset} used by {page}"), *line),
        Evidence::Response {
            url,
            status,
            detail,
        } => match status {
            Some(status) => format!("{url} answered {status}: {detail}"),
            None => format!("{url}: {detail}"),
        },
        Evidence::Redirect {
            url,
            hops,
            final_url,
        } => {
            let mut text = url.clone();
            for hop in hops {
                let _ = write!(text, " →{} ", hop.status);
                text.push_str(hop.location.as_deref().unwrap_or("?"));
            }
            let _ = write!(text, " (final: {final_url})");
            text
        }
        Evidence::Change {
            side,
            url,
            line,
            state,
            quote,
        } => describe_change(side, url, *line, state, quote.as_deref()),
        Evidence::Note { text } => text.clone(),
    }
}

/// `linked from https://e.com/ line 4 to https://e.com/a (rel=nofollow)`
fn describe_link(from: &str, to: &str, line: Option<u32>, rel: &[String]) -> String {
    let mut text = format!("linked from {from}");
    if let Some(line) = line {
        let _ = write!(text, " line {line}");
    }
    let _ = write!(text, " to {to}");
    if !rel.is_empty() {
        let _ = write!(text, " (rel={})", rel.join(" "));
    }
    text
}

/// `after: disallowed (https://e.com/robots.txt line 7: Disallow: /shop)`
fn describe_change(
    side: &str,
    url: &str,
    line: Option<u32>,
    state: &str,
    quote: Option<&str>,
) -> String {
    let mut text = format!("{side}: {state} ({url}");
    if let Some(line) = line {
        let _ = write!(text, " line {line}");
    }
    if let Some(quote) = quote {
        let _ = write!(text, ": {quote}");
    }
    text.push(')');
    text
}

fn with_line(text: &str, line: Option<u32>) -> String {
    match line {
        Some(line) => format!("line {line}: {text}"),
        None => text.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn robots_rule_is_quoted_with_its_line_and_located_in_robots_txt() {
        let evidence = Evidence::RobotsRule {
            robots_url: "https://e.com/robots.txt".into(),
            line: 7,
            group: vec!["*".into()],
            directive: "Disallow".into(),
            pattern: "/shop".into(),
        };
        assert_eq!(
            describe(&evidence),
            "robots.txt line 7: Disallow: /shop (group: *)"
        );
        assert_eq!(
            position(&evidence),
            Some(Position {
                uri: "https://e.com/robots.txt",
                line: Some(7)
            })
        );
    }

    #[test]
    fn a_change_names_its_side_and_quotes_its_source() {
        let evidence = Evidence::Change {
            side: "after".into(),
            url: "https://e.com/robots.txt".into(),
            line: Some(7),
            state: "disallowed".into(),
            quote: Some("Disallow: /shop".into()),
        };
        assert_eq!(
            describe(&evidence),
            "after: disallowed (https://e.com/robots.txt line 7: Disallow: /shop)"
        );
        assert_eq!(
            position(&evidence),
            Some(Position {
                uri: "https://e.com/robots.txt",
                line: Some(7)
            })
        );
    }

    #[test]
    fn notes_have_no_position() {
        assert_eq!(position(&Evidence::Note { text: "x".into() }), None);
    }
}
