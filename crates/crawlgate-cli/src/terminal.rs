//! What reaches a terminal: text from the audited site (a robots.txt line, a URL, a server's
//! message) must not drive it. Every byte the commands write to stdout or stderr goes through
//! [`SafeWriter`], which writes the C0 controls (tab and line feed aside), DEL and the C1 controls
//! (U+0080–U+009F, which some terminals obey as ESC sequences) as visible escapes: `\x1b`,
//! `\u{9b}` in text, `\u001b`, `\u009b` in JSON (where they can only stand inside strings, so the
//! document means the same).

use std::io::{self, Write};

/// How escapes are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Escapes {
    /// `\x1b`, `\u{9b}`: for people.
    Text,
    /// `\u001b`, `\u009b`: for JSON (and JSON lines) output.
    Json,
}

impl Escapes {
    /// JSON escapes for JSON output, text ones otherwise.
    pub(crate) fn of_json(json: bool) -> Self {
        if json { Escapes::Json } else { Escapes::Text }
    }
}

/// A writer that escapes control characters (see the module docs).
pub(crate) struct SafeWriter<W: Write> {
    inner: W,
    escapes: Escapes,
    /// A 0xC2 byte held back: the next byte decides whether it starts a C1 control.
    pending_c2: bool,
}

impl<W: Write> SafeWriter<W> {
    pub(crate) fn new(inner: W, escapes: Escapes) -> Self {
        SafeWriter {
            inner,
            escapes,
            pending_c2: false,
        }
    }

    fn escape(&mut self, code: u32) -> io::Result<()> {
        match self.escapes {
            Escapes::Text if code < 0x80 => write!(self.inner, "\\x{code:02x}"),
            Escapes::Text => write!(self.inner, "\\u{{{code:x}}}"),
            Escapes::Json => write!(self.inner, "\\u{code:04x}"),
        }
    }
}

impl<W: Write> Write for SafeWriter<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let mut clean_from = 0;
        for (at, &byte) in buf.iter().enumerate() {
            if self.pending_c2 {
                self.pending_c2 = false;
                if (0x80..=0x9f).contains(&byte) {
                    self.escape(u32::from(byte))?;
                    clean_from = at + 1;
                    continue;
                }
                self.inner.write_all(&[0xc2])?;
            }
            let control = (byte < 0x20 && byte != b'\n' && byte != b'\t') || byte == 0x7f;
            if control || byte == 0xc2 {
                self.inner.write_all(&buf[clean_from..at])?;
                clean_from = at + 1;
                if control {
                    self.escape(u32::from(byte))?;
                } else {
                    self.pending_c2 = true;
                }
            }
        }
        self.inner.write_all(&buf[clean_from..])?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        if self.pending_c2 {
            self.pending_c2 = false;
            self.inner.write_all(&[0xc2])?;
        }
        self.inner.flush()
    }
}

impl<W: Write> Drop for SafeWriter<W> {
    fn drop(&mut self) {
        let _ = self.flush();
    }
}

/// `text` with its control characters escaped for a terminal.
pub(crate) fn safe(text: &str) -> String {
    let mut out = SafeWriter::new(Vec::with_capacity(text.len()), Escapes::Text);
    let _ = out.write_all(text.as_bytes());
    let _ = out.flush();
    String::from_utf8_lossy(&out.inner).into_owned()
}

/// Standard output, buffered, controls escaped.
pub(crate) fn stdout(escapes: Escapes) -> io::BufWriter<SafeWriter<io::StdoutLock<'static>>> {
    io::BufWriter::new(SafeWriter::new(io::stdout().lock(), escapes))
}

/// `eprintln!` with the controls in the message escaped.
macro_rules! say {
    ($($arg:tt)*) => {
        eprintln!("{}", $crate::terminal::safe(&format!($($arg)*)))
    };
}
pub(crate) use say;

#[cfg(test)]
mod tests {
    use super::*;

    fn written(escapes: Escapes, chunks: &[&[u8]]) -> String {
        let mut out = SafeWriter::new(Vec::new(), escapes);
        for chunk in chunks {
            out.write_all(chunk).unwrap();
        }
        out.flush().unwrap();
        String::from_utf8(std::mem::take(&mut out.inner)).unwrap()
    }

    #[test]
    fn controls_are_escaped_and_text_is_not() {
        let hostile = "Disallow: /\u{1b}[2J\u{1b}]0;pwned\u{7}\r\u{9b}31m é € ✓\tend\n";
        assert_eq!(
            written(Escapes::Text, &[hostile.as_bytes()]),
            "Disallow: /\\x1b[2J\\x1b]0;pwned\\x07\\x0d\\u{9b}31m é € ✓\tend\n"
        );
        assert_eq!(
            written(Escapes::Json, &[b"{\"a\":\"\xc2\x9b\"}\n"]),
            "{\"a\":\"\\u009b\"}\n"
        );
        assert_eq!(safe("plain text, ünïcode"), "plain text, ünïcode");
    }

    #[test]
    fn a_c1_control_split_between_writes_is_still_escaped() {
        assert_eq!(written(Escapes::Text, &[b"a\xc2", b"\x9bb"]), "a\\u{9b}b");
        // A U+00C2..U+00FF letter split the same way passes through.
        assert_eq!(written(Escapes::Text, &[b"\xc2", b"\xa9"]), "©");
    }
}
