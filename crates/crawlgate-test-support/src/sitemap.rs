//! Generated sitemaps.

/// Where a site served by `crawlgate-serve` puts its own origin (`http://127.0.0.1:PORT`): for
/// documents written before the port is known.
pub const ORIGIN: &str = "{{origin}}";

/// The XML declaration and `<urlset>` start tag of a sitemap, up to its first entry.
pub const URLSET_OPEN: &str = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n\
    <urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n";

/// The XML declaration and `<sitemapindex>` start tag of a sitemap index, up to its first entry.
pub const INDEX_OPEN: &str = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n\
    <sitemapindex xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n";

/// A `<urlset>` listing `origin` + each of `paths`, one `<url>` a line from line 3 on.
/// `origin` is [`ORIGIN`] for a served site, or an origin such as `http://site.test`.
pub fn urlset<P: AsRef<str>>(origin: &str, paths: impl IntoIterator<Item = P>) -> String {
    document(URLSET_OPEN, "url", origin, paths, "</urlset>\n")
}

/// A `<sitemapindex>` naming `origin` + each of `paths`, one `<sitemap>` a line from line 3 on.
pub fn sitemap_index<P: AsRef<str>>(origin: &str, paths: impl IntoIterator<Item = P>) -> String {
    document(INDEX_OPEN, "sitemap", origin, paths, "</sitemapindex>\n")
}

fn document<P: AsRef<str>>(
    open: &str,
    entry: &str,
    origin: &str,
    paths: impl IntoIterator<Item = P>,
    close: &str,
) -> String {
    let mut xml = open.to_owned();
    for path in paths {
        for part in [
            "  <",
            entry,
            "><loc>",
            origin,
            path.as_ref(),
            "</loc></",
            entry,
            ">\n",
        ] {
            xml.push_str(part);
        }
    }
    xml.push_str(close);
    xml
}
