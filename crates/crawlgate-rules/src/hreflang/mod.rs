//! hreflang rules: the language versions a page declares (`<link rel="alternate" hreflang>` in
//! `<head>`, the `Link` header, its sitemap entries' `xhtml:link`s), checked as Google's
//! "Tell Google about localized versions of your page" asks: valid codes, absolute URLs, one URL
//! per code, the page itself and an `x-default` in the set, return links, alternates that are
//! working, indexable canonical URLs, and the three places agreeing. Document-level checks of
//! sitemap alternates are `sitemap/hreflang-invalid`.

mod annotations;

mod duplicate_code;
mod invalid_code;
mod missing_return_link;
mod missing_self_reference;
mod missing_x_default;
mod relative_url;
mod source_conflict;
mod target_error;
mod target_not_indexable;

pub use duplicate_code::DuplicateCode;
pub use invalid_code::InvalidCode;
pub use missing_return_link::MissingReturnLink;
pub use missing_self_reference::MissingSelfReference;
pub use missing_x_default::MissingXDefault;
pub use relative_url::RelativeUrl;
pub use source_conflict::SourceConflict;
pub use target_error::TargetError;
pub use target_not_indexable::TargetNotIndexable;
