//! The text grammar (spec §2): XLA's HLO form `f32[3,5]{1,0:T(2,2)}` and the macro's form `f32[3,5]<1,0:T(2,2)>`,
//! as `const fn`s over bytes. Syntax only: [`ParsedArray::validate`] applies the rules of spec §3.
//!
//! Whitespace and comments (`/* .. */`, `// ..`) may stand between any two tokens. After `]`, a `{` (or `<`)
//! starts a layout only when an integer or `:` follows it, as in XLA.

use crate::dtype::{bytes_eq, ElementType};
use crate::error::{Capacity, Expected, ParseError, ParseErrorKind, Snippet};
use crate::layout::{Layout, Padding, PaddingValue, SplitConfig, MAX_SPLITS, MAX_SPLIT_INDICES};
use crate::shape::{Dim, ParsedArray, MAX_RANK};
use crate::tile::{Tile, TileDim, MAX_TILES, MAX_TILE_RANK};

/// The deepest tuple nesting [`ShapeParser`] accepts.
///
/// ```
/// use tensor_layout_core::{error::{Capacity, ParseErrorKind}, parse::MAX_DEPTH, print::write_canonical, Error};
/// let nested = |n: usize| format!("{}f32[]{}", "(".repeat(n), ")".repeat(n));
/// assert!(write_canonical(nested(MAX_DEPTH).as_bytes(), &mut String::new()).is_ok());
/// let Err(Error::Parse(e)) = write_canonical(nested(MAX_DEPTH + 1).as_bytes(), &mut String::new()) else { panic!() };
/// assert!(matches!(e.kind, ParseErrorKind::TooMany { what: Capacity::Nesting }));
/// assert_eq!(e.offset, MAX_DEPTH);
/// ```
pub const MAX_DEPTH: usize = 64;

/// The deepest nesting of `P(..)` physical shapes, and of tuples inside them, the parser accepts (`P` is only
/// valid for sparse arrays, so this only bounds how far an invalid shape is read before it is rejected).
///
/// ```
/// use tensor_layout_core::{error::{Capacity, ParseErrorKind}, parse::{parse_array, MAX_PHYSICAL_DEPTH}, ArrayShape};
/// let nested = |n: usize| format!("{}f32[2]{}", "f32[2]{0:P(".repeat(n), ")}".repeat(n));
/// assert!(parse_array(nested(MAX_PHYSICAL_DEPTH).as_bytes()).is_ok());
/// let e = parse_array(nested(MAX_PHYSICAL_DEPTH + 1).as_bytes()).unwrap_err();
/// assert!(matches!(e.kind, ParseErrorKind::TooMany { what: Capacity::PhysicalNesting }));
/// // A physical shape may be a tuple (XLA syntax); a dense array with one is invalid, for XLA's reason.
/// let text = "s32[10]{0:P((s32[10]{0:T(100)}, f32[10]{0:T(100)}))}";
/// assert!(parse_array(text.as_bytes()).is_ok());
/// let e = ArrayShape::parse(text).unwrap_err();
/// assert_eq!(e.to_string(), "`P(..)` is only valid for sparse arrays, not for a dense array");
/// let tuples = |n: usize| format!("f32[2]{{0:P({}f32[2]{})}}", "(".repeat(n), ")".repeat(n));
/// assert!(parse_array(tuples(MAX_PHYSICAL_DEPTH - 1).as_bytes()).is_ok());
/// assert!(parse_array(tuples(MAX_PHYSICAL_DEPTH).as_bytes()).is_err());
/// ```
pub const MAX_PHYSICAL_DEPTH: usize = 4;

/// A byte range `start..end` of the input.
///
/// ```
/// use tensor_layout_core::parse::{parse_array_mapped, Span};
/// let (_, map) = parse_array_mapped(b"f32[3,5]").unwrap();
/// assert_eq!(map.dims[1], Span { start: 6, end: 7 });
/// assert!(map.layout.is_empty()); // no layout written
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Span {
    /// First byte.
    pub start: usize,
    /// One past the last byte.
    pub end: usize,
}

impl Span {
    const NONE: Span = Span { start: 0, end: 0 };

    /// Whether the span is empty (the component was not written).
    ///
    /// ```
    /// use tensor_layout_core::parse::Span;
    /// assert!(Span::default().is_empty());
    /// ```
    pub const fn is_empty(&self) -> bool {
        self.end <= self.start
    }
}

/// Where each component of an array shape stands in the text, for errors that point at the offending token.
///
/// ```
/// use tensor_layout_core::parse::parse_array_mapped;
/// let (_, map) = parse_array_mapped(b"f32[3,5]{1,1}").unwrap();
/// assert_eq!((map.minor_to_major[1].start, map.minor_to_major[1].end), (11, 12));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SourceMap {
    /// The element type.
    pub element_type: Span,
    /// Each dimension.
    pub dims: [Span; MAX_RANK],
    /// The layout, from its opening brace to its closing one (empty when none was written).
    pub layout: Span,
    /// Each `minor_to_major` entry.
    pub minor_to_major: [Span; MAX_RANK],
    /// Each tile, parentheses included.
    pub tiles: [Span; MAX_TILES],
    /// Each tile entry.
    pub tile_entries: [[Span; MAX_TILE_RANK]; MAX_TILES],
    /// Each attribute, keyword to closing parenthesis, indexed as [`ATTRIBUTES`] (empty when absent).
    pub attributes: [Span; ATTRIBUTES.len()],
    /// Each entry of `pad(..)`.
    pub padding: [Span; MAX_RANK],
}

impl SourceMap {
    const EMPTY: SourceMap = SourceMap {
        element_type: Span::NONE,
        dims: [Span::NONE; MAX_RANK],
        layout: Span::NONE,
        minor_to_major: [Span::NONE; MAX_RANK],
        tiles: [Span::NONE; MAX_TILES],
        tile_entries: [[Span::NONE; MAX_TILE_RANK]; MAX_TILES],
        attributes: [Span::NONE; ATTRIBUTES.len()],
        padding: [Span::NONE; MAX_RANK],
    };

    /// The span of a location; empty when that component was not written.
    ///
    /// ```
    /// use tensor_layout_core::parse::parse_array_mapped;
    /// let (p, map) = parse_array_mapped(b"f32[3,5]{1,0:T(0,2)}").unwrap();
    /// let e = p.validate().unwrap_err();
    /// assert_eq!(map.span(e.location()).start, 15); // the `0` of `T(0,2)`
    /// ```
    pub const fn span(&self, at: crate::error::Location) -> Span {
        use crate::error::Location as L;
        let s = match at {
            L::ElementType => self.element_type,
            L::Dims => {
                if self.dims[0].is_empty() {
                    self.element_type
                } else {
                    self.dims[0]
                }
            }
            L::Dim(d) => self.dims[d],
            L::Layout => self.layout,
            L::MinorToMajor(i) => self.minor_to_major[i],
            L::Tile(t) => self.tiles[t],
            L::TileEntry(t, k) => self.tile_entries[t][k],
            L::Attribute(a) => self.attributes[a],
            L::Padding(d) => self.padding[d],
        };
        if s.is_empty() && !matches!(at, L::ElementType) {
            // Not written (a default): point at the layout, or the type.
            if !self.layout.is_empty() {
                return self.layout;
            }
            return self.element_type;
        }
        s
    }
}

macro_rules! tri {
    ($e:expr) => {
        match $e {
            Ok(v) => v,
            Err(e) => return Err(e),
        }
    };
}

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

const fn is_ident_start(b: u8) -> bool {
    b.is_ascii_alphabetic() || b == b'_'
}

const fn is_ident_char(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'.' || b == b'-'
}

/// End of the identifier starting at `pos` (`pos` itself when there is none).
const fn ident_end(text: &[u8], pos: usize) -> usize {
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
const fn token_end(text: &[u8], pos: usize) -> usize {
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

const fn slice(text: &[u8], start: usize, end: usize) -> &[u8] {
    text.split_at(end).0.split_at(start).1
}

const fn expected(text: &[u8], pos: usize, what: Expected) -> ParseError {
    let end = token_end(text, pos);
    ParseError {
        offset: pos,
        end,
        kind: ParseErrorKind::Expected { expected: what, found: Snippet::of(slice(text, pos, end)) },
    }
}

const fn error(pos: usize, end: usize, kind: ParseErrorKind) -> ParseError {
    ParseError { offset: pos, end, kind }
}

const fn at(text: &[u8], pos: usize, b: u8) -> bool {
    pos < text.len() && text[pos] == b
}

/// Skips trivia, then requires byte `b`; returns the position after it.
const fn expect_byte(text: &[u8], pos: usize, b: u8, what: Expected) -> Result<usize, ParseError> {
    let pos = skip_trivia(text, pos);
    if at(text, pos, b) {
        Ok(pos + 1)
    } else {
        Err(expected(text, pos, what))
    }
}

/// Whether an integer starts at `pos` (`-?[0-9]`).
const fn int_starts(text: &[u8], pos: usize) -> bool {
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
const fn parse_size(text: &[u8], pos: usize) -> Result<(u64, usize), ParseError> {
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

/// Parses one array shape that must span the whole text (trivia around it allowed).
///
/// ```
/// use tensor_layout_core::parse::parse_array;
/// let p = parse_array(b" f32[ 3 , 5 ] /* c */ { 1 , 0 } ").unwrap();
/// assert_eq!(p.rank(), 2);
/// assert!(parse_array(b"f32[2]{}").is_err()); // `{}` is not a layout: extra content
/// ```
pub const fn parse_array(text: &[u8]) -> Result<ParsedArray, ParseError> {
    let mut out = ParsedArray::EMPTY;
    match parse_array_into(text, &mut out) {
        Ok(()) => Ok(out),
        Err(e) => Err(e),
    }
}

/// [`parse_array`] into `out` (which must be `ParsedArray::EMPTY`), sparing a copy of the model.
pub(crate) const fn parse_array_into(text: &[u8], out: &mut ParsedArray) -> Result<(), ParseError> {
    let mut map = SourceMap::EMPTY;
    let end = tri!(array_at(text, 0, out, &mut map, 0));
    let end = skip_trivia(text, end);
    if end < text.len() {
        return Err(expected(text, end, Expected::End));
    }
    Ok(())
}

/// Parses one array shape starting at `pos` (after trivia); returns it and the position after it.
///
/// ```
/// use tensor_layout_core::parse::parse_array_at;
/// let text = b"add.1 = bf16[8]{0:T(8)} add(x)";
/// let (p, end) = parse_array_at(text, 8).unwrap();
/// assert_eq!(p.rank(), 1);
/// assert_eq!(&text[end..], b" add(x)");
/// ```
pub const fn parse_array_at(text: &[u8], pos: usize) -> Result<(ParsedArray, usize), ParseError> {
    let mut out = ParsedArray::EMPTY;
    let mut map = SourceMap::EMPTY;
    let end = tri!(array_at(text, pos, &mut out, &mut map, 0));
    Ok((out, end))
}

/// Parses one array shape spanning the whole text, and where each of its components stands.
///
/// ```
/// use tensor_layout_core::parse::parse_array_mapped;
/// let (p, map) = parse_array_mapped(b"bf16[8]{0:T(8)S(1)}").unwrap();
/// assert_eq!(p.rank(), 1);
/// assert_eq!((map.element_type.start, map.element_type.end), (0, 4));
/// ```
pub const fn parse_array_mapped(text: &[u8]) -> Result<(ParsedArray, SourceMap), ParseError> {
    let mut out = ParsedArray::EMPTY;
    let mut map = SourceMap::EMPTY;
    let end = tri!(array_at(text, 0, &mut out, &mut map, 0));
    let end = skip_trivia(text, end);
    if end < text.len() {
        return Err(expected(text, end, Expected::End));
    }
    Ok((out, map))
}

/// Parses one array shape at `pos` into `out`, which must be [`ParsedArray::EMPTY`] (parsing in place spares the
/// copies of the large model); returns the position after it.
const fn array_at(
    text: &[u8],
    pos: usize,
    out: &mut ParsedArray,
    map: &mut SourceMap,
    depth: usize,
) -> Result<usize, ParseError> {
    if pos > text.len() {
        return Err(expected(text, text.len(), Expected::Shape));
    }
    let start = skip_trivia(text, pos);
    let name_end = ident_end(text, start);
    if name_end == start {
        return Err(expected(text, start, Expected::Shape));
    }
    let name = slice(text, start, name_end);
    let Some(element_type) = ElementType::from_name(name) else {
        return Err(error(start, name_end, ParseErrorKind::UnknownElementType { name: Snippet::of(name) }));
    };
    map.element_type = Span { start, end: name_end };
    out.element_type = element_type;
    let mut p = tri!(expect_byte(text, name_end, b'[', Expected::OpenBracket));
    let mut rank = 0;
    p = skip_trivia(text, p);
    if at(text, p, b']') {
        p += 1;
    } else {
        loop {
            p = skip_trivia(text, p);
            let dim_start = p;
            let dim = if at(text, p, b'<') && at(text, p + 1, b'=') {
                let (v, e) = tri!(parse_size(text, p + 2));
                p = e;
                Dim::Bounded(v)
            } else if at(text, p, b'?') {
                p += 1;
                Dim::Unbounded
            } else if int_starts(text, p) {
                let (v, e) = tri!(parse_size(text, p));
                p = e;
                Dim::Static(v)
            } else {
                return Err(expected(text, p, Expected::Dimension));
            };
            if rank == MAX_RANK {
                return Err(error(dim_start, p, ParseErrorKind::TooMany { what: Capacity::Dimensions }));
            }
            out.dims[rank] = dim;
            map.dims[rank] = Span { start: dim_start, end: p };
            rank += 1;
            p = skip_trivia(text, p);
            if at(text, p, b',') {
                p += 1;
            } else if at(text, p, b']') {
                p += 1;
                break;
            } else {
                return Err(expected(text, p, Expected::CommaOrCloseBracket));
            }
        }
    }
    out.rank = rank as u8;
    // A layout follows only if `{` (or `<`) is followed by an integer or `:`.
    let q = skip_trivia(text, p);
    if at(text, q, b'{') || at(text, q, b'<') {
        let close = if text[q] == b'{' { b'}' } else { b'>' };
        let r = skip_trivia(text, q + 1);
        if int_starts(text, r) || at(text, r, b':') {
            let end = tri!(parse_layout_body(text, r, close, &mut out.layout, map, depth));
            map.layout = Span { start: q, end };
            return Ok(end);
        }
    }
    // No layout: the default, major-to-minor.
    let mut i = 0;
    while i < rank {
        out.layout.minor_to_major[i] = (rank - 1 - i) as i64;
        i += 1;
    }
    out.layout.m2m_len = rank as u8;
    Ok(p)
}

/// The layout attributes in XLA's order, with `pad` (our extension) last.
///
/// ```
/// use tensor_layout_core::{error::ParseErrorKind, parse::{parse_array, ATTRIBUTES}};
/// assert_eq!((ATTRIBUTES[1], ATTRIBUTES[6]), ("T", "S"));
/// let e = parse_array(b"f32[2]{0:S(1)T(2)}").unwrap_err();
/// assert!(matches!(e.kind, ParseErrorKind::AttributeOutOfOrder { attribute: "T", after: "S" }));
/// ```
pub const ATTRIBUTES: [&str; 11] = ["D", "T", "L", "#", "*", "E", "S", "SC", "P", "M", "pad"];

/// Identifies the attribute at `pos`: its index in [`ATTRIBUTES`] and the position after its keyword.
const fn attribute_at(text: &[u8], pos: usize) -> Option<(usize, usize)> {
    if at(text, pos, b'#') {
        return Some((3, pos + 1));
    }
    if at(text, pos, b'*') {
        return Some((4, pos + 1));
    }
    let end = ident_end(text, pos);
    let word = slice(text, pos, end);
    let mut i = 0;
    while i < ATTRIBUTES.len() {
        if i != 3 && i != 4 && bytes_eq(ATTRIBUTES[i].as_bytes(), word) {
            return Some((i, end));
        }
        i += 1;
    }
    None
}

/// Parses a layout from just after its opening brace to just after `close`, into `l` (which must be
/// [`Layout::EMPTY`]).
const fn parse_layout_body(
    text: &[u8],
    pos: usize,
    close: u8,
    l: &mut Layout,
    map: &mut SourceMap,
    depth: usize,
) -> Result<usize, ParseError> {
    let mut p = skip_trivia(text, pos);
    if int_starts(text, p) {
        let (n, end) =
            tri!(int_list(text, p, &mut l.minor_to_major, &mut map.minor_to_major, false, Capacity::Dimensions));
        l.m2m_len = n as u8;
        p = end;
    }
    p = skip_trivia(text, p);
    if at(text, p, b':') {
        p += 1;
        let mut last: isize = -1;
        loop {
            p = skip_trivia(text, p);
            if at(text, p, close) {
                break;
            }
            let Some((attr, after)) = attribute_at(text, p) else {
                return Err(expected(text, p, Expected::Attribute));
            };
            if attr as isize == last {
                return Err(error(p, after, ParseErrorKind::DuplicateAttribute { attribute: ATTRIBUTES[attr] }));
            }
            if (attr as isize) < last {
                return Err(error(
                    p,
                    after,
                    ParseErrorKind::AttributeOutOfOrder {
                        attribute: ATTRIBUTES[attr],
                        after: ATTRIBUTES[last as usize],
                    },
                ));
            }
            last = attr as isize;
            let attr_start = p;
            p = tri!(parse_attribute(text, after, attr, l, map, depth));
            map.attributes[attr] = Span { start: attr_start, end: p };
        }
    }
    p = skip_trivia(text, p);
    if !at(text, p, close) {
        return Err(expected(text, p, Expected::LayoutContinuation));
    }
    Ok(p + 1)
}

/// Parses `( INT )` and returns the integer.
const fn paren_int(text: &[u8], pos: usize) -> Result<(i64, usize), ParseError> {
    let p = tri!(expect_byte(text, pos, b'(', Expected::OpenParen));
    let (v, p) = tri!(parse_int(text, p));
    let p = tri!(expect_byte(text, p, b')', Expected::CommaOrCloseParen));
    Ok((v, p))
}

/// Parses the body of one attribute (after its keyword) into `l`.
const fn parse_attribute(
    text: &[u8],
    pos: usize,
    attr: usize,
    l: &mut Layout,
    map: &mut SourceMap,
    depth: usize,
) -> Result<usize, ParseError> {
    match attr {
        0 => parse_dim_level_types(text, pos),
        1 => parse_tiles(text, pos, l, map),
        2 | 5 | 6 | 9 => {
            let (v, p) = tri!(paren_int(text, pos));
            match attr {
                2 => l.tail_padding_alignment = v,
                5 => l.element_size_bits = v,
                6 => l.memory_space = v,
                _ => l.dynamic_metadata_prefix_bytes = v,
            }
            Ok(p)
        }
        3 | 4 => {
            // A bare `*` with no `(type)` is accepted and dropped, as XLA does (spec §2).
            if attr == 4 && !at(text, skip_trivia(text, pos), b'(') {
                return Ok(pos);
            }
            let p = tri!(expect_byte(text, pos, b'(', Expected::OpenParen));
            let start = skip_trivia(text, p);
            let end = ident_end(text, start);
            if end == start {
                return Err(expected(text, start, Expected::ElementTypeName));
            }
            let Some(t) = ElementType::from_name(slice(text, start, end)) else {
                return Err(error(
                    start,
                    end,
                    ParseErrorKind::UnknownElementType { name: Snippet::of(slice(text, start, end)) },
                ));
            };
            if attr == 3 {
                l.index_type = Some(t);
            } else {
                l.pointer_type = Some(t);
            }
            expect_byte(text, end, b')', Expected::CommaOrCloseParen)
        }
        7 => parse_splits(text, pos, l),
        8 => {
            let p = tri!(expect_byte(text, pos, b'(', Expected::OpenParen));
            if depth + 1 > MAX_PHYSICAL_DEPTH {
                return Err(error(pos, p, ParseErrorKind::TooMany { what: Capacity::PhysicalNesting }));
            }
            let p = tri!(physical_shape_at(text, p, depth + 1));
            l.has_physical_shape = true;
            expect_byte(text, p, b')', Expected::CommaOrCloseParen)
        }
        _ => parse_padding(text, pos, l, map),
    }
}

/// The shape inside `P(..)`, read and dropped: an array, a tuple `( .. )` or a buffer `b( .. )`, as XLA's
/// `ParseShape` reads it (a sparse array's physical shape may be a tuple). Tuples count towards the nesting depth,
/// which stays at most [`MAX_PHYSICAL_DEPTH`]; returns the position after the shape.
const fn physical_shape_at(text: &[u8], pos: usize, depth: usize) -> Result<usize, ParseError> {
    let p = skip_trivia(text, pos);
    let buffer = at(text, p, b'b') && ident_end(text, p) == p + 1 && at(text, skip_trivia(text, p + 1), b'(');
    if !at(text, p, b'(') && !buffer {
        let mut inner = SourceMap::EMPTY;
        let mut shape = ParsedArray::EMPTY;
        return array_at(text, p, &mut shape, &mut inner, depth);
    }
    let open = if buffer { skip_trivia(text, p + 1) } else { p };
    if depth + 1 > MAX_PHYSICAL_DEPTH {
        return Err(error(open, open + 1, ParseErrorKind::TooMany { what: Capacity::PhysicalNesting }));
    }
    let mut q = skip_trivia(text, open + 1);
    if !buffer && at(text, q, b')') {
        return Ok(q + 1);
    }
    loop {
        q = tri!(physical_shape_at(text, q, depth + 1));
        q = skip_trivia(text, q);
        if !buffer && at(text, q, b',') {
            q += 1;
        } else if at(text, q, b')') {
            return Ok(q + 1);
        } else {
            return Err(expected(text, q, Expected::CommaOrCloseParen));
        }
    }
}

/// `D(..)`: dimension level types, parsed and dropped as current XLA does.
const fn parse_dim_level_types(text: &[u8], pos: usize) -> Result<usize, ParseError> {
    let mut p = tri!(expect_byte(text, pos, b'(', Expected::OpenParen));
    p = skip_trivia(text, p);
    if at(text, p, b')') {
        return Ok(p + 1);
    }
    loop {
        p = skip_trivia(text, p);
        let end = ident_end(text, p);
        let w = slice(text, p, end);
        if !(w.len() == 1 && (w[0] == b'D' || w[0] == b'C' || w[0] == b'S' || w[0] == b'H')) {
            return Err(expected(text, p, Expected::DimLevelType));
        }
        p = skip_trivia(text, end);
        if at(text, p, b'+') {
            p = skip_trivia(text, p + 1);
        }
        if at(text, p, b'~') {
            p = skip_trivia(text, p + 1);
        }
        if at(text, p, b',') {
            p += 1;
        } else if at(text, p, b')') {
            return Ok(p + 1);
        } else {
            return Err(expected(text, p, Expected::CommaOrCloseParen));
        }
    }
}

/// `T(..)(..)`: one or more tiles.
const fn parse_tiles(text: &[u8], pos: usize, l: &mut Layout, map: &mut SourceMap) -> Result<usize, ParseError> {
    let mut p = skip_trivia(text, pos);
    if !at(text, p, b'(') {
        return Err(expected(text, p, Expected::OpenParen));
    }
    while at(text, p, b'(') {
        let tile_start = p;
        let mut tile = Tile::EMPTY;
        p = skip_trivia(text, p + 1);
        if at(text, p, b')') {
            p += 1;
        } else {
            loop {
                p = skip_trivia(text, p);
                let entry_start = p;
                let entry = if at(text, p, b'*') {
                    p += 1;
                    TileDim::Combine
                } else if int_starts(text, p) {
                    let (v, e) = tri!(parse_int(text, p));
                    if v < 0 {
                        return Err(error(p, e, ParseErrorKind::NegativeTileDimension { value: v }));
                    }
                    p = e;
                    TileDim::Size(v as u64)
                } else {
                    return Err(expected(text, p, Expected::TileEntry));
                };
                if tile.len as usize == MAX_TILE_RANK {
                    return Err(error(entry_start, p, ParseErrorKind::TooMany { what: Capacity::TileEntries }));
                }
                tile.dims[tile.len as usize] = entry;
                if (l.tiles.count as usize) < MAX_TILES {
                    map.tile_entries[l.tiles.count as usize][tile.len as usize] = Span { start: entry_start, end: p };
                }
                tile.len += 1;
                p = skip_trivia(text, p);
                if at(text, p, b',') {
                    p += 1;
                } else if at(text, p, b')') {
                    p += 1;
                    break;
                } else {
                    return Err(expected(text, p, Expected::CommaOrCloseParen));
                }
            }
        }
        if (l.tiles.count as usize) < MAX_TILES {
            map.tiles[l.tiles.count as usize] = Span { start: tile_start, end: p };
        }
        if !l.tiles.push(tile) {
            return Err(error(tile_start, p, ParseErrorKind::TooMany { what: Capacity::Tiles }));
        }
        p = skip_trivia(text, p);
    }
    Ok(p)
}

/// `SC(d:i,..)(..)`: split configurations.
const fn parse_splits(text: &[u8], pos: usize, l: &mut Layout) -> Result<usize, ParseError> {
    let mut p = skip_trivia(text, pos);
    if !at(text, p, b'(') {
        return Err(expected(text, p, Expected::OpenParen));
    }
    while at(text, p, b'(') {
        let split_start = p;
        let (d, e) = tri!(parse_int(text, p + 1));
        let mut sc = SplitConfig { dimension: d, len: 0, indices: [0; MAX_SPLIT_INDICES] };
        p = tri!(expect_byte(text, e, b':', Expected::Colon));
        p = skip_trivia(text, p);
        if !at(text, p, b')') {
            let mut spans = [Span::NONE; MAX_SPLIT_INDICES];
            let (n, end) = tri!(int_list(text, p, &mut sc.indices, &mut spans, false, Capacity::SplitIndices));
            sc.len = n as u8;
            p = end;
        }
        p = tri!(expect_byte(text, p, b')', Expected::CommaOrCloseParen));
        if l.split_count as usize == MAX_SPLITS {
            return Err(error(split_start, p, ParseErrorKind::TooMany { what: Capacity::Splits }));
        }
        l.splits[l.split_count as usize] = sc;
        l.split_count += 1;
        p = skip_trivia(text, p);
    }
    Ok(p)
}

/// `pad(3,5)` or `pad(3,5:zero)`: the older padded dimensions (our extension).
const fn parse_padding(text: &[u8], pos: usize, l: &mut Layout, map: &mut SourceMap) -> Result<usize, ParseError> {
    let p = tri!(expect_byte(text, pos, b'(', Expected::OpenParen));
    let mut pad = Padding { len: 0, dims: [0; MAX_RANK], value: PaddingValue::Unspecified };
    let mut values = [0i64; MAX_RANK];
    let (n, mut p) = tri!(int_list(text, p, &mut values, &mut map.padding, true, Capacity::Dimensions));
    while (pad.len as usize) < n {
        pad.dims[pad.len as usize] = values[pad.len as usize] as u64;
        pad.len += 1;
    }
    if at(text, p, b':') {
        let start = skip_trivia(text, p + 1);
        let end = ident_end(text, start);
        let Some(v) = PaddingValue::from_name(slice(text, start, end)) else {
            return Err(expected(text, start, Expected::PaddingValue));
        };
        pad.value = v;
        p = end;
    }
    l.padding = Some(pad);
    expect_byte(text, p, b')', Expected::CommaOrCloseParen)
}

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
