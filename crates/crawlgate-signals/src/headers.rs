//! Header signals: `X-Robots-Tag` and draft `Robots-Tag` lines split into rules, and `Link`
//! header canonicals and hreflang alternates.

use super::limits::{MAX_HEADER_VALUE, MAX_RULES_PER_HEADER, MAX_TAGS};
use super::link_header::parse_link_header;
use super::resolve::{resolve, resolve_annotation};
use super::types::{Canonical, HeaderRule, Hreflang, LinkSource, RobotsHeader, Signals};
use super::{PageInput, directives};
use std::sync::Arc;

/// Reads every header line that carries a signal into `signals`.
pub(crate) fn extract_headers(page: &PageInput<'_>, signals: &mut Signals) {
    for line in page.headers {
        if line.is("x-robots-tag") || line.is("robots-tag") {
            let value = bounded(&line.value);
            let rules = if line.is("robots-tag") {
                split_robots_tag(value)
            } else {
                split_x_robots_tag(value)
            };
            signals.robots_headers.push(RobotsHeader {
                name: line.name.clone(),
                value: line.value.clone(),
                rules,
            });
        } else if line.is("link") {
            read_link_header(page, bounded(&line.value), &line.value, signals);
        }
    }
}

/// The first [`MAX_HEADER_VALUE`] bytes of a value, cut on a character boundary.
fn bounded(value: &str) -> &str {
    if value.len() <= MAX_HEADER_VALUE {
        return value;
    }
    let mut end = MAX_HEADER_VALUE;
    while !value.is_char_boundary(end) {
        end -= 1;
    }
    value.get(..end).unwrap_or_default()
}

/// Splits an `X-Robots-Tag` value: comma-separated rules, each optionally prefixed by the
/// crawler it addresses (`googlebot: noindex, nofollow` addresses both to googlebot: a prefix
/// holds until the next one). `unavailable_after: <date>` is a rule, not a prefix, and the comma
/// inside an RFC 850 / RFC 822 date (`Friday, 25-Jun-10 …`) does not split it.
pub(crate) fn split_x_robots_tag(value: &str) -> Vec<HeaderRule> {
    let mut rules: Vec<HeaderRule> = Vec::new();
    let mut bot: Option<String> = None;
    for piece in value.split(',') {
        if rules.len() >= MAX_RULES_PER_HEADER {
            break;
        }
        if let Some(last) = rules.last_mut()
            && continues_date(&last.rule)
        {
            last.rule.push(',');
            last.rule.push_str(piece.trim_end());
            continue;
        }
        let mut piece = piece.trim();
        if let Some((prefix, rest)) = piece.split_once(':')
            && is_bot_prefix(prefix.trim())
        {
            bot = Some(prefix.trim().to_ascii_lowercase());
            piece = rest.trim();
        }
        if !piece.is_empty() {
            rules.push(HeaderRule {
                bot: bot.clone(),
                rule: piece.to_owned(),
            });
        }
    }
    rules
}

/// `unavailable_after: Friday` — the date goes on after a comma.
fn continues_date(rule: &str) -> bool {
    let Some((name, date)) = rule.split_once(':') else {
        return false;
    };
    name.trim().eq_ignore_ascii_case("unavailable_after")
        && matches!(
            date.trim().to_ascii_lowercase().as_str(),
            "mon"
                | "tue"
                | "wed"
                | "thu"
                | "fri"
                | "sat"
                | "sun"
                | "monday"
                | "tuesday"
                | "wednesday"
                | "thursday"
                | "friday"
                | "saturday"
                | "sunday"
        )
}

/// A product token (`googlebot`, `Googlebot-News`) that is not itself a rule name.
fn is_bot_prefix(candidate: &str) -> bool {
    !candidate.is_empty()
        && candidate
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_' || b == b'.')
        && !directives::is_rule_name(candidate)
}

/// Splits a draft `Robots-Tag` value (an RFC 8941 list: `*;noindex;nosnippet, ExampleBot;`,
/// rules as parameters of a product token, `max-snippet=20`). A member without `;` is read the
/// `X-Robots-Tag` way, since sites write `Robots-Tag: noindex` meaning exactly that.
pub(crate) fn split_robots_tag(value: &str) -> Vec<HeaderRule> {
    let mut rules = Vec::new();
    for member in split_outside_quotes(value, ',') {
        if rules.len() >= MAX_RULES_PER_HEADER {
            break;
        }
        if !member.contains(';') {
            rules.extend(split_x_robots_tag(member));
            continue;
        }
        let mut parts = split_outside_quotes(member, ';').into_iter();
        let token = unquote(parts.next().unwrap_or_default().trim());
        let bot = (token != "*").then(|| token.to_ascii_lowercase());
        for parameter in parts {
            let parameter = parameter.trim();
            if parameter.is_empty() {
                continue;
            }
            let rule = match parameter.split_once('=') {
                Some((key, value)) => format!("{}:{}", key.trim(), unquote(value.trim())),
                None => parameter.to_owned(),
            };
            rules.push(HeaderRule {
                bot: bot.clone(),
                rule,
            });
        }
    }
    rules.truncate(MAX_RULES_PER_HEADER);
    rules
}

fn split_outside_quotes(text: &str, separator: char) -> Vec<&str> {
    let mut parts = Vec::new();
    let mut in_quotes = false;
    let mut escaped = false;
    let mut start = 0;
    for (index, c) in text.char_indices() {
        match c {
            _ if escaped => escaped = false,
            '\\' if in_quotes => escaped = true,
            '"' => in_quotes = !in_quotes,
            c if c == separator && !in_quotes => {
                parts.push(text.get(start..index).unwrap_or_default());
                start = index + c.len_utf8();
            }
            _ => {}
        }
    }
    parts.push(text.get(start..).unwrap_or_default());
    parts
}

fn unquote(text: &str) -> String {
    match text
        .strip_prefix('"')
        .and_then(|inner| inner.strip_suffix('"'))
    {
        Some(inner) => inner.replace("\\\"", "\"").replace("\\\\", "\\"),
        None => text.to_owned(),
    }
}

/// Canonicals and hreflang alternates from one `Link` header line. Relative targets resolve
/// against the final URL (never `<base href>`); links with an `anchor` naming another resource
/// describe that resource, not this page, and are skipped.
fn read_link_header(page: &PageInput<'_>, value: &str, whole_value: &str, signals: &mut Signals) {
    for link in parse_link_header(value) {
        if let Some(anchor) = link.param("anchor")
            && resolve(page.url, anchor).as_ref() != Some(page.url)
        {
            continue;
        }
        let source = || LinkSource::Header {
            value: whole_value.to_owned(),
        };
        if link.has_rel("canonical") {
            if signals.canonicals.len() < MAX_TAGS {
                signals.canonicals.push(Canonical {
                    resolved: resolve_annotation(page.url, &link.target).map(Arc::new),
                    href: link.target.as_str().into(),
                    source: source(),
                });
            } else {
                signals.truncated = true;
            }
        }
        if link.has_rel("alternate")
            && let Some(hreflang) = link.param("hreflang")
        {
            if signals.hreflang.len() < MAX_TAGS {
                signals.hreflang.push(Hreflang {
                    hreflang: hreflang.to_owned(),
                    resolved: resolve_annotation(page.url, &link.target),
                    href: link.target.clone(),
                    source: source(),
                });
            } else {
                signals.truncated = true;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules(value: &str) -> Vec<(Option<&str>, String)> {
        leak(split_x_robots_tag(value))
    }

    fn leak(rules: Vec<HeaderRule>) -> Vec<(Option<&'static str>, String)> {
        rules
            .into_iter()
            .map(|r| (r.bot.map(|b| &*Box::leak(b.into_boxed_str())), r.rule))
            .collect()
    }

    #[test]
    fn unprefixed_rules() {
        assert_eq!(
            rules("noindex, NOFOLLOW ,, max-snippet: 20"),
            [
                (None, "noindex".into()),
                (None, "NOFOLLOW".into()),
                (None, "max-snippet: 20".into())
            ]
        );
    }

    #[test]
    fn bot_prefix_holds_until_the_next_one() {
        assert_eq!(
            rules("GoogleBot: noindex, nofollow, otherbot: noarchive"),
            [
                (Some("googlebot"), "noindex".into()),
                (Some("googlebot"), "nofollow".into()),
                (Some("otherbot"), "noarchive".into())
            ]
        );
    }

    #[test]
    fn unavailable_after_is_not_a_prefix_and_keeps_its_comma() {
        assert_eq!(
            rules("unavailable_after: Friday, 25-Jun-10 15:00:00 GMT, noindex"),
            [
                (
                    None,
                    "unavailable_after: Friday, 25-Jun-10 15:00:00 GMT".into()
                ),
                (None, "noindex".into())
            ]
        );
        assert_eq!(
            rules("googlebot: unavailable_after: 25 Jun 2010 15:00:00 PST"),
            [(
                Some("googlebot"),
                "unavailable_after: 25 Jun 2010 15:00:00 PST".into()
            )]
        );
        assert_eq!(
            rules("max-image-preview: large"),
            [(None, "max-image-preview: large".into())]
        );
    }

    #[test]
    fn draft_robots_tag_structured_list() {
        assert_eq!(
            leak(split_robots_tag(
                r#"*;noindex;nosnippet, ExampleBot;, other;max-snippet=20;unavailable_after="2030-01-01""#
            )),
            [
                (None, "noindex".into()),
                (None, "nosnippet".into()),
                (Some("other"), "max-snippet:20".into()),
                (Some("other"), "unavailable_after:2030-01-01".into())
            ]
        );
        assert_eq!(
            leak(split_robots_tag("noindex, googlebot: nofollow")),
            [
                (None, "noindex".into()),
                (Some("googlebot"), "nofollow".into())
            ]
        );
    }

    #[test]
    fn rules_per_header_are_bounded() {
        assert_eq!(
            split_x_robots_tag(&"noindex,".repeat(5000)).len(),
            MAX_RULES_PER_HEADER
        );
        assert_eq!(
            split_robots_tag(&"*;noindex;".repeat(5000)).len(),
            MAX_RULES_PER_HEADER
        );
        let long = "é".repeat(MAX_HEADER_VALUE);
        assert!(bounded(&long).len() <= MAX_HEADER_VALUE);
    }
}
