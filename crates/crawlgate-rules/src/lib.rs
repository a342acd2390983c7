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
    &canonical::OutsideHead,
    &sitemap::UrlBlocked,
];

/// The built-in rule with this id.
pub fn find(id: &str) -> Option<&'static dyn Rule> {
    RULES.iter().copied().find(|rule| rule.meta().id == id)
}
