use super::document::{Anchor, report_issues};
use crate::support::{profiles_meant_to_crawl, verdict_evidence};
use crawlgate_core::declare_rule;
use crawlgate_core::rule::{Findings, Occurrence, Rule};
use crawlgate_core::{Evidence, Site};
use url::Url;

declare_rule! {
    /// ## What it does
    /// Finds `video:video` entries without the tags Google requires: `video:thumbnail_loc`,
    /// `video:title`, `video:description`, and `video:content_loc` or `video:player_loc`;
    /// entries whose `video:content_loc` is the page's own URL; values outside Google's
    /// documented limits, each named by its tag (`video:duration` 1–28,800 s, `video:rating`
    /// 0.0–5.0, at most 32 `video:tag`, a `video:description` of at most 2,048 characters, W3C
    /// dates, `yes`/`no` flags, `video:restriction` and `video:platform` with a `relationship` of
    /// `allow` or `deny` and their lists of country codes or `web`/`mobile`/`tv`, at most one
    /// `content_loc`, `player_loc`, `restriction` and `platform`, http(s) URLs); and video files,
    /// players or thumbnails that robots.txt disallows for the audited crawler.
    ///
    /// ## Why is this bad?
    /// Google skips video entries that lack a required tag, so the video is not indexed from the
    /// sitemap; a value it cannot read is dropped or makes it skip the entry. `content_loc` must point to the video file itself, not to the page that shows it.
    /// And Google must be able to fetch every file the entry names: a disallowed thumbnail or
    /// video file keeps the video out of search even when the page is indexed.
    ///
    /// ## Example
    /// ```xml
    /// <url><loc>https://example.com/videos/intro</loc>
    ///   <video:video><video:title>Intro</video:title></video:video>
    /// </url>
    /// ```
    ///
    /// ## How to fix
    /// Give every `video:video` a thumbnail, a title, a description, and the URL of the media
    /// file (`content_loc`) or of the player (`player_loc`); write each value as the message
    /// says (whole seconds, a rating out of 5, `relationship="allow"`). Allow crawling of the video, player
    /// and thumbnail URLs in robots.txt (the deciding rule is quoted in the evidence). Files
    /// disallowed for a crawler declared expected-blocked (`--expect-blocked gptbot`) are not
    /// reported: it is kept out on purpose.
    pub struct VideoInvalid {
        code: crawlgate_core::sitemap::Code::VideoInvalid,
        summary: "A video sitemap entry lacks required tags, has values outside Google's limits, points its content at the page, or names files robots.txt disallows",
    }
}

impl Rule for VideoInvalid {
    fn check(&self, site: &Site, out: &mut Findings<'_>) {
        report_issues(
            site,
            Self::META.id,
            Anchor::Child(|entry, _| !entry.videos.is_empty()),
            out,
        );
        // Files the crawler must fetch, disallowed (as wanted for an expected-blocked one).
        for (index, profile) in profiles_meant_to_crawl(site) {
            for sitemap in site.sitemaps.iter().filter(|sitemap| !sitemap.is_index()) {
                for entry in sitemap.entries().iter().filter(|e| !e.videos.is_empty()) {
                    for video in &entry.videos {
                        let files = [
                            ("video:content_loc", &video.content_loc),
                            ("video:player_loc", &video.player_loc),
                            ("video:thumbnail_loc", &video.thumbnail_loc),
                        ];
                        for (tag, file) in files {
                            let Some(url) = file.as_deref().and_then(|f| Url::parse(f.trim()).ok())
                            else {
                                continue;
                            };
                            if site.verdict(index, &url).allowed {
                                continue;
                            }
                            out.report(
                                Occurrence::new(
                                    sitemap.url.as_str(),
                                    format!(
                                        "line {}: {tag} `{url}` of {} is disallowed for {} by \
                                         robots.txt, so the video cannot be indexed",
                                        entry.line,
                                        entry.loc,
                                        profile.display_name()
                                    ),
                                )
                                .profile(&profile.name)
                                .evidence(verdict_evidence(site, index, &url))
                                .evidence(Evidence::SitemapEntry {
                                    sitemap_url: sitemap.url.to_string(),
                                    line: entry.line,
                                    loc: entry.loc.clone(),
                                }),
                            );
                        }
                    }
                }
            }
        }
    }
}
