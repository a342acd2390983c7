//! A minimal valid report for unit tests (`fixtures/reports/minimal.json`).

use crate::Report;

/// The smallest report the model accepts: one page crawled, no findings.
pub(crate) fn minimal() -> Report {
    serde_json::from_str(include_str!("../../../fixtures/reports/minimal.json"))
        .expect("the minimal report matches the model")
}
