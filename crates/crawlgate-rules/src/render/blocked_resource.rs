use super::{RENDERED, side};
use crate::support::count;
use crawlgate_core::declare_rule;
use crawlgate_core::rule::{Findings, Occurrence, Rule};
use crawlgate_core::{Evidence, Site};
use std::collections::BTreeMap;
use url::Url;

declare_rule! {
    /// ## What it does
    /// Finds the requests pages made while rendering (scripts, stylesheets, `fetch` and XHR
    /// calls, fonts, images, frames) that robots.txt disallows for the crawler the pages were
    /// rendered as. crawlgate's browser, like Google's renderer, does not fetch them; the page is
    /// rendered without them. One finding per blocked URL, with the pages that requested it and
    /// the text each rendered page kept; unless the audit obeys robots.txt itself
    /// (`--obey-robots`), such a page is rendered a second time with those requests served, and
    /// the text it shows then is given beside it: what the page loses without them.
    ///
    /// ## Why is this bad?
    /// Google Search "won't render JavaScript from blocked files or on blocked pages", and
    /// Googlebot obeys robots.txt for every resource a page loads (JavaScript SEO basics;
    /// robots.txt introduction). Unlike `robots/blocked-css` and `robots/blocked-js`, which read
    /// the assets named in the HTML, these are the requests the page really made, including
    /// those its scripts made (an API the content comes from, a lazily loaded bundle). Whatever
    /// they would have added is missing from what Google indexes.
    ///
    /// ## Example
    /// ```text
    /// robots.txt   Disallow: /api/
    /// /product/1   fetch('/api/product/1') fills the description
    /// ```
    ///
    /// ## How to fix
    /// Allow what pages need to render: remove or narrow the rule quoted, or add a more specific
    /// `Allow:` for the resource's path. Keep blocking only requests whose absence changes
    /// nothing on the page.
    pub struct BlockedResource {
        id: "render/blocked-resource",
        severity: Error,
        summary: "A request a page makes while rendering is disallowed by robots.txt",
    }
}

/// One blocked URL: its type, why, and the pages that requested it with their rendered text
/// length.
struct Blocked<'a> {
    resource_type: &'a str,
    reason: &'a str,
    pages: Vec<(&'a Url, u64, Option<u64>)>,
}

/// Pages quoted per blocked resource (all are counted).
const PAGES_QUOTED: usize = 10;

impl Rule for BlockedResource {
    fn check(&self, site: &Site, out: &mut Findings<'_>) {
        let mut blocked: BTreeMap<&Url, Blocked<'_>> = BTreeMap::new();
        for (resource, _page, rendered) in site.rendered() {
            for request in &rendered.blocked {
                let entry = blocked.entry(&request.url).or_insert(Blocked {
                    resource_type: &request.resource_type,
                    reason: &request.reason,
                    pages: Vec::new(),
                });
                if !entry.pages.iter().any(|(page, ..)| **page == *resource.url) {
                    entry.pages.push((
                        &resource.url,
                        rendered.text_length,
                        rendered.text_length_unblocked,
                    ));
                }
            }
        }
        let Some(profile) = site.render_profile().and_then(|i| site.profiles.get(i)) else {
            return;
        };
        let crawler = profile.display_name();
        for (
            url,
            Blocked {
                resource_type,
                reason,
                pages,
            },
        ) in blocked
        {
            let them = if pages.len() == 1 {
                "that page"
            } else {
                "those pages"
            };
            let consequence = if profile.is_google() {
                format!("Google renders {them} without it")
            } else {
                format!("{them} rendered without it, as {crawler} would render them")
            };
            let mut occurrence = Occurrence::new(
                url.as_str(),
                format!(
                    "robots.txt disallows this {} for {crawler}, and {} requested it while rendering: {consequence}",
                    kind_words(resource_type),
                    count(pages.len(), "page", "pages"),
                ),
            )
            .profile(&profile.name)
            .evidence(Evidence::Note {
                text: format!("{resource_type} request refused to the page: {reason}"),
            });
            for (page, text_length, unblocked) in pages.iter().take(PAGES_QUOTED) {
                let with_it = match unblocked {
                    Some(unblocked) => {
                        format!("; rendered again with the refused requests served, {unblocked}")
                    }
                    None => String::new(),
                };
                occurrence = occurrence.evidence(side(
                    RENDERED,
                    page,
                    format!(
                        "requested it while rendering; rendered without it, its text is {text_length} characters{with_it}"
                    ),
                    None,
                ));
            }
            out.report(occurrence);
        }
    }
}

/// The request's type in words, as the browser names it.
fn kind_words(resource_type: &str) -> &'static str {
    match resource_type {
        "Script" => "script",
        "Stylesheet" => "stylesheet",
        "XHR" | "Fetch" => "data request",
        "Font" => "font",
        "Image" => "image",
        "Document" => "frame",
        "Media" => "media file",
        _ => "resource",
    }
}
