//! Errors shown under the text they are about, as rustc shows them: the message, then the text with carets under
//! the offending bytes. One rendering for every user of the library and for `tlayout`.
//!
//! ```
//! use tensor_layout_core::ArrayShape;
//! let text = "f32[3,5]{1,0:S(1)T(2,2)}";
//! let e = ArrayShape::parse(text).unwrap_err();
//! assert_eq!(e.to_string(), "layout attribute `T` must come before `S` (at byte 17)");
//! assert_eq!(
//!     e.annotate(text).to_string(),
//!     "layout attribute `T` must come before `S`\n  |\n  | f32[3,5]{1,0:S(1)T(2,2)}\n  |                  ^"
//! );
//! ```

use core::fmt;

use super::array::parse_array_mapped;
use super::error::Error;
use super::source_map::Span;

/// Three lines: a gutter, `text` (control characters as spaces, trailing blanks dropped) and carets under the
/// bytes `span` (at least one caret; past the text for an error at its end). Columns count characters, so text
/// with `é` in it lines up.
///
/// ```
/// use tensor_layout_core::parse::{Pointer, Span};
/// let p = Pointer::new("f32[é,x]", Span { start: 7, end: 8 });
/// assert_eq!(p.to_string(), "  |\n  | f32[é,x]\n  |       ^");
/// assert_eq!(Pointer::new("f32[3", Span { start: 5, end: 5 }).to_string(), "  |\n  | f32[3\n  |      ^");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pointer<'a> {
    text: &'a str,
    span: Span,
}

impl<'a> Pointer<'a> {
    /// Carets under `span` of `text` (clamped to the text).
    pub const fn new(text: &'a str, span: Span) -> Pointer<'a> {
        Pointer { text, span }
    }
}

/// Whether a message shows `c` as itself: not a control character, a line or paragraph separator, or an invisible
/// formatting character (a zero-width space, a bidirectional override, a soft hyphen, ...). Pointers show the
/// others as spaces, so what a person sees lines up with the carets and cannot be rearranged by the text.
///
/// ```
/// use tensor_layout_core::parse::shown;
/// assert!(shown('é') && shown('['));
/// assert!(!shown('\u{1b}') && !shown('\u{2028}') && !shown('\u{202e}') && !shown('\u{200b}'));
/// ```
pub fn shown(c: char) -> bool {
    !(c.is_control()
        || matches!(
            c,
            '\u{00ad}'
                | '\u{061c}'
                | '\u{180e}'
                | '\u{200b}'..='\u{200f}'
                | '\u{2028}'..='\u{202e}'
                | '\u{2060}'..='\u{2064}'
                | '\u{2066}'..='\u{206f}'
                | '\u{feff}'
                | '\u{fff9}'..='\u{fffb}'
        ))
}

/// The characters in `bytes`: bytes that do not continue a UTF-8 sequence.
fn columns(bytes: &[u8]) -> usize {
    bytes.iter().filter(|&&b| b & 0xC0 != 0x80).count()
}

impl fmt::Display for Pointer<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let bytes = self.text.as_bytes();
        let start = self.span.start.min(bytes.len());
        let end = self.span.end.clamp(start, bytes.len());
        f.write_str("  |\n  | ")?;
        let text = self.text.trim_end_matches(|c: char| c.is_whitespace() || !shown(c));
        for c in text.chars() {
            fmt::Write::write_char(f, if shown(c) { c } else { ' ' })?;
        }
        f.write_str("\n  | ")?;
        for _ in 0..columns(&bytes[..start]) {
            f.write_str(" ")?;
        }
        for _ in 0..columns(&bytes[start..end]).max(1) {
            f.write_str("^")?;
        }
        Ok(())
    }
}

/// An error with the text it is about: its message, then the text with carets under the offending bytes
/// ([`Error::annotate`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Annotated<'a> {
    error: Error,
    text: &'a str,
}

impl Annotated<'_> {
    /// The error.
    ///
    /// ```
    /// use tensor_layout_core::{ArrayShape, Error};
    /// let e = ArrayShape::parse("f32[3").unwrap_err();
    /// assert!(matches!(e.annotate("f32[3").error(), Error::Parse(_)));
    /// ```
    pub const fn error(&self) -> Error {
        self.error
    }
}

impl Error {
    /// Where in `text` (the text this error came from) the error lies: a parse error at its token, a validation
    /// error at the component it names, anything else the whole text.
    ///
    /// ```
    /// use tensor_layout_core::{parse::Span, ArrayShape};
    /// let e = ArrayShape::parse("f32[3,5]{1,1}").unwrap_err();
    /// assert_eq!(e.span_in("f32[3,5]{1,1}"), Span { start: 11, end: 12 }); // the second `1`
    /// ```
    pub const fn span_in(&self, text: &str) -> Span {
        match self {
            Error::Parse(p) => Span { start: p.offset, end: p.end },
            Error::Invalid(v) => match parse_array_mapped(text.as_bytes()) {
                Ok((_, map)) => map.span(v.location()),
                Err(_) => Span { start: 0, end: text.len() },
            },
            _ => Span { start: 0, end: text.len() },
        }
    }

    /// This error shown under `text` (the text it came from), as rustc shows errors: the message (a parse error
    /// without its `(at byte N)`), then the text with carets under the offending bytes.
    ///
    /// ```
    /// use tensor_layout_core::ArrayShape;
    /// let text = "f32[3,5]{1,0:T(0,2)}";
    /// let e = ArrayShape::parse(text).unwrap_err();
    /// assert_eq!(
    ///     e.annotate(text).to_string(),
    ///     "tile 0 has size 0 at entry 0; tile sizes must be positive\n  |\n  | f32[3,5]{1,0:T(0,2)}\n  |                ^"
    /// );
    /// ```
    pub const fn annotate<'a>(&self, text: &'a str) -> Annotated<'a> {
        Annotated { error: *self, text }
    }
}

impl fmt::Display for Annotated<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.error {
            Error::Parse(p) => write!(f, "{}", p.kind)?,
            other => write!(f, "{other}")?,
        }
        write!(f, "\n{}", Pointer::new(self.text, self.error.span_in(self.text)))
    }
}

impl core::error::Error for Annotated<'_> {}
