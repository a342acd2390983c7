//! `report.json`: exactly the [`Report`] (DESIGN.md §8), pretty-printed, with a final newline.

use super::{RenderError, RenderOptions, Renderer};
use crate::model::Report;
use std::io::Write as _;

/// The JSON renderer.
#[derive(Debug, Clone, Copy, Default)]
pub struct JsonRenderer;

impl Renderer for JsonRenderer {
    fn name(&self) -> &'static str {
        "json"
    }

    fn extension(&self) -> &'static str {
        "json"
    }

    fn media_type(&self) -> &'static str {
        "application/json"
    }

    fn render(
        &self,
        report: &Report,
        _options: &RenderOptions,
        out: &mut dyn std::io::Write,
    ) -> Result<(), RenderError> {
        // The pretty printer writes a few bytes at a time (each indent level on its own); a
        // buffer it knows the type of takes them inline, where `out` would cost a dynamic call
        // each.
        let mut buffered = std::io::BufWriter::with_capacity(64 * 1024, out);
        serde_json::to_writer_pretty(&mut buffered, report)?;
        buffered.write_all(b"\n")?;
        buffered.flush()?;
        Ok(())
    }
}
