//! A fast path for reading the few attributes sitemaps use (`xhtml:link`'s `rel`, `hreflang`,
//! `href`; Atom's `link`): plain quoted values need no decoding, and quick-xml's general
//! attribute iterator with value normalisation was a tenth of the 50 MB benchmark. Anything
//! unusual — an entity, a tab or newline in a value, a syntax quirk — returns `None`, and the
//! caller uses quick-xml's iterator, so results and errors are quick-xml's in every other case.

/// One plain attribute: where its name and value are, as `(start, end)` byte offsets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Plain {
    pub(crate) name: (usize, usize),
    pub(crate) value: (usize, usize),
}

/// Reads every attribute of `text` (the part of a start tag after its name) into `out`, with
/// offsets from the start of `text` plus `base`, when all are plain `name="value"` or
/// `name='value'` with nothing to decode. Returns `false` otherwise (`out` may then hold some).
pub(crate) fn read_plain(text: &str, base: usize, out: &mut Vec<Plain>) -> bool {
    let bytes = text.as_bytes();
    // One vectorised pass each for everything that would need decoding or normalising; after
    // them only spaces, names, `=` and quotes are left.
    if memchr::memchr3(b'&', b'<', b'\t', bytes).is_some()
        || memchr::memchr2(b'\n', b'\r', bytes).is_some()
    {
        return false;
    }
    let mut at = 0;
    loop {
        let gap = spaces(bytes, at);
        at += gap;
        if at >= bytes.len() {
            return true;
        }
        if gap == 0 && at > 0 {
            // Attributes must be separated by white space.
            return false;
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
            return false;
        }
        let name = (base + at, base + name_end);
        at = name_end;
        at += spaces(bytes, at);
        if bytes.get(at) != Some(&b'=') {
            return false;
        }
        at += 1;
        at += spaces(bytes, at);
        let Some(&quote) = bytes.get(at).filter(|&&b| b == b'"' || b == b'\'') else {
            return false;
        };
        at += 1;
        let Some(value_len) = bytes.get(at..).and_then(|rest| memchr::memchr(quote, rest)) else {
            return false;
        };
        out.push(Plain {
            name,
            value: (base + at, base + at + value_len),
        });
        at += value_len + 1;
    }
}

/// The values of the attributes named in `names` among `list` (offsets into `text`); `None`
/// when one of them is repeated (left to quick-xml).
pub(crate) fn lookup<'t, const N: usize>(
    text: &'t str,
    list: &[Plain],
    names: [&str; N],
) -> Option<[Option<&'t str>; N]> {
    let mut values = [None; N];
    let bytes = text.as_bytes();
    for attribute in list {
        let name = bytes.get(attribute.name.0..attribute.name.1)?;
        if let Some(slot) = names
            .iter()
            .position(|wanted| same(wanted.as_bytes(), name))
            .and_then(|index| values.get_mut(index))
        {
            if slot.is_some() {
                return None;
            }
            *slot = Some(text.get(attribute.value.0..attribute.value.1)?);
        }
    }
    Some(values)
}

/// The raw values of the attributes named in `names`, when every attribute of `text` is plain
/// ([`read_plain`]); `None` otherwise.
#[cfg(test)]
fn plain_values<'t, const N: usize>(
    text: &'t str,
    names: [&str; N],
) -> Option<[Option<&'t str>; N]> {
    let mut list = Vec::new();
    if !read_plain(text, 0, &mut list) {
        return None;
    }
    lookup(text, &list, names)
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
