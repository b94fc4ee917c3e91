//! One array shape: element type, dimensions, and the layout with its attributes (spec §2).

use super::error::{Capacity, Expected, ParseError, ParseErrorKind, Snippet, MAX_PHYSICAL_DEPTH};
use super::lex::{
    at, error, expect_byte, expected, ident_end, int_list, int_starts, parse_int, parse_size, skip_trivia, slice,
};
use super::source_map::{SourceMap, Span};
use crate::dim::{Dim, MAX_RANK};
use crate::dtype::{bytes_eq, ElementType};
use crate::layout::{Padding, PaddingValue, SplitConfig, XlaLayout, ATTRIBUTES, MAX_SPLITS, MAX_SPLIT_INDICES};
use crate::shape::ParsedArray;
use crate::tile::{TileDim, TileLevel, MAX_TILES, MAX_TILE_RANK};

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
pub(super) const fn parse_array_into(text: &[u8], out: &mut ParsedArray) -> Result<(), ParseError> {
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
/// [`XlaLayout::EMPTY`]).
const fn parse_layout_body(
    text: &[u8],
    pos: usize,
    close: u8,
    l: &mut XlaLayout,
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
    l: &mut XlaLayout,
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
const fn parse_tiles(text: &[u8], pos: usize, l: &mut XlaLayout, map: &mut SourceMap) -> Result<usize, ParseError> {
    let mut p = skip_trivia(text, pos);
    if !at(text, p, b'(') {
        return Err(expected(text, p, Expected::OpenParen));
    }
    while at(text, p, b'(') {
        let tile_start = p;
        let mut tile = TileLevel::EMPTY;
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
                let entries = tile.len();
                if entries == MAX_TILE_RANK {
                    return Err(error(entry_start, p, ParseErrorKind::TooMany { what: Capacity::TileEntries }));
                }
                // Sizes come from `parse_int`: at most `i64::MAX`, which a tile holds.
                tile.push(entry);
                if (l.tile_count as usize) < MAX_TILES {
                    map.tile_entries[l.tile_count as usize][entries] = Span { start: entry_start, end: p };
                }
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
        if (l.tile_count as usize) < MAX_TILES {
            map.tiles[l.tile_count as usize] = Span { start: tile_start, end: p };
        }
        if !l.push_tile(tile) {
            return Err(error(tile_start, p, ParseErrorKind::TooMany { what: Capacity::Tiles }));
        }
        p = skip_trivia(text, p);
    }
    Ok(p)
}

/// `SC(d:i,..)(..)`: split configurations.
const fn parse_splits(text: &[u8], pos: usize, l: &mut XlaLayout) -> Result<usize, ParseError> {
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
const fn parse_padding(text: &[u8], pos: usize, l: &mut XlaLayout, map: &mut SourceMap) -> Result<usize, ParseError> {
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
