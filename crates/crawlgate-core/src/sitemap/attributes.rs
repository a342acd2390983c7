//! A fast path for reading the few attributes sitemaps use (`xhtml:link`'s `rel`, `hreflang`,
//! `href`; Atom's `link`): plain quoted values need no decoding, and quick-xml's general
//! attribute iterator with value normalisation was a tenth of the 50 MB benchmark. Anything
//! unusual — an entity, a tab or newline in a value, a syntax quirk — returns `None`, and the
//! caller uses quick-xml's iterator, so results and errors are quick-xml's in every other case.

/// The raw values of the attributes named in `names`, when every attribute of `text` (the part
/// of a start tag after its name) is plain `name="value"` or `name='value'` with nothing to
/// decode; `None` otherwise.
pub(crate) fn plain_values<'t, const N: usize>(
    text: &'t str,
    names: [&str; N],
) -> Option<[Option<&'t str>; N]> {
    // Index loops over a byte-class table, no memchr: the text is a hundred bytes or so, too
    // short to pay for setting up vectorised searches.
    let bytes = text.as_bytes();
    let mut values = [None; N];
    let mut at = 0;
    loop {
        let gap = run(bytes, at, SPACE);
        at += gap;
        if at >= bytes.len() {
            return Some(values);
        }
        if gap == 0 && at > 0 {
            // Attributes must be separated by white space.
            return None;
        }
        let name_len = run(bytes, at, NAME);
        if name_len == 0 {
            return None;
        }
        let name = text.get(at..at + name_len)?;
        at += name_len;
        at += run(bytes, at, SPACE);
        if bytes.get(at) != Some(&b'=') {
            return None;
        }
        at += 1;
        at += run(bytes, at, SPACE);
        let value_class = match bytes.get(at) {
            Some(b'"') => IN_DOUBLE_QUOTES,
            Some(b'\'') => IN_SINGLE_QUOTES,
            _ => return None,
        };
        at += 1;
        let value_len = run(bytes, at, value_class);
        let value = text.get(at..at + value_len)?;
        at += value_len;
        // The value must end at its closing quote, not at something to decode or normalise.
        if bytes.get(at).is_none_or(|&b| class(b) & QUOTE == 0) {
            return None;
        }
        at += 1;
        if let Some(slot) = names
            .iter()
            .position(|wanted| *wanted == name)
            .and_then(|index| values.get_mut(index))
        {
            if slot.is_some() {
                // A repeated attribute: leave it to quick-xml.
                return None;
            }
            *slot = Some(value);
        }
    }
}

/// Byte classes, as bits: a byte belongs to a run while its class has the run's bit.
const SPACE: u8 = 1;
const NAME: u8 = 2;
const IN_DOUBLE_QUOTES: u8 = 4;
const IN_SINGLE_QUOTES: u8 = 8;
const QUOTE: u8 = 16;

const CLASSES: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut byte = 0;
    while byte < 256 {
        // `byte < 256`, so the cast is exact.
        #[allow(clippy::cast_possible_truncation)]
        let b = byte as u8;
        let special = matches!(b, b'&' | b'<' | b'\t' | b'\n' | b'\r');
        let mut class = 0;
        if b == b' ' {
            class |= SPACE;
        }
        if !special && !matches!(b, b' ' | b'=' | b'"' | b'\'' | b'/' | b'>') {
            class |= NAME;
        }
        if !special && b != b'"' {
            class |= IN_DOUBLE_QUOTES;
        }
        if !special && b != b'\'' {
            class |= IN_SINGLE_QUOTES;
        }
        if b == b'"' || b == b'\'' {
            class |= QUOTE;
        }
        table[byte] = class;
        byte += 1;
    }
    table
};

fn class(byte: u8) -> u8 {
    CLASSES.get(usize::from(byte)).copied().unwrap_or(0)
}

/// How many bytes from `at` have `bit` in their class.
fn run(bytes: &[u8], at: usize, bit: u8) -> usize {
    let mut end = at;
    while let Some(&byte) = bytes.get(end) {
        if class(byte) & bit == 0 {
            break;
        }
        end += 1;
    }
    end.saturating_sub(at)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use quick_xml::XmlVersion;
    use quick_xml::events::BytesStart;

    #[test]
    fn plain_values_are_read() {
        let values = plain_values(
            r#" rel="alternate" hreflang='de' href="https://example.com/de/" media="x""#,
            ["rel", "hreflang", "href"],
        );
        assert_eq!(
            values,
            Some([
                Some("alternate"),
                Some("de"),
                Some("https://example.com/de/")
            ])
        );
        assert_eq!(plain_values("", ["href"]), Some([None]));
        assert_eq!(plain_values(" href = \"x\" ", ["href"]), Some([Some("x")]));
    }

    #[test]
    fn anything_unusual_falls_back() {
        for text in [
            r#" href="a&amp;b""#,
            r#" href="a	b""#,
            " href=x",
            r#" href="x"rel="y""#,
            r#" href="unclosed"#,
            " href",
            r#" ="x""#,
            r#" href="a" href="b""#,
        ] {
            assert_eq!(plain_values(text, ["href", "rel"]), None, "{text:?}");
        }
    }

    /// What quick-xml reads from the same attributes, for the wanted names.
    fn quick_xml_values<const N: usize>(
        text: &str,
        names: [&str; N],
    ) -> Option<[Option<String>; N]> {
        let tag = format!("link{text}");
        let start = BytesStart::from_content(tag.as_str(), 4);
        let mut values = [const { None }; N];
        for attribute in start.attributes().with_checks(false) {
            let attribute = attribute.ok()?;
            let value = attribute
                .normalized_value(XmlVersion::Implicit1_0)
                .ok()?
                .into_owned();
            if let Some(index) = names
                .iter()
                .position(|name| *name == attribute.key.as_ref())
            {
                values[index] = Some(value);
            }
        }
        Some(values)
    }

    proptest! {
        /// Whenever the fast path answers, quick-xml agrees.
        #[test]
        fn agrees_with_quick_xml(
            attributes in proptest::collection::vec(
                ("(rel|href|hreflang|media|x:y|[ -~]{1,3})", "[ -~]{0,12}", prop_oneof!["\"", "'"], "[ \t\n]{1,2}"),
                0..5,
            ),
            noise in "[ -~]{0,3}",
        ) {
            let mut text = String::new();
            for (name, value, quote, gap) in &attributes {
                let value = value.replace(quote.as_str(), "");
                text.push_str(gap);
                for part in [name.as_str(), "=", quote, &value, quote] {
                    text.push_str(part);
                }
            }
            text.push_str(&noise);
            let names = ["rel", "href", "hreflang"];
            if let Some(fast) = plain_values(&text, names) {
                let slow = quick_xml_values(&text, names);
                let fast = fast.map(|value| value.map(str::to_owned));
                prop_assert_eq!(Some(fast), slow, "{:?}", text);
            }
        }
    }
}
