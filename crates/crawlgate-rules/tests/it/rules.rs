//! Every rule fires on its `fires.toml` mini-site (findings snapshot-tested) and stays quiet on its
//! `clean.toml`, each in a test of its own named after the rule (`robots/blocked-noindex` is
//! `robots::blocked_noindex`, so `cargo test -p crawlgate-rules blocked_noindex` runs it alone);
//! plus the meta-tests of the rule catalogue.

use crawlgate_core::Rule;
use crawlgate_rules::{RULES, rules_markdown};
use crawlgate_test_support::fixture;
use std::collections::BTreeSet;

/// A module per family holding one `#[test]` per rule, `name => Type`, the test named after the
/// rule id; and [`TESTED`], the list the meta-test compares with [`RULES`].
macro_rules! rule_tests {
    ($($family:ident { $($test:ident => $rule:ident,)* })*) => {
        $(
            mod $family {
                $(
                    #[test]
                    fn $test() {
                        super::fires_on_its_fixture_and_stays_quiet_on_its_clean_site(
                            &crawlgate_rules::$family::$rule,
                        );
                    }
                )*
            }
        )*

        /// Each rule with a test of its own, by the test's name (`family::name`).
        static TESTED: &[(&str, &dyn Rule)] = &[$($(
            (
                concat!(stringify!($family), "::", stringify!($test)),
                &crawlgate_rules::$family::$rule,
            ),
        )*)*];
    };
}

rule_tests! {
    robots {
        unreachable => Unreachable,
        auth_or_forbidden => AuthOrForbidden,
        missing => Missing,
        redirect_too_long => RedirectTooLong,
        redirect_cross_origin => RedirectCrossOrigin,
        served_as_html => ServedAsHtml,
        oversize => Oversize,
        not_utf8 => NotUtf8,
        bom => Bom,
        line_unparseable => LineUnparseable,
        line_too_long => LineTooLong,
        unsupported_field => UnsupportedField,
        noindex_field => NoindexField,
        typo_field => TypoField,
        rule_outside_group => RuleOutsideGroup,
        empty_user_agent => EmptyUserAgent,
        pattern_not_rooted => PatternNotRooted,
        dollar_not_last => DollarNotLast,
        empty_rule => EmptyRule,
        sitemap_url_invalid => SitemapUrlInvalid,
        no_sitemap_field => NoSitemapField,
        disallow_all => DisallowAll,
        group_shadows_global => GroupShadowsGlobal,
        duplicate_groups => DuplicateGroups,
        ua_divergence => UaDivergence,
        rule_matches_nothing => RuleMatchesNothing,
        sensitive_path_disclosed => SensitivePathDisclosed,
        blocked_css => BlockedCss,
        blocked_js => BlockedJs,
        blocked_image => BlockedImage,
        blocked_noindex => BlockedNoindex,
        blocked_linked => BlockedLinked,
        blocked_canonicalised => BlockedCanonicalised,
        redirect_to_blocked => RedirectToBlocked,
        blocked_unverifiable => BlockedUnverifiable,
        expected_blocked_allowed => ExpectedBlockedAllowed,
    }
    http {
        start_url_error => StartUrlError,
        internal_link_4xx => InternalLink4xx,
        internal_link_5xx => InternalLink5xx,
        redirect_loop => RedirectLoop,
        redirect_chain => RedirectChain,
        internal_link_redirect => InternalLinkRedirect,
        not_html => NotHtml,
        page_read_in_part => PageReadInPart,
    }
    directives {
        noindex => Noindex,
        meta_header_conflict => MetaHeaderConflict,
        redundant_sources => RedundantSources,
        bot_override_ineffective => BotOverrideIneffective,
        unknown_token => UnknownToken,
        obsolete_token => ObsoleteToken,
        invalid_value => InvalidValue,
        unavailable_after_past => UnavailableAfterPast,
        unavailable_after_scheduled => UnavailableAfterScheduled,
        nosnippet => Nosnippet,
        noimageindex => Noimageindex,
        indexifembedded_alone => IndexifembeddedAlone,
        nofollow_page => NofollowPage,
        meta_in_body => MetaInBody,
        noindex_on_resource => NoindexOnResource,
        robots_tag_header => RobotsTagHeader,
    }
    canonical {
        multiple_conflicting => MultipleConflicting,
        multiple_identical => MultipleIdentical,
        header_html_mismatch => HeaderHtmlMismatch,
        relative => Relative,
        invalid => Invalid,
        fragment => Fragment,
        outside_head => OutsideHead,
        after_invalid_head_element => AfterInvalidHeadElement,
        ignored_attributes => IgnoredAttributes,
        target_error => TargetError,
        target_redirects => TargetRedirects,
        target_noindex => TargetNoindex,
        target_blocked => TargetBlocked,
        chain => Chain,
        r#loop => Loop,
        to_homepage => ToHomepage,
        cross_language => CrossLanguage,
        cross_domain => CrossDomain,
        https_to_http => HttpsToHttp,
        missing => Missing,
        internal_links_to_canonicalised => InternalLinksToCanonicalised,
    }
    sitemap {
        none_found => NoneFound,
        fetch_error => FetchError,
        blocked_by_robots => BlockedByRobots,
        not_xml => NotXml,
        bad_root_or_namespace => BadRootOrNamespace,
        gzip_invalid => GzipInvalid,
        too_many_urls => TooManyUrls,
        too_large => TooLarge,
        empty => Empty,
        nested_index => NestedIndex,
        cycle => Cycle,
        limits_exceeded => LimitsExceeded,
        unsafe_xml => UnsafeXml,
        loc_invalid => LocInvalid,
        cross_host_url => CrossHostUrl,
        out_of_path_scope => OutOfPathScope,
        index_child_out_of_scope => IndexChildOutOfScope,
        lastmod_invalid => LastmodInvalid,
        lastmod_future => LastmodFuture,
        lastmod_uniform => LastmodUniform,
        lastmod_fake_fresh => LastmodFakeFresh,
        changefreq_priority => ChangefreqPriority,
        duplicate_url => DuplicateUrl,
        url_in_multiple_sitemaps => UrlInMultipleSitemaps,
        unadvertised => Unadvertised,
        url_blocked => UrlBlocked,
        url_noindex => UrlNoindex,
        url_canonicalised => UrlCanonicalised,
        url_redirects => UrlRedirects,
        url_error => UrlError,
        url_http_on_https => UrlHttpOnHttps,
        orphan_url => OrphanUrl,
        missing_indexable_url => MissingIndexableUrl,
        hreflang_invalid => HreflangInvalid,
        image_blocked => ImageBlocked,
        image_limit => ImageLimit,
        image_invalid => ImageInvalid,
        video_invalid => VideoInvalid,
        news_invalid => NewsInvalid,
        news_stale => NewsStale,
    }
    hreflang {
        invalid_code => InvalidCode,
        relative_url => RelativeUrl,
        duplicate_code => DuplicateCode,
        missing_self_reference => MissingSelfReference,
        missing_return_link => MissingReturnLink,
        missing_x_default => MissingXDefault,
        target_error => TargetError,
        target_not_indexable => TargetNotIndexable,
        source_conflict => SourceConflict,
    }
    env {
        staging_artifact_on_production => StagingArtifactOnProduction,
        staging_exposed => StagingExposed,
    }
    render {
        noindex_removed => NoindexRemoved,
        noindex_added => NoindexAdded,
        canonical_changed => CanonicalChanged,
        links_only_rendered => LinksOnlyRendered,
        blocked_resource => BlockedResource,
        failed => Failed,
    }
}

/// The test of one rule: findings on `fires.toml` (each with evidence, snapshot-tested as
/// `it__rules__<family>__<name>.snap`), none on `clean.toml`.
fn fires_on_its_fixture_and_stays_quiet_on_its_clean_site(rule: &dyn Rule) {
    let id = rule.meta().id;
    let dir = fixture::rule_dir(id);
    let mut failures = Vec::new();
    for name in ["fires.toml", "clean.toml"] {
        if let Err(failure) = same_findings_from_the_page_store(rule, &dir.join(name)) {
            failures.push(format!("{id}: {name}: {failure}"));
        }
    }
    match fixture::load_site(&dir.join("fires.toml")) {
        Err(e) => failures.push(format!("{id}: fires.toml: {e}")),
        Ok(site) => {
            let findings = fixture::run(rule, &site);
            if findings.is_empty() {
                failures.push(format!("{id}: no finding on fires.toml"));
            }
            if let Some(empty) = findings.iter().find(|f| f.evidence.is_empty()) {
                failures.push(format!("{id}: a finding without evidence: {empty:?}"));
            }
            insta::assert_json_snapshot!(id.replace('/', "__"), findings);
        }
    }
    match fixture::load_site(&dir.join("clean.toml")) {
        Err(e) => failures.push(format!("{id}: clean.toml: {e}")),
        Ok(site) => {
            let findings = fixture::run(rule, &site);
            if !findings.is_empty() {
                failures.push(format!("{id}: findings on clean.toml: {findings:#?}"));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The rule finds the same on the fixture with every page held in memory as with every page
/// read back from the page store (`--pages-in-memory 0`).
fn same_findings_from_the_page_store(
    rule: &dyn Rule,
    path: &std::path::Path,
) -> Result<(), String> {
    let fixture = fixture::load_fixture(path)?;
    let held = fixture::run(rule, &fixture.crawl()?);
    let site = fixture.crawl_stored()?;
    let stored = fixture::run(rule, &site);
    if let Some(error) = site.page_store_error() {
        return Err(format!("a page was not read back: {error}"));
    }
    if site.stats.pages_fetched > 0 && site.stats.pages_stored == 0 {
        return Err("no page went to the page store".to_owned());
    }
    if site.stats.pages_fetched > 0
        && !site
            .resources()
            .iter()
            .any(crawlgate_core::site::Resource::has_stored_lists)
    {
        return Err("no URL's lists went to the page store".to_owned());
    }
    if held != stored {
        return Err(format!(
            "other findings with the pages in the page store:\n{held:#?}\nagainst\n{stored:#?}"
        ));
    }
    Ok(())
}

#[test]
fn every_rule_has_a_test_of_its_own_named_after_it() {
    let registered: BTreeSet<&str> = RULES.iter().map(|rule| rule.meta().id).collect();
    let mut tested = BTreeSet::new();
    for (test, rule) in TESTED {
        let id = rule.meta().id;
        assert!(tested.insert(id), "{id} has two tests");
        assert!(
            registered.contains(id),
            "the test {test} is of {id}, which is not in RULES"
        );
        let expected = id.replace('/', "::").replace('-', "_");
        assert_eq!(
            test.replace("r#", ""),
            expected,
            "the test of {id} is not named after it"
        );
    }
    let untested: Vec<&&str> = registered.difference(&tested).collect();
    assert!(
        untested.is_empty(),
        "rules in RULES without a test of their own (add them to `rule_tests!`): {untested:?}"
    );
}
#[test]
fn rule_ids_are_unique_and_family_slash_kebab_case() {
    let mut seen = BTreeSet::new();
    for rule in RULES {
        let id = rule.meta().id;
        assert!(seen.insert(id), "duplicate rule id {id}");
        let (family, name) = id.split_once('/').expect("id has a family");
        for part in [family, name] {
            assert!(
                !part.is_empty()
                    && part.split('-').all(|w| !w.is_empty()
                        && w.bytes()
                            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())),
                "rule id {id} is not family/kebab-case"
            );
        }
    }
}

#[test]
fn every_rule_documents_what_why_example_and_fix() {
    for rule in RULES {
        let meta = rule.meta();
        for section in ["What it does", "Why is this bad?", "Example", "How to fix"] {
            assert!(
                meta.doc_section(section)
                    .is_some_and(|text| !text.is_empty()),
                "{} lacks a `## {section}` section",
                meta.id
            );
        }
        assert!(
            !meta.summary.ends_with('.'),
            "{}: summary ends with a period",
            meta.id
        );
    }
}

#[test]
fn rules_md_is_generated_from_the_rules() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("RULES.md");
    let expected = rules_markdown(RULES);
    let actual = std::fs::read_to_string(&path).unwrap_or_default();
    if actual != expected {
        std::fs::write(&path, &expected).expect("write RULES.md");
        panic!("RULES.md was out of date and has been regenerated; review and commit it");
    }
}
