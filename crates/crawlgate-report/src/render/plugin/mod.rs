//! Report plugins: a `report.toml` manifest plus tera templates (`*.tera`) and raw text assets
//! (CSS, scripts, SVG), rendered over the Report.
//!
//! The template context is `report` (the Report, exactly as `report.json` has it), `view` (the
//! report arranged for reading: ranked problems, findings folded across profiles, the pages with
//! their verdicts; see [`view`]), `options` (`fail_on`: the `--fail-on` severity or none) and
//! `plugin` (`name`, `extension`). Files ending in
//! `.tera` are templates, named by their path in the folder (`partials/summary.html.tera`); every
//! other text file is an asset, inlined with `{{ asset(path="report.css") }}` and never parsed.

pub(crate) mod builtin;
mod escape;
mod filters;
mod load;
mod manifest;
mod view;

pub use escape::Escape;
pub(crate) use load::load_dir;
pub use manifest::Manifest;

use super::{RenderError, RenderOptions, Renderer};
use crate::model::{PageRecord, PageTable, Report};
use crawlgate_core::FailOn;
use serde::Serialize;
use std::borrow::Cow;
use std::collections::BTreeMap;
use std::sync::Arc;

/// A renderer driven by a report plugin's templates.
pub struct TemplateRenderer {
    manifest: Manifest,
    entry: String,
    tera: tera::Tera,
}

impl std::fmt::Debug for TemplateRenderer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TemplateRenderer")
            .field("manifest", &self.manifest)
            .finish_non_exhaustive()
    }
}

/// Known URLs a template gets in `report.pages` (report.json lists them all): the context is a
/// copy of the report in tera's own values, and a site of many URLs would double the audit's
/// memory for a list no built-in template reads (the Pages section uses `view.pages`).
pub(crate) const MAX_TEMPLATE_PAGES: usize = 10_000;

/// What templates see.
#[derive(Serialize)]
struct TemplateContext<'a> {
    report: TemplateReport<'a>,
    view: view::View<'a>,
    options: ContextOptions,
    plugin: PluginInfo<'a>,
}

/// The report as templates see it: every field of [`Report`], with `pages` cut to
/// [`MAX_TEMPLATE_PAGES`] and `pages_total` counting them all.
#[derive(Serialize)]
struct TemplateReport<'a> {
    schema_version: u32,
    tool: &'a crate::Tool,
    #[serde(skip_serializing_if = "Option::is_none")]
    generated_at: Option<&'a str>,
    target: &'a crate::Target,
    summary: &'a crate::Summary,
    rules: &'a [crate::RuleDoc],
    #[serde(skip_serializing_if = "<[String]>::is_empty")]
    rules_checked: &'a [String],
    findings: &'a [crate::ReportFinding],
    crawl: &'a crawlgate_core::site::CrawlStats,
    robots: &'a [crate::RobotsReport],
    sitemaps: &'a [crate::SitemapReport],
    pages: &'a [&'a PageRecord],
    pages_total: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    diff: Option<&'a crate::DiffSection>,
    #[serde(skip_serializing_if = "crate::RobotsSuggestions::is_empty")]
    robots_suggestions: &'a crate::RobotsSuggestions,
}

impl<'a> TemplateReport<'a> {
    /// `first_rows`: the first [`MAX_TEMPLATE_PAGES`] of `report.pages`.
    fn of(report: &'a Report, first_rows: &'a [&'a PageRecord]) -> Self {
        // Destructured whole: a field added to `Report` fails to compile here until templates
        // get it too.
        let Report {
            schema_version,
            tool,
            generated_at,
            target,
            summary,
            rules,
            rules_checked,
            findings,
            crawl,
            robots,
            sitemaps,
            pages,
            diff,
            robots_suggestions,
        } = report;
        TemplateReport {
            schema_version: *schema_version,
            tool,
            generated_at: generated_at.as_deref(),
            target,
            summary,
            rules,
            rules_checked,
            findings,
            crawl,
            robots,
            sitemaps,
            pages: first_rows,
            pages_total: pages.len(),
            diff: diff.as_ref(),
            robots_suggestions,
        }
    }
}

/// The first `n` rows of `pages` that `keep` accepts, each read once: borrowed from a held
/// table, read back into `read` from a stored one.
fn first_kept<'a>(
    pages: &'a PageTable,
    n: usize,
    keep: fn(&PageRecord) -> bool,
    read: &'a mut Vec<PageRecord>,
) -> Vec<&'a PageRecord> {
    if let Some(rows) = pages.as_slice() {
        return rows.iter().filter(|row| keep(row)).take(n).collect();
    }
    *read = pages
        .iter()
        .filter(|row| keep(row))
        .take(n)
        .map(Cow::into_owned)
        .collect();
    read.iter().collect()
}

#[derive(Serialize)]
struct ContextOptions {
    fail_on: FailOn,
}

#[derive(Serialize)]
struct PluginInfo<'a> {
    name: &'a str,
    extension: &'a str,
}

impl TemplateRenderer {
    /// Build a renderer from a manifest and the plugin's files as `(path in the folder, text)`,
    /// paths `/`-separated. Every template is parsed now, so errors show before any rendering.
    pub fn from_files(
        manifest: Manifest,
        files: impl IntoIterator<Item = (String, String)>,
    ) -> Result<TemplateRenderer, RenderError> {
        let entry = manifest.entry_template();
        let mut templates = Vec::new();
        let mut assets = BTreeMap::new();
        for (path, text) in files {
            if is_template(&path) {
                templates.push((path, text));
            } else {
                assets.insert(path, text);
            }
        }
        if !templates.iter().any(|(path, _)| *path == entry) {
            return Err(RenderError::Template {
                plugin: manifest.name.clone(),
                template: entry,
                line: None,
                column: None,
                message: "the template is missing from the plugin folder".to_owned(),
            });
        }
        let mut tera = tera::Tera::new();
        filters::register(&mut tera, Arc::new(assets));
        match manifest.escape().function() {
            Some(escape) => {
                tera.set_escape_fn(escape);
                // Every template name ends with "": the plugin's escaping applies to all.
                tera.autoescape_on([""]);
            }
            None => tera.autoescape_on(Vec::<&str>::new()),
        }
        tera.add_raw_templates(templates)
            .map_err(|e| RenderError::from_tera(&manifest.name, &entry, &e))?;
        Ok(TemplateRenderer {
            manifest,
            entry,
            tera,
        })
    }

    /// The plugin's manifest.
    pub fn manifest(&self) -> &Manifest {
        &self.manifest
    }
}

/// Whether a plugin file is a template (`*.tera`) rather than an asset.
pub(crate) fn is_template(path: &str) -> bool {
    std::path::Path::new(path)
        .extension()
        .is_some_and(|extension| extension.eq_ignore_ascii_case("tera"))
}

impl Renderer for TemplateRenderer {
    fn name(&self) -> &str {
        &self.manifest.name
    }

    fn extension(&self) -> &str {
        &self.manifest.extension
    }

    fn media_type(&self) -> &str {
        &self.manifest.media_type
    }

    fn render(
        &self,
        report: &Report,
        options: &RenderOptions,
        out: &mut dyn std::io::Write,
    ) -> Result<(), RenderError> {
        let (mut rows_read, mut pages_read) = (Vec::new(), Vec::new());
        let first_rows = first_kept(&report.pages, MAX_TEMPLATE_PAGES, |_| true, &mut rows_read);
        let first_pages = first_kept(
            &report.pages,
            view::MAX_PAGES,
            |row| row.kind == "page",
            &mut pages_read,
        );
        let context = TemplateContext {
            report: TemplateReport::of(report, &first_rows),
            view: view::View::of(report, &first_pages),
            options: ContextOptions {
                fail_on: options.fail_on,
            },
            plugin: PluginInfo {
                name: &self.manifest.name,
                extension: &self.manifest.extension,
            },
        };
        let context = tera::Context::from_serialize(&context)
            .map_err(|e| RenderError::from_tera(&self.manifest.name, &self.entry, &e))?;
        let Some(max_chars) = self.manifest.max_chars else {
            return self
                .tera
                .render_to(&self.entry, &context, out)
                .map_err(|e| match e.kind() {
                    tera::ErrorKind::Io(kind) => RenderError::Write((*kind).into()),
                    _ => RenderError::from_tera(&self.manifest.name, &self.entry, &e),
                });
        };
        let text = self
            .tera
            .render(&self.entry, &context)
            .map_err(|e| RenderError::from_tera(&self.manifest.name, &self.entry, &e))?;
        out.write_all(within_chars(&text, max_chars).as_bytes())
            .map_err(RenderError::Write)
    }
}

/// `text`, or when it has more than `max_chars` characters, its whole lines that fit with a
/// last line saying how many were left out.
fn within_chars(text: &str, max_chars: usize) -> std::borrow::Cow<'_, str> {
    if text.chars().count() <= max_chars {
        return std::borrow::Cow::Borrowed(text);
    }
    let lines = text.lines().count();
    let note = |kept: usize| {
        format!(
            "\n\n> Cut here to stay under {max_chars} characters: {} more lines are in the full \
             report (`report.md`, `report.html`, `report.json`).\n",
            lines - kept
        )
    };
    let budget = max_chars.saturating_sub(note(0).chars().count());
    let mut kept = String::new();
    let mut used = 0;
    let mut kept_lines = 0;
    for line in text.lines() {
        let cost = line.chars().count() + 1;
        if used + cost > budget {
            break;
        }
        kept.push_str(line);
        kept.push('\n');
        used += cost;
        kept_lines += 1;
    }
    kept.push_str(&note(kept_lines));
    std::borrow::Cow::Owned(kept)
}

#[cfg(test)]
mod tests {
    use super::within_chars;

    #[test]
    fn a_capped_output_keeps_whole_lines_and_says_what_it_left_out() {
        let text = (0..1000).fold(String::new(), |mut text, i| {
            text.push_str("line ");
            text.push_str(&i.to_string());
            text.push('\n');
            text
        });
        assert_eq!(within_chars(&text, 100_000), text);
        let cut = within_chars(&text, 500);
        assert!(cut.chars().count() <= 500, "{}", cut.chars().count());
        assert!(cut.starts_with("line 0\nline 1\n"));
        assert!(cut.contains("more lines are in the full report"));
        // One line longer than the budget: nothing of it, only the note.
        let long = "x".repeat(10_000);
        let cut = within_chars(&long, 300);
        assert!(cut.chars().count() <= 300 && cut.contains("1 more lines"));
    }
}
