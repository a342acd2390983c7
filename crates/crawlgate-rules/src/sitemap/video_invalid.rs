use super::document::{Anchor, report_issues};
use crawlgate_core::Site;
use crawlgate_core::declare_rule;
use crawlgate_core::rule::{Findings, Rule, RuleMeta};

declare_rule! {
    /// ## What it does
    /// Finds `video:video` entries without the tags Google requires: `video:thumbnail_loc`,
    /// `video:title`, `video:description`, and `video:content_loc` or `video:player_loc`; and entries
    /// whose `video:content_loc` is the page's own URL.
    ///
    /// ## Why is this bad?
    /// Google skips video entries that lack a required tag, so the video is not indexed from the
    /// sitemap. `content_loc` must point to the video file itself, not to the page that shows it.
    ///
    /// ## Example
    /// ```xml
    /// <url><loc>https://example.com/videos/intro</loc>
    ///   <video:video><video:title>Intro</video:title></video:video>
    /// </url>
    /// ```
    ///
    /// ## How to fix
    /// Give every `video:video` a thumbnail, a title, a description, and the URL of the media file
    /// (`content_loc`) or of the player (`player_loc`).
    pub struct VideoInvalid {
        id: "sitemap/video-invalid",
        severity: Error,
        summary: "A video sitemap entry lacks required tags or points its content at the page",
    }
}

impl Rule for VideoInvalid {
    fn meta(&self) -> &'static RuleMeta {
        &Self::META
    }

    fn check(&self, site: &Site, out: &mut Findings<'_>) {
        report_issues(
            site,
            Self::META.id,
            Anchor::Child(|entry, _| !entry.videos.is_empty()),
            out,
        );
    }
}
