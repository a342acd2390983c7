//! Rules about the body as a whole: BOM, encoding, size, HTML served instead, no sitemap.

use super::{Code, LintOptions, issue, listing};
use crate::{GOOGLE_MAX_ROBOTS_BYTES, LineFacts, LineKind, RobotsTxt};
use crate::{Issue, Severity};

/// How much of an oversized body is parsed to list the rules Google never reads.
const OVERSIZE_SCAN_BYTES: usize = 16 * 1024 * 1024;

pub(super) fn check(
    robots: &RobotsTxt,
    body: &[u8],
    html: bool,
    options: &LintOptions,
    issues: &mut Vec<Issue>,
) {
    if body.starts_with(&[0xEF, 0xBB, 0xBF]) {
        issues.push(issue(
            Code::Bom,
            Severity::Notice,
            Some(1),
            "the file starts with a UTF-8 byte order mark; Google skips it, but some parsers then \
             misread the first line and lose the first group"
                .to_owned(),
        ));
    }
    not_utf8(robots, body, issues);
    oversize(robots, body, options, issues);
    if html {
        let directives = robots
            .lines()
            .iter()
            .filter(|line| matches!(line.kind, LineKind::Allow | LineKind::Disallow))
            .count();
        issues.push(issue(
            Code::ServedAsHtml,
            Severity::Warning,
            Some(1),
            format!(
                "the body is an HTML page, not a robots.txt (often a catch-all route); Google reads \
                 only lines that look like directives ({directives} allow/disallow lines here), so \
                 in effect the site has no robots.txt rules"
            ),
        ));
    }
    if robots.sitemaps().is_empty() {
        issues.push(issue(
            Code::NoSitemapField,
            Severity::Notice,
            None,
            "no `Sitemap:` line; crawlers find the sitemaps only if they are submitted elsewhere \
             (e.g. Search Console)"
                .to_owned(),
        ));
    }
}

/// Markup sniffed at the start of the body (after a BOM and whitespace).
pub(super) fn looks_like_html(body: &[u8]) -> bool {
    const SNIFF_BYTES: usize = 4096;
    let start = body
        .iter()
        .position(|&byte| !(byte.is_ascii_whitespace() || matches!(byte, 0xEF | 0xBB | 0xBF)))
        .unwrap_or(body.len());
    let head = body.get(start..).unwrap_or_default();
    if !head.starts_with(b"<") {
        return false;
    }
    let head = head.get(..SNIFF_BYTES).unwrap_or(head).to_ascii_lowercase();
    [
        "<!doctype html",
        "<html",
        "<head",
        "<body",
        "<title",
        "<meta",
    ]
    .iter()
    .any(|tag| memchr::memmem::find(&head, tag.as_bytes()).is_some())
}

/// The line holding byte `offset` of the body.
fn line_at(lines: &[LineFacts], offset: usize) -> Option<u32> {
    let after = lines.partition_point(|line| line.offset <= offset);
    after
        .checked_sub(1)
        .and_then(|index| lines.get(index))
        .map(|line| line.line)
}

fn not_utf8(robots: &RobotsTxt, body: &[u8], issues: &mut Vec<Issue>) {
    let utf16 = if body.starts_with(&[0xFF, 0xFE]) {
        Some("UTF-16LE")
    } else if body.starts_with(&[0xFE, 0xFF]) {
        Some("UTF-16BE")
    } else {
        None
    };
    if let Some(encoding) = utf16 {
        issues.push(issue(
            Code::NotUtf8,
            Severity::Warning,
            Some(1),
            format!(
                "the file is {encoding} (it starts with that byte order mark); Google reads \
                 robots.txt as UTF-8, so it understands none of these lines"
            ),
        ));
        return;
    }
    let Err(error) = std::str::from_utf8(body) else {
        return;
    };
    let first = line_at(robots.lines(), error.valid_up_to());
    let lines = robots.lines();
    let ends = lines
        .iter()
        .skip(1)
        .map(|line| line.offset)
        .chain(std::iter::once(body.len()));
    let invalid_lines = lines
        .iter()
        .zip(ends)
        .filter(|(line, end)| {
            body.get(line.offset..*end)
                .is_some_and(|bytes| std::str::from_utf8(bytes).is_err())
        })
        .count();
    issues.push(issue(
        Code::NotUtf8,
        Severity::Warning,
        first,
        format!(
            "the file is not valid UTF-8 ({invalid_lines} line(s) hold invalid bytes, the first \
             here); Google matches such bytes %-escaped, so rules written in another encoding may \
             never match the site's URLs"
        ),
    ));
}

fn oversize(robots: &RobotsTxt, body: &[u8], options: &LintOptions, issues: &mut Vec<Issue>) {
    if body.len() <= GOOGLE_MAX_ROBOTS_BYTES {
        return;
    }
    // The rules past the cut are only in the whole body: a scan of it that keeps its rule
    // lines alone (millions of blank lines cost nothing), bounded in bytes.
    let scanned = body.get(..OVERSIZE_SCAN_BYTES).unwrap_or(body);
    let (rules, cut_line);
    let lines = if robots.fetch_cut().is_some() {
        (rules, cut_line) = crate::parse::rule_lines(scanned, GOOGLE_MAX_ROBOTS_BYTES);
        rules.as_slice()
    } else {
        cut_line = line_at(robots.lines(), GOOGLE_MAX_ROBOTS_BYTES);
        robots.lines()
    };
    let partly = if robots.fetch_cut().is_some() && scanned.len() < body.len() {
        format!(" (rules listed from the first {OVERSIZE_SCAN_BYTES} bytes)")
    } else {
        String::new()
    };
    let lost: Vec<String> = lines
        .iter()
        .filter(|line| matches!(line.kind, LineKind::Allow | LineKind::Disallow))
        .filter(|line| line.offset >= GOOGLE_MAX_ROBOTS_BYTES || Some(line.line) == cut_line)
        .map(|line| {
            format!(
                "line {}: {}: {}",
                line.line,
                if line.kind == LineKind::Allow {
                    "Allow"
                } else {
                    "Disallow"
                },
                line.value.as_deref().unwrap_or_default()
            )
        })
        .collect();
    let size = body.len();
    let (severity, message) = if lost.is_empty() {
        (
            Severity::Warning,
            format!(
                "the file is {size} bytes; Google reads only the first {GOOGLE_MAX_ROBOTS_BYTES} \
                 (500 KiB) and ignores the rest (no allow/disallow rule lies past the cut)"
            ),
        )
    } else {
        (
            Severity::Error,
            format!(
                "the file is {size} bytes; Google reads only the first {GOOGLE_MAX_ROBOTS_BYTES} \
                 (500 KiB), so these {} rule(s) past the cut are ignored{partly}: {}",
                lost.len(),
                listing(&lost, options.list_limit)
            ),
        )
    };
    issues.push(issue(Code::Oversize, severity, cut_line, message));
}
