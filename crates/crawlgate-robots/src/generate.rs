//! Writing a robots.txt from a policy (`crawlgate robots generate`): the groups to write, the
//! crawlers to keep out, the sitemaps; checked so that what is written means what the policy
//! says (RFC 9309 product tokens and path patterns, no token in two groups).

use serde::Deserialize;
use std::fmt::{self, Write as _};

/// A crawler that collects pages for AI models or AI answers, by its robots.txt product token,
/// with who runs it and where they document the token.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AiCrawler {
    pub token: &'static str,
    pub operator: &'static str,
    /// What obeying the token controls, in a few words.
    pub purpose: &'static str,
    /// The operator's page that documents the token.
    pub source: &'static str,
}

/// The AI crawlers `block_ai_crawlers = true` keeps out, each from its operator's own
/// documentation. Tokens that only control use (Google-Extended, Applebot-Extended) fetch
/// nothing themselves; a `Disallow: /` for them opts the site out of that use.
pub const AI_CRAWLERS: &[AiCrawler] = &[
    AiCrawler {
        token: "GPTBot",
        operator: "OpenAI",
        purpose: "training of OpenAI's models",
        source: "https://platform.openai.com/docs/bots",
    },
    AiCrawler {
        token: "OAI-SearchBot",
        operator: "OpenAI",
        purpose: "ChatGPT search results",
        source: "https://platform.openai.com/docs/bots",
    },
    AiCrawler {
        token: "ChatGPT-User",
        operator: "OpenAI",
        purpose: "pages fetched for a ChatGPT user's request",
        source: "https://platform.openai.com/docs/bots",
    },
    AiCrawler {
        token: "ClaudeBot",
        operator: "Anthropic",
        purpose: "training of Anthropic's models",
        source: "https://support.anthropic.com/en/articles/8896518-does-anthropic-crawl-data-from-the-web-and-how-can-site-owners-block-the-crawler",
    },
    AiCrawler {
        token: "CCBot",
        operator: "Common Crawl",
        purpose: "the Common Crawl corpus, widely used for training",
        source: "https://commoncrawl.org/ccbot",
    },
    AiCrawler {
        token: "Google-Extended",
        operator: "Google",
        purpose: "use in Gemini training and grounding (fetches nothing itself)",
        source: "https://developers.google.com/search/docs/crawling-indexing/google-common-crawlers",
    },
    AiCrawler {
        token: "Applebot-Extended",
        operator: "Apple",
        purpose: "use in training Apple's models (fetches nothing itself)",
        source: "https://support.apple.com/en-us/119829",
    },
    AiCrawler {
        token: "PerplexityBot",
        operator: "Perplexity",
        purpose: "Perplexity's search index",
        source: "https://docs.perplexity.ai/guides/bots",
    },
    AiCrawler {
        token: "meta-externalagent",
        operator: "Meta",
        purpose: "training of Meta's AI models",
        source: "https://developers.facebook.com/docs/sharing/webmasters/web-crawlers",
    },
    AiCrawler {
        token: "Amazonbot",
        operator: "Amazon",
        purpose: "Amazon's AI and Alexa answers",
        source: "https://developer.amazon.com/amazonbot",
    },
];

/// What robots.txt to write. Read from TOML by `crawlgate robots generate`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Policy {
    /// Groups, written in order.
    #[serde(default, rename = "group")]
    pub groups: Vec<PolicyGroup>,
    /// Product tokens kept out of the whole site (`Disallow: /`), in one group after the others.
    #[serde(default)]
    pub block: Vec<String>,
    /// Also keep out every crawler of [`AI_CRAWLERS`].
    #[serde(default)]
    pub block_ai_crawlers: bool,
    /// Absolute sitemap URLs, written as `Sitemap:` lines.
    #[serde(default)]
    pub sitemaps: Vec<String>,
    /// Paths whose verdicts are shown beside the file (default: `/` and the policy's paths).
    #[serde(default)]
    pub samples: Vec<String>,
    /// Repeat the `*` group's rules in every other group (default true): a crawler with a group
    /// of its own ignores the `*` group entirely (RFC 9309 §2.2.1; `robots/group-shadows-global`),
    /// which a policy that adds one rule for one crawler rarely means.
    #[serde(default)]
    pub inherit_global: Option<bool>,
}

/// One group: the crawlers it is for and their rules.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PolicyGroup {
    /// Product tokens (`*` for every crawler without a group of its own).
    pub user_agents: Vec<String>,
    #[serde(default)]
    pub disallow: Vec<String>,
    #[serde(default)]
    pub allow: Vec<String>,
}

/// A policy that cannot be written as asked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PolicyError {
    /// Not a product token (RFC 9309: letters, `-` and `_`; or `*`).
    InvalidToken(String),
    /// A path pattern that does not start with `/` or `*`, or holds white space, `#` or a
    /// control character.
    InvalidPath(String),
    /// A crawler named in two groups (or in a group and `block`): Google would merge them, which
    /// is rarely what was meant.
    TokenTwice(String),
    /// A group for no crawler.
    EmptyGroup(usize),
    /// A `Sitemap:` URL that is not an absolute http(s) URL.
    InvalidSitemap(String),
    /// Nothing to write.
    Empty,
}

impl fmt::Display for PolicyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PolicyError::InvalidToken(token) => write!(
                f,
                "`{token}` is not a robots.txt product token: letters, `-` and `_` only (RFC 9309), or `*`"
            ),
            PolicyError::InvalidPath(path) => write!(
                f,
                "`{path}` is not a path pattern: it starts with `/` (or `*`) and holds no space, `#` or control character"
            ),
            PolicyError::TokenTwice(token) => write!(
                f,
                "`{token}` is named twice (in two groups, or in a group and `block`): give each crawler one group"
            ),
            PolicyError::EmptyGroup(n) => write!(f, "group {n} names no user agent"),
            PolicyError::InvalidSitemap(url) => {
                write!(f, "sitemap `{url}` is not an absolute http or https URL")
            }
            PolicyError::Empty => f.write_str("the policy has no group, no block and no sitemap"),
        }
    }
}

impl std::error::Error for PolicyError {}

impl Policy {
    /// Every crawler the policy names, in order: the groups' tokens, then the blocked ones.
    pub fn tokens(&self) -> Vec<String> {
        let mut tokens: Vec<String> = self
            .groups
            .iter()
            .flat_map(|group| group.user_agents.iter().cloned())
            .collect();
        tokens.extend(self.blocked());
        tokens
    }

    /// The crawlers kept out of the whole site: `block`, then [`AI_CRAWLERS`] when asked,
    /// each once.
    pub fn blocked(&self) -> Vec<String> {
        let mut blocked: Vec<String> = Vec::new();
        let ai = AI_CRAWLERS
            .iter()
            .filter(|_| self.block_ai_crawlers)
            .map(|crawler| crawler.token.to_owned());
        for token in self.block.iter().cloned().chain(ai) {
            if !blocked
                .iter()
                .any(|known| known.eq_ignore_ascii_case(&token))
            {
                blocked.push(token);
            }
        }
        blocked
    }

    /// The sample paths: the policy's, or `/` and every path pattern without a wildcard.
    pub fn sample_paths(&self) -> Vec<String> {
        if !self.samples.is_empty() {
            return self.samples.clone();
        }
        let mut paths = vec!["/".to_owned()];
        for group in &self.groups {
            for path in group.disallow.iter().chain(&group.allow) {
                let literal = path.trim_end_matches('$');
                if !literal.contains('*') && !paths.iter().any(|known| known == literal) {
                    paths.push(literal.to_owned());
                }
            }
        }
        paths
    }
}

/// The robots.txt `policy` asks for.
pub fn generate(policy: &Policy) -> Result<String, PolicyError> {
    let blocked = policy.blocked();
    if policy.groups.is_empty() && blocked.is_empty() && policy.sitemaps.is_empty() {
        return Err(PolicyError::Empty);
    }
    let mut seen: Vec<String> = Vec::new();
    let mut note = |token: &str| -> Result<(), PolicyError> {
        if !is_product_token(token) {
            return Err(PolicyError::InvalidToken(token.to_owned()));
        }
        if seen.iter().any(|known| known.eq_ignore_ascii_case(token)) {
            return Err(PolicyError::TokenTwice(token.to_owned()));
        }
        seen.push(token.to_owned());
        Ok(())
    };
    let global: Vec<(&str, &String)> = if policy.inherit_global.unwrap_or(true) {
        policy
            .groups
            .iter()
            .filter(|group| group.user_agents.iter().any(|token| token == "*"))
            .flat_map(|group| {
                let disallow = group.disallow.iter().map(|path| ("Disallow", path));
                disallow.chain(group.allow.iter().map(|path| ("Allow", path)))
            })
            .collect()
    } else {
        Vec::new()
    };
    let mut out = String::new();
    for (n, group) in policy.groups.iter().enumerate() {
        if group.user_agents.is_empty() {
            return Err(PolicyError::EmptyGroup(n + 1));
        }
        for token in &group.user_agents {
            note(token)?;
            let _ = writeln!(out, "User-agent: {token}");
        }
        for path in group.disallow.iter().chain(&group.allow) {
            if !is_path_pattern(path) {
                return Err(PolicyError::InvalidPath(path.clone()));
            }
        }
        for path in &group.disallow {
            let _ = writeln!(out, "Disallow: {path}");
        }
        for path in &group.allow {
            let _ = writeln!(out, "Allow: {path}");
        }
        let is_global = group.user_agents.iter().any(|token| token == "*");
        let inherited: Vec<&(&str, &String)> = global
            .iter()
            .filter(|(directive, path)| {
                !is_global
                    && !match *directive {
                        "Disallow" => group.disallow.contains(path),
                        _ => group.allow.contains(path),
                    }
            })
            .collect();
        if !inherited.is_empty() {
            out.push_str(
                "# The * group's rules: a crawler with a group of its own ignores that group.\n",
            );
        }
        for (directive, path) in &inherited {
            let _ = writeln!(out, "{directive}: {path}");
        }
        if group.disallow.is_empty() && group.allow.is_empty() && inherited.is_empty() {
            // A group without rules allows everything; an empty `Disallow:` says the same but
            // reads as a mistake.
            out.push_str("Allow: /\n");
        }
        out.push('\n');
    }
    if !blocked.is_empty() {
        out.push_str("# Kept out of the whole site.\n");
        for token in &blocked {
            note(token)?;
            let _ = writeln!(out, "User-agent: {token}");
        }
        out.push_str("Disallow: /\n\n");
    }
    for sitemap in &policy.sitemaps {
        let absolute = ::url::Url::parse(sitemap)
            .ok()
            .filter(|url| matches!(url.scheme(), "http" | "https") && url.host().is_some());
        if absolute.is_none() || sitemap.contains(char::is_whitespace) {
            return Err(PolicyError::InvalidSitemap(sitemap.clone()));
        }
        let _ = writeln!(out, "Sitemap: {sitemap}");
    }
    while out.ends_with("\n\n") {
        out.pop();
    }
    Ok(out)
}

/// RFC 9309 §2.2.1: `product-token = identifier / "*"`, an identifier being letters, `-` and
/// `_`.
fn is_product_token(token: &str) -> bool {
    token == "*"
        || (!token.is_empty()
            && token
                .bytes()
                .all(|b| b.is_ascii_alphabetic() || b == b'-' || b == b'_'))
}

/// A path pattern Google and RFC 9309 read as written: rooted (or starting with a wildcard),
/// one token (no white space), no comment, no control character.
fn is_path_pattern(path: &str) -> bool {
    (path.starts_with('/') || path.starts_with('*'))
        && !path
            .chars()
            .any(|c| c.is_whitespace() || c == '#' || c.is_control())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_ai_crawler_is_a_valid_token_with_an_https_source() {
        for crawler in AI_CRAWLERS {
            assert!(is_product_token(crawler.token), "{}", crawler.token);
            assert!(crawler.source.starts_with("https://"), "{}", crawler.token);
        }
    }

    #[test]
    fn a_policy_is_written_group_by_group_then_the_blocked_then_the_sitemaps() {
        let policy = Policy {
            groups: vec![PolicyGroup {
                user_agents: vec!["*".into()],
                disallow: vec!["/admin/".into()],
                allow: vec!["/admin/help".into()],
            }],
            block: vec!["GPTBot".into()],
            sitemaps: vec!["https://example.com/sitemap.xml".into()],
            ..Policy::default()
        };
        assert_eq!(
            generate(&policy).unwrap(),
            "User-agent: *\nDisallow: /admin/\nAllow: /admin/help\n\n# Kept out of the whole site.\nUser-agent: GPTBot\nDisallow: /\n\nSitemap: https://example.com/sitemap.xml\n"
        );
        assert_eq!(policy.sample_paths(), ["/", "/admin/", "/admin/help"]);
    }

    #[test]
    fn a_crawlers_own_group_repeats_the_global_rules_unless_told_not_to() {
        let mut policy = Policy {
            groups: vec![
                PolicyGroup {
                    user_agents: vec!["*".into()],
                    disallow: vec!["/cart".into()],
                    allow: Vec::new(),
                },
                PolicyGroup {
                    user_agents: vec!["Googlebot-Image".into()],
                    disallow: vec!["/drafts/".into(), "/cart".into()],
                    allow: Vec::new(),
                },
                PolicyGroup {
                    user_agents: vec!["Bingbot".into()],
                    disallow: Vec::new(),
                    allow: Vec::new(),
                },
            ],
            ..Policy::default()
        };
        let text = generate(&policy).unwrap();
        // Googlebot-Image has /cart already; Bingbot gets it.
        assert_eq!(text.matches("Disallow: /cart").count(), 3, "{text}");
        assert!(!text.contains("Allow: /\n"), "{text}");
        policy.inherit_global = Some(false);
        let text = generate(&policy).unwrap();
        assert_eq!(text.matches("Disallow: /cart").count(), 2, "{text}");
        assert!(text.contains("User-agent: Bingbot\nAllow: /\n"), "{text}");
    }

    #[test]
    fn what_cannot_be_written_as_asked_is_an_error() {
        let group = |agents: &[&str], disallow: &[&str]| PolicyGroup {
            user_agents: agents.iter().map(|&s| s.to_owned()).collect(),
            disallow: disallow.iter().map(|&s| s.to_owned()).collect(),
            allow: Vec::new(),
        };
        let with = |groups: Vec<PolicyGroup>| Policy {
            groups,
            ..Policy::default()
        };
        assert_eq!(
            generate(&with(vec![group(&["Bad Bot"], &[])])),
            Err(PolicyError::InvalidToken("Bad Bot".into()))
        );
        assert_eq!(
            generate(&with(vec![group(&["*"], &["admin/"])])),
            Err(PolicyError::InvalidPath("admin/".into()))
        );
        assert_eq!(
            generate(&with(vec![group(&["a"], &[]), group(&["A"], &[])])),
            Err(PolicyError::TokenTwice("A".into()))
        );
        assert_eq!(
            generate(&with(vec![group(&[], &["/"])])),
            Err(PolicyError::EmptyGroup(1))
        );
        let gptbot_twice = Policy {
            groups: vec![group(&["GPTBot"], &["/x"])],
            block_ai_crawlers: true,
            ..Policy::default()
        };
        assert_eq!(
            generate(&gptbot_twice),
            Err(PolicyError::TokenTwice("GPTBot".into()))
        );
        let bad_sitemap = Policy {
            sitemaps: vec!["/sitemap.xml".into()],
            ..Policy::default()
        };
        assert!(matches!(
            generate(&bad_sitemap),
            Err(PolicyError::InvalidSitemap(_))
        ));
        assert_eq!(generate(&Policy::default()), Err(PolicyError::Empty));
    }
}
