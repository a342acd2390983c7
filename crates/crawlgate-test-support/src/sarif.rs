//! Reading SARIF logs in tests.

use serde_json::Value;

/// Every artifact URI of a SARIF log's results (locations and related locations), with its
/// start line, in order.
pub fn locations(log: &Value) -> Vec<(String, Option<u64>)> {
    log["runs"][0]["results"]
        .as_array()
        .expect("results")
        .iter()
        .flat_map(|result| {
            result["locations"]
                .as_array()
                .expect("locations")
                .iter()
                .chain(result["relatedLocations"].as_array().into_iter().flatten())
        })
        .map(|location| {
            let physical = &location["physicalLocation"];
            (
                physical["artifactLocation"]["uri"]
                    .as_str()
                    .expect("an artifact URI")
                    .to_owned(),
                physical["region"]["startLine"].as_u64(),
            )
        })
        .collect()
}
