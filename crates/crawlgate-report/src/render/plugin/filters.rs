//! The filters and functions every report plugin gets, on top of tera's built-ins. Documented for
//! plugin authors in `reports/README.md`; keep the two in step.

use super::escape::markdown as markdown_escape;
use crate::fingerprint::Fnv64;
use crate::render::evidence::describe;
use crawlgate_core::Evidence;
use pulldown_cmark::{Event, Parser};
use std::collections::BTreeMap;
use std::sync::Arc;
use tera::{Kwargs, State, Tera, TeraResult, Value};

/// Register crawlgate's filters, and the `asset` function over the plugin's raw files.
pub(crate) fn register(tera: &mut Tera, assets: Arc<BTreeMap<String, String>>) {
    tera.register_filter("anchor", |text: &str, _: Kwargs, _: &State| anchor(text));
    tera.register_filter("markdown", |text: &str, _: Kwargs, _: &State| {
        Value::safe_string(&markdown_to_html(text))
    });
    tera.register_filter("code_spans", |text: &str, _: Kwargs, _: &State| {
        Value::safe_string(&code_spans(text))
    });
    tera.register_filter("md_code_spans", |text: &str, _: Kwargs, _: &State| {
        Value::safe_string(&md_code_spans(text))
    });
    tera.register_filter(
        "pad_start",
        |value: Value, kwargs: Kwargs, _: &State| -> TeraResult<String> {
            let width = kwargs.get::<usize>("width")?.unwrap_or(0).min(256);
            let text = value
                .as_str()
                .map_or_else(|| value.to_string(), str::to_owned);
            Ok(format!("{text:>width$}"))
        },
    );
    tera.register_filter("md_code", |text: &str, _: Kwargs, _: &State| {
        Value::safe_string(&md_code(text))
    });
    tera.register_filter(
        "md_code_block",
        |text: &str, kwargs: Kwargs, _: &State| -> TeraResult<Value> {
            let info = kwargs.get::<&str>("lang")?.unwrap_or("");
            Ok(Value::safe_string(&md_code_block(text, info)))
        },
    );
    tera.register_filter(
        "evidence_text",
        |evidence: Value, _: Kwargs, _: &State| -> TeraResult<String> { evidence_text(&evidence) },
    );
    tera.register_filter(
        "group",
        |values: &[Value], kwargs: Kwargs, _: &State| -> TeraResult<Vec<Value>> {
            Ok(group(values, kwargs.must_get::<&str>("attribute")?))
        },
    );
    tera.register_filter("sum", |values: &[Value], _: Kwargs, _: &State| sum(values));
    tera.register_filter("max", |values: &[Value], _: Kwargs, _: &State| max(values));
    tera.register_function(
        "asset",
        move |kwargs: Kwargs, _: &State| -> TeraResult<Value> {
            let path = kwargs.must_get::<&str>("path")?;
            match assets.get(path) {
                Some(text) => Ok(Value::safe_string(text)),
                None => Err(tera::Error::message(format!(
                    "asset `{path}` not found in the plugin folder (assets: {})",
                    assets.keys().cloned().collect::<Vec<_>>().join(", ")
                ))),
            }
        },
    );
}

/// A stable HTML id for any text (a robots.txt URL, a sitemap URL): the text's lowercase ASCII
/// letters and digits with `-` for every other run, then 8 hex digits of its hash, so two texts
/// that read alike (`a-b.com`, `a.b.com`) never share an id.
pub(crate) fn anchor(text: &str) -> String {
    let mut slug = String::with_capacity(text.len().min(64) + 9);
    for c in text.chars() {
        if slug.len() >= 64 {
            break;
        }
        if c.is_ascii_alphanumeric() {
            slug.push(c.to_ascii_lowercase());
        } else if !slug.is_empty() && !slug.ends_with('-') {
            slug.push('-');
        }
    }
    if !slug.ends_with('-') {
        slug.push('-');
    }
    let mut hash = Fnv64::new();
    hash.write(text.as_bytes());
    slug.push_str(&format!("{:016x}", hash.finish())[..8]);
    slug
}

/// Markdown (a rule's docs) to HTML. Raw HTML in the source is shown as text, never passed
/// through: the docs of a library user's rule cannot inject markup either.
pub(crate) fn markdown_to_html(text: &str) -> String {
    let events = Parser::new(text).map(|event| match event {
        Event::Html(html) | Event::InlineHtml(html) => Event::Text(html),
        other => other,
    });
    let mut html = String::with_capacity(text.len() * 2);
    pulldown_cmark::html::push_html(&mut html, events);
    html
}

/// Text (a finding's message) as HTML with its `backtick` spans as `<code>`: escaped first, so
/// whatever the backticks hold stays text. An unpaired backtick stays a backtick.
pub(crate) fn code_spans(text: &str) -> String {
    let mut escaped = Vec::with_capacity(text.len() + 16);
    // Writing into a Vec cannot fail.
    let _ = tera::escape_html(text, &mut escaped);
    let escaped = String::from_utf8_lossy(&escaped);
    let segments: Vec<&str> = escaped.split('`').collect();
    // Backtick i sits before segment i + 1; they pair up in order, and an odd last one is text.
    let backticks = segments.len() - 1;
    let paired = backticks - backticks % 2;
    let mut html = String::with_capacity(escaped.len() + 32);
    for (index, segment) in segments.iter().enumerate() {
        if let Some(tick) = index.checked_sub(1) {
            html.push_str(match (tick < paired, tick % 2 == 0) {
                (true, true) => "<code>",
                (true, false) => "</code>",
                (false, _) => "`",
            });
        }
        html.push_str(segment);
    }
    html
}

/// Text (a finding's message) as Markdown: escaped, with its `backtick` spans as code spans
/// ([`md_code`]); an unpaired backtick is escaped.
pub(crate) fn md_code_spans(text: &str) -> String {
    let segments: Vec<&str> = text.split('`').collect();
    let backticks = segments.len() - 1;
    let paired = backticks - backticks % 2;
    let mut out = Vec::with_capacity(text.len() + 16);
    for (index, segment) in segments.iter().enumerate() {
        let inside_code = index % 2 == 1 && index <= paired;
        if index > paired {
            out.extend_from_slice(b"\\`");
        }
        if inside_code {
            out.extend_from_slice(md_code(segment).as_bytes());
        } else {
            // Writing into a Vec cannot fail.
            let _ = markdown_escape(segment, &mut out);
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Site text as a Markdown code span that nothing inside can break: the fence is one backtick
/// longer than the longest run inside, `|` is escaped for table cells (GFM unescapes it inside
/// code spans there), line breaks become spaces.
pub(crate) fn md_code(text: &str) -> String {
    let flat = text.replace(['\n', '\r'], " ");
    if flat.is_empty() {
        return String::new();
    }
    let fence = "`".repeat(longest_backtick_run(&flat) + 1);
    let pad = if flat.starts_with('`') || flat.ends_with('`') || flat.starts_with(' ') {
        " "
    } else {
        ""
    };
    format!("{fence}{pad}{}{pad}{fence}", flat.replace('|', "\\|"))
}

/// Text as a fenced Markdown code block whose fence no line inside can close.
pub(crate) fn md_code_block(text: &str, lang: &str) -> String {
    let fence = "`".repeat((longest_backtick_run(text) + 1).max(3));
    let lang: String = lang
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '-')
        .collect();
    let body = text.trim_end_matches(['\n', '\r']);
    format!("{fence}{lang}\n{body}\n{fence}")
}

fn longest_backtick_run(text: &str) -> usize {
    text.split(|c| c != '`').map(str::len).max().unwrap_or(0)
}

/// A piece of evidence (an item of a finding's `evidence`) in one line of words, as SARIF and
/// JUnit word it.
fn evidence_text(evidence: &Value) -> TeraResult<String> {
    serde_json::to_value(evidence)
        .and_then(serde_json::from_value::<Evidence>)
        .map(|evidence| describe(&evidence))
        .map_err(|e| tera::Error::message(format!("evidence_text: not a piece of evidence ({e})")))
}

/// Group an array of maps by an attribute (a path such as `rule` or `finding.rule`), in the order
/// each key first appears: `[{key, items}]`. Items without the attribute are grouped under none.
/// (tera's own `group_by` returns a hash map, whose order changes from run to run.)
fn group(values: &[Value], attribute: &str) -> Vec<Value> {
    let mut groups: Vec<(Value, Vec<Value>)> = Vec::new();
    let mut index: BTreeMap<Value, usize> = BTreeMap::new();
    for value in values {
        let key = value
            .get_from_path(attribute)
            .cloned()
            .unwrap_or_else(Value::none);
        if let Some((_, items)) = index.get(&key).and_then(|&at| groups.get_mut(at)) {
            items.push(value.clone());
        } else {
            index.insert(key.clone(), groups.len());
            groups.push((key, vec![value.clone()]));
        }
    }
    groups
        .into_iter()
        .map(|(key, items)| {
            Value::from(BTreeMap::from([
                ("key", key),
                ("items", Value::from(items)),
            ]))
        })
        .collect()
}

/// The sum of an array of numbers: an integer when every item is one.
fn sum(values: &[Value]) -> TeraResult<Value> {
    if let Some(total) = values
        .iter()
        .map(Value::as_i128)
        .try_fold(0_i128, |acc, v| acc.checked_add(v?))
    {
        return Ok(Value::from(total));
    }
    numbers(values).map(|floats| Value::from(floats.iter().sum::<f64>()))
}

/// The largest of an array of numbers (`0` for an empty array, the count of nothing).
fn max(values: &[Value]) -> TeraResult<Value> {
    if let Some(ints) = values
        .iter()
        .map(Value::as_i128)
        .collect::<Option<Vec<_>>>()
    {
        return Ok(Value::from(ints.into_iter().max().unwrap_or(0)));
    }
    numbers(values).map(|floats| Value::from(floats.into_iter().fold(f64::MIN, f64::max)))
}

fn numbers(values: &[Value]) -> TeraResult<Vec<f64>> {
    values
        .iter()
        .map(|v| {
            v.as_f64()
                .ok_or_else(|| tera::Error::message(format!("expected a number, got {}", v.name())))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn anchors_are_stable_html_ids_that_do_not_collide() {
        assert_eq!(
            anchor("http://site.test/robots.txt"),
            anchor("http://site.test/robots.txt")
        );
        assert!(anchor("http://a-b.test/robots.txt").starts_with("http-a-b-test-robots-txt-"));
        assert_ne!(anchor("http://a-b.test/"), anchor("http://a.b.test/"));
        assert!(
            anchor("\"><img onerror=x>")
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-')
        );
    }

    #[test]
    fn markdown_docs_render_but_raw_html_stays_text() {
        assert_eq!(
            markdown_to_html("Use `noindex` <script>x</script>"),
            "<p>Use <code>noindex</code> &lt;script&gt;x&lt;/script&gt;</p>\n"
        );
    }

    #[test]
    fn message_code_spans_escape_first() {
        assert_eq!(
            code_spans("the link to `<script>` is in <body>"),
            "the link to <code>&lt;script&gt;</code> is in &lt;body&gt;"
        );
        assert_eq!(code_spans("a ` b"), "a ` b");
        assert_eq!(code_spans("`x` and `y"), "<code>x</code> and `y");
    }

    #[test]
    fn markdown_messages_keep_their_code_spans_and_escape_the_rest() {
        assert_eq!(
            md_code_spans("the link to `a|b` is in <body> *now*"),
            r"the link to `a\|b` is in &lt;body&gt; \*now\*"
        );
        assert_eq!(md_code_spans("odd ` tick"), r"odd \` tick");
    }

    #[test]
    fn groups_keep_the_order_keys_first_appear_in() {
        let values: Vec<Value> = ["b", "a", "b", "c", "a"]
            .iter()
            .enumerate()
            .map(|(n, rule)| {
                Value::from(BTreeMap::from([
                    ("rule", Value::from(*rule)),
                    ("n", Value::from(n)),
                ]))
            })
            .collect();
        let groups = group(&values, "rule");
        let summary: Vec<String> = groups
            .iter()
            .map(|g| {
                let items = g.get_from_path("items").and_then(Value::as_array).unwrap();
                format!("{}:{}", g.get_from_path("key").unwrap(), items.len())
            })
            .collect();
        assert_eq!(summary, ["b:2", "a:2", "c:1"]);
    }

    #[test]
    fn code_spans_and_blocks_cannot_be_broken_out_of() {
        assert_eq!(md_code("Disallow: /a|b"), r"`Disallow: /a\|b`");
        assert_eq!(md_code("a ` b"), "``a ` b``");
        assert_eq!(md_code("``x"), "``` ``x ```");
        assert_eq!(
            md_code_block("```\nevil", "text"),
            "````text\n```\nevil\n````"
        );
    }
}
