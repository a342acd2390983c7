//! The six tables: what a row is, its columns, and the rows of a report, in report order.
//!
//! Each table's rows borrow from the report, or, for the tables made from its page records, from
//! a chunk of them ([`crate::PAGE_CHUNK`]: the records may be read back from the page store); a
//! row computes only what a column needs beyond the report's own fields (a count, a joined
//! list, the evidence as JSON).

use crate::schema::{Col, Get};

/// A count as a `u32` column holds it (saturating: never a panic).
fn count(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

pub(crate) mod pages {
    use super::{Col, Get, count};
    use crawlgate_report::{PageRecord, Report};
    use std::collections::BTreeMap;

    pub(crate) const DESCRIPTION: &str = "One row per URL the audit knows (`report.json`'s \
        `pages`: pages and assets, fetched or not), by URL.";

    pub(crate) struct Row<'a> {
        page: &'a PageRecord,
        indexable: Option<bool>,
        findings: u32,
    }

    pub(crate) fn columns<'a>() -> Vec<Col<Row<'a>>> {
        vec![
            Col {
                name: "url",
                doc: "The URL as the crawl knew it.",
                get: Get::Str(|r| &r.page.url),
            },
            Col {
                name: "kind",
                doc: "`page`, or the asset's kind: `stylesheet`, `script`, `image`, `icon`.",
                get: Get::Str(|r| &r.page.kind),
            },
            Col {
                name: "depth",
                doc: "Clicks from the start URL; null when no link chain from it reached the URL \
                      (known from a sitemap, a canonical, a list).",
                get: Get::OptU32(|r| r.page.depth),
            },
            Col {
                name: "state",
                doc: "`fetched`, `redirected`, `failed` or `not-fetched`.",
                get: Get::Str(|r| &r.page.state),
            },
            Col {
                name: "status",
                doc: "The final HTTP status, after redirects; null when no response came.",
                get: Get::OptU16(|r| r.page.status),
            },
            Col {
                name: "final_url",
                doc: "Where redirects led; null when it did not redirect.",
                get: Get::OptStr(|r| r.page.final_url.as_deref()),
            },
            Col {
                name: "detail",
                doc: "Why it failed or was not fetched, in words.",
                get: Get::OptStr(|r| r.page.detail.as_deref()),
            },
            Col {
                name: "content_type",
                doc: "The `Content-Type` header as received.",
                get: Get::OptStr(|r| r.page.content_type.as_deref()),
            },
            Col {
                name: "canonical",
                doc: "The effective canonical target (`<link rel=canonical>` or `Link` header).",
                get: Get::OptStr(|r| r.page.canonical.as_deref()),
            },
            Col {
                name: "last_modified",
                doc: "Its `Last-Modified` header as a W3C datetime (`2019-02-04T10:00:00Z`).",
                get: Get::OptStr(|r| r.page.last_modified.as_deref()),
            },
            Col {
                name: "indexable",
                doc: "Whether every audited profile not expected-blocked would index it \
                      (`verdicts.parquet` has each profile's verdict); null when none of them has \
                      a verdict.",
                get: Get::OptBool(|r| r.indexable),
            },
            Col {
                name: "inbound_links",
                doc: "Followed internal links pointing at it, counted over the whole crawl (far \
                      more than `links.parquet` holds).",
                get: Get::U32(|r| r.page.inbound_links),
            },
            Col {
                name: "in_sitemap",
                doc: "Whether a sitemap lists it.",
                get: Get::Bool(|r| !r.page.in_sitemaps.is_empty()),
            },
            Col {
                name: "sitemaps",
                doc: "How many sitemaps list it (its rows in `sitemap_entries.parquet`).",
                get: Get::U32(|r| count(r.page.in_sitemaps.len())),
            },
            Col {
                name: "hreflang_alternates",
                doc: "Its hreflang alternates (head or `Link` header), at most 300 kept.",
                get: Get::U32(|r| count(r.page.alternates.len())),
            },
            Col {
                name: "findings",
                doc: "Findings about this URL (its rows in `findings.parquet`).",
                get: Get::U32(|r| r.findings),
            },
            Col {
                name: "render_outcome",
                doc: "With `--render`: `settled`, `timed-out` or `failed`; null when not rendered.",
                get: Get::OptStr(|r| r.page.rendered.as_ref().map(|r| r.outcome.as_str())),
            },
        ]
    }

    /// What a row needs beyond its page record: the findings per URL, the profiles meant to
    /// index the site.
    pub(crate) struct Context<'r> {
        findings: BTreeMap<&'r str, u32>,
        meant: Vec<&'r str>,
    }

    impl<'r> Context<'r> {
        pub(crate) fn of(report: &'r Report) -> Self {
            let mut findings: BTreeMap<&str, u32> = BTreeMap::new();
            for finding in &report.findings {
                let n = findings.entry(finding.finding.url.as_str()).or_default();
                *n = n.saturating_add(1);
            }
            let meant = report
                .target
                .profiles
                .iter()
                .filter(|name| !report.target.expected_blocked.contains(name))
                .map(String::as_str)
                .collect();
            Context { findings, meant }
        }

        /// The rows of `pages`, a chunk of the report's.
        pub(crate) fn rows<'a>(&'a self, pages: &'a [PageRecord]) -> impl Iterator<Item = Row<'a>> {
            pages.iter().map(move |page| {
                let mut views = self
                    .meant
                    .iter()
                    .filter_map(|name| page.profiles.get(name))
                    .peekable();
                let indexable = views.peek().is_some().then(|| views.all(|v| v.indexable));
                Row {
                    page,
                    indexable,
                    findings: self.findings.get(page.url.as_str()).copied().unwrap_or(0),
                }
            })
        }
    }
}

pub(crate) mod verdicts {
    use super::{Col, Get};
    use crawlgate_report::{PageRecord, ProfileView};

    pub(crate) const DESCRIPTION: &str = "One row per URL and crawler profile that has a verdict \
        on it (`pages[].profiles`), by URL, then profile. Join to `pages.parquet` on `url`.";

    pub(crate) struct Row<'a> {
        url: &'a str,
        profile: &'a str,
        expected_blocked: bool,
        view: &'a ProfileView,
        directives: String,
    }

    pub(crate) fn columns<'a>() -> Vec<Col<Row<'a>>> {
        vec![
            Col {
                name: "url",
                doc: "The URL (`pages.parquet`'s `url`).",
                get: Get::Str(|r| r.url),
            },
            Col {
                name: "profile",
                doc: "The crawler profile (`googlebot`, `bingbot`, `gptbot`, …).",
                get: Get::Str(|r| r.profile),
            },
            Col {
                name: "expected_blocked",
                doc: "Whether the audit declared the profile expected-blocked \
                      (`--expect-blocked`).",
                get: Get::Bool(|r| r.expected_blocked),
            },
            Col {
                name: "allowed",
                doc: "Whether robots.txt lets the profile fetch it.",
                get: Get::Bool(|r| r.view.allowed),
            },
            Col {
                name: "robots_rule",
                doc: "The deciding robots.txt rule, `line N: Directive: pattern`; null when no \
                      rule decided.",
                get: Get::OptStr(|r| r.view.robots_rule.as_deref()),
            },
            Col {
                name: "directives",
                doc: "The effective meta robots and `X-Robots-Tag` directives for the profile, \
                      sorted, joined by `, ` (`max-snippet:50, noindex`); empty when none or not \
                      fetched.",
                get: Get::Str(|r| &r.directives),
            },
            Col {
                name: "noindex",
                doc: "Whether the directives include `noindex` (or `none`).",
                get: Get::Bool(|r| r.view.noindex),
            },
            Col {
                name: "nofollow",
                doc: "Whether the directives include `nofollow` (or `none`).",
                get: Get::Bool(|r| r.view.directives.iter().any(|d| d == "nofollow")),
            },
            Col {
                name: "indexable",
                doc: "Whether the profile's search engine would index it.",
                get: Get::Bool(|r| r.view.indexable),
            },
            Col {
                name: "why_not",
                doc: "Why it would not be indexed, in words; null when indexable.",
                get: Get::OptStr(|r| r.view.why_not.as_deref()),
            },
        ]
    }

    /// The rows of `pages`, a chunk of the report's; `expected`: the report's
    /// `target.expected_blocked`.
    pub(crate) fn rows<'a>(
        expected: &'a [String],
        pages: &'a [PageRecord],
    ) -> impl Iterator<Item = Row<'a>> {
        pages.iter().flat_map(move |page| {
            page.profiles.iter().map(move |(profile, view)| Row {
                url: &page.url,
                profile,
                expected_blocked: expected.iter().any(|name| name == profile),
                view,
                directives: view.directives.join(", "),
            })
        })
    }
}

pub(crate) mod links {
    use super::{Col, Get, count};
    use crawlgate_core::Evidence;
    use crawlgate_report::{PageRecord, Report};

    pub(crate) const DESCRIPTION: &str = "The links the report has, which are not all the site's \
        links: an audit keeps no list of links per page (each link becomes a count on its target, \
        `pages.parquet`'s `inbound_links`, and a few samples for evidence), so these are the \
        links and asset references that findings quote as evidence, in findings order, then the \
        links only the rendered page had (`--render`), by page. One row per quote: a link quoted \
        by two findings is two rows (`SELECT DISTINCT from_url, to_url` for the links).";

    pub(crate) struct Row<'a> {
        finding_id: Option<u32>,
        kind: &'a str,
        from: &'a str,
        to: &'a str,
        line: Option<u32>,
        rel: String,
    }

    pub(crate) fn columns<'a>() -> Vec<Col<Row<'a>>> {
        vec![
            Col {
                name: "finding_id",
                doc: "The finding quoting it (`findings.parquet`'s `finding_id`); null for a \
                      rendered link.",
                get: Get::OptU32(|r| r.finding_id),
            },
            Col {
                name: "kind",
                doc: "`link` (an `<a href>`), the asset's kind for an asset reference \
                      (`stylesheet`, `script`, `image`, `icon`), or `rendered-link` (a link only \
                      in the rendered DOM).",
                get: Get::Str(|r| r.kind),
            },
            Col {
                name: "from_url",
                doc: "The linking page.",
                get: Get::Str(|r| r.from),
            },
            Col {
                name: "to_url",
                doc: "The link's target (`pages.parquet`'s `url`).",
                get: Get::Str(|r| r.to),
            },
            Col {
                name: "line",
                doc: "The line of the linking page it is on, when known.",
                get: Get::OptU32(|r| r.line),
            },
            Col {
                name: "rel",
                doc: "The link's rel tokens (`nofollow`, `ugc`, `sponsored`), joined by `, `; \
                      empty when none.",
                get: Get::Str(|r| &r.rel),
            },
        ]
    }

    /// The links the findings quote, in finding order.
    pub(crate) fn quoted_rows(report: &Report) -> impl Iterator<Item = Row<'_>> {
        report
            .findings
            .iter()
            .enumerate()
            .flat_map(|(id, finding)| {
                let finding_id = Some(count(id));
                finding
                    .finding
                    .evidence
                    .iter()
                    .filter_map(move |evidence| match evidence {
                        Evidence::Link {
                            from,
                            to,
                            line,
                            rel,
                        } => Some(Row {
                            finding_id,
                            kind: "link",
                            from,
                            to,
                            line: *line,
                            rel: rel.join(", "),
                        }),
                        Evidence::AssetRef {
                            page,
                            asset,
                            asset_kind,
                            line,
                        } => Some(Row {
                            finding_id,
                            kind: asset_kind,
                            from: page,
                            to: asset,
                            line: *line,
                            rel: String::new(),
                        }),
                        _ => None,
                    })
            })
    }

    /// The links rendering added to `pages`, a chunk of the report's (after the quoted ones).
    pub(crate) fn rendered_rows(pages: &[PageRecord]) -> impl Iterator<Item = Row<'_>> {
        pages.iter().flat_map(|page| {
            page.rendered
                .iter()
                .flat_map(|rendered| &rendered.links_added)
                .map(|to| Row {
                    finding_id: None,
                    kind: "rendered-link",
                    from: &page.url,
                    to,
                    line: None,
                    rel: String::new(),
                })
        })
    }
}

pub(crate) mod findings {
    use super::{Col, Get, count};
    use crate::write::Error;
    use crawlgate_report::{BaselineState, Report, ReportFinding};

    pub(crate) const DESCRIPTION: &str = "One row per finding, in report order (most severe \
        first, then rule, URL, profile). Join to `pages.parquet` on `url` (a finding about \
        robots.txt or a sitemap has its URL, which is no page's).";

    pub(crate) struct Row<'a> {
        id: u32,
        finding: &'a ReportFinding,
        evidence: String,
    }

    pub(crate) fn columns<'a>() -> Vec<Col<Row<'a>>> {
        vec![
            Col {
                name: "finding_id",
                doc: "Its position in the report's findings, from 0 (`links.parquet` refers to \
                      it).",
                get: Get::U32(|r| r.id),
            },
            Col {
                name: "rule",
                doc: "The rule id, `family/kebab-name` (`crawlgate explain RULE` documents it).",
                get: Get::Str(|r| &r.finding.finding.rule),
            },
            Col {
                name: "family",
                doc: "The rule's family: its id before the `/` (`robots`, `sitemap`, …).",
                get: Get::Str(|r| r.finding.finding.family()),
            },
            Col {
                name: "severity",
                doc: "`critical`, `error`, `warning` or `notice`.",
                get: Get::Str(|r| r.finding.finding.severity.as_str()),
            },
            Col {
                name: "url",
                doc: "What it is about: a page, an asset, a robots.txt or a sitemap URL.",
                get: Get::Str(|r| &r.finding.finding.url),
            },
            Col {
                name: "profile",
                doc: "The crawler profile it holds for; null when it holds for every profile.",
                get: Get::OptStr(|r| r.finding.finding.profile.as_deref()),
            },
            Col {
                name: "message",
                doc: "What is wrong, in a sentence or two.",
                get: Get::Str(|r| &r.finding.finding.message),
            },
            Col {
                name: "fingerprint",
                doc: "Stable across audits: rule, URL, profile and a digest of the evidence.",
                get: Get::Str(|r| &r.finding.fingerprint),
            },
            Col {
                name: "baseline",
                doc: "`new` or `known` when the audit was compared with a baseline \
                      (`--baseline`).",
                get: Get::OptStr(|r| {
                    r.finding.baseline.map(|state| match state {
                        BaselineState::New => "new",
                        BaselineState::Known => "known",
                    })
                }),
            },
            Col {
                name: "evidence_count",
                doc: "The pieces of evidence kept.",
                get: Get::U32(|r| count(r.finding.finding.evidence.len())),
            },
            Col {
                name: "evidence_omitted",
                doc: "Pieces of evidence left out past the 100 kept.",
                get: Get::U64(|r| r.finding.evidence_omitted),
            },
            Col {
                name: "evidence",
                doc: "The evidence as a JSON array, as in `report.json` (DuckDB: \
                      `evidence::JSON`).",
                get: Get::Str(|r| &r.evidence),
            },
        ]
    }

    pub(crate) fn rows(report: &Report) -> impl Iterator<Item = Result<Row<'_>, Error>> {
        report.findings.iter().enumerate().map(|(id, finding)| {
            Ok(Row {
                id: count(id),
                finding,
                evidence: serde_json::to_string(&finding.finding.evidence)?,
            })
        })
    }
}

pub(crate) mod sitemaps {
    use super::{Col, Get, count};
    use crawlgate_report::{Report, SitemapReport};

    pub(crate) const DESCRIPTION: &str = "One row per sitemap the audit met (`report.json`'s \
        `sitemaps`), by URL.";

    pub(crate) struct Row<'a> {
        sitemap: &'a SitemapReport,
        sources: String,
    }

    pub(crate) fn columns<'a>() -> Vec<Col<Row<'a>>> {
        vec![
            Col {
                name: "url",
                doc: "The sitemap's URL.",
                get: Get::Str(|r| &r.sitemap.url),
            },
            Col {
                name: "sources",
                doc: "Where it was named, in words, joined by `; ` (`robots.txt line 3`, \
                      `index … line 12`, `--sitemap`, `probe`); at most 16 kept.",
                get: Get::Str(|r| &r.sources),
            },
            Col {
                name: "source_count",
                doc: "How many sources `sources` names.",
                get: Get::U32(|r| count(r.sitemap.sources.len())),
            },
            Col {
                name: "depth",
                doc: "0 for a sitemap named by robots.txt or the command line, 1 for one an index \
                      lists, and so on.",
                get: Get::U32(|r| r.sitemap.depth),
            },
            Col {
                name: "state",
                doc: "`parsed`, `http-error`, `failed`, `cycle` or `not-fetched`.",
                get: Get::Str(|r| &r.sitemap.state),
            },
            Col {
                name: "status",
                doc: "The final HTTP status; null when no response came.",
                get: Get::OptU16(|r| r.sitemap.status),
            },
            Col {
                name: "final_url",
                doc: "Where redirects led.",
                get: Get::OptStr(|r| r.sitemap.final_url.as_deref()),
            },
            Col {
                name: "kind",
                doc: "`urlset`, `index`, `text`, `rss`, `atom` or `unknown`; null when not parsed.",
                get: Get::OptStr(|r| r.sitemap.kind.as_deref()),
            },
            Col {
                name: "entries",
                doc: "Entries read (URLs, or sitemaps for an index), kept or not.",
                get: Get::U64(|r| r.sitemap.entries),
            },
            Col {
                name: "gzip",
                doc: "Whether it was gzipped.",
                get: Get::Bool(|r| r.sitemap.gzip),
            },
            Col {
                name: "bytes_uncompressed",
                doc: "Its size, decompressed.",
                get: Get::U64(|r| r.sitemap.bytes_uncompressed),
            },
            Col {
                name: "issues",
                doc: "Document issues found (each also a finding).",
                get: Get::U64(|r| r.sitemap.issues),
            },
            Col {
                name: "detail",
                doc: "Why it failed or was skipped, in words.",
                get: Get::OptStr(|r| r.sitemap.detail.as_deref()),
            },
        ]
    }

    pub(crate) fn rows(report: &Report) -> impl Iterator<Item = Row<'_>> {
        report.sitemaps.iter().map(|sitemap| Row {
            sitemap,
            sources: sitemap.sources.join("; "),
        })
    }
}

pub(crate) mod sitemap_entries {
    use super::{Col, Get};
    use crawlgate_report::PageRecord;

    pub(crate) const DESCRIPTION: &str = "One row per sitemap listing of a known URL, as the \
        report keeps them (`pages[].in_sitemaps`), by URL, then sitemap. Entries past the \
        audit's bounds on sitemap entries are counted in `sitemaps.parquet`'s `entries`, not \
        listed here; the report keeps no `lastmod` or line per entry.";

    pub(crate) struct Row<'a> {
        sitemap: &'a str,
        url: &'a str,
    }

    pub(crate) fn columns<'a>() -> Vec<Col<Row<'a>>> {
        vec![
            Col {
                name: "sitemap_url",
                doc: "The sitemap (`sitemaps.parquet`'s `url`).",
                get: Get::Str(|r| r.sitemap),
            },
            Col {
                name: "url",
                doc: "The URL it lists (`pages.parquet`'s `url`).",
                get: Get::Str(|r| r.url),
            },
        ]
    }

    /// The rows of `pages`, a chunk of the report's.
    pub(crate) fn rows(pages: &[PageRecord]) -> impl Iterator<Item = Row<'_>> {
        pages.iter().flat_map(|page| {
            page.in_sitemaps.iter().map(move |sitemap| Row {
                sitemap,
                url: &page.url,
            })
        })
    }
}
