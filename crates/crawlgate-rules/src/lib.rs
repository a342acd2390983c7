//! crawlgate's built-in rules.
//!
//! One rule per file, grouped by family (`robots/`, `http/`, `directives/`, `canonical/`,
//! `sitemap/`, `hreflang/`, `env/`, `render/`, `diff/`), each declared with [`crawlgate_core::declare_rule!`] so its `///` docs are its
//! documentation. [`RULES`] lists the audit's rules in documentation order and
//! [`diff::DIFF_RULES`] those of `crawlgate diff`; [`catalogue`] is both, and `RULES.md` beside
//! this crate is generated from it (a test keeps it current). This crate is the one home of every
//! rule id and severity: a rule that reports a parser's issues takes both from the parser's typed
//! code.

pub mod canonical;
pub mod diff;
pub mod directives;
mod docs;
pub mod env;
pub mod hreflang;
pub mod http;
pub mod render;
pub mod robots;
pub mod sitemap;
mod support;

pub use docs::rules_markdown;

use crawlgate_core::{Rule, RuleMeta};

/// Every rule of the catalogue: the audit's ([`RULES`]), then the `diff/` rules.
pub fn catalogue() -> impl Iterator<Item = &'static RuleMeta> {
    RULES
        .iter()
        .map(|rule| rule.meta())
        .chain(diff::DIFF_RULES.iter().copied())
}

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
    // HTTP status: what the crawled URLs answer
    &http::StartUrlError,
    &http::InternalLink4xx,
    &http::InternalLink5xx,
    &http::RedirectLoop,
    &http::RedirectChain,
    &http::InternalLinkRedirect,
    &http::NotHtml,
    &http::PageReadInPart,
    &robots::ExpectedBlockedAllowed,
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
    // sitemaps (RULES.md §2.6–2.8)
    &sitemap::NoneFound,
    &sitemap::FetchError,
    &sitemap::BlockedByRobots,
    &sitemap::NotXml,
    &sitemap::BadRootOrNamespace,
    &sitemap::GzipInvalid,
    &sitemap::TooManyUrls,
    &sitemap::TooLarge,
    &sitemap::Empty,
    &sitemap::NestedIndex,
    &sitemap::Cycle,
    &sitemap::LimitsExceeded,
    &sitemap::UnsafeXml,
    &sitemap::LocInvalid,
    &sitemap::CrossHostUrl,
    &sitemap::OutOfPathScope,
    &sitemap::IndexChildOutOfScope,
    &sitemap::LastmodInvalid,
    &sitemap::LastmodFuture,
    &sitemap::LastmodUniform,
    &sitemap::LastmodFakeFresh,
    &sitemap::ChangefreqPriority,
    &sitemap::DuplicateUrl,
    &sitemap::UrlInMultipleSitemaps,
    &sitemap::Unadvertised,
    &sitemap::UrlBlocked,
    &sitemap::UrlNoindex,
    &sitemap::UrlCanonicalised,
    &sitemap::UrlRedirects,
    &sitemap::UrlError,
    &sitemap::UrlHttpOnHttps,
    &sitemap::OrphanUrl,
    &sitemap::MissingIndexableUrl,
    &sitemap::HreflangInvalid,
    &sitemap::ImageBlocked,
    &sitemap::ImageLimit,
    &sitemap::ImageInvalid,
    &sitemap::VideoInvalid,
    &sitemap::NewsInvalid,
    &sitemap::NewsStale,
    // hreflang: page-level language alternates (<link>, Link header, sitemap xhtml:link)
    &hreflang::InvalidCode,
    &hreflang::RelativeUrl,
    &hreflang::DuplicateCode,
    &hreflang::MissingSelfReference,
    &hreflang::MissingReturnLink,
    &hreflang::MissingXDefault,
    &hreflang::TargetError,
    &hreflang::TargetNotIndexable,
    &hreflang::SourceConflict,
    // environment (RULES.md §2.10)
    &env::StagingArtifactOnProduction,
    &env::StagingExposed,
    // rendering (`--render`): raw HTML against the DOM headless Chromium left
    &render::NoindexRemoved,
    &render::NoindexAdded,
    &render::CanonicalChanged,
    &render::LinksOnlyRendered,
    &render::BlockedResource,
    &render::Failed,
];

/// The built-in rule with this id.
pub fn find(id: &str) -> Option<&'static dyn Rule> {
    RULES.iter().copied().find(|rule| rule.meta().id == id)
}
