//! Every verb reads its SHAPE argument here ([`parse_shape`]); errors in it point at the offending bytes, as
//! rustc does:
//!
//! ```text
//! error: invalid shape: minor_to_major has duplicate value 1 (entry 1)
//!   |
//!   | f32[3,5]{1,1}
//!   |            ^
//! ```
//!
//! The argument is shown once, under the message. Columns count characters, so text with `é` in it lines up;
//! characters that are not shown as themselves in messages ([`tensor_layout::parse::shown`]: control characters,
//! separators, invisible format characters) are shown as spaces. The rendering is the library's ([`Error::annotate`], [`Pointer`]), which
//! users of `DynLayout` get too.

use crate::outcome::Failure;
use std::fmt::Display;
use std::ops::Range;
use tensor_layout::parse::{Pointer, Span};
use tensor_layout::{DynLayout, Error};

/// Reads a SHAPE argument: one array shape in `{...}` or `<...>` form, validated. `token[]` and `opaque[]` are
/// refused by `DynLayout` (spec §1: they are not arrays and have no layout to show). The error points at the
/// offending bytes (below).
pub fn parse_shape(text: &str) -> Result<DynLayout, Failure> {
    DynLayout::parse(text).map_err(|e| {
        // A tuple or buffer, where the library expected an element type: say what was found.
        let bytes = text.as_bytes();
        let at = tensor_layout::parse::skip_trivia(bytes, 0);
        let rest = &bytes[at..];
        let buffer =
            rest.starts_with(b"b") && bytes.get(tensor_layout::parse::skip_trivia(bytes, at + 1)) == Some(&b'(');
        if rest.starts_with(b"(") || buffer {
            let what = if buffer { "a buffer" } else { "a tuple" };
            let why = format!("expected one array shape, found {what} (`tlayout explain` explains each element)");
            return invalid_shape(text, why, at..at + 1);
        }
        array_error(text, &e)
    })
}

/// The failure for an invalid SHAPE argument: the message, then the argument (once) with carets under `span`
/// (bytes).
pub fn invalid_shape(text: &str, message: impl Display, span: Range<usize>) -> Failure {
    Failure::new(format_args!("invalid shape: {message}\n{}", pointer(text, span)))
}

/// The failure for an error of the library on one array shape `text`: parse errors point at their token (and drop
/// their `(at byte N)`), validation errors at the component they name ([`Error::annotate`]).
pub fn array_error(text: &str, e: &Error) -> Failure {
    Failure::new(format_args!("invalid shape: {}", e.annotate(text)))
}

/// Three lines: a gutter, the text, carets under `span` (at least one, after the text for its end).
pub fn pointer(text: &str, span: Range<usize>) -> String {
    Pointer::new(text, Span { start: span.start, end: span.end }).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn message(f: Failure) -> String {
        match f {
            Failure::Input(m) => m,
            Failure::OutputClosed => panic!("expected an input failure"),
        }
    }

    #[test]
    fn carets_under_the_offending_bytes() {
        assert_eq!(pointer("f32[3,5]{1,1}", 11..12), "  |\n  | f32[3,5]{1,1}\n  |            ^");
        assert_eq!(pointer("f32[3", 5..5), "  |\n  | f32[3\n  |      ^");
        // Characters, not bytes: `é` is two bytes and one column.
        assert_eq!(pointer("f32[é,x]", 7..8), "  |\n  | f32[é,x]\n  |       ^");
        assert_eq!(pointer("a\tb", 2..3), "  |\n  | a b\n  |   ^");
        assert_eq!(pointer("ab", 7..9), "  |\n  | ab\n  |   ^");
        assert_eq!(pointer("a\u{1b}\u{2028}b", 5..6), "  |\n  | a  b\n  |    ^");
    }

    #[test]
    fn parse_and_validation_errors_point_at_their_token() {
        let m = message(array_error("f32[3,5]{1,1}", &tensor_layout::DynLayout::parse("f32[3,5]{1,1}").unwrap_err()));
        assert_eq!(
            m,
            "invalid shape: minor_to_major has duplicate value 1 (entry 1)\n  |\n  | f32[3,5]{1,1}\n  |            ^"
        );
        let text = "f32[3,5]{1,0:T(2,2)S(1)T(2)}";
        let m = message(array_error(text, &tensor_layout::DynLayout::parse(text).unwrap_err()));
        assert!(m.starts_with("invalid shape: layout attribute `T` must come"), "{m}");
        assert!(!m.contains("at byte"), "{m}");
        assert!(m.ends_with(&format!("\n  | {text}\n  | {}^", " ".repeat(23))), "{m}");
        let m = message(array_error("f32[é]", &tensor_layout::DynLayout::parse("f32[é]").unwrap_err()));
        assert!(m.contains("found `é`") && m.ends_with("\n  | f32[é]\n  |     ^"), "{m}");
        let m = message(array_error("token[]", &tensor_layout::DynLayout::parse("token[]").unwrap_err()));
        assert!(m.ends_with("  | token[]\n  | ^^^^^"), "{m}");
    }

    #[test]
    fn shape_errors_quote_the_argument() {
        let Err(Failure::Input(m)) = parse_shape(" f32[3,5]{1,1} ") else { panic!("expected an input failure") };
        assert!(m.starts_with("invalid shape: minor_to_major has duplicate"), "{m}");
        assert_eq!(m.matches("f32[3,5]{1,1}").count(), 1, "{m}");
        assert!(m.ends_with("\n  |  f32[3,5]{1,1}\n  |             ^"), "{m}");
        assert!(parse_shape("f32[3,5]<1,0>").is_ok());
        let Err(Failure::Input(m)) = parse_shape(" (f32[2], s32[])") else { panic!("expected an input failure") };
        assert!(m.starts_with("invalid shape: expected one array shape, found a tuple"), "{m}");
        assert!(m.ends_with("\n  |  (f32[2], s32[])\n  |  ^"), "{m}");
        let Err(Failure::Input(m)) = parse_shape("b(f32[2])") else { panic!("expected an input failure") };
        assert!(m.contains(": expected one array shape, found a buffer (`tlayout explain`"), "{m}");
        let Err(Failure::Input(m)) = parse_shape("bf16[2") else { panic!("expected an input failure") };
        assert!(m.contains("expected `,` or `]`, found end of input"), "{m}");
        let Err(Failure::Input(m)) = parse_shape("token[]") else { panic!("expected an input failure") };
        assert_eq!(
            m,
            "invalid shape: `token` is not an array type and has no memory layout\n  |\n  | token[]\n  | ^^^^^"
        );
    }
}
