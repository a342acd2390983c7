//! A URL's robots.txt verdict for one profile, with what decided it.

use crate::finding::Evidence;
use crate::robots::{AgentRules, GroupSelection, MatchedRule};
use crate::signals::Profile;
use crate::site::robots_file::{RobotsEffect, RobotsFile};
use serde::{Deserialize, Serialize};
use std::borrow::Cow;
use std::sync::Arc;
use url::{Position, Url};

/// Whether a profile may crawl a URL, and why.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct UrlVerdict {
    pub allowed: bool,
    /// The robots.txt consulted (`{origin}/robots.txt`).
    pub robots_url: String,
    /// What the robots.txt fetch outcome means; `None` when it was not fetched (the URL's origin is
    /// outside the crawl), in which case the verdict is "allowed" by default and not evidence.
    pub effect: Option<RobotsEffect>,
    /// The rule that decided, when the file's rules decided.
    pub decided_by: Option<MatchedRule>,
    /// Which group applied, when the file's rules decided.
    pub group: Option<GroupSelection>,
}

impl UrlVerdict {
    /// Evaluate `url` for `profile` against its origin's robots.txt.
    pub fn compute(robots: Option<&RobotsFile>, profile: &Profile, url: &Url) -> Self {
        let Some(robots) = robots else {
            return Self::unknown(url);
        };
        match robots.effect {
            RobotsEffect::Rules => {
                let tokens: Vec<&str> = profile.robots_tokens.iter().map(String::as_str).collect();
                Self::with_rules(robots, &robots.parsed.agent(&tokens), url)
            }
            effect => Self {
                allowed: effect == RobotsEffect::AllowAll,
                robots_url: robots.url.to_string(),
                effect: Some(effect),
                decided_by: None,
                group: None,
            },
        }
    }

    /// Evaluate `url` with rules already compiled from `robots` (whose fetch gave
    /// [`RobotsEffect::Rules`]): the same verdict as [`UrlVerdict::compute`], without compiling
    /// the crawler's rules again for every URL.
    pub fn with_rules(robots: &RobotsFile, agent: &AgentRules<'_>, url: &Url) -> Self {
        let verdict = agent.verdict(path_and_query(url));
        Self {
            allowed: verdict.allowed,
            robots_url: robots.url.to_string(),
            effect: Some(RobotsEffect::Rules),
            decided_by: verdict.decided_by,
            group: Some(verdict.group),
        }
    }

    /// The verdict for a URL whose robots.txt was not fetched: allowed, with no evidence.
    pub fn unknown(url: &Url) -> Self {
        Self {
            allowed: true,
            robots_url: robots_url_of(url),
            effect: None,
            decided_by: None,
            group: None,
        }
    }

    /// Evidence for this verdict: the deciding rule, or what the fetch outcome or absence of a
    /// matching rule means.
    pub fn evidence(&self, profile: &str, robots: Option<&RobotsFile>) -> Evidence {
        if let Some(rule) = &self.decided_by {
            let group = self
                .group
                .as_ref()
                .map(|g| group_agents(g, robots))
                .unwrap_or_default();
            return Evidence::RobotsRule {
                robots_url: self.robots_url.clone(),
                line: rule.line,
                group,
                directive: rule.directive.to_string(),
                pattern: rule.pattern.clone(),
            };
        }
        match (self.effect, robots) {
            (Some(RobotsEffect::Rules) | None, _) | (_, None) => Evidence::RobotsVerdict {
                robots_url: self.robots_url.clone(),
                profile: profile.to_owned(),
                allowed: self.allowed,
                reason: if self.effect.is_some() {
                    "no rule of the applicable group matches".to_owned()
                } else {
                    "robots.txt was not fetched (outside the crawl)".to_owned()
                },
            },
            (Some(_), Some(robots)) => robots.fetch_evidence(),
        }
    }
}

/// The user-agent values of the group that applied, as written in the file (`*` for global), each
/// once: groups merged from several places in the file repeat their user-agent lines.
fn group_agents(group: &GroupSelection, robots: Option<&RobotsFile>) -> Vec<String> {
    let mut from_file: Vec<String> = Vec::new();
    if let Some(robots) = robots {
        for text in group
            .user_agent_lines
            .iter()
            .filter_map(|&line| robots.line_text(line))
        {
            let agent = user_agent_value(&text);
            if !from_file.contains(&agent) {
                from_file.push(agent);
            }
        }
    }
    if !from_file.is_empty() {
        from_file
    } else if let Some(token) = &group.token {
        vec![token.clone()]
    } else {
        vec!["*".to_owned()]
    }
}

/// `User-agent: Googlebot # main` → `Googlebot`.
fn user_agent_value(line: &str) -> String {
    let without_comment = line.split('#').next().unwrap_or("");
    without_comment
        .split_once(':')
        .map_or(without_comment, |(_, value)| value)
        .trim()
        .to_owned()
}

/// The path and query of a URL as the `url` crate serialises them (percent-encoded, as Googlebot's
/// URL pipeline has them), the input of robots.txt matching in audits.
pub fn path_and_query(url: &Url) -> &str {
    &url[Position::BeforePath..Position::AfterQuery]
}

/// `{origin}/robots.txt` for a URL.
pub fn robots_url_of(url: &Url) -> String {
    format!("{}/robots.txt", origin_of(url))
}

/// The origin of a URL as `Origin::ascii_serialization` writes it (`scheme://host[:port]`), the
/// key of a site's robots.txt files. For http(s) URLs without credentials that is the start of
/// the URL's own text, so it is borrowed: the crawl asks for it several times per URL, and
/// formatting a new string each time cost 5% of a crawl's instructions (callgrind).
pub fn origin_of(url: &Url) -> Cow<'_, str> {
    if matches!(url.scheme(), "http" | "https")
        && url.has_host()
        && url.username().is_empty()
        && url.password().is_none()
    {
        Cow::Borrowed(&url[..Position::BeforePath])
    } else {
        Cow::Owned(url.origin().ascii_serialization())
    }
}

/// Verdicts for many URLs, each origin's rules compiled once per profile (compiling the rules
/// that apply to a crawler is the costly part of a check).
pub struct VerdictCache<'a> {
    robots: &'a std::collections::BTreeMap<String, RobotsFile>,
    profiles: &'a [Profile],
    compiled: foldhash::HashMap<String, Vec<AgentRules<'a>>>,
    /// Each distinct set of verdicts once: a site's URLs share a handful (one per deciding rule
    /// and origin), and a copy per URL was a tenth of a large crawl's memory.
    shared: foldhash::HashSet<Arc<[UrlVerdict]>>,
}

impl<'a> VerdictCache<'a> {
    /// A cache over the robots.txt files of a crawl (by origin) for these profiles.
    pub fn new(
        robots: &'a std::collections::BTreeMap<String, RobotsFile>,
        profiles: &'a [Profile],
    ) -> Self {
        Self {
            robots,
            profiles,
            compiled: foldhash::HashMap::default(),
            shared: foldhash::HashSet::default(),
        }
    }

    /// [`VerdictCache::verdicts`], shared with every other URL that has the same verdicts.
    pub fn shared_verdicts(&mut self, url: &Url) -> Arc<[UrlVerdict]> {
        let verdicts = self.verdicts(url);
        if let Some(shared) = self.shared.get(verdicts.as_slice()) {
            return Arc::clone(shared);
        }
        let shared: Arc<[UrlVerdict]> = verdicts.into();
        self.shared.insert(Arc::clone(&shared));
        shared
    }

    /// The verdict on `url` for every profile, in profile order.
    pub fn verdicts(&mut self, url: &Url) -> Vec<UrlVerdict> {
        let origin = origin_of(url);
        let Some(robots) = self.robots.get(origin.as_ref()) else {
            return self
                .profiles
                .iter()
                .map(|_| UrlVerdict::unknown(url))
                .collect();
        };
        if robots.effect != RobotsEffect::Rules {
            return self
                .profiles
                .iter()
                .map(|profile| UrlVerdict::compute(Some(robots), profile, url))
                .collect();
        }
        if !self.compiled.contains_key(origin.as_ref()) {
            let agents = self
                .profiles
                .iter()
                .map(|profile| {
                    let tokens: Vec<&str> =
                        profile.robots_tokens.iter().map(String::as_str).collect();
                    robots.parsed.agent(&tokens)
                })
                .collect();
            self.compiled.insert(origin.to_string(), agents);
        }
        self.compiled[origin.as_ref()]
            .iter()
            .map(|agent| UrlVerdict::with_rules(robots, agent, url))
            .collect()
    }
}

impl std::fmt::Debug for VerdictCache<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("VerdictCache")
            .field("origins_compiled", &self.compiled.len())
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::site::Received;

    #[test]
    fn origin_of_writes_what_the_url_crate_writes() {
        for url in [
            "http://a.test/x?y#z",
            "https://A.Test:443/",
            "http://a.test:8080",
            "http://user:pw@a.test:81/p",
            "http://[::1]:3000/",
            "http://127.0.0.1/",
            "https://bücher.example/",
            "ftp://a.test/file",
            "data:text/plain,x",
        ] {
            let url = Url::parse(url).unwrap();
            assert_eq!(origin_of(&url), url.origin().ascii_serialization(), "{url}");
        }
    }

    #[test]
    fn path_and_query_is_the_path_then_the_query() {
        for (url, expected) in [
            ("http://a.test", "/"),
            ("http://a.test/x/y?q=1&r#frag", "/x/y?q=1&r"),
            ("http://a.test/x?", "/x?"),
            ("http://a.test/ä b?ü", "/%C3%A4%20b?%C3%BC"),
        ] {
            assert_eq!(path_and_query(&Url::parse(url).unwrap()), expected, "{url}");
        }
    }

    #[test]
    fn verdicts_with_precompiled_rules_equal_computed_ones() {
        let robots = RobotsFile::from_fetch(
            "http://a.test".to_owned(),
            Url::parse("http://a.test/robots.txt").unwrap(),
            Vec::new(),
            Ok(Received::for_test(
                200,
                b"User-agent: *\nDisallow: /x\nUser-agent: googlebot\nDisallow: /y\n",
            )),
        );
        let profile = Profile::googlebot();
        let agent = robots.parsed.agent(&["googlebot"]);
        for path in ["/", "/x", "/y/z", "/y?q"] {
            let url = Url::parse("http://a.test").unwrap().join(path).unwrap();
            assert_eq!(
                UrlVerdict::with_rules(&robots, &agent, &url),
                UrlVerdict::compute(Some(&robots), &profile, &url),
                "{path}"
            );
        }
    }

    #[test]
    fn a_group_merged_from_two_places_names_its_user_agent_once() {
        let robots = RobotsFile::from_fetch(
            "http://a.test".to_owned(),
            Url::parse("http://a.test/robots.txt").unwrap(),
            Vec::new(),
            Ok(Received::for_test(
                200,
                b"User-agent: *\nDisallow: /x\nUser-agent: bingbot\nDisallow: /\nUser-agent: *\nDisallow: /y\n",
            )),
        );
        let url = Url::parse("http://a.test/y").unwrap();
        let verdict = UrlVerdict::compute(Some(&robots), &Profile::googlebot(), &url);
        let Evidence::RobotsRule { group, line, .. } = verdict.evidence("googlebot", Some(&robots))
        else {
            panic!("expected the deciding rule as evidence");
        };
        assert_eq!((group, line), (vec!["*".to_owned()], 6));
    }
}
