//! Evidence and iteration helpers shared by the rules, so every rule quotes facts the same way.

use crawlgate_core::Evidence;
use crawlgate_core::signals::Profile;
use crawlgate_core::signals::{
    Canonical, Directive, DirectiveSource, HeadBreak, Hreflang, LinkSource,
};
use crawlgate_core::site::{
    FetchedPage, LinkSample, Resource, ResourceState, Site, SitemapListing,
};
use std::borrow::Cow;
use url::Url;

/// The audited profiles with their positions in `site.profiles`.
pub(crate) fn profiles(site: &Site) -> impl Iterator<Item = (usize, &Profile)> {
    site.profiles.iter().enumerate()
}

/// The audited profiles robots.txt is meant to let in: all but those declared expected-blocked
/// (`--expect-blocked`), with their positions in `site.profiles`. The rules for which a block is
/// the problem iterate these: for an expected-blocked crawler the block is the wanted state, and
/// `robots/expected-blocked-allowed` reports the opposite.
pub(crate) fn profiles_meant_to_crawl(site: &Site) -> impl Iterator<Item = (usize, &Profile)> {
    profiles(site).filter(|(index, _)| !site.expects_blocked(*index))
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

/// Sources quoted as evidence of one finding (a hostile page may repeat a tag a thousand times).
pub(crate) const MAX_SOURCES_QUOTED: usize = 20;

/// The sources of robots rules as evidence, each source once, in order, at most
/// [`MAX_SOURCES_QUOTED`].
pub(crate) fn directives_evidence(page: &Url, rules: &[&Directive]) -> Vec<Evidence> {
    directives_evidence_up_to(page, rules, MAX_SOURCES_QUOTED)
}

/// Like [`directives_evidence`], at most `limit` sources (for findings quoting two sides).
pub(crate) fn directives_evidence_up_to(
    page: &Url,
    rules: &[&Directive],
    limit: usize,
) -> Vec<Evidence> {
    let mut evidence: Vec<Evidence> = Vec::new();
    for rule in rules {
        if evidence.len() >= limit {
            break;
        }
        let item = directive_evidence(page, &rule.source);
        if !evidence.contains(&item) {
            evidence.push(item);
        }
    }
    evidence
}

/// A canonical declaration, as evidence.
pub(crate) fn canonical_evidence(page: &Url, canonical: &Canonical) -> Evidence {
    let (via, line, raw) = match &canonical.source {
        LinkSource::Html { line, raw, .. } => ("html", *line, raw.to_string()),
        LinkSource::Header { value } => ("header", None, format!("Link: {value}")),
    };
    Evidence::Canonical {
        url: page.to_string(),
        href: canonical.href.to_string(),
        via: via.to_owned(),
        line,
        raw,
    }
}

/// An hreflang alternate declared by a page (`<link>` or `Link` header), as evidence.
pub(crate) fn hreflang_evidence(page: &Url, alternate: &Hreflang) -> Evidence {
    Evidence::Hreflang {
        url: page.to_string(),
        hreflang: alternate.hreflang.clone(),
        href: alternate.href.clone(),
        via: match alternate.source {
            LinkSource::Html { .. } => "html".to_owned(),
            LinkSource::Header { .. } => "header".to_owned(),
        },
        line: alternate.source.line(),
    }
}

/// What fetching a resource gave, as evidence (status, redirect chain or failure).
pub(crate) fn response_evidence(resource: &Resource) -> Evidence {
    let url = resource.url.to_string();
    match &resource.state {
        ResourceState::Fetched(page) => Evidence::Response {
            url,
            status: Some(page.status()),
            detail: format!("answered {}", page.status()),
        },
        ResourceState::Redirected {
            hops, final_url, ..
        } => Evidence::Redirect {
            url,
            hops: hops.to_vec(),
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
            detail: format!("not fetched ({})", reason.words()),
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
        line: sample.line.map(u32::from),
        rel: sample.rel.tokens(),
    }
}

/// `1 sitemap entry`, `3 sitemap entries`: a count with its noun in the right number.
pub(crate) fn count(n: usize, one: &str, many: &str) -> String {
    if n == 1 {
        format!("1 {one}")
    } else {
        format!("{n} {many}")
    }
}

/// Final responses with a 2xx status: the pages whose robots rules and canonicals a search engine
/// reads. Error pages are left out: the same 404 template would otherwise repeat every finding
/// once per broken URL.
pub(crate) fn ok_pages(site: &Site) -> impl Iterator<Item = (&Resource, Cow<'_, FetchedPage>)> {
    site.resources()
        .iter()
        .filter_map(|resource| Some((resource, ok_page(site, resource)?)))
}

/// The final response of `resource` when its status is 2xx (the status is at hand: a stored
/// error page is not read back).
pub(crate) fn ok_page<'a>(site: &'a Site, resource: &'a Resource) -> Option<Cow<'a, FetchedPage>> {
    match &resource.state {
        ResourceState::Fetched(slot) if (200..300).contains(&slot.status()) => site.page(resource),
        _ => None,
    }
}

/// The resource holding the final response for `resource`: itself, or the end of its redirect
/// chain when that was fetched.
pub(crate) fn final_response<'a>(
    site: &'a Site,
    resource: &'a Resource,
) -> Option<(&'a Resource, Cow<'a, FetchedPage>)> {
    match &resource.state {
        ResourceState::Fetched(_) => Some((resource, site.page(resource)?)),
        ResourceState::Redirected { final_url, .. } => {
            let end = site.resource(final_url)?;
            site.page(end).map(|page| (end, page))
        }
        ResourceState::Failed { .. } | ResourceState::NotFetched(_) => None,
    }
}

/// The element that ended `<head>` early, in words: "`<img>` at line 2", "text at line 3".
pub(crate) fn head_break_words(head_break: &HeadBreak) -> String {
    let element = match head_break.cause.as_str() {
        "#text" => "text".to_owned(),
        name => format!("`<{name}>`"),
    };
    match head_break.line {
        Some(line) => format!("{element} at line {line}"),
        None => element,
    }
}

/// The element that ended `<head>` early, as evidence.
pub(crate) fn head_break_evidence(head_break: &HeadBreak) -> Evidence {
    Evidence::Note {
        text: format!(
            "<head> ended early: {} is not allowed in <head>",
            head_break_words(head_break)
        ),
    }
}

/// `text` cut to `max` characters, with `…` when cut: header values quoted in messages (the
/// evidence keeps them whole).
pub(crate) fn shortened(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((cut, _)) => format!("{}…", text.get(..cut).unwrap_or_default()),
        None => text.to_owned(),
    }
}

/// `relative` or `protocol-relative` for an href that is not an absolute URL (canonicals and
/// hreflang alternates alike: Google asks both to be fully qualified).
pub(crate) fn relative_kind(href: &str) -> Option<&'static str> {
    let href = href.trim();
    if href.starts_with("//") || href.starts_with("\\\\") {
        return Some("protocol-relative");
    }
    if has_scheme(href) {
        None
    } else {
        Some("relative")
    }
}

/// Whether the URL parser reads a scheme at the start of `href`, the one thing that makes
/// `Url::parse` answer anything but "relative URL without a base": C0 controls and spaces
/// trimmed at both ends, tabs and line feeds skipped, a letter, then letters, digits, `+`, `-`
/// or `.` up to a `:`. The rules ask this of every page's canonical, and a parse would build
/// the whole URL only to drop it.
fn has_scheme(href: &str) -> bool {
    let trimmed = href.trim_matches(|c: char| c <= ' ');
    let mut chars = trimmed.chars().filter(|c| !matches!(c, '\t' | '\n' | '\r'));
    if !chars.next().is_some_and(|c| c.is_ascii_alphabetic()) {
        return false;
    }
    for c in chars {
        match c {
            ':' => return true,
            'a'..='z' | 'A'..='Z' | '0'..='9' | '+' | '-' | '.' => {}
            _ => return false,
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::relative_kind;

    #[test]
    fn relative_and_protocol_relative_hrefs() {
        assert_eq!(relative_kind("/a"), Some("relative"));
        assert_eq!(relative_kind("a.html"), Some("relative"));
        assert_eq!(relative_kind("?page=2"), Some("relative"));
        assert_eq!(relative_kind(" //example.com/a"), Some("protocol-relative"));
        assert_eq!(relative_kind("https://example.com/a"), None);
        assert_eq!(relative_kind("HTTP://example.com/a"), None);
        assert_eq!(relative_kind("mailto:a@example.com"), None);
    }

    #[test]
    fn the_scheme_test_agrees_with_the_url_parser() {
        let cases = [
            "",
            ":",
            "a:",
            "a",
            "/a",
            "1a:b",
            "h\tt\ntp://x",
            " \u{1}http://x",
            "http//x",
            "ht tp://x",
            "ht%74p://x",
            "x+y-z.w:q",
            "\u{e9}:x",
            "//x",
            "?q",
            "#f",
            "C:\\dir",
            "\thttps:",
            "javascript:void(0)",
            "h\u{0}ttp:",
            "http:\u{1}",
        ];
        for href in cases {
            let parsed = match url::Url::parse(href.trim()) {
                Err(url::ParseError::RelativeUrlWithoutBase) => Some("relative"),
                _ => None,
            };
            let expected = if href.trim().starts_with("//") || href.trim().starts_with("\\\\") {
                Some("protocol-relative")
            } else {
                parsed
            };
            assert_eq!(relative_kind(href), expected, "{href:?}");
        }
    }
}
