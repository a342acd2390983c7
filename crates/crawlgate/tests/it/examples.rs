//! The examples run as tests, so they stay true.

#[allow(dead_code)] // `main` is the example's entry point, not called here
#[path = "../../examples/custom_rule.rs"]
mod custom_rule;

#[test]
fn the_custom_rule_example_reports_its_own_finding() {
    let lines = custom_rule::custom_findings().expect("the example runs");
    assert_eq!(
        lines,
        ["custom/uppercase-path http://shop.test/Shoes the path has uppercase letters"]
    );
}
