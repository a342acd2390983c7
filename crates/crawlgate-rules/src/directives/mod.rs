//! Page directive rules: what robots meta tags and `X-Robots-Tag` headers tell a crawler, and
//! the ways they go wrong (contradictions, typos, rules Google ignores).

mod read;

mod bot_override_ineffective;
mod indexifembedded_alone;
mod invalid_value;
mod meta_header_conflict;
mod meta_in_body;
mod nofollow_page;
mod noimageindex;
mod noindex;
mod noindex_on_resource;
mod nosnippet;
mod obsolete_token;
mod redundant_sources;
mod robots_tag_header;
mod unavailable_after_past;
mod unavailable_after_scheduled;
mod unknown_token;

pub use bot_override_ineffective::BotOverrideIneffective;
pub use indexifembedded_alone::IndexifembeddedAlone;
pub use invalid_value::InvalidValue;
pub use meta_header_conflict::MetaHeaderConflict;
pub use meta_in_body::MetaInBody;
pub use nofollow_page::NofollowPage;
pub use noimageindex::Noimageindex;
pub use noindex::Noindex;
pub use noindex_on_resource::NoindexOnResource;
pub use nosnippet::Nosnippet;
pub use obsolete_token::ObsoleteToken;
pub use redundant_sources::RedundantSources;
pub use robots_tag_header::RobotsTagHeader;
pub use unavailable_after_past::UnavailableAfterPast;
pub use unavailable_after_scheduled::UnavailableAfterScheduled;
pub use unknown_token::UnknownToken;
