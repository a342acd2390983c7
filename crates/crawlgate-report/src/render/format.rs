//! The closed set of formats the CLI offers by name (plugins add more, by their own names).

use std::fmt;
use std::str::FromStr;

/// A built-in report format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Format {
    /// One self-contained HTML file (the `reports/html` plugin).
    Html,
    /// GitHub-flavoured Markdown (the `reports/markdown` plugin).
    Md,
    /// The Report itself, as JSON.
    Json,
    /// SARIF 2.1.0.
    Sarif,
    /// JUnit XML.
    Junit,
    /// Parquet tables (several files): written by the `crawlgate-parquet` crate, not by a
    /// [`Renderer`](super::Renderer), so that this crate does not depend on Arrow; no renderer
    /// of [`Renderers`](super::Renderers) takes the name.
    Parquet,
}

impl Format {
    /// Every built-in format, in the order the help text lists them.
    pub const ALL: [Format; 6] = [
        Format::Html,
        Format::Md,
        Format::Json,
        Format::Sarif,
        Format::Junit,
        Format::Parquet,
    ];

    /// The name `--format` takes, which is also the renderer's name in [`super::Renderers`].
    pub fn as_str(self) -> &'static str {
        match self {
            Format::Html => "html",
            Format::Md => "md",
            Format::Json => "json",
            Format::Sarif => "sarif",
            Format::Junit => "junit",
            Format::Parquet => "parquet",
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Format {
    type Err = String;

    /// Reads a format name, case-insensitively; `markdown` is accepted for `md`.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().as_str() {
            "html" => Ok(Format::Html),
            "md" | "markdown" => Ok(Format::Md),
            "json" => Ok(Format::Json),
            "sarif" => Ok(Format::Sarif),
            "junit" => Ok(Format::Junit),
            "parquet" => Ok(Format::Parquet),
            other => Err(format!(
                "unknown format `{other}` (expected html, md, json, sarif, junit or parquet)"
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for format in Format::ALL {
            assert_eq!(format.to_string().parse::<Format>(), Ok(format));
        }
        assert_eq!("Markdown".parse::<Format>(), Ok(Format::Md));
        assert!("pdf".parse::<Format>().is_err());
    }
}
