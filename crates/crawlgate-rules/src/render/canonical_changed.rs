use super::{RAW, RENDERED, side};
use crawlgate_core::declare_rule;
use crawlgate_core::rule::{Findings, Occurrence, Rule};
use crawlgate_core::signals::{Canonical, LinkSource, Signals};
use crawlgate_core::site::same_document;
use crawlgate_core::{Evidence, Site};
use url::Url;

declare_rule! {
    /// ## What it does
    /// Finds rendered pages whose effective canonical (in `<head>` or a `Link` header) differs
    /// between the raw HTML and the rendered DOM: added by a script, removed, changed to another
    /// URL, or joined by a second, conflicting one.
    ///
    /// ## Why is this bad?
    /// Google reads the canonical of the raw HTML and of the rendered page. It picks up a
    /// canonical injected by JavaScript, but "make sure that this is the only rel=canonical link
    /// tag on the page. Incorrect implementations might create multiple rel=canonical link tags
    /// or change an existing rel=canonical link tag. Conflicting or multiple rel=canonical link
    /// tags may lead to unexpected results" (Google Search Central, JavaScript SEO basics).
    /// Crawlers that do not render see only the raw one.
    ///
    /// ## Example
    /// ```html
    /// <link rel="canonical" href="https://example.com/shoes">
    /// <script>document.querySelector('link[rel=canonical]').href = '/shoes?sort=price'</script>
    /// ```
    ///
    /// ## How to fix
    /// Write the canonical once, in the HTML the server sends, and keep scripts (router, SEO
    /// plugin, tag manager) from adding or rewriting it. Both versions are quoted.
    pub struct CanonicalChanged {
        id: "render/canonical-changed",
        severity: Warning,
        summary: "Rendering adds, removes or changes the canonical the raw HTML declares",
    }
}

impl Rule for CanonicalChanged {
    fn check(&self, site: &Site, out: &mut Findings<'_>) {
        for (resource, page, rendered) in site.rendered() {
            if !page.signals.is_html || !rendered.has_dom() {
                continue;
            }
            let raw = targets(&page.signals);
            let after = targets(&rendered.signals);
            let same = raw.len() == after.len()
                && raw
                    .iter()
                    .all(|(a, _)| after.iter().any(|(b, _)| same_document(a, b)));
            if same {
                continue;
            }
            // What is missing from one side is asserted only of a side read whole.
            let what = match (raw.as_slice(), after.as_slice()) {
                ([], _) if page.read_in_part() => continue,
                (_, []) if rendered.read_in_part() => continue,
                ([], [(to, _)]) => format!(
                    "rendering adds the canonical `{to}`, which the raw HTML does not declare: crawlers that do not render see none"
                ),
                ([(from, _)], []) => format!(
                    "rendering removes the canonical `{from}` that the raw HTML declares: Google may read the page without one"
                ),
                ([(from, _)], [(to, _)]) => format!(
                    "rendering changes the canonical from `{from}` to `{to}`: Google sees conflicting canonicals"
                ),
                _ => format!(
                    "the raw HTML declares {} and the rendered DOM {}: Google sees conflicting canonicals",
                    count(raw.len()),
                    count(after.len())
                ),
            };
            let mut evidence = quoted(RAW, &resource.url, &raw);
            evidence.extend(quoted(RENDERED, &resource.url, &after));
            out.report(Occurrence::new(resource.url.as_str(), what).evidence_all(evidence));
        }
    }
}

/// The distinct resolved targets of the effective canonicals, with the first declaration of each.
fn targets(signals: &Signals) -> Vec<(&Url, &Canonical)> {
    let mut targets: Vec<(&Url, &Canonical)> = Vec::new();
    for canonical in signals.effective_canonicals() {
        if let Some(url) = &canonical.resolved
            && !targets.iter().any(|(known, _)| same_document(known, url))
        {
            targets.push((url, canonical));
        }
    }
    targets
}

fn count(n: usize) -> String {
    match n {
        0 => "no canonical".to_owned(),
        1 => "one canonical".to_owned(),
        n => format!("{n} different canonicals"),
    }
}

/// One side's canonicals as evidence, or the absence of any.
fn quoted(which: &str, page: &Url, targets: &[(&Url, &Canonical)]) -> Vec<Evidence> {
    if targets.is_empty() {
        return vec![side(which, page, "no canonical", None)];
    }
    targets
        .iter()
        .take(crate::support::MAX_SOURCES_QUOTED)
        .map(|(url, canonical)| {
            let quote = match &canonical.source {
                LinkSource::Html { raw, .. } => raw.to_string(),
                LinkSource::Header { value } => format!("Link: {value}"),
            };
            let line = match (&canonical.source, which == RAW) {
                (LinkSource::Html { line, .. }, true) => *line,
                _ => None,
            };
            Evidence::Change {
                side: which.to_owned(),
                url: page.to_string(),
                line,
                state: format!("canonical {url}"),
                quote: Some(quote),
            }
        })
        .collect()
}
