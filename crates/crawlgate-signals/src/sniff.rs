//! Whether a body labelled `Content-Type: text/html` is HTML at all, decided from its first bytes
//! with the signatures of the WHATWG MIME Sniffing standard (§7.1 "Identifying a resource with an
//! unknown MIME type", §6 "Matching a MIME type pattern", §7.2 "Sniffing a mislabeled binary
//! resource", §7.3 "Sniffing a mislabeled feed").
//!
//! What counts as *not HTML* ([`not_html`]), tried in this order on the body after a UTF-8 byte
//! order mark and leading white space (tab, LF, FF, CR, space):
//!
//! 1. A file signature at byte 0 (before any white space): PDF `%PDF-`, PostScript
//!    `%!PS-Adobe-`, PNG, JPEG, GIF (`GIF87a`, `GIF89a`), WebP, ICO/CUR, gzip, ZIP, RAR,
//!    WOFF/WOFF2, MP4 (`ftyp` box), WebM/Matroska, Ogg. These byte sequences cannot begin an
//!    HTML document.
//! 2. Markup (`<` first): only a feed or an XML document whose root element is not HTML. A feed
//!    is the standard's §7.3 (`<rss`, `<feed`, or `<rdf:RDF` with the RSS 1.0 namespaces, after
//!    comments, processing instructions and declarations). Otherwise, a body that begins with an
//!    XML declaration `<?xml` is XML when its first element is neither `html` nor one of the
//!    standard's HTML signature elements (`head`, `body`, `script`, `div`, `p`, …): XHTML served
//!    as `text/html` (`<?xml …?><!DOCTYPE html …><html …>`) is HTML. Any other markup is HTML.
//! 3. JSON: an object or array (`{` or `[` first) that reads as JSON to its end, or up to where
//!    the body stops (a body cut by the crawler's cap).
//! 4. Binary data: one of the standard's *binary data bytes* (0x00–0x08, 0x0B, 0x0E–0x1A,
//!    0x1C–0x1F) within the first 1,445 bytes (the standard's resource header), unless the
//!    body starts with a UTF-16 byte order mark or the `Content-Type` charset is UTF-16 (HTML
//!    in UTF-16 is full of zero bytes).
//!
//! Never *not HTML*: an empty or white-space-only body (that is an empty page, not another
//! format), a body starting with a UTF-16 byte order mark, any markup that is not a feed or
//! non-HTML XML (a doctype, a comment, a tag, with or without a BOM or leading white space), and
//! plain text without binary bytes (browsers render it as an HTML document).

use super::types::{BodyKind, NotHtml};

/// The standard's resource header: the bytes sniffing looks at.
const RESOURCE_HEADER: usize = 1445;

/// Signatures matched at byte 0: the pattern, a mask (`0xFF` = exact, `0x00` = any byte), the
/// kind. Masks follow the standard's tables.
const SIGNATURES: &[(&[u8], &[u8], BodyKind)] = &[
    (b"%PDF-", b"\xFF\xFF\xFF\xFF\xFF", BodyKind::Pdf),
    (
        b"%!PS-Adobe-",
        b"\xFF\xFF\xFF\xFF\xFF\xFF\xFF\xFF\xFF\xFF\xFF",
        BodyKind::PostScript,
    ),
    (
        b"\x89PNG\r\n\x1A\n",
        b"\xFF\xFF\xFF\xFF\xFF\xFF\xFF\xFF",
        BodyKind::Png,
    ),
    (b"\xFF\xD8\xFF", b"\xFF\xFF\xFF", BodyKind::Jpeg),
    (b"GIF87a", b"\xFF\xFF\xFF\xFF\xFF\xFF", BodyKind::Gif),
    (b"GIF89a", b"\xFF\xFF\xFF\xFF\xFF\xFF", BodyKind::Gif),
    (
        b"RIFF\0\0\0\0WEBPVP",
        b"\xFF\xFF\xFF\xFF\0\0\0\0\xFF\xFF\xFF\xFF\xFF\xFF",
        BodyKind::Webp,
    ),
    (b"\0\0\x01\0", b"\xFF\xFF\xFF\xFF", BodyKind::Icon),
    (b"\0\0\x02\0", b"\xFF\xFF\xFF\xFF", BodyKind::Icon),
    (b"\x1F\x8B\x08", b"\xFF\xFF\xFF", BodyKind::Gzip),
    (b"PK\x03\x04", b"\xFF\xFF\xFF\xFF", BodyKind::Zip),
    (
        b"Rar!\x1A\x07\0",
        b"\xFF\xFF\xFF\xFF\xFF\xFF\xFF",
        BodyKind::Rar,
    ),
    (b"wOFF", b"\xFF\xFF\xFF\xFF", BodyKind::Font),
    (b"wOF2", b"\xFF\xFF\xFF\xFF", BodyKind::Font),
    (b"\0\0\0\0ftyp", b"\0\0\0\0\xFF\xFF\xFF\xFF", BodyKind::Mp4),
    (b"\x1A\x45\xDF\xA3", b"\xFF\xFF\xFF\xFF", BodyKind::Webm),
    (b"OggS\0", b"\xFF\xFF\xFF\xFF\xFF", BodyKind::Ogg),
];

/// The standard's HTML signature elements (§7.1, "The HTML signatures" after `<!DOCTYPE HTML`),
/// plus `html`: a document whose first element is one of these is HTML.
const HTML_ELEMENTS: &[&str] = &[
    "html", "head", "script", "iframe", "h1", "div", "font", "table", "a", "style", "title", "b",
    "body", "br", "p",
];

/// What a body labelled `text/html` holds instead of HTML, if anything (see the module docs).
/// `utf16_declared`: the `Content-Type` charset names UTF-16.
pub(crate) fn not_html(body: &[u8], utf16_declared: bool) -> Option<NotHtml> {
    if let Some(found) = signature(body) {
        return Some(found);
    }
    if body.starts_with(b"\xFE\xFF") || body.starts_with(b"\xFF\xFE") {
        return None;
    }
    let unmarked = body.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(body);
    let start = unmarked
        .iter()
        .position(|b| !is_white(*b))
        .unwrap_or(unmarked.len());
    let rest = &unmarked[start..];
    match rest.first() {
        None => None,
        Some(b'<') => markup(rest),
        Some(b'{' | b'[') if is_json(rest) => Some(NotHtml {
            kind: BodyKind::Json,
            evidence: format!("starts with `{}`", quote(rest, 24)),
        }),
        Some(_) if utf16_declared => None,
        Some(_) => binary(body),
    }
}

fn is_white(byte: u8) -> bool {
    matches!(byte, b'\t' | b'\n' | b'\x0C' | b'\r' | b' ')
}

fn signature(body: &[u8]) -> Option<NotHtml> {
    SIGNATURES.iter().find_map(|(pattern, mask, kind)| {
        let head = body.get(..pattern.len())?;
        let matches = head
            .iter()
            .zip(pattern.iter().zip(mask.iter()))
            .all(|(byte, (want, mask))| byte & mask == want & mask);
        matches.then(|| NotHtml {
            kind: *kind,
            evidence: format!("starts with the bytes {}", hex(head)),
        })
    })
}

/// A body starting with `<`: a feed or non-HTML XML, else HTML (`None`).
fn markup(rest: &[u8]) -> Option<NotHtml> {
    let declared_xml = rest.len() > 5 && rest[..5].eq_ignore_ascii_case(b"<?xml");
    let mut at = 0;
    // Skip comments, processing instructions (the XML declaration) and declarations (doctype),
    // as §7.3 does, then read the first element's name.
    loop {
        while rest.get(at).copied().is_some_and(is_white) {
            at += 1;
        }
        let tail = rest.get(at..)?;
        if tail.starts_with(b"<!--") {
            at += 4 + find(&tail[4..], b"-->")? + 3;
        } else if tail.starts_with(b"<!") {
            at += 2 + find(&tail[2..], b">")? + 1;
        } else if tail.starts_with(b"<?") {
            at += 2 + find(&tail[2..], b"?>")? + 2;
        } else if tail.starts_with(b"<") {
            let name_len = tail[1..]
                .iter()
                .position(|b| is_white(*b) || matches!(b, b'>' | b'/'))
                .unwrap_or(tail.len() - 1);
            let name = &tail[1..=name_len];
            return root_element(name, &tail[1 + name_len..], declared_xml);
        } else {
            // Text before any element: not a feed, not an XML document.
            return None;
        }
    }
}

/// The verdict on the first element `name`, `after` being the bytes after its name.
fn root_element(name: &[u8], after: &[u8], declared_xml: bool) -> Option<NotHtml> {
    let text = String::from_utf8_lossy(name);
    let feed = if name == b"rss" {
        Some(BodyKind::RssFeed)
    } else if name == b"feed" {
        Some(BodyKind::AtomFeed)
    } else if name == b"rdf:RDF" {
        // §7.3: RSS 1.0 is an RDF document naming both namespaces.
        let tag_end = find(after, b">").unwrap_or(after.len());
        let tag = &after[..tag_end];
        (find(tag, b"http://purl.org/rss/1.0/").is_some()
            && find(tag, b"http://www.w3.org/1999/02/22-rdf-syntax-ns#").is_some())
        .then_some(BodyKind::RssFeed)
    } else {
        None
    };
    if let Some(kind) = feed {
        return Some(NotHtml {
            kind,
            evidence: format!("its root element is `<{text}>`"),
        });
    }
    let html = HTML_ELEMENTS
        .iter()
        .any(|element| name.eq_ignore_ascii_case(element.as_bytes()));
    (declared_xml && !html && !name.is_empty()).then(|| NotHtml {
        kind: BodyKind::Xml,
        evidence: format!("it starts with an XML declaration and its root element is `<{text}>`"),
    })
}

/// An object or array that reads as JSON to the body's end (or to where the body stops).
fn is_json(rest: &[u8]) -> bool {
    let mut values =
        serde_json::Deserializer::from_slice(rest).into_iter::<serde::de::IgnoredAny>();
    match values.next() {
        Some(Ok(_)) => rest[values.byte_offset()..].iter().all(|b| is_white(*b)),
        Some(Err(error)) => error.is_eof(),
        None => false,
    }
}

/// A binary data byte within the resource header, as the standard defines them.
fn binary(body: &[u8]) -> Option<NotHtml> {
    let header = &body[..body.len().min(RESOURCE_HEADER)];
    let offset = header
        .iter()
        .position(|b| matches!(b, 0x00..=0x08 | 0x0B | 0x0E..=0x1A | 0x1C..=0x1F))?;
    Some(NotHtml {
        kind: BodyKind::Binary,
        evidence: format!("byte 0x{:02X} at offset {offset}", header[offset]),
    })
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    memchr::memmem::find(haystack, needle)
}

/// `bytes` as `25 50 44 46 2D`.
fn hex(bytes: &[u8]) -> String {
    bytes
        .iter()
        .map(|b| format!("{b:02X}"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The first `max` characters of `bytes` as text, `…` when cut, control characters escaped.
fn quote(bytes: &[u8], max: usize) -> String {
    let text = String::from_utf8_lossy(&bytes[..bytes.len().min(max * 4)]);
    let mut out: String = text
        .chars()
        .take(max)
        .flat_map(|c| {
            let escaped: Vec<char> = if c.is_control() {
                c.escape_debug().collect()
            } else {
                vec![c]
            };
            escaped
        })
        .collect();
    if text.chars().count() > max || bytes.len() > max * 4 {
        out.push('…');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kind(body: &[u8]) -> Option<BodyKind> {
        not_html(body, false).map(|found| found.kind)
    }

    #[test]
    fn real_html_is_html_whatever_comes_first() {
        for body in [
            &b""[..],
            b"   \n\t ",
            b"<!doctype html><title>x</title>",
            b"\xEF\xBB\xBF<!DOCTYPE html><html><body>hi</body></html>",
            b"\n\n  <!-- generated --><html lang=en>",
            b"<html>",
            b"<p>only a paragraph",
            b"<?xml version=\"1.0\"?>\n<!DOCTYPE html PUBLIC \"-//W3C//DTD XHTML 1.0 Strict//EN\" \"x\">\n<html xmlns=\"http://www.w3.org/1999/xhtml\">",
            b"<?xml version=\"1.0\"?><HTML>",
            b"<?xml version=\"1.0\"?><!-- c --><body>",
            b"<svg><path/></svg>",
            b"Hello, plain text rendered as HTML.",
            b"[an error] <b>bold</b>",
            b"{{ template }} <div>",
            b"\xFF\xFE<\0h\0t\0m\0l\0>\0",
            b"\xFE\xFF\0<\0h\0t\0m\0l\0>",
            b"BMW cars: <a href=/x>x</a>",
            b"\xEF\xBB\xBF",
            b"<!-- unterminated comment",
        ] {
            assert_eq!(kind(body), None, "{:?}", String::from_utf8_lossy(body));
        }
        // HTML in UTF-16 without a BOM, the charset declared.
        assert_eq!(not_html(b"h\0e\0l\0l\0o\0", true), None);
    }

    #[test]
    fn file_signatures_are_not_html() {
        assert_eq!(kind(b"%PDF-1.7\n%\xE2\xE3"), Some(BodyKind::Pdf));
        assert_eq!(kind(b"\x89PNG\r\n\x1A\n\0\0\0\rIHDR"), Some(BodyKind::Png));
        assert_eq!(kind(b"\xFF\xD8\xFF\xE0\0\x10JFIF"), Some(BodyKind::Jpeg));
        assert_eq!(kind(b"GIF89a\x01\0\x01\0"), Some(BodyKind::Gif));
        assert_eq!(kind(b"RIFF\x24\0\0\0WEBPVP8 "), Some(BodyKind::Webp));
        assert_eq!(kind(b"\x1F\x8B\x08\0\0\0\0\0"), Some(BodyKind::Gzip));
        assert_eq!(kind(b"PK\x03\x04\x14\0"), Some(BodyKind::Zip));
        assert_eq!(kind(b"\0\0\0\x20ftypisom"), Some(BodyKind::Mp4));
        assert_eq!(kind(b"wOF2\0\x01"), Some(BodyKind::Font));
        let found = not_html(b"%PDF-1.4", false).unwrap();
        assert_eq!(found.evidence, "starts with the bytes 25 50 44 46 2D");
    }

    #[test]
    fn feeds_xml_and_json_are_not_html() {
        assert_eq!(
            kind(b"<?xml version=\"1.0\"?>\n<rss version=\"2.0\">"),
            Some(BodyKind::RssFeed)
        );
        assert_eq!(
            kind(b"<feed xmlns=\"http://www.w3.org/2005/Atom\">"),
            Some(BodyKind::AtomFeed)
        );
        assert_eq!(
            kind(b"<rdf:RDF xmlns=\"http://purl.org/rss/1.0/\" xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\">"),
            Some(BodyKind::RssFeed)
        );
        assert_eq!(kind(b"<rdf:RDF xmlns:rdf=\"x\">"), None);
        assert_eq!(
            kind(b"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">"),
            Some(BodyKind::Xml)
        );
        // Without the declaration, an unknown root is left to HTML (custom elements exist).
        assert_eq!(kind(b"<urlset>"), None);
        assert_eq!(
            kind(b"  {\"error\": \"not found\", \"code\": 404}\n"),
            Some(BodyKind::Json)
        );
        assert_eq!(kind(b"[1, 2, {\"a\": null}]"), Some(BodyKind::Json));
        // Cut by the crawler's cap: JSON as far as it goes.
        assert_eq!(
            kind(b"{\"items\": [{\"id\": 1}, {\"id\""),
            Some(BodyKind::Json)
        );
        let found = not_html(b"{\"ok\":true}", false).unwrap();
        assert_eq!(found.evidence, "starts with `{\"ok\":true}`");
    }

    #[test]
    fn binary_bytes_in_the_resource_header_are_not_html() {
        let found = not_html(b"MZ\x90\0\x03\0\0\0", false).unwrap();
        assert_eq!(found.kind, BodyKind::Binary);
        assert_eq!(found.evidence, "byte 0x00 at offset 3");
        // Past the resource header, a stray byte does not count.
        let mut late = vec![b'a'; RESOURCE_HEADER];
        late.push(0);
        assert_eq!(kind(&late), None);
    }

    #[test]
    fn hostile_bodies_do_not_panic() {
        for body in [
            &b"<"[..],
            b"<?",
            b"<!",
            b"<?xml",
            b"<?xml?><",
            b"{",
            b"[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[",
            b"\xEF\xBB",
            b"RIFF",
        ] {
            let _ = not_html(body, false);
        }
    }
}
