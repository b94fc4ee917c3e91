//! Any shape (arrays, tuples `( .. )`, buffers `b( .. )`) read as a stream of events, without allocating.

use super::array::parse_array_at;
use super::error::{Capacity, Expected, ParseError, ParseErrorKind, MAX_DEPTH};
use super::lex::{at, error, expected, ident_end, skip_trivia};
use crate::shape::ParsedArray;

/// One step of a shape read by [`ShapeParser`].
// The array is held inline on purpose: the parser is allocation-free, so there is nothing to box it in.
///
/// ```
/// use tensor_layout_core::parse::{Event, ShapeParser};
/// let mut p = ShapeParser::new(b"b(f32[2])");
/// assert_eq!(p.next_event().unwrap(), Some(Event::BufferStart));
/// let Some(Event::Array(a)) = p.next_event().unwrap() else { panic!() };
/// assert_eq!(a.rank(), 1);
/// assert_eq!(p.next_event().unwrap(), Some(Event::BufferEnd));
/// assert_eq!(p.next_event().unwrap(), None);
/// ```
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    /// An array (or `token[]` / `opaque[]`).
    Array(ParsedArray),
    /// `(`: a tuple begins.
    TupleStart,
    /// `)`: the innermost tuple ends.
    TupleEnd,
    /// `b(`: a buffer begins (it holds one array).
    BufferStart,
    /// `)`: the buffer ends.
    BufferEnd,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Want {
    Shape,
    ShapeOrClose,
    BufferArray,
    BufferClose,
    CommaOrClose,
    End,
    Done,
}

/// Reads any shape (arrays, tuples `( .. )`, buffers `b( .. )`) as a stream of [`Event`]s, without allocating.
/// Tuples may nest [`MAX_DEPTH`] deep.
///
/// ```
/// use tensor_layout_core::parse::{Event, ShapeParser};
/// let mut p = ShapeParser::new(b"(f32[2], b(s32[3]))");
/// let mut arrays = 0;
/// while let Some(ev) = p.next_event().unwrap() {
///     if let Event::Array(_) = ev {
///         arrays += 1;
///     }
/// }
/// assert_eq!(arrays, 2);
/// ```
#[derive(Clone, Copy, Debug)]
pub struct ShapeParser<'a> {
    text: &'a [u8],
    pos: usize,
    depth: usize,
    buffer: [bool; MAX_DEPTH],
    want: Want,
}

impl<'a> ShapeParser<'a> {
    /// A parser for one shape spanning `text`.
    ///
    /// ```
    /// use tensor_layout_core::parse::ShapeParser;
    /// assert!(ShapeParser::new(b"()").next_event().is_ok());
    /// ```
    pub const fn new(text: &'a [u8]) -> ShapeParser<'a> {
        ShapeParser { text, pos: 0, depth: 0, buffer: [false; MAX_DEPTH], want: Want::Shape }
    }

    /// The byte position reached.
    ///
    /// ```
    /// use tensor_layout_core::parse::ShapeParser;
    /// let mut p = ShapeParser::new(b"f32[2] ");
    /// p.next_event().unwrap();
    /// assert_eq!(p.position(), 6);
    /// ```
    pub const fn position(&self) -> usize {
        self.pos
    }

    const fn set(&mut self, w: Want) {
        self.want = w;
    }

    const fn after_element(&mut self) {
        if self.depth == 0 {
            self.set(Want::End);
        } else if self.buffer[self.depth - 1] {
            self.set(Want::BufferClose);
        } else {
            self.set(Want::CommaOrClose);
        }
    }

    const fn push(&mut self, buffer: bool, at: usize) -> Result<(), ParseError> {
        if self.depth == MAX_DEPTH {
            return Err(error(at, at + 1, ParseErrorKind::TooMany { what: Capacity::Nesting }));
        }
        self.buffer[self.depth] = buffer;
        self.depth += 1;
        Ok(())
    }

    /// The next event; `Ok(None)` once the whole shape (and nothing after it) was read.
    ///
    /// ```
    /// use tensor_layout_core::parse::{Event, ShapeParser};
    /// let mut p = ShapeParser::new(b"(f32[2],)");
    /// assert_eq!(p.next_event().unwrap(), Some(Event::TupleStart));
    /// assert!(matches!(p.next_event().unwrap(), Some(Event::Array(_))));
    /// assert!(p.next_event().is_err()); // a trailing comma needs a shape after it
    /// ```
    pub const fn next_event(&mut self) -> Result<Option<Event>, ParseError> {
        let text = self.text;
        loop {
            let p = skip_trivia(text, self.pos);
            match self.want {
                Want::Done => return Ok(None),
                Want::End => {
                    if p < text.len() {
                        return Err(expected(text, p, Expected::End));
                    }
                    self.pos = p;
                    self.set(Want::Done);
                    return Ok(None);
                }
                Want::CommaOrClose => {
                    if at(text, p, b',') {
                        self.pos = p + 1;
                        self.set(Want::Shape);
                        continue;
                    }
                    if at(text, p, b')') {
                        self.pos = p + 1;
                        self.depth -= 1;
                        self.after_element();
                        return Ok(Some(Event::TupleEnd));
                    }
                    return Err(expected(text, p, Expected::CommaOrCloseParen));
                }
                Want::BufferClose => {
                    if at(text, p, b')') {
                        self.pos = p + 1;
                        self.depth -= 1;
                        self.after_element();
                        return Ok(Some(Event::BufferEnd));
                    }
                    return Err(expected(text, p, Expected::CommaOrCloseParen));
                }
                Want::BufferArray => {
                    if at(text, p, b'(') || self.buffer_starts(p).is_some() {
                        return Err(error(p, p + 1, ParseErrorKind::NotAnArray));
                    }
                    let (a, end) = tri!(parse_array_at(text, p));
                    self.pos = end;
                    self.set(Want::BufferClose);
                    return Ok(Some(Event::Array(a)));
                }
                Want::Shape | Want::ShapeOrClose => {
                    if matches!(self.want, Want::ShapeOrClose) && at(text, p, b')') {
                        self.pos = p + 1;
                        self.depth -= 1;
                        self.after_element();
                        return Ok(Some(Event::TupleEnd));
                    }
                    if at(text, p, b'(') {
                        tri!(self.push(false, p));
                        self.pos = p + 1;
                        self.set(Want::ShapeOrClose);
                        return Ok(Some(Event::TupleStart));
                    }
                    if let Some(after) = self.buffer_starts(p) {
                        tri!(self.push(true, p));
                        self.pos = after;
                        self.set(Want::BufferArray);
                        return Ok(Some(Event::BufferStart));
                    }
                    let (a, end) = tri!(parse_array_at(text, p));
                    self.pos = end;
                    self.after_element();
                    return Ok(Some(Event::Array(a)));
                }
            }
        }
    }

    /// If `b(` starts at `p`, the position after the `(`.
    const fn buffer_starts(&self, p: usize) -> Option<usize> {
        let end = ident_end(self.text, p);
        if end == p + 1 && self.text[p] == b'b' {
            let q = skip_trivia(self.text, end);
            if at(self.text, q, b'(') {
                return Some(q + 1);
            }
        }
        None
    }
}
