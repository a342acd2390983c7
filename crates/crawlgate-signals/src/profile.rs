//! Crawler profiles: which robots.txt groups, meta names and header prefixes speak to a crawler.

use serde::{Deserialize, Serialize};

/// A crawler as the audit evaluates it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Profile {
    /// The profile's name (`googlebot`, `*`, or a custom token), lowercase.
    pub name: String,
    /// robots.txt product tokens to try in order (`["googlebot-image", "googlebot"]`); the `*`
    /// group is the implied last fallback and is not listed.
    pub robots_tokens: Vec<String>,
    /// Robots meta names that apply (`["robots", "googlebot"]`), lowercase.
    pub meta_names: Vec<String>,
    /// `X-Robots-Tag` prefixes that apply (`googlebot: noindex`), lowercase. Unprefixed rules
    /// apply to every profile.
    pub header_bots: Vec<String>,
}

/// The built-in profile names, in the order [`Profile::builtins`] lists them.
const BUILTIN_NAMES: [&str; 7] = [
    "googlebot",
    "googlebot-image",
    "bingbot",
    "gptbot",
    "claudebot",
    "ccbot",
    "*",
];

impl Profile {
    fn new(name: &str, robots_tokens: &[&str], meta_names: &[&str], header_bots: &[&str]) -> Self {
        let owned = |names: &[&str]| names.iter().map(|name| (*name).to_owned()).collect();
        Profile {
            name: name.to_owned(),
            robots_tokens: owned(robots_tokens),
            meta_names: owned(meta_names),
            header_bots: owned(header_bots),
        }
    }

    /// Google's web crawler: `robots` and `googlebot` meta names, `googlebot:` header rules.
    pub fn googlebot() -> Profile {
        Profile::new(
            "googlebot",
            &["googlebot"],
            &["robots", "googlebot"],
            &["googlebot"],
        )
    }

    /// A built-in profile by name (case-insensitive): `googlebot`, `googlebot-image` (robots.txt
    /// falls back to the Googlebot group, as Google documents), `bingbot` (falls back to
    /// `msnbot`, as Bing documents), `gptbot`, `claudebot`, `ccbot`, and `*` (a generic crawler:
    /// the `*` group, `robots` meta, unprefixed headers only).
    pub fn builtin(name: &str) -> Option<Profile> {
        let profile = match name.to_ascii_lowercase().as_str() {
            "googlebot" => Profile::googlebot(),
            "googlebot-image" => Profile::new(
                "googlebot-image",
                &["googlebot-image", "googlebot"],
                &["robots", "googlebot"],
                &["googlebot", "googlebot-image"],
            ),
            "bingbot" => Profile::new(
                "bingbot",
                &["bingbot", "msnbot"],
                &["robots", "bingbot", "msnbot"],
                &["bingbot", "msnbot"],
            ),
            "gptbot" => Profile::custom("gptbot"),
            "claudebot" => Profile::custom("claudebot"),
            "ccbot" => Profile::custom("ccbot"),
            "*" => Profile::new("*", &[], &["robots"], &[]),
            _ => return None,
        };
        Some(profile)
    }

    /// The built-in profile of that name, else a custom profile for it as a token: how every
    /// command and the report read a profile name (`--profile`, report.json's profiles).
    pub fn named(name: &str) -> Profile {
        Profile::builtin(name).unwrap_or_else(|| Profile::custom(name))
    }

    /// Every built-in profile.
    pub fn builtins() -> Vec<Profile> {
        BUILTIN_NAMES
            .iter()
            .filter_map(|name| Profile::builtin(name))
            .collect()
    }

    /// A profile for any crawler token: its own robots.txt group (then `*`), `robots` and its own
    /// meta name, its own header prefix.
    pub fn custom(token: &str) -> Profile {
        let token = token.trim().to_ascii_lowercase();
        Profile::new(&token, &[&token], &["robots", &token], &[&token])
    }

    /// Whether `<meta name=…>` speaks to this crawler (name compared case-insensitively).
    pub fn reads_meta_name(&self, name: &str) -> bool {
        self.meta_names
            .iter()
            .any(|own| own.eq_ignore_ascii_case(name.trim()))
    }

    /// The crawler's name as its operator writes it, for messages: `Googlebot`,
    /// `Googlebot-Image`, `Bingbot`, `GPTBot`, `ClaudeBot`, `CCBot`; "a generic crawler (`*`)"
    /// for `*`; a custom profile's token as given to [`Profile::custom`] (lowercase).
    pub fn display_name(&self) -> &str {
        match self.name.as_str() {
            "googlebot" => "Googlebot",
            "googlebot-image" => "Googlebot-Image",
            "bingbot" => "Bingbot",
            "gptbot" => "GPTBot",
            "claudebot" => "ClaudeBot",
            "ccbot" => "CCBot",
            "*" => "a generic crawler (`*`)",
            other => other,
        }
    }

    /// Whether the profile is one of Google's crawlers (its name or a robots.txt token it obeys
    /// starts with `googlebot`): explanations of what Google does apply to it, and to no other.
    pub fn is_google(&self) -> bool {
        let google = |name: &str| {
            name.get(..9)
                .is_some_and(|head| head.eq_ignore_ascii_case("googlebot"))
        };
        google(&self.name) || self.robots_tokens.iter().any(|token| google(token))
    }

    /// Whether a header rule addressed to `bot` (`None`: unprefixed) applies to this crawler.
    pub fn reads_header_bot(&self, bot: Option<&str>) -> bool {
        bot.is_none_or(|bot| {
            self.header_bots
                .iter()
                .any(|own| own.eq_ignore_ascii_case(bot))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtins_are_complete_and_named_by_lookup() {
        let names: Vec<String> = Profile::builtins().into_iter().map(|p| p.name).collect();
        assert_eq!(names, BUILTIN_NAMES);
        assert_eq!(Profile::builtin("GoogleBot"), Some(Profile::googlebot()));
        assert_eq!(Profile::builtin("nobot"), None);
        assert_eq!(Profile::named("GoogleBot"), Profile::googlebot());
        assert_eq!(Profile::named("NoBot"), Profile::custom("nobot"));
    }

    #[test]
    fn googlebot_image_falls_back_to_googlebot() {
        let image = Profile::builtin("googlebot-image").unwrap();
        assert_eq!(image.robots_tokens, ["googlebot-image", "googlebot"]);
        assert!(image.reads_meta_name("googlebot"));
    }

    #[test]
    fn generic_profile_reads_only_robots_and_unprefixed_headers() {
        let generic = Profile::builtin("*").unwrap();
        assert!(generic.robots_tokens.is_empty());
        assert!(generic.reads_meta_name("ROBOTS"));
        assert!(!generic.reads_meta_name("googlebot"));
        assert!(generic.reads_header_bot(None));
        assert!(!generic.reads_header_bot(Some("googlebot")));
    }

    #[test]
    fn display_names_name_the_crawler_and_only_google_profiles_are_google() {
        let shown: Vec<String> = Profile::builtins()
            .iter()
            .map(|p| p.display_name().to_owned())
            .collect();
        assert_eq!(
            shown,
            [
                "Googlebot",
                "Googlebot-Image",
                "Bingbot",
                "GPTBot",
                "ClaudeBot",
                "CCBot",
                "a generic crawler (`*`)"
            ]
        );
        assert_eq!(Profile::custom("MyBot").display_name(), "mybot");
        let google: Vec<bool> = Profile::builtins().iter().map(Profile::is_google).collect();
        assert_eq!(google, [true, true, false, false, false, false, false]);
        assert!(Profile::custom("Googlebot-News").is_google());
        assert!(!Profile::custom("google-extended").is_google());
    }

    #[test]
    fn custom_profiles() {
        let custom = Profile::custom(" MyBot ");
        assert_eq!(custom.name, "mybot");
        assert!(custom.reads_meta_name("mybot"));
        assert!(custom.reads_meta_name("robots"));
        assert!(custom.reads_header_bot(Some("MYBOT")));
        assert!(!custom.reads_header_bot(Some("googlebot")));
    }
}
