//! Rules about single lines, from the facts the parser recorded.

use super::{Code, issue, quote};
use crate::{GOOGLE_MAX_LINE_BYTES, KeyMatch, LineFacts, LineKind, RobotsTxt};
use crate::{Issue, Severity};

pub(super) fn check(robots: &RobotsTxt, body: &[u8], html: bool, issues: &mut Vec<Issue>) {
    for facts in robots.lines() {
        let mut push =
            |rule, severity, message| issues.push(issue(rule, severity, Some(facts.line), message));
        let key = facts.key.as_deref().unwrap_or_default();
        let value = facts.value.as_deref().unwrap_or_default();
        if facts.too_long {
            let length = raw_line(body, facts.offset).len();
            push(
                Code::LineTooLong,
                Severity::Notice,
                format!(
                    "the line is {length} bytes; Google reads only its first \
                     {GOOGLE_MAX_LINE_BYTES} and ignores the rest"
                ),
            );
        }
        match facts.kind {
            // An HTML page would flood the report; `served-as-html` says it once.
            LineKind::Unparseable if !html => push(
                Code::LineUnparseable,
                Severity::Warning,
                format!(
                    "`{}` is neither `field: value` nor a two-word line; Google ignores it",
                    quote(&String::from_utf8_lossy(trimmed(raw_line(
                        body,
                        facts.offset
                    ))))
                ),
            ),
            LineKind::Unknown if !html => push(
                Code::UnsupportedField,
                Severity::Notice,
                format!(
                    "`{}` is not a field Google reads (only user-agent, allow, disallow and \
                     sitemap are); the line is ignored",
                    quote(key)
                ),
            ),
            LineKind::Unsupported => {
                let (rule, severity, message) = unsupported(key, value);
                push(rule, severity, message);
            }
            LineKind::UserAgent if value.is_empty() => push(
                Code::EmptyUserAgent,
                Severity::Warning,
                "`User-agent:` has no value; the group it opens names no crawler".to_owned(),
            ),
            LineKind::Allow | LineKind::Disallow => rule_line(facts, value, &mut push),
            LineKind::Sitemap if !is_sitemap_url(value) => push(
                Code::SitemapUrlInvalid,
                Severity::Error,
                format!(
                    "`{}` is not an absolute http(s) or ftp URL; a sitemap must be given by its \
                     full URL",
                    quote(value)
                ),
            ),
            _ => {}
        }
        if let Some(message) = tolerated_key(facts, key) {
            push(Code::TypoField, Severity::Warning, message);
        }
    }
}

fn unsupported(key: &str, value: &str) -> (Code, Severity, String) {
    let lower = key.to_ascii_lowercase();
    if lower == "noindex" {
        return (
            Code::NoindexField,
            Severity::Warning,
            format!(
                "`{}: {}`: Google stopped supporting noindex in robots.txt on 2019-09-01; these \
                 URLs are not removed from the index (use a noindex meta tag or X-Robots-Tag \
                 header, and let the page be crawled)",
                quote(key),
                quote(value)
            ),
        );
    }
    let note = match lower.as_str() {
        "crawl-delay" => " (Bing and Yandex honour it; Google sets its crawl rate itself)",
        "host" => " (a Yandex field for the preferred mirror)",
        "clean-param" => " (a Yandex field)",
        _ => "",
    };
    (
        Code::UnsupportedField,
        Severity::Notice,
        format!(
            "`{}` is not supported by Google and is ignored{note}",
            quote(key)
        ),
    )
}

fn rule_line(facts: &LineFacts, value: &str, push: &mut impl FnMut(Code, Severity, String)) {
    let directive = if facts.kind == LineKind::Allow {
        "Allow"
    } else {
        "Disallow"
    };
    if facts.outside_group {
        push(
            Code::RuleOutsideGroup,
            Severity::Warning,
            format!(
                "`{directive}: {}` comes before any `User-agent:` line, so it belongs to no group \
                 and Google ignores it",
                quote(value)
            ),
        );
    }
    if value.is_empty() {
        return;
    }
    if !value.starts_with(['/', '*']) {
        push(
            Code::PatternNotRooted,
            Severity::Warning,
            format!(
                "`{directive}: {}` does not start with `/` or `*`; Google still matches it from \
                 the start of the path (so it can only match if the path starts the same way), \
                 other crawlers may drop it",
                quote(value)
            ),
        );
    }
    if value
        .as_bytes()
        .split_last()
        .is_some_and(|(_, head)| head.contains(&b'$'))
    {
        push(
            Code::DollarNotLast,
            Severity::Warning,
            format!(
                "`{directive}: {}` has a `$` before its end; only a final `$` anchors the end of \
                 the URL, any other `$` is matched literally",
                quote(value)
            ),
        );
    }
}

/// The message for a key Google accepts only through its tolerance: a typo, a longer word, or a
/// missing colon.
fn tolerated_key(facts: &LineFacts, key: &str) -> Option<String> {
    let field = match facts.kind {
        LineKind::UserAgent => "User-agent",
        LineKind::Allow => "Allow",
        LineKind::Disallow => "Disallow",
        LineKind::Sitemap => "Sitemap",
        _ => return None,
    };
    let key = quote(key);
    let how = match facts.key_match {
        Some(KeyMatch::Typo) => Some(format!(
            "`{key}` is read as `{field}` only through Google's typo tolerance"
        )),
        Some(KeyMatch::Prefix) => Some(format!(
            "`{key}` is read as `{field}` only because Google matches field names by prefix"
        )),
        _ => None,
    };
    let colon = facts
        .missing_colon
        .then(|| format!("`{key}` has no colon after it; Google accepts a space instead"));
    let text = match (how, colon) {
        (Some(how), Some(colon)) => format!("{how}; {colon}"),
        (Some(text), None) | (None, Some(text)) => text,
        (None, None) => return None,
    };
    Some(format!(
        "{text}; other crawlers may ignore the line (write `{field}:`)"
    ))
}

fn is_sitemap_url(value: &str) -> bool {
    url::Url::parse(value)
        .is_ok_and(|url| matches!(url.scheme(), "http" | "https" | "ftp") && url.host().is_some())
}

/// The line's bytes as written, up to its line end (without the BOM Google skips on line 1).
fn raw_line(body: &[u8], offset: usize) -> &[u8] {
    let mut rest = body.get(offset..).unwrap_or_default();
    if offset == 0 {
        for bom_byte in [0xEF, 0xBB, 0xBF] {
            match rest.split_first() {
                Some((&first, tail)) if first == bom_byte => rest = tail,
                _ => break,
            }
        }
    }
    let end = memchr::memchr2(b'\n', b'\r', rest).unwrap_or(rest.len());
    rest.get(..end).unwrap_or_default()
}

fn trimmed(bytes: &[u8]) -> &[u8] {
    bytes.trim_ascii()
}
