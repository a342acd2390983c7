//! Physical lines of a robots.txt as parsers see them: LF, CR and CRLF all end a line.

/// The lines of `body`, without their ends. A final line end does not start another line.
pub fn split_lines(body: &[u8]) -> impl Iterator<Item = &[u8]> {
    split_lines_with_ends(body).map(|(line, _end)| line)
}

/// The lines of `body`, each with the bytes that ended it (`\n`, `\r\n`, `\r`, or nothing for a
/// last line without one): joined back, they are `body` byte for byte.
pub fn split_lines_with_ends(body: &[u8]) -> impl Iterator<Item = (&[u8], &[u8])> {
    let mut rest = body;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        let Some(at) = memchr::memchr2(b'\n', b'\r', rest) else {
            let line = rest;
            rest = &[];
            return Some((line, &[][..]));
        };
        let end_len = if rest[at] == b'\r' && rest.get(at + 1) == Some(&b'\n') {
            2
        } else {
            1
        };
        let (line, after) = rest.split_at(at);
        let (end, after) = after.split_at(end_len);
        rest = after;
        Some((line, end))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_split_on_lf_cr_and_crlf() {
        let lines: Vec<&[u8]> = split_lines(b"a\r\nb\rc\nd").collect();
        assert_eq!(lines, [&b"a"[..], b"b", b"c", b"d"]);
        assert_eq!(split_lines(b"a\n").count(), 1);
        assert_eq!(split_lines(b"").count(), 0);
        assert_eq!(split_lines(b"\n\n").count(), 2);
    }

    #[test]
    fn lines_with_their_ends_join_back_to_the_body() {
        for body in [&b"a\r\nb\rc\nd"[..], b"a\n", b"", b"\r\r\n\n", b"x"] {
            let joined: Vec<u8> = split_lines_with_ends(body)
                .flat_map(|(line, end)| line.iter().chain(end).copied())
                .collect();
            assert_eq!(joined, body);
        }
    }
}
