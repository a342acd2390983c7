//! Property tests: the parser and matcher never panic, the compiled matcher agrees with a
//! straightforward position-set matcher (the algorithm Google's library uses), and a verdict does
//! not depend on the order of rule lines within a group.

use crawlgate_robots::lint::{LintOptions, lint};
use crawlgate_robots::{RobotsTxt, path_params_query};
use proptest::prelude::*;

/// The reference: keep every path position the pattern prefix can end at. O(|pattern|·|path|).
fn reference_matches(path: &[u8], pattern: &[u8]) -> bool {
    let mut positions = vec![0usize];
    for (index, &byte) in pattern.iter().enumerate() {
        if byte == b'$' && index + 1 == pattern.len() {
            return positions.contains(&path.len());
        }
        if byte == b'*' {
            let Some(&first) = positions.first() else {
                return false;
            };
            positions = (first..=path.len()).collect();
        } else {
            positions = positions
                .into_iter()
                .filter(|&at| path.get(at) == Some(&byte))
                .map(|at| at + 1)
                .collect();
            if positions.is_empty() {
                return false;
            }
        }
    }
    true
}

/// Small alphabets make wildcards, anchors and repeated pieces meet often.
fn pattern_text() -> impl Strategy<Value = String> {
    proptest::string::string_regex("/[ab*$/]{0,10}").expect("regex")
}

fn path_text() -> impl Strategy<Value = String> {
    proptest::string::string_regex("/[ab$/]{0,14}").expect("regex")
}

/// Google's decision computed the slow way: every rule tried, the longest match per directive
/// kept (with the `index.htm` retry for Allow), Disallow winning only when strictly longer.
fn reference_allowed(rules: &[(bool, String)], path: &str) -> bool {
    let mut best_allow = 0;
    let mut best_disallow = 0;
    for (allow, pattern) in rules {
        let body = format!("User-agent: *\nAllow: {pattern}");
        let robots = RobotsTxt::parse(body.as_bytes());
        let escaped = robots.groups()[0].rules[0].escaped.clone();
        let mut priority =
            reference_matches(path.as_bytes(), escaped.as_bytes()).then_some(escaped.len());
        let index_slash = escaped
            .rfind('/')
            .filter(|&slash| escaped[slash..].starts_with("/index.htm"));
        if let (None, true, Some(slash)) = (priority, *allow, index_slash) {
            let retry = format!("{}$", &escaped[..=slash]);
            priority = reference_matches(path.as_bytes(), retry.as_bytes()).then_some(retry.len());
        }
        let Some(priority) = priority else { continue };
        if *allow {
            best_allow = best_allow.max(priority);
        } else {
            best_disallow = best_disallow.max(priority);
        }
    }
    best_disallow <= best_allow
}

fn rule_pattern() -> impl Strategy<Value = String> {
    proptest::collection::vec(
        prop_oneof![
            Just("/"),
            Just("a"),
            Just("b"),
            Just("*"),
            Just("$"),
            Just("/index.html"),
            Just("%61"),
            Just("ä")
        ],
        0..6,
    )
    .prop_map(|pieces| pieces.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2_000))]

    #[test]
    fn decisions_agree_with_a_brute_force_longest_match(
        rules in proptest::collection::vec((any::<bool>(), rule_pattern()), 0..25),
        paths in proptest::collection::vec(proptest::string::string_regex("/[ab/$]{0,8}(index.html?)?").expect("regex"), 1..10),
    ) {
        let mut body = String::from("User-agent: *\n");
        for (allow, pattern) in &rules {
            body.push_str(if *allow { "Allow: " } else { "Disallow: " });
            body.push_str(pattern);
            body.push('\n');
        }
        let robots = RobotsTxt::parse(body.as_bytes());
        let agent = robots.agent(&["x"]);
        for path in &paths {
            let verdict = agent.verdict(path);
            prop_assert_eq!(verdict.allowed, reference_allowed(&rules, path), "path {:?} rules {:?}", path, rules);
            if let Some(rule) = verdict.decided_by {
                prop_assert!(robots.groups()[0].rules.iter().any(|r| r.line == rule.line && r.matches(path)));
            }
        }
    }

    #[test]
    fn the_matcher_agrees_with_the_position_set_reference(pattern in pattern_text(), path in path_text()) {
        let body = format!("User-agent: *\nDisallow: {pattern}");
        let robots = RobotsTxt::parse(body.as_bytes());
        let rule = &robots.groups()[0].rules[0];
        prop_assert_eq!(
            rule.matches(&path),
            reference_matches(path.as_bytes(), rule.escaped.as_bytes()),
            "pattern {:?} path {:?}", pattern, path
        );
    }

    #[test]
    fn parsing_matching_and_linting_never_panic(body in proptest::collection::vec(any::<u8>(), 0..600), url in any::<String>(), agent in any::<String>()) {
        let robots = RobotsTxt::parse(&body);
        let path = path_params_query(&url);
        prop_assert!(path.starts_with('/'));
        let verdict = robots.verdict(&agent, &path);
        prop_assert_eq!(verdict.allowed, robots.agent(&[&agent]).is_allowed(&path));
        let _ = robots.verdict("googlebot", &url);
        let _ = lint(&robots, &body, &LintOptions::default());
        let _ = RobotsTxt::parse_fetched(&body);
    }

    #[test]
    fn directive_soup_never_panics(lines in proptest::collection::vec(
        proptest::string::string_regex("(user-agent|allow|disallow|sitemap|useragent|crawl-delay|noindex)?[: \t]{0,2}[*$/a-c#%é\u{0}\r]{0,8}").expect("regex"),
        0..30,
    ), path in any::<String>()) {
        let body = lines.join("\n");
        let robots = RobotsTxt::parse(body.as_bytes());
        for token in ["a", "b", "", "*"] {
            let _ = robots.verdict(token, &path);
        }
        let _ = lint(&robots, body.as_bytes(), &LintOptions::default());
    }

    #[test]
    fn the_verdict_does_not_depend_on_rule_order_within_a_group(
        rules in proptest::collection::vec((any::<bool>(), pattern_text()), 1..12),
        order in Just(()).prop_perturb(|(), mut rng| rng.random::<u64>()),
        paths in proptest::collection::vec(path_text(), 1..8),
    ) {
        let render = |rules: &[(bool, String)]| {
            let mut body = String::from("User-agent: *\n");
            for (allow, pattern) in rules {
                body.push_str(if *allow { "Allow: " } else { "Disallow: " });
                body.push_str(pattern);
                body.push('\n');
            }
            body
        };
        let mut shuffled = rules.clone();
        // A deterministic permutation from the generated seed (Fisher-Yates).
        let mut seed = order;
        for i in (1..shuffled.len()).rev() {
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            let j = usize::try_from(seed >> 33).unwrap_or(0) % (i + 1);
            shuffled.swap(i, j);
        }
        let original = RobotsTxt::parse(render(&rules).as_bytes());
        let permuted = RobotsTxt::parse(render(&shuffled).as_bytes());
        let (original, permuted) = (original.agent(&["x"]), permuted.agent(&["x"]));
        for path in &paths {
            prop_assert_eq!(original.is_allowed(path), permuted.is_allowed(path), "path {:?}", path);
        }
    }
}

#[test]
fn the_reference_itself_behaves_like_googles_examples() {
    assert!(reference_matches(b"/fish.html", b"/fish"));
    assert!(!reference_matches(b"/catfish", b"/fish"));
    assert!(reference_matches(b"/a/b.php", b"/*.php$"));
    assert!(!reference_matches(b"/a/b.php?x", b"/*.php$"));
    assert!(reference_matches(b"/a$", b"/a$$"));
}
