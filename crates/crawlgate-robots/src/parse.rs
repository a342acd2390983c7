//! Bytes → lines, groups and sitemap references, as Google's `ParseRobotsTxt` reads them.

use super::pattern::{CompiledRule, escape_pattern};
use super::url::agent_token;
use super::{
    ByteOrderMark, Directive, GOOGLE_MAX_LINE_BYTES, Group, GroupAgent, KeyMatch, LineFacts,
    LineKind, RobotsTxt, Rule, SitemapRef, UserAgentLine,
};

/// Keys Google's reporting parser knows but the matcher ignores ("Unused" in
/// `reporting_robots.cc`).
pub(crate) const UNSUPPORTED_KEYS: [&str; 12] = [
    "clean-param",
    "content-signal",
    "content-usage",
    "crawl-delay",
    "domain",
    "host",
    "noarchive",
    "nofollow",
    "noindex",
    "request-rate",
    "revisit-after",
    "visit-time",
];

const BOM: [u8; 3] = [0xEF, 0xBB, 0xBF];

pub(crate) fn parse(body: &[u8]) -> RobotsTxt {
    let (byte_order_mark, start) = skipped_bom(body);
    let mut builder = Builder::default();
    for (number, (offset, raw)) in (1u32..).zip(physical_lines(body, start)) {
        // A skipped BOM still belongs to line 1.
        let offset = if number == 1 { 0 } else { offset };
        builder.line(number, offset, raw);
    }
    RobotsTxt {
        lines: builder.lines,
        groups: builder.groups,
        sitemaps: builder.sitemaps,
        byte_order_mark,
        fetch_cut: None,
    }
}

/// Google skips any prefix of `EF BB BF` at the very start of the body.
fn skipped_bom(body: &[u8]) -> (ByteOrderMark, usize) {
    let skipped = body
        .iter()
        .zip(BOM)
        .take_while(|(byte, bom)| **byte == *bom)
        .count();
    let mark = match skipped {
        0 => ByteOrderMark::None,
        3 => ByteOrderMark::Full,
        _ => ByteOrderMark::Partial,
    };
    (mark, skipped)
}

/// Splits at LF, CR and CRLF (one line end). The text after the last line end is one more line.
fn physical_lines(body: &[u8], start: usize) -> impl Iterator<Item = (usize, &[u8])> {
    let mut at = start;
    let mut done = false;
    std::iter::from_fn(move || {
        if done {
            return None;
        }
        let rest = body.get(at..).unwrap_or_default();
        let line_start = at;
        if let Some(end) = memchr::memchr2(b'\n', b'\r', rest) {
            let line = rest.get(..end).unwrap_or_default();
            let crlf = rest.get(end..end + 2) == Some(b"\r\n");
            at += end + if crlf { 2 } else { 1 };
            Some((line_start, line))
        } else {
            done = true;
            Some((line_start, rest))
        }
    })
}

/// Google's whitespace for trimming (`absl::ascii_isspace`: space, \t, \n, \v, \f, \r).
fn is_space(byte: u8) -> bool {
    matches!(byte, b' ' | b'\t' | b'\n' | 0x0B | 0x0C | b'\r')
}

fn trim(mut bytes: &[u8]) -> &[u8] {
    while let [first, rest @ ..] = bytes {
        if !is_space(*first) {
            break;
        }
        bytes = rest;
    }
    while let [rest @ .., last] = bytes {
        if !is_space(*last) {
            break;
        }
        bytes = rest;
    }
    bytes
}

/// A line split into key and value.
struct KeyValue<'a> {
    key: &'a [u8],
    value: &'a [u8],
    missing_colon: bool,
}

/// What the line holds once the comment is cut: nothing, or a key and value, or neither.
enum Content<'a> {
    Nothing,
    KeyValue(KeyValue<'a>),
    Unparseable,
}

/// Google's `GetKeyAndValueFrom`: `<key>:<value>`, or, with no colon, exactly two tokens
/// separated by spaces or tabs.
fn split_key_value(text: &[u8]) -> Content<'_> {
    if text.is_empty() {
        return Content::Nothing;
    }
    let (key, value, missing_colon) = if let Some(colon) = memchr::memchr(b':', text) {
        let (key, value) = text.split_at(colon);
        (key, value.get(1..).unwrap_or_default(), false)
    } else {
        let is_blank = |byte: &u8| matches!(byte, b' ' | b'\t');
        let Some(gap) = text.iter().position(is_blank) else {
            return Content::Unparseable;
        };
        let (key, rest) = text.split_at(gap);
        let value_start = rest
            .iter()
            .position(|byte| !is_blank(byte))
            .unwrap_or(rest.len());
        let value = rest.get(value_start..).unwrap_or_default();
        if value.iter().any(is_blank) {
            return Content::Unparseable;
        }
        (key, value, true)
    };
    let key = trim(key);
    if key.is_empty() {
        return Content::Unparseable;
    }
    Content::KeyValue(KeyValue {
        key,
        value: trim(value),
        missing_colon,
    })
}

/// Google's `ParsedRobotsKey::Parse`: case-insensitive prefix matches, in this order.
fn classify_key(key: &[u8]) -> (LineKind, Option<KeyMatch>) {
    const NAMES: [(LineKind, &str, &[&str]); 4] = [
        (
            LineKind::UserAgent,
            "user-agent",
            &["useragent", "user agent"],
        ),
        (LineKind::Allow, "allow", &[]),
        (
            LineKind::Disallow,
            "disallow",
            &["dissallow", "dissalow", "disalow", "diasllow", "disallaw"],
        ),
        (LineKind::Sitemap, "sitemap", &["site-map"]),
    ];
    let starts_with = |name: &str| {
        key.get(..name.len())
            .is_some_and(|head| head.eq_ignore_ascii_case(name.as_bytes()))
    };
    for (kind, name, typos) in NAMES {
        if starts_with(name) {
            let how = if key.len() == name.len() {
                KeyMatch::Exact
            } else {
                KeyMatch::Prefix
            };
            return (kind, Some(how));
        }
        if typos.iter().any(|typo| starts_with(typo)) {
            return (kind, Some(KeyMatch::Typo));
        }
    }
    let lower = key.to_ascii_lowercase();
    let known = UNSUPPORTED_KEYS
        .iter()
        .any(|name| name.as_bytes() == lower.as_slice());
    let kind = if known {
        LineKind::Unsupported
    } else {
        LineKind::Unknown
    };
    (kind, None)
}

fn lossy(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Google's `*` test: `*` alone or followed by whitespace (C `isspace`).
fn group_agent(value: &str) -> GroupAgent {
    let bytes = value.as_bytes();
    if bytes.first() == Some(&b'*') && bytes.get(1).is_none_or(|&next| is_space(next)) {
        GroupAgent::Global
    } else {
        GroupAgent::Token(agent_token(value).to_owned())
    }
}

#[derive(Default)]
struct Builder {
    lines: Vec<LineFacts>,
    groups: Vec<Group>,
    sitemaps: Vec<SitemapRef>,
    /// A rule has been added to the last group, so the next user-agent line opens a new one.
    group_has_rule: bool,
}

/// The facts of one physical line, and its value's bytes when it splits into key and value.
fn read_line(number: u32, offset: usize, raw: &[u8]) -> (LineFacts, Option<&[u8]>) {
    let too_long = raw.len() > GOOGLE_MAX_LINE_BYTES;
    let kept = raw.get(..GOOGLE_MAX_LINE_BYTES).unwrap_or(raw);
    // Google's parser works on C strings: a NUL ends the line.
    let nul = memchr::memchr(0, kept);
    let text = nul.and_then(|at| kept.get(..at)).unwrap_or(kept);
    let comment = memchr::memchr(b'#', text);
    let text = trim(comment.and_then(|at| text.get(..at)).unwrap_or(text));
    let mut facts = LineFacts {
        line: number,
        offset,
        kind: LineKind::Blank,
        key: None,
        value: None,
        key_match: None,
        missing_colon: false,
        too_long,
        has_comment: comment.is_some(),
        has_nul: nul.is_some(),
        outside_group: false,
    };
    let mut value = None;
    match split_key_value(text) {
        Content::Nothing if comment.is_some() => facts.kind = LineKind::Comment,
        Content::Nothing => facts.kind = LineKind::Blank,
        Content::Unparseable => facts.kind = LineKind::Unparseable,
        Content::KeyValue(pair) => {
            let (kind, key_match) = classify_key(pair.key);
            facts.kind = kind;
            facts.key_match = key_match;
            facts.missing_colon = pair.missing_colon;
            facts.key = Some(lossy(pair.key));
            facts.value = Some(lossy(pair.value));
            value = Some(pair.value);
        }
    }
    (facts, value)
}

/// The allow and disallow lines of `body` (facts as [`parse`] gives them, but without groups:
/// `outside_group` is never set), and the number of the line that holds byte `at`. One pass,
/// keeping only those lines: a body of millions of other lines costs no memory.
pub(crate) fn rule_lines(body: &[u8], at: usize) -> (Vec<LineFacts>, Option<u32>) {
    let (_, start) = skipped_bom(body);
    let mut rules = Vec::new();
    let mut line_at = None;
    for (number, (offset, raw)) in (1u32..).zip(physical_lines(body, start)) {
        let offset = if number == 1 { 0 } else { offset };
        if offset <= at {
            line_at = Some(number);
        }
        let (facts, _) = read_line(number, offset, raw);
        if matches!(facts.kind, LineKind::Allow | LineKind::Disallow) {
            rules.push(facts);
        }
    }
    (rules, line_at)
}

impl Builder {
    fn line(&mut self, number: u32, offset: usize, raw: &[u8]) {
        let (mut facts, value) = read_line(number, offset, raw);
        if let Some(value) = value {
            self.directive(&mut facts, value);
        }
        self.lines.push(facts);
    }

    /// Google's group state machine: a user-agent line after a rule opens a new group; only an
    /// allow or disallow line inside a group counts as a rule; anything else changes nothing.
    fn directive(&mut self, facts: &mut LineFacts, value: &[u8]) {
        let written = facts.value.clone().unwrap_or_default();
        match facts.kind {
            LineKind::UserAgent => {
                if self.groups.is_empty() || self.group_has_rule {
                    self.groups.push(Group {
                        user_agents: Vec::new(),
                        rules: Vec::new(),
                    });
                    self.group_has_rule = false;
                }
                if let Some(group) = self.groups.last_mut() {
                    group.user_agents.push(UserAgentLine {
                        line: facts.line,
                        agent: group_agent(&written),
                        value: written,
                    });
                }
            }
            LineKind::Allow | LineKind::Disallow => {
                let directive = if facts.kind == LineKind::Allow {
                    Directive::Allow
                } else {
                    Directive::Disallow
                };
                let Some(group) = self.groups.last_mut() else {
                    facts.outside_group = true;
                    return;
                };
                let escaped = escape_pattern(value);
                group.rules.push(Rule {
                    line: facts.line,
                    directive,
                    compiled: CompiledRule::compile(&escaped, directive == Directive::Allow),
                    escaped,
                    pattern: written,
                });
                self.group_has_rule = true;
            }
            LineKind::Sitemap => self.sitemaps.push(SitemapRef {
                line: facts.line,
                url: written,
            }),
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(body: &[u8]) -> Vec<LineKind> {
        parse(body).lines.iter().map(|line| line.kind).collect()
    }

    #[test]
    fn lines_end_at_lf_cr_and_crlf_and_the_last_needs_no_newline() {
        use LineKind::{Allow, Blank, Disallow, UserAgent};
        let expected = vec![UserAgent, Allow, Disallow, Blank, Disallow, Allow];
        for body in [
            &b"User-agent: a\nAllow: /a\nDisallow: /b\n\nDisallow: /c\nAllow: /d"[..],
            b"User-agent: a\r\nAllow: /a\r\nDisallow: /b\r\n\r\nDisallow: /c\r\nAllow: /d",
            b"User-agent: a\rAllow: /a\rDisallow: /b\r\rDisallow: /c\rAllow: /d",
            b"User-agent: a\nAllow: /a\r\nDisallow: /b\r\rDisallow: /c\r\nAllow: /d",
        ] {
            assert_eq!(kinds(body), expected);
        }
        // A final newline ends the last line and starts an empty one.
        assert_eq!(kinds(b"Allow: /\n"), vec![Allow, Blank]);
        assert_eq!(kinds(b""), vec![Blank]);
    }

    #[test]
    fn line_offsets_point_at_each_line_start() {
        let robots = parse(b"a: 1\r\nb: 2\rc: 3\nd: 4");
        let offsets: Vec<usize> = robots.lines.iter().map(|line| line.offset).collect();
        assert_eq!(offsets, vec![0, 6, 11, 16]);
        let with_bom = parse(b"\xEF\xBB\xBFa: 1\nb: 2");
        let offsets: Vec<usize> = with_bom.lines.iter().map(|line| line.offset).collect();
        assert_eq!(offsets, vec![0, 8]);
    }

    #[test]
    fn a_full_or_partial_bom_prefix_is_skipped_and_nothing_else() {
        for (body, mark) in [
            (&b"\xEF\xBB\xBFUser-agent: a"[..], ByteOrderMark::Full),
            (b"\xEF\xBBUser-agent: a", ByteOrderMark::Partial),
            (b"\xEFUser-agent: a", ByteOrderMark::Partial),
        ] {
            let robots = parse(body);
            assert_eq!(robots.byte_order_mark, mark);
            assert_eq!(robots.lines[0].kind, LineKind::UserAgent);
        }
        // A broken BOM leaves garbage in front of the key.
        assert_eq!(kinds(b"\xEF\x11\xBFUser-agent: a")[0], LineKind::Unknown);
        // A second BOM, or one on a later line, is garbage too.
        assert_eq!(
            kinds(b"\xEF\xBB\xBF\xEF\xBB\xBFUser-agent: a")[0],
            LineKind::Unknown
        );
        assert_eq!(
            kinds(b"Allow: /\n\xEF\xBB\xBFUser-agent: a")[1],
            LineKind::Unknown
        );
    }

    #[test]
    fn a_long_line_is_cut_and_the_kept_part_still_applies() {
        let mut body = b"User-agent: *\nDisallow: /".to_vec();
        body.extend(std::iter::repeat_n(b'x', 20_000));
        let robots = parse(&body);
        let facts = &robots.lines[1];
        assert!(facts.too_long);
        assert_eq!(facts.kind, LineKind::Disallow);
        let rule = &robots.groups[0].rules[0];
        assert_eq!(
            rule.escaped.len(),
            GOOGLE_MAX_LINE_BYTES - "Disallow: ".len()
        );
        // Exactly at the limit is not too long.
        let exact = [b"a: ".as_slice(), &vec![b'x'; GOOGLE_MAX_LINE_BYTES - 3]].concat();
        assert!(!parse(&exact).lines[0].too_long);
        let over = [exact.as_slice(), b"x"].concat();
        assert!(parse(&over).lines[0].too_long);
    }

    #[test]
    fn comments_start_at_the_first_hash_even_inside_a_value() {
        let robots = parse(b"User-agent: *\nDisallow: /a#b\n# Disallow: /\n  # x");
        assert_eq!(robots.groups[0].rules.len(), 1);
        assert_eq!(robots.groups[0].rules[0].pattern, "/a");
        assert!(robots.lines[1].has_comment);
        assert_eq!(robots.lines[2].kind, LineKind::Comment);
        assert_eq!(robots.lines[3].kind, LineKind::Comment);
    }

    #[test]
    fn a_nul_byte_ends_the_line() {
        let robots = parse(b"User-agent: *\nDisallow: /a\0junk");
        assert_eq!(robots.groups[0].rules[0].pattern, "/a");
        assert!(robots.lines[1].has_nul);
    }

    #[test]
    fn a_missing_colon_is_accepted_only_with_exactly_two_tokens() {
        let robots = parse(b"User-agent FooBot\nDisallow /x\nDisallow /a /b\nDisallow");
        assert_eq!(robots.lines[0].kind, LineKind::UserAgent);
        assert!(robots.lines[0].missing_colon);
        assert_eq!(robots.lines[1].kind, LineKind::Disallow);
        assert_eq!(robots.lines[1].value.as_deref(), Some("/x"));
        assert_eq!(robots.lines[2].kind, LineKind::Unparseable);
        assert_eq!(robots.lines[3].kind, LineKind::Unparseable);
        assert_eq!(kinds(b": /x")[0], LineKind::Unparseable);
        // Tabs separate too, and surrounding whitespace is trimmed.
        assert_eq!(parse(b"  Disallow\t\t/t  ").groups.len(), 0);
        assert_eq!(kinds(b"  Disallow\t\t/t  ")[0], LineKind::Disallow);
    }

    #[test]
    fn keys_are_case_insensitive_prefixes_with_googles_typos() {
        let cases: [(&[u8], LineKind, KeyMatch); 14] = [
            (b"USER-AGENT: a", LineKind::UserAgent, KeyMatch::Exact),
            (b"user-agents: a", LineKind::UserAgent, KeyMatch::Prefix),
            (b"useragent: a", LineKind::UserAgent, KeyMatch::Typo),
            (b"user agent: a", LineKind::UserAgent, KeyMatch::Typo),
            (b"ALLOW: /", LineKind::Allow, KeyMatch::Exact),
            (b"Disallowed: /", LineKind::Disallow, KeyMatch::Prefix),
            (b"dissallow: /", LineKind::Disallow, KeyMatch::Typo),
            (b"dissalow: /", LineKind::Disallow, KeyMatch::Typo),
            (b"disalow: /", LineKind::Disallow, KeyMatch::Typo),
            (b"diasllow: /", LineKind::Disallow, KeyMatch::Typo),
            (b"disallaw: /", LineKind::Disallow, KeyMatch::Typo),
            (b"Sitemaps: http://x/", LineKind::Sitemap, KeyMatch::Prefix),
            (b"site-map: http://x/", LineKind::Sitemap, KeyMatch::Typo),
            (b"SiteMap: http://x/", LineKind::Sitemap, KeyMatch::Exact),
        ];
        for (line, kind, how) in cases {
            let robots = parse(line);
            assert_eq!(
                robots.lines[0].kind,
                kind,
                "{}",
                String::from_utf8_lossy(line)
            );
            assert_eq!(
                robots.lines[0].key_match,
                Some(how),
                "{}",
                String::from_utf8_lossy(line)
            );
        }
        assert_eq!(kinds(b"crawl-delay: 10")[0], LineKind::Unsupported);
        assert_eq!(kinds(b"Noindex: /x")[0], LineKind::Unsupported);
        assert_eq!(kinds(b"Host: example.com")[0], LineKind::Unsupported);
        assert_eq!(kinds(b"unicorns: yes")[0], LineKind::Unknown);
        assert_eq!(kinds(b"allo: /")[0], LineKind::Unknown);
    }

    #[test]
    fn only_allow_and_disallow_close_a_user_agent_run() {
        let robots = parse(
            b"User-agent: *\nCrawl-delay: 10\nSitemap: https://x.test/s.xml\n\n# c\nUser-agent: BadBot\nDisallow: /\nUser-agent: c\nAllow: /",
        );
        assert_eq!(robots.groups.len(), 2);
        let agents: Vec<_> = robots.groups[0]
            .user_agents
            .iter()
            .map(|ua| ua.line)
            .collect();
        assert_eq!(agents, vec![1, 6]);
        assert_eq!(robots.sitemaps.len(), 1);
    }

    #[test]
    fn rules_before_any_user_agent_belong_to_no_group() {
        let robots = parse(b"Disallow: /a\nAllow: /b\nUser-agent: *\nDisallow: /c");
        assert!(robots.lines[0].outside_group);
        assert!(robots.lines[1].outside_group);
        assert!(!robots.lines[3].outside_group);
        assert_eq!(robots.groups.len(), 1);
        assert_eq!(robots.groups[0].rules.len(), 1);
    }

    #[test]
    fn user_agent_values_are_read_as_google_reads_them() {
        let robots = parse(b"User-agent: * foo\nUser-agent: *bot\nUser-agent: MJ12bot\nUser-agent: Googlebot Images\nUser-agent: *\tx");
        let agents: Vec<_> = robots.groups[0]
            .user_agents
            .iter()
            .map(|ua| ua.agent.clone())
            .collect();
        assert_eq!(
            agents,
            vec![
                GroupAgent::Global,
                GroupAgent::Token(String::new()),
                GroupAgent::Token("MJ".to_owned()),
                GroupAgent::Token("Googlebot".to_owned()),
                GroupAgent::Global,
            ]
        );
    }

    #[test]
    fn rule_values_are_escaped_but_kept_as_written_too() {
        let robots = parse("User-agent: *\nDisallow: /ü/%aa".as_bytes());
        let rule = &robots.groups[0].rules[0];
        assert_eq!(rule.pattern, "/ü/%aa");
        assert_eq!(rule.escaped, "/%C3%BC/%AA");
        assert_eq!(rule.priority(), 11);
        // User-agent and sitemap values are not escaped.
        let robots = parse("Sitemap: https://x.test/ü.xml".as_bytes());
        assert_eq!(robots.sitemaps[0].url, "https://x.test/ü.xml");
    }

    #[test]
    fn sitemaps_are_collected_wherever_they_appear() {
        let robots = parse(b"Sitemap: https://x.test/a.xml\nUser-agent: *\nDisallow: /\nsite-map: https://x.test/b.xml");
        let lines: Vec<_> = robots
            .sitemaps
            .iter()
            .map(|s| (s.line, s.url.as_str()))
            .collect();
        assert_eq!(
            lines,
            vec![(1, "https://x.test/a.xml"), (4, "https://x.test/b.xml")]
        );
    }

    #[test]
    fn rule_lines_are_the_parse_s_rule_lines_and_the_line_holding_a_byte() {
        let body = b"\xEF\xBB\xBFUser-agent: *\r\nDisallow: /a\n\n\n# c\nallow: /b # x\r\nSitemap: /s\nDisalow: /c";
        let parsed = parse(body);
        let expected: Vec<LineFacts> = parsed
            .lines()
            .iter()
            .filter(|line| matches!(line.kind, LineKind::Allow | LineKind::Disallow))
            .cloned()
            .collect();
        for at in [0, 10, 25, 28, body.len() - 1] {
            let (rules, line_at) = rule_lines(body, at);
            assert_eq!(rules, expected);
            let by_parse = parsed
                .lines()
                .iter()
                .rev()
                .find(|line| line.offset <= at)
                .map(|line| line.line);
            assert_eq!(line_at, by_parse, "byte {at}");
        }
    }
}
