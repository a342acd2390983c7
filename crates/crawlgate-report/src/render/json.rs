//! `report.json`: exactly the [`Report`] (DESIGN.md §8), pretty-printed, with a final newline.

use super::{RenderError, RenderOptions, Renderer};
use crate::model::Report;

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
        serde_json::to_writer_pretty(&mut *out, report)?;
        out.write_all(b"\n")?;
        Ok(())
    }
}
