//! HTTP facts shared by the crawler (which records them) and the engine (which reads them).

use serde::{Deserialize, Serialize};

/// One response header line, exactly as received (repeated headers stay separate lines).
///
/// The name keeps its received case; compare with [`HeaderLine::is`]. A value that was not valid
/// UTF-8 is kept lossily decoded: evidence quotes what was received as closely as text allows.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct HeaderLine {
    pub name: String,
    pub value: String,
}

impl HeaderLine {
    pub fn new(name: impl Into<String>, value: impl Into<String>) -> Self {
        Self {
            name: name.into(),
            value: value.into(),
        }
    }

    /// Whether this line's name equals `name`, ASCII case-insensitively.
    pub fn is(&self, name: &str) -> bool {
        self.name.eq_ignore_ascii_case(name)
    }
}
