//! Effective robots rules for one crawler profile.
//!
//! Google: "the search engine will use the sum of the negative rules" across every robots meta
//! tag and header line that applies to the crawler, and "the more restrictive rule applies"
//! (`nosnippet` beats `max-snippet:50`). Meta tags in `<body>` count too. Every rule keeps the
//! tag or header line it came from, so findings can quote it.

use super::datetime::parse_unavailable_after;
use super::limits::{MAX_QUOTED_SOURCE, MAX_RULES_PER_HEADER, MAX_RULES_PER_PAGE};
use super::profile::Profile;
use super::types::Signals;
use jiff::Timestamp;
use serde::{Deserialize, Serialize};

/// Where a rule was read.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "via", rename_all = "snake_case")]
pub enum DirectiveSource {
    /// A `<meta name=… content=…>` tag.
    MetaTag {
        name: String,
        content: String,
        line: Option<u32>,
        in_head: bool,
        raw: String,
    },
    /// An `X-Robots-Tag` or `Robots-Tag` header line.
    Header { name: String, value: String },
}

/// `max-image-preview` values, least preview first (so the minimum is the most restrictive).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ImagePreview {
    None,
    Standard,
    Large,
}

/// One robots rule, read.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "rule", content = "value", rename_all = "snake_case")]
pub enum RobotsRule {
    /// `all`: no restriction (the default).
    All,
    /// `index`: not a Google rule, but the explicit form of the default.
    Index,
    /// `follow`: likewise.
    Follow,
    NoIndex,
    NoFollow,
    /// `none`: noindex and nofollow.
    None,
    NoSnippet,
    /// Only effective together with noindex.
    IndexIfEmbedded,
    NoTranslate,
    NoImageIndex,
    /// `max-snippet:N`; `-1` is no limit, `0` is nosnippet.
    MaxSnippet(i64),
    MaxImagePreview(ImagePreview),
    /// `max-video-preview:N`; `-1` is no limit, `0` is a static image.
    MaxVideoPreview(i64),
    /// `unavailable_after:<date>`, parsed.
    UnavailableAfter(Timestamp),
    /// A rule Google no longer uses (`noarchive`, `nocache`, `nositelinkssearchbox`, `noodp`,
    /// `noydir`); the lowercase name.
    Obsolete(String),
    /// A known rule with a value Google cannot read (`max-snippet:ten`, an unparseable date):
    /// ignored. The lowercase rule name.
    Invalid(String),
    /// Not a rule Google knows: silently ignored.
    Unknown,
}

/// Rules without a value.
const VALUELESS: [(&str, RobotsRule); 10] = [
    ("all", RobotsRule::All),
    ("index", RobotsRule::Index),
    ("follow", RobotsRule::Follow),
    ("noindex", RobotsRule::NoIndex),
    ("nofollow", RobotsRule::NoFollow),
    ("none", RobotsRule::None),
    ("nosnippet", RobotsRule::NoSnippet),
    ("indexifembedded", RobotsRule::IndexIfEmbedded),
    ("notranslate", RobotsRule::NoTranslate),
    ("noimageindex", RobotsRule::NoImageIndex),
];
const WITH_VALUE: [&str; 4] = [
    "max-snippet",
    "max-image-preview",
    "max-video-preview",
    "unavailable_after",
];
const OBSOLETE: [&str; 5] = [
    "noarchive",
    "nocache",
    "nositelinkssearchbox",
    "noodp",
    "noydir",
];

/// Whether `name` is a rule name (known, valued or obsolete), ASCII case-insensitively. Header
/// splitting uses it: `max-snippet: 20` is a rule, `googlebot: noindex` a crawler prefix.
pub(crate) fn is_rule_name(name: &str) -> bool {
    let name = name.to_ascii_lowercase();
    VALUELESS.iter().any(|(known, _)| *known == name)
        || WITH_VALUE.contains(&name.as_str())
        || OBSOLETE.contains(&name.as_str())
}

impl RobotsRule {
    /// Reads one rule token (`noindex`, `max-snippet: 20`, `unavailable_after: 2030-01-01`).
    pub fn parse(token: &str) -> RobotsRule {
        let token = token.trim();
        let (name, value) = match token.split_once(':') {
            Some((name, value)) => (name.trim(), Some(value.trim())),
            None => (token, None),
        };
        let name = name.to_ascii_lowercase();
        if let Some((_, rule)) = VALUELESS.iter().find(|(known, _)| *known == name) {
            // `noindex:` with an empty value is still noindex; with a value it is not a rule.
            return match value {
                None | Some("") => rule.clone(),
                Some(_) => RobotsRule::Invalid(name),
            };
        }
        if OBSOLETE.contains(&name.as_str()) {
            return RobotsRule::Obsolete(name);
        }
        let Some(value) = value else {
            return if WITH_VALUE.contains(&name.as_str()) {
                RobotsRule::Invalid(name)
            } else {
                RobotsRule::Unknown
            };
        };
        let parsed = match name.as_str() {
            "max-snippet" => preview_length(value).map(RobotsRule::MaxSnippet),
            "max-video-preview" => preview_length(value).map(RobotsRule::MaxVideoPreview),
            "max-image-preview" => match value.to_ascii_lowercase().as_str() {
                "none" => Some(RobotsRule::MaxImagePreview(ImagePreview::None)),
                "standard" => Some(RobotsRule::MaxImagePreview(ImagePreview::Standard)),
                "large" => Some(RobotsRule::MaxImagePreview(ImagePreview::Large)),
                _ => None,
            },
            "unavailable_after" => parse_unavailable_after(value).map(RobotsRule::UnavailableAfter),
            _ => return RobotsRule::Unknown,
        };
        parsed.unwrap_or(RobotsRule::Invalid(name))
    }
}

/// A `max-snippet` / `max-video-preview` number: an integer, at least -1.
fn preview_length(value: &str) -> Option<i64> {
    value.parse::<i64>().ok().filter(|length| *length >= -1)
}

/// One rule that applies to the profile, with its evidence.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Directive {
    pub rule: RobotsRule,
    /// The rule as written, trimmed (`max-snippet: 20`).
    pub token: String,
    pub source: DirectiveSource,
    /// The crawler the rule is addressed to, lowercase: the meta name when it is not `robots`
    /// (`<meta name="googlebot">`), or the header prefix (`X-Robots-Tag: googlebot: noindex`).
    /// `None` for rules addressed to every crawler. Google sums both kinds, so a crawler-specific
    /// `index` cannot undo a generic `noindex` (`directives/bot-override-ineffective`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bot: Option<String>,
}

/// `unavailable_after`, judged against the audit time.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct UnavailableAfter {
    pub instant: Timestamp,
    /// The rule as written.
    pub raw: String,
    /// At or before the audit time: the page counts as noindex.
    pub is_past: bool,
    pub source: DirectiveSource,
}

/// The robots rules that apply to one profile, summed over every applicable source.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Directives {
    /// The profile's name.
    pub profile: String,
    pub audit_time: Timestamp,
    /// Every applicable rule: meta tags in document order, then header lines in order.
    pub rules: Vec<Directive>,
}

impl Directives {
    /// Sums the rules of every robots meta tag whose name the profile reads (head or body) and
    /// every header rule unprefixed or addressed to the profile, up to
    /// [`MAX_RULES_PER_PAGE`](super::limits::MAX_RULES_PER_PAGE) rules. Sources quote at most
    /// [`MAX_QUOTED_SOURCE`](super::limits::MAX_QUOTED_SOURCE) bytes of a tag's content or a
    /// header's value.
    pub fn for_profile(signals: &Signals, profile: &Profile, audit_time: Timestamp) -> Directives {
        let mut rules = Vec::new();
        for meta in signals
            .meta_robots
            .iter()
            .filter(|meta| profile.reads_meta_name(&meta.name))
        {
            let bot =
                (!meta.name.eq_ignore_ascii_case("robots")).then(|| meta.name.to_ascii_lowercase());
            let source = DirectiveSource::MetaTag {
                name: meta.name.clone(),
                content: clipped(&meta.content),
                line: meta.line,
                in_head: meta.in_head,
                raw: clipped(&meta.raw),
            };
            for token in meta
                .content
                .split(',')
                .map(str::trim)
                .filter(|token| !token.is_empty())
                .take(MAX_RULES_PER_HEADER)
            {
                if rules.len() >= MAX_RULES_PER_PAGE {
                    break;
                }
                rules.push(Directive {
                    rule: RobotsRule::parse(token),
                    token: token.to_owned(),
                    source: source.clone(),
                    bot: bot.clone(),
                });
            }
        }
        for header in &signals.robots_headers {
            let source = DirectiveSource::Header {
                name: header.name.clone(),
                value: clipped(&header.value),
            };
            for rule in header
                .rules
                .iter()
                .filter(|rule| profile.reads_header_bot(rule.bot.as_deref()))
            {
                if rules.len() >= MAX_RULES_PER_PAGE {
                    break;
                }
                rules.push(Directive {
                    rule: RobotsRule::parse(&rule.rule),
                    token: rule.rule.clone(),
                    source: source.clone(),
                    bot: rule.bot.clone(),
                });
            }
        }
        Directives {
            profile: profile.name.clone(),
            audit_time,
            rules,
        }
    }

    fn matching(&self, wanted: impl Fn(&RobotsRule) -> bool) -> Vec<&Directive> {
        self.rules
            .iter()
            .filter(|directive| wanted(&directive.rule))
            .collect()
    }

    /// `noindex`, `none`, or an `unavailable_after` at or before the audit time.
    pub fn is_noindex(&self) -> bool {
        !self.noindex_sources().is_empty()
    }

    /// The rules that make the page noindex.
    pub fn noindex_sources(&self) -> Vec<&Directive> {
        self.matching(|rule| match rule {
            RobotsRule::NoIndex | RobotsRule::None => true,
            RobotsRule::UnavailableAfter(instant) => *instant <= self.audit_time,
            _ => false,
        })
    }

    /// `nofollow` or `none`.
    pub fn is_nofollow(&self) -> bool {
        !self.nofollow_sources().is_empty()
    }

    /// The rules that make the page nofollow.
    pub fn nofollow_sources(&self) -> Vec<&Directive> {
        self.matching(|rule| matches!(rule, RobotsRule::NoFollow | RobotsRule::None))
    }

    /// `nosnippet` or `max-snippet:0`.
    pub fn is_nosnippet(&self) -> bool {
        !self.nosnippet_sources().is_empty()
    }

    /// The rules that remove the snippet.
    pub fn nosnippet_sources(&self) -> Vec<&Directive> {
        self.matching(|rule| matches!(rule, RobotsRule::NoSnippet | RobotsRule::MaxSnippet(0)))
    }

    /// Explicit `all`, `index` or `follow`: no effect, but they conflict with a restriction
    /// elsewhere (`directives/meta-header-conflict`, `directives/bot-override-ineffective`).
    pub fn explicit_allows(&self) -> Vec<&Directive> {
        self.matching(|rule| {
            matches!(
                rule,
                RobotsRule::All | RobotsRule::Index | RobotsRule::Follow
            )
        })
    }

    /// The effective `max-snippet`: the smallest limit, `-1` only if every value is `-1`.
    pub fn max_snippet(&self) -> Option<i64> {
        most_restrictive_length(self.rules.iter().filter_map(|d| match d.rule {
            RobotsRule::MaxSnippet(length) => Some(length),
            _ => None,
        }))
    }

    /// The effective `max-video-preview`, like [`Directives::max_snippet`].
    pub fn max_video_preview(&self) -> Option<i64> {
        most_restrictive_length(self.rules.iter().filter_map(|d| match d.rule {
            RobotsRule::MaxVideoPreview(length) => Some(length),
            _ => None,
        }))
    }

    /// The effective `max-image-preview`: the smallest.
    pub fn max_image_preview(&self) -> Option<ImagePreview> {
        self.rules
            .iter()
            .filter_map(|d| match d.rule {
                RobotsRule::MaxImagePreview(preview) => Some(preview),
                _ => None,
            })
            .min()
    }

    /// The `max-snippet`, `max-image-preview` and `max-video-preview` rules, for evidence.
    pub fn preview_sources(&self) -> Vec<&Directive> {
        self.matching(|rule| {
            matches!(
                rule,
                RobotsRule::MaxSnippet(_)
                    | RobotsRule::MaxImagePreview(_)
                    | RobotsRule::MaxVideoPreview(_)
            )
        })
    }

    /// `noimageindex` rules.
    pub fn noimageindex_sources(&self) -> Vec<&Directive> {
        self.matching(|rule| *rule == RobotsRule::NoImageIndex)
    }

    /// Whether `noimageindex` applies.
    pub fn is_noimageindex(&self) -> bool {
        !self.noimageindex_sources().is_empty()
    }

    /// `indexifembedded` rules.
    pub fn indexifembedded_sources(&self) -> Vec<&Directive> {
        self.matching(|rule| *rule == RobotsRule::IndexIfEmbedded)
    }

    /// Whether `indexifembedded` applies (it only matters together with noindex).
    pub fn is_indexifembedded(&self) -> bool {
        !self.indexifembedded_sources().is_empty()
    }

    /// Whether `notranslate` applies.
    pub fn is_notranslate(&self) -> bool {
        self.rules
            .iter()
            .any(|directive| directive.rule == RobotsRule::NoTranslate)
    }

    /// The earliest valid `unavailable_after`, judged against the audit time.
    pub fn unavailable_after(&self) -> Option<UnavailableAfter> {
        self.rules
            .iter()
            .filter_map(|directive| match directive.rule {
                RobotsRule::UnavailableAfter(instant) => Some((instant, directive)),
                _ => None,
            })
            .min_by_key(|(instant, _)| *instant)
            .map(|(instant, directive)| UnavailableAfter {
                instant,
                raw: directive.token.clone(),
                is_past: instant <= self.audit_time,
                source: directive.source.clone(),
            })
    }

    /// Tokens that are not robots rules (silently ignored by Google).
    pub fn unknown(&self) -> Vec<&Directive> {
        self.matching(|rule| *rule == RobotsRule::Unknown)
    }

    /// Rules Google no longer uses.
    pub fn obsolete(&self) -> Vec<&Directive> {
        self.matching(|rule| matches!(rule, RobotsRule::Obsolete(_)))
    }

    /// Known rules with unreadable values (ignored).
    pub fn invalid(&self) -> Vec<&Directive> {
        self.matching(|rule| matches!(rule, RobotsRule::Invalid(_)))
    }
}

/// The first [`MAX_QUOTED_SOURCE`] bytes of `text`, cut on a character boundary.
fn clipped(text: &str) -> String {
    let mut end = text.len().min(MAX_QUOTED_SOURCE);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    text.get(..end).unwrap_or_default().to_owned()
}

/// The smallest non-negative length, else `-1` (no limit) if that is all there is.
fn most_restrictive_length(lengths: impl Iterator<Item = i64>) -> Option<i64> {
    lengths.fold(None, |best, length| match best {
        None | Some(-1) => Some(length),
        Some(current) if length >= 0 => Some(current.min(length)),
        Some(current) => Some(current),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_every_documented_rule() {
        let cases = [
            ("all", RobotsRule::All),
            ("NOINDEX", RobotsRule::NoIndex),
            (" nofollow ", RobotsRule::NoFollow),
            ("none", RobotsRule::None),
            ("nosnippet", RobotsRule::NoSnippet),
            ("indexifembedded", RobotsRule::IndexIfEmbedded),
            ("notranslate", RobotsRule::NoTranslate),
            ("noimageindex", RobotsRule::NoImageIndex),
            ("max-snippet:20", RobotsRule::MaxSnippet(20)),
            ("max-snippet : -1", RobotsRule::MaxSnippet(-1)),
            ("max-video-preview:0", RobotsRule::MaxVideoPreview(0)),
            (
                "max-image-preview:Large",
                RobotsRule::MaxImagePreview(ImagePreview::Large),
            ),
            (
                "unavailable_after: 2020-09-21",
                RobotsRule::UnavailableAfter("2020-09-21T00:00:00Z".parse().unwrap()),
            ),
            ("noarchive", RobotsRule::Obsolete("noarchive".into())),
            ("NoCache", RobotsRule::Obsolete("nocache".into())),
            ("max-snippet:ten", RobotsRule::Invalid("max-snippet".into())),
            ("max-snippet:-2", RobotsRule::Invalid("max-snippet".into())),
            ("max-snippet", RobotsRule::Invalid("max-snippet".into())),
            (
                "max-image-preview:huge",
                RobotsRule::Invalid("max-image-preview".into()),
            ),
            (
                "unavailable_after: soon",
                RobotsRule::Invalid("unavailable_after".into()),
            ),
            ("noindex: yes", RobotsRule::Invalid("noindex".into())),
            ("noindex:", RobotsRule::NoIndex),
            ("no-index", RobotsRule::Unknown),
            ("noindex nofollow", RobotsRule::Unknown),
        ];
        for (token, expected) in cases {
            assert_eq!(RobotsRule::parse(token), expected, "{token:?}");
        }
    }

    #[test]
    fn length_restrictions() {
        assert_eq!(most_restrictive_length([-1, 50, 20].into_iter()), Some(20));
        assert_eq!(most_restrictive_length([50, -1].into_iter()), Some(50));
        assert_eq!(most_restrictive_length([-1].into_iter()), Some(-1));
        assert_eq!(most_restrictive_length(std::iter::empty()), None);
    }

    #[test]
    fn a_page_repeating_rules_is_read_up_to_the_cap() {
        use crate::types::{MetaRobots, Signals};
        let content = ["noindex"; 300].join(", ") + &" ".repeat(20_000) + "é";
        let tag = MetaRobots {
            name: "robots".into(),
            content: content.clone(),
            raw: format!("<meta name=robots content=\"{content}\">"),
            line: Some(1),
            in_head: true,
        };
        let signals = Signals {
            meta_robots: crate::thin_vec![tag; 10],
            ..Signals::default()
        };
        let directives =
            Directives::for_profile(&signals, &Profile::googlebot(), Timestamp::UNIX_EPOCH);
        // 256 rules from each tag, until the page cap.
        assert_eq!(directives.rules.len(), MAX_RULES_PER_PAGE);
        assert!(directives.is_noindex());
        let DirectiveSource::MetaTag { content, raw, .. } = &directives.rules[0].source else {
            panic!("a meta tag source");
        };
        assert_eq!(content.len(), MAX_QUOTED_SOURCE);
        assert!(raw.len() <= MAX_QUOTED_SOURCE);
        // Cut on a character boundary: 8,192 is not a multiple of the 3 bytes of `€`.
        assert_eq!(clipped(&"€".repeat(5_000)).len(), 8_190);
    }

    #[test]
    fn rule_names() {
        assert!(is_rule_name("Max-Snippet"));
        assert!(is_rule_name("unavailable_after"));
        assert!(is_rule_name("noarchive"));
        assert!(!is_rule_name("googlebot"));
    }
}
