//! Plain-text sitemaps: UTF-8, one absolute URL per line, nothing else.

use super::SitemapKind;
use super::collect::{Collector, Draft, Sink};
use super::issues::{self, Issues, Position};
use super::reader::LineTrack;
use super::validate::shorten;
use std::io::{BufRead, Read};

/// Reads lines as entries. A first line that is not an http(s) URL means the body is not a text
/// sitemap at all (an error page, JSON, binary): reported as `sitemap/not-xml`, nothing read.
/// Returns whether reading stopped before the end.
pub(crate) fn parse<R: Read, F: Sink>(
    track: &mut LineTrack<R>,
    collector: &mut Collector<'_, F>,
    issues: &mut Issues,
) -> bool {
    let mut line = Vec::new();
    let mut number: u32 = 0;
    let mut draft = Draft::default();
    loop {
        line.clear();
        match track.read_until(b'\n', &mut line) {
            Ok(0) => return false,
            Ok(_) => {}
            Err(_) => return true,
        }
        number = number.saturating_add(1);
        let trimmed = line.trim_ascii();
        if trimmed.is_empty() {
            continue;
        }
        let leading = line.len() - line.trim_ascii_start().len();
        let at = Position {
            line: number,
            column: u32::try_from(leading + 1).unwrap_or(u32::MAX),
        };
        let Ok(text) = std::str::from_utf8(trimmed) else {
            issues.push(issues::LOC_INVALID, Some(at), || {
                "the line is not valid UTF-8; text sitemaps must be UTF-8".to_owned()
            });
            continue;
        };
        if collector.kind() == SitemapKind::Unknown {
            if !looks_like_url(text) {
                issues.push(issues::NOT_XML, Some(at), || {
                    format!(
                        "neither XML nor a text sitemap: the first line `{}` is not a URL",
                        shorten(text)
                    )
                });
                return false;
            }
            collector.set_kind(SitemapKind::Text, false);
        }
        draft.reset(at);
        collector.start_record(at);
        draft.entry.loc = draft.pool.string_from(text);
        draft.entry.line = at.line;
        draft.entry.column = at.column;
        draft.at.loc = Some(at);
        collector.finish_record(&mut draft, issues);
    }
}

fn looks_like_url(text: &str) -> bool {
    let head = text.get(..8).unwrap_or(text).to_ascii_lowercase();
    head.starts_with("http://") || head.starts_with("https://")
}
