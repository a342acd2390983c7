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
    &robots::Unreachable,
    &robots::AuthOrForbidden,
    &robots::Missing,
    &robots::RedirectTooLong,
    &robots::RedirectCrossOrigin,
    &robots::ServedAsHtml,
    &robots::Oversize,
    &robots::NotUtf8,
    &robots::Bom,
    &robots::LineUnparseable,
    &robots::LineTooLong,
    &robots::UnsupportedField,
    &robots::NoindexField,
    &robots::TypoField,
    &robots::RuleOutsideGroup,
    &robots::EmptyUserAgent,
    &robots::PatternNotRooted,
    &robots::DollarNotLast,
    &robots::EmptyRule,
    &robots::SitemapUrlInvalid,
    &robots::NoSitemapField,
    &robots::DisallowAll,
    &robots::GroupShadowsGlobal,
    &robots::DuplicateGroups,
    &robots::UaDivergence,
    &robots::RuleMatchesNothing,
    &robots::SensitivePathDisclosed,
    &robots::BlockedCss,
    &robots::BlockedJs,
    &robots::BlockedImage,
    &robots::BlockedNoindex,
    &robots::BlockedLinked,
    &robots::BlockedCanonicalised,
    &robots::RedirectToBlocked,
    &robots::BlockedUnverifiable,
    &canonical::OutsideHead,
    &sitemap::UrlBlocked,
];

/// The built-in rule with this id.
pub fn find(id: &str) -> Option<&'static dyn Rule> {
    RULES.iter().copied().find(|rule| rule.meta().id == id)
}
