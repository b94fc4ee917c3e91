//! Input shown back in a message: one rule for every message that quotes what the user gave (`ERR` lines of the
//! line verbs, `error:` messages, the text under a caret, the invalid shapes `scan` lists).
//!
//! A character is shown as itself unless it could change how the output reads: control characters (`ESC` starts
//! terminal sequences, `NUL`, line ends, C1 controls), the line and paragraph separators (U+2028, U+2029), and the
//! invisible format characters that reorder or hide text (bidirectional controls, zero-width characters, the byte
//! order mark, the soft hyphen). Those are written as the `\xNN` escapes of their UTF-8 bytes, as
//! `tensor-layout`'s own messages write control characters (``found `\x1b` ``): one line of input is one line of
//! output, and what is printed is what was typed.

use std::borrow::Cow;
use std::fmt::Write as _;

/// Whether `c` is shown as itself (see the module documentation): the library's rule, which its carets follow too.
pub use tensor_layout::parse::shown;

/// `text` with every character that is not [`shown`] written as the `\xNN` escapes of its UTF-8 bytes.
pub fn escape(text: &str) -> Cow<'_, str> {
    if text.chars().all(shown) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if shown(c) {
            out.push(c);
        } else {
            let mut utf8 = [0; 4];
            for b in c.encode_utf8(&mut utf8).bytes() {
                // Writing to a String cannot fail.
                let _ = write!(out, "\\x{b:02x}");
            }
        }
    }
    Cow::Owned(out)
}

/// The lines of `text` (split at `\n`), each escaped: for messages made of several lines.
pub fn escape_lines(text: &str) -> String {
    text.split('\n').map(escape).collect::<Vec<_>>().join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn controls_separators_and_invisible_characters_are_escaped() {
        assert_eq!(escape("f32[3,5]{1,0}"), "f32[3,5]{1,0}");
        assert!(matches!(escape("é → ü"), Cow::Borrowed(_)));
        assert_eq!(escape("a\u{1b}[31mb"), "a\\x1b[31mb");
        assert_eq!(escape("\0\t\r\n\u{7f}"), "\\x00\\x09\\x0d\\x0a\\x7f");
        assert_eq!(escape("\u{85}"), "\\xc2\\x85"); // C1 NEL
        assert_eq!(escape("a\u{2028}b\u{2029}"), "a\\xe2\\x80\\xa8b\\xe2\\x80\\xa9");
        assert_eq!(escape("\u{202e}x\u{200b}\u{feff}"), "\\xe2\\x80\\xaex\\xe2\\x80\\x8b\\xef\\xbb\\xbf");
        // Backslashes stay: a message that already escaped a byte keeps its escape.
        assert_eq!(escape("found `\\x1b`"), "found `\\x1b`");
    }

    #[test]
    fn lines_are_escaped_one_by_one() {
        assert_eq!(escape_lines("a\u{1b}\n  | b\u{2028}"), "a\\x1b\n  | b\\xe2\\x80\\xa8");
    }
}
