//! Evidence and iteration helpers shared by the rules, so every rule quotes facts the same way.

use crawlgate_core::Evidence;
use crawlgate_core::signals::Profile;
use crawlgate_core::signals::{Canonical, DirectiveSource, LinkSource};
use crawlgate_core::site::{LinkSample, Resource, ResourceState, Site, SitemapListing};
use url::Url;

/// The audited profiles with their positions in `site.profiles`.
pub(crate) fn profiles(site: &Site) -> impl Iterator<Item = (usize, &Profile)> {
    site.profiles.iter().enumerate()
}

/// The robots.txt verdict on `url` for a profile, as evidence: the deciding rule, or what the
/// fetch outcome means, or "no rule matches".
pub(crate) fn verdict_evidence(site: &Site, profile_index: usize, url: &Url) -> Evidence {
    let verdict = site.verdict(profile_index, url);
    let name = site
        .profiles
        .get(profile_index)
        .map_or("", |p| p.name.as_str());
    verdict.evidence(name, site.robots_for(url))
}

/// A robots meta tag or X-Robots-Tag line, as evidence.
pub(crate) fn directive_evidence(page: &Url, source: &DirectiveSource) -> Evidence {
    match source {
        DirectiveSource::MetaTag {
            name,
            content,
            line,
            in_head,
            raw,
        } => Evidence::MetaTag {
            url: page.to_string(),
            name: name.clone(),
            content: content.clone(),
            line: *line,
            in_head: *in_head,
            raw: raw.clone(),
        },
        DirectiveSource::Header { name, value } => Evidence::HttpHeader {
            url: page.to_string(),
            name: name.clone(),
            value: value.clone(),
        },
    }
}

/// A canonical declaration, as evidence.
pub(crate) fn canonical_evidence(page: &Url, canonical: &Canonical) -> Evidence {
    let (via, line, raw) = match &canonical.source {
        LinkSource::Html { line, raw, .. } => ("html", *line, raw.clone()),
        LinkSource::Header { value } => ("header", None, format!("Link: {value}")),
    };
    Evidence::Canonical {
        url: page.to_string(),
        href: canonical.href.clone(),
        via: via.to_owned(),
        line,
        raw,
    }
}

/// What fetching a resource gave, as evidence (status, redirect chain or failure).
pub(crate) fn response_evidence(resource: &Resource) -> Evidence {
    let url = resource.url.to_string();
    match &resource.state {
        ResourceState::Fetched(page) => Evidence::Response {
            url,
            status: Some(page.status),
            detail: format!("answered {}", page.status),
        },
        ResourceState::Redirected {
            hops, final_url, ..
        } => Evidence::Redirect {
            url,
            hops: hops.clone(),
            final_url: final_url.to_string(),
        },
        ResourceState::Failed { kind, message, .. } => Evidence::Response {
            url,
            status: None,
            detail: format!("no response ({}): {message}", kind.as_str()),
        },
        ResourceState::NotFetched(reason) => Evidence::Response {
            url,
            status: None,
            detail: format!("not fetched ({})", crate::support::reason_words(*reason)),
        },
    }
}

/// A sitemap entry listing `loc`, as evidence.
pub(crate) fn listing_evidence(listing: &SitemapListing, loc: &Url) -> Evidence {
    Evidence::SitemapEntry {
        sitemap_url: listing.sitemap.to_string(),
        line: listing.line,
        loc: loc.to_string(),
    }
}

/// A link to `to`, as evidence.
pub(crate) fn link_evidence(sample: &LinkSample, to: &Url) -> Evidence {
    Evidence::Link {
        from: sample.from.to_string(),
        to: to.to_string(),
        line: sample.line,
        rel: sample.rel.tokens(),
    }
}

/// Why a URL was not fetched, in words.
pub(crate) fn reason_words(reason: crawlgate_core::site::NotFetchedReason) -> &'static str {
    use crawlgate_core::site::NotFetchedReason as R;
    match reason {
        R::OutOfScope => "outside the crawl scope",
        R::Disallowed => "disallowed by robots.txt and --obey-robots is set",
        R::PageBound => "the page bound was reached first",
        R::AssetBound => "the asset bound was reached first",
        R::DepthBound => "deeper than the depth bound",
        R::Interrupted => "the crawl was interrupted first",
        R::SitemapBound => "a sitemap bound was reached first",
        R::OriginBound => "the origin bound was reached first",
        R::NotRequested => "not requested",
    }
}
