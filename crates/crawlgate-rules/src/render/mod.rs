//! Rendering rules (`--render`): what a page's scripts change about what Google indexes, found by
//! comparing its raw HTML with the DOM headless Chromium left, and the requests rendering needed.
//! Each rule quotes both versions (evidence sides `raw` and `rendered`).

mod blocked_resource;
mod canonical_changed;
mod failed;
mod links_only_rendered;
mod noindex_added;
mod noindex_removed;

pub use blocked_resource::BlockedResource;
pub use canonical_changed::CanonicalChanged;
pub use failed::Failed;
pub use links_only_rendered::LinksOnlyRendered;
pub use noindex_added::NoindexAdded;
pub use noindex_removed::NoindexRemoved;

use crawlgate_core::Evidence;

/// Whether the rule `id` compares rendered pages: it checks something only in an audit that
/// rendered them (`--render`), and is not counted as checked in one that did not.
pub fn needs_rendering(id: &str) -> bool {
    id.starts_with("render/")
}
use crawlgate_core::signals::{Directive, DirectiveSource};
use url::Url;

/// The side of the raw HTML, as the crawl fetched it.
pub(crate) const RAW: &str = "raw";
/// The side of the DOM after rendering.
pub(crate) const RENDERED: &str = "rendered";

/// One fact of one version of `page`, quoted when there is a text to quote.
pub(crate) fn side(
    side: &str,
    page: &Url,
    state: impl Into<String>,
    quote: Option<String>,
) -> Evidence {
    Evidence::Change {
        side: side.to_owned(),
        url: page.to_string(),
        line: None,
        state: state.into(),
        quote,
    }
}

/// The robots rules of one version as evidence, each source once, quoted as written (raw HTML:
/// with its line; rendered DOM: as serialised, no line).
pub(crate) fn directive_sides(
    which: &str,
    page: &Url,
    state: &str,
    rules: &[&Directive],
) -> Vec<Evidence> {
    let mut evidence: Vec<Evidence> = Vec::new();
    for rule in rules.iter().take(crate::support::MAX_SOURCES_QUOTED) {
        let (line, quote) = match &rule.source {
            DirectiveSource::MetaTag { line, raw, .. } => (*line, raw.clone()),
            DirectiveSource::Header { name, value } => (None, format!("{name}: {value}")),
        };
        let item = Evidence::Change {
            side: which.to_owned(),
            url: page.to_string(),
            line: if which == RAW { line } else { None },
            state: state.to_owned(),
            quote: Some(quote),
        };
        if !evidence.contains(&item) {
            evidence.push(item);
        }
    }
    evidence
}
