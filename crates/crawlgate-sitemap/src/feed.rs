//! RSS 2.0 and Atom 1.0 feeds, which Google accepts as sitemaps: an RSS `<item>`'s `<link>` (and
//! `<pubDate>` as its last modification), an Atom `<entry>`'s `<link href>` (the one without
//! `rel` or with `rel="alternate"`) and `<updated>`.

use super::SitemapKind;
use super::elements::{Field, Ns, Role};

pub(crate) const ATOM_NS: &str = "http://www.w3.org/2005/Atom";

/// The role of an element in a feed.
pub(crate) fn child_role(kind: SitemapKind, parent: Role, ns: Ns, local: &str) -> Role {
    if ns != Ns::Root {
        return Role::Other;
    }
    match (kind, parent, local) {
        (SitemapKind::Rss, Role::Root, "channel") => Role::Channel,
        (SitemapKind::Rss, Role::Channel, "item") | (SitemapKind::Atom, Role::Root, "entry") => {
            Role::Record
        }
        (SitemapKind::Rss, Role::Record, "link") => Role::Field(Field::Loc),
        (SitemapKind::Rss, Role::Record, "pubDate")
        | (SitemapKind::Atom, Role::Record, "updated") => Role::Field(Field::Lastmod),
        (SitemapKind::Atom, Role::Record, "link") => Role::FeedLink,
        _ => Role::Other,
    }
}

/// Whether an Atom `<link>` with this `rel` (absent: `None`) points at the entry's page.
pub(crate) fn is_page_link(rel: Option<&str>) -> bool {
    rel.is_none_or(|rel| rel.trim().eq_ignore_ascii_case("alternate"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rss_items_are_records_with_link_and_pubdate() {
        let rss = SitemapKind::Rss;
        assert_eq!(
            child_role(rss, Role::Root, Ns::Root, "channel"),
            Role::Channel
        );
        assert_eq!(
            child_role(rss, Role::Channel, Ns::Root, "item"),
            Role::Record
        );
        assert_eq!(
            child_role(rss, Role::Record, Ns::Root, "link"),
            Role::Field(Field::Loc)
        );
        assert_eq!(
            child_role(rss, Role::Record, Ns::Root, "pubDate"),
            Role::Field(Field::Lastmod)
        );
        assert_eq!(child_role(rss, Role::Root, Ns::Root, "item"), Role::Other);
        // atom:link inside an RSS item is not the item's link.
        assert_eq!(
            child_role(rss, Role::Record, Ns::Other, "link"),
            Role::Other
        );
    }

    #[test]
    fn atom_entries_link_by_rel() {
        let atom = SitemapKind::Atom;
        assert_eq!(
            child_role(atom, Role::Root, Ns::Root, "entry"),
            Role::Record
        );
        assert_eq!(
            child_role(atom, Role::Record, Ns::Root, "link"),
            Role::FeedLink
        );
        assert!(is_page_link(None));
        assert!(is_page_link(Some("alternate")));
        assert!(!is_page_link(Some("enclosure")));
    }
}
