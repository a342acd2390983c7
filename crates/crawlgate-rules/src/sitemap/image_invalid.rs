use super::document::{Anchor, report_issues};
use crawlgate_core::Site;
use crawlgate_core::declare_rule;
use crawlgate_core::rule::{Findings, Rule};

declare_rule! {
    /// ## What it does
    /// Finds `image:image` entries without an `image:loc`, or whose `image:loc` is not an
    /// absolute http(s) URL (a relative path, a `data:` URI).
    ///
    /// ## Why is this bad?
    /// `image:loc` is the one tag Google's image sitemap extension requires: it is the image.
    /// An `image:image` without a usable one tells Google nothing, and the image is not found
    /// from the sitemap.
    ///
    /// ## Example
    /// ```xml
    /// <url><loc>https://example.com/gallery</loc>
    ///   <image:image><image:loc>/img/cover.jpg</image:loc></image:image>
    /// </url>
    /// ```
    ///
    /// ## How to fix
    /// Give every `image:image` an `image:loc` with the image's full URL
    /// (`https://example.com/img/cover.jpg`; it may be on another host, such as a CDN).
    pub struct ImageInvalid {
        code: crawlgate_core::sitemap::Code::ImageInvalid,
        summary: "A sitemap image has no image:loc, or one that is not an http(s) URL",
    }
}

impl Rule for ImageInvalid {
    fn check(&self, site: &Site, out: &mut Findings<'_>) {
        report_issues(site, Self::META.id, Anchor::Child(|_, _| true), out);
    }
}
