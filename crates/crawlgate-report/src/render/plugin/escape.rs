//! Output escaping, chosen per plugin (`escape` in `report.toml`). tera applies it to every
//! `{{ … }}` unless the value is marked `safe`, so site content is escaped by default whatever
//! the format.

use serde::Deserialize;
use std::io::{self, Write};

/// How a plugin's `{{ … }}` output is escaped.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Escape {
    /// `& < > " '` as character references (tera's own).
    Html,
    /// GitHub-flavoured Markdown: see `markdown` below.
    Markdown,
    /// One CSV field per value: see `csv` below.
    Csv,
    /// No escaping (plain text formats).
    None,
}

impl Escape {
    /// The default for an output extension: `html`/`htm`/`xml`/`svg` → HTML, `md` → Markdown,
    /// `csv` → CSV, anything else → none.
    pub fn for_extension(extension: &str) -> Escape {
        let last = extension.rsplit('.').next().unwrap_or(extension);
        match last.to_ascii_lowercase().as_str() {
            "html" | "htm" | "xml" | "svg" => Escape::Html,
            "md" | "markdown" => Escape::Markdown,
            "csv" => Escape::Csv,
            _ => Escape::None,
        }
    }

    /// The tera escape function, or `None` to turn autoescaping off.
    pub(crate) fn function(self) -> Option<tera::EscapeFn> {
        match self {
            Escape::Html => Some(tera::escape_html),
            Escape::Markdown => Some(markdown),
            Escape::Csv => Some(csv),
            Escape::None => None,
        }
    }
}

/// Escape text for GitHub-flavoured Markdown, inline (a table cell, a list item, a sentence):
/// - `\`, `` ` ``, `*`, `_`, `[`, `]`, `|`, `~` get a backslash (emphasis, code, links, table
///   cells, strikethrough);
/// - `<`, `>`, `&` become character references (raw HTML, entity references);
/// - line breaks become spaces (a line break would end a table row);
/// - a leading `#`, `+`, `-`, `=`, `!` gets a backslash, and so does the `.` or `)` after leading
///   digits (headings, lists, setext underlines, images at the start of a line).
pub(crate) fn markdown(input: &str, out: &mut dyn Write) -> io::Result<()> {
    let leading_digits = input.bytes().take_while(u8::is_ascii_digit).count();
    for (index, byte) in input.bytes().enumerate() {
        match byte {
            b'\\' | b'`' | b'*' | b'_' | b'[' | b']' | b'|' | b'~' => {
                out.write_all(&[b'\\', byte])?;
            }
            b'#' | b'+' | b'-' | b'=' | b'!' if index == 0 => out.write_all(&[b'\\', byte])?,
            b'.' | b')' if index > 0 && index == leading_digits => {
                out.write_all(&[b'\\', byte])?;
            }
            b'<' => out.write_all(b"&lt;")?,
            b'>' => out.write_all(b"&gt;")?,
            b'&' => out.write_all(b"&amp;")?,
            b'\n' | b'\r' => out.write_all(b" ")?,
            _ => out.write_all(&[byte])?,
        }
    }
    Ok(())
}

/// Write text as one CSV field (RFC 4180): quoted when it holds a comma, a semicolon or a tab
/// (the separators spreadsheets use besides the comma: unquoted, a `;` would start a new cell
/// there), a quote, a line break or outer spaces, quotes doubled. A value a spreadsheet would run
/// as a formula (starting, outer spaces aside, with `=`, `+`, `-`, `@`, their full-width forms, a
/// tab or a carriage return) is prefixed with `'` and quoted, so opening the file runs nothing
/// the audited site wrote.
pub(crate) fn csv(input: &str, out: &mut dyn Write) -> io::Result<()> {
    let formula = input
        .trim_start_matches(' ')
        .chars()
        .next()
        .is_some_and(|c| {
            matches!(
                c,
                '=' | '+'
                    | '-'
                    | '@'
                    | '\t'
                    | '\r'
                    | '\u{ff1d}'
                    | '\u{ff0b}'
                    | '\u{ff0d}'
                    | '\u{ff20}'
            )
        });
    let quote = formula
        || input.starts_with(' ')
        || input.ends_with(' ')
        || input
            .bytes()
            .any(|b| matches!(b, b',' | b';' | b'\t' | b'"' | b'\n' | b'\r'));
    if !quote {
        return out.write_all(input.as_bytes());
    }
    out.write_all(b"\"")?;
    if formula {
        out.write_all(b"'")?;
    }
    out.write_all(input.replace('"', "\"\"").as_bytes())?;
    out.write_all(b"\"")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(escape: tera::EscapeFn, input: &str) -> String {
        let mut out = Vec::new();
        escape(input, &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn markdown_escape_neutralises_hostile_site_content() {
        assert_eq!(
            run(
                markdown,
                "a|b `code` *em* <script>alert(1)</script> [x](javascript:y) & ~s~"
            ),
            r"a\|b \`code\` \*em\* &lt;script&gt;alert(1)&lt;/script&gt; \[x\](javascript:y) &amp; \~s\~"
        );
        assert_eq!(run(markdown, "line\nbreak\r|"), r"line break \|");
        assert_eq!(run(markdown, "# not a heading"), r"\# not a heading");
        assert_eq!(run(markdown, "1. not a list"), r"1\. not a list");
        assert_eq!(run(markdown, "a-b.c"), "a-b.c");
        assert_eq!(run(markdown, r"\*"), r"\\\*");
    }

    #[test]
    fn csv_fields_are_quoted_and_formulas_defused() {
        assert_eq!(run(csv, "plain"), "plain");
        assert_eq!(run(csv, "a,b"), "\"a,b\"");
        assert_eq!(run(csv, "say \"hi\""), "\"say \"\"hi\"\"\"");
        assert_eq!(run(csv, "two\nlines"), "\"two\nlines\"");
        assert_eq!(run(csv, "=HYPERLINK(\"x\")"), "\"'=HYPERLINK(\"\"x\"\")\"");
        assert_eq!(run(csv, "@SUM(A1)"), "\"'@SUM(A1)\"");
        // Whatever the reader's separator, no cell of a field starts a formula.
        assert_eq!(run(csv, "x;=cmd|' /C calc'!A0"), "\"x;=cmd|' /C calc'!A0\"");
        assert_eq!(run(csv, "x\t=1+1"), "\"x\t=1+1\"");
        assert_eq!(run(csv, "  =1+1"), "\"'  =1+1\"");
        assert_eq!(run(csv, "\u{ff1d}1+1"), "\"'\u{ff1d}1+1\"");
    }

    #[test]
    fn default_escape_follows_the_extension() {
        assert_eq!(Escape::for_extension("html"), Escape::Html);
        assert_eq!(Escape::for_extension("md"), Escape::Markdown);
        assert_eq!(Escape::for_extension("findings.csv"), Escape::Csv);
        assert_eq!(Escape::for_extension("txt"), Escape::None);
    }
}
