//! What the directive rules share: which pages a crawler reads robots rules on, which rules are
//! read at all, and how a rule's source is named in messages.

use crate::support::ok_pages;
use crawlgate_core::signals::{Directive, DirectiveSource, Profile};
use crawlgate_core::site::{FetchedPage, Resource, Site};

/// Pages on which the profile at `profile_index` reads robots rules: a 2xx final response that
/// robots.txt lets it crawl. (A disallowed page's rules are never read; `robots/blocked-noindex`
/// covers the case that matters.)
pub(super) fn readable_pages(
    site: &Site,
    profile_index: usize,
) -> impl Iterator<Item = (&Resource, &FetchedPage)> {
    ok_pages(site).filter(move |(resource, _)| {
        resource
            .verdict(profile_index)
            .is_none_or(|verdict| verdict.allowed)
    })
}

/// Every robots rule on `page` that at least one audited profile reads, once each, in the order
/// of the first profile reading it. The lint rules (unknown, obsolete, invalid tokens) judge the
/// markup itself, so they report each token once rather than once per profile.
pub(super) fn rules_read_by_any_profile(site: &Site, page: &FetchedPage) -> Vec<Directive> {
    let mut read = Vec::new();
    for (index, profile) in site.profiles.iter().enumerate() {
        let earlier = site.profiles.get(..index).unwrap_or_default();
        let directives = page.signals.directives(profile, site.audit_time);
        read.extend(
            directives
                .rules
                .into_iter()
                .filter(|rule| !earlier.iter().any(|other| reads(other, rule))),
        );
    }
    read
}

/// Whether `profile` reads `rule` (by the meta name or header prefix it came with).
fn reads(profile: &Profile, rule: &Directive) -> bool {
    match &rule.source {
        DirectiveSource::MetaTag { name, .. } => profile.reads_meta_name(name),
        DirectiveSource::Header { .. } => profile.reads_header_bot(rule.bot.as_deref()),
    }
}

/// Header values quoted in messages up to this many characters (the evidence has them whole).
const MAX_QUOTED_VALUE: usize = 80;

/// Where a rule was read, in words: "the `robots` meta tag (line 3)", "the header
/// `X-Robots-Tag: googlebot: noindex`".
pub(super) fn source_words(source: &DirectiveSource) -> String {
    match source {
        DirectiveSource::MetaTag {
            name,
            line,
            in_head,
            ..
        } => {
            let place = if *in_head { "" } else { " in <body>" };
            match line {
                Some(line) => format!("the `{name}` meta tag{place} (line {line})"),
                None => format!("the `{name}` meta tag{place}"),
            }
        }
        DirectiveSource::Header { name, value } => {
            let shown: String = value.chars().take(MAX_QUOTED_VALUE).collect();
            let cut = if shown.len() < value.len() { "…" } else { "" };
            format!("the header `{name}: {shown}{cut}`")
        }
    }
}

/// Rules named in one message; past this, "and N more".
const MAX_NAMED: usize = 4;

/// The rules with their sources, consecutive rules of one source together: "`index, follow` in
/// the `googlebot` meta tag (line 3) and `noindex` in the header `X-Robots-Tag: noindex`".
pub(super) fn rules_words(rules: &[&Directive]) -> String {
    let mut groups: Vec<(Vec<&str>, &DirectiveSource)> = Vec::new();
    for rule in rules {
        match groups.last_mut() {
            Some((tokens, source)) if *source == &rule.source => tokens.push(&rule.token),
            _ => groups.push((vec![&rule.token], &rule.source)),
        }
    }
    let mut words: Vec<String> = groups
        .iter()
        .take(MAX_NAMED)
        .map(|(tokens, source)| format!("`{}` in {}", tokens.join(", "), source_words(source)))
        .collect();
    if groups.len() > MAX_NAMED {
        words.push(format!("{} more", groups.len() - MAX_NAMED));
    }
    words.join(" and ")
}

/// The distinct sources of `rules`, in words, joined with "and".
pub(super) fn sources_words(rules: &[&Directive]) -> String {
    let mut sources: Vec<&DirectiveSource> = Vec::new();
    for rule in rules {
        if sources.len() > MAX_NAMED {
            break;
        }
        if !sources.contains(&&rule.source) {
            sources.push(&rule.source);
        }
    }
    let words: Vec<String> = sources.iter().map(|source| source_words(source)).collect();
    words.join(" and ")
}
