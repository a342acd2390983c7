//! The header lines a fetched page keeps to the end of the crawl, in one text.

use crate::http::HeaderLine;

/// The header lines a [`FetchedPage`](super::FetchedPage) keeps, by name: those the rules and
/// the report read. The page's signals are read from every line first (`X-Robots-Tag`, `Link`,
/// `Content-Type`), and the crawl store keeps every line; the rest (`Content-Security-Policy`,
/// `Set-Cookie`, caching) would cost memory on every page of a large crawl for no finding.
pub const KEPT_HEADER_LINES: [&str; 3] = ["content-type", "last-modified", "www-authenticate"];

/// The lines named in [`KEPT_HEADER_LINES`], in the order received, names as received: one
/// allocation (`name:value` lines) where a list of [`HeaderLine`]s took five, on every page.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct KeptHeaders {
    text: Box<str>,
}

/// One kept header line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KeptHeader<'a> {
    pub name: &'a str,
    pub value: &'a str,
}

impl KeptHeader<'_> {
    /// Whether this line's name is `name` (ASCII case-insensitive, as HTTP names are).
    pub fn is(&self, name: &str) -> bool {
        self.name.eq_ignore_ascii_case(name)
    }
}

impl KeptHeaders {
    /// The lines of `lines` named in [`KEPT_HEADER_LINES`]. A line break in a value, which HTTP
    /// does not allow and the client never passes on, is kept as a space.
    pub fn keep<'a>(lines: impl IntoIterator<Item = &'a HeaderLine>) -> Self {
        let mut text = String::new();
        for line in lines {
            if KEPT_HEADER_LINES.iter().any(|name| line.is(name)) {
                text.push_str(&line.name);
                text.push(':');
                text.extend(line.value.chars().map(|c| if c == '\n' { ' ' } else { c }));
                text.push('\n');
            }
        }
        Self { text: text.into() }
    }

    /// The lines as one text, for a stored page's record.
    pub(crate) fn as_text(&self) -> &str {
        &self.text
    }

    /// Lines read back from [`KeptHeaders::as_text`].
    pub(crate) fn from_text(text: Box<str>) -> Self {
        Self { text }
    }

    /// The kept lines, in the order received.
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = KeptHeader<'_>> {
        self.text.lines().filter_map(|line| {
            let (name, value) = line.split_once(':')?;
            Some(KeptHeader { name, value })
        })
    }

    /// The value of the first line named `name`.
    pub fn first(&self, name: &str) -> Option<&str> {
        self.iter()
            .find(|line| line.is(name))
            .map(|line| line.value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_named_lines_are_kept_in_order_with_their_names_as_received() {
        let lines = [
            HeaderLine::new("Set-Cookie", "a=b"),
            HeaderLine::new("Content-Type", "text/html; charset=utf-8"),
            HeaderLine::new("WWW-Authenticate", "Basic realm=\"a:b\""),
            HeaderLine::new("content-type", "text/plain"),
        ];
        let kept = KeptHeaders::keep(&lines);
        let all: Vec<(&str, &str)> = kept.iter().map(|l| (l.name, l.value)).collect();
        assert_eq!(
            all,
            [
                ("Content-Type", "text/html; charset=utf-8"),
                ("WWW-Authenticate", "Basic realm=\"a:b\""),
                ("content-type", "text/plain"),
            ]
        );
        assert_eq!(kept.first("CONTENT-TYPE"), Some("text/html; charset=utf-8"));
        assert_eq!(
            kept.iter()
                .rev()
                .find(|l| l.is("content-type"))
                .map(|l| l.value),
            Some("text/plain")
        );
        assert_eq!(kept.first("last-modified"), None);
        assert_eq!(KeptHeaders::keep(&[]).iter().count(), 0);
    }

    #[test]
    fn an_empty_value_and_a_line_break_in_one_keep_their_lines_apart() {
        let lines = [
            HeaderLine::new("Last-Modified", ""),
            HeaderLine::new("Content-Type", "text/html\nX-Other: y"),
        ];
        let kept = KeptHeaders::keep(&lines);
        assert_eq!(kept.first("last-modified"), Some(""));
        assert_eq!(kept.first("content-type"), Some("text/html X-Other: y"));
        assert_eq!(kept.iter().count(), 2);
    }
}
