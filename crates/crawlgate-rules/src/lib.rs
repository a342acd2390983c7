//! crawlgate's built-in rules.
//!
//! One rule per file, grouped by family (`robots/`, `directives/`, `canonical/`, `sitemap/`), each
//! declared with [`crawlgate_core::declare_rule!`] so its `///` docs are its documentation.
//! [`RULES`] lists them in documentation order; `RULES.md` beside this crate is generated from it
//! (a test keeps it current).

pub mod canonical;
pub mod directives;
mod docs;
pub mod robots;
pub mod sitemap;
mod support;

pub use docs::rules_markdown;

use crawlgate_core::Rule;

/// Every built-in rule, in documentation order.
pub static RULES: &[&dyn Rule] = &[
    &robots::BlockedNoindex,
    &robots::BlockedLinked,
    // directives (RULES.md §2.3)
    &directives::Noindex,
    &directives::MetaHeaderConflict,
    &directives::RedundantSources,
    &directives::BotOverrideIneffective,
    &directives::UnknownToken,
    &directives::ObsoleteToken,
    &directives::InvalidValue,
    &directives::UnavailableAfterPast,
    &directives::UnavailableAfterScheduled,
    &directives::Nosnippet,
    &directives::Noimageindex,
    &directives::IndexifembeddedAlone,
    &directives::NofollowPage,
    &directives::MetaInBody,
    &directives::NoindexOnResource,
    &directives::RobotsTagHeader,
    // canonical (RULES.md §2.5)
    &canonical::MultipleConflicting,
    &canonical::MultipleIdentical,
    &canonical::HeaderHtmlMismatch,
    &canonical::Relative,
    &canonical::Invalid,
    &canonical::Fragment,
    &canonical::OutsideHead,
    &canonical::AfterInvalidHeadElement,
    &canonical::IgnoredAttributes,
    &canonical::TargetError,
    &canonical::TargetRedirects,
    &canonical::TargetNoindex,
    &canonical::TargetBlocked,
    &canonical::Chain,
    &canonical::Loop,
    &canonical::ToHomepage,
    &canonical::CrossLanguage,
    &canonical::CrossDomain,
    &canonical::HttpsToHttp,
    &canonical::Missing,
    &canonical::InternalLinksToCanonicalised,
    &sitemap::UrlBlocked,
];

/// The built-in rule with this id.
pub fn find(id: &str) -> Option<&'static dyn Rule> {
    RULES.iter().copied().find(|rule| rule.meta().id == id)
}
