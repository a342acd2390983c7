//! Which environment an audited site is (production or staging), and which hosts are not
//! production: the inputs of the `env/` rules (a staging `Disallow: /` shipped to production, a
//! staging site left open to search engines).

use serde::{Deserialize, Serialize};
use std::fmt;
use url::Url;

/// What the audited site is declared to be (`crawlgate audit --environment`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Environment {
    /// The public site: it must carry no staging artefact.
    Production,
    /// A staging, preview or test site: it must stay out of search engines.
    Staging,
}

impl Environment {
    /// `production` or `staging`.
    pub fn as_str(self) -> &'static str {
        match self {
            Environment::Production => "production",
            Environment::Staging => "staging",
        }
    }
}

impl fmt::Display for Environment {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl std::str::FromStr for Environment {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        match text.trim().to_ascii_lowercase().as_str() {
            "production" | "prod" => Ok(Environment::Production),
            "staging" | "stage" => Ok(Environment::Staging),
            _ => Err(format!(
                "`{text}` is not an environment: give production or staging"
            )),
        }
    }
}

/// The non-production host patterns used when none are configured.
pub const DEFAULT_NON_PRODUCTION_HOSTS: [&str; 15] = [
    "localhost",
    "*.localhost",
    "staging.",
    "stage.",
    "dev.",
    "preview.",
    "uat.",
    "qa.",
    "*.vercel.app",
    "*.netlify.app",
    "*.pages.dev",
    "*.herokuapp.com",
    "*.ngrok.io",
    "*.ngrok-free.app",
    "*.azurewebsites.net",
];

/// A pattern of host names that are not production.
///
/// - `*.vercel.app`: any host ending in `.vercel.app` (`*` matches any run of characters, so
///   `*-staging.example.com` works too);
/// - `staging.` (a trailing dot): any host with a `staging` label followed by at least two more
///   labels (`staging.example.com`, `www.staging.example.com`, but not `staging.com`);
/// - anything else: that host or a subdomain of it (`localhost`, `app.localhost`,
///   `127.0.0.1`).
///
/// Hosts are compared lower-case, without port.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HostPattern {
    text: String,
}

impl HostPattern {
    /// Parses a pattern; `Err` names what is wrong.
    pub fn parse(text: &str) -> Result<HostPattern, String> {
        let text = text.trim().to_ascii_lowercase();
        if text.is_empty() || text == "." || text.chars().all(|c| c == '*' || c == '.') {
            return Err(format!("`{text}` is not a host pattern"));
        }
        if let Some(bad) = text
            .chars()
            .find(|c| !(c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_' | '*')))
        {
            return Err(format!(
                "host pattern `{text}`: `{bad}` is not allowed (letters, digits, `.`, `-`, `_`, `*`)"
            ));
        }
        Ok(HostPattern { text })
    }

    /// The default patterns ([`DEFAULT_NON_PRODUCTION_HOSTS`]).
    pub fn defaults() -> Vec<HostPattern> {
        DEFAULT_NON_PRODUCTION_HOSTS
            .iter()
            .filter_map(|text| HostPattern::parse(text).ok())
            .collect()
    }

    /// The pattern as written (lower-cased).
    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// Whether `host` (a host name or IP address, no port) matches.
    pub fn matches(&self, host: &str) -> bool {
        let host = host.trim_end_matches('.').to_ascii_lowercase();
        if self.text.contains('*') {
            return glob_matches(self.text.as_bytes(), host.as_bytes());
        }
        if let Some(label) = self.text.strip_suffix('.') {
            let labels: Vec<&str> = host.split('.').collect();
            return labels
                .iter()
                .enumerate()
                .any(|(at, l)| *l == label && labels.len().saturating_sub(at + 1) >= 2);
        }
        host == self.text
            || host
                .strip_suffix(self.text.as_str())
                .is_some_and(|rest| rest.ends_with('.'))
    }

    /// Whether the host of `url` matches.
    pub fn matches_url(&self, url: &Url) -> bool {
        url.host_str()
            .map(|host| host.trim_start_matches('[').trim_end_matches(']'))
            .is_some_and(|host| self.matches(host))
    }
}

impl fmt::Display for HostPattern {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

/// `*` matches any run of bytes (none included); everything else matches itself. Linear: the
/// pieces between stars are found left to right, the last anchored at the end.
fn glob_matches(pattern: &[u8], text: &[u8]) -> bool {
    let mut pieces = pattern.split(|&b| b == b'*');
    let first = pieces.next().unwrap_or_default();
    let Some(mut rest) = text.strip_prefix(first) else {
        return false;
    };
    let mut pieces: Vec<&[u8]> = pieces.collect();
    let Some(last) = pieces.pop() else {
        return rest.is_empty();
    };
    for piece in pieces {
        let Some(at) = memchr::memmem::find(rest, piece) else {
            return false;
        };
        rest = rest.get(at + piece.len()..).unwrap_or_default();
    }
    rest.ends_with(last)
}

/// The environment settings of an audit: what the site is, and the non-production hosts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EnvironmentSettings {
    /// What the audited site is declared to be; `None` when not said (the `env/` rules stay
    /// quiet).
    pub environment: Option<Environment>,
    /// Hosts that are not production (default [`DEFAULT_NON_PRODUCTION_HOSTS`]).
    pub non_production_hosts: Vec<HostPattern>,
}

impl Default for EnvironmentSettings {
    fn default() -> Self {
        Self {
            environment: None,
            non_production_hosts: HostPattern::defaults(),
        }
    }
}

impl EnvironmentSettings {
    /// The first non-production pattern the host of `url` matches.
    pub fn non_production(&self, url: &Url) -> Option<&HostPattern> {
        self.non_production_hosts
            .iter()
            .find(|pattern| pattern.matches_url(url))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn matches(pattern: &str, host: &str) -> bool {
        HostPattern::parse(pattern).unwrap().matches(host)
    }

    #[test]
    fn wildcard_patterns_match_any_run() {
        assert!(matches("*.vercel.app", "shop-git-main.vercel.app"));
        assert!(!matches("*.vercel.app", "vercel.app"));
        assert!(!matches("*.vercel.app", "vercel.app.example.com"));
        assert!(matches("*-staging.example.com", "shop-staging.example.com"));
        assert!(!matches("*-staging.example.com", "shop.example.com"));
        assert!(matches("dev-*.example.*", "dev-1.example.net"));
    }

    #[test]
    fn label_patterns_need_a_registrable_domain_after_the_label() {
        assert!(matches("staging.", "staging.example.com"));
        assert!(matches("staging.", "www.staging.example.co.uk"));
        assert!(matches("staging.", "STAGING.Example.com"));
        assert!(!matches("staging.", "staging.com"));
        assert!(!matches("staging.", "mystaging.example.com"));
        assert!(!matches("dev.", "devices.example.com"));
    }

    #[test]
    fn plain_patterns_match_the_host_and_its_subdomains() {
        assert!(matches("localhost", "localhost"));
        assert!(matches("localhost", "app.localhost"));
        assert!(!matches("localhost", "notlocalhost"));
        assert!(matches("127.0.0.1", "127.0.0.1"));
        assert!(!matches("127.0.0.1", "127.0.0.10"));
    }

    #[test]
    fn bad_patterns_are_refused_with_a_reason() {
        assert!(HostPattern::parse("").is_err());
        assert!(HostPattern::parse("*").is_err());
        assert!(HostPattern::parse("a/b").unwrap_err().contains("`/`"));
        assert!(HostPattern::parse("host:8080").is_err());
        assert_eq!(
            HostPattern::defaults().len(),
            DEFAULT_NON_PRODUCTION_HOSTS.len()
        );
    }

    #[test]
    fn settings_find_the_first_pattern_a_url_matches() {
        let settings = EnvironmentSettings::default();
        let url = |s: &str| Url::parse(s).unwrap();
        assert_eq!(
            settings
                .non_production(&url("https://staging.shop.example/a"))
                .map(HostPattern::as_str),
            Some("staging.")
        );
        assert!(
            settings
                .non_production(&url("https://www.shop.example/"))
                .is_none()
        );
        assert!(
            settings
                .non_production(&url("http://localhost:3000/"))
                .is_some()
        );
        assert_eq!("PROD".parse(), Ok(Environment::Production));
        assert!("live".parse::<Environment>().is_err());
    }
}
