use crate::robots::assets::report_blocked_assets;
use crawlgate_core::Site;
use crawlgate_core::declare_rule;
use crawlgate_core::rule::{Findings, Rule};
use crawlgate_core::signals::{AssetKind, Profile};

declare_rule! {
    /// ## What it does
    /// Finds stylesheets (`<link rel="stylesheet">`, `<link rel="preload" as="style">`) that
    /// indexable pages use and robots.txt disallows for the audited crawler. The finding is about
    /// the stylesheet; the pages using it are in the evidence.
    ///
    /// ## Why is this bad?
    /// Google renders pages the way a browser does, and it cannot fetch a disallowed file. Google
    /// Search "won't render JavaScript from blocked files or on blocked pages", and the same holds
    /// for blocked stylesheets: the page is rendered unstyled. Google then judges layout and
    /// mobile-friendliness on a broken page, and content that CSS reveals or arranges may be
    /// misread.
    ///
    /// ## Example
    /// ```text
    /// robots.txt   Disallow: /assets/
    /// /            <link rel="stylesheet" href="/assets/site.css">
    /// ```
    ///
    /// ## How to fix
    /// Allow crawling of the stylesheets: remove or narrow the Disallow rule quoted in the
    /// evidence, or add a more specific rule such as `Allow: /assets/*.css` to the same group.
    ///
    /// Not reported for crawlers declared expected-blocked (`--expect-blocked gptbot`): they are
    /// meant to read neither the pages nor their stylesheets.
    pub struct BlockedCss {
        id: "robots/blocked-css",
        severity: Error,
        summary: "A stylesheet that indexable pages use is disallowed, so Google renders them unstyled",
    }
}

impl Rule for BlockedCss {
    fn check(&self, site: &Site, out: &mut Findings<'_>) {
        report_blocked_assets(site, AssetKind::Stylesheet, consequence, out);
    }
}

/// Google renders pages as a browser does; of other crawlers, say only what is certain.
fn consequence(profile: &Profile) -> String {
    let crawler = profile.display_name();
    if profile.is_google() {
        format!("{crawler} renders those pages without it")
    } else {
        format!("{crawler} reads those pages without it")
    }
}
