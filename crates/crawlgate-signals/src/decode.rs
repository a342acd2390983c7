//! Is it HTML, and in which encoding: BOM, then `Content-Type` charset, then the HTML spec's
//! `<meta>` prescan of the first 1024 bytes, then UTF-8 if the bytes are valid UTF-8, else
//! windows-1252. Decoding is done once, with `encoding_rs`.

use super::types::CharsetSource;
use crate::http::HeaderLine;
use encoding_rs::{Encoding, UTF_8, UTF_16BE, UTF_16LE, WINDOWS_1252, X_USER_DEFINED};
use std::borrow::Cow;

/// How far the `<meta>` charset prescan looks (HTML spec: 1024 bytes).
const PRESCAN_BYTES: usize = 1024;

/// A `Content-Type` header value, read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ContentType {
    /// `type/subtype`, lowercase.
    pub essence: String,
    /// The `charset` parameter, unquoted.
    pub charset: Option<String>,
}

/// The last `Content-Type` line that holds a media type.
pub(crate) fn content_type(headers: &[HeaderLine]) -> Option<ContentType> {
    headers
        .iter()
        .rev()
        .filter(|line| line.is("content-type"))
        .find_map(|line| parse_content_type(&line.value))
}

fn parse_content_type(value: &str) -> Option<ContentType> {
    let mut parts = value.split(';');
    let essence = parts.next()?.trim().to_ascii_lowercase();
    let (kind, subtype) = essence.split_once('/')?;
    if kind.is_empty() || subtype.is_empty() || essence.contains(char::is_whitespace) {
        return None;
    }
    let charset = parts.find_map(|param| {
        let (name, value) = param.split_once('=')?;
        name.trim()
            .eq_ignore_ascii_case("charset")
            .then(|| value.trim().trim_matches('"').trim().to_owned())
            .filter(|label| !label.is_empty())
    });
    Some(ContentType { essence, charset })
}

/// Whether the body is to be read as HTML.
pub(crate) fn is_html(content_type: Option<&ContentType>, body: &[u8]) -> bool {
    match content_type {
        Some(ct) => matches!(ct.essence.as_str(), "text/html" | "application/xhtml+xml"),
        None => sniffs_as_html(body),
    }
}

/// The MIME sniffing spec's HTML patterns, for responses without a `Content-Type`.
fn sniffs_as_html(body: &[u8]) -> bool {
    const PATTERNS: [&[u8]; 17] = [
        b"<!doctype html",
        b"<html",
        b"<head",
        b"<script",
        b"<iframe",
        b"<h1",
        b"<div",
        b"<font",
        b"<table",
        b"<a",
        b"<style",
        b"<title",
        b"<b",
        b"<body",
        b"<br",
        b"<p",
        b"<!--",
    ];
    let body = body.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(body);
    let start = body
        .iter()
        .position(|b| !matches!(b, b'\t' | b'\n' | b'\x0C' | b'\r' | b' '))
        .unwrap_or(body.len());
    let rest = &body[start..];
    PATTERNS.iter().any(|pattern| {
        rest.len() > pattern.len()
            && rest[..pattern.len()].eq_ignore_ascii_case(pattern)
            && matches!(rest[pattern.len()], b' ' | b'>')
    })
}

/// A body decoded to text.
pub(crate) struct Decoded<'a> {
    pub text: Cow<'a, str>,
    pub encoding: &'static Encoding,
    pub source: CharsetSource,
}

/// The encoding a `<meta>` met by the parser (past the prescan's reach) declares, if the first
/// choice was only a guess (no BOM, header or prescanned `<meta>`): browsers then switch to it,
/// reparsing the page when it differs.
pub(crate) fn declared_over_guess(first: &Decoded<'_>, label: &str) -> Option<&'static Encoding> {
    if !matches!(
        first.source,
        CharsetSource::Utf8Detected | CharsetSource::Fallback
    ) {
        return None;
    }
    Encoding::for_label(label.trim().as_bytes()).map(supported_for_meta)
}

/// The body decoded in `encoding`, declared by a `<meta>`.
pub(crate) fn decode_as_declared<'a>(body: &'a [u8], encoding: &'static Encoding) -> Decoded<'a> {
    let (text, _had_errors) = encoding.decode_without_bom_handling(body);
    Decoded {
        text,
        encoding,
        source: CharsetSource::MetaTag,
    }
}

/// Decodes an HTML body, choosing the encoding as browsers do.
pub(crate) fn decode<'a>(body: &'a [u8], content_type: Option<&ContentType>) -> Decoded<'a> {
    let (encoding, source, bom_length) = choose_encoding(body, content_type);
    let rest = body.get(bom_length..).unwrap_or_default();
    let (text, _had_errors) = encoding.decode_without_bom_handling(rest);
    Decoded {
        text,
        encoding,
        source,
    }
}

fn choose_encoding(
    body: &[u8],
    content_type: Option<&ContentType>,
) -> (&'static Encoding, CharsetSource, usize) {
    if let Some((encoding, bom_length)) = Encoding::for_bom(body) {
        return (encoding, CharsetSource::ByteOrderMark, bom_length);
    }
    if let Some(encoding) = content_type
        .and_then(|ct| ct.charset.as_deref())
        .and_then(|label| Encoding::for_label(label.as_bytes()))
    {
        return (encoding, CharsetSource::ContentType, 0);
    }
    if let Some(encoding) = prescan(body.get(..PRESCAN_BYTES).unwrap_or(body)) {
        return (encoding, CharsetSource::MetaTag, 0);
    }
    if std::str::from_utf8(body).is_ok() || utf8_cut_at_end(body) {
        (UTF_8, CharsetSource::Utf8Detected, 0)
    } else {
        (WINDOWS_1252, CharsetSource::Fallback, 0)
    }
}

/// Valid UTF-8 except for a character cut by the caller's byte bound at the very end.
fn utf8_cut_at_end(body: &[u8]) -> bool {
    match std::str::from_utf8(body) {
        Ok(_) => true,
        Err(error) => error.error_len().is_none(),
    }
}

/// The HTML spec's "prescan a byte stream to determine its encoding", over `bytes`.
fn prescan(bytes: &[u8]) -> Option<&'static Encoding> {
    let mut scanner = Scanner { bytes, position: 0 };
    while scanner.position < bytes.len() {
        let rest = scanner.rest();
        if rest.starts_with(b"<!--") {
            // Skip to the end of the comment; `<!-->` closes at once.
            match find(rest.get(2..)?, b"-->") {
                Some(end) => scanner.position += 2 + end + 3,
                None => return None,
            }
        } else if starts_with_ignore_case(rest, b"<meta")
            && rest
                .get(5)
                .is_some_and(|b| b.is_ascii_whitespace() || *b == b'/')
        {
            scanner.position += 5;
            if let Some(encoding) = scanner.meta_charset() {
                return Some(supported_for_meta(encoding));
            }
        } else if rest.first() == Some(&b'<')
            && (rest.get(1).is_some_and(u8::is_ascii_alphabetic)
                || (rest.get(1) == Some(&b'/') && rest.get(2).is_some_and(u8::is_ascii_alphabetic)))
        {
            // Skip a tag and its attributes (so `>` inside quoted values does not mislead).
            let name_end = rest
                .iter()
                .position(|b| b.is_ascii_whitespace() || *b == b'>')
                .unwrap_or(rest.len());
            scanner.position += name_end;
            while scanner.attribute().is_some() {}
        } else if rest.starts_with(b"<!") || rest.starts_with(b"</") || rest.starts_with(b"<?") {
            match rest.iter().position(|b| *b == b'>') {
                Some(end) => scanner.position += end + 1,
                None => return None,
            }
        } else {
            scanner.position += 1;
        }
    }
    None
}

/// A `<meta>` may not switch to UTF-16 (the bytes are ASCII-compatible if we read the tag).
pub(crate) fn supported_for_meta(encoding: &'static Encoding) -> &'static Encoding {
    if encoding == UTF_16BE || encoding == UTF_16LE {
        UTF_8
    } else if encoding == X_USER_DEFINED {
        WINDOWS_1252
    } else {
        encoding
    }
}

struct Scanner<'a> {
    bytes: &'a [u8],
    position: usize,
}

impl<'a> Scanner<'a> {
    fn rest(&self) -> &'a [u8] {
        self.bytes.get(self.position..).unwrap_or_default()
    }

    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.position).copied()
    }

    /// The attributes of one `<meta>`; the encoding it declares, if it is a declaration.
    fn meta_charset(&mut self) -> Option<&'static Encoding> {
        let mut seen: Vec<Vec<u8>> = Vec::new();
        let mut got_pragma = false;
        let mut need_pragma: Option<bool> = None;
        let mut charset: Option<&'static Encoding> = None;
        while let Some((name, value)) = self.attribute() {
            if seen.contains(&name) || seen.len() > 64 {
                continue;
            }
            match name.as_slice() {
                b"http-equiv" => got_pragma |= value.eq_ignore_ascii_case(b"content-type"),
                b"content" if charset.is_none() => {
                    if let Some(found) = charset_from_content(&value) {
                        charset = Encoding::for_label(found);
                        need_pragma = Some(true);
                    }
                }
                b"charset" => {
                    charset = Encoding::for_label(&value);
                    need_pragma = Some(false);
                }
                _ => {}
            }
            seen.push(name);
        }
        match need_pragma {
            Some(true) if !got_pragma => None,
            Some(_) => charset,
            None => None,
        }
    }

    /// The spec's "get an attribute": `(lowercase name, value)`, or `None` at `>` or the end.
    fn attribute(&mut self) -> Option<(Vec<u8>, Vec<u8>)> {
        while self
            .peek()
            .is_some_and(|b| b.is_ascii_whitespace() || b == b'/')
        {
            self.position += 1;
        }
        if self.peek()? == b'>' {
            return None;
        }
        let mut name = Vec::new();
        loop {
            let byte = self.peek()?;
            if byte == b'=' && !name.is_empty() {
                break;
            }
            if byte.is_ascii_whitespace() {
                while self.peek().is_some_and(|b| b.is_ascii_whitespace()) {
                    self.position += 1;
                }
                if self.peek()? != b'=' {
                    return Some((name, Vec::new()));
                }
                break;
            }
            if byte == b'/' || byte == b'>' {
                return Some((name, Vec::new()));
            }
            name.push(byte.to_ascii_lowercase());
            self.position += 1;
        }
        // At `=`.
        self.position += 1;
        while self.peek().is_some_and(|b| b.is_ascii_whitespace()) {
            self.position += 1;
        }
        let mut value = Vec::new();
        match self.peek()? {
            quote @ (b'"' | b'\'') => {
                self.position += 1;
                loop {
                    let byte = self.peek()?;
                    self.position += 1;
                    if byte == quote {
                        return Some((name, value));
                    }
                    value.push(byte.to_ascii_lowercase());
                }
            }
            b'>' => Some((name, value)),
            _ => {
                while let Some(byte) = self.peek() {
                    if byte.is_ascii_whitespace() || byte == b'>' {
                        break;
                    }
                    value.push(byte.to_ascii_lowercase());
                    self.position += 1;
                }
                self.peek().map(|_| (name, value))
            }
        }
    }
}

/// The spec's "extract a character encoding from a meta element" (`text/html; charset=x`).
fn charset_from_content(content: &[u8]) -> Option<&[u8]> {
    let mut position = 0;
    loop {
        let start = position + find_ignore_case(content.get(position..)?, b"charset")?;
        let mut cursor = start + b"charset".len();
        while content.get(cursor).is_some_and(u8::is_ascii_whitespace) {
            cursor += 1;
        }
        if content.get(cursor) != Some(&b'=') {
            position = cursor;
            continue;
        }
        cursor += 1;
        while content.get(cursor).is_some_and(u8::is_ascii_whitespace) {
            cursor += 1;
        }
        let rest = content.get(cursor..)?;
        if let quote @ (b'"' | b'\'') = rest.first()? {
            let inner = rest.get(1..)?;
            let end = inner.iter().position(|b| b == quote)?;
            return inner.get(..end);
        }
        let end = rest
            .iter()
            .position(|b| b.is_ascii_whitespace() || *b == b';')
            .unwrap_or(rest.len());
        return rest.get(..end);
    }
}

fn starts_with_ignore_case(haystack: &[u8], prefix: &[u8]) -> bool {
    haystack.len() >= prefix.len() && haystack[..prefix.len()].eq_ignore_ascii_case(prefix)
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack
        .windows(needle.len())
        .position(|window| window == needle)
}

fn find_ignore_case(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack
        .windows(needle.len())
        .position(|window| window.eq_ignore_ascii_case(needle))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chosen(body: &[u8], content_type: Option<&str>) -> (&'static str, CharsetSource) {
        let ct = content_type.and_then(parse_content_type);
        let (encoding, source, _) = choose_encoding(body, ct.as_ref());
        (encoding.name(), source)
    }

    #[test]
    fn bom_beats_header_and_meta() {
        let body = b"\xEF\xBB\xBF<meta charset=shift_jis>";
        assert_eq!(
            chosen(body, Some("text/html; charset=iso-8859-1")),
            ("UTF-8", CharsetSource::ByteOrderMark)
        );
        assert_eq!(
            chosen(b"\xFF\xFE<\0", None),
            ("UTF-16LE", CharsetSource::ByteOrderMark)
        );
    }

    #[test]
    fn header_charset_beats_meta() {
        assert_eq!(
            chosen(
                b"<meta charset=shift_jis>",
                Some("text/html; charset=\"ISO-8859-1\"")
            ),
            ("windows-1252", CharsetSource::ContentType)
        );
    }

    #[test]
    fn unknown_header_label_falls_through_to_meta() {
        assert_eq!(
            chosen(b"<meta charset=euc-jp>", Some("text/html; charset=bogus")),
            ("EUC-JP", CharsetSource::MetaTag)
        );
    }

    #[test]
    fn meta_prescan_reads_both_forms() {
        assert_eq!(
            chosen(b"<!doctype html><META CharSet='Shift_JIS'>", None),
            ("Shift_JIS", CharsetSource::MetaTag)
        );
        assert_eq!(
            chosen(
                br#"<meta http-equiv="Content-Type" content="text/html; charset=windows-1251">"#,
                None
            ),
            ("windows-1251", CharsetSource::MetaTag)
        );
        // `content` without the http-equiv pragma declares nothing.
        assert_eq!(
            chosen(br#"<meta content="text/html; charset=windows-1251">"#, None),
            ("UTF-8", CharsetSource::Utf8Detected)
        );
    }

    #[test]
    fn meta_prescan_skips_comments_and_quoted_attributes() {
        assert_eq!(
            chosen(b"<!-- <meta charset=koi8-r> --><meta charset=gbk>", None),
            ("GBK", CharsetSource::MetaTag)
        );
        assert_eq!(
            chosen(
                b"<div title='<meta charset=koi8-r>'><meta charset=big5>",
                None
            ),
            ("Big5", CharsetSource::MetaTag)
        );
    }

    #[test]
    fn meta_cannot_declare_utf16() {
        assert_eq!(
            chosen(b"<meta charset=utf-16le>", None),
            ("UTF-8", CharsetSource::MetaTag)
        );
    }

    #[test]
    fn meta_after_1024_bytes_is_not_read() {
        let mut body = vec![b' '; 1100];
        body.extend_from_slice(b"<meta charset=koi8-r>");
        assert_eq!(chosen(&body, None), ("UTF-8", CharsetSource::Utf8Detected));
    }

    #[test]
    fn undeclared_non_utf8_falls_back_to_windows_1252() {
        assert_eq!(
            chosen(b"<p>caf\xE9</p>", None),
            ("windows-1252", CharsetSource::Fallback)
        );
        // A multi-byte character cut by the body bound is still UTF-8.
        assert_eq!(
            chosen(b"<p>caf\xC3", None),
            ("UTF-8", CharsetSource::Utf8Detected)
        );
    }

    #[test]
    fn a_late_declaration_overrides_only_a_guess() {
        let guess = decode(b"caf\xE9!", None);
        assert_eq!(guess.source, CharsetSource::Fallback);
        assert_eq!(
            declared_over_guess(&guess, " Shift_JIS "),
            Some(encoding_rs::SHIFT_JIS)
        );
        assert_eq!(declared_over_guess(&guess, "utf-16"), Some(UTF_8));
        assert_eq!(declared_over_guess(&guess, "nonsense"), None);
        let ct = parse_content_type("text/html; charset=utf-8");
        let declared = decode(b"caf", ct.as_ref());
        assert_eq!(declared_over_guess(&declared, "shift_jis"), None);
        let redecoded = decode_as_declared(b"\x93\xfa", encoding_rs::SHIFT_JIS);
        assert_eq!(
            (redecoded.text.as_ref(), redecoded.source),
            ("日", CharsetSource::MetaTag)
        );
    }

    #[test]
    fn decodes_with_the_chosen_encoding() {
        let decoded = decode(b"\xFE\xFF\0<\0p\0>\0\xE9", None);
        assert_eq!(decoded.text, "<p>é");
        let ct = parse_content_type("text/html;charset=windows-1252");
        assert_eq!(decode(b"caf\xE9", ct.as_ref()).text, "café");
    }

    #[test]
    fn content_type_parsing() {
        let ct = parse_content_type("Text/HTML ; Charset = \"utf-8\"").unwrap();
        assert_eq!(ct.essence, "text/html");
        assert_eq!(ct.charset.as_deref(), Some("utf-8"));
        assert_eq!(parse_content_type("nonsense"), None);
        let headers = [
            HeaderLine::new("Content-Type", "text/plain"),
            HeaderLine::new("content-type", "text/html"),
        ];
        assert_eq!(content_type(&headers).unwrap().essence, "text/html");
    }

    #[test]
    fn html_detection() {
        let html = parse_content_type("application/xhtml+xml");
        assert!(is_html(html.as_ref(), b""));
        let pdf = parse_content_type("application/pdf");
        assert!(!is_html(pdf.as_ref(), b"<html>"));
        assert!(is_html(None, b"\n  <!DOCTYPE HTML>"));
        assert!(is_html(None, b"<p>hi"));
        assert!(!is_html(None, b"%PDF-1.7"));
        assert!(!is_html(None, b"<pre"));
    }

    #[test]
    fn charset_from_content_forms() {
        assert_eq!(
            charset_from_content(b"text/html; charset = 'x' ;"),
            Some(&b"x"[..])
        );
        assert_eq!(charset_from_content(b"charset"), None);
        assert_eq!(
            charset_from_content(b"charsetx; charset=y z"),
            Some(&b"y"[..])
        );
        assert_eq!(charset_from_content(b"charset=\"unterminated"), None);
    }
}
