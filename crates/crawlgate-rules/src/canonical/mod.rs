//! Canonical rules: how a page declares its canonical URL, and what that URL turns out to be.

mod targets;
// The hreflang rules judge an alternate's canonical the way these rules judge a page's.
pub(crate) use targets::first_elsewhere;

mod after_invalid_head_element;
mod chain;
mod cross_domain;
mod cross_language;
mod fragment;
mod header_html_mismatch;
mod https_to_http;
mod ignored_attributes;
mod internal_links_to_canonicalised;
mod invalid;
mod r#loop;
mod missing;
mod multiple_conflicting;
mod multiple_identical;
mod outside_head;
mod relative;
mod target_blocked;
mod target_error;
mod target_noindex;
mod target_redirects;
mod to_homepage;

pub use after_invalid_head_element::AfterInvalidHeadElement;
pub use chain::Chain;
pub use cross_domain::CrossDomain;
pub use cross_language::CrossLanguage;
pub use fragment::Fragment;
pub use header_html_mismatch::HeaderHtmlMismatch;
pub use https_to_http::HttpsToHttp;
pub use ignored_attributes::IgnoredAttributes;
pub use internal_links_to_canonicalised::InternalLinksToCanonicalised;
pub use invalid::Invalid;
pub use r#loop::Loop;
pub use missing::Missing;
pub use multiple_conflicting::MultipleConflicting;
pub use multiple_identical::MultipleIdentical;
pub use outside_head::OutsideHead;
pub use relative::Relative;
pub use target_blocked::TargetBlocked;
pub use target_error::TargetError;
pub use target_noindex::TargetNoindex;
pub use target_redirects::TargetRedirects;
pub use to_homepage::ToHomepage;
