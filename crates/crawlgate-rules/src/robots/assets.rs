//! What `blocked-css`, `blocked-js` and `blocked-image` share: which assets a page uses, and the
//! finding for an asset disallowed while indexable pages need it.

use crate::support::{count, profiles_meant_to_crawl, verdict_evidence};
use crawlgate_core::Evidence;
use crawlgate_core::rule::{Findings, Occurrence};
use crawlgate_core::signals::{AssetKind, Profile};
use crawlgate_core::site::{Reference, ReferenceKind, Resource, ResourceKind, Site, UrlVerdict};

/// Whether crawled pages use `resource` as an asset of `kind`.
pub(crate) fn used_as(site: &Site, resource: &Resource, kind: AssetKind) -> bool {
    resource.kind == ResourceKind::Asset(kind)
        || site
            .references(resource)
            .iter()
            .any(|reference| reference.kind == ReferenceKind::Asset(kind))
}

/// The pages (among the references recorded) that use `asset` as `kind` and are indexable for the
/// profile at `profile_index`.
fn indexable_users(
    site: &Site,
    asset: &Resource,
    kind: AssetKind,
    profile_index: usize,
) -> Vec<Reference> {
    site.references(asset)
        .iter()
        .filter(|reference| reference.kind == ReferenceKind::Asset(kind))
        .filter(|reference| {
            site.resource(&reference.from)
                .is_some_and(|page| site.indexability(page, profile_index).is_indexable())
        })
        .cloned()
        .collect()
}

/// What a blocked asset costs, for the message.
pub(crate) struct BlockedAsset<'a> {
    pub(crate) asset: &'a Resource,
    pub(crate) kind: AssetKind,
    /// The verdict that blocks it, for the crawler named `crawler`.
    pub(crate) verdict: &'a UrlVerdict,
    pub(crate) crawler: &'a str,
    /// The verdict as evidence.
    pub(crate) verdict_evidence: Evidence,
    /// Whose indexable pages count (the profile the finding is reported under).
    pub(crate) profile_index: usize,
    /// What the crawler loses, in words ("Googlebot renders those pages without it").
    pub(crate) consequence: String,
}

/// Report every asset of `kind` (a stylesheet or a script) that crawled indexable pages use and
/// robots.txt disallows, per audited profile (but those expected blocked: they are meant to read
/// neither the pages nor their assets), with what the profile's crawler loses
/// (`consequence(profile)`). Images compile Googlebot-Image's rules instead (`blocked-image`).
pub(crate) fn report_blocked_assets(
    site: &Site,
    kind: AssetKind,
    consequence: fn(&Profile) -> String,
    out: &mut Findings<'_>,
) {
    for (index, profile) in profiles_meant_to_crawl(site) {
        for asset in site.resources() {
            let Some(verdict) = asset.verdict(index).filter(|v| !v.allowed) else {
                continue;
            };
            if !used_as(site, asset, kind) {
                continue;
            }
            let blocked = BlockedAsset {
                asset,
                kind,
                verdict,
                crawler: profile.display_name(),
                verdict_evidence: verdict_evidence(site, index, &asset.url),
                profile_index: index,
                consequence: consequence(profile),
            };
            if let Some(report) = blocked_asset_report(site, &blocked) {
                out.report(report.profile(&profile.name));
            }
        }
    }
}

/// The finding for a disallowed asset that indexable pages use; `None` when no indexable page among
/// the recorded references uses it.
pub(crate) fn blocked_asset_report(site: &Site, blocked: &BlockedAsset<'_>) -> Option<Occurrence> {
    let users = indexable_users(site, blocked.asset, blocked.kind, blocked.profile_index);
    let first = users.first()?;
    let why = match &blocked.verdict.decided_by {
        Some(rule) => format!("by {rule}"),
        None => "because robots.txt could not be fetched".to_owned(),
    };
    let others = match users.len() {
        1 => String::new(),
        n => format!(
            " and {}",
            count(n - 1, "other indexable page", "other indexable pages")
        ),
    };
    let unchecked = match blocked.asset.other_references {
        0 => String::new(),
        n => format!(
            " ({} not checked)",
            count(n as usize, "further reference", "further references")
        ),
    };
    let message = format!(
        "{} disallowed for {} {why}; used by {}{others}{unchecked}: {}",
        blocked.kind.as_str(),
        blocked.crawler,
        first.from,
        blocked.consequence
    );
    Some(
        Occurrence::new(blocked.asset.url.as_str(), message)
            .evidence(blocked.verdict_evidence.clone())
            .evidence_all(users.iter().map(|reference| Evidence::AssetRef {
                page: reference.from.to_string(),
                asset: blocked.asset.url.to_string(),
                asset_kind: blocked.kind.as_str().to_owned(),
                line: reference.line.map(u32::from),
            })),
    )
}
