//! Sitemap rules: discovery and fetch, the documents themselves, and their URLs crossed with the
//! crawl.
//!
//! Document rules hand on the issues the sitemap parser recorded (`document`); the others read
//! the crawl's sitemap records and resources. `evidence` holds what they quote in common.

mod bad_root_or_namespace;
mod blocked_by_robots;
mod changefreq_priority;
mod cross_host_url;
mod cycle;
mod duplicate_url;
mod empty;
mod fetch_error;
mod gzip_invalid;
mod hreflang_invalid;
mod image_blocked;
mod image_invalid;
mod image_limit;
mod index_child_out_of_scope;
mod lastmod_fake_fresh;
mod lastmod_future;
mod lastmod_invalid;
mod lastmod_uniform;
mod limits_exceeded;
mod loc_invalid;
mod missing_indexable_url;
mod nested_index;
mod news_invalid;
mod news_stale;
mod none_found;
mod not_xml;
mod orphan_url;
mod out_of_path_scope;
mod too_large;
mod too_many_urls;
mod unadvertised;
mod unsafe_xml;
mod url_blocked;
mod url_canonicalised;
mod url_error;
mod url_http_on_https;
mod url_in_multiple_sitemaps;
mod url_noindex;
mod url_redirects;
mod video_invalid;

mod document;
mod evidence;

pub use bad_root_or_namespace::BadRootOrNamespace;
pub use blocked_by_robots::BlockedByRobots;
pub use changefreq_priority::ChangefreqPriority;
pub use cross_host_url::CrossHostUrl;
pub use cycle::Cycle;
pub use duplicate_url::DuplicateUrl;
pub use empty::Empty;
pub use fetch_error::FetchError;
pub use gzip_invalid::GzipInvalid;
pub use hreflang_invalid::HreflangInvalid;
pub use image_blocked::ImageBlocked;
pub use image_invalid::ImageInvalid;
pub use image_limit::ImageLimit;
pub use index_child_out_of_scope::IndexChildOutOfScope;
pub use lastmod_fake_fresh::LastmodFakeFresh;
pub use lastmod_future::LastmodFuture;
pub use lastmod_invalid::LastmodInvalid;
pub use lastmod_uniform::LastmodUniform;
pub use limits_exceeded::LimitsExceeded;
pub use loc_invalid::LocInvalid;
pub use missing_indexable_url::MissingIndexableUrl;
pub use nested_index::NestedIndex;
pub use news_invalid::NewsInvalid;
pub use news_stale::NewsStale;
pub use none_found::NoneFound;
pub use not_xml::NotXml;
pub use orphan_url::OrphanUrl;
pub use out_of_path_scope::OutOfPathScope;
pub use too_large::TooLarge;
pub use too_many_urls::TooManyUrls;
pub use unadvertised::Unadvertised;
pub use unsafe_xml::UnsafeXml;
pub use url_blocked::UrlBlocked;
pub use url_canonicalised::UrlCanonicalised;
pub use url_error::UrlError;
pub use url_http_on_https::UrlHttpOnHttps;
pub use url_in_multiple_sitemaps::UrlInMultipleSitemaps;
pub use url_noindex::UrlNoindex;
pub use url_redirects::UrlRedirects;
pub use video_invalid::VideoInvalid;

#[cfg(test)]
mod tests {
    use crawlgate_core::sitemap::rule_ids;

    /// Every issue id the sitemap parser records has a rule that reports it, so no issue is
    /// silently dropped from audits.
    #[test]
    fn every_parser_issue_id_has_a_rule() {
        for id in [
            rule_ids::NOT_XML,
            rule_ids::BAD_ROOT_OR_NAMESPACE,
            rule_ids::GZIP_INVALID,
            rule_ids::TOO_MANY_URLS,
            rule_ids::TOO_LARGE,
            rule_ids::EMPTY,
            rule_ids::FETCH_ERROR,
            rule_ids::LIMITS_EXCEEDED,
            rule_ids::UNSAFE_XML,
            rule_ids::LOC_INVALID,
            rule_ids::CROSS_HOST_URL,
            rule_ids::OUT_OF_PATH_SCOPE,
            rule_ids::INDEX_CHILD_OUT_OF_SCOPE,
            rule_ids::LASTMOD_INVALID,
            rule_ids::LASTMOD_FUTURE,
            rule_ids::LASTMOD_UNIFORM,
            rule_ids::CHANGEFREQ_PRIORITY,
            rule_ids::DUPLICATE_URL,
            rule_ids::HREFLANG_INVALID,
            rule_ids::IMAGE_LIMIT,
            rule_ids::VIDEO_INVALID,
            rule_ids::NEWS_INVALID,
            rule_ids::NEWS_STALE,
        ] {
            assert!(crate::find(id).is_some(), "no rule reports `{id}`");
        }
    }
}
