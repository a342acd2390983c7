//! What the canonical rules share: which declarations count, and where they point.

use crawlgate_core::signals::{Canonical, Signals};
use crawlgate_core::site::{normalized_for_compare, same_document};
use std::collections::BTreeSet;
use url::Url;

/// Canonicals in the places Google reads (`<head>` or a `Link` header), without the attributes
/// that disqualify them, well-formed or not. The lint rules (relative, invalid) read these;
/// canonicals in `<body>` or with `hreflang`/`media`/… have rules of their own.
pub(super) fn declared(signals: &Signals) -> impl Iterator<Item = &Canonical> {
    signals
        .canonicals
        .iter()
        .filter(|canonical| canonical.is_effective())
}

/// The effective canonicals naming another URL than `page`, with their targets, each target
/// once (its first declaration), in source order.
pub(super) fn targets<'a>(page: &Url, signals: &'a Signals) -> Vec<(&'a Canonical, &'a Url)> {
    let mut seen = BTreeSet::new();
    signals
        .effective_canonicals()
        .into_iter()
        .filter_map(|canonical| canonical.resolved.as_deref().map(|url| (canonical, url)))
        .filter(|(_, target)| !same_document(target, page))
        .filter(|(_, target)| seen.insert(normalized_for_compare(target)))
        .collect()
}

/// The first effective canonical naming another URL than `page`: the one Google is most likely
/// to follow, and the one chains and loops are traced through.
pub(crate) fn first_elsewhere<'a>(
    page: &Url,
    signals: &'a Signals,
) -> Option<(&'a Canonical, &'a Url)> {
    signals
        .effective_canonicals()
        .into_iter()
        .filter_map(|canonical| canonical.resolved.as_deref().map(|url| (canonical, url)))
        .find(|(_, target)| !same_document(target, page))
}

/// The distinct targets among `canonicals`, in order of first appearance.
pub(super) fn distinct_targets<'a>(canonicals: &[&'a Canonical]) -> Vec<&'a Url> {
    let mut seen = BTreeSet::new();
    canonicals
        .iter()
        .filter_map(|canonical| canonical.resolved.as_deref())
        .filter(|target| seen.insert(normalized_for_compare(target)))
        .collect()
}

/// URLs named in one message; past this, "and N more".
const MAX_LISTED: usize = 5;

/// "`a`, `b` and `c`" (at most [`MAX_LISTED`], then "and N more").
pub(super) fn listed(urls: &[&Url]) -> String {
    let mut quoted: Vec<String> = urls
        .iter()
        .take(MAX_LISTED)
        .map(|url| format!("`{url}`"))
        .collect();
    if urls.len() > MAX_LISTED {
        quoted.push(format!("{} more", urls.len() - MAX_LISTED));
    }
    match quoted.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        _ => quoted.join(""),
    }
}
