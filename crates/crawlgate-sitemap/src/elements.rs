//! What each XML element means in a sitemap: the sitemaps.org schema, Google's image, video and
//! news extensions, and `xhtml:link` alternates. Feeds are in [`super::feed`].

use super::SitemapKind;
use super::feed;

/// The sitemaps.org namespace every `<urlset>` and `<sitemapindex>` must declare.
pub(crate) const SITEMAP_NS: &str = "http://www.sitemaps.org/schemas/sitemap/0.9";
pub(crate) const IMAGE_NS: &str = "http://www.google.com/schemas/sitemap-image/1.1";
pub(crate) const VIDEO_NS: &str = "http://www.google.com/schemas/sitemap-video/1.1";
pub(crate) const NEWS_NS: &str = "http://www.google.com/schemas/sitemap-news/0.9";
pub(crate) const XHTML_NS: &str = "http://www.w3.org/1999/xhtml";

/// An element's namespace, as far as sitemaps care.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Ns {
    /// The root element's namespace (whatever it is: a wrong one is reported once, at the root).
    Root,
    Image,
    Video,
    News,
    Xhtml,
    /// Any other namespace, or none when the root has one.
    Other,
}

impl Ns {
    /// Classifies a namespace URI (`None`: unbound) against the root's.
    pub(crate) fn of(uri: Option<&str>, root: Option<&str>) -> Ns {
        if uri == root {
            return Ns::Root;
        }
        match uri {
            Some(IMAGE_NS) => Ns::Image,
            Some(VIDEO_NS) => Ns::Video,
            Some(NEWS_NS) => Ns::News,
            Some(XHTML_NS) => Ns::Xhtml,
            _ => Ns::Other,
        }
    }
}

/// What an open element is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Role {
    Root,
    /// `<url>`, `<sitemap>` of an index, RSS `<item>`, Atom `<entry>`: one entry.
    Record,
    /// RSS `<channel>`.
    Channel,
    Image,
    Video,
    News,
    NewsPublication,
    /// `xhtml:link` inside `<url>` (read from its attributes).
    AlternateLink,
    /// Atom `<link>` inside `<entry>` (read from its attributes).
    FeedLink,
    /// An element whose text is a value.
    Field(Field),
    /// Anything else: ignored, with its content.
    Other,
}

/// Elements whose text is kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Field {
    Loc,
    Lastmod,
    Changefreq,
    Priority,
    ImageLoc,
    ImageCaption,
    ImageTitle,
    VideoThumbnail,
    VideoTitle,
    VideoDescription,
    VideoContent,
    VideoPlayer,
    VideoDuration,
    VideoPublicationDate,
    VideoExpirationDate,
    VideoRating,
    VideoViewCount,
    VideoFamilyFriendly,
    VideoRequiresSubscription,
    VideoLive,
    VideoUploader,
    VideoRestriction,
    VideoPlatform,
    VideoTag,
    NewsName,
    NewsLanguage,
    NewsPublicationDate,
    NewsTitle,
}

/// What a root element makes the document.
pub(crate) fn root_kind(local: &str) -> Option<SitemapKind> {
    match local {
        "urlset" => Some(SitemapKind::UrlSet),
        "sitemapindex" => Some(SitemapKind::Index),
        "rss" => Some(SitemapKind::Rss),
        "feed" => Some(SitemapKind::Atom),
        _ => None,
    }
}

/// The namespace a root of this kind must have (`None`: none, for RSS).
pub(crate) fn expected_root_ns(kind: SitemapKind) -> Option<&'static str> {
    match kind {
        SitemapKind::UrlSet | SitemapKind::Index => Some(SITEMAP_NS),
        SitemapKind::Atom => Some(feed::ATOM_NS),
        _ => None,
    }
}

/// The role of an element with `parent`'s role, in a document of `kind`.
pub(crate) fn child_role(kind: SitemapKind, parent: Role, ns: Ns, local: &str) -> Role {
    match kind {
        SitemapKind::UrlSet => urlset_child(parent, ns, local),
        SitemapKind::Index => match (parent, ns, local) {
            (Role::Root, Ns::Root, "sitemap") => Role::Record,
            (Role::Record, Ns::Root, "loc") => Role::Field(Field::Loc),
            (Role::Record, Ns::Root, "lastmod") => Role::Field(Field::Lastmod),
            _ => Role::Other,
        },
        SitemapKind::Rss | SitemapKind::Atom => feed::child_role(kind, parent, ns, local),
        SitemapKind::Text | SitemapKind::Unknown => Role::Other,
    }
}

fn urlset_child(parent: Role, ns: Ns, local: &str) -> Role {
    match (parent, ns) {
        (Role::Root, Ns::Root) if local == "url" => Role::Record,
        (Role::Record, Ns::Root) => match local {
            "loc" => Role::Field(Field::Loc),
            "lastmod" => Role::Field(Field::Lastmod),
            "changefreq" => Role::Field(Field::Changefreq),
            "priority" => Role::Field(Field::Priority),
            _ => Role::Other,
        },
        (Role::Record, Ns::Image) if local == "image" => Role::Image,
        (Role::Record, Ns::Video) if local == "video" => Role::Video,
        (Role::Record, Ns::News) if local == "news" => Role::News,
        (Role::Record, Ns::Xhtml) if local == "link" => Role::AlternateLink,
        (Role::Image, Ns::Image) => match local {
            "loc" => Role::Field(Field::ImageLoc),
            "caption" => Role::Field(Field::ImageCaption),
            "title" => Role::Field(Field::ImageTitle),
            _ => Role::Other,
        },
        (Role::Video, Ns::Video) => match local {
            "thumbnail_loc" => Role::Field(Field::VideoThumbnail),
            "title" => Role::Field(Field::VideoTitle),
            "description" => Role::Field(Field::VideoDescription),
            "content_loc" => Role::Field(Field::VideoContent),
            "player_loc" => Role::Field(Field::VideoPlayer),
            "duration" => Role::Field(Field::VideoDuration),
            "publication_date" => Role::Field(Field::VideoPublicationDate),
            "expiration_date" => Role::Field(Field::VideoExpirationDate),
            "rating" => Role::Field(Field::VideoRating),
            "view_count" => Role::Field(Field::VideoViewCount),
            "family_friendly" => Role::Field(Field::VideoFamilyFriendly),
            "requires_subscription" => Role::Field(Field::VideoRequiresSubscription),
            "live" => Role::Field(Field::VideoLive),
            "uploader" => Role::Field(Field::VideoUploader),
            "restriction" => Role::Field(Field::VideoRestriction),
            "platform" => Role::Field(Field::VideoPlatform),
            "tag" => Role::Field(Field::VideoTag),
            _ => Role::Other,
        },
        (Role::News, Ns::News) => match local {
            "publication" => Role::NewsPublication,
            "publication_date" => Role::Field(Field::NewsPublicationDate),
            "title" => Role::Field(Field::NewsTitle),
            _ => Role::Other,
        },
        (Role::NewsPublication, Ns::News) => match local {
            "name" => Role::Field(Field::NewsName),
            "language" => Role::Field(Field::NewsLanguage),
            _ => Role::Other,
        },
        _ => Role::Other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn namespaces_are_classified_against_the_root() {
        assert_eq!(Ns::of(Some(SITEMAP_NS), Some(SITEMAP_NS)), Ns::Root);
        assert_eq!(Ns::of(None, None), Ns::Root);
        assert_eq!(Ns::of(None, Some(SITEMAP_NS)), Ns::Other);
        assert_eq!(Ns::of(Some(IMAGE_NS), Some(SITEMAP_NS)), Ns::Image);
        assert_eq!(Ns::of(Some("urn:x"), Some(SITEMAP_NS)), Ns::Other);
    }

    #[test]
    fn urlset_structure() {
        let kind = SitemapKind::UrlSet;
        assert_eq!(child_role(kind, Role::Root, Ns::Root, "url"), Role::Record);
        assert_eq!(
            child_role(kind, Role::Record, Ns::Root, "loc"),
            Role::Field(Field::Loc)
        );
        assert_eq!(child_role(kind, Role::Root, Ns::Root, "loc"), Role::Other);
        assert_eq!(
            child_role(kind, Role::Record, Ns::Xhtml, "link"),
            Role::AlternateLink
        );
        assert_eq!(
            child_role(kind, Role::NewsPublication, Ns::News, "name"),
            Role::Field(Field::NewsName)
        );
        // Extension elements must be in their namespace.
        assert_eq!(
            child_role(kind, Role::Record, Ns::Other, "image"),
            Role::Other
        );
    }

    #[test]
    fn index_structure() {
        let kind = SitemapKind::Index;
        assert_eq!(
            child_role(kind, Role::Root, Ns::Root, "sitemap"),
            Role::Record
        );
        assert_eq!(
            child_role(kind, Role::Record, Ns::Root, "lastmod"),
            Role::Field(Field::Lastmod)
        );
        assert_eq!(child_role(kind, Role::Root, Ns::Root, "url"), Role::Other);
    }
}
