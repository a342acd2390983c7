//! Evidence the sitemap rules share: where a sitemap was named, how fetching it went, which
//! sitemap entries list a URL, and why a URL is not indexable.

use crate::support::{
    canonical_evidence, directive_evidence, listing_evidence, response_evidence, verdict_evidence,
};
use crawlgate_core::Evidence;
use crawlgate_core::Site;
use crawlgate_core::site::{NotIndexable, Resource, SitemapFile, SitemapSource, SitemapState};
use url::Url;

/// At most this many sources, listings or sample sitemaps are quoted in one finding; the
/// message gives the full count.
pub(super) const MAX_QUOTED: usize = 5;

/// Where a sitemap was named, as evidence: the robots.txt `Sitemap:` line, the index entry, or a
/// note for the configuration and the probe.
pub(super) fn source_evidence(site: &Site, named: &Url, source: &SitemapSource) -> Evidence {
    match source {
        SitemapSource::RobotsTxt { robots_url, line } => Evidence::RobotsLine {
            robots_url: robots_url.clone(),
            line: *line,
            text: site
                .robots
                .values()
                .find(|robots| robots.url.as_str() == robots_url)
                .and_then(|robots| robots.line_text(*line))
                .unwrap_or_else(|| format!("Sitemap: {named}")),
        },
        SitemapSource::Index { index_url, line } => Evidence::SitemapEntry {
            sitemap_url: index_url.clone(),
            line: *line,
            loc: named.to_string(),
        },
        SitemapSource::Configured => Evidence::Note {
            text: format!("{named} was given in the audit's configuration (--sitemap)"),
        },
        SitemapSource::Probe => Evidence::Note {
            text: format!("{named} was found by probing the well-known path /sitemap.xml"),
        },
    }
}

/// Every place that named the sitemap (the first few), as evidence.
pub(super) fn sources_evidence<'a>(
    site: &'a Site,
    sitemap: &'a SitemapFile,
) -> impl Iterator<Item = Evidence> + 'a {
    sitemap
        .sources
        .iter()
        .take(MAX_QUOTED)
        .map(move |source| source_evidence(site, &sitemap.url, source))
}

/// How fetching a sitemap went: the redirect chain (when there was one), then the final status
/// or the failure.
pub(super) fn sitemap_fetch_evidence(sitemap: &SitemapFile) -> Vec<Evidence> {
    let url = sitemap.url.to_string();
    let redirect = |hops: &[crawlgate_core::finding::RedirectHop], final_url: &Url| {
        (!hops.is_empty()).then(|| Evidence::Redirect {
            url: url.clone(),
            hops: hops.to_vec(),
            final_url: final_url.to_string(),
        })
    };
    match &sitemap.state {
        SitemapState::Parsed {
            hops,
            final_url,
            status,
            ..
        } => vec![
            redirect(hops, final_url).unwrap_or_else(|| Evidence::Response {
                url: url.clone(),
                status: Some(*status),
                detail: format!("answered {status}"),
            }),
        ],
        SitemapState::HttpError {
            hops,
            final_url,
            status,
        } => redirect(hops, final_url)
            .into_iter()
            .chain([Evidence::Response {
                url: final_url.to_string(),
                status: Some(*status),
                detail: format!("answered {status}"),
            }])
            .collect(),
        SitemapState::Failed {
            hops,
            kind,
            message,
        } => {
            let last = hops.last().and_then(|hop| {
                let location = hop.location.as_deref()?;
                Url::parse(&hop.url).ok()?.join(location).ok()
            });
            last.as_ref()
                .and_then(|final_url| redirect(hops, final_url))
                .into_iter()
                .chain([Evidence::Response {
                    url: last.map_or_else(|| url.clone(), |u| u.to_string()),
                    status: None,
                    detail: format!("no response ({}): {message}", kind.as_str()),
                }])
                .collect()
        }
        SitemapState::Cycle { hops, repeats } => redirect(hops, repeats).into_iter().collect(),
        SitemapState::NotFetched(reason) => vec![Evidence::Response {
            url: url.clone(),
            status: None,
            detail: format!("not fetched ({})", reason.words()),
        }],
    }
}

/// The sitemap entries listing a resource (the first few), as evidence.
pub(super) fn listings_evidence(site: &Site, resource: &Resource) -> Vec<Evidence> {
    site.listings(resource)
        .iter()
        .take(MAX_QUOTED)
        .map(|listing| listing_evidence(listing, &resource.url))
        .collect()
}

/// The sitemap that first lists a resource, for messages.
pub(super) fn first_sitemap(site: &Site, resource: &Resource) -> String {
    site.listings(resource)
        .first()
        .map_or_else(String::new, |listing| listing.sitemap.to_string())
}

/// Why a URL is not indexable, in words.
pub(super) fn not_indexable_words(reason: &NotIndexable) -> String {
    match reason {
        NotIndexable::NotFetched => "it gave no response".to_owned(),
        NotIndexable::Disallowed => "robots.txt disallows it".to_owned(),
        NotIndexable::Redirects => "it redirects again".to_owned(),
        NotIndexable::Status(status) => format!("it answers {status}"),
        NotIndexable::Noindex => "it carries a noindex".to_owned(),
        NotIndexable::CanonicalElsewhere(target) => {
            format!("it declares {target} as its canonical")
        }
    }
}

/// The facts that make `resource` not indexable for the profile at `profile_index`: the
/// deciding robots.txt rule, the noindex tags or header lines, the canonical, or the response.
pub(super) fn not_indexable_evidence(
    site: &Site,
    resource: &Resource,
    profile_index: usize,
    reason: &NotIndexable,
) -> Vec<Evidence> {
    let page = site.page(resource);
    let page = page.as_deref();
    match reason {
        NotIndexable::Disallowed => vec![verdict_evidence(site, profile_index, &resource.url)],
        NotIndexable::Noindex => {
            let profile = site.profiles.get(profile_index);
            match (page, profile) {
                (Some(page), Some(profile)) => page
                    .signals
                    .directives(profile, site.audit_time)
                    .noindex_sources()
                    .into_iter()
                    .map(|directive| directive_evidence(&resource.url, &directive.source))
                    .collect(),
                _ => vec![response_evidence(resource)],
            }
        }
        NotIndexable::CanonicalElsewhere(target) => page
            .and_then(|page| {
                page.signals
                    .effective_canonicals()
                    .into_iter()
                    .find(|canonical| canonical.resolved.as_deref() == Some(target))
            })
            .map_or_else(
                || vec![response_evidence(resource)],
                |canonical| vec![canonical_evidence(&resource.url, canonical)],
            ),
        NotIndexable::NotFetched | NotIndexable::Redirects | NotIndexable::Status(_) => {
            vec![response_evidence(resource)]
        }
    }
}

/// An error status (or a 3xx without a redirect to follow), in words; access errors called out.
pub(super) fn error_status_words(status: u16) -> String {
    match status {
        401 => {
            "answers 401: it requires authentication, which search engines never provide".to_owned()
        }
        403 => "answers 403: the server refuses access, often a firewall or bot protection that \
                blocks crawlers"
            .to_owned(),
        404 | 410 => format!("answers {status}: it does not exist"),
        429 => "answers 429: the server rate-limits the crawler".to_owned(),
        500..=599 => format!("answers {status}: a server error"),
        300..=399 => format!("answers {status} without a redirect to follow"),
        _ => format!("answers {status} instead of 200"),
    }
}
