//! robots.txt: parse (as a file and, past Google's size limit, as Googlebot's fetcher cuts it),
//! verdicts for a fuzzed product token and path, and the lint.
//!
//! Input: `token \n path \n body`. A missing separator leaves the token or path empty, so plain
//! robots.txt files from the corpus are useful seeds as they are (their first two lines become
//! the token and the path, the rest the body).

#![no_main]

use crawlgate_core::robots::lint::{LintOptions, lint};
use crawlgate_core::robots::{GOOGLE_MAX_ROBOTS_BYTES, RobotsTxt};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let (token, rest) = split_line(data);
    let (path, body) = split_line(rest);
    let token = String::from_utf8_lossy(token);
    let path = String::from_utf8_lossy(path);

    let options = LintOptions {
        user_agents: vec![token.to_string(), "googlebot".to_owned()],
        list_limit: 10,
    };
    // Up to Google's size limit, the fetcher's parse is the same parse: do it once (the
    // fetcher's cut is fuzzed only with a `-max_len` above the limit).
    let parses = if body.len() <= GOOGLE_MAX_ROBOTS_BYTES {
        vec![RobotsTxt::parse_fetched(body)]
    } else {
        vec![RobotsTxt::parse(body), RobotsTxt::parse_fetched(body)]
    };
    for robots in parses {
        let verdict = robots.verdict(&token, &path);
        // The fallback chain a profile uses, and the `*` groups alone.
        let agent = robots.agent(&[&token, "googlebot"]);
        let _ = agent.verdict(&path);
        let _ = agent.deciding_rule(&path);
        let _ = robots.agent(&[]).is_allowed(&path);
        let _ = verdict;
        let _ = lint(&robots, body, &options);
    }
});

/// The bytes before the first `\n`, and those after it (all of them when there is none).
fn split_line(data: &[u8]) -> (&[u8], &[u8]) {
    match data.iter().position(|&b| b == b'\n') {
        Some(at) => (&data[..at], &data[at + 1..]),
        None => (&[], data),
    }
}
