use crate::robots::files::report_lint;
use crawlgate_core::Site;
use crawlgate_core::declare_rule;
use crawlgate_core::rule::{Findings, Rule};

declare_rule! {
    /// ## What it does
    /// Finds `Disallow` patterns that name areas attackers look for: administration and login
    /// pages, backups and dumps, version-control and configuration files (`.git`, `.env`), staging
    /// and test areas, server status and debug endpoints. Well-known defaults of common CMSs (such
    /// as WordPress's `Disallow: /wp-admin/`) are only noted.
    ///
    /// ## Why is this bad?
    /// robots.txt is public, and it is the first file a scanner reads: a Disallow line is an
    /// advertisement for the path. RFC 9309 warns that the protocol "is not a substitute for valid
    /// content security measures", and OWASP's testing guide reviews robots.txt for exactly this
    /// leak. Well-behaved crawlers stay out; attackers do not.
    ///
    /// ## Example
    /// ```text
    /// User-agent: *
    /// Disallow: /backup-2023/
    /// Disallow: /admin-old/
    /// ```
    ///
    /// ## How to fix
    /// Protect the area with authentication (or remove it from the web server), then delete the
    /// line: a protected URL needs no Disallow. If it must stay, disallow a broader, less telling
    /// prefix.
    pub struct SensitivePathDisclosed {
        code: crawlgate_core::robots::lint::Code::SensitivePathDisclosed,
        summary: "robots.txt publishes the path of an admin, backup or internal area",
    }
}

impl Rule for SensitivePathDisclosed {
    fn check(&self, site: &Site, out: &mut Findings<'_>) {
        report_lint(site, Self::META.id, out);
    }
}
