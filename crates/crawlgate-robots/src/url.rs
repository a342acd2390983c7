//! The text Google's library matches against, and user-agent tokens.

/// Google's `GetPathParamsQuery`: the path, params and query of `url`, with the scheme, the
/// authority and the `#fragment` stripped and nothing else changed (no decoding, no re-encoding,
/// no dot-segment removal). The result always starts with `/`.
///
/// ```
/// use crawlgate_robots::path_params_query;
///
/// assert_eq!(path_params_query("https://example.com/a/b?c=d#e"), "/a/b?c=d");
/// assert_eq!(path_params_query("example.com"), "/");
/// assert_eq!(path_params_query("?a"), "/?a");
/// assert_eq!(path_params_query("//a/b/c"), "/b/c");
/// ```
pub fn path_params_query(url: &str) -> String {
    let bytes = url.as_bytes();
    // Two leading slashes start an authority (a scheme-relative URL).
    let search_start = if bytes.starts_with(b"//") { 2 } else { 0 };
    let early_path = find_any(bytes, b"/?;", search_start);
    let scheme_end = memchr::memmem::find(bytes.get(search_start..).unwrap_or_default(), b"://")
        .map(|at| at + search_start)
        // A path, params or query before `://` means `://` is not the scheme's end.
        .filter(|&at| early_path.is_none_or(|path| path >= at));
    let authority_start = scheme_end.map_or(search_start, |at| at + 3);
    let Some(path_start) = find_any(bytes, b"/?;", authority_start) else {
        return "/".to_owned();
    };
    let hash = find_any(bytes, b"#", search_start);
    if hash.is_some_and(|hash| hash < path_start) {
        return "/".to_owned();
    }
    let path_end = hash.unwrap_or(bytes.len());
    // Both ends sit on ASCII bytes, so they are character boundaries.
    let path = url.get(path_start..path_end).unwrap_or_default();
    if path.starts_with('/') {
        path.to_owned()
    } else {
        format!("/{path}")
    }
}

fn find_any(haystack: &[u8], needles: &[u8], from: usize) -> Option<usize> {
    haystack
        .get(from..)?
        .iter()
        .position(|byte| needles.contains(byte))
        .map(|at| at + from)
}

/// The leading run of `[A-Za-z_-]` of a user-agent value: what Google's library compares.
pub(crate) fn agent_token(value: &str) -> &str {
    let end = value
        .bytes()
        .position(|byte| !(byte.is_ascii_alphabetic() || byte == b'-' || byte == b'_'))
        .unwrap_or(value.len());
    value.get(..end).unwrap_or_default()
}

/// Reduces a full User-Agent header to the product token a crawler obeys robots.txt groups by.
///
/// Returns `None` when `ua` is not a full header (it contains neither `/` nor `(`): a bare token
/// such as `Googlebot` or `AB42bot` must be compared verbatim, as Google's library does. Also
/// `None` when no token can be found.
///
/// The token is the header's leading `[A-Za-z_-]+` run (`Googlebot/2.1 (+http://…)` →
/// `Googlebot`). Crawlers that present as browsers put their name after `compatible;` in the
/// comment (`Mozilla/5.0 (compatible; bingbot/2.0; +http://…)` → `bingbot`); when the header
/// starts with `Mozilla` and has such a name, that name is the token.
///
/// ```
/// use crawlgate_robots::product_token_of_header;
///
/// assert_eq!(product_token_of_header("Googlebot/2.1 (+http://www.google.com/bot.html)"), Some("Googlebot"));
/// assert_eq!(
///     product_token_of_header("Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"),
///     Some("Googlebot"),
/// );
/// assert_eq!(product_token_of_header("AB42bot"), None);
/// ```
pub fn product_token_of_header(ua: &str) -> Option<&str> {
    if !ua.contains(['/', '(']) {
        return None;
    }
    let ua = ua.trim_start();
    let leading = agent_token(ua);
    if leading.eq_ignore_ascii_case("mozilla") {
        const COMPATIBLE: &str = "compatible;";
        // ASCII lower-casing keeps byte offsets, so `at` indexes `ua` too.
        let compatible = ua
            .to_ascii_lowercase()
            .find(COMPATIBLE)
            .and_then(|at| ua.get(at + COMPATIBLE.len()..))
            .map(|rest| agent_token(rest.trim_start()));
        if let Some(name) = compatible.filter(|name| !name.is_empty()) {
            return Some(name);
        }
    }
    (!leading.is_empty()).then_some(leading)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Google's `TestGetPathParamsQuery` cases, re-expressed.
    #[test]
    fn path_params_query_matches_google_on_its_cases() {
        let cases = [
            ("", "/"),
            ("http://www.example.com", "/"),
            ("http://www.example.com/", "/"),
            ("http://www.example.com/a", "/a"),
            ("http://www.example.com/a/", "/a/"),
            (
                "http://www.example.com/a/b?c=http://d.e/",
                "/a/b?c=http://d.e/",
            ),
            (
                "http://www.example.com/a/b?c=d&e=f#fragment",
                "/a/b?c=d&e=f",
            ),
            ("example.com", "/"),
            ("example.com/", "/"),
            ("example.com/a", "/a"),
            ("example.com/a/", "/a/"),
            ("example.com/a/b?c=d&e=f#fragment", "/a/b?c=d&e=f"),
            ("a", "/"),
            ("a/", "/"),
            ("/a", "/a"),
            ("a/b", "/b"),
            ("example.com?a", "/?a"),
            ("example.com/a;b#c", "/a;b"),
            ("//a/b/c", "/b/c"),
        ];
        for (url, expected) in cases {
            assert_eq!(path_params_query(url), expected, "url {url:?}");
        }
    }

    #[test]
    fn path_params_query_changes_nothing_else() {
        assert_eq!(
            path_params_query("https://x.test/ツ/%aa/../a//b"),
            "/ツ/%aa/../a//b"
        );
        assert_eq!(path_params_query("https://x.test#/a"), "/");
        assert_eq!(path_params_query("/a?b#c?d"), "/a?b");
        assert_eq!(path_params_query("/?q=http://x/y"), "/?q=http://x/y");
    }

    #[test]
    fn agent_tokens_are_the_leading_letters_dashes_and_underscores() {
        assert_eq!(agent_token("Googlebot/2.1"), "Googlebot");
        assert_eq!(agent_token("Googlebot Images"), "Googlebot");
        assert_eq!(agent_token("MJ12bot"), "MJ");
        assert_eq!(agent_token("360Spider"), "");
        assert_eq!(agent_token("Foo_Bar-baz"), "Foo_Bar-baz");
        assert_eq!(agent_token("ツbot"), "");
    }

    #[test]
    fn only_full_headers_are_reduced_to_a_token() {
        assert_eq!(product_token_of_header("Googlebot"), None);
        assert_eq!(product_token_of_header("Foo Bar"), None);
        assert_eq!(product_token_of_header("Googlebot/2.1"), Some("Googlebot"));
        assert_eq!(
            product_token_of_header(
                "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)"
            ),
            Some("bingbot")
        );
        assert_eq!(
            product_token_of_header(
                "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.1; +https://openai.com/gptbot)"
            ),
            Some("GPTBot")
        );
        assert_eq!(
            product_token_of_header("Mozilla/5.0 (X11; Linux x86_64) Firefox/128.0"),
            Some("Mozilla")
        );
        assert_eq!(product_token_of_header("360Spider/1.0"), None);
        assert_eq!(product_token_of_header("(compatible)"), None);
    }
}
