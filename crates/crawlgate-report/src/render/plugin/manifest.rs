//! `report.toml`: a report plugin's manifest.

use super::escape::Escape;
use serde::Deserialize;

/// What a report plugin is and how to run it.
///
/// ```toml
/// name = "csv-findings"
/// extension = "csv"
/// media_type = "text/csv"
/// description = "One row per finding, for spreadsheets"
/// # optional:
/// template = "report.csv.tera"   # default: report.<extension>.tera
/// escape = "csv"                 # html | markdown | csv | none; default from the extension
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Manifest {
    /// The name `--format` selects it by: lowercase letters, digits, `-` and `_`.
    pub name: String,
    /// The output file is `report.<extension>`: lowercase letters, digits and inner dots.
    pub extension: String,
    /// The output's media type (`text/html`, `text/csv`, …).
    pub media_type: String,
    /// One line for `crawlgate` help and listings.
    pub description: String,
    /// The template rendered, relative to the plugin folder.
    #[serde(default)]
    pub template: Option<String>,
    /// How `{{ … }}` output is escaped.
    #[serde(default)]
    pub escape: Option<Escape>,
    /// The most characters the output may have (a GitHub comment takes 65,536): a longer one is
    /// cut after its last whole line that fits, with a line saying so.
    #[serde(default)]
    pub max_chars: Option<usize>,
}

impl Manifest {
    /// Parse and validate a manifest; the error is a sentence for the user.
    pub fn parse(text: &str) -> Result<Manifest, String> {
        let manifest: Manifest = toml::from_str(text).map_err(|e| e.to_string())?;
        manifest.validate()?;
        Ok(manifest)
    }

    /// The entry template's file name.
    pub fn entry_template(&self) -> String {
        self.template
            .clone()
            .unwrap_or_else(|| format!("report.{}.tera", self.extension))
    }

    /// The escaping in force: the manifest's, or the extension's default.
    pub fn escape(&self) -> Escape {
        self.escape
            .unwrap_or_else(|| Escape::for_extension(&self.extension))
    }

    fn validate(&self) -> Result<(), String> {
        let name_ok = !self.name.is_empty()
            && self.name.len() <= 64
            && self
                .name
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-' || b == b'_');
        if !name_ok {
            return Err(format!(
                "name `{}`: use 1 to 64 lowercase letters, digits, `-` or `_`",
                self.name
            ));
        }
        let extension_ok = !self.extension.is_empty()
            && self.extension.len() <= 32
            && self.extension.split('.').all(|part| {
                !part.is_empty()
                    && part
                        .bytes()
                        .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
            });
        if !extension_ok {
            return Err(format!(
                "extension `{}`: use lowercase letters and digits, with inner dots (`csv`, `findings.csv`)",
                self.extension
            ));
        }
        if self.media_type.trim().is_empty() || self.media_type.chars().any(char::is_control) {
            return Err("media_type: give a media type such as `text/csv`".to_owned());
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_minimal_manifest_defaults_its_template_and_escape() {
        let manifest = Manifest::parse(
            "name = \"csv-findings\"\nextension = \"csv\"\nmedia_type = \"text/csv\"\ndescription = \"rows\"\n",
        )
        .unwrap();
        assert_eq!(manifest.entry_template(), "report.csv.tera");
        assert_eq!(manifest.escape(), Escape::Csv);
    }

    #[test]
    fn bad_manifests_say_what_is_wrong() {
        let error = Manifest::parse(
            "name = \"My Report\"\nextension = \"csv\"\nmedia_type = \"text/csv\"\ndescription = \"\"\n",
        )
        .unwrap_err();
        assert!(error.contains("name `My Report`"), "{error}");
        let error = Manifest::parse(
            "name = \"x\"\nextension = \"../x\"\nmedia_type = \"text/csv\"\ndescription = \"\"\n",
        )
        .unwrap_err();
        assert!(error.contains("extension `../x`"), "{error}");
        let error = Manifest::parse(
            "name = \"x\"\nextension = \"csv\"\nmedia_type = \"text/csv\"\ndescription = \"\"\ntemplates = 1\n",
        )
        .unwrap_err();
        assert!(error.contains("unknown field `templates`"), "{error}");
    }
}
