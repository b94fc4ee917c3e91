//! Why a CuTe layout could not be read, evaluated or computed. Each error carries the numbers; `Display` (and
//! [`CuteError::write_message`], usable in `const` code) says it in rustc's style.

use super::limits::Limit;
use super::xla_reason::XlaReason;
use crate::print::TextBuf;
use core::fmt;

/// What the parser expected.
///
/// ```
/// use tensor_layout_core::cute::{CuteError, Expected, Layout};
/// assert!(matches!(Layout::parse("(2,3)"), Err(CuteError::Syntax { expected: Expected::Colon, .. })));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Expected {
    /// An integer or `(`.
    Tuple,
    /// `,` or `)`.
    CommaOrClose,
    /// `:` between shape and stride.
    Colon,
    /// `,` or `>` in a by-mode tiler.
    CommaOrAngle,
    /// The end of the text.
    End,
}

impl Expected {
    const fn text(self) -> &'static str {
        match self {
            Expected::Tuple => "an integer or `(`",
            Expected::CommaOrClose => "`,` or `)`",
            Expected::Colon => "`:` and a stride",
            Expected::CommaOrAngle => "`,` or `>`",
            Expected::End => "the end of the text",
        }
    }
}

/// Which integers of a layout or request a value belongs to.
///
/// ```
/// use tensor_layout_core::cute::{CuteError, Layout, Part};
/// assert!(matches!(Layout::parse("4:-1"), Err(CuteError::Negative { part: Part::Stride, .. })));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Part {
    /// A shape (extents).
    Shape,
    /// A stride.
    Stride,
    /// A coordinate.
    Coordinate,
    /// A lone integer (an index, a cotarget).
    Integer,
}

impl Part {
    const fn noun(self) -> &'static str {
        match self {
            Part::Shape => "shape",
            Part::Stride => "stride",
            Part::Coordinate => "coordinate",
            Part::Integer => "integer",
        }
    }
}

/// One mode of a flat layout: an extent and a stride (`4:2`).
///
/// ```
/// use tensor_layout_core::cute::Mode;
/// assert_eq!(Mode { extent: 4, stride: 2 }.to_string(), "4:2");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Mode {
    /// The extent.
    pub extent: usize,
    /// The stride.
    pub stride: usize,
}

impl fmt::Display for Mode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.extent, self.stride)
    }
}

/// Any error of the CuTe model.
///
/// ```
/// use tensor_layout_core::cute::{Layout, Tiler};
/// let a = Layout::parse("(3,4):(0,3)").unwrap();
/// let e = a.composition(&Tiler::parse("8:1").unwrap()).unwrap_err();
/// assert_eq!(
///     e.to_string(),
///     "composition is not admissible (shape divisibility): mode `8:1` of the right-hand layout needs 8 elements \
///      from mode 0 of the coalesced left-hand layout, which has 3, and 3 does not divide 8"
/// );
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum CuteError {
    /// The text is not CuTe's notation.
    Syntax {
        /// Byte offset.
        at: usize,
        /// What would have been accepted.
        expected: Expected,
        /// The byte found (`None` at the end).
        found: Option<u8>,
    },
    /// An integer larger than `usize::MAX`.
    IntegerTooLarge {
        /// Byte offset.
        at: usize,
    },
    /// A negative number (this model supports non-negative strides only).
    Negative {
        /// Byte offset.
        at: usize,
        /// Where.
        part: Part,
    },
    /// An extent of 0.
    ZeroExtent {
        /// Byte offset (0 for an extent computed by an operation).
        at: usize,
    },
    /// `()`.
    EmptyTuple {
        /// Byte offset.
        at: usize,
    },
    /// Shape and stride do not have the same nesting.
    NotCongruent,
    /// More integers, tuples or nesting than this model holds.
    Capacity {
        /// What.
        what: Limit,
    },
    /// A size, cosize, offset or intermediate product beyond `usize::MAX`.
    Overflow,
    /// A coordinate whose nesting does not follow the shape.
    CoordinateNotCongruent,
    /// A coordinate at or past its extent.
    CoordinateOutOfBounds {
        /// The coordinate.
        coordinate: usize,
        /// The extent (the size of the sub-shape for an integer coordinate of a tuple).
        extent: usize,
    },
    /// An index at or past the size.
    IndexOutOfBounds {
        /// The index.
        index: usize,
        /// The size.
        size: usize,
    },
    /// A mode number past the rank.
    ModeOutOfRange {
        /// The mode asked for.
        mode: usize,
        /// The rank.
        rank: usize,
    },
    /// A layout that reaches past the storage it indexes.
    StorageTooSmall {
        /// The largest offset reached, plus one.
        reach: usize,
        /// Elements of the storage.
        storage: usize,
    },
    /// A by-mode tiler with more modes than the layout.
    TilerRank {
        /// Modes of the tiler.
        tiler: usize,
        /// Modes of the layout.
        rank: usize,
    },
    /// A coalescing profile with more modes than the layout.
    ProfileRank {
        /// Modes of the profile.
        profile: usize,
        /// Modes of the layout.
        rank: usize,
    },
    /// A by-mode tiler where only a layout is defined (`blocked_product`, `raked_product`).
    TilerNotLayout {
        /// The operation.
        operation: &'static str,
    },
    /// Composition: a stride of the right-hand layout and an extent of the coalesced left-hand layout, neither
    /// dividing the other (stride divisibility, CuTe's `shape_div`).
    StrideDivisibility {
        /// The right-hand mode (flattened).
        mode: Mode,
        /// The left-hand mode (index in the coalesced left-hand layout).
        left_mode: usize,
        /// Its extent.
        left_extent: usize,
        /// The stride still to step over when that mode is reached.
        stride: usize,
    },
    /// Composition: the right-hand mode needs more elements than a left-hand mode holds, and that mode's extent
    /// does not divide the number needed (shape divisibility).
    ShapeDivisibility {
        /// The right-hand mode (flattened).
        mode: Mode,
        /// The left-hand mode (index in the coalesced left-hand layout).
        left_mode: usize,
        /// Its extent (after the stride is divided out).
        left_extent: usize,
        /// Elements still needed when that mode is reached.
        needed: usize,
    },
    /// Composition: the modes of the right-hand layout together reach past the extent of a mode of the
    /// coalesced left-hand layout, so `A(x + y) != A(x) + A(y)` for some of their sums (a carry), and composing
    /// mode by mode would be wrong.
    CompositionCarry {
        /// The left-hand mode (index in the coalesced left-hand layout, not the last).
        left_mode: usize,
        /// Its extent.
        left_extent: usize,
        /// The largest index the right-hand modes reach in it together.
        reach: usize,
    },
    /// Composition: the right-hand layout reaches past the left-hand layout's size, where a layout continues
    /// along its last mode, and that last mode has extent 1 with a stride that coalescing drops.
    AmbiguousExtension {
        /// The largest index the right-hand layout reaches, plus one.
        reach: usize,
        /// The size of the left-hand layout.
        size: usize,
        /// The left-hand layout's last mode.
        last: Mode,
    },
    /// Complement: modes that overlap when sorted by stride (a non-injective layout).
    ComplementOverlap {
        /// The mode that starts inside the span of the modes before it.
        mode: Mode,
        /// The span (extent times stride) of the modes with smaller strides.
        covered: usize,
    },
    /// Complement: modes that do not nest exactly (a stride not a multiple of the span before it) leave offsets
    /// unreached, and the layout with its complement spans less than the cotarget.
    ComplementShort {
        /// The first mode whose stride is not a multiple of the span before it.
        mode: Mode,
        /// That span.
        covered: usize,
        /// The cosize of the layout with its complement.
        span: usize,
        /// The cotarget.
        cotarget: usize,
    },
    /// Complement with cotarget 0.
    ZeroCotarget,
    /// Left inverse of a layout with a stride-0 mode of extent above 1 (not injective).
    NotInjective {
        /// The mode.
        mode: Mode,
    },
    /// Left inverse of a layout whose modes, sorted by stride, do not nest exactly.
    InverseNotExact {
        /// The mode whose stride is not a multiple of the span before it.
        mode: Mode,
        /// The span of the modes with smaller strides.
        covered: usize,
    },
    /// `Swizzle<B,M,S>` with |S| < B.
    SwizzleShift {
        /// B.
        bits: u32,
        /// M.
        base: u32,
        /// S.
        shift: i32,
    },
    /// `Swizzle<B,M,S>` whose bits do not fit a `usize`.
    SwizzleWidth {
        /// B.
        bits: u32,
        /// M.
        base: u32,
        /// S.
        shift: i32,
    },
    /// An XLA layout without a CuTe equivalent.
    FromXla(XlaReason),
}

const fn mode<const N: usize>(b: &mut TextBuf<N>, m: Mode) {
    b.push_str("`");
    b.push_u64(m.extent as u64);
    b.push_str(":");
    b.push_u64(m.stride as u64);
    b.push_str("`");
}

const fn num<const N: usize>(b: &mut TextBuf<N>, v: usize) {
    b.push_u64(v as u64);
}

const fn swizzle<const N: usize>(b: &mut TextBuf<N>, bits: u32, base: u32, shift: i32) {
    b.push_str("`Swizzle<");
    b.push_u64(bits as u64);
    b.push_str(",");
    b.push_u64(base as u64);
    b.push_str(",");
    b.push_i64(shift as i64);
    b.push_str(">`");
}

impl CuteError {
    /// Writes the message (the words `Display` prints) into a fixed buffer: usable in `const` code, where
    /// compile-time checks panic with it.
    ///
    /// ```
    /// use tensor_layout_core::{cute::CuteError, print::TextBuf};
    /// let mut b = TextBuf::<128>::new();
    /// CuteError::IndexOutOfBounds { index: 9, size: 8 }.write_message(&mut b);
    /// assert_eq!(b.as_str(), "index 9 is out of bounds for a layout of size 8");
    /// ```
    pub const fn write_message<const N: usize>(&self, b: &mut TextBuf<N>) {
        use CuteError as E;
        match *self {
            E::Syntax { at, expected, found } => {
                b.push_str("expected ");
                b.push_str(expected.text());
                b.push_str(", found ");
                match found {
                    Some(c) if c.is_ascii_graphic() => {
                        b.push_str("`");
                        b.push_bytes(&[c]);
                        b.push_str("`");
                    }
                    Some(c) => {
                        b.push_str("byte ");
                        b.push_u64(c as u64);
                    }
                    None => b.push_str("the end of the text"),
                }
                b.push_str(" (at byte ");
                num(b, at);
                b.push_str(")");
            }
            E::IntegerTooLarge { at } => {
                b.push_str("integer does not fit in `usize` (at byte ");
                num(b, at);
                b.push_str(")");
            }
            E::Negative { at, part } => {
                b.push_str("negative ");
                b.push_str(part.noun());
                b.push_str(" (at byte ");
                num(b, at);
                b.push_str("): this model has non-negative extents, strides and coordinates only");
            }
            E::ZeroExtent { at } => {
                b.push_str("extent 0 (at byte ");
                num(b, at);
                b.push_str("): extents must be positive");
            }
            E::EmptyTuple { at } => {
                b.push_str("empty tuple `()` (at byte ");
                num(b, at);
                b.push_str(")");
            }
            E::NotCongruent => b.push_str("shape and stride are not congruent (they must nest the same way)"),
            E::Capacity { what } => {
                b.push_str("more than ");
                num(b, what.limit());
                b.push_str(" ");
                b.push_str(what.noun());
                b.push_str(" (the fixed capacity of tensor-layout's CuTe layouts)");
            }
            E::Overflow => b.push_str("a size, offset or product overflows `usize`"),
            E::CoordinateNotCongruent => b.push_str("the coordinate does not follow the shape's nesting"),
            E::CoordinateOutOfBounds { coordinate, extent } => {
                b.push_str("coordinate ");
                num(b, coordinate);
                b.push_str(" is out of bounds for extent ");
                num(b, extent);
            }
            E::IndexOutOfBounds { index, size } => {
                b.push_str("index ");
                num(b, index);
                b.push_str(" is out of bounds for a layout of size ");
                num(b, size);
            }
            E::ModeOutOfRange { mode, rank } => {
                b.push_str("mode ");
                num(b, mode);
                b.push_str(" is out of range for a layout of rank ");
                num(b, rank);
            }
            E::StorageTooSmall { reach, storage } => {
                b.push_str("the layout reaches offset ");
                num(b, reach.saturating_sub(1));
                b.push_str(" but the storage holds ");
                num(b, storage);
                b.push_str(" elements");
            }
            E::TilerRank { tiler, rank } => {
                b.push_str("the by-mode tiler has ");
                num(b, tiler);
                b.push_str(" modes but the layout has rank ");
                num(b, rank);
            }
            E::ProfileRank { profile, rank } => {
                b.push_str("the profile has ");
                num(b, profile);
                b.push_str(" modes but the layout has rank ");
                num(b, rank);
            }
            E::TilerNotLayout { operation } => {
                b.push_str("`");
                b.push_str(operation);
                b.push_str("` takes a layout, not a by-mode tiler `<..>`");
            }
            E::StrideDivisibility { mode: m, left_mode, left_extent, stride } => {
                b.push_str("composition is not admissible (stride divisibility): mode ");
                mode(b, m);
                b.push_str(" of the right-hand layout steps by ");
                num(b, stride);
                b.push_str(" through mode ");
                num(b, left_mode);
                b.push_str(" of the coalesced left-hand layout, of extent ");
                num(b, left_extent);
                b.push_str(", and neither of ");
                num(b, stride);
                b.push_str(" and ");
                num(b, left_extent);
                b.push_str(" divides the other");
            }
            E::ShapeDivisibility { mode: m, left_mode, left_extent, needed } => {
                b.push_str("composition is not admissible (shape divisibility): mode ");
                mode(b, m);
                b.push_str(" of the right-hand layout needs ");
                num(b, needed);
                b.push_str(" elements from mode ");
                num(b, left_mode);
                b.push_str(" of the coalesced left-hand layout, which has ");
                num(b, left_extent);
                b.push_str(", and ");
                num(b, left_extent);
                b.push_str(" does not divide ");
                num(b, needed);
            }
            E::CompositionCarry { left_mode, left_extent, reach } => {
                b.push_str("composition is not admissible: the modes of the right-hand layout together reach index ");
                num(b, reach);
                b.push_str(" of mode ");
                num(b, left_mode);
                b.push_str(" of the coalesced left-hand layout, whose extent is ");
                num(b, left_extent);
                b.push_str(", so their sums carry into the next mode and composing mode by mode would be wrong");
            }
            E::AmbiguousExtension { reach, size, last } => {
                b.push_str("composition is ambiguous: the right-hand layout reaches index ");
                num(b, reach.saturating_sub(1));
                b.push_str(", past the size ");
                num(b, size);
                b.push_str(" of the left-hand layout, which continues there along its last mode ");
                mode(b, last);
                b.push_str("; that mode has extent 1 and coalescing drops its stride");
            }
            E::ComplementOverlap { mode: m, covered } => {
                b.push_str("complement is not admissible: sorted by stride, mode ");
                mode(b, m);
                b.push_str(" starts at ");
                num(b, m.stride);
                b.push_str(", inside the ");
                num(b, covered);
                b.push_str(" offsets spanned by the modes before it (the layout is not injective there)");
            }
            E::ComplementShort { mode: m, covered, span, cotarget } => {
                b.push_str("complement is not admissible: sorted by stride, mode ");
                mode(b, m);
                b.push_str(" starts at ");
                num(b, m.stride);
                b.push_str(", not a multiple of ");
                num(b, covered);
                b.push_str(", and the offsets this leaves unreached make the layout with its complement span ");
                num(b, span);
                b.push_str(" offsets, short of the cotarget ");
                num(b, cotarget);
            }
            E::ZeroCotarget => b.push_str("complement needs a cotarget of at least 1"),
            E::NotInjective { mode: m } => {
                b.push_str("left_inverse needs an injective layout: mode ");
                mode(b, m);
                b.push_str(" maps ");
                num(b, m.extent);
                b.push_str(" coordinates to one offset");
            }
            E::InverseNotExact { mode: m, covered } => {
                b.push_str("left_inverse is not admissible: sorted by stride, mode ");
                mode(b, m);
                b.push_str(" starts at ");
                num(b, m.stride);
                b.push_str(", which is not a multiple of ");
                num(b, covered);
                b.push_str(", the span of the modes before it");
            }
            E::SwizzleShift { bits, base, shift } => {
                swizzle(b, bits, base, shift);
                b.push_str(" needs |S| >= B: the shift ");
                b.push_i64(shift as i64);
                b.push_str(" is shorter than the ");
                b.push_u64(bits as u64);
                b.push_str(" bits it moves");
            }
            E::SwizzleWidth { bits, base, shift } => {
                swizzle(b, bits, base, shift);
                b.push_str(" spans B + M + |S| = ");
                b.push_u64(bits as u64 + base as u64 + shift.unsigned_abs() as u64);
                b.push_str(" bits, more than the ");
                b.push_u64(usize::BITS as u64 - 1);
                b.push_str(" of a `usize` index");
            }
            E::FromXla(r) => {
                b.push_str("no CuTe layout has the offsets of this XLA layout: ");
                r.write_message(b);
            }
        }
    }
}

impl fmt::Display for CuteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut b = TextBuf::<512>::new();
        self.write_message(&mut b);
        f.write_str(b.as_str())
    }
}

impl core::error::Error for CuteError {}
