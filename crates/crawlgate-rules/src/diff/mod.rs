//! The `diff/` rules: what `crawlgate diff` reports between two audits. They read two reports,
//! not a site, so they are not in the audit's rule list ([`crate::RULES`]); the comparison itself
//! is `crawlgate::diff`, which reports under these rules. Their docs reach RULES.md, `crawlgate
//! explain` and the reports like every other rule's.

mod canonical_changed;
mod newly_blocked;
mod newly_noindex;
mod sitemap_dropped;
mod sitemap_set_changed;
mod snippet_directives_changed;
mod status_regressed;

pub use canonical_changed::CanonicalChanged;
pub use newly_blocked::NewlyBlocked;
pub use newly_noindex::NewlyNoindex;
pub use sitemap_dropped::SitemapDropped;
pub use sitemap_set_changed::SitemapSetChanged;
pub use snippet_directives_changed::SnippetDirectivesChanged;
pub use status_regressed::StatusRegressed;

use crawlgate_core::RuleMeta;

/// Every `diff/` rule, in documentation order.
pub static DIFF_RULES: [&RuleMeta; 7] = [
    &NewlyBlocked::META,
    &NewlyNoindex::META,
    &CanonicalChanged::META,
    &StatusRegressed::META,
    &SitemapDropped::META,
    &SitemapSetChanged::META,
    &SnippetDirectivesChanged::META,
];
