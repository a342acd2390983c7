//! Page-by-page comparisons: each `diff/` rule's check on one page known to both audits, with
//! the fact on each side as [`Evidence::Change`].

use crawlgate_core::rule::RuleMeta;
use crawlgate_core::signals::Profile;
use crawlgate_core::{Evidence, Finding, Severity};
use crawlgate_report::{PageRecord, ProfileView, Report, UrlMap};
use crawlgate_rules::diff::{
    CanonicalChanged, NewlyBlocked, NewlyNoindex, SitemapDropped, SitemapSetChanged,
    SnippetDirectivesChanged, StatusRegressed,
};
use std::collections::{BTreeMap, BTreeSet};

/// The later audit's pages, by URL.
pub(super) type AfterPages<'a> = BTreeMap<&'a str, &'a PageRecord>;

/// Sitemaps quoted per side in a `diff/sitemap-set-changed` finding.
const MAX_SITEMAPS_QUOTED: usize = 20;

fn finding(
    meta: &RuleMeta,
    url: &str,
    profile: Option<&str>,
    message: String,
    evidence: [Evidence; 2],
) -> Finding {
    Finding {
        rule: meta.id.to_owned(),
        severity: meta.default_severity,
        url: url.to_owned(),
        profile: profile.map(str::to_owned),
        message,
        evidence: evidence.into(),
    }
}

/// One side of a change.
fn side(
    side: &str,
    url: &str,
    line: Option<u32>,
    state: String,
    quote: Option<String>,
) -> Evidence {
    Evidence::Change {
        side: side.to_owned(),
        url: url.to_owned(),
        line,
        state,
        quote,
    }
}

/// Compares one page known to both audits (`old` from the earlier one, its URLs not yet mapped).
/// `expected_blocked` names the later audit's expected-blocked profiles.
pub(super) fn compare_page(
    old: &PageRecord,
    new: &PageRecord,
    after: &AfterPages<'_>,
    map: &UrlMap,
    expected_blocked: &[String],
    out: &mut Vec<Finding>,
) {
    status(old, new, map, out);
    canonical(old, new, after, map, out);
    sitemaps(old, new, after, map, out);
    for (profile, new_view) in &new.profiles {
        let Some(old_view) = old.profiles.get(profile) else {
            continue;
        };
        let expected = expected_blocked.contains(profile);
        robots(old, old_view, new, new_view, profile, expected, out);
        noindex(old, old_view, new, new_view, profile, out);
        snippet(old, old_view, new, new_view, profile, out);
    }
}

/// A page listed in a sitemap before and not met by the later crawl at all.
pub(super) fn page_gone(mapped_url: &str, old: &PageRecord, out: &mut Vec<Finding>) {
    let Some(sitemap) = old.in_sitemaps.first() else {
        return;
    };
    out.push(finding(
        &SitemapDropped::META,
        mapped_url,
        None,
        format!(
            "{mapped_url} was listed in {} sitemap(s) before; the later audit did not meet it at \
             all (in no sitemap, not linked)",
            old.in_sitemaps.len()
        ),
        [
            side(
                "before",
                sitemap,
                None,
                "listed".to_owned(),
                Some(old.url.clone()),
            ),
            side(
                "after",
                mapped_url,
                None,
                "not met by the crawl".to_owned(),
                None,
            ),
        ],
    ));
}

fn status_words(page: &PageRecord) -> String {
    match (page.status, &*page.state) {
        (Some(status), "redirected") => format!(
            "redirected, final answer {status}{}",
            page.final_url
                .as_deref()
                .map(|url| format!(" at {url}"))
                .unwrap_or_default()
        ),
        (Some(status), _) => format!("answered {status}"),
        (None, state) => match &page.detail {
            Some(detail) => format!("{state}: {detail}"),
            None => state.to_owned(),
        },
    }
}

/// Whether `url` is a home page (path `/`, no query).
fn is_home(url: &str) -> bool {
    url::Url::parse(url).is_ok_and(|url| url.path() == "/" && url.query().is_none())
}

fn status(old: &PageRecord, new: &PageRecord, map: &UrlMap, out: &mut Vec<Finding>) {
    let ok = |page: &PageRecord| {
        page.state == "fetched" && page.status.is_some_and(|s| (200..300).contains(&s))
    };
    let broken =
        |page: &PageRecord| page.status.is_some_and(|s| s >= 400) || page.state == "failed";
    // A page that now redirects to the home page lost its own target (the migration's
    // catch-all); a page that was the home page may of course still lead there.
    let sent_home = |page: &PageRecord| {
        page.state == "redirected"
            && page.final_url.as_deref().is_some_and(is_home)
            && !is_home(&map.apply(&old.url))
    };
    if !(ok(old) && (broken(new) || sent_home(new))) {
        return;
    }
    let (before, after) = (status_words(old), status_words(new));
    out.push(finding(
        &StatusRegressed::META,
        &new.url,
        None,
        format!("{before} before, {after} after"),
        [
            side("before", &old.url, None, before, None),
            side("after", &new.url, None, after, None),
        ],
    ));
}

fn canonical(
    old: &PageRecord,
    new: &PageRecord,
    after: &AfterPages<'_>,
    map: &UrlMap,
    out: &mut Vec<Finding>,
) {
    let mapped = old.canonical.as_deref().map(|c| map.apply(c));
    if mapped.as_deref() == new.canonical.as_deref()
        || new.status.is_none_or(|s| !(200..300).contains(&s))
    {
        return;
    }
    let words = |canonical: Option<&str>| match canonical {
        Some(url) => format!("canonical {url}"),
        None => "no canonical".to_owned(),
    };
    // Worse when the new target cannot be indexed by any profile: the page's signals go nowhere.
    let dead_end = new
        .canonical
        .as_deref()
        .and_then(|target| after.get(target))
        .filter(|target| target.profiles.values().all(|view| !view.indexable));
    let mut found = finding(
        &CanonicalChanged::META,
        &new.url,
        None,
        format!(
            "the canonical changed: {} before, {} after{}",
            words(mapped.as_deref()),
            words(new.canonical.as_deref()),
            if dead_end.is_some() {
                " (a page no profile can index)"
            } else {
                ""
            }
        ),
        [
            side(
                "before",
                &old.url,
                None,
                words(old.canonical.as_deref()),
                None,
            ),
            side(
                "after",
                &new.url,
                None,
                words(new.canonical.as_deref()),
                None,
            ),
        ],
    );
    if dead_end.is_some() {
        found.severity = Severity::Error;
    }
    out.push(found);
}

fn sitemaps(
    old: &PageRecord,
    new: &PageRecord,
    after: &AfterPages<'_>,
    map: &UrlMap,
    out: &mut Vec<Finding>,
) {
    let Some(sitemap) = old.in_sitemaps.first() else {
        return;
    };
    if !new.in_sitemaps.is_empty() {
        return;
    }
    // Redirected to a page a sitemap lists: the move is done right.
    let target_listed = new
        .final_url
        .as_deref()
        .and_then(|target| after.get(target))
        .is_some_and(|target| !target.in_sitemaps.is_empty());
    if new.state == "redirected" && target_listed {
        return;
    }
    out.push(finding(
        &SitemapDropped::META,
        &new.url,
        None,
        format!(
            "listed in {} before, in no sitemap after",
            map.apply(sitemap)
        ),
        [
            side(
                "before",
                sitemap,
                None,
                "listed".to_owned(),
                Some(old.url.clone()),
            ),
            side("after", &new.url, None, "in no sitemap".to_owned(), None),
        ],
    ));
}

/// The robots.txt of a page's origin.
fn robots_url(page_url: &str) -> String {
    url::Url::parse(page_url)
        .and_then(|url| url.join("/robots.txt"))
        .map_or_else(|_| page_url.to_owned(), |url| url.to_string())
}

/// `line 7: Disallow: /shop` → (7, `Disallow: /shop`).
fn split_rule(rule: &str) -> Option<(u32, &str)> {
    let rest = rule.strip_prefix("line ")?;
    let (line, quote) = rest.split_once(": ")?;
    Some((line.parse().ok()?, quote))
}

fn verdict_side(label: &str, page: &PageRecord, view: &ProfileView) -> Evidence {
    let verdict = if view.allowed {
        "allowed"
    } else {
        "disallowed"
    };
    let robots = robots_url(&page.url);
    match view.robots_rule.as_deref().and_then(split_rule) {
        Some((line, quote)) => side(
            label,
            &robots,
            Some(line),
            verdict.to_owned(),
            Some(quote.to_owned()),
        ),
        None => side(label, &robots, None, format!("{verdict} (no rule)"), None),
    }
}

/// A page newly disallowed for `profile`: an error, or a notice confirming the block when the
/// later audit declares the profile expected-blocked (`--expect-blocked`).
fn robots(
    old: &PageRecord,
    old_view: &ProfileView,
    new: &PageRecord,
    new_view: &ProfileView,
    profile: &str,
    expected: bool,
    out: &mut Vec<Finding>,
) {
    if !old_view.allowed || new_view.allowed {
        return;
    }
    let rule = new_view.robots_rule.as_deref().unwrap_or("robots.txt");
    let crawler = crawler_name(profile);
    let as_declared = if expected {
        ", as declared (expected blocked)"
    } else {
        ""
    };
    let mut blocked = finding(
        &NewlyBlocked::META,
        &new.url,
        Some(profile),
        format!(
            "{crawler} may no longer crawl this page{as_declared}: {} disallows it ({rule})",
            robots_url(&new.url)
        ),
        [
            verdict_side("before", old, old_view),
            verdict_side("after", new, new_view),
        ],
    );
    if expected {
        blocked.severity = Severity::Notice;
    }
    out.push(blocked);
}

/// The crawler a profile name stands for, as messages name it (`GPTBot`).
fn crawler_name(profile: &str) -> String {
    Profile::builtin(profile).map_or_else(|| profile.to_owned(), |p| p.display_name().to_owned())
}

fn directive_list(view: &ProfileView) -> String {
    if view.directives.is_empty() {
        "no restriction".to_owned()
    } else {
        view.directives.join(", ")
    }
}

fn noindex(
    old: &PageRecord,
    old_view: &ProfileView,
    new: &PageRecord,
    new_view: &ProfileView,
    profile: &str,
    out: &mut Vec<Finding>,
) {
    if old_view.noindex || !new_view.noindex {
        return;
    }
    out.push(finding(
        &NewlyNoindex::META,
        &new.url,
        Some(profile),
        format!(
            "the page is noindex for {} now (meta robots or X-Robots-Tag: {}); it was not \
             before",
            crawler_name(profile),
            directive_list(new_view)
        ),
        [
            side("before", &old.url, None, directive_list(old_view), None),
            side("after", &new.url, None, directive_list(new_view), None),
        ],
    ));
}

/// The directives that shape the snippet, not whether the page is indexed or followed.
fn snippet_directives(view: &ProfileView) -> BTreeSet<&str> {
    view.directives
        .iter()
        .map(String::as_str)
        .filter(|word| {
            !matches!(
                *word,
                "noindex" | "nofollow" | "none" | "index" | "follow" | "all"
            )
        })
        .collect()
}

fn snippet(
    old: &PageRecord,
    old_view: &ProfileView,
    new: &PageRecord,
    new_view: &ProfileView,
    profile: &str,
    out: &mut Vec<Finding>,
) {
    let (before, after) = (snippet_directives(old_view), snippet_directives(new_view));
    if before == after || new_view.noindex {
        return; // a noindex page shows no snippet: diff/newly-noindex says what matters
    }
    let words = |set: &BTreeSet<&str>| {
        if set.is_empty() {
            "no snippet directive".to_owned()
        } else {
            set.iter().copied().collect::<Vec<_>>().join(", ")
        }
    };
    out.push(finding(
        &SnippetDirectivesChanged::META,
        &new.url,
        Some(profile),
        format!(
            "the snippet directives for {} changed: {} before, {} after",
            crawler_name(profile),
            words(&before),
            words(&after)
        ),
        [
            side("before", &old.url, None, words(&before), None),
            side("after", &new.url, None, words(&after), None),
        ],
    ));
}

/// The sitemaps each audit met, mapped: one finding when the sets differ.
pub(super) fn compare_sitemap_sets(
    before: &Report,
    after: &Report,
    map: &UrlMap,
    out: &mut Vec<Finding>,
) {
    let old: BTreeSet<String> = before.sitemaps.iter().map(|s| map.apply(&s.url)).collect();
    let new: BTreeSet<&str> = after.sitemaps.iter().map(|s| s.url.as_str()).collect();
    let gone: Vec<&str> = old
        .iter()
        .map(String::as_str)
        .filter(|url| !new.contains(url))
        .collect();
    let came: Vec<&str> = new
        .iter()
        .copied()
        .filter(|url| !old.contains(*url))
        .collect();
    if gone.is_empty() && came.is_empty() {
        return;
    }
    let list = |urls: &[&str]| {
        urls.iter()
            .take(MAX_SITEMAPS_QUOTED)
            .copied()
            .collect::<Vec<_>>()
            .join(" ")
    };
    out.push(finding(
        &SitemapSetChanged::META,
        &after.target.start_url,
        None,
        format!(
            "{} sitemap(s) no longer met, {} new",
            gone.len(),
            came.len()
        ),
        [
            side(
                "before",
                &before.target.start_url,
                None,
                format!("{} sitemap(s) only before", gone.len()),
                (!gone.is_empty()).then(|| list(&gone)),
            ),
            side(
                "after",
                &after.target.start_url,
                None,
                format!("{} sitemap(s) only after", came.len()),
                (!came.is_empty()).then(|| list(&came)),
            ),
        ],
    ));
}
