//! The canonical printer (spec §2 "Canonical print"): XLA's printed form, written by `const fn`s into a
//! fixed-capacity [`TextBuf`], so compile-time code can build messages with it too.

use crate::dim::Dim;
use crate::dtype::ElementType;
use crate::layout::{PaddingValue, XlaLayout};
use crate::parse::error::Error;
use crate::parse::{Event, ShapeParser, MAX_DEPTH};
use crate::shape::{ArrayShape, ParsedArray};
use crate::tile::{TileDim, TileLevel};
use core::fmt;

pub use crate::message::TextBuf;

/// Bytes enough for the canonical text of any array shape within this crate's capacities.
///
/// ```
/// use tensor_layout_core::print::{write_array, TextBuf, MAX_TEXT};
/// use tensor_layout_core::{ElementType, ParsedArray, MAX_RANK};
/// let p = ParsedArray::new(ElementType::F32, &[u64::MAX; MAX_RANK]).unwrap();
/// let (mut big, mut small) = (TextBuf::<MAX_TEXT>::new(), TextBuf::<64>::new());
/// write_array(&mut big, &p);
/// write_array(&mut small, &p);
/// assert!(!big.overflowed() && small.overflowed());
/// ```
pub const MAX_TEXT: usize = 8192;

/// Writes an element type and dimensions: `f32[<=3,?,5]`.
///
/// ```
/// use tensor_layout_core::{parse::parse_array, print::{write_type_and_dims, TextBuf}};
/// let p = parse_array(b"f32[<=3, ?,5]{2,1,0}").unwrap();
/// let mut b = TextBuf::<64>::new();
/// write_type_and_dims(&mut b, p.element_type(), p.dims());
/// assert_eq!(b.as_str(), "f32[<=3,?,5]");
/// ```
pub const fn write_type_and_dims<const N: usize>(b: &mut TextBuf<N>, element_type: ElementType, dims: &[Dim]) {
    b.push_str(element_type.name());
    b.push_str("[");
    let mut i = 0;
    while i < dims.len() {
        if i > 0 {
            b.push_str(",");
        }
        match dims[i] {
            Dim::Static(n) => b.push_u64(n),
            Dim::Bounded(n) => {
                b.push_str("<=");
                b.push_u64(n)
            }
            Dim::Unbounded => b.push_str("?"),
        }
        i += 1;
    }
    b.push_str("]");
}

/// Writes a layout in XLA's canonical form `{1,0:T(8,128)(2,1)S(1)}`; attributes at their defaults are omitted.
///
/// ```
/// use tensor_layout_core::{parse::parse_array, print::{write_layout, TextBuf}};
/// let mut b = TextBuf::<64>::new();
/// write_layout(&mut b, parse_array(b"f32[3,5]{0,1:T(2,2)L(1)E(0)S(0)}").unwrap().layout());
/// assert_eq!(b.as_str(), "{0,1:T(2,2)}");
/// ```
pub const fn write_layout<const N: usize, const R: usize, const T: usize, const E: usize, const S: usize>(
    b: &mut TextBuf<N>,
    l: &XlaLayout<R, T, E, S>,
) {
    let mut part = 0;
    while write_layout_part(b, l, part) {
        part += 1;
    }
}

/// The most bytes one part of a layout's text takes ([`write_layout_part`]): 16 entries of 20 digits and a sign.
const PART: usize = 512;

/// Writes part `part` of a layout's canonical text ([`write_layout`] writes them all), each at most [`PART`]
/// bytes, so the text can be streamed through a small buffer: the order (`{` and `minor_to_major`), one part
/// per tile level, the integer attributes, one part per split configuration, then `P`, `M`, `pad(..)` and `}`.
/// Returns `false` past the last part.
const fn write_layout_part<const N: usize, const R: usize, const T: usize, const E: usize, const S: usize>(
    b: &mut TextBuf<N>,
    l: &XlaLayout<R, T, E, S>,
    part: usize,
) -> bool {
    let (tiles, splits) = (l.tiles(), l.split_configs());
    if part == 0 {
        b.push_str("{");
        let m2m = l.minor_to_major();
        let mut i = 0;
        while i < m2m.len() {
            if i > 0 {
                b.push_str(",");
            }
            b.push_i64(m2m[i]);
            i += 1;
        }
        if l.has_attributes() {
            b.push_str(":");
        }
    } else if part <= T {
        if part <= tiles.len() {
            if part == 1 {
                b.push_str("T");
            }
            write_tile(b, &tiles[part - 1]);
        }
    } else if part == T + 1 {
        write_int_attributes(b, l);
    } else if part <= T + 1 + S {
        let s = part - T - 2;
        if s < splits.len() {
            if s == 0 {
                b.push_str("SC");
            }
            write_split(b, &splits[s]);
        }
    } else {
        write_last_attributes(b, l);
        b.push_str("}");
        return false;
    }
    true
}

/// `L`, `#`, `*`, `E` and `S`, when not at their defaults.
const fn write_int_attributes<const N: usize, const R: usize, const T: usize, const E: usize, const S: usize>(
    b: &mut TextBuf<N>,
    l: &XlaLayout<R, T, E, S>,
) {
    if l.tail_padding_alignment() != 1 {
        write_int_attribute(b, "L", l.tail_padding_alignment());
    }
    if let Some(t) = l.index_type() {
        b.push_str("#(");
        b.push_str(t.name());
        b.push_str(")");
    }
    if let Some(t) = l.pointer_type() {
        b.push_str("*(");
        b.push_str(t.name());
        b.push_str(")");
    }
    if l.element_size_bits() != 0 {
        write_int_attribute(b, "E", l.element_size_bits());
    }
    if l.memory_space_raw() != 0 {
        write_int_attribute(b, "S", l.memory_space_raw());
    }
}

/// One split configuration: `(d:i,j)`.
const fn write_split<const N: usize>(b: &mut TextBuf<N>, split: &crate::layout::SplitConfig) {
    b.push_str("(");
    b.push_i64(split.dimension());
    b.push_str(":");
    let idx = split.indices();
    let mut k = 0;
    while k < idx.len() {
        if k > 0 {
            b.push_str(",");
        }
        b.push_i64(idx[k]);
        k += 1;
    }
    b.push_str(")");
}

/// `P`, `M` and `pad(..)`, when written.
const fn write_last_attributes<const N: usize, const R: usize, const T: usize, const E: usize, const S: usize>(
    b: &mut TextBuf<N>,
    l: &XlaLayout<R, T, E, S>,
) {
    if l.has_physical_shape() {
        b.push_str("P(..)");
    }
    if l.dynamic_metadata_prefix_bytes() > 0 {
        write_int_attribute(b, "M", l.dynamic_metadata_prefix_bytes());
    }
    if let Some(p) = l.padding() {
        b.push_str("pad(");
        let dims = p.dims();
        let mut k = 0;
        while k < dims.len() {
            if k > 0 {
                b.push_str(",");
            }
            b.push_u64(dims[k]);
            k += 1;
        }
        if !matches!(p.value(), PaddingValue::Unspecified) {
            b.push_str(":");
            b.push_str(p.value().name());
        }
        b.push_str(")");
    }
}

/// Writes a layout's canonical text to `f` part by part ([`write_layout_part`]): a small buffer whatever the
/// capacity, so printing a layout takes little stack on small targets.
fn stream_layout<const R: usize, const T: usize, const E: usize, const S: usize>(
    f: &mut fmt::Formatter<'_>,
    l: &XlaLayout<R, T, E, S>,
) -> fmt::Result {
    let mut part = 0;
    loop {
        let mut b = TextBuf::<PART>::new();
        let more = write_layout_part(&mut b, l, part);
        f.write_str(b.as_str())?;
        if !more {
            return Ok(());
        }
        part += 1;
    }
}

/// Writes tiles as XLA prints them: `T(8,128)(2,1)`, `*` for a combined dimension; nothing for no tiles.
///
/// ```
/// use tensor_layout_core::{parse::parse_array, print::{write_tiles, TextBuf}};
/// let p = parse_array(b"f32[2,7,8]{2,1,0:T(*,2,4)(2,1)}").unwrap();
/// let mut b = TextBuf::<64>::new();
/// write_tiles(&mut b, p.layout().tiles());
/// assert_eq!(b.as_str(), "T(*,2,4)(2,1)");
/// ```
pub const fn write_tiles<const N: usize, const E: usize>(b: &mut TextBuf<N>, tiles: &[TileLevel<E>]) {
    if tiles.is_empty() {
        return;
    }
    b.push_str("T");
    let mut t = 0;
    while t < tiles.len() {
        write_tile(b, &tiles[t]);
        t += 1;
    }
}

/// Writes one tile: `(8,128)`, `*` for a combined dimension.
///
/// ```
/// use tensor_layout_core::{print::{write_tile, TextBuf}, TileLevel, TileDim};
/// let mut b = TextBuf::<64>::new();
/// write_tile(&mut b, &TileLevel::new(&[TileDim::Combine, TileDim::Size(128)]).unwrap());
/// assert_eq!(b.as_str(), "(*,128)");
/// ```
pub const fn write_tile<const N: usize, const E: usize>(b: &mut TextBuf<N>, tile: &TileLevel<E>) {
    b.push_str("(");
    let dims = tile.dims();
    let dims = dims.as_slice();
    let mut k = 0;
    while k < dims.len() {
        if k > 0 {
            b.push_str(",");
        }
        match dims[k] {
            TileDim::Size(n) => b.push_u64(n),
            TileDim::Combine => b.push_str("*"),
        }
        k += 1;
    }
    b.push_str(")");
}

impl<const E: usize> fmt::Display for TileLevel<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut b = TextBuf::<PART>::new();
        write_tile(&mut b, self);
        f.write_str(b.as_str())
    }
}

const fn write_int_attribute<const N: usize>(b: &mut TextBuf<N>, name: &str, v: i64) {
    b.push_str(name);
    b.push_str("(");
    b.push_i64(v);
    b.push_str(")");
}

/// Writes an array shape in canonical form: the layout always for rank >= 1, for scalars only when it has
/// attributes.
///
/// ```
/// use tensor_layout_core::{parse::parse_array, print::{write_array, TextBuf}};
/// let mut b = TextBuf::<64>::new();
/// write_array(&mut b, &parse_array(b"f32[3,5]").unwrap());
/// assert_eq!(b.as_str(), "f32[3,5]{1,0}");
/// let mut b = TextBuf::<64>::new();
/// write_array(&mut b, &parse_array(b"u32[]{:T(256)}").unwrap());
/// assert_eq!(b.as_str(), "u32[]{:T(256)}");
/// ```
pub const fn write_array<const N: usize, const R: usize, const T: usize, const E: usize, const S: usize>(
    b: &mut TextBuf<N>,
    p: &ParsedArray<R, T, E, S>,
) {
    write_type_and_dims(b, p.element_type(), p.dims());
    if p.rank() > 0 || p.layout().has_attributes() {
        write_layout(b, p.layout());
    }
}

impl<const R: usize, const T: usize, const E: usize, const S: usize> fmt::Display for ParsedArray<R, T, E, S> {
    /// [`write_array`], streamed through a small buffer.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut b = TextBuf::<PART>::new();
        write_type_and_dims(&mut b, self.element_type(), self.dims());
        f.write_str(b.as_str())?;
        if self.rank() > 0 || self.layout().has_attributes() {
            stream_layout(f, self.layout())?;
        }
        Ok(())
    }
}

impl<const R: usize, const T: usize, const E: usize, const S: usize> fmt::Display for ArrayShape<R, T, E, S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.as_parsed().fmt(f)
    }
}

impl<const R: usize, const T: usize, const E: usize, const S: usize> fmt::Display for XlaLayout<R, T, E, S> {
    /// [`write_layout`], streamed through a small buffer.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        stream_layout(f, self)
    }
}

// `Debug` shows the canonical text, not the fixed-capacity arrays behind it.

impl<const R: usize, const T: usize, const E: usize, const S: usize> fmt::Debug for ParsedArray<R, T, E, S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ParsedArray({self})")
    }
}

impl<const R: usize, const T: usize, const E: usize, const S: usize> fmt::Debug for ArrayShape<R, T, E, S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ArrayShape({self})")
    }
}

impl<const R: usize, const T: usize, const E: usize, const S: usize> fmt::Debug for XlaLayout<R, T, E, S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "XlaLayout({self})")
    }
}

/// Parses any shape (arrays, tuples, buffers), validates every array in it, and writes its canonical form:
/// tuples joined by `, ` with `/*index=N*/` before every fifth element, buffers as `b(..)`.
///
/// ```
/// use tensor_layout_core::print::write_canonical;
/// let mut out = String::new();
/// write_canonical(b"(f32[2], s32[])", &mut out).unwrap();
/// assert_eq!(out, "(f32[2]{0}, s32[])");
/// ```
pub fn write_canonical<W: fmt::Write>(text: &[u8], out: &mut W) -> Result<(), Error> {
    let mut parser = ShapeParser::new(text);
    let mut counts = [0usize; MAX_DEPTH + 1];
    let mut depth = 0;
    let mut put = |s: &str| out.write_str(s).map_err(|_| Error::Write);
    let mut b = TextBuf::<MAX_TEXT>::new();
    while let Some(event) = parser.next_event()? {
        // Separator before an element of a tuple.
        if !matches!(event, Event::TupleEnd | Event::BufferEnd) && depth > 0 {
            let n = counts[depth];
            if n > 0 {
                if n % 5 == 0 {
                    let mut b = TextBuf::<32>::new();
                    b.push_str(", /*index=");
                    b.push_u64(n as u64);
                    b.push_str("*/");
                    put(b.as_str())?;
                } else {
                    put(", ")?;
                }
            }
            counts[depth] += 1;
        }
        match event {
            Event::Array(p) => {
                let s = p.validate()?;
                b.clear();
                write_array(&mut b, s.as_parsed());
                put(b.as_str())?;
            }
            Event::TupleStart | Event::BufferStart => {
                put(if matches!(event, Event::TupleStart) { "(" } else { "b(" })?;
                depth += 1;
                counts[depth] = 0;
            }
            Event::TupleEnd | Event::BufferEnd => {
                put(")")?;
                depth -= 1;
            }
        }
    }
    Ok(())
}
