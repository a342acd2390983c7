//! Stable finding fingerprints for baselines and diffs.

use crate::url_map::UrlMap;
use crawlgate_core::Finding;

/// A fingerprint that stays the same across runs while the problem stays the same: rule id, URL,
/// profile and the evidence with its positions (line, column) left out, so an edit elsewhere in a
/// robots.txt or sitemap that shifts lines does not make an old finding look new.
pub fn fingerprint(finding: &Finding) -> String {
    fingerprint_mapped(finding, &UrlMap::new())
}

/// The fingerprint `finding` would have on the other side of `map`: its URL and every URL in its
/// evidence mapped first (a baseline taken on the staging host, compared with production). With
/// an empty map, [`fingerprint`].
pub fn fingerprint_mapped(finding: &Finding, map: &UrlMap) -> String {
    let mut hash = Fnv64::new();
    hash.write(finding.rule.as_bytes());
    hash.write(map.apply(&finding.url).as_bytes());
    hash.write(finding.profile.as_deref().unwrap_or("").as_bytes());
    for evidence in &finding.evidence {
        let mut value = serde_json::to_value(evidence).unwrap_or_default();
        if let Some(object) = value.as_object_mut() {
            object.remove("line");
            object.remove("column");
        }
        if !map.is_empty() {
            map_strings(&mut value, map);
        }
        hash.write(value.to_string().as_bytes());
    }
    format!("{:016x}", hash.finish())
}

/// Applies `map` to every string in `value`.
fn map_strings(value: &mut serde_json::Value, map: &UrlMap) {
    match value {
        serde_json::Value::String(text) => *text = map.apply(text),
        serde_json::Value::Array(items) => items.iter_mut().for_each(|v| map_strings(v, map)),
        serde_json::Value::Object(fields) => fields.values_mut().for_each(|v| map_strings(v, map)),
        _ => {}
    }
}

/// FNV-1a, 64-bit: tiny, and its output never changes between Rust releases (std's hashers make no
/// such promise).
pub(crate) struct Fnv64(u64);

impl Fnv64 {
    pub(crate) fn new() -> Self {
        Self(0xcbf2_9ce4_8422_2325)
    }

    pub(crate) fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes.iter().chain(std::iter::once(&0xff)) {
            self.0 ^= u64::from(byte);
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }

    pub(crate) fn finish(&self) -> u64 {
        self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crawlgate_core::{Evidence, Severity};

    fn finding(line: u32) -> Finding {
        Finding {
            rule: "robots/blocked-noindex".into(),
            severity: Severity::Error,
            url: "https://e.com/a".into(),
            profile: Some("googlebot".into()),
            message: "m".into(),
            evidence: vec![Evidence::RobotsRule {
                robots_url: "https://e.com/robots.txt".into(),
                line,
                group: vec!["*".into()],
                directive: "Disallow".into(),
                pattern: "/a".into(),
            }],
        }
    }

    #[test]
    fn stable_and_blind_to_line_shifts() {
        assert_eq!(fingerprint(&finding(3)), fingerprint(&finding(9)));
        assert_eq!(fingerprint(&finding(3)), "e669d3db71221559");
        let mut other = finding(3);
        other.url = "https://e.com/b".into();
        assert_ne!(fingerprint(&finding(3)), fingerprint(&other));
    }

    #[test]
    fn a_mapped_fingerprint_equals_the_fingerprint_on_the_new_host() {
        let on_staging = finding(3);
        let mut on_production = finding(5);
        on_production.url = "https://www.e.com/a".into();
        on_production.evidence = vec![Evidence::RobotsRule {
            robots_url: "https://www.e.com/robots.txt".into(),
            line: 5,
            group: vec!["*".into()],
            directive: "Disallow".into(),
            pattern: "/a".into(),
        }];
        let map = UrlMap::new().with_host("e.com=www.e.com").unwrap();
        assert_ne!(fingerprint(&on_staging), fingerprint(&on_production));
        assert_eq!(
            fingerprint_mapped(&on_staging, &map),
            fingerprint(&on_production)
        );
    }
}
