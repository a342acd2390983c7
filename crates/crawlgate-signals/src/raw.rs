//! Finding a tag's source text, for evidence ("quote the raw tag as written").
//!
//! html5ever reports the line a tag ends on, not byte offsets. The k-th `<meta>` the parser
//! creates on line L is the k-th `<meta` in the source whose `>` is on line L, so the source text
//! is found by scanning a few lines back from L. A candidate is only accepted if every attribute
//! name the parser saw appears in it; otherwise the caller rebuilds the tag from the DOM.

use foldhash::HashMap;
use std::cell::OnceCell;

/// How many lines back from its end a tag may start.
const MAX_TAG_LINES: usize = 32;
/// Longest tag text searched.
const MAX_TAG_BYTES: usize = 16 * 1024;
/// Lookups per page; past it tags are rebuilt (bounds the work on pages with thousands of tags).
const MAX_LOOKUPS: usize = 2_000;

/// Line numbers of byte offsets, computed on first use.
pub(crate) struct LineIndex<'a> {
    text: &'a str,
    starts: OnceCell<Vec<usize>>,
}

impl<'a> LineIndex<'a> {
    pub(crate) fn new(text: &'a str) -> Self {
        LineIndex {
            text,
            starts: OnceCell::new(),
        }
    }

    /// Byte offsets where lines start.
    pub(crate) fn starts(&self) -> &[usize] {
        self.starts.get_or_init(|| line_starts(self.text))
    }

    /// The 1-based line holding byte `offset`.
    pub(crate) fn line_of(&self, offset: usize) -> u32 {
        let line = self.starts().partition_point(|&start| start <= offset);
        u32::try_from(line).unwrap_or(u32::MAX)
    }
}

/// Source text of tags, located by tag name and the line html5ever reported.
pub(crate) struct RawLocator<'a> {
    text: &'a str,
    /// Per `(end line, tag)`: where the search for the next such tag resumes.
    resume_at: HashMap<(u32, &'static str), usize>,
    lookups: usize,
    /// Bytes searched so far; past [`RawLocator::budget`] tags are rebuilt.
    searched: usize,
}

/// A tag's source text and the 1-based line it starts on.
pub(crate) struct RawTag<'a> {
    pub text: &'a str,
    pub start_line: u32,
}

impl<'a> RawLocator<'a> {
    pub(crate) fn new(text: &'a str) -> Self {
        RawLocator {
            text,
            resume_at: HashMap::default(),
            lookups: 0,
            searched: 0,
        }
    }

    /// Searching stays linear in the document: a few passes over it at most.
    fn budget(&self) -> usize {
        self.text.len().saturating_mul(4).saturating_add(1 << 20)
    }

    /// The source of the next `<tag …>` ending on `end_line` whose text mentions every
    /// attribute name in `attributes`, and every value that appears verbatim in source (values
    /// with `&`, line breaks or replaced NULs may be written otherwise). Call once per element,
    /// in document order: with several such tags on a line, the values tell them apart (a
    /// stylesheet `<link>` before the canonical one is not the canonical's quote), and identical
    /// tags come back in turn.
    pub(crate) fn locate(
        &mut self,
        lines: &LineIndex<'_>,
        tag: &'static str,
        end_line: u32,
        attributes: &[(&str, &str)],
    ) -> Option<RawTag<'a>> {
        self.lookups += 1;
        if self.lookups > MAX_LOOKUPS || self.searched > self.budget() {
            return None;
        }
        let text = self.text;
        let line_starts = lines.starts();
        let line_index = usize::try_from(end_line).ok()?.checked_sub(1)?;
        let line_start = *line_starts.get(line_index)?;
        let line_end = line_starts
            .get(line_index + 1)
            .copied()
            .unwrap_or(text.len());
        let window_start = *line_starts.get(line_index.saturating_sub(MAX_TAG_LINES))?;
        let resume = self
            .resume_at
            .entry((end_line, tag))
            .or_insert(window_start);

        let bytes = text.as_bytes();
        let mut position = *resume;
        let found = loop {
            if position >= line_end {
                break None;
            }
            let Some(offset) = bytes
                .get(position..line_end)
                .and_then(|window| find_tag_open(window, tag.as_bytes()))
            else {
                position = line_end;
                break None;
            };
            let start = position + offset;
            position = start + 1;
            if let Some(end) = tag_end(bytes, start + 1 + tag.len())
                && end >= line_start
                && end < line_end
                && let Some(raw) = text.get(start..=end)
                && mentions_all(raw, attributes)
            {
                position = end + 1;
                break Some((start, raw));
            }
        };
        self.searched += position.saturating_sub(*resume);
        let (start, raw) = found?;
        // Only a match moves the search on: a candidate passed over may be a later element's.
        *resume = position;
        Some(RawTag {
            text: raw,
            start_line: lines.line_of(start),
        })
    }
}

/// Whether tag source `raw` names every attribute and holds every value that is written as is.
fn mentions_all(raw: &str, attributes: &[(&str, &str)]) -> bool {
    attributes.iter().all(|(name, value)| {
        let value_as_written = value.is_empty()
            || value.contains(['&', '\n', '\r', '\u{FFFD}'])
            || raw.contains(value);
        value_as_written && contains_ignore_case(raw.as_bytes(), name.as_bytes())
    })
}

/// Byte offsets where lines start, counting `\n`, `\r\n` and a lone `\r` as one break each (as
/// html5ever's line counter does).
fn line_starts(text: &str) -> Vec<usize> {
    let bytes = text.as_bytes();
    let mut starts = vec![0];
    for index in memchr::memchr2_iter(b'\n', b'\r', bytes) {
        if bytes.get(index) == Some(&b'\n') || bytes.get(index + 1) != Some(&b'\n') {
            starts.push(index + 1);
        }
    }
    starts
}

/// The offset of the first `<tag` (case-insensitive) followed by whitespace, `/` or `>`.
fn find_tag_open(haystack: &[u8], tag: &[u8]) -> Option<usize> {
    let mut from = 0;
    while let Some(offset) = haystack.get(from..)?.iter().position(|b| *b == b'<') {
        let start = from + offset;
        let name_end = start + 1 + tag.len();
        if haystack
            .get(start + 1..name_end)
            .is_some_and(|name| name.eq_ignore_ascii_case(tag))
            && haystack
                .get(name_end)
                .is_some_and(|b| b.is_ascii_whitespace() || matches!(b, b'/' | b'>'))
        {
            return Some(start);
        }
        from = start + 1;
    }
    None
}

/// The offset of the `>` closing a tag whose attributes start at `from`, skipping quoted values.
fn tag_end(bytes: &[u8], from: usize) -> Option<usize> {
    let limit = bytes.len().min(from.saturating_add(MAX_TAG_BYTES));
    let mut position = from;
    while position < limit {
        match bytes[position] {
            b'>' => return Some(position),
            b'=' => {
                position += 1;
                while position < limit && bytes[position].is_ascii_whitespace() {
                    position += 1;
                }
                if let Some(&quote @ (b'"' | b'\'')) = bytes.get(position) {
                    let close = bytes
                        .get(position + 1..limit)?
                        .iter()
                        .position(|b| *b == quote)?;
                    position += close + 2;
                }
            }
            _ => position += 1,
        }
    }
    None
}

fn contains_ignore_case(haystack: &[u8], needle: &[u8]) -> bool {
    needle.is_empty()
        || haystack
            .windows(needle.len())
            .any(|window| window.eq_ignore_ascii_case(needle))
}

/// A tag rebuilt from parsed attributes, when its source text cannot be found.
pub(crate) fn rebuild(tag: &str, attributes: &[(&str, &str)]) -> String {
    let mut raw = format!("<{tag}");
    for (name, value) in attributes {
        raw.push(' ');
        raw.push_str(name);
        raw.push_str("=\"");
        raw.push_str(&value.replace('&', "&amp;").replace('"', "&quot;"));
        raw.push('"');
    }
    raw.push('>');
    raw
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_kth_tag_ending_on_a_line() {
        let text = "<head>\n<meta name=a><META name=b>\n<meta\n  name=\"c>d\"\n  content=x>\n";
        let lines = LineIndex::new(text);
        let mut locator = RawLocator::new(text);
        let first = locator.locate(&lines, "meta", 2, &[("name", "a")]).unwrap();
        assert_eq!((first.text, first.start_line), ("<meta name=a>", 2));
        let second = locator.locate(&lines, "meta", 2, &[("name", "b")]).unwrap();
        assert_eq!(second.text, "<META name=b>");
        let multi_line = locator
            .locate(&lines, "meta", 5, &[("name", "c>d"), ("content", "x")])
            .unwrap();
        assert_eq!(multi_line.text, "<meta\n  name=\"c>d\"\n  content=x>");
        assert_eq!(multi_line.start_line, 3);
        assert!(
            locator
                .locate(&lines, "meta", 5, &[("name", "c>d")])
                .is_none()
        );
    }

    #[test]
    fn values_tell_tags_on_one_line_apart() {
        let text = "<link rel=stylesheet href=s.css><link rel=canonical href=/c><link rel=canonical href=/c>";
        let lines = LineIndex::new(text);
        let mut locator = RawLocator::new(text);
        let canonical = [("rel", "canonical"), ("href", "/c")];
        let first = locator.locate(&lines, "link", 1, &canonical).unwrap();
        assert_eq!(first.text, "<link rel=canonical href=/c>");
        let second = locator.locate(&lines, "link", 1, &canonical).unwrap();
        assert_eq!(second.text, "<link rel=canonical href=/c>");
        assert!(locator.locate(&lines, "link", 1, &canonical).is_none());
        // The stylesheet passed over is still there for its own element.
        let stylesheet = [("rel", "stylesheet"), ("href", "s.css")];
        let mut locator = RawLocator::new(text);
        locator.locate(&lines, "link", 1, &canonical).unwrap();
        assert!(locator.locate(&lines, "link", 1, &stylesheet).is_none());
        let mut locator = RawLocator::new(text);
        assert_eq!(
            locator.locate(&lines, "link", 1, &stylesheet).unwrap().text,
            "<link rel=stylesheet href=s.css>"
        );
    }

    #[test]
    fn refuses_a_candidate_missing_an_attribute() {
        let lines = LineIndex::new("<link rel=x>");
        let mut locator = RawLocator::new("<link rel=x>");
        assert!(locator.locate(&lines, "link", 1, &[("href", "")]).is_none());
        assert!(locator.locate(&lines, "link", 1, &[("rel", "y")]).is_none());
        assert!(locator.locate(&lines, "link", 99, &[]).is_none());
        assert!(locator.locate(&lines, "link", 0, &[]).is_none());
    }

    #[test]
    fn counts_lines_like_html5ever() {
        assert_eq!(line_starts("a\r\nb\rc\nd"), [0, 3, 5, 7]);
        let lines = LineIndex::new("a\nb\n");
        assert_eq!(
            [
                lines.line_of(0),
                lines.line_of(1),
                lines.line_of(2),
                lines.line_of(4)
            ],
            [1, 1, 2, 3]
        );
    }

    #[test]
    fn rebuilds_with_escaping() {
        assert_eq!(
            rebuild("meta", &[("name", "robots"), ("content", "a\"&b")]),
            r#"<meta name="robots" content="a&quot;&amp;b">"#
        );
    }
}
