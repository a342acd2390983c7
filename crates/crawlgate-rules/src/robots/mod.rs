//! robots.txt rules: the file as fetched, its lines, and its verdicts crossed with pages.
//!
//! The file rules look at the robots.txt of the audited site's origins (`files::audited_files`);
//! the line rules wrap `robots lint`, run once per file ([`crawlgate_core::Site::robots_lint`]).

use crawlgate_core::RuleMeta;
use crawlgate_core::site::robots_file::ROBOTS_MAX_REDIRECTS;
use crawlgate_core::site::{FailureKind, RobotsEffect, RobotsFile};

mod assets;
pub(crate) mod files;
mod known_paths;
mod redirects;

mod auth_or_forbidden;
mod blocked_canonicalised;
mod blocked_css;
mod blocked_image;
mod blocked_js;
mod blocked_linked;
mod blocked_noindex;
mod blocked_unverifiable;
mod bom;
mod disallow_all;
mod dollar_not_last;
mod duplicate_groups;
mod empty_rule;
mod empty_user_agent;
mod expected_blocked_allowed;
mod group_shadows_global;
mod line_too_long;
mod line_unparseable;
mod missing;
mod no_sitemap_field;
mod noindex_field;
mod not_utf8;
mod oversize;
mod pattern_not_rooted;
mod redirect_cross_origin;
mod redirect_to_blocked;
mod redirect_too_long;
mod rule_matches_nothing;
mod rule_outside_group;
mod sensitive_path_disclosed;
mod served_as_html;
mod sitemap_url_invalid;
mod typo_field;
mod ua_divergence;
mod unreachable;
mod unsupported_field;

pub use auth_or_forbidden::AuthOrForbidden;
pub use blocked_canonicalised::BlockedCanonicalised;
pub use blocked_css::BlockedCss;
pub use blocked_image::BlockedImage;
pub use blocked_js::BlockedJs;
pub use blocked_linked::BlockedLinked;
pub use blocked_noindex::BlockedNoindex;
pub use blocked_unverifiable::BlockedUnverifiable;
pub use bom::Bom;
pub use disallow_all::DisallowAll;
pub use dollar_not_last::DollarNotLast;
pub use duplicate_groups::DuplicateGroups;
pub use empty_rule::EmptyRule;
pub use empty_user_agent::EmptyUserAgent;
pub use expected_blocked_allowed::ExpectedBlockedAllowed;
pub use group_shadows_global::GroupShadowsGlobal;
pub use line_too_long::LineTooLong;
pub use line_unparseable::LineUnparseable;
pub use missing::Missing;
pub use no_sitemap_field::NoSitemapField;
pub use noindex_field::NoindexField;
pub use not_utf8::NotUtf8;
pub use oversize::Oversize;
pub use pattern_not_rooted::PatternNotRooted;
pub use redirect_cross_origin::RedirectCrossOrigin;
pub use redirect_to_blocked::RedirectToBlocked;
pub use redirect_too_long::RedirectTooLong;
pub use rule_matches_nothing::RuleMatchesNothing;
pub use rule_outside_group::RuleOutsideGroup;
pub use sensitive_path_disclosed::SensitivePathDisclosed;
pub use served_as_html::ServedAsHtml;
pub use sitemap_url_invalid::SitemapUrlInvalid;
pub use typo_field::TypoField;
pub use ua_divergence::UaDivergence;
pub use unreachable::Unreachable;
pub use unsupported_field::UnsupportedField;

/// The rule that names a robots.txt fetch which gave no rules to read: past Google's redirect
/// limit `robots/redirect-too-long`; every URL disallowed (5xx, 429, no response)
/// `robots/unreachable`; 401 or 403 `robots/auth-or-forbidden`; any other answer
/// `robots/missing`. The one decision behind `robots lint URL` and those rules' audit checks.
pub fn fetch_outcome_rule(file: &RobotsFile) -> &'static RuleMeta {
    let redirects_exhausted = file.hops.len() > ROBOTS_MAX_REDIRECTS
        || matches!(
            file.outcome,
            Err((FailureKind::TooManyRedirects | FailureKind::RedirectLoop, _))
        );
    if redirects_exhausted {
        return &RedirectTooLong::META;
    }
    match (file.effect, file.status()) {
        (RobotsEffect::DisallowAll, _) => &Unreachable::META,
        (_, Some(401 | 403)) => &AuthOrForbidden::META,
        _ => &Missing::META,
    }
}

#[cfg(test)]
mod tests {
    use crawlgate_core::robots::lint::rule_ids;

    #[test]
    fn every_robots_lint_issue_has_a_registered_rule() {
        for id in rule_ids::ALL {
            assert!(
                crate::find(id).is_some(),
                "no rule reports the lint issue {id}"
            );
        }
    }
}
