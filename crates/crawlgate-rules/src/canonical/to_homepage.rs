use super::targets::targets;
use crate::support::{canonical_evidence, ok_pages};
use crawlgate_core::Site;
use crawlgate_core::declare_rule;
use crawlgate_core::rule::{Findings, Occurrence, Rule};
use url::Url;

declare_rule! {
    /// ## What it does
    /// Finds inner pages whose canonical is the site's home page (`/` on the same scheme, host
    /// and port). Home page aliases (`/index.html`, `/index.php`, `/default.aspx`, `/home`) are
    /// not reported: canonicalising them to `/` is right.
    ///
    /// ## Why is this bad?
    /// An article, product or category is not a duplicate of the home page. If Google follows
    /// the hint, the page drops out of search in favour of the home page; more often Google
    /// notices the mismatch and ignores the canonical, and the site has no working canonical
    /// on those pages. The cause is almost always a template or plugin that outputs the site
    /// URL instead of the page URL.
    ///
    /// ## Example
    /// ```html
    /// <!-- on https://example.com/blog/how-to-choose-shoes -->
    /// <link rel="canonical" href="https://example.com/">
    /// ```
    ///
    /// ## How to fix
    /// Make the template output each page's own URL as its canonical (a self-referencing
    /// canonical), or the URL of the page it really duplicates.
    pub struct ToHomepage {
        id: "canonical/to-homepage",
        severity: Warning,
        summary: "An inner page names the home page as its canonical",
    }
}

/// Whether `url` is the home page under another name (`/index.html`, `/default.aspx`, `/home`).
fn is_home_alias(url: &Url) -> bool {
    let path = url.path().trim_start_matches('/').to_ascii_lowercase();
    let stem = path.split_once('.').map_or(path.as_str(), |(stem, _)| stem);
    !path.contains('/') && matches!(stem, "index" | "default" | "home")
}

impl Rule for ToHomepage {
    fn page_local(&self) -> bool {
        true
    }

    fn check(&self, site: &Site, out: &mut Findings<'_>) {
        for (resource, page) in ok_pages(site) {
            let url = &resource.url;
            if url.path() == "/" || is_home_alias(url) {
                continue;
            }
            for (canonical, target) in targets(url, &page.signals) {
                if target.origin() != url.origin() || target.path() != "/" {
                    continue;
                }
                out.report(
                    Occurrence::new(
                        url.as_str(),
                        format!(
                            "this inner page names the home page `{target}` as its canonical; Google will either drop the page or ignore the canonical"
                        ),
                    )
                    .evidence(canonical_evidence(url, canonical)),
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::is_home_alias;
    use url::Url;

    #[test]
    fn home_page_aliases() {
        let alias =
            |path: &str| is_home_alias(&Url::parse("https://e.com/").unwrap().join(path).unwrap());
        assert!(alias("/index.html"));
        assert!(alias("/INDEX.PHP"));
        assert!(alias("/default.aspx"));
        assert!(alias("/home"));
        assert!(!alias("/blog/index.html"));
        assert!(!alias("/homepage-ideas"));
        assert!(!alias("/shoes"));
    }
}
