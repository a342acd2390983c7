//! Generated HTML pages.

/// A small HTML page (doctype, head with a title, body) linking to each of `links`, one `<a>`
/// per line, its text the link itself.
pub fn page(links: &[&str]) -> String {
    let anchors: String = links
        .iter()
        .map(|href| ["<a href=\"", href, "\">", href, "</a>\n"].concat())
        .collect();
    format!("<!doctype html><html><head><title>t</title></head><body>\n{anchors}</body></html>\n")
}
