//! Why a CuTe layout could not be read, evaluated or computed. Each error carries the numbers; `Display` (and
//! [`CuteError::write_message`], usable in `const` code) says it in rustc's style (see `message`).

use super::breach::{Breach, CppLayout};
use super::limits::Limit;
use super::xla_reason::XlaReason;
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
    pub(super) const fn text(self) -> &'static str {
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
    pub(super) const fn noun(self) -> &'static str {
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
///     "composition is not admissible (shape divisibility, C++ CuTe's static_assert): mode `8:1` of the right-hand \
///      layout needs 8 elements from mode 0 of the coalesced left-hand layout, which holds 3 of them, and 3 does \
///      not divide 8"
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
    /// Composition: a stride of the right-hand layout at least the extent of a mode of the coalesced left-hand
    /// layout and not a multiple of it (stride divisibility; C++ CuTe's `static_assert` "Stride Divisibility
    /// Condition").
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
    /// Composition: the right-hand mode needs more elements than a left-hand mode holds, and that number does not
    /// divide the number needed (shape divisibility; C++ CuTe's `static_assert` "Shape Divisibility Condition").
    ShapeDivisibility {
        /// The right-hand mode (flattened).
        mode: Mode,
        /// The left-hand mode (index in the coalesced left-hand layout).
        left_mode: usize,
        /// The elements the right-hand mode's step takes from it (its extent over the step, rounded up).
        left_extent: usize,
        /// Elements still needed when that mode is reached.
        needed: usize,
    },
    /// Complement: sorted by stride, a mode starts inside the span of the modes before it (a non-injective
    /// layout; C++ CuTe's `static_assert` "Non-injective Layout detected in complement").
    ComplementOverlap {
        /// The mode that starts inside the span of the modes before it.
        mode: Mode,
        /// The span (extent times stride) of the modes with smaller strides.
        covered: usize,
    },
    /// Complement with cotarget 0.
    ZeroCotarget,
    /// Left inverse: sorted by stride, a nonzero stride that is not a multiple of the nonzero stride before it
    /// (C++ CuTe's `static_assert` "Left inverse divisibility condition").
    InverseNotExact {
        /// The mode (of the coalesced layout) whose stride is not a multiple of the one before it.
        mode: Mode,
        /// The nonzero stride before it.
        covered: usize,
    },
    /// C++ CuTe answers this request with a layout that breaks the operation's definition (or, rarely, that
    /// tensor-layout cannot verify): refused, saying what C++ returns and the counterexample.
    CppWrong {
        /// The layout C++ CuTe (CUTLASS 4.2) returns.
        cpp: CppLayout,
        /// For a by-mode tiler, the mode of the result where the definition breaks.
        mode: Option<u8>,
        /// How it breaks the definition.
        breach: Breach,
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
