//! A bound on attributes per tag, applied before any parser sees the page. Both readers check
//! each new attribute against the tag's earlier ones (the HTML standard keeps the first of a
//! name), which is quadratic in the attributes of one tag: a tag flooded with 100,000 of them
//! took seconds to minutes. Past [`MAX_ATTRIBUTES`](crate::limits::MAX_ATTRIBUTES) the rest of
//! the tag is blanked (spaces, line breaks kept), so every byte offset and line number stays
//! what it was, and the page's signals are marked truncated.

use crate::limits::MAX_ATTRIBUTES;
use std::borrow::Cow;

/// `text` with every tag's attributes past the cap blanked, and whether any were.
pub(crate) fn cap_attributes(text: &str) -> (Cow<'_, str>, bool) {
    let bytes = text.as_bytes();
    let mut blanks: Vec<(usize, usize)> = Vec::new();
    let mut at = 0;
    while let Some(offset) = memchr::memchr(b'<', &bytes[at..]) {
        let open = at + offset;
        at = open + 1;
        if !bytes.get(at).is_some_and(u8::is_ascii_alphabetic) {
            continue;
        }
        let (end, cut) = tag_end(bytes, at);
        if let Some(cut) = cut {
            // The tag's own end (`>` or `/>`) stays.
            let mut stop = end;
            if bytes.get(stop - 1) == Some(&b'>') {
                stop -= 1;
                if stop > cut && bytes.get(stop - 1) == Some(&b'/') {
                    stop -= 1;
                }
            }
            blanks.push((cut, stop.max(cut)));
        }
        at = end;
    }
    if blanks.is_empty() {
        return (Cow::Borrowed(text), false);
    }
    let mut out = bytes.to_vec();
    for (from, to) in blanks {
        for byte in &mut out[from..to] {
            if *byte != b'\n' && *byte != b'\r' {
                *byte = b' ';
            }
        }
    }
    // Only ASCII bytes became spaces, and whole characters went with them: a UTF-8 sequence's
    // bytes are all non-ASCII and lie inside one blanked span or outside all of them.
    let capped = String::from_utf8(out)
        .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
    (Cow::Owned(capped), true)
}

/// From just after `<` and the first letter of a tag name: where the tag ends (after `>`, or
/// the end of the text), and where its attributes past the cap start, if it has more. Follows
/// the tokenizer's attribute states closely enough to find the end: a `>` inside a quoted value
/// does not end the tag.
fn tag_end(bytes: &[u8], mut at: usize) -> (usize, Option<usize>) {
    let space = |b: u8| matches!(b, b' ' | b'\t' | b'\n' | b'\r' | b'\x0c');
    while at < bytes.len() && !space(bytes[at]) && bytes[at] != b'/' && bytes[at] != b'>' {
        at += 1;
    }
    let mut count = 0;
    let mut cut = None;
    loop {
        while at < bytes.len() && (space(bytes[at]) || bytes[at] == b'/') {
            at += 1;
        }
        match bytes.get(at) {
            None => return (bytes.len(), cut),
            Some(b'>') => return (at + 1, cut),
            Some(_) => {}
        }
        count += 1;
        if count > MAX_ATTRIBUTES && cut.is_none() {
            cut = Some(at);
        }
        // The name (a leading `=` is part of it).
        at += 1;
        while at < bytes.len() && !space(bytes[at]) && !matches!(bytes[at], b'/' | b'>' | b'=') {
            at += 1;
        }
        let mut after = at;
        while after < bytes.len() && space(bytes[after]) {
            after += 1;
        }
        if bytes.get(after) != Some(&b'=') {
            continue;
        }
        at = after + 1;
        while at < bytes.len() && space(bytes[at]) {
            at += 1;
        }
        match bytes.get(at) {
            Some(&quote @ (b'"' | b'\'')) => {
                at =
                    memchr::memchr(quote, &bytes[at + 1..]).map_or(bytes.len(), |n| at + 1 + n + 1);
            }
            _ => {
                while at < bytes.len() && !space(bytes[at]) && bytes[at] != b'>' {
                    at += 1;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_under_the_cap_are_left_as_they_are() {
        let text = "<meta name=robots content=\"a > b\"><p class='x' id=y>ok</p><!-- <a b> -->";
        let (capped, changed) = cap_attributes(text);
        assert!(!changed);
        assert!(matches!(capped, Cow::Borrowed(_)));
    }

    #[test]
    fn attributes_past_the_cap_become_spaces_and_keep_offsets_and_lines() {
        let flood: Vec<String> = (0..MAX_ATTRIBUTES + 50)
            .map(|n| format!(" a{n}=\"v>\"\n"))
            .collect();
        let flood = flood.concat();
        let text =
            format!("<meta name=robots content=noindex{flood}><link rel=canonical href=/x>é");
        let (capped, changed) = cap_attributes(&text);
        assert!(changed);
        assert_eq!(capped.len(), text.len());
        assert_eq!(capped.matches('\n').count(), text.matches('\n').count());
        // The tag's first attributes and everything after the tag are untouched.
        assert!(capped.starts_with("<meta name=robots content=noindex a0=\"v>\""));
        assert!(capped.ends_with("><link rel=canonical href=/x>é"));
        // `name` and `content` are the first two: `a0` is the third.
        let kept = MAX_ATTRIBUTES - 3;
        assert!(capped.contains(&format!("a{kept}=")));
        assert!(!capped.contains(&format!("a{}=", kept + 1)));
    }
}
