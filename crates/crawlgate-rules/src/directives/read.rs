//! What the directive rules share: which pages a crawler reads robots rules on, which rules are
//! read at all, and how a rule's source is named in messages.

use crate::support::{ok_page, shortened};
use crawlgate_core::signals::{Directive, DirectiveSource, Profile};
use crawlgate_core::site::{FetchedPage, Resource, Site};
use std::borrow::Cow;
use std::collections::BTreeMap;

/// Pages on which the profile at `profile_index` reads robots rules: a 2xx final response that
/// robots.txt lets it crawl. (A disallowed page's rules are never read; `robots/blocked-noindex`
/// covers the case that matters.)
pub(super) fn readable_pages(
    site: &Site,
    profile_index: usize,
) -> impl Iterator<Item = (&Resource, Cow<'_, FetchedPage>)> {
    site.resources()
        .iter()
        .filter(move |resource| {
            resource
                .verdict(profile_index)
                .is_none_or(|verdict| verdict.allowed)
        })
        .filter_map(|resource| Some((resource, ok_page(site, resource)?)))
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
pub(super) const MAX_QUOTED_VALUE: usize = 80;

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
            format!(
                "the header `{name}: {}`",
                shortened(value, MAX_QUOTED_VALUE)
            )
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
            Some((tokens, source)) if *source == &rule.source => {
                // A tag may repeat a word hundreds of times: name each once, the first few.
                let known = tokens.iter().any(|t| t.eq_ignore_ascii_case(&rule.token));
                if !known && tokens.len() <= MAX_NAMED {
                    tokens.push(&rule.token);
                }
            }
            _ => groups.push((vec![&rule.token], &rule.source)),
        }
    }
    for (tokens, _) in &mut groups {
        if tokens.len() > MAX_NAMED {
            tokens.truncate(MAX_NAMED);
            tokens.push("…");
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

/// The distinct sources of `rules`, in words, joined with "and" (the first few, then "more").
pub(super) fn sources_words(rules: &[&Directive]) -> String {
    let mut sources: Vec<&DirectiveSource> = Vec::new();
    let mut more = false;
    for rule in rules {
        if sources.contains(&&rule.source) {
            continue;
        }
        if sources.len() == MAX_NAMED {
            more = true;
            break;
        }
        sources.push(&rule.source);
    }
    let mut words: Vec<String> = sources.iter().map(|source| source_words(source)).collect();
    if more {
        words.push("more".to_owned());
    }
    words.join(" and ")
}

/// The rules `wanted` selects, grouped by token (case-insensitively), in order of first
/// appearance: a word repeated in several tags or header lines is one finding, with each place
/// as evidence.
pub(super) fn by_token(
    rules: &[Directive],
    wanted: impl Fn(&Directive) -> bool,
) -> Vec<Vec<&Directive>> {
    let mut groups: Vec<Vec<&Directive>> = Vec::new();
    let mut index: BTreeMap<String, usize> = BTreeMap::new();
    for rule in rules.iter().filter(|rule| wanted(rule)) {
        let key = rule.token.to_ascii_lowercase();
        if let Some(group) = index.get(&key).and_then(|&at| groups.get_mut(at)) {
            group.push(rule);
        } else {
            index.insert(key, groups.len());
            groups.push(vec![rule]);
        }
    }
    groups
}
