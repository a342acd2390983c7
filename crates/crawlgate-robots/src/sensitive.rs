//! The sensitive-path dictionary: rule patterns that tell the world where a site's admin,
//! backups, staging copies or secrets live (RFC 9309 §3: robots.txt is not access control).
//!
//! Used by `robots lint` (`robots/sensitive-path-disclosed`) and the audit rules. Matching is by
//! whole path segment, so `/admin/` and `/wp-login.php` match while `/administration-of-justice`
//! or `/testimonials/` do not.

use serde::Serialize;

/// Why a path is sensitive.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum SensitiveCategory {
    /// Administration back-ends and consoles.
    Admin,
    /// Login and authentication pages.
    Login,
    /// Version-control metadata (`.git`, `.svn`, `.hg`).
    VersionControl,
    /// Secrets and configuration (`.env`, `config`, `.htpasswd`).
    Secrets,
    /// Backups and database dumps.
    Backup,
    /// Non-production copies (staging, dev, test).
    Environment,
    /// Areas described as internal or private.
    Internal,
    /// Installers and setup scripts.
    Install,
    /// Diagnostics and server status (`server-status`, `actuator`, `debug`, `phpinfo`).
    Diagnostics,
    /// Server-side scripts (`cgi-bin`).
    Scripts,
}

impl SensitiveCategory {
    /// A short phrase for messages: "an admin area", "version-control data", …
    pub fn describe(self) -> &'static str {
        match self {
            SensitiveCategory::Admin => "an admin area",
            SensitiveCategory::Login => "a login page",
            SensitiveCategory::VersionControl => "version-control data",
            SensitiveCategory::Secrets => "secrets or configuration",
            SensitiveCategory::Backup => "backups or dumps",
            SensitiveCategory::Environment => "a non-production copy",
            SensitiveCategory::Internal => "an internal area",
            SensitiveCategory::Install => "an installer",
            SensitiveCategory::Diagnostics => "diagnostics or server status",
            SensitiveCategory::Scripts => "server-side scripts",
        }
    }
}

/// A pattern that names a sensitive path.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct SensitiveMatch {
    /// The dictionary word that matched (`admin`, `.git`, `backup`, …).
    pub keyword: &'static str,
    pub category: SensitiveCategory,
    /// The CMS whose default robots.txt contains exactly this rule (`WordPress` for
    /// `/wp-admin/`): the path is public knowledge anyway, so it is worth only a notice.
    pub cms_default: Option<&'static str>,
}

/// Words matched against a whole segment stem, or against one of its `-`/`_`/`.`-separated words
/// when `as_word` is true. Short, common words (`dev`, `test`, `cms`) only match a whole stem.
struct Keyword {
    word: &'static str,
    category: SensitiveCategory,
    as_word: bool,
}

const fn keyword(word: &'static str, category: SensitiveCategory, as_word: bool) -> Keyword {
    Keyword {
        word,
        category,
        as_word,
    }
}

const KEYWORDS: &[Keyword] = {
    use SensitiveCategory::{
        Admin, Backup, Diagnostics, Environment, Install, Internal, Login, Scripts, Secrets,
    };
    &[
        keyword("admin", Admin, true),
        keyword("administrator", Admin, true),
        keyword("backend", Admin, true),
        keyword("cms", Admin, false),
        keyword("phpmyadmin", Admin, true),
        keyword("adminer", Admin, true),
        keyword("cpanel", Admin, true),
        keyword("console", Admin, false),
        keyword("login", Login, true),
        keyword("signin", Login, true),
        keyword("logon", Login, true),
        keyword("config", Secrets, true),
        keyword("configuration", Secrets, true),
        keyword("secret", Secrets, true),
        keyword("credentials", Secrets, true),
        keyword("backup", Backup, true),
        keyword("bak", Backup, false),
        keyword("dump", Backup, true),
        keyword("staging", Environment, true),
        keyword("dev", Environment, false),
        keyword("test", Environment, false),
        keyword("uat", Environment, false),
        keyword("preprod", Environment, true),
        keyword("internal", Internal, true),
        keyword("private", Internal, true),
        keyword("install", Install, true),
        keyword("installer", Install, true),
        keyword("installation", Install, true),
        keyword("setup", Install, false),
        keyword("server-status", Diagnostics, false),
        keyword("server-info", Diagnostics, false),
        keyword("actuator", Diagnostics, true),
        keyword("debug", Diagnostics, true),
        keyword("phpinfo", Diagnostics, true),
        keyword("cgi-bin", Scripts, false),
    ]
};

/// Hidden files and folders, matched when a segment starts with them (`.env.local`, `.git/`).
const DOT_NAMES: &[(&str, SensitiveCategory)] = &[
    (".git", SensitiveCategory::VersionControl),
    (".svn", SensitiveCategory::VersionControl),
    (".hg", SensitiveCategory::VersionControl),
    (".env", SensitiveCategory::Secrets),
    (".htpasswd", SensitiveCategory::Secrets),
    (".htaccess", SensitiveCategory::Secrets),
    (".aws", SensitiveCategory::Secrets),
    (".ssh", SensitiveCategory::Secrets),
];

/// File extensions of backups and database dumps (`/*.sql$`, `/site.bak`).
const BACKUP_EXTENSIONS: &[&str] = &["bak", "sql", "dump", "backup"];

/// Rules that ship in a CMS's default robots.txt, compared after lower-casing.
const CMS_DEFAULTS: &[(&str, &str)] = &[
    ("/wp-admin/", "WordPress"),
    ("/administrator/", "Joomla"),
    ("/installation/", "Joomla"),
    ("/install.php", "Drupal"),
    ("/user/login", "Drupal"),
    ("/user/login/", "Drupal"),
    ("/index.php/user/login", "Drupal"),
    ("/index.php/user/login/", "Drupal"),
    ("/?q=user/login", "Drupal"),
    ("/?q=user/login/", "Drupal"),
];

/// Whether a rule pattern names a sensitive path, and which.
///
/// ```
/// use crawlgate_robots::sensitive::{classify, SensitiveCategory};
///
/// assert_eq!(classify("/.git/").map(|m| m.category), Some(SensitiveCategory::VersionControl));
/// assert_eq!(classify("/wp-admin/").and_then(|m| m.cms_default), Some("WordPress"));
/// assert_eq!(classify("/testimonials/"), None);
/// ```
pub fn classify(pattern: &str) -> Option<SensitiveMatch> {
    let lower = pattern.to_ascii_lowercase();
    let cms_default = CMS_DEFAULTS
        .iter()
        .find(|(path, _)| *path == lower)
        .map(|(_, cms)| *cms);
    // The query is not a path: `/search?q=admin` names no admin area.
    let path = lower.split(['?', '#']).next().unwrap_or_default();
    path.split('/')
        .map(|segment| segment.trim_matches(['*', '$']))
        .find_map(classify_segment)
        .map(|(keyword, category)| SensitiveMatch {
            keyword,
            category,
            cms_default,
        })
}

fn classify_segment(segment: &str) -> Option<(&'static str, SensitiveCategory)> {
    if let Some(&(name, category)) = DOT_NAMES.iter().find(|(name, _)| {
        segment
            .strip_prefix(name)
            .is_some_and(|rest| rest.is_empty() || rest.starts_with(['.', '-', '_', '*']))
    }) {
        return Some((name, category));
    }
    // The stem: the segment without its extension (`wp-login.php` → `wp-login`).
    let (stem, extension) = match segment.rsplit_once('.') {
        Some((stem, extension)) if !stem.is_empty() => (stem, extension),
        _ => (segment, ""),
    };
    if let Some(&keyword) = BACKUP_EXTENSIONS.iter().find(|&&known| known == extension) {
        return Some((keyword, SensitiveCategory::Backup));
    }
    // The first keyword (in list order) that the stem or, for `as_word` keywords, one of its
    // words is. Each text is looked up once, rather than the stem split again for every keyword.
    let mut best = keyword_of(stem, false);
    if stem.contains(WORD_SEPARATORS) {
        for word in stem.split(WORD_SEPARATORS) {
            if let Some(index) = keyword_of(word, true) {
                best = Some(best.map_or(index, |best| best.min(index)));
            }
        }
    }
    best.and_then(|index| KEYWORDS.get(index))
        .map(|keyword| (keyword.word, keyword.category))
}

/// What splits a stem into words (`wp-login` → `wp`, `login`).
const WORD_SEPARATORS: [char; 3] = ['-', '_', '.'];

/// The shortest and longest keyword, in bytes: a text outside these (plus a plural `s`) is no
/// keyword, which spares most segments the comparisons.
const KEYWORD_LENGTHS: (usize, usize) = {
    let (mut shortest, mut longest) = (usize::MAX, 0);
    let mut index = 0;
    while index < KEYWORDS.len() {
        let length = KEYWORDS[index].word.len();
        if length < shortest {
            shortest = length;
        }
        if length > longest {
            longest = length;
        }
        index += 1;
    }
    (shortest, longest)
};

/// The index of the first keyword `text` is (the word itself, or its plural with `s`); with
/// `words_only`, among the keywords matched as words only.
fn keyword_of(text: &str, words_only: bool) -> Option<usize> {
    let (shortest, longest) = KEYWORD_LENGTHS;
    if text.len() < shortest || text.len() > longest + 1 {
        return None;
    }
    let singular = text.strip_suffix('s');
    KEYWORDS.iter().position(|keyword| {
        (!words_only || keyword.as_word) && (keyword.word == text || singular == Some(keyword.word))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keyword_of(pattern: &str) -> Option<&'static str> {
        classify(pattern).map(|m| m.keyword)
    }

    #[test]
    fn sensitive_segments_are_recognised() {
        let cases = [
            ("/admin/", "admin"),
            ("/Administrator/", "administrator"),
            ("/wp-login.php", "login"),
            ("/user/login", "login"),
            ("/.git/", ".git"),
            ("/.env", ".env"),
            ("/.env.local", ".env"),
            ("/*.sql.bak$", "bak"),
            ("/backups/", "backup"),
            ("/db_dump.sql", "sql"),
            ("/db_dump/", "dump"),
            ("/staging/", "staging"),
            ("/dev/", "dev"),
            ("/test/", "test"),
            ("/api/internal/", "internal"),
            ("/private*", "private"),
            ("/config.php", "config"),
            ("/install/", "install"),
            ("/setup.php", "setup"),
            ("/cgi-bin/", "cgi-bin"),
            ("/server-status", "server-status"),
            ("/actuator/health", "actuator"),
            ("/phpmyadmin/", "phpmyadmin"),
            ("/*/debug/", "debug"),
        ];
        for (pattern, keyword) in cases {
            assert_eq!(keyword_of(pattern), Some(keyword), "pattern {pattern}");
        }
    }

    #[test]
    fn ordinary_paths_are_not_sensitive() {
        for pattern in [
            "/testimonials/",
            "/developers/",
            "/administration-of-justice",
            "/search?q=admin",
            "/latest/",
            "/contest/",
            "/*.pdf$",
            "/cart",
            "/",
            "",
            "/gitlab-tips/",
            "/environment/",
        ] {
            assert_eq!(keyword_of(pattern), None, "pattern {pattern}");
        }
    }

    #[test]
    fn cms_defaults_are_marked() {
        assert_eq!(
            classify("/wp-admin/").and_then(|m| m.cms_default),
            Some("WordPress")
        );
        assert_eq!(
            classify("/administrator/").and_then(|m| m.cms_default),
            Some("Joomla")
        );
        assert_eq!(classify("/admin/").and_then(|m| m.cms_default), None);
    }
}
