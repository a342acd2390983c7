//! Rule configuration: turn rules off, change their severity, suppress findings on some URLs with a
//! reason; and the `crawlgate.toml` file that sets it together with the crawl options.

use crawlgate_core::url_pattern::PatternError;
use crawlgate_core::{Finding, Severity, UrlPattern};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::net::SocketAddr;
use thiserror::Error;

/// How the rules run: severities, rules turned off, suppressions; each for every crawler
/// profile or for one.
#[derive(Debug, Clone, Default)]
pub struct RuleConfig {
    levels: BTreeMap<String, RuleLevel>,
    /// Levels for one profile's findings: (rule, profile name) → level.
    profile_levels: BTreeMap<(String, String), RuleLevel>,
    suppressions: Vec<Suppression>,
}

/// A rule's configured level.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RuleLevel {
    Off,
    Severity(Severity),
}

impl std::str::FromStr for RuleLevel {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        if s.eq_ignore_ascii_case("off") {
            Ok(RuleLevel::Off)
        } else {
            s.parse().map(RuleLevel::Severity)
        }
    }
}

/// Findings of `rule` on URLs matching `urls` (for the crawler profile `profile` only, when
/// given) are left out of the report, for `reason`.
#[derive(Debug, Clone)]
pub struct Suppression {
    pub rule: String,
    /// Matched against the finding's URL, the same patterns as the crawl's `--include` and
    /// `--exclude`.
    pub urls: UrlPattern,
    /// The profile whose findings are suppressed (`gptbot`); `None`: every profile's, and the
    /// findings about no profile.
    pub profile: Option<String>,
    pub reason: String,
}

impl RuleConfig {
    /// Set a rule's level (`off` or a severity).
    pub fn set(&mut self, rule: impl Into<String>, level: RuleLevel) {
        self.levels.insert(rule.into(), level);
    }

    /// Set a rule's level for the findings about one crawler profile (`gptbot`): it wins over
    /// the rule's level for them.
    pub fn set_for_profile(
        &mut self,
        rule: impl Into<String>,
        profile: impl Into<String>,
        level: RuleLevel,
    ) {
        self.profile_levels
            .insert((rule.into(), profile.into().to_ascii_lowercase()), level);
    }

    /// Suppress a rule's findings on URLs matching `pattern` (a [`UrlPattern`]: `*` matches
    /// anything, `/` included).
    pub fn suppress(&mut self, rule: &str, pattern: &str, reason: &str) -> Result<(), ConfigError> {
        self.push_suppression(rule, None, pattern, reason)
    }

    /// Suppress a rule's findings about one crawler profile (`gptbot`) on URLs matching
    /// `pattern`.
    pub fn suppress_for_profile(
        &mut self,
        rule: &str,
        profile: &str,
        pattern: &str,
        reason: &str,
    ) -> Result<(), ConfigError> {
        self.push_suppression(rule, Some(profile), pattern, reason)
    }

    fn push_suppression(
        &mut self,
        rule: &str,
        profile: Option<&str>,
        pattern: &str,
        reason: &str,
    ) -> Result<(), ConfigError> {
        let urls = UrlPattern::parse(pattern)?;
        self.suppressions.push(Suppression {
            rule: rule.to_owned(),
            urls,
            profile: profile.map(str::to_ascii_lowercase),
            reason: reason.to_owned(),
        });
        Ok(())
    }

    /// Whether the rule runs: not turned off, or turned on again for some profile.
    pub fn is_enabled(&self, rule: &str) -> bool {
        self.levels.get(rule) != Some(&RuleLevel::Off)
            || self
                .profile_levels
                .iter()
                .any(|((id, _), level)| id == rule && *level != RuleLevel::Off)
    }

    /// The configured severity, if any (for every profile's findings).
    pub fn severity(&self, rule: &str) -> Option<Severity> {
        match self.levels.get(rule) {
            Some(RuleLevel::Severity(severity)) => Some(*severity),
            _ => None,
        }
    }

    /// Apply the per-profile levels to a rule's findings (the rule-wide level is applied by the
    /// [`crawlgate_core::rule::Findings`] sink): a finding whose profile has the rule `off` is
    /// dropped, one whose profile has a severity set takes it; the others follow the rule's
    /// level (dropped when it is `off`, the rule having run for another profile).
    pub fn apply_levels(&self, findings: &mut Vec<Finding>) {
        if self.profile_levels.is_empty() {
            return;
        }
        findings.retain_mut(|finding| {
            let own = finding.profile.as_ref().and_then(|profile| {
                self.profile_levels
                    .get(&(finding.rule.clone(), profile.clone()))
            });
            match own.or_else(|| self.levels.get(&finding.rule)) {
                Some(RuleLevel::Off) => false,
                Some(RuleLevel::Severity(severity)) if own.is_some() => {
                    finding.severity = *severity;
                    true
                }
                _ => true,
            }
        });
    }

    /// The suppression that applies to a finding, if any.
    pub fn suppression_for(&self, finding: &Finding) -> Option<&Suppression> {
        self.suppressions.iter().find(|s| {
            s.rule == finding.rule
                && s.urls.matches_str(&finding.url)
                && s.profile
                    .as_ref()
                    .is_none_or(|profile| finding.profile.as_ref() == Some(profile))
        })
    }

    /// The rule ids the configuration names (to check them against the known rules).
    pub fn named_rules(&self) -> impl Iterator<Item = &str> {
        self.levels
            .keys()
            .map(String::as_str)
            .chain(self.profile_levels.keys().map(|(rule, _)| rule.as_str()))
            .chain(self.suppressions.iter().map(|s| s.rule.as_str()))
    }

    /// The crawler profile names the configuration names (to check them against the known
    /// profiles).
    pub fn named_profiles(&self) -> impl Iterator<Item = &str> {
        self.profile_levels
            .keys()
            .map(|(_, profile)| profile.as_str())
            .chain(
                self.suppressions
                    .iter()
                    .filter_map(|s| s.profile.as_deref()),
            )
    }
}

/// A configuration error, naming what is wrong.
#[derive(Debug, Error)]
pub enum ConfigError {
    #[error("invalid config file: {0}")]
    Toml(String),
    /// A URL pattern (a suppression's `urls`) that cannot be used.
    #[error(transparent)]
    Pattern(#[from] PatternError),
    #[error("rule `{rule}`: {message}")]
    Rule { rule: String, message: String },
    #[error("unknown rule id `{0}` (see `crawlgate rules`)")]
    UnknownRule(String),
    #[error(
        "unknown crawler profile `{0}` (built in: googlebot, googlebot-image, bingbot, gptbot, claudebot, ccbot, `*`; or audit it with --profile)"
    )]
    UnknownProfile(String),
    /// A certificate given to `AuditorBuilder::ca_cert` (the first is 1) cannot be trusted.
    #[error("CA certificate {index}: {message}")]
    CaCert { index: usize, message: String },
    /// A host-name override (`AuditorBuilder::resolve`, `resolve` in crawlgate.toml) is unusable.
    #[error("resolve: {0}")]
    Resolve(#[from] crawlgate_crawl::ResolveError),
}

/// `crawlgate.toml`: the audit options and rule configuration, as a file.
///
/// ```toml
/// profiles = ["googlebot", "bingbot"]
/// # Crawlers robots.txt keeps out on purpose: audited too (added to `profiles`); a block is then
/// # a notice, and a page they may crawl is the finding (`robots/expected-blocked-allowed`).
/// expect_blocked = ["gptbot", "ccbot"]
/// max_pages = 5000
/// obey_robots = false
/// # Root certificates trusted besides the system's (a staging site behind an internal CA);
/// # relative paths are read from the config file's folder.
/// ca_certs = ["certs/internal-ca.pem"]
/// # Host names answered from these addresses instead of DNS, like curl's --resolve (HOST=ADDR,
/// # or HOST=ADDR:PORT for the URLs that name no port): the new server before the DNS switch.
/// resolve = ["www.example.com=10.0.0.5", "staging.example.com=10.0.0.6:8443"]
/// # Politeness: at most 2 requests per second to each host (or `delay = 0.5`, in seconds).
/// rate = 2
/// # Audit as if this file were the origin's live robots.txt (the what-if before a change;
/// # relative to this file's folder).
/// robots_overrides = ["https://www.example.com=robots-new.txt"]
/// # Every option of `crawlgate audit` has a key: its name with `_` for `-` (`per_host = 4`,
/// # `timeout = 30`, `max_time = 1800`, `no_assets = true`, `formats = ["html", "sarif"]`,
/// # `output_dir = "audit"`, `baseline = "last/report.json"`, …); options given on the command
/// # line win.
/// # Times a URL is asked again after a 429 or 503 (default 2).
/// retries = 2
/// # A staging site behind a login: sent to the site's own hosts only. These are secrets:
/// # better given as $CRAWLGATE_BASIC_AUTH and $CRAWLGATE_COOKIE than written here.
/// headers = ["X-Staging-Token: …"]
/// # basic_auth = "user:password"
/// # cookie = "session=…"
/// # What is crawled: pages whose full URL matches an `include` pattern (when any is given) and
/// # no `exclude` pattern (`*` matches anything, `/` included); excluded pages are counted, not
/// # fetched. Or `urls_from = "urls.txt"` (list mode: exactly those URLs, relative to this
/// # file's folder), or `sitemap_only = true` (the URLs the sitemaps list).
/// include = ["https://example.com/*"]
/// exclude = ["*/cart*", "*?sort=*"]
/// include_subdomains = true   # every host of the registrable domain (example.com)
/// max_discovered = 200000     # URLs recorded, fetched or not
///
/// [rules]
/// "robots/no-sitemap-field" = "off"
/// "canonical/cross-domain" = "warning"
/// # `RULE@PROFILE`: the level for that crawler's findings only (it wins over the rule's).
/// "robots/blocked-linked@bingbot" = "off"
/// "robots/expected-blocked-allowed@ccbot" = "error"
///
/// [[suppress]]
/// rule = "robots/blocked-linked"
/// urls = "https://example.com/search*"
/// reason = "internal search is linked on purpose; its results are noindexed"
///
/// [[suppress]]
/// rule = "robots/expected-blocked-allowed"
/// profile = "gptbot"          # only this crawler's findings (optional)
/// urls = "https://example.com/robots.txt"
/// reason = "GPTBot may read the press pages; everything else is blocked"
/// ```
///
/// A profile named in `[rules]` or `[[suppress]]` must be a built-in one or an audited one
/// (`--profile`, `profiles`, `expect_blocked`); another name is an error naming it.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ConfigFile {
    pub profiles: Option<Vec<String>>,
    /// Profiles robots.txt is meant to keep out (`--expect-blocked`), audited too.
    pub expect_blocked: Option<Vec<String>>,
    pub max_pages: Option<u64>,
    pub max_depth: Option<u32>,
    pub concurrency: Option<usize>,
    /// Requests started per second to one host, at most (`--rate`; 0: no limit).
    pub rate: Option<f64>,
    /// Seconds between two request starts to one host, at least (`--delay`).
    pub delay: Option<f64>,
    /// Don't wait the `Crawl-delay` robots.txt asks of crawlgate (`--ignore-crawl-delay`).
    pub ignore_crawl_delay: Option<bool>,
    /// `ORIGIN=FILE` each: FILE read as ORIGIN's robots.txt (`--robots-override`); relative
    /// paths are relative to the config file's folder.
    pub robots_overrides: Option<Vec<String>>,
    /// Times a URL is asked again after a 429 or 503 (`--retries`).
    pub retries: Option<u32>,
    /// Header lines `Name: value` sent to the site's hosts (`--header`).
    pub headers: Option<Vec<String>>,
    /// A cookie sent to the site's hosts (`--cookie`).
    pub cookie: Option<String>,
    /// `USER:PASSWORD` for HTTP basic authentication (`--basic-auth`).
    pub basic_auth: Option<String>,
    pub obey_robots: Option<bool>,
    pub sitemaps: Option<Vec<String>>,
    pub include_subdomains: Option<bool>,
    pub allow_hosts: Option<Vec<String>>,
    /// Pages fetched only when their URL matches one of these (`--include`).
    pub include: Option<Vec<UrlPattern>>,
    /// Pages whose URL matches one of these are counted, not fetched (`--exclude`).
    pub exclude: Option<Vec<UrlPattern>>,
    /// List mode: a file of URLs, one per line, fetched and nothing else (`--urls-from`);
    /// relative to the config file's folder.
    pub urls_from: Option<String>,
    /// Fetch the URLs the sitemaps list, follow no links (`--sitemap-only`).
    pub sitemap_only: Option<bool>,
    /// URLs recorded, fetched or not (`--max-discovered`).
    pub max_discovered: Option<u64>,
    /// Bytes of URL text recorded (`--max-discovered-bytes`).
    pub max_discovered_bytes: Option<u64>,
    /// Bytes of sitemap entries kept for the checks (`--max-sitemap-entry-bytes`).
    pub max_sitemap_entry_bytes: Option<u64>,
    /// Fetched pages and assets held in memory; the rest go to a temporary page file
    /// (`--pages-in-memory`).
    pub pages_in_memory: Option<u64>,
    /// Requests in flight at once to one host (`--per-host`).
    pub per_host: Option<usize>,
    /// Seconds allowed for one request (`--timeout`).
    pub timeout: Option<f64>,
    /// Seconds allowed for the whole crawl (`--max-time`).
    pub max_time: Option<f64>,
    /// Bytes read of each page at most (`--max-body-bytes`).
    pub max_body_bytes: Option<u64>,
    /// Don't check the stylesheets, scripts and images of crawled pages (`--no-assets`).
    pub no_assets: Option<bool>,
    /// Don't probe /sitemap.xml (`--no-sitemap-probe`).
    pub no_sitemap_probe: Option<bool>,
    /// A folder to keep the crawl store in (`--store`), relative to the current folder.
    pub store: Option<String>,
    /// Keep no crawl store in the report folder (`--no-store`).
    pub no_store: Option<bool>,
    pub user_agent: Option<String>,
    /// Report formats (`--format`, repeatable).
    pub formats: Option<Vec<String>>,
    /// Where the reports are written (`--output-dir`), relative to the current folder.
    pub output_dir: Option<String>,
    /// Report plugin folders (`--report-dir`), relative to the config file's folder.
    pub report_dirs: Option<Vec<String>>,
    /// Stamp the reports with the time of the audit (`--timestamp`).
    pub timestamp: Option<bool>,
    /// Render the crawl's pages in headless Chromium (`--render`).
    pub render: Option<bool>,
    /// Pages rendered at most (`--render-pages`).
    pub render_pages: Option<u64>,
    /// Seconds a page gets to render (`--render-timeout`).
    pub render_timeout: Option<f64>,
    /// Pages rendered at once (`--render-concurrency`).
    pub render_concurrency: Option<usize>,
    /// No progress display (`--quiet`).
    pub quiet: Option<bool>,
    /// An earlier audit to compare with (`--baseline`), relative to the config file's folder.
    pub baseline: Option<String>,
    /// `OLD=NEW` host mappings for the baseline (`--baseline-map-host`).
    pub baseline_map_hosts: Option<Vec<String>>,
    /// `REGEX=REPLACEMENT` URL rewrites for the baseline (`--baseline-map`).
    pub baseline_maps: Option<Vec<String>>,
    /// `URL=PATH` mappings of site URLs (exact, or a URL pattern) to repository files for the
    /// SARIF report's locations (`--sarif-map`).
    pub sarif_map: Option<Vec<String>>,
    /// Write this audit's findings as a baseline (`--write-baseline`), relative to the current
    /// folder.
    pub write_baseline: Option<String>,
    /// Write XML sitemaps of the indexable pages into this folder (`--write-sitemaps`), relative
    /// to the current folder.
    pub write_sitemaps: Option<String>,
    pub fail_on: Option<String>,
    /// `production` or `staging` (`--environment`).
    pub environment: Option<String>,
    /// Non-production host patterns added to the built-in ones (`--non-production-host`).
    pub non_production_hosts: Option<Vec<String>>,
    /// Files of root certificates (PEM or DER) trusted besides the system's (`--ca-cert`);
    /// relative paths are relative to the config file's folder.
    pub ca_certs: Option<Vec<String>>,
    /// Host names answered from an address instead of DNS, `HOST=ADDR[:PORT]` each
    /// (`--resolve`; [`ConfigFile::resolve_entries`] reads them).
    pub resolve: Option<Vec<String>>,
    #[serde(default)]
    pub rules: BTreeMap<String, String>,
    #[serde(default)]
    pub suppress: Vec<SuppressEntry>,
}

/// One `[[suppress]]` entry.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SuppressEntry {
    pub rule: String,
    pub urls: String,
    /// Only the findings about this crawler profile (`gptbot`).
    #[serde(default)]
    pub profile: Option<String>,
    pub reason: String,
}

impl ConfigFile {
    /// Parse the TOML text of a config file.
    pub fn parse(text: &str) -> Result<Self, ConfigError> {
        toml::from_str(text).map_err(|e| ConfigError::Toml(e.to_string()))
    }

    /// The `resolve` entries, read: `(host, address)` each, for [`crate::HttpOptions::resolve`]
    /// or [`crate::AuditorBuilder::resolve`]. An entry that is not `HOST=ADDR[:PORT]` is an
    /// error naming it.
    pub fn resolve_entries(&self) -> Result<Vec<(String, SocketAddr)>, ConfigError> {
        self.resolve
            .iter()
            .flatten()
            .map(|entry| crawlgate_crawl::parse_resolve(entry).map_err(ConfigError::from))
            .collect()
    }

    /// The rule configuration it states.
    pub fn rule_config(&self) -> Result<RuleConfig, ConfigError> {
        let mut config = RuleConfig::default();
        for (key, level) in &self.rules {
            let level = level.parse().map_err(|message| ConfigError::Rule {
                rule: key.clone(),
                message,
            })?;
            match key.split_once('@') {
                Some((rule, profile)) if !rule.is_empty() && !profile.trim().is_empty() => {
                    config.set_for_profile(rule, profile.trim(), level);
                }
                Some(_) => {
                    return Err(ConfigError::Rule {
                        rule: key.clone(),
                        message: "write `RULE@PROFILE`, e.g. `robots/blocked-linked@gptbot`"
                            .to_owned(),
                    });
                }
                None => config.set(key.clone(), level),
            }
        }
        for entry in &self.suppress {
            if entry.reason.trim().is_empty() {
                return Err(ConfigError::Rule {
                    rule: entry.rule.clone(),
                    message: "a suppression needs a reason".to_owned(),
                });
            }
            match &entry.profile {
                Some(profile) => {
                    config.suppress_for_profile(
                        &entry.rule,
                        profile,
                        &entry.urls,
                        &entry.reason,
                    )?;
                }
                None => config.suppress(&entry.rule, &entry.urls, &entry.reason)?,
            }
        }
        Ok(config)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crawlgate_core::Evidence;

    fn finding(rule: &str, url: &str) -> Finding {
        Finding {
            rule: rule.into(),
            severity: Severity::Warning,
            url: url.into(),
            profile: None,
            message: String::new(),
            evidence: vec![Evidence::Note { text: "x".into() }],
        }
    }

    #[test]
    fn the_pace_keys_take_whole_and_decimal_numbers() {
        let config = ConfigFile::parse("rate = 2\ndelay = 0.5\n").unwrap();
        assert_eq!((config.rate, config.delay), (Some(2.0), Some(0.5)));
        assert!(ConfigFile::parse("rate = \"fast\"\n").is_err());
    }

    #[test]
    fn a_config_file_sets_levels_and_suppressions() {
        let file = ConfigFile::parse(
            r#"
            max_pages = 10
            [rules]
            "robots/missing" = "off"
            "canonical/cross-domain" = "error"
            [[suppress]]
            rule = "robots/blocked-linked"
            urls = "https://e.com/search*"
            reason = "on purpose"
            "#,
        )
        .unwrap();
        assert_eq!(file.max_pages, Some(10));
        let config = file.rule_config().unwrap();
        assert!(!config.is_enabled("robots/missing"));
        assert_eq!(
            config.severity("canonical/cross-domain"),
            Some(Severity::Error)
        );
        assert!(
            config
                .suppression_for(&finding(
                    "robots/blocked-linked",
                    "https://e.com/search?q=a"
                ))
                .is_some()
        );
        assert!(
            config
                .suppression_for(&finding("robots/blocked-linked", "https://e.com/shop"))
                .is_none()
        );
    }

    fn finding_for(rule: &str, url: &str, profile: &str) -> Finding {
        Finding {
            profile: Some(profile.into()),
            ..finding(rule, url)
        }
    }

    #[test]
    fn levels_and_suppressions_can_name_a_profile() {
        let file = ConfigFile::parse(
            r#"
            expect_blocked = ["gptbot", "CCBot"]
            [rules]
            "robots/blocked-linked" = "error"
            "robots/blocked-linked@gptbot" = "off"
            "robots/blocked-linked@CCBot" = "notice"
            "robots/missing" = "off"
            "robots/missing@bingbot" = "warning"
            [[suppress]]
            rule = "sitemap/url-blocked"
            profile = "gptbot"
            urls = "*"
            reason = "GPTBot is kept out on purpose"
            "#,
        )
        .unwrap();
        assert_eq!(
            file.expect_blocked.as_deref(),
            Some(&["gptbot".to_owned(), "CCBot".to_owned()][..])
        );
        let config = file.rule_config().unwrap();
        let mut profiles: Vec<&str> = config.named_profiles().collect();
        profiles.sort_unstable();
        assert_eq!(profiles, ["bingbot", "ccbot", "gptbot", "gptbot"]);
        // A rule off for all but one profile still runs, for that profile only.
        assert!(config.is_enabled("robots/missing"));
        let mut findings = vec![
            finding_for("robots/blocked-linked", "https://e.com/a", "gptbot"),
            finding_for("robots/blocked-linked", "https://e.com/a", "ccbot"),
            finding_for("robots/blocked-linked", "https://e.com/a", "googlebot"),
            finding_for("robots/missing", "https://e.com/robots.txt", "bingbot"),
            finding_for("robots/missing", "https://e.com/robots.txt", "googlebot"),
        ];
        config.apply_levels(&mut findings);
        let kept: Vec<(&str, Option<&str>, Severity)> = findings
            .iter()
            .map(|f| (f.rule.as_str(), f.profile.as_deref(), f.severity))
            .collect();
        assert_eq!(
            kept,
            [
                ("robots/blocked-linked", Some("ccbot"), Severity::Notice),
                // The rule-wide level is the sink's to apply; left as the rule reported it.
                (
                    "robots/blocked-linked",
                    Some("googlebot"),
                    Severity::Warning
                ),
                ("robots/missing", Some("bingbot"), Severity::Warning),
            ]
        );
        let blocked = |profile| finding_for("sitemap/url-blocked", "https://e.com/x", profile);
        assert!(config.suppression_for(&blocked("gptbot")).is_some());
        assert!(config.suppression_for(&blocked("googlebot")).is_none());
        assert!(
            config
                .suppression_for(&finding("sitemap/url-blocked", "https://e.com/x"))
                .is_none()
        );
    }

    #[test]
    fn a_profile_level_needs_a_rule_and_a_profile() {
        for key in [
            "@gptbot",
            "robots/blocked-linked@",
            "robots/blocked-linked@ ",
        ] {
            let file = ConfigFile::parse(&format!("[rules]\n\"{key}\" = \"off\"\n")).unwrap();
            let error = file.rule_config().unwrap_err().to_string();
            assert!(error.contains("RULE@PROFILE"), "{key}: {error}");
        }
    }

    #[test]
    fn scope_keys_are_read_and_their_patterns_checked() {
        let file = ConfigFile::parse(
            "include = [\"https://e.com/*\"]\nexclude = [\"*/cart*\", \"*?sort=*\"]\n\
             urls_from = \"urls.txt\"\nsitemap_only = true\nmax_discovered = 5000\n",
        )
        .unwrap();
        let shown = |patterns: &Option<Vec<UrlPattern>>| -> Vec<String> {
            patterns.iter().flatten().map(ToString::to_string).collect()
        };
        assert_eq!(shown(&file.include), ["https://e.com/*"]);
        assert_eq!(shown(&file.exclude), ["*/cart*", "*?sort=*"]);
        assert_eq!(file.urls_from.as_deref(), Some("urls.txt"));
        assert_eq!(file.sitemap_only, Some(true));
        assert_eq!(file.max_discovered, Some(5000));
        let error = ConfigFile::parse("exclude = [\"/cart*\"]\n")
            .unwrap_err()
            .to_string();
        assert!(error.contains("invalid URL pattern `/cart*`"), "{error}");
        assert!(error.contains("write `*/cart*`"), "{error}");
        assert!(ConfigFile::parse("include = \"https://e.com/*\"\n").is_err());
    }

    #[test]
    fn suppressions_use_the_same_url_patterns() {
        let mut config = RuleConfig::default();
        let error = config
            .suppress("robots/missing", "/search*", "why")
            .unwrap_err();
        assert!(matches!(error, ConfigError::Pattern(_)));
        assert!(
            error
                .to_string()
                .starts_with("invalid URL pattern `/search*`")
        );
        assert!(
            config
                .suppress("robots/missing", "https://e.com/[a", "why")
                .is_err()
        );
        config
            .suppress("robots/missing", "*/search*", "why")
            .unwrap();
        assert!(
            config
                .suppression_for(&finding("robots/missing", "https://e.com/search/x"))
                .is_some()
        );
    }

    #[test]
    fn bad_levels_and_missing_reasons_are_errors() {
        let bad = ConfigFile::parse("[rules]\n\"robots/missing\" = \"loud\"\n").unwrap();
        assert!(bad.rule_config().is_err());
        let no_reason = ConfigFile::parse(
            "[[suppress]]\nrule = \"robots/missing\"\nurls = \"*\"\nreason = \" \"\n",
        )
        .unwrap();
        assert!(no_reason.rule_config().is_err());
        assert!(ConfigFile::parse("max_pagez = 1\n").is_err());
    }

    #[test]
    fn a_config_file_names_ca_certificate_files() {
        let file =
            ConfigFile::parse("ca_certs = [\"certs/internal-ca.pem\", \"/etc/b.der\"]\n").unwrap();
        assert_eq!(
            file.ca_certs.as_deref(),
            Some(&["certs/internal-ca.pem".to_owned(), "/etc/b.der".to_owned()][..])
        );
        assert!(ConfigFile::parse("ca_certs = \"one.pem\"\n").is_err());
    }

    #[test]
    fn a_config_file_resolves_host_names() {
        let file = ConfigFile::parse(
            "resolve = [\"www.example.com=10.0.0.5\", \"Staging.Example.com=10.0.0.6:8443\"]\n",
        )
        .unwrap();
        assert_eq!(
            file.resolve_entries().unwrap(),
            [
                ("www.example.com".to_owned(), "10.0.0.5:0".parse().unwrap()),
                (
                    "staging.example.com".to_owned(),
                    "10.0.0.6:8443".parse().unwrap()
                ),
            ]
        );
        assert!(ConfigFile::default().resolve_entries().unwrap().is_empty());
        let bad = ConfigFile::parse("resolve = [\"www.example.com 10.0.0.5\"]\n").unwrap();
        let error = bad.resolve_entries().unwrap_err().to_string();
        assert!(
            error.starts_with("resolve: `www.example.com 10.0.0.5` is not HOST=ADDR"),
            "{error}"
        );
        assert!(ConfigFile::parse("resolve = \"www.example.com=10.0.0.5\"\n").is_err());
    }

    #[test]
    fn a_config_file_names_the_environment_and_non_production_hosts() {
        let file = ConfigFile::parse(
            "environment = \"production\"\nnon_production_hosts = [\"*.internal.test\"]\n",
        )
        .unwrap();
        assert_eq!(file.environment.as_deref(), Some("production"));
        assert_eq!(
            file.non_production_hosts.as_deref(),
            Some(&["*.internal.test".to_owned()][..])
        );
    }
}
