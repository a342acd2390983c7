use crate::robots::assets::report_blocked_assets;
use crawlgate_core::Site;
use crawlgate_core::declare_rule;
use crawlgate_core::rule::{Findings, Rule};
use crawlgate_core::signals::{AssetKind, Profile};

declare_rule! {
    /// ## What it does
    /// Finds scripts (`<script src>`, `<link rel="preload" as="script">`, `<link
    /// rel="modulepreload">`) that indexable pages use and robots.txt disallows for the audited
    /// crawler. The finding is about the script; the pages using it are in the evidence.
    ///
    /// ## Why is this bad?
    /// Google Search "won't render JavaScript from blocked files or on blocked pages". Whatever the
    /// script adds to the page (content, links, structured data, the canonical or robots meta tag a
    /// framework writes) is invisible to Google, and a page built by JavaScript may be indexed
    /// empty.
    ///
    /// ## Example
    /// ```text
    /// robots.txt   Disallow: /static/js/
    /// /product/1   <script src="/static/js/app.js"></script>
    /// ```
    ///
    /// ## How to fix
    /// Allow crawling of the scripts pages need: remove or narrow the Disallow rule quoted in the
    /// evidence, or add a more specific rule such as `Allow: /static/js/` to the same group. Keep
    /// blocking only endpoints that pages do not need to render.
    ///
    /// Not reported for crawlers declared expected-blocked (`--expect-blocked gptbot`): they are
    /// meant to read neither the pages nor their scripts.
    pub struct BlockedJs {
        id: "robots/blocked-js",
        severity: Error,
        summary: "A script that indexable pages use is disallowed, so Google cannot run it",
    }
}

impl Rule for BlockedJs {
    fn check(&self, site: &Site, out: &mut Findings<'_>) {
        report_blocked_assets(site, AssetKind::Script, consequence, out);
    }
}

/// Google renders pages as a browser does; of other crawlers, say only what is certain.
fn consequence(profile: &Profile) -> String {
    let crawler = profile.display_name();
    if profile.is_google() {
        format!("{crawler} renders those pages without running it")
    } else {
        format!("{crawler} reads those pages without running it")
    }
}
