//! Tokens: whitespace and comments, identifiers, integers and integer lists, and the errors that point at a token.

use super::error::{Capacity, Expected, ParseError, ParseErrorKind, Snippet};
use super::source_map::Span;

/// Skips whitespace and comments from `pos`.
///
/// ```
/// use tensor_layout_core::parse::skip_trivia;
/// let text = b"  /* c */ // line\n f32[2]";
/// assert_eq!(skip_trivia(text, 0), 19);
/// assert_eq!(&text[19..], b"f32[2]");
/// assert_eq!(skip_trivia(text, 19), 19); // nothing to skip
/// ```
pub const fn skip_trivia(text: &[u8], mut pos: usize) -> usize {
    while pos < text.len() {
        let b = text[pos];
        if b == b' ' || b == b'\t' || b == b'\n' || b == b'\r' {
            pos += 1;
        } else if b == b'/' && pos + 1 < text.len() && text[pos + 1] == b'*' {
            pos += 2;
            while pos < text.len() && !(text[pos] == b'*' && pos + 1 < text.len() && text[pos + 1] == b'/') {
                pos += 1;
            }
            pos = if pos + 2 <= text.len() { pos + 2 } else { text.len() };
        } else if b == b'/' && pos + 1 < text.len() && text[pos + 1] == b'/' {
            while pos < text.len() && text[pos] != b'\n' {
                pos += 1;
            }
        } else {
            break;
        }
    }
    pos
}

pub(super) const fn is_ident_start(b: u8) -> bool {
    b.is_ascii_alphabetic() || b == b'_'
}

pub(super) const fn is_ident_char(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'.' || b == b'-'
}

/// End of the identifier starting at `pos` (`pos` itself when there is none).
pub(super) const fn ident_end(text: &[u8], pos: usize) -> usize {
    if pos >= text.len() || !is_ident_start(text[pos]) {
        return pos;
    }
    let mut end = pos + 1;
    while end < text.len() && is_ident_char(text[end]) {
        end += 1;
    }
    end
}

/// End of the token at `pos`, for error messages: an identifier, a number, or one byte.
pub(super) const fn token_end(text: &[u8], pos: usize) -> usize {
    if pos >= text.len() {
        return pos;
    }
    let e = ident_end(text, pos);
    if e > pos {
        return e;
    }
    let mut end = pos;
    if text[end] == b'-' {
        end += 1;
    }
    while end < text.len() && text[end].is_ascii_digit() {
        end += 1;
    }
    if end > pos && !(end == pos + 1 && text[pos] == b'-') {
        return end;
    }
    // One UTF-8 character.
    let mut end = pos + 1;
    while end < text.len() && (text[end] & 0xC0) == 0x80 {
        end += 1;
    }
    end
}

pub(super) const fn slice(text: &[u8], start: usize, end: usize) -> &[u8] {
    text.split_at(end).0.split_at(start).1
}

pub(super) const fn expected(text: &[u8], pos: usize, what: Expected) -> ParseError {
    let end = token_end(text, pos);
    ParseError {
        offset: pos,
        end,
        kind: ParseErrorKind::Expected { expected: what, found: Snippet::of(slice(text, pos, end)) },
    }
}

pub(super) const fn error(pos: usize, end: usize, kind: ParseErrorKind) -> ParseError {
    ParseError { offset: pos, end, kind }
}

pub(super) const fn at(text: &[u8], pos: usize, b: u8) -> bool {
    pos < text.len() && text[pos] == b
}

/// Skips trivia, then requires byte `b`; returns the position after it.
pub(super) const fn expect_byte(text: &[u8], pos: usize, b: u8, what: Expected) -> Result<usize, ParseError> {
    let pos = skip_trivia(text, pos);
    if at(text, pos, b) {
        Ok(pos + 1)
    } else {
        Err(expected(text, pos, what))
    }
}

/// Whether an integer starts at `pos` (`-?[0-9]`).
pub(super) const fn int_starts(text: &[u8], pos: usize) -> bool {
    (pos < text.len() && text[pos].is_ascii_digit())
        || (at(text, pos, b'-') && pos + 1 < text.len() && text[pos + 1].is_ascii_digit())
}

/// Parses `-?[0-9]+` at `pos` (after trivia) as an `i64`. Values outside the `i64` range are errors (XLA would
/// reinterpret large values through `u64`).
///
/// ```
/// use tensor_layout_core::{error::ParseErrorKind, parse::parse_int};
/// assert_eq!(parse_int(b"-42", 0), Ok((-42, 3)));
/// assert_eq!(parse_int(b"[ 7,", 1), Ok((7, 3))); // trivia skipped first
/// let e = parse_int(b"9223372036854775808", 0).unwrap_err();
/// assert_eq!(e.kind, ParseErrorKind::IntegerOutOfRange);
/// ```
pub const fn parse_int(text: &[u8], pos: usize) -> Result<(i64, usize), ParseError> {
    let pos = skip_trivia(text, pos);
    if !int_starts(text, pos) {
        return Err(expected(text, pos, Expected::Integer));
    }
    let neg = text[pos] == b'-';
    let mut p = if neg { pos + 1 } else { pos };
    let mut v: u64 = 0;
    let mut overflow = false;
    while p < text.len() && text[p].is_ascii_digit() {
        match v.checked_mul(10) {
            Some(x) => match x.checked_add((text[p] - b'0') as u64) {
                Some(y) => v = y,
                None => overflow = true,
            },
            None => overflow = true,
        }
        p += 1;
    }
    let limit = if neg { i64::MAX as u64 + 1 } else { i64::MAX as u64 };
    if overflow || v > limit {
        return Err(error(pos, p, ParseErrorKind::IntegerOutOfRange));
    }
    let value = if neg { (v as i64).wrapping_neg() } else { v as i64 };
    Ok((value, p))
}

/// Parses a non-negative integer (a size) at `pos`.
pub(super) const fn parse_size(text: &[u8], pos: usize) -> Result<(u64, usize), ParseError> {
    let start = skip_trivia(text, pos);
    let (v, end) = tri!(parse_int(text, start));
    if v < 0 {
        return Err(error(start, end, ParseErrorKind::NegativeDimension { value: v }));
    }
    Ok((v as u64, end))
}

/// Parses `INT (',' INT)*` at `pos` (after trivia) into `values`, each with its span: at most `N` integers
/// (more is a `TooMany { what }` error), non-negative ones when `sizes`. Returns how many and the position after
/// the last.
pub(crate) const fn int_list<const N: usize>(
    text: &[u8],
    pos: usize,
    values: &mut [i64; N],
    spans: &mut [Span; N],
    sizes: bool,
    what: Capacity,
) -> Result<(usize, usize), ParseError> {
    let mut n = 0;
    let mut p = pos;
    loop {
        let start = skip_trivia(text, p);
        let (v, e) = tri!(parse_int(text, start));
        if sizes && v < 0 {
            return Err(error(start, e, ParseErrorKind::NegativeDimension { value: v }));
        }
        if n == N {
            return Err(error(start, e, ParseErrorKind::TooMany { what }));
        }
        values[n] = v;
        spans[n] = Span { start, end: e };
        n += 1;
        p = skip_trivia(text, e);
        if at(text, p, b',') {
            p += 1;
        } else {
            return Ok((n, p));
        }
    }
}
