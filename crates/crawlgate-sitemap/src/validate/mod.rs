//! The checks that need only the document (and its own URL and the check time): per entry as it
//! ends, and per document at the end from bounded tallies.

mod store;

use super::collect::Draft;
use super::datetime::{self, W3cDatetime, parse_rfc2822, parse_w3c_datetime};
use super::hreflang::hreflang_problem;
use super::issues::{self, Issues, MAX_ISSUES_PER_RULE, Position};
use super::loc::{CheckedUrl, check_loc, has_http_scheme};
use super::scope::{Placement, Scope};
use super::{MAX_IMAGES_PER_URL, SitemapKind, SitemapOptions};
use jiff::Timestamp;
use std::collections::hash_map::Entry;
use std::collections::{BinaryHeap, HashMap};
use store::{ChunkedList, LINK_BUCKETS, PreHashed, hash, link_bucket, pair_key};

/// Entries whose URL hash is remembered for duplicates and hreflang return links. Past this
/// (already four times the protocol limit, and reported as too many URLs) new URLs are not
/// remembered; memory stays around 5 MB.
const MAX_REMEMBERED_URLS: usize = 200_000;
/// hreflang links remembered for the return-link check (24 bytes each).
const MAX_REMEMBERED_ALTERNATES: usize = 500_000;
/// `lastmod` values tallied (16 bytes each), as many as URLs remembered.
const MAX_TALLIED_LASTMODS: usize = MAX_REMEMBERED_URLS;
/// `lastmod-uniform`: at least this many entries…
const UNIFORM_MIN_ENTRIES: u64 = 100;
/// …of which at least this share (in percent) have one value.
const UNIFORM_PERCENT: u64 = 90;

const CHANGEFREQS: [&str; 7] = [
    "always", "hourly", "daily", "weekly", "monthly", "yearly", "never",
];

pub(crate) struct Validator<'o> {
    options: &'o SitemapOptions,
    scope: Option<Scope>,
    kind: SitemapKind,
    future_after: Timestamp,
    stale_before: Timestamp,
    /// URL hash → line of its first listing.
    seen: HashMap<u64, u32, PreHashed>,
    entries: u64,
    lastmods: LastmodTally,
    /// hreflang links by the top bits of their pair key ([`LINK_BUCKETS`]).
    alternates: Vec<ChunkedList<AlternateLink>>,
    /// How many links `alternates` holds (counted: summing the buckets per link would cost more).
    alternates_kept: usize,
    alternates_overflow: bool,
    changefreq_priority: Option<(Position, u64)>,
}

/// One hreflang link, from a `<url>`'s loc to the href hashing to `to`.
#[derive(Debug, Clone, Copy)]
struct AlternateLink {
    /// [`pair_key`] of the two URLs' hashes.
    pair: u64,
    to: u64,
    at: Position,
}

impl<'o> Validator<'o> {
    pub(crate) fn new(options: &'o SitemapOptions) -> Self {
        Self {
            options,
            scope: options
                .url
                .as_ref()
                .map(|url| Scope::new(url, &options.cross_submit_origins)),
            kind: SitemapKind::Unknown,
            future_after: datetime::plus_days(options.check_time, 1),
            stale_before: datetime::plus_days(options.check_time, -2),
            seen: HashMap::default(),
            entries: 0,
            lastmods: LastmodTally::default(),
            alternates: std::iter::repeat_with(ChunkedList::default)
                .take(LINK_BUCKETS)
                .collect(),
            alternates_kept: 0,
            alternates_overflow: false,
            changefreq_priority: None,
        }
    }

    pub(crate) fn set_kind(&mut self, kind: SitemapKind) {
        self.kind = kind;
    }

    /// Checks a finished record; `true` when it has a `<loc>` and should be handed on.
    pub(crate) fn check(&mut self, draft: &Draft, issues: &mut Issues) -> bool {
        let entry = &draft.entry;
        let loc_at = draft.at.loc.unwrap_or(draft.at.record);
        if entry.loc.is_empty() {
            let element = self.loc_element();
            let missing = if draft.at.loc.is_some() {
                "is empty"
            } else {
                "is missing"
            };
            issues.push(issues::LOC_INVALID, Some(loc_at), || {
                format!("{element} {missing}; every entry needs an absolute URL")
            });
            return false;
        }
        let url = match check_loc(&entry.loc) {
            Ok(url) => Some(url),
            Err(problem) => {
                let is_url = loc_is_still_a_url(&entry.loc);
                issues.push(issues::LOC_INVALID, Some(loc_at), || {
                    let dropped = if is_url {
                        ""
                    } else {
                        "; not read as an entry of the sitemap"
                    };
                    format!("`{}` {problem}{dropped}", shorten(&entry.loc))
                });
                // What is no http(s) URL at all (`javascript:`, `file:`, a relative path, a
                // line of prose, an over-long loc) is no page of the sitemap: counting,
                // printing or fetching it would act on what the check itself refused.
                if !is_url {
                    return false;
                }
                None
            }
        };
        self.entries += 1;
        if let (Some(url), Some(scope)) = (&url, &self.scope) {
            self.check_placement(scope, url, &entry.loc, loc_at, issues);
        }
        let loc_hash = hash(&entry.loc);
        self.check_duplicate(loc_hash, entry, loc_at, issues);
        self.check_lastmod(draft, issues);
        if self.kind != SitemapKind::Index {
            self.check_changefreq_priority(draft, issues);
            check_images(draft, issues);
            check_videos(draft, issues);
            self.check_news(draft, issues);
            self.check_alternates(draft, loc_hash, issues);
        }
        true
    }

    fn loc_element(&self) -> &'static str {
        match self.kind {
            SitemapKind::Rss => "`<link>` of the `<item>`",
            SitemapKind::Atom => "`<link href>` of the `<entry>`",
            SitemapKind::Text => "the line",
            _ => "`<loc>`",
        }
    }

    fn check_placement(
        &self,
        scope: &Scope,
        url: &CheckedUrl<'_>,
        loc: &str,
        at: Position,
        issues: &mut Issues,
    ) {
        let placement = scope.place(url);
        let loc = || shorten(loc);
        match (placement, self.kind == SitemapKind::Index) {
            (Placement::Inside, _) => {}
            (Placement::OtherOrigin, true) => {
                issues.push(issues::INDEX_CHILD_OUT_OF_SCOPE, Some(at), || {
                    format!(
                        "child sitemap `{}` is on another site than the index ({}); Google \
                         needs it cross-submitted",
                        loc(),
                        scope.origin()
                    )
                });
            }
            (Placement::OutsideDirectory, true) => {
                issues.push(issues::INDEX_CHILD_OUT_OF_SCOPE, Some(at), || {
                    format!(
                        "child sitemap `{}` is outside the index's directory `{}`; children \
                         must be in the same directory or deeper",
                        loc(),
                        scope.directory()
                    )
                });
            }
            (Placement::OtherOrigin, false) => {
                issues.push(issues::CROSS_HOST_URL, Some(at), || {
                    format!(
                        "`{}` is not on the sitemap's scheme, host and port ({}); allowed only \
                         when that host's robots.txt lists this sitemap",
                        loc(),
                        scope.origin()
                    )
                });
            }
            (Placement::OutsideDirectory, false) => {
                issues.push(issues::OUT_OF_PATH_SCOPE, Some(at), || {
                    format!(
                        "`{}` is outside the sitemap's directory `{}`; a sitemap may only list \
                         URLs in its own directory or deeper",
                        loc(),
                        scope.directory()
                    )
                });
            }
        }
    }

    fn check_duplicate(
        &mut self,
        loc_hash: u64,
        entry: &super::Entry,
        at: Position,
        issues: &mut Issues,
    ) {
        let room = self.seen.len() < MAX_REMEMBERED_URLS;
        match self.seen.entry(loc_hash) {
            Entry::Occupied(first) => {
                let first = *first.get();
                issues.push(issues::DUPLICATE_URL, Some(at), || {
                    format!(
                        "`{}` is listed again (first at line {first})",
                        shorten(&entry.loc)
                    )
                });
            }
            Entry::Vacant(slot) if room => {
                slot.insert(at.line);
            }
            Entry::Vacant(_) => {}
        }
    }

    fn check_lastmod(&mut self, draft: &Draft, issues: &mut Issues) {
        let Some(lastmod) = draft.entry.lastmod.as_deref() else {
            return;
        };
        let at = draft.at.lastmod.unwrap_or(draft.at.record);
        self.lastmods.count(lastmod, at);
        let parsed = if self.kind == SitemapKind::Rss {
            parse_rfc2822(lastmod)
                .ok_or_else(|| "is not an RFC 822 date (RSS `<pubDate>`)".to_owned())
        } else {
            parse_w3c_datetime(lastmod)
                .as_ref()
                .map(W3cDatetime::earliest)
                .ok_or_else(|| w3c_hint(lastmod))
        };
        match parsed {
            Err(problem) => issues.push(issues::LASTMOD_INVALID, Some(at), || {
                format!("lastmod `{}` {problem}", shorten(lastmod))
            }),
            Ok(when) if when > self.future_after => {
                let now = self.options.check_time;
                issues.push(issues::LASTMOD_FUTURE, Some(at), || {
                    format!(
                        "lastmod `{lastmod}` is in the future (checked at {now}); it must be the \
                         date the page last changed"
                    )
                });
            }
            Ok(_) => {}
        }
    }

    fn check_changefreq_priority(&mut self, draft: &Draft, issues: &mut Issues) {
        let entry = &draft.entry;
        if entry.changefreq.is_none() && entry.priority.is_none() {
            return;
        }
        let first_at = draft
            .at
            .changefreq
            .or(draft.at.priority)
            .unwrap_or(draft.at.record);
        let tally = self.changefreq_priority.get_or_insert((first_at, 0));
        tally.1 += 1;
        if let Some(changefreq) = entry.changefreq.as_deref()
            && !CHANGEFREQS
                .iter()
                .any(|valid| valid.eq_ignore_ascii_case(changefreq))
        {
            let at = draft.at.changefreq.unwrap_or(draft.at.record);
            issues.push(issues::CHANGEFREQ_PRIORITY_INVALID, Some(at), || {
                format!(
                    "changefreq `{}` is not one of always, hourly, daily, weekly, monthly, \
                     yearly, never",
                    shorten(changefreq)
                )
            });
        }
        if let Some(priority) = entry.priority.as_deref()
            && !is_valid_priority(priority)
        {
            let at = draft.at.priority.unwrap_or(draft.at.record);
            issues.push(issues::CHANGEFREQ_PRIORITY_INVALID, Some(at), || {
                format!(
                    "priority `{}` is not a number from 0.0 to 1.0",
                    shorten(priority)
                )
            });
        }
    }

    fn check_news(&self, draft: &Draft, issues: &mut Issues) {
        let Some(news) = &draft.entry.news else {
            return;
        };
        let at = draft.at.news.unwrap_or(draft.at.record);
        let present = |field: &Option<String>| field.as_deref().is_some_and(|v| !v.is_empty());
        let missing: Vec<&str> = [
            (
                "news:publication/news:name",
                present(&news.publication_name),
            ),
            (
                "news:publication/news:language",
                present(&news.publication_language),
            ),
            ("news:publication_date", present(&news.publication_date)),
            ("news:title", present(&news.title)),
        ]
        .into_iter()
        .filter_map(|(name, is_present)| (!is_present).then_some(name))
        .collect();
        if !missing.is_empty() {
            issues.push(issues::NEWS_INVALID, Some(at), || {
                format!("news:news lacks {}", missing.join(", "))
            });
        }
        if let Some(language) = news
            .publication_language
            .as_deref()
            .filter(|code| !code.is_empty() && !is_news_language(code))
        {
            issues.push(issues::NEWS_INVALID, Some(at), || {
                format!(
                    "news:publication/news:language `{}` is not an ISO 639 language code (two or \
                     three lowercase letters; `zh-cn` or `zh-tw` for Chinese)",
                    shorten(language)
                )
            });
        }
        let Some(date) = news.publication_date.as_deref().filter(|d| !d.is_empty()) else {
            return;
        };
        match parse_w3c_datetime(date) {
            None => issues.push(issues::NEWS_INVALID, Some(at), || {
                format!(
                    "news:publication_date `{}` {}",
                    shorten(date),
                    w3c_hint(date)
                )
            }),
            Some(published) if published.earliest() < self.stale_before => {
                let now = self.options.check_time;
                issues.push(issues::NEWS_STALE, Some(at), || {
                    format!(
                        "news:publication_date `{date}` is more than two days before the check \
                         ({now}); news sitemaps should only list recent articles"
                    )
                });
            }
            Some(_) => {}
        }
    }

    fn check_alternates(&mut self, draft: &Draft, loc_hash: u64, issues: &mut Issues) {
        let entry = &draft.entry;
        if entry.alternates.is_empty() {
            return;
        }
        let mut lists_itself = false;
        for (index, alternate) in entry.alternates.iter().enumerate() {
            let at = draft
                .at
                .alternates
                .get(index)
                .copied()
                .unwrap_or(draft.at.record);
            if let Some(problem) = hreflang_problem(&alternate.hreflang) {
                issues.push(issues::HREFLANG_INVALID, Some(at), || {
                    format!(
                        "hreflang `{}` is invalid: {problem}",
                        shorten(&alternate.hreflang)
                    )
                });
            }
            if !has_http_scheme(&alternate.href) {
                issues.push(issues::HREFLANG_INVALID, Some(at), || {
                    format!(
                        "hreflang alternate `{}` is not a fully-qualified http(s) URL",
                        shorten(&alternate.href)
                    )
                });
            }
            if alternate.href == entry.loc {
                lists_itself = true;
                continue;
            }
            if self.alternates_kept < MAX_REMEMBERED_ALTERNATES {
                let to = hash(&alternate.href);
                let pair = pair_key(loc_hash, to);
                if let Some(bucket) = self.alternates.get_mut(link_bucket(pair)) {
                    bucket.push(AlternateLink { pair, to, at });
                    self.alternates_kept += 1;
                }
            } else {
                self.alternates_overflow = true;
            }
        }
        if !lists_itself {
            let at = draft
                .at
                .alternates
                .first()
                .copied()
                .unwrap_or(draft.at.record);
            issues.push(issues::HREFLANG_INVALID, Some(at), || {
                format!(
                    "the hreflang alternates of `{}` do not include the URL itself; each URL \
                     must list itself and all its alternates",
                    shorten(&entry.loc)
                )
            });
        }
    }

    /// Document-level checks from the tallies.
    pub(crate) fn finish(self, issues: &mut Issues) {
        if let Some((at, count)) = self.changefreq_priority {
            issues.push(issues::CHANGEFREQ_PRIORITY, Some(at), || {
                let entries = if count == 1 {
                    "1 entry carries".to_owned()
                } else {
                    format!("{count} entries carry")
                };
                format!("{entries} <changefreq> or <priority>, which Google ignores (first here)")
            });
        }
        if let Some((value, count, at)) = self.lastmods.uniform(self.entries) {
            let entries = self.entries;
            issues.push(issues::LASTMOD_UNIFORM, Some(at), || {
                format!(
                    "{count} of {entries} entries share lastmod `{value}`: a build-time stamp, \
                     not the date each page changed, and Google may stop trusting lastmod"
                )
            });
        }
        self.check_return_links(issues);
    }

    /// An alternate that has its own `<url>` here must list the first URL back.
    fn check_return_links(&self, issues: &mut Issues) {
        if self.alternates_overflow {
            issues.push(issues::LIMITS_EXCEEDED, None, || {
                format!(
                    "more than {MAX_REMEMBERED_ALTERNATES} hreflang alternates: return links were \
                     checked for the first {MAX_REMEMBERED_ALTERNATES} only"
                )
            });
        }
        // Sorted by pair, a pair's links sit together. Sorting is cache-friendly where a binary
        // search or hash-set probe per link misses the cache at nearly every step (the
        // benchmark has 250,000 links), and this runs alone, after the tokenizer thread ends.
        // Both links of a pair fall in one bucket, sorted on its own.
        // Only the first one-way links in document order become issues (the rest are counted):
        // a bounded max-heap by position keeps those, so a file of 100,000 one-way links holds
        // 1,000 of them, not all, and links to URLs not listed here are never kept.
        let room = usize::try_from(MAX_ISSUES_PER_RULE).unwrap_or(usize::MAX);
        let mut first: BinaryHeap<(Position, u64, u32)> = BinaryHeap::with_capacity(room + 1);
        let mut past_first = 0u64;
        let mut links: Vec<AlternateLink> = Vec::new();
        for bucket in &self.alternates {
            links.clear();
            links.extend(bucket.iter());
            links.sort_unstable_by_key(|link| link.pair);
            let one_way = links
                .chunk_by(|a, b| a.pair | 1 == b.pair | 1)
                .filter(|pair| {
                    pair.first().map(|link| link.pair) == pair.last().map(|link| link.pair)
                })
                .flatten();
            for link in one_way {
                let Some(&target_line) = self.seen.get(&link.to) else {
                    continue;
                };
                first.push((link.at, link.to, target_line));
                if first.len() > room {
                    first.pop();
                    past_first += 1;
                }
            }
        }
        // Reported in document order.
        for (at, _, target_line) in first.into_sorted_vec() {
            issues.push(issues::HREFLANG_INVALID, Some(at), || {
                format!(
                    "this hreflang alternate has its own <url> at line {target_line}, which does \
                     not list this URL back (Google ignores one-way pairs)"
                )
            });
        }
        for _ in 0..past_first {
            // Counted for the summary; never built (the rule's list is full by now).
            issues.push(issues::HREFLANG_INVALID, None, String::new);
        }
    }
}

fn is_valid_priority(priority: &str) -> bool {
    let well_formed = !priority.is_empty()
        && priority.bytes().all(|b| b.is_ascii_digit() || b == b'.')
        && priority.bytes().filter(|&b| b == b'.').count() <= 1
        && priority.bytes().any(|b| b.is_ascii_digit());
    well_formed
        && priority
            .parse::<f64>()
            .is_ok_and(|p| (0.0..=1.0).contains(&p))
}

/// A short explanation of why `value` is not W3C Datetime, for the common mistakes.
fn w3c_hint(value: &str) -> String {
    let has_time = value.len() > 10
        && value
            .as_bytes()
            .get(10)
            .is_some_and(|&b| b == b'T' || b == b' ');
    let ends_with_zone = value.ends_with('Z')
        || value
            .len()
            .checked_sub(6)
            .and_then(|at| value.as_bytes().get(at))
            .is_some_and(|&b| b == b'+' || b == b'-');
    if has_time && !ends_with_zone {
        "is not W3C Datetime: a time needs a zone designator (`Z` or `+hh:mm`)".to_owned()
    } else {
        "is not W3C Datetime (YYYY, YYYY-MM, YYYY-MM-DD, or YYYY-MM-DDThh:mm[:ss[.s]] with Z or \
         ±hh:mm)"
            .to_owned()
    }
}

fn check_images(draft: &Draft, issues: &mut Issues) {
    let count = draft.at.image_count;
    if count > MAX_IMAGES_PER_URL {
        issues.push(issues::IMAGE_LIMIT, Some(draft.at.record), || {
            format!("{count} image:image in one <url>; Google reads at most {MAX_IMAGES_PER_URL}")
        });
    }
}

fn check_videos(draft: &Draft, issues: &mut Issues) {
    for (index, video) in draft.entry.videos.iter().enumerate() {
        let at = draft
            .at
            .videos
            .get(index)
            .copied()
            .unwrap_or(draft.at.record);
        let present = |field: &Option<String>| field.as_deref().is_some_and(|v| !v.is_empty());
        let mut missing: Vec<&str> = [
            ("video:thumbnail_loc", present(&video.thumbnail_loc)),
            ("video:title", present(&video.title)),
            ("video:description", present(&video.description)),
        ]
        .into_iter()
        .filter_map(|(name, is_present)| (!is_present).then_some(name))
        .collect();
        if !present(&video.content_loc) && !present(&video.player_loc) {
            missing.push("video:content_loc or video:player_loc");
        }
        if !missing.is_empty() {
            issues.push(issues::VIDEO_INVALID, Some(at), || {
                format!("video:video lacks {}", missing.join(", "))
            });
        }
        if video.content_loc.as_deref() == Some(draft.entry.loc.as_str()) {
            issues.push(issues::VIDEO_INVALID, Some(at), || {
                "video:content_loc is the page's own <loc>; it must point at the video file"
                    .to_owned()
            });
        }
        for problem in video_problems(video) {
            issues.push(issues::VIDEO_INVALID, Some(at), || problem);
        }
    }
}

/// The most `video:tag` Google reads per video.
const MAX_VIDEO_TAGS: u32 = 32;
/// The longest `video:description`, in characters.
const MAX_VIDEO_DESCRIPTION_CHARS: usize = 2_048;
/// The longest video, in seconds (8 hours).
const MAX_VIDEO_SECONDS: u32 = 28_800;
/// The longest `video:uploader`, in characters.
const MAX_VIDEO_UPLOADER_CHARS: usize = 255;

/// What Google's video sitemap documentation does not accept in a `video:video`, field by field
/// (the required fields are checked by the caller).
fn video_problems(video: &super::Video) -> Vec<String> {
    let mut problems = Vec::new();
    for (name, url) in [
        ("video:thumbnail_loc", &video.thumbnail_loc),
        ("video:content_loc", &video.content_loc),
        ("video:player_loc", &video.player_loc),
    ] {
        if let Some(url) = value(url.as_ref()).filter(|url| !has_http_scheme(url)) {
            problems.push(format!("{name} `{}` is not an http(s) URL", shorten(url)));
        }
    }
    if let Some(description) = value(video.description.as_ref()) {
        let chars = description.chars().count();
        if chars > MAX_VIDEO_DESCRIPTION_CHARS {
            problems.push(format!(
                "video:description is {chars} characters; Google allows at most \
                 {MAX_VIDEO_DESCRIPTION_CHARS}"
            ));
        }
    }
    if let Some(duration) = value(video.duration.as_ref())
        && !duration
            .parse::<u32>()
            .is_ok_and(|seconds| (1..=MAX_VIDEO_SECONDS).contains(&seconds))
    {
        problems.push(format!(
            "video:duration `{}` is not a whole number of seconds from 1 to 28800 (8 hours)",
            shorten(duration)
        ));
    }
    if let Some(rating) = value(video.rating.as_ref())
        && !(rating.bytes().all(|b| b.is_ascii_digit() || b == b'.')
            && rating
                .parse::<f64>()
                .is_ok_and(|r| (0.0..=5.0).contains(&r)))
    {
        problems.push(format!(
            "video:rating `{}` is not a number from 0.0 to 5.0",
            shorten(rating)
        ));
    }
    if let Some(views) = value(video.view_count.as_ref())
        && views.parse::<u64>().is_err()
    {
        problems.push(format!(
            "video:view_count `{}` is not a whole number",
            shorten(views)
        ));
    }
    if video.tag_count > MAX_VIDEO_TAGS {
        problems.push(format!(
            "{} video:tag; Google reads at most {MAX_VIDEO_TAGS}",
            video.tag_count
        ));
    }
    for (name, date) in [
        ("video:publication_date", &video.publication_date),
        ("video:expiration_date", &video.expiration_date),
    ] {
        if let Some(date) = value(date.as_ref())
            && parse_w3c_datetime(date).is_none()
        {
            problems.push(format!("{name} `{}` {}", shorten(date), w3c_hint(date)));
        }
    }
    for (name, flag) in [
        ("video:family_friendly", &video.family_friendly),
        ("video:requires_subscription", &video.requires_subscription),
        ("video:live", &video.live),
    ] {
        if let Some(flag) = value(flag.as_ref())
            && !flag.eq_ignore_ascii_case("yes")
            && !flag.eq_ignore_ascii_case("no")
        {
            problems.push(format!("{name} `{}` is not `yes` or `no`", shorten(flag)));
        }
    }
    if let Some(uploader) = value(video.uploader.as_ref()) {
        let chars = uploader.chars().count();
        if chars > MAX_VIDEO_UPLOADER_CHARS {
            problems.push(format!(
                "video:uploader is {chars} characters; Google allows at most \
                 {MAX_VIDEO_UPLOADER_CHARS}"
            ));
        }
    }
    video_list_problems(video, &mut problems);
    problems
}

/// A value that is present and not empty.
fn value(field: Option<&String>) -> Option<&str> {
    field.map(String::as_str).filter(|v| !v.is_empty())
}

/// `video:restriction` and `video:platform`, and locations written more than once.
fn video_list_problems(video: &super::Video, problems: &mut Vec<String>) {
    let is_country = |code: &str| code.len() == 2 && code.bytes().all(|b| b.is_ascii_alphabetic());
    let is_platform = |name: &str| {
        ["web", "mobile", "tv"]
            .iter()
            .any(|known| known.eq_ignore_ascii_case(name))
    };
    for (name, list, relationship, count, valid, what) in [
        (
            "video:restriction",
            &video.restriction,
            &video.restriction_relationship,
            video.restriction_count,
            &is_country as &dyn Fn(&str) -> bool,
            "ISO 3166 country codes (`US GB`)",
        ),
        (
            "video:platform",
            &video.platform,
            &video.platform_relationship,
            video.platform_count,
            &is_platform as &dyn Fn(&str) -> bool,
            "platforms (`web`, `mobile`, `tv`)",
        ),
    ] {
        if count == 0 {
            continue;
        }
        match relationship.as_deref() {
            Some(r) if r.eq_ignore_ascii_case("allow") || r.eq_ignore_ascii_case("deny") => {}
            Some(r) => problems.push(format!(
                "{name} relationship=`{}` is not `allow` or `deny`",
                shorten(r)
            )),
            None => problems.push(format!(
                "{name} has no relationship attribute (`allow` or `deny`); it is required"
            )),
        }
        let items = list.as_deref().unwrap_or_default();
        if let Some(bad) = items.split_ascii_whitespace().find(|item| !valid(item)) {
            problems.push(format!(
                "{name} `{}` is not a space-separated list of {what}",
                shorten(bad)
            ));
        }
        if count > 1 {
            problems.push(format!("{count} {name} in one video; Google allows one"));
        }
    }
    for (name, count) in [
        ("video:content_loc", video.content_loc_count),
        ("video:player_loc", video.player_loc_count),
    ] {
        if count > 1 {
            problems.push(format!(
                "{count} {name} in one video; Google allows one (only the first is read)"
            ));
        }
    }
}

/// An ISO 639 language code as Google News reads it: two or three letters, or `zh-cn` / `zh-tw`.
fn is_news_language(code: &str) -> bool {
    (2..=3).contains(&code.len()) && code.bytes().all(|b| b.is_ascii_lowercase())
        || code.eq_ignore_ascii_case("zh-cn")
        || code.eq_ignore_ascii_case("zh-tw")
}

/// Finds a `lastmod` shared by nearly all entries without a hash table of every distinct value
/// (its lookups missed the cache): a value held by 90 % of entries is the
/// majority, which the Boyer–Moore vote finds in one pass; its exact count and first place then
/// come from the values' hashes, kept in order and read once at the end.
#[derive(Debug, Default)]
struct LastmodTally {
    /// Each value's hash and place, in document order.
    values: ChunkedList<(u64, Position)>,
    /// The vote's candidate: its hash, its text, and its votes.
    candidate: u64,
    candidate_text: String,
    votes: u32,
}

impl LastmodTally {
    fn count(&mut self, value: &str, at: Position) {
        if self.values.len() >= MAX_TALLIED_LASTMODS {
            return;
        }
        let key = hash(value);
        self.values.push((key, at));
        if self.votes == 0 {
            self.candidate = key;
            self.candidate_text.clear();
            self.candidate_text.push_str(value);
            self.votes = 1;
        } else if key == self.candidate {
            self.votes += 1;
        } else {
            self.votes -= 1;
        }
    }

    /// The shared value, its count and first position, when uniform over `entries`.
    fn uniform(&self, entries: u64) -> Option<(String, u32, Position)> {
        if entries < UNIFORM_MIN_ENTRIES {
            return None;
        }
        let mut holders = self.values.iter().filter(|(key, _)| *key == self.candidate);
        let (_, first) = holders.next()?;
        let count = u32::try_from(holders.count() + 1).ok()?;
        (u64::from(count) * 100 >= entries * UNIFORM_PERCENT)
            .then(|| (self.candidate_text.clone(), count, first))
    }
}

/// Whether a `<loc>` that failed [`check_loc`] is still an http(s) URL a client would fetch
/// (it only lacks escaping: a raw space or non-ASCII character is percent-encoded by any client),
/// rather than no URL at all.
fn loc_is_still_a_url(loc: &str) -> bool {
    has_http_scheme(loc)
        && loc.chars().count() <= super::MAX_LOC_CHARS
        && url::Url::parse(loc).is_ok_and(|url| url.host_str().is_some_and(|host| !host.is_empty()))
}

/// Long values cut for messages, on a character boundary.
pub(crate) fn shorten(text: &str) -> String {
    const KEEP: usize = 200;
    match text.char_indices().nth(KEEP) {
        Some((cut, _)) => format!("{}…", text.get(..cut).unwrap_or(text)),
        None => text.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn priorities() {
        for good in ["0.0", "0.5", "1.0", "1", "0", ".5"] {
            assert!(is_valid_priority(good), "{good}");
        }
        for bad in ["1.5", "-0.1", "high", "", "0.5.1", "NaN", "inf", "1e-1"] {
            assert!(!is_valid_priority(bad), "{bad}");
        }
    }

    #[test]
    fn uniform_needs_ninety_percent_of_a_hundred() {
        let at = Position::default();
        let mut tally = LastmodTally::default();
        for i in 0..100 {
            tally.count(if i < 90 { "2024-01-01" } else { "2024-02-02" }, at);
        }
        assert!(tally.uniform(100).is_some());
        assert!(tally.uniform(101).is_none());
        let mut small = LastmodTally::default();
        for _ in 0..99 {
            small.count("2024-01-01", at);
        }
        assert!(small.uniform(99).is_none());
        // The shared value comes last, after ten others: found, with its exact count and first
        // place.
        let mut late = LastmodTally::default();
        for i in 0..100 {
            let value = if i < 10 {
                format!("2024-01-{:02}", i + 1)
            } else {
                "2025-06-30".to_owned()
            };
            late.count(
                &value,
                Position {
                    line: i + 1,
                    column: 3,
                },
            );
        }
        let (value, count, first) = late.uniform(100).unwrap();
        assert_eq!((value.as_str(), count, first.line), ("2025-06-30", 90, 11));
        // Half and half: no majority, not uniform.
        let mut split = LastmodTally::default();
        for i in 0..200 {
            split.count(
                if i % 2 == 0 {
                    "2024-01-01"
                } else {
                    "2024-02-02"
                },
                at,
            );
        }
        assert!(split.uniform(200).is_none());
    }

    #[test]
    fn shorten_cuts_long_text_on_char_boundaries() {
        let long = "é".repeat(300);
        let short = shorten(&long);
        assert_eq!(short.chars().count(), 201);
        assert!(short.ends_with('…'));
        assert_eq!(shorten("abc"), "abc");
    }

    #[test]
    fn w3c_hints_name_the_missing_zone() {
        assert!(w3c_hint("2024-01-01T10:00:00").contains("zone"));
        assert!(w3c_hint("01/02/2024").contains("YYYY-MM-DD"));
    }
}
