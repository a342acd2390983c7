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
    let bytes = text.as_bytes();
    // One vectorised pass each for everything that would need decoding or normalising; after
    // them only spaces, names, `=` and quotes are left.
    if memchr::memchr3(b'&', b'<', b'\t', bytes).is_some()
        || memchr::memchr2(b'\n', b'\r', bytes).is_some()
    {
        return None;
    }
    let mut values = [None; N];
    let mut at = 0;
    loop {
        let gap = spaces(bytes, at);
        at += gap;
        if at >= bytes.len() {
            return Some(values);
        }
        if gap == 0 && at > 0 {
            // Attributes must be separated by white space.
            return None;
        }
        // Names are short: a plain loop beats setting up a search.
        let mut name_end = at;
        while let Some(&byte) = bytes.get(name_end) {
            if matches!(byte, b'=' | b' ' | b'"' | b'\'' | b'/' | b'>') {
                break;
            }
            name_end += 1;
        }
        if name_end == at {
            return None;
        }
        let name = text.get(at..name_end)?;
        at = name_end;
        at += spaces(bytes, at);
        if bytes.get(at) != Some(&b'=') {
            return None;
        }
        at += 1;
        at += spaces(bytes, at);
        let quote = *bytes.get(at).filter(|&&b| b == b'"' || b == b'\'')?;
        at += 1;
        let value_len = memchr::memchr(quote, bytes.get(at..)?)?;
        let value = text.get(at..at + value_len)?;
        at += value_len + 1;
        if let Some(slot) = names
            .iter()
            .position(|wanted| same(wanted.as_bytes(), name.as_bytes()))
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

/// How many spaces start `bytes[at..]` (tabs and line breaks were ruled out before).
fn spaces(bytes: &[u8], at: usize) -> usize {
    let mut end = at;
    while bytes.get(end) == Some(&b' ') {
        end += 1;
    }
    end - at
}

/// Byte equality of two short strings, inlined (a `memcmp` call costs more than the compare).
#[inline]
fn same(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x == y)
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
