//! Document issues: the sitemap parser already checks each document and records [`Issue`]s under
//! the rule ids of RULES.md §2.6 and §2.8 (with their severities). The document rules hand each
//! issue on as a finding about the sitemap, with its position and, where the issue is about one
//! entry, that entry as evidence. They never re-validate.

use crawlgate_core::rule::{Findings, Occurrence};
use crawlgate_core::site::{SitemapFile, SitemapState};
use crawlgate_core::sitemap::{Entry, Issue};
use crawlgate_core::{Evidence, Site};

/// Whether an entry can be the one an issue at `line` is about: it has the element at fault.
pub(super) type Fits = fn(&Entry, u32) -> bool;

/// Where a rule's issues are positioned, which says how to find the entry an issue is about.
#[derive(Debug, Clone, Copy)]
pub(super) enum Anchor {
    /// The whole document: no entry.
    Document,
    /// The entry's own `<loc>`: the entry at the same line and column.
    Loc,
    /// The element opening the entry (`<url>`): the first entry after it, if it `Fits`.
    Record(Fits),
    /// A child element of the entry (`<lastmod>`, `news:news`, …): the entry just before it, as
    /// sitemaps write `<loc>` first, or else the one just after it, whichever `Fits`.
    Child(Fits),
}

/// One parser issue of one sitemap, with the entry it is about.
#[derive(Debug, Clone, Copy)]
pub(super) struct DocumentIssue<'a> {
    pub(super) sitemap: &'a SitemapFile,
    pub(super) issue: &'a Issue,
    pub(super) entry: Option<&'a Entry>,
}

impl DocumentIssue<'_> {
    /// The finding as the parser saw it: about the sitemap, with the issue's message (its line
    /// first) and severity, the position as primary evidence, then the entry.
    pub(super) fn report(&self) -> Occurrence {
        let message = match self.issue.line {
            Some(line) => format!("line {line}: {}", self.issue.message),
            None => self.issue.message.clone(),
        };
        let report = Occurrence::new(self.sitemap.url.as_str(), message)
            .severity(self.issue.severity)
            .evidence(Evidence::SitemapPosition {
                sitemap_url: self.sitemap.url.to_string(),
                line: self.issue.line,
                column: self.issue.column,
            });
        match (self.entry, self.issue.line) {
            (Some(entry), _) => report.evidence(self.entry_evidence(entry)),
            // About the whole document: what was received.
            (None, None) => report.evidence_all(document_evidence(self.sitemap)),
            (None, Some(_)) => report,
        }
    }

    /// An entry of this issue's sitemap, as evidence.
    pub(super) fn entry_evidence(&self, entry: &Entry) -> Evidence {
        Evidence::SitemapEntry {
            sitemap_url: self.sitemap.url.to_string(),
            line: entry.line,
            loc: entry.loc.clone(),
        }
    }
}

/// The response a sitemap document came in, with its sizes and entry count.
fn document_evidence(sitemap: &SitemapFile) -> Option<Evidence> {
    let SitemapState::Parsed {
        final_url,
        status,
        content_type,
        summary,
        ..
    } = &sitemap.state
    else {
        return None;
    };
    let content_type = content_type
        .as_deref()
        .map_or_else(String::new, |value| format!(", Content-Type: {value}"));
    let size = if summary.gzip {
        format!(
            "{} bytes gzip, {} uncompressed",
            summary.bytes_read, summary.bytes_uncompressed
        )
    } else {
        format!("{} bytes", summary.bytes_uncompressed)
    };
    let entries = summary.entry_count;
    Some(Evidence::Response {
        url: final_url.to_string(),
        status: Some(*status),
        detail: format!(
            "answered {status}{content_type}; {size}; {entries} entr{}{}",
            if entries == 1 { "y" } else { "ies" },
            if summary.truncated {
                ", reading stopped early"
            } else {
                ""
            }
        ),
    })
}

/// Every issue with `rule_id` in every parsed sitemap: sitemaps by URL, issues in document order.
pub(super) fn issues<'a>(
    site: &'a Site,
    rule_id: &'a str,
    anchor: Anchor,
) -> impl Iterator<Item = DocumentIssue<'a>> + 'a {
    site.sitemaps.iter().flat_map(move |sitemap| {
        let issues = sitemap.summary().map_or(&[][..], |s| s.issues.as_slice());
        issues
            .iter()
            .filter(move |issue| issue.rule() == rule_id)
            .map(move |issue| DocumentIssue {
                sitemap,
                issue,
                entry: entry_for(sitemap.entries(), issue, anchor),
            })
    })
}

/// Report every issue with `rule_id` as the parser recorded it.
pub(super) fn report_issues(site: &Site, rule_id: &str, anchor: Anchor, out: &mut Findings<'_>) {
    for found in issues(site, rule_id, anchor) {
        out.report(found.report());
    }
}

/// The entry an issue is about, found by position (entries are in document order).
fn entry_for<'a>(entries: &'a [Entry], issue: &Issue, anchor: Anchor) -> Option<&'a Entry> {
    let (Some(line), Some(column)) = (issue.line, issue.column) else {
        return None;
    };
    let at = (line, column);
    let split = entries.partition_point(|entry| (entry.line, entry.column) <= at);
    let before = split.checked_sub(1).and_then(|i| entries.get(i));
    let after = entries.get(split);
    match anchor {
        Anchor::Document => None,
        Anchor::Loc => before.filter(|entry| (entry.line, entry.column) == at),
        Anchor::Record(fits) => after.filter(|entry| fits(entry, line)),
        Anchor::Child(fits) => before
            .filter(|entry| fits(entry, line))
            .or_else(|| after.filter(|entry| fits(entry, line))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crawlgate_core::Severity;

    fn entry(loc: &str, line: u32, column: u32, lastmod: Option<&str>) -> Entry {
        Entry {
            loc: loc.to_owned(),
            line,
            column,
            lastmod: lastmod.map(str::to_owned),
            ..Entry::default()
        }
    }

    fn issue(line: u32, column: u32) -> Issue {
        Issue {
            code: crawlgate_core::sitemap::Code::LocInvalid,
            severity: Severity::Warning,
            line: Some(line),
            column: Some(column),
            message: String::new(),
        }
    }

    fn loc(entry: Option<&Entry>) -> Option<&str> {
        entry.map(|e| e.loc.as_str())
    }

    fn has_lastmod(entry: &Entry, _line: u32) -> bool {
        entry.lastmod.is_some()
    }

    #[test]
    fn an_issue_finds_its_entry_by_anchor() {
        // Minified: every entry on line 2; then one entry per line, <loc> first.
        let entries = [
            entry("a", 2, 10, None),
            entry("b", 2, 60, Some("x")),
            entry("c", 4, 8, Some("y")),
            entry("d", 7, 8, None),
        ];
        assert_eq!(
            loc(entry_for(&entries, &issue(2, 60), Anchor::Loc)),
            Some("b")
        );
        assert_eq!(loc(entry_for(&entries, &issue(2, 61), Anchor::Loc)), None);
        // <lastmod> after <loc>, same line or the next.
        let child = Anchor::Child(has_lastmod);
        assert_eq!(loc(entry_for(&entries, &issue(2, 90), child)), Some("b"));
        assert_eq!(loc(entry_for(&entries, &issue(5, 3), child)), Some("c"));
        // <lastmod> written before <loc>: the entry before lacks one, the one after has it.
        assert_eq!(loc(entry_for(&entries, &issue(2, 40), child)), Some("b"));
        // The <url> opening an entry.
        let record = Anchor::Record(|_, _| true);
        assert_eq!(loc(entry_for(&entries, &issue(6, 1), record)), Some("d"));
        assert_eq!(entry_for(&entries, &issue(2, 90), Anchor::Document), None);
        assert_eq!(entry_for(&entries, &issue(9, 1), child), None);
    }
}
