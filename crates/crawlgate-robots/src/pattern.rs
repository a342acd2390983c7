//! Rule patterns: Google's escaping, and a compiled, linear-time wildcard matcher.
//!
//! Google's matcher walks a set of path positions per pattern byte, O(|pattern| × |path|). A
//! pattern with only `*` wildcards matches when its literal pieces occur in order, the first at
//! the start of the path; taking each piece at its leftmost possible place never loses a match,
//! so one left-to-right scan decides it in O(|pattern| + |path|). A final `$` anchors the last
//! piece to the end of the path.

use memchr::memmem;

/// Escapes a rule value as Google's `MaybeEscapePattern` does: bytes ≥ 0x80 become `%XX`
/// (upper-case hex) and existing `%xx` escapes are upper-cased. Nothing else changes.
pub(crate) fn escape_pattern(value: &[u8]) -> String {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    let mut escaped = String::with_capacity(value.len());
    let mut i = 0;
    while let Some(&byte) = value.get(i) {
        match (byte, value.get(i + 1), value.get(i + 2)) {
            (b'%', Some(&high), Some(&low))
                if high.is_ascii_hexdigit() && low.is_ascii_hexdigit() =>
            {
                escaped.push('%');
                escaped.push(char::from(high.to_ascii_uppercase()));
                escaped.push(char::from(low.to_ascii_uppercase()));
                i += 3;
            }
            (byte, _, _) if byte >= 0x80 => {
                escaped.push('%');
                escaped.push(char::from(HEX[usize::from(byte >> 4)]));
                escaped.push(char::from(HEX[usize::from(byte & 0x0F)]));
                i += 1;
            }
            (byte, _, _) => {
                escaped.push(char::from(byte));
                i += 1;
            }
        }
    }
    escaped
}

/// A pattern split at `*` into literal pieces, with its final `$` (if any) as an end anchor.
///
/// The pieces after the first are searched with prebuilt `memmem` finders: rules are compiled
/// once and tried against many paths.
#[derive(Debug, Clone)]
pub(crate) struct Pattern {
    /// The pattern without its final `$`.
    text: Box<[u8]>,
    /// The literal piece before the first `*` (the whole text when there is no `*`).
    prefix: Box<[u8]>,
    /// The non-empty pieces strictly between the first and the last `*`-separated piece.
    middle: Box<[memmem::Finder<'static>]>,
    /// The piece after the last `*`; `None` when the pattern has no `*`.
    last: Option<Box<[u8]>>,
    /// A finder for `last` when it is non-empty and not anchored.
    last_finder: Option<memmem::Finder<'static>>,
    /// The pattern ended in `$`: the path must end where the pattern ends.
    anchored_end: bool,
}

impl PartialEq for Pattern {
    fn eq(&self, other: &Self) -> bool {
        // Everything else is derived from these two.
        (&self.text, self.anchored_end) == (&other.text, other.anchored_end)
    }
}

impl Eq for Pattern {}

impl Pattern {
    pub(crate) fn compile(pattern: &[u8]) -> Pattern {
        // `$` is special only as the very last byte; anywhere else it is a literal.
        let (text, anchored_end) = match pattern.split_last() {
            Some((b'$', rest)) => (rest, true),
            _ => (pattern, false),
        };
        let mut pieces = text.split(|&byte| byte == b'*');
        let prefix = pieces.next().unwrap_or_default();
        let mut rest: Vec<&[u8]> = pieces.collect();
        let last = rest.pop();
        let middle = rest
            .into_iter()
            .filter(|piece| !piece.is_empty())
            .map(|piece| memmem::Finder::new(piece).into_owned())
            .collect();
        let last_finder = last
            .filter(|piece| !piece.is_empty() && !anchored_end)
            .map(|piece| memmem::Finder::new(piece).into_owned());
        Pattern {
            text: text.into(),
            prefix: prefix.into(),
            middle,
            last: last.map(Into::into),
            last_finder,
            anchored_end,
        }
    }

    /// The literal text before the first `*`: every path the pattern matches starts with it.
    pub(crate) fn literal_prefix(&self) -> &[u8] {
        &self.prefix
    }

    /// Whether the pattern matches `path`, anchored at its start.
    pub(crate) fn matches(&self, path: &[u8]) -> bool {
        if !path.starts_with(&self.prefix) {
            return false;
        }
        let Some(last) = &self.last else {
            return !self.anchored_end || path.len() == self.prefix.len();
        };
        let mut at = self.prefix.len();
        for finder in &self.middle {
            let Some(found) = path.get(at..).and_then(|tail| finder.find(tail)) else {
                return false;
            };
            at += found + finder.needle().len();
        }
        if self.anchored_end {
            return path.len() >= at + last.len() && path.ends_with(last);
        }
        match &self.last_finder {
            None => true,
            Some(finder) => path
                .get(at..)
                .is_some_and(|tail| finder.find(tail).is_some()),
        }
    }
}

/// A rule's compiled pattern, with Google's `index.htm` retry for Allow rules.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct CompiledRule {
    pub(crate) pattern: Pattern,
    /// Priority when `pattern` matches: the escaped pattern's length.
    pub(crate) priority: usize,
    /// For an Allow rule whose last path segment starts with `index.htm`: the pattern
    /// `<dir>/$`, tried only when `pattern` does not match, and its priority.
    pub(crate) index_retry: Option<(Pattern, usize)>,
}

impl CompiledRule {
    /// Compiles an escaped pattern. `allow` enables the `index.htm` retry (Google applies it to
    /// Allow rules only).
    pub(crate) fn compile(escaped: &str, allow: bool) -> CompiledRule {
        let bytes = escaped.as_bytes();
        let index_retry = if allow {
            memchr::memrchr(b'/', bytes).and_then(|slash| {
                let (dir, last_segment) = bytes.split_at(slash);
                last_segment.starts_with(b"/index.htm").then(|| {
                    let mut retry = Vec::with_capacity(dir.len() + 2);
                    retry.extend_from_slice(dir);
                    retry.extend_from_slice(b"/$");
                    let priority = retry.len();
                    (Pattern::compile(&retry), priority)
                })
            })
        } else {
            None
        };
        CompiledRule {
            pattern: Pattern::compile(bytes),
            priority: bytes.len(),
            index_retry,
        }
    }

    /// The priority with which the rule matches `path`, or `None`.
    pub(crate) fn matched_priority(&self, path: &[u8]) -> Option<usize> {
        if self.pattern.matches(path) {
            return Some(self.priority);
        }
        let (retry, priority) = self.index_retry.as_ref()?;
        retry.matches(path).then_some(*priority)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn matches(pattern: &str, path: &str) -> bool {
        Pattern::compile(pattern.as_bytes()).matches(path.as_bytes())
    }

    #[test]
    fn escaping_encodes_high_bytes_and_uppercases_existing_escapes_only() {
        assert_eq!(escape_pattern("/á".as_bytes()), "/%C3%A1");
        assert_eq!(escape_pattern(b"/%aa/%2f"), "/%AA/%2F");
        assert_eq!(escape_pattern(b"/a b/*$?x=1"), "/a b/*$?x=1");
        // An incomplete escape is left alone.
        assert_eq!(escape_pattern(b"/%a"), "/%a");
        assert_eq!(escape_pattern(b"/%zz"), "/%zz");
        assert_eq!(escape_pattern("/ツ".as_bytes()), "/%E3%83%84");
        assert_eq!(escape_pattern(&[b'/', 0xFF]), "/%FF");
    }

    #[test]
    fn a_pattern_is_a_prefix_anchored_at_the_start() {
        assert!(matches("/fish", "/fish"));
        assert!(matches("/fish", "/fish.html"));
        assert!(matches("/fish", "/fishheads/yummy.html"));
        assert!(!matches("/fish", "/Fish.asp"));
        assert!(!matches("/fish", "/catfish"));
        assert!(matches("", "/anything"));
        assert!(matches("", ""));
    }

    #[test]
    fn star_matches_any_run_including_none() {
        assert!(matches("/fish*", "/fish"));
        assert!(matches("/*.php", "/index.php"));
        assert!(matches("/*.php", "/folder/filename.php?parameters"));
        assert!(!matches("/*.php", "/"));
        assert!(!matches("/*.php", "/windows.PHP"));
        assert!(matches("/fish*.php", "/fishheads/catfish.php?parameters"));
        assert!(!matches("/fish*.php", "/Fish.PHP"));
        assert!(matches("*", "/x"));
        assert!(matches("**", "/x"));
        assert!(matches("/a**b", "/ab"));
        assert!(matches("*.gif", "/x/y.gif"));
    }

    #[test]
    fn a_final_dollar_anchors_the_end() {
        assert!(matches("/*.php$", "/filename.php"));
        assert!(matches("/*.php$", "/folder/filename.php"));
        assert!(!matches("/*.php$", "/filename.php?parameters"));
        assert!(!matches("/*.php$", "/filename.php/"));
        assert!(matches("/*.php$", "/a.php.php"));
        assert!(matches("/*/print$", "/a/b/print"));
        assert!(matches("/foo/bar$", "/foo/bar"));
        assert!(!matches("/foo/bar$", "/foo/bar/"));
        assert!(matches("/$", "/"));
        assert!(!matches("/$", "/a"));
        assert!(matches("/a*$", "/abc"));
        // The last piece must fit after the earlier ones: `/ab*b$` needs two b's.
        assert!(!matches("/ab*b$", "/ab"));
        assert!(matches("/ab*b$", "/abb"));
    }

    #[test]
    fn a_dollar_elsewhere_is_a_literal() {
        assert!(matches("/a$b", "/a$b"));
        assert!(!matches("/a$b", "/a"));
        // `$$`: a literal `$`, then the end.
        assert!(matches("/a$$", "/a$"));
        assert!(!matches("/a$$", "/a"));
        assert!(!matches("/a$$", "/a$x"));
    }

    #[test]
    fn pieces_are_found_left_to_right() {
        assert!(matches("/*a*b*c", "/xaybzc"));
        assert!(!matches("/*a*b*c", "/xcybza"));
        assert!(matches("/x/*?p=", "/x/y/z?p=2"));
        assert!(!matches("/x/*?p=", "/x/y/z?q=1&p=2"));
        assert!(!matches("/x/*?p=", "/y/x/?p=2"));
    }

    #[test]
    fn the_worst_case_pattern_is_decided_quickly_and_correctly() {
        let pattern = format!("/{}b", "*a".repeat(500));
        let path = format!("/{}", "a".repeat(3_999));
        assert!(!matches(&pattern, &path));
        assert!(matches(&pattern, &format!("{path}b")));
        assert!(!matches(&pattern, &format!("/{}b", "a".repeat(499))));
    }

    #[test]
    fn index_htm_allow_rules_also_allow_the_directory() {
        let rule = CompiledRule::compile("/allowed-slash/index.html", true);
        assert_eq!(
            rule.matched_priority(b"/allowed-slash/index.html"),
            Some(25)
        );
        assert_eq!(rule.matched_priority(b"/allowed-slash/"), Some(16));
        assert_eq!(rule.matched_priority(b"/allowed-slash/index.htm"), None);
        assert_eq!(rule.matched_priority(b"/allowed-slash/x"), None);
        let disallow = CompiledRule::compile("/d/index.html", false);
        assert_eq!(disallow.matched_priority(b"/d/"), None);
        let htm = CompiledRule::compile("/d/index.htm", true);
        assert_eq!(htm.matched_priority(b"/d/"), Some(4));
    }
}
