//! Character references in attribute values, decoded exactly as html5ever's tokenizer does
//! (same named-entity table, same historical rule for unterminated references in attributes).

use html5ever::data::{C1_REPLACEMENTS, NAMED_ENTITIES};
use std::borrow::Cow;

/// Decodes an attribute value as the tokenizer would: character references, NUL → U+FFFD, and
/// line breaks normalised (`\r\n` and `\r` → `\n`). Borrows when there is nothing to do.
pub(crate) fn decode_attribute(value: &str) -> Cow<'_, str> {
    if !value.contains(['&', '\0', '\r']) {
        return Cow::Borrowed(value);
    }
    let mut out = String::with_capacity(value.len());
    let mut rest = value;
    while let Some(index) = rest.find(['&', '\0', '\r']) {
        out.push_str(rest.get(..index).unwrap_or_default());
        let special = rest.get(index..).unwrap_or_default();
        rest = match special.as_bytes().first() {
            Some(b'\0') => {
                out.push('\u{FFFD}');
                special.get(1..).unwrap_or_default()
            }
            Some(b'\r') => {
                out.push('\n');
                let after = special.get(1..).unwrap_or_default();
                after.strip_prefix('\n').unwrap_or(after)
            }
            _ => {
                let after = special.get(1..).unwrap_or_default();
                if let Some((chars, consumed)) = char_reference(after) {
                    out.extend(chars);
                    after.get(consumed..).unwrap_or_default()
                } else {
                    out.push('&');
                    after
                }
            }
        };
    }
    out.push_str(rest);
    Cow::Owned(out)
}

/// The reference starting right after `&`: its characters and how many bytes it used.
fn char_reference(text: &str) -> Option<(CharRef, usize)> {
    match text.as_bytes().first()? {
        b'#' => numeric(text),
        b if b.is_ascii_alphanumeric() => named(text),
        _ => None,
    }
}

/// Up to two characters.
type CharRef = std::iter::Flatten<std::array::IntoIter<Option<char>, 2>>;

fn chars(first: char, second: Option<char>) -> CharRef {
    [Some(first), second].into_iter().flatten()
}

/// `&#38;`, `&#x26;` (the `;` is optional). Invalid values become U+FFFD; C1 controls map to
/// windows-1252 characters.
fn numeric(text: &str) -> Option<(CharRef, usize)> {
    let bytes = text.as_bytes();
    let (radix, digits_start) = match bytes.get(1) {
        Some(b'x' | b'X') => (16, 2),
        _ => (10, 1),
    };
    let digits = bytes
        .get(digits_start..)?
        .iter()
        .take_while(|b| (**b as char).is_digit(radix))
        .count();
    if digits == 0 {
        return None;
    }
    let mut value: u32 = 0;
    let mut too_big = false;
    for byte in bytes.get(digits_start..digits_start + digits)? {
        let digit = (*byte as char).to_digit(radix).unwrap_or(0);
        value = value.wrapping_mul(radix).wrapping_add(digit);
        too_big |= value > 0x10_FFFF;
    }
    let mut consumed = digits_start + digits;
    if bytes.get(consumed) == Some(&b';') {
        consumed += 1;
    }
    let decoded = match value {
        _ if too_big => '\u{FFFD}',
        0 | 0xD800..=0xDFFF => '\u{FFFD}',
        0x80..=0x9F => C1_REPLACEMENTS
            .get(usize::try_from(value - 0x80).ok()?)
            .copied()
            .flatten()
            .or_else(|| char::from_u32(value))
            .unwrap_or('\u{FFFD}'),
        _ => char::from_u32(value).unwrap_or('\u{FFFD}'),
    };
    Some((chars(decoded, None), consumed))
}

/// The longest named reference (`&amp;`, `&not`, `&notin;`). In attributes, one without `;`
/// followed by `=` or an alphanumeric is left as written (`?a=1&copy=2` keeps `&copy`).
fn named(text: &str) -> Option<(CharRef, usize)> {
    let mut best: Option<((u32, u32), usize)> = None;
    for (index, c) in text.char_indices() {
        let end = index + c.len_utf8();
        match NAMED_ENTITIES.get(text.get(..end)?) {
            Some(&(0, _)) => {}
            Some(&found) => best = Some((found, end)),
            None => break,
        }
    }
    let ((first, second), length) = best?;
    let terminated = text.as_bytes().get(length - 1) == Some(&b';');
    let next = text.as_bytes().get(length);
    if !terminated && next.is_some_and(|b| *b == b'=' || b.is_ascii_alphanumeric()) {
        return None;
    }
    let first = char::from_u32(first)?;
    let second = (second != 0).then(|| char::from_u32(second)).flatten();
    Some((chars(first, second), length))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_like_the_tokenizer() {
        let cases = [
            ("plain", "plain"),
            ("a&amp;b", "a&b"),
            ("a&ampb", "a&ampb"),
            ("?x=1&copy=2", "?x=1&copy=2"),
            ("&copy 2024", "© 2024"),
            ("&not;&notin;&notit", "¬∉&notit"),
            ("&#38;&#x26&#X26;", "&&&"),
            ("&#;&#x;&", "&#;&#x;&"),
            ("&#0;&#xD800;&#x110000;", "\u{FFFD}\u{FFFD}\u{FFFD}"),
            ("&#128;&#x81;", "€\u{81}"),
            ("&unknown;", "&unknown;"),
            ("&NotNestedGreaterGreater;", "\u{2AA2}\u{338}"),
            ("a\0b", "a\u{FFFD}b"),
            ("a\r\nb\rc", "a\nb\nc"),
            ("&#99999999999999999999;", "\u{FFFD}"),
        ];
        for (input, expected) in cases {
            assert_eq!(decode_attribute(input), expected, "{input:?}");
        }
        assert!(matches!(decode_attribute("none"), Cow::Borrowed(_)));
    }
}
